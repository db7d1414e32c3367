package session

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/shellword"
)

// Recording bounds. markerReserve is kept free under MaxRecordingBytes for
// the final marker event, so a recording never exceeds its bound.
const (
	minRecordingBytes = 4 << 10
	markerReserve     = 128
	maxHeaderLine     = 64 << 10
	maxEventLine      = 16 << 20
	castExt           = ".cast"
)

// castHeader is the first line of an asciicast v2 file.
type castHeader struct {
	Version   int               `json:"version"`
	Width     uint16            `json:"width"`
	Height    uint16            `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Command   string            `json:"command,omitempty"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env"`
}

// recorder writes one session's asciicast v2 recording: output ("o"), input
// ("i") and resize ("r") events, stopping with a marker ("m") event before
// the file would pass its bound. Events are queued and written by a
// goroutine of its own (recordfile.go). A nil recorder records nothing.
type recorder struct {
	log   *slog.Logger
	name  string
	begin time.Time // real clock; event times are offsets from it
	wait  time.Duration

	mu        sync.Mutex
	max       int64
	size      int64 // bytes queued so far, written or not
	stopped   bool
	truncated bool
	out, in   utf8Fixer // keep event strings valid UTF-8 across chunks
	// typed are the secrets typed into the session, replaced in its
	// output too; brief the short ones of the last sends, echo both;
	// held is output that may begin one (echo.go).
	// outSize counts the output bytes recorded, sends the sends learned,
	// tail is the output's last bytes, where a send's echo may begin.
	typed, echo audit.Secrets
	brief       []briefSecrets
	sends       int
	outSize     int64
	held, tail  []byte
	file        recordFile
}

// recordingResult is what a closed recording amounts to.
type recordingResult struct {
	path      string
	size      int64
	sha256    string
	truncated bool
}

// createRecording creates dir/id.cast and writes its header, waiting at
// most wait (or until ctx ends) for the file system, on a look of looks:
// a recordings directory that does not answer refuses the session rather
// than hold its start. A create that finishes after that removes its file.
func createRecording(ctx context.Context, looks *runner.Looks, dir, id string, spec Spec, now time.Time, limit int64, wait time.Duration, log *slog.Logger) (*recorder, error) {
	type made struct {
		r   *recorder
		err error
	}
	m, err := runner.AwaitLate(ctx, looks, wait, func() made {
		r, err := makeRecording(dir, id, spec, now, limit, wait, log)
		return made{r, err}
	}, func(m made) {
		if m.r != nil {
			m.r.discard()
		}
	})
	if errors.Is(err, runner.ErrWaited) {
		return nil, fmt.Errorf("create recording: %w", runner.NotAnswering("the recordings directory "+dir, wait))
	}
	if err != nil {
		return nil, fmt.Errorf("create recording: %w", err)
	}
	return m.r, m.err
}

func makeRecording(dir, id string, spec Spec, now time.Time, limit int64, wait time.Duration, log *slog.Logger) (*recorder, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create recording directory: %w", err)
	}
	if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o077 != 0 {
		log.Warn("recording directory is open to other users", "dir", dir, "mode", fi.Mode().Perm().String())
	}
	name := filepath.Join(dir, id+castExt)
	// O_EXCL also refuses a symlink planted at the name.
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create recording: %w", err)
	}
	title := "warden session " + id
	if spec.Owner != "" {
		title += " (" + spec.Owner + ")"
	}
	h := castHeader{
		Version:   2,
		Width:     spec.Cols,
		Height:    spec.Rows,
		Timestamp: now.Unix(),
		Command:   shellword.Join(spec.shown),
		Title:     title,
		Env:       map[string]string{"SHELL": envValue(spec.Env, "SHELL"), "TERM": envValue(spec.Env, "TERM")},
	}
	line, err := json.Marshal(h)
	if err == nil && int64(len(line))+1+markerReserve > limit {
		err = fmt.Errorf("header of %d bytes does not fit in %d", len(line), limit)
	}
	if err == nil {
		_, err = f.Write(append(line, '\n'))
	}
	if err != nil {
		_ = f.Close()
		_ = os.Remove(name)
		return nil, fmt.Errorf("create recording: %w", err)
	}
	r := &recorder{log: log, name: name, begin: time.Now(), wait: wait, max: limit, size: int64(len(line)) + 1}
	r.file.start(log, f, append(line, '\n'))
	return r, nil
}

