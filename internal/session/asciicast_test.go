//go:build linux

package session

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// castLines returns a recording's header and events.
func castLines(t *testing.T, path string) (castHeader, [][]any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxEventLine)
	var h castHeader
	var events [][]any
	for i := 0; sc.Scan(); i++ {
		if i == 0 {
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
				t.Fatalf("header: %v", err)
			}
			continue
		}
		var ev []any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("line %d %q: %v", i+1, sc.Text(), err)
		}
		events = append(events, ev)
	}
	return h, events
}

// TestRecordingReplaysToWhatWasRead drives a scripted session, then checks
// the recording: an asciicast v2 file whose output replays to exactly the
// text the reads returned, with input and resize events, private modes and
// a digest that matches CloseInfo.
func TestRecordingReplaysToWhatWasRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rec")
	clock := &fakeClock{t: time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)}
	r := newTestRegistry(t, Options{RecordDir: dir, Now: clock.Now})
	info, err := r.Start(context.Background(), Spec{Env: testEnv(), PTY: true, Owner: "alice@example", Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	id := info.ID
	var read strings.Builder
	read.WriteString(readUntil(t, r, id, "$ ", 5*time.Second))
	for _, step := range []struct{ send, want string }{
		{"printf '\\033[1;32mgreen\\033[0m plain\\n'\n", "green plain\n"},
		{"echo $((6*7))\n", "\n42\n"},
		{"printf 'h\\303\\251llo \\342\\234\\223\\n'\n", "héllo ✓\n"},
	} {
		send(t, r, id, step.send)
		read.WriteString(readUntil(t, r, id, step.want, 5*time.Second))
	}
	if err := r.Resize(id, 120, 40); err != nil {
		t.Fatal(err)
	}
	send(t, r, id, "exit 0\n")
	out, _ := readToExit(t, r, id, 5*time.Second)
	read.WriteString(out)
	ci, err := r.Close(id)
	if err != nil {
		t.Fatal(err)
	}

	want := filepath.Join(dir, id+".cast")
	if ci.Recording != want || info.Recording != want {
		t.Fatalf("recording at %q (Info %q), want %q", ci.Recording, info.Recording, want)
	}
	got, err := ReplayText(ci.Recording)
	if err != nil {
		t.Fatal(err)
	}
	if got != read.String() {
		t.Errorf("replay differs from the reads:\nreplay %q\nreads  %q", got, read.String())
	}

	b, err := os.ReadFile(ci.Recording)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if ci.RecordingSHA256 != hex.EncodeToString(sum[:]) || ci.RecordingBytes != int64(len(b)) {
		t.Errorf("CloseInfo says %d bytes %s; file is %d bytes %x", ci.RecordingBytes, ci.RecordingSHA256, len(b), sum)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("recording dir mode %v, want 0700", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(ci.Recording); fi.Mode().Perm() != 0o600 {
		t.Errorf("recording mode %v, want 0600", fi.Mode().Perm())
	}

	h, events := castLines(t, ci.Recording)
	if h.Version != 2 || h.Width != 100 || h.Height != 30 || h.Timestamp != clock.Now().Unix() {
		t.Errorf("header = %+v", h)
	}
	if h.Env["SHELL"] != "/bin/sh" || h.Env["TERM"] != "xterm-256color" || !strings.Contains(h.Title, "alice@example") {
		t.Errorf("header env/title = %v %q", h.Env, h.Title)
	}
	kinds := map[string]int{}
	var inputs strings.Builder
	last := 0.0
	for _, ev := range events {
		ts, _ := ev[0].(float64)
		if ts < last {
			t.Errorf("event times go backwards: %v after %v", ts, last)
		}
		last = ts
		kind, _ := ev[1].(string)
		kinds[kind]++
		switch kind {
		case "i":
			inputs.WriteString(ev[2].(string))
		case "r":
			if ev[2] != "120x40" {
				t.Errorf("resize event %v, want 120x40", ev[2])
			}
		}
	}
	if kinds["o"] == 0 || kinds["i"] != 4 || kinds["r"] != 1 {
		t.Errorf("event kinds %v, want output, 4 inputs, 1 resize", kinds)
	}
	if !strings.Contains(inputs.String(), "echo $((6*7))\n") {
		t.Errorf("inputs %q lack a command sent", inputs.String())
	}

	recs, err := ListRecordings(dir)
	if err != nil || len(recs) != 1 {
		t.Fatalf("ListRecordings = %v, %v", recs, err)
	}
	if rec := recs[0]; rec.ID != id || rec.Bytes != ci.RecordingBytes || rec.Width != 100 || !rec.Started.Equal(clock.Now()) || rec.Err != "" {
		t.Errorf("ListRecordings[0] = %+v", rec)
	}
	if p, err := RecordingPath(dir, id); err != nil || p != ci.Recording {
		t.Errorf("RecordingPath = %q, %v", p, err)
	}
}

// TestRecordingBound floods a session past MaxRecordingBytes: the file
// stays within the bound and ends with a marker, and the session goes on.
func TestRecordingBound(t *testing.T) {
	const limit = 16 << 10
	dir := t.TempDir()
	r := newTestRegistry(t, Options{RecordDir: dir, MaxRecordingBytes: limit})
	id := startShell(t, r)
	send(t, r, id, "i=0; while [ $i -lt 2000 ]; do echo line-$i; i=$((i+1)); done; echo done-$((1+1))\n")
	readUntil(t, r, id, "done-2", 10*time.Second)
	send(t, r, id, "echo after-$((2+2))\n")
	readUntil(t, r, id, "after-4", 5*time.Second)
	ci, err := r.Close(id)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(ci.Recording)
	if err != nil {
		t.Fatal(err)
	}
	// How far below the limit the cut falls depends on how the output
	// was chunked into events (one large read can be the event that does
	// not fit), so only the ceiling is exact.
	if fi.Size() > limit || fi.Size() < 1024 || ci.RecordingBytes != fi.Size() || !ci.RecordingTruncated {
		t.Errorf("recording is %d bytes (CloseInfo %d, truncated %v), want at most %d and cut", fi.Size(), ci.RecordingBytes, ci.RecordingTruncated, limit)
	}
	_, events := castLines(t, ci.Recording)
	lastEv := events[len(events)-1]
	if lastEv[1] != "m" || !strings.Contains(lastEv[2].(string), "size limit") {
		t.Errorf("last event %v, want the size-limit marker", lastEv)
	}
	text, err := ReplayText(ci.Recording)
	if err != nil || strings.Contains(text, "after-4") || !strings.Contains(text, "line-1\n") {
		t.Errorf("replay of a cut recording: err %v, %d bytes", err, len(text))
	}
}

func TestRecordingPathRefusesNonIDs(t *testing.T) {
	for _, id := range []string{"", "../../etc/passwd", "0123456789abcdef0123456789ABCDEF", "0123456789abcdef0123456789abcde/", "x"} {
		if p, err := RecordingPath("/state", id); err == nil {
			t.Errorf("RecordingPath(%q) = %q, want an error", id, p)
		}
	}
}

func TestListRecordingsSkipsStrangers(t *testing.T) {
	dir := t.TempDir()
	good := strings.Repeat("ab", 16)
	for name, body := range map[string]string{
		good + ".cast":                     `{"version": 2, "width": 80, "height": 24, "timestamp": 1700000000, "env": {}}` + "\n[0.1, \"o\", \"hi\\r\\n\"]\n",
		strings.Repeat("cd", 16) + ".cast": "not json\n",
		"notes.txt":                        "x",
		"short.cast":                       "{}",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := ListRecordings(dir)
	if err != nil || len(recs) != 2 {
		t.Fatalf("ListRecordings = %+v, %v; want the two id-named files", recs, err)
	}
	for _, rec := range recs {
		if (rec.ID == good) != (rec.Err == "") {
			t.Errorf("%s: Err %q", rec.ID, rec.Err)
		}
	}
	if text, err := ReplayText(filepath.Join(dir, good+".cast")); err != nil || text != "hi\n" {
		t.Errorf("ReplayText = %q, %v", text, err)
	}
	if recs, err := ListRecordings(filepath.Join(dir, "missing")); err != nil || recs != nil {
		t.Errorf("ListRecordings of a missing dir = %v, %v", recs, err)
	}
}

// TestRecordingRedactsCredentials: what is typed into a session and the
// terminal's echo of it are recorded redacted as the audit log redacts
// the send, so the recording keeps no credential the log does not.
func TestRecordingRedactsCredentials(t *testing.T) {
	dir := t.TempDir()
	r := newTestRegistry(t, Options{RecordDir: dir})
	id := startShell(t, r)
	send(t, r, id, "false && mysql -uroot -pS3cr3tRa shop; false && export PGPASSWORD=S3cr3tRb; echo typed-$((1+1))\n")
	readUntil(t, r, id, "typed-2", 10*time.Second)
	send(t, r, id, "echo out-PGPASSWORD=S3cr3tRc\n")
	readUntil(t, r, id, "out-PGPASSWORD", 5*time.Second)
	ci, err := r.Close(id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(ci.Recording)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"S3cr3tRa", "S3cr3tRb", "S3cr3tRc"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("recording contains %q:\n%s", leak, b)
		}
	}
	if !strings.Contains(string(b), "mysql -uroot -p[REDACTED] shop") {
		t.Errorf("recording lost the redacted command:\n%s", b)
	}
}
