package console

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/warden-mcp/warden/internal/session"
)

// maxEventLine bounds one recording event a watch reads; the recorder
// writes none longer.
const maxEventLine = 16 << 20

// watch streams a live session's output, as its recording holds it, from
// the start and then as it happens, until the session ends or the operator
// goes away. It is read-only: the agent's reads see the same output.
func (s *Server) watch(w http.ResponseWriter, r *http.Request) {
	f, id, ok := openRecording(w, s.Sessions, r.PathValue("id"))
	if !ok {
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
	}
	flush()
	_ = follow(r.Context(), f, ended(s.Sessions, id), s.Poll, func(data []byte) error {
		_, err := w.Write(data)
		return err
	}, flush)
}

// openRecording opens the recording of the live session id, or answers
// the request with why it cannot.
func openRecording(w http.ResponseWriter, ss Sessions, id string) (*os.File, string, bool) {
	info, ok := find(ss, id)
	if !ok {
		writeError(w, http.StatusNotFound, "no live session %q in this warden", id)
		return nil, "", false
	}
	if info.Recording == "" {
		writeError(w, http.StatusConflict, "session %s is not recorded (sessions.max_recording_bytes is 0), so it cannot be watched", id)
		return nil, "", false
	}
	f, err := os.Open(info.Recording)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "watch: %v", err)
		return nil, "", false
	}
	return f, id, true
}

// ended reports whether session id is over: gone, or its program exited
// and its output ended, so the recording holds all it printed: what it
// printed last (or the terminal echoed, such as the exit typed to a
// shell) may still be on its way to the recording when it exits.
func ended(ss Sessions, id string) func() bool {
	return func() bool {
		info, ok := find(ss, id)
		return !ok || info.Exited && info.Drained
	}
}

// follow reads the asciicast recording f and hands the data of each output
// event to emit: what is written so far, then what is written next, polling
// every poll, until isOver reports the session over (after a last read),
// ctx ends, or emit fails. flush is called whenever follow catches up.
func follow(ctx context.Context, f io.Reader, isOver func() bool, poll time.Duration, emit func([]byte) error, flush func()) error {
	if poll <= 0 {
		poll = 100 * time.Millisecond
	}
	br := bufio.NewReaderSize(f, 64<<10)
	var partial []byte
	header := true
	for {
		line, err := br.ReadSlice('\n')
		partial = append(partial, line...)
		switch {
		case err == nil:
			if !header {
				if data, ok := outputEvent(partial); ok {
					if err := emit(data); err != nil {
						return err
					}
				}
			}
			header = false
			partial = partial[:0]
			continue
		case errors.Is(err, bufio.ErrBufferFull):
			if len(partial) > maxEventLine {
				return errors.New("watch: recording event too long")
			}
			continue
		case !errors.Is(err, io.EOF):
			return err
		}
		// At the end of what is written so far: the session may write
		// more, or may be over.
		flush()
		if isOver() {
			// One more pass picks up what the session wrote as it ended.
			if rest, _ := io.ReadAll(io.LimitReader(br, maxEventLine)); len(rest) > 0 {
				partial = append(partial, rest...)
				for _, l := range bytes.SplitAfter(partial, []byte("\n")) {
					if data, ok := outputEvent(l); ok {
						if err := emit(data); err != nil {
							return err
						}
					}
				}
			}
			flush()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// find returns the live session id.
func find(ss Sessions, id string) (session.Info, bool) {
	for _, in := range ss.List() {
		if in.ID == id {
			return in, true
		}
	}
	return session.Info{}, false
}

// outputEvent returns the data of an asciicast "o" event line.
func outputEvent(line []byte) ([]byte, bool) {
	var ev []json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(line), &ev); err != nil || len(ev) != 3 {
		return nil, false
	}
	var kind, data string
	if json.Unmarshal(ev[1], &kind) != nil || kind != "o" || json.Unmarshal(ev[2], &data) != nil {
		return nil, false
	}
	return []byte(data), true
}
