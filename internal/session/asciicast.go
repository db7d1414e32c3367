package session

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"os"

	"github.com/warden-mcp/warden/internal/audit"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

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
// the file would pass its bound. A nil recorder records nothing.
type recorder struct {
	log   *slog.Logger
	name  string
	begin time.Time // real clock; event times are offsets from it

	mu        sync.Mutex
	f         *os.File
	max       int64
	size      int64
	sum       hash.Hash
	stopped   bool
	truncated bool
	err       error
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
}

// recordingResult is what a closed recording amounts to.
type recordingResult struct {
	path      string
	size      int64
	sha256    string
	truncated bool
}

func createRecording(dir, id string, spec Spec, now time.Time, limit int64, log *slog.Logger) (*recorder, error) {
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
	r := &recorder{log: log, name: name, begin: time.Now(), f: f, max: limit, sum: sha256.New()}
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
	if err != nil {
		r.discard()
		return nil, fmt.Errorf("create recording: %w", err)
	}
	if int64(len(line))+1+markerReserve > limit {
		r.discard()
		return nil, fmt.Errorf("create recording: header of %d bytes does not fit in %d", len(line), limit)
	}
	r.mu.Lock()
	r.write(append(line, '\n'))
	err = r.err
	r.mu.Unlock()
	if err != nil {
		r.discard()
		return nil, fmt.Errorf("create recording: %w", err)
	}
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

// eventLocked appends one event, or stops the recording with a marker when
// the event would not fit.
func (r *recorder) eventLocked(kind string, data []byte) {
	if r.stopped || len(data) == 0 {
		return
	}
	line := eventLine(time.Since(r.begin), kind, data)
	if r.size+int64(len(line))+markerReserve > r.max {
		marker := eventLine(time.Since(r.begin), "m", []byte("warden: recording stopped at its size limit"))
		r.write(marker)
		r.stopped, r.truncated = true, true
		r.log.Warn("session recording reached its size limit", "recording", r.name, "limit", r.max)
		return
	}
	r.write(line)
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

func (r *recorder) write(p []byte) {
	if r.err != nil {
		return
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	r.sum.Write(p[:n])
	if err != nil {
		r.err = err
		r.stopped = true
		r.log.Error("session recording failed", "recording", r.name, "err", err)
	}
}

// close finishes the file and reports its size and digest.
func (r *recorder) close() (recordingResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.held) > 0 {
		r.eventLocked("o", r.redactOutput(nil, true))
	}
	r.stopped = true
	err := r.err
	if r.f != nil {
		err = errors.Join(err, r.f.Sync(), r.f.Close())
		r.f = nil
	}
	res := recordingResult{path: r.name, size: r.size, sha256: hex.EncodeToString(r.sum.Sum(nil)), truncated: r.truncated}
	if err != nil {
		return res, fmt.Errorf("finish recording: %w", err)
	}
	return res, nil
}

// discard removes a recording whose session never started.
func (r *recorder) discard() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	if r.f != nil {
		_ = r.f.Close()
		r.f = nil
	}
	_ = os.Remove(r.name)
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
