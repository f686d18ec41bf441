// Command ferretdb runs FerretDB 1.x with its SQLite backend for the Animal Store tests.
//
// It wraps the embeddable package github.com/FerretDB/FerretDB/ferretdb instead of building
// github.com/FerretDB/FerretDB/cmd/ferretdb, which panics when built from another module (its
// generated build/version files are not in the module zip). The embeddable package keeps its
// state in memory and disables telemetry itself. This wrapper listens on 127.0.0.1 only.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"

	"github.com/animal-store/test-db/wrapper"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	var sqliteURL *string
	options, err := wrapper.Parse("ferretdb", "TCP address to listen on", args, func(fs *flag.FlagSet) {
		sqliteURL = fs.String("sqlite-url", "", "SQLite directory URI, e.g. file:/tmp/data/")
	})
	if err != nil {
		return err
	}
	if !strings.HasPrefix(*sqliteURL, "file:") || !strings.HasSuffix(*sqliteURL, "/") {
		return fmt.Errorf("--sqlite-url must look like file:<dir>/, got %q", *sqliteURL)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	options.StopWhenStdinCloses(stop)

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: options.ListenAddr},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: *sqliteURL,
	})
	if err != nil {
		return err
	}

	// ferretdb.New has bound the TCP port already; Run accepts connections.
	fmt.Fprintf(os.Stderr, "ferretdb: ready on %s\n", options.ListenAddr)
	return f.Run(ctx)
}
