package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/warden-mcp/warden/internal/server"
)

const (
	// startLook bounds each look at a file when a start is abandoned.
	startLook = 2 * time.Second
	// stopBeforeServing bounds the wait for a start stopped (SIGTERM)
	// before it served.
	stopBeforeServing = 5 * time.Second
)

// awaitStart runs serve, which calls serving once warden serves, and
// returns its code. A start that has not served within limit, or that is
// stopped and does not end, is abandoned with code 1, naming the files a
// start reads that do not answer: one on a mount whose server is gone (a
// hard NFS mount) holds the start in the kernel, where nothing ends the
// wait, and the process must exit for a service manager to try again.
func awaitStart(ctx context.Context, limit time.Duration, files func() []server.StartFile, stderr io.Writer, serve func(serving func()) int) int {
	done, served := make(chan int, 1), make(chan struct{})
	go func() { done <- serve(func() { close(served) }) }()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	what := fmt.Sprintf("warden: not serving %s after starting; stopping", limit)
	select {
	case code := <-done:
		return code
	case <-served:
		return <-done
	case <-ctx.Done():
		select {
		case code := <-done:
			return code
		case <-served:
			return <-done
		case <-time.After(stopBeforeServing):
			what = "warden: stopped before serving, and the start did not end"
		}
	case <-timer.C:
	}
	fmt.Fprintln(stderr, what)
	held := server.NotAnswering(files(), startLook)
	for _, err := range held {
		fmt.Fprintf(stderr, "warden: %v\n", err)
	}
	if len(held) == 0 {
		fmt.Fprintln(stderr, "warden: every file a start reads answered; the log above shows how far it came")
	}
	return 1
}
