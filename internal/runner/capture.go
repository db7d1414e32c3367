package runner

import (
	"io"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Capture keeps at most max bytes of a command's stdout and stderr together
// and counts the rest. Writes never fail and never block on the cap, so a
// child that prints gigabytes is drained at full speed while memory stays at
// max.
type Capture struct {
	mu     sync.Mutex
	max    int
	kept   int
	out    []byte
	err    []byte
	cutOut bool
	cutErr bool
	total  atomic.Int64
}

// NewCapture returns a Capture that keeps at most max bytes; max <= 0 means
// DefaultMaxBytes.
func NewCapture(max int) *Capture {
	if max <= 0 {
		max = DefaultMaxBytes
	}
	return &Capture{max: max}
}

// Stdout returns the writer for the command's standard output.
func (c *Capture) Stdout() io.Writer { return captureWriter{c, false} }

// Stderr returns the writer for the command's standard error.
func (c *Capture) Stderr() io.Writer { return captureWriter{c, true} }

// Total reports how many bytes were written so far, kept or not.
func (c *Capture) Total() int64 { return c.total.Load() }

// Fill copies what was kept into res, cut back to whole UTF-8 sequences
// where the cap fell inside one.
func (c *Capture) Fill(res *Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	res.Stdout = trimPartialRune(c.out, c.cutOut)
	res.Stderr = trimPartialRune(c.err, c.cutErr)
	res.TotalBytes = c.total.Load()
	res.Truncated = res.TotalBytes > int64(len(res.Stdout)+len(res.Stderr))
}

type captureWriter struct {
	c      *Capture
	stderr bool
}

func (w captureWriter) Write(p []byte) (int, error) {
	c := w.c
	c.total.Add(int64(len(p)))
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.max - c.kept
	if room <= 0 {
		if w.stderr {
			c.cutErr = true
		} else {
			c.cutOut = true
		}
		return len(p), nil
	}
	chunk := p
	if len(chunk) > room {
		chunk = chunk[:room]
		if w.stderr {
			c.cutErr = true
		} else {
			c.cutOut = true
		}
	}
	if w.stderr {
		c.err = append(c.err, chunk...)
	} else {
		c.out = append(c.out, chunk...)
	}
	c.kept += len(chunk)
	return len(p), nil
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b when b
// was cut; output that simply ended is returned unchanged.
func trimPartialRune(b []byte, cut bool) []byte {
	if !cut || len(b) == 0 {
		return b
	}
	// A rune is at most utf8.UTFMax bytes: look back no further than that.
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		r := b[len(b)-i]
		if utf8.RuneStart(r) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// ReportProgress calls fn every interval with the time since start (by
// now) and the bytes c has seen, until the returned stop function is
// called; after stop returns, fn is not called again. A nil fn starts
// nothing.
func (c *Capture) ReportProgress(fn func(elapsed time.Duration, bytes int64), every time.Duration, start time.Time, now func() time.Time) (stop func()) {
	if fn == nil {
		return func() {}
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fn(now().Sub(start), c.Total())
			}
		}
	}()
	return func() { close(done); <-stopped }
}
