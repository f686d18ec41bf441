// Command toxiproxy runs the Toxiproxy HTTP API server for the Animal Store fault tests.
//
// It wraps the package github.com/Shopify/toxiproxy/v2 instead of its cmd/server, which keeps
// running after its API failed to bind (a port taken meanwhile) and listens on localhost by
// default. This wrapper binds 127.0.0.1 only, exits when the bind fails, and can stop when its
// standard input closes (the parent died).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "toxiproxy: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("toxiproxy", flag.ContinueOnError)
	listenAddr := fs.String("listen-addr", "", "TCP address of the HTTP API; must be 127.0.0.1:<port>")
	stopOnStdinClose := fs.Bool("stop-on-stdin-close", false, "stop when standard input closes (the parent died)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if err := checkListenAddr(*listenAddr); err != nil {
		return err
	}

	logger := zerolog.New(os.Stderr).Level(zerolog.WarnLevel).With().Timestamp().Logger()
	server := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()), logger)

	// Bound here, so that a taken port fails the start with the listener's own error.
	listener, err := net.Listen("tcp", *listenAddr)
	if err != nil {
		return err
	}
	_ = listener.Close()

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	if *stopOnStdinClose {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop <- syscall.SIGTERM
		}()
	}
	failed := make(chan error, 1)
	go func() { failed <- server.Listen(*listenAddr) }()
	fmt.Fprintf(os.Stderr, "toxiproxy: %s on %s\n", toxiproxy.Version, *listenAddr)
	select {
	case err := <-failed:
		if err == nil {
			return errors.New("the HTTP API stopped")
		}
		return err
	case <-stop:
		return server.Shutdown()
	}
}

// checkListenAddr accepts 127.0.0.1:<port> with a port from 1 to 65535, and nothing else.
func checkListenAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen-addr must be 127.0.0.1:<port>, got %q", addr)
	}
	if host != "127.0.0.1" {
		return errors.New("--listen-addr must bind 127.0.0.1 only, got host " + strconv.Quote(host))
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("--listen-addr port must be 1-65535, got %q", port)
	}
	return nil
}
