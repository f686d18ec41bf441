// Package wrapper holds what the test database's Go wrappers (ferretdb, toxiproxy) share: their
// common flags, the check that they listen on 127.0.0.1 only, and stopping once the process
// that started them is gone.
package wrapper

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
)

// Options are the flags every wrapper takes.
type Options struct {
	// ListenAddr is 127.0.0.1:<port>, checked by CheckListenAddr.
	ListenAddr string
	// StopOnStdinClose asks the wrapper to stop when its standard input closes.
	StopOnStdinClose bool
}

// Parse reads args: --listen-addr (described by what), --stop-on-stdin-close, and the flags that
// define adds to the set; it refuses other arguments and an address off 127.0.0.1.
func Parse(name, what string, args []string, define func(*flag.FlagSet)) (Options, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	listenAddr := fs.String("listen-addr", "", what+"; must be 127.0.0.1:<port>")
	stopOnStdinClose := fs.Bool("stop-on-stdin-close", false, "stop when standard input closes (the parent died)")
	if define != nil {
		define(fs)
	}
	if err := fs.Parse(args); err != nil {
		return Options{}, err
	}
	if fs.NArg() > 0 {
		return Options{}, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if err := CheckListenAddr(*listenAddr); err != nil {
		return Options{}, err
	}
	return Options{ListenAddr: *listenAddr, StopOnStdinClose: *stopOnStdinClose}, nil
}

// StopWhenStdinCloses calls stop once standard input closes, when the options ask for it.
func (o Options) StopWhenStdinCloses(stop func()) {
	if !o.StopOnStdinClose {
		return
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()
}

// CheckListenAddr accepts 127.0.0.1:<port> with a port from 1 to 65535, and nothing else.
func CheckListenAddr(addr string) error {
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