func (r *recorder) path() string {
	if r == nil {
		return ""
	}
	return r.name
}

func (r *recorder) output(p []byte) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.outSize += int64(len(p))
	r.watchEchoes(p)
	r.eventLocked("o", r.redactOutput(r.out.Append(nil, p), false))
}

func (r *recorder) input(p []byte) {
	if r == nil || len(p) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.in.Append(nil, p)
	if len(r.echo) > 0 {
		r.eventLocked("i", []byte(r.echo.Redact(string(b))))
		return
	}
	r.eventLocked("i", redactEvent(b))
}

// redactEvent removes the credentials the audit log's redaction finds from
// an event's text: what was typed (mysql -p…, export PGPASSWORD=…) and
// the terminal's echo of it, so a recording keeps no secret the audit
// record of the same send does not. The secrets typed are also looked for
// in later output, across its chunks (echo.go).
func redactEvent(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	s := string(b)
	if red := audit.Redact(s); red != s {
		return []byte(red)
	}
	return b
}

func (r *recorder) resize(cols, rows uint16) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.eventLocked("r", []byte(fmt.Sprintf("%dx%d", cols, rows)))
}

// eventLocked queues one event, or stops the recording with a marker when
// the event would not fit.
func (r *recorder) eventLocked(kind string, data []byte) {
	if r.stopped || len(data) == 0 {
		return
	}
	r.lostMarkerLocked()
	line := eventLine(time.Since(r.begin), kind, data)
	if r.size+int64(len(line))+markerReserve > r.max {
		marker := eventLine(time.Since(r.begin), "m", []byte("warden: recording stopped at its size limit"))
		r.queueLocked(marker, true)
		r.stopped, r.truncated = true, true
		r.log.Warn("session recording reached its size limit", "recording", r.name, "limit", r.max)
		return
	}
	r.queueLocked(line, false)
}

// eventLine renders [time, kind, data] with data as a JSON string.
func eventLine(t time.Duration, kind string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	b.WriteString(strconv.FormatFloat(t.Seconds(), 'f', 6, 64))
	b.WriteString(`, "`)
	b.WriteString(kind)
	b.WriteString(`", `)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(string(data)) // a string always encodes; Encode adds '\n'
	b.Truncate(b.Len() - 1)
	b.WriteString("]\n")
	return b.Bytes()
}

// queueLocked queues line for the file, counting it; a line dropped for a
// file that does not answer leaves the recording incomplete.
func (r *recorder) queueLocked(line []byte, force bool) {
	if r.file.queue(line, force) {
		r.size += int64(len(line))
	} else {
		r.truncated = true
	}
}

// lostMarkerLocked queues a marker saying how many bytes of events were
// dropped for a file that did not answer, once there is room again (or
// when the recording ends), if the size bound leaves room for it.
func (r *recorder) lostMarkerLocked() {
	n := r.file.takeLost(r.stopped)
	if n == 0 {
		return
	}
	marker := eventLine(time.Since(r.begin), "m", fmt.Appendf(nil, "warden: %d bytes of events were lost here: the recording's file did not answer", n))
	if r.size+int64(len(marker))+markerReserve <= r.max {
		r.queueLocked(marker, true)
	}
}

