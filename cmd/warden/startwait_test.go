package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/server"
)

// TestAwaitStart: a start that serves runs to its end, however long past
// the limit; one that never serves is given up at the limit, or soon
// after it is stopped, with code 1 and a word on why.
func TestAwaitStart(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	never := func(func()) int { <-release; return 0 }
	for _, c := range []struct {
		name  string
		stop  bool
		serve func(serving func()) int
		code  int
		said  string
	}{
		{"serves past the limit", false, func(serving func()) int { serving(); time.Sleep(300 * time.Millisecond); return 0 }, 0, ""},
		{"fails before serving", false, func(func()) int { return 7 }, 7, ""},
		{"never serves", false, never, 1, "not serving 100ms after starting; stopping\nwarden: every file a start reads answered"},
		{"stopped and never serves", true, never, 1, "stopped before serving"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			limit := 100 * time.Millisecond
			if c.stop {
				limit = time.Hour
				cancel()
			}
			var out strings.Builder
			if code := awaitStart(ctx, limit, func() []server.StartFile { return nil }, &out, c.serve); code != c.code || c.said != "" && !strings.Contains(out.String(), c.said) || c.said == "" && out.Len() > 0 {
				t.Errorf("code %d, said %q; want %d saying %q", code, out.String(), c.code, c.said)
			}
		})
	}
}

// TestStartTimeoutMustBePositive: a start bound of zero or less is a
// usage error, not a warden that gives up at once or never.
func TestStartTimeoutMustBePositive(t *testing.T) {
	for _, v := range []string{"0", "-1s"} {
		var out strings.Builder
		if code := run(context.Background(), []string{"serve", "--start-timeout", v}, strings.NewReader(""), &out, &out, func(string) string { return "" }); code != 2 || !strings.Contains(out.String(), "--start-timeout must be positive") {
			t.Errorf("serve --start-timeout %s: code %d, %q", v, code, out.String())
		}
	}
}
