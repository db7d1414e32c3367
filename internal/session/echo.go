package session

import (
	"bytes"
	"strings"

	"github.com/warden-mcp/warden/internal/audit"
)

// The terminal echoes what is typed, and programs print it again later
// (history, env, a shell's error quoting the line): the recording's output
// events, and warden watch which follows them, would keep a credential
// that the input event and the audit record of its send hide, wherever
// redaction cannot find it in the output chunk alone. That is the rest of
// a secret one send began (export PGPASSWORD= then S3cret), a password
// typed where the terminal echoes, a line edited while typed (-pS3cX⌫ret
// echoes as -pS3cX\b \bret), or an echo the pump reads in two chunks. So
// the recorder remembers the secrets typed into its session and replaces
// them in the output too, holding back an output's end that may begin
// one until the next output shows whether it does.
//
// The secrets of a send are known before it is written (learn), so its
// echo cannot be recorded first.

// maxHeld bounds the output held back for a secret that may continue in
// the next chunk: a longer secret split there keeps its first bytes.
const maxHeld = 256

// learn adds the secrets of data, about to be typed, to those looked for
// in the output: what redaction finds in data, those the caller knows
// (known), and for each typed with erasing keys its echo and the runs
// the echo shows apart. A text shorter than minLasting is looked for
// only in the output of the next few sends (briefSecrets), as a word: it
// is the rest of a secret an earlier send began ("…=S3cr3tZ" then "q9")
// or a run after an erase, and found alone in data it is likelier a user
// name or a yes (curl -u bob:, yes | passwd) than worth hiding from all
// later output.
func (r *recorder) learn(data []byte, known []string) {
	if r == nil {
		return
	}
	var lasting, brief []string
	add := func(v string, least int) {
		switch {
		case len(v) >= minLasting:
			lasting = append(lasting, v)
		case len(v) >= least:
			brief = append(brief, v)
		}
	}
	for _, v := range audit.SecretsIn(string(data)) {
		add(v, minLasting)
	}
	for _, v := range known {
		add(v, 2)
	}
	for _, vs := range [][]string{lasting, brief} {
		for _, v := range vs {
			if !hasControl(v) {
				continue
			}
			add(erasedEcho(v), minLasting)
			for _, p := range editedPieces(v) {
				add(p, 2)
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(lasting) > 0 {
		r.typed = r.typed.With(lasting...)
	}
	r.sends++
	kept := r.brief[:0]
	for _, b := range r.brief {
		if !b.passed(r.sends, r.outSize) {
			kept = append(kept, b)
		}
	}
	r.brief = kept
	if len(brief) > 0 {
		mark := strings.TrimSpace(erasedEcho(string(data)))
		mark = mark[len(mark)-min(len(mark), maxMark):]
		r.brief = append(r.brief, briefSecrets{texts: brief, mark: mark, send: r.sends, outAt: r.outSize})
	}
	r.echo = r.typed
	for _, b := range r.brief {
		r.echo = r.echo.With(b.texts...)
	}
}

// briefSecrets are the short secrets of one send. mark is the end of the
// send's echo, seen once output showed it; send is the send's number and
// outAt how much output had been recorded when it was learned.
type briefSecrets struct {
	texts []string
	mark  string
	seen  bool
	send  int
	outAt int64
}

// A send's short secrets are looked for until briefSends later sends were
// learned and its echo was recorded: the pump may record a send's echo
// after the next sends were written, the more so on a busy host. A send
// whose echo never shows (typed at a password prompt) counts as echoed
// once briefOutput bytes of output were recorded after it, and every
// send's are forgotten after maxBriefSends.
const (
	briefSends    = 4
	briefOutput   = 4096
	maxBriefSends = 64
	maxMark       = 16
)

// passed reports whether b's echo is behind the output recorded so far
// (out bytes) and sends sends have been learned.
func (b briefSecrets) passed(sends int, out int64) bool {
	n := sends - b.send
	return n >= maxBriefSends || n >= briefSends && (b.seen || b.mark == "" || out-b.outAt >= briefOutput)
}

// watchEchoes marks the sends whose echo's end is in p, the raw output
// about to be recorded, or spans r.tail, the end of the output before it.
func (r *recorder) watchEchoes(p []byte) {
	if len(r.brief) == 0 {
		r.tail = r.tail[:0]
		return
	}
	// A mark is in p, or spans the old tail and p's first bytes.
	edge := append(r.tail, p[:min(len(p), maxMark-1)]...)
	for i := range r.brief {
		if b := &r.brief[i]; !b.seen && b.mark != "" && (bytes.Contains(p, []byte(b.mark)) || bytes.Contains(edge, []byte(b.mark))) {
			b.seen = true
		}
	}
	if len(p) >= maxMark-1 {
		edge = p
	}
	r.tail = append(r.tail[:0], edge[len(edge)-min(len(edge), maxMark-1):]...)
}

// minLasting is the shortest secret looked for in all later output.
const minLasting = 4

// editedPieces returns the runs of text in v, a secret typed with
// erasing keys in it (DEL, Ctrl-H, an arrow's escape sequence): the
// terminal echoes each run with its edits between them. Another control
// key ends the secret (Ctrl-U, Ctrl-W and Enter start other text).
func editedPieces(v string) []string {
	var out []string
	for k := 0; k < len(v); {
		for k < len(v) && isControl(v[k]) {
			switch {
			case v[k] == 0x7f || v[k] == '\b':
				k++
			case v[k] == 0x1b && k+2 < len(v) && v[k+1] == '[':
				k += 3 // a cursor key: ESC [ D
			default:
				return out
			}
		}
		e := k
		for e < len(v) && !isControl(v[e]) {
			e++
		}
		out = append(out, v[k:e])
		k = e
	}
	return out
}

// erasedEcho returns how a terminal echoes v, typed with DEL or Ctrl-H
// erasing a character (each as "\b \b"), up to another control key.
func erasedEcho(v string) string {
	var b strings.Builder
	for k := 0; k < len(v); k++ {
		switch c := v[k]; {
		case c == 0x7f || c == '\b':
			b.WriteString("\b \b")
		case isControl(c):
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hasControl(v string) bool {
	for k := 0; k < len(v); k++ {
		if isControl(v[k]) {
			return true
		}
	}
	return false
}

func isControl(b byte) bool { return b < 0x20 || b == 0x7f }

// redactOutput returns output text with what Redact finds and the typed
// secrets replaced; its end that may begin a typed secret is kept in
// r.held for the next call (flush: none is, at the end).
func (r *recorder) redactOutput(b []byte, flush bool) []byte {
	if len(r.held) > 0 {
		b = append(r.held, b...)
		r.held = nil
	}
	if !flush {
		if k := r.heldFrom(b); k < len(b) {
			r.held = append([]byte(nil), b[k:]...)
			b = b[:k]
		}
	}
	if len(b) == 0 {
		return nil
	}
	if len(r.echo) == 0 {
		return redactEvent(b)
	}
	// An echo edited while typed goes whole before redaction's rules,
	// which would replace the part their value ends at (-pS3cX\b \bret
	// up to the space) and leave the rest unfound.
	s := string(b)
	for _, v := range r.echo {
		if len(v) >= minLasting && hasControl(v) {
			s = strings.ReplaceAll(s, v, audit.Redacted)
		}
	}
	return []byte(r.echo.Redact(s))
}

// heldFrom returns where the longest end of b that is a proper prefix of
// a typed secret begins (len(b) when none is): it looks only at the
// bytes where a secret's first byte stands.
func (r *recorder) heldFrom(b []byte) int {
	from := len(b)
	for _, v := range r.echo {
		if len(v) < 2 {
			continue
		}
		lo := max(len(b)-min(len(v)-1, maxHeld), 0)
		for k := lo; k < from; k++ {
			x := bytes.IndexByte(b[k:from], v[0])
			if x < 0 {
				break
			}
			k += x
			if string(b[k:]) == v[:len(b)-k] {
				from = k
				break
			}
		}
	}
	return from
}