// close finishes the file and reports its size and digest, waiting at
// most r.wait for the file system; a file that does not answer by then is
// finished when it does, and close says so.
func (r *recorder) close() (recordingResult, error) {
	r.mu.Lock()
	if len(r.held) > 0 {
		r.eventLocked("o", r.redactOutput(nil, true))
	}
	r.stopped = true
	r.lostMarkerLocked()
	r.mu.Unlock()
	if !r.file.finish(r.wait) {
		r.mu.Lock()
		defer r.mu.Unlock()
		return recordingResult{path: r.name, size: r.size, truncated: r.truncated},
			fmt.Errorf("finish recording: the session ended, but its recording's file did not answer within %s; it is finished when it does", r.wait)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	res := recordingResult{path: r.name, size: r.size, sha256: r.file.digest(), truncated: r.truncated}
	if err := r.file.err; err != nil {
		return res, fmt.Errorf("finish recording: %w", err)
	}
	return res, nil
}

// discard removes a recording whose session never started, waiting at
// most r.wait; a file that does not answer is removed when it does.
func (r *recorder) discard() {
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	r.file.discard(r.wait)
}

// RecordingInfo describes one recording file, from its header and metadata.
type RecordingInfo struct {
	ID      string    `json:"id"`
	Path    string    `json:"path"`
	Bytes   int64     `json:"bytes"`
	Started time.Time `json:"started"`
	// Modified is when the file was last written, close to when the
	// session ended (or its recording stopped).
	Modified time.Time `json:"modified"`
	Width    uint16    `json:"width"`
	Height   uint16    `json:"height"`
	Command  string    `json:"command,omitempty"`
	Title    string    `json:"title,omitempty"`
	// Err says why the header could not be read ("" when it could).
	Err string `json:"error,omitempty"`
}

// RecordingPath returns the path of session id's recording in dir, refusing
// anything that is not a session id (so no name can leave dir).
func RecordingPath(dir, id string) (string, error) {
	if !validID(id) {
		return "", fmt.Errorf("recording path: %q is not a session id", id)
	}
	return filepath.Join(dir, id+castExt), nil
}

// ListRecordings describes the recordings in dir, oldest first. A missing
// dir has none.
func ListRecordings(dir string) ([]RecordingInfo, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list recordings: %w", err)
	}
	var out []RecordingInfo
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), castExt)
		if !ok || !validID(id) || !e.Type().IsRegular() {
			continue
		}
		ri := RecordingInfo{ID: id, Path: filepath.Join(dir, e.Name())}
		if fi, err := e.Info(); err == nil {
			ri.Bytes, ri.Modified = fi.Size(), fi.ModTime()
		}
		if h, err := readHeader(ri.Path); err != nil {
			ri.Err = err.Error()
		} else {
			ri.Width, ri.Height, ri.Command, ri.Title = h.Width, h.Height, h.Command, h.Title
			ri.Started = time.Unix(h.Timestamp, 0)
		}
		out = append(out, ri)
	}
	slices.SortFunc(out, func(a, b RecordingInfo) int {
		return cmp.Or(a.Started.Compare(b.Started), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

func readHeader(path string) (castHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return castHeader{}, err
	}
	defer f.Close()
	line, err := readLine(bufio.NewReader(f), maxHeaderLine)
	if err != nil {
		return castHeader{}, err
	}
	return parseHeader(line)
}

func parseHeader(line []byte) (castHeader, error) {
	var h castHeader
	if err := json.Unmarshal(line, &h); err != nil {
		return h, fmt.Errorf("bad asciicast header: %w", err)
	}
	if h.Version != 2 {
		return h, fmt.Errorf("asciicast version %d, want 2", h.Version)
	}
	return h, nil
}

// readLine reads one line without its newline; io.EOF only when nothing
// is left.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return nil, fmt.Errorf("line longer than %d bytes", limit)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// ReplayText returns the text of a recording: its output events joined and
// stripped of terminal control as a session read would strip them, so a
// session read from start to end reads the same.
func ReplayText(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("replay recording: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	line, err := readLine(br, maxHeaderLine)
	if err == nil {
		_, err = parseHeader(line)
	}
	if err != nil {
		return "", fmt.Errorf("replay recording: %w", err)
	}
	var st Stripper
	var out []byte
	for n := 2; ; n++ {
		line, err := readLine(br, maxEventLine)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("replay recording: line %d: %w", n, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var ev []json.RawMessage
		var kind, data string
		if err := json.Unmarshal(line, &ev); err != nil || len(ev) != 3 {
			return "", fmt.Errorf("replay recording: line %d: not an event", n)
		}
		if err := json.Unmarshal(ev[1], &kind); err != nil || kind != "o" {
			continue
		}
		if err := json.Unmarshal(ev[2], &data); err != nil {
			return "", fmt.Errorf("replay recording: line %d: %w", n, err)
		}
		out = st.Append(out, []byte(data))
	}
	return string(st.Flush(out)), nil
}
