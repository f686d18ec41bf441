// Command ferretdb runs FerretDB 1.x with its SQLite backend for the Animal Store tests.
//
// It wraps the embeddable package github.com/FerretDB/FerretDB/ferretdb instead of building
// github.com/FerretDB/FerretDB/cmd/ferretdb, which panics when built from another module (its
// generated build/version files are not in the module zip). The embeddable package keeps its
// state in memory and disables telemetry itself. This wrapper listens on 127.0.0.1 only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("ferretdb", flag.ContinueOnError)
	listenAddr := fs.String("listen-addr", "", "TCP address to listen on; must be 127.0.0.1:<port>")
	sqliteURL := fs.String("sqlite-url", "", "SQLite directory URI, e.g. file:/tmp/data/")
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
	if !strings.HasPrefix(*sqliteURL, "file:") || !strings.HasSuffix(*sqliteURL, "/") {
		return fmt.Errorf("--sqlite-url must look like file:<dir>/, got %q", *sqliteURL)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if *stopOnStdinClose {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listenAddr},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: *sqliteURL,
	})
	if err != nil {
		return err
	}

	// ferretdb.New has bound the TCP port already; Run accepts connections.
	fmt.Fprintf(os.Stderr, "ferretdb: ready on %s\n", *listenAddr)
	return f.Run(ctx)
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
