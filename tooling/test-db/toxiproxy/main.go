// Command toxiproxy runs the Toxiproxy HTTP API server for the Animal Store fault tests.
//
// It wraps the package github.com/Shopify/toxiproxy/v2 instead of its cmd/server, which keeps
// running after its API failed to bind (a port taken meanwhile) and listens on localhost by
// default. This wrapper binds 127.0.0.1 only, exits when the bind fails, and can stop when its
// standard input closes (the parent died).
package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/animal-store/test-db/wrapper"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "toxiproxy: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	options, err := wrapper.Parse("toxiproxy", "TCP address of the HTTP API", args, nil)
	if err != nil {
		return err
	}

	logger := zerolog.New(os.Stderr).Level(zerolog.WarnLevel).With().Timestamp().Logger()
	server := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()), logger)

	// Bound here, so that a taken port fails the start with the listener's own error.
	listener, err := net.Listen("tcp", options.ListenAddr)
	if err != nil {
		return err
	}
	_ = listener.Close()

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	options.StopWhenStdinCloses(func() { stop <- syscall.SIGTERM })
	failed := make(chan error, 1)
	go func() { failed <- server.Listen(options.ListenAddr) }()
	fmt.Fprintf(os.Stderr, "toxiproxy: %s on %s\n", toxiproxy.Version, options.ListenAddr)
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
