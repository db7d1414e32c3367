package session

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// replayed returns the text a recording's output events replay to, and
// its input events joined.
func replayed(t *testing.T, path string) (out, in string) {
	t.Helper()
	_, events := castLines(t, path)
	var o, i strings.Builder
	for _, ev := range events {
		data, _ := ev[2].(string)
		switch ev[1] {
		case "o":
			o.WriteString(data)
		case "i":
			i.WriteString(data)
		}
	}
	return o.String(), i.String()
}

// TestRecordedEchoKeepsNoTypedSecret: the terminal's echo of a send (and
// a program printing what was typed) is output, read by the pump in
// chunks that need not match the sends. A secret typed into the session
// must not replay from the recording's output events however the echo
// is cut: at every byte of the echoed line, the secret is hidden, and the
// text around it replays whole. Each send's secret is known the ways a
// session_send knows it: found in the data by redaction, or told by the
// tool (the rest of a secret an earlier send began, a prompt's answer),
// or typed with erasing keys the echo shows.
func TestRecordedEchoKeepsNoTypedSecret(t *testing.T) {
	cases := []struct {
		typed string   // what the send types
		known []string // what the tool says is secret in it
		echo  string   // what the terminal echoes
		leaks []string // what must not replay
	}{
		{"false && export PGPASSWORD=S3cr3tG1\r", nil, "false && export PGPASSWORD=S3cr3tG1\r\n$ ", []string{"S3cr3tG1", "3tG1"}},
		{"false && sshpass -p S3cr3tG2 ssh h\r", nil, "false && sshpass -p S3cr3tG2 ssh h\r\n$ ", []string{"S3cr3tG2", "3tG2"}},
		{"S3cr3tG3\r", []string{"S3cr3tG3"}, "S3cr3tG3\r\n$ ", []string{"S3cr3tG3", "3tG3"}},
		{"3tG4 https://x/\r", []string{"3tG4"}, "3tG4 https://x/\r\n$ ", []string{"3tG4"}},
		{"false && mysql -pS3cr3tXX\x7f\x7fG5 shop\r", nil, "false && mysql -pS3cr3tXX\b \b\b \bG5 shop\r\n$ ", []string{"S3cr3tXX", "G5"}},
		{"false && curl -u bob:S3cr3tWW\b\bG6 https://x/\r", nil, "false && curl -u bob:S3cr3tWW\b \b\b \bG6 https://x/\r\n$ ", []string{"S3cr3tWW", "G6"}},
		{"t=S3cr3tG7; false && sshpass -p \"$t\" ssh h; echo \"<$t>\"\r", nil, "<S3cr3tG7>\r\n$ ", []string{"S3cr3tG7", "3tG7"}},
		{"false && curl -H 'Authorization: Bearer S3cr3tG8' https://x/\r", nil, "false && curl -H 'Authorization: Bearer S3cr3tG8' https://x/\r\n", []string{"S3cr3tG8", "3tG8"}},
	}
	for n, c := range cases {
		for cut := 1; cut < len(c.echo); cut++ {
			t.Run(fmt.Sprintf("%d/%d", n, cut), func(t *testing.T) {
				r, err := createRecording(context.Background(), nil, t.TempDir(), "0123456789abcdef0123456789abcdef", Spec{Cols: 80, Rows: 24}, time.Now(), 1<<20, DefaultRecordWait, slog.New(slog.DiscardHandler))
				if err != nil {
					t.Fatal(err)
				}
				r.learn([]byte(c.typed), c.known)
				r.output([]byte(c.echo[:cut]))
				r.output([]byte(c.echo[cut:]))
				res, err := r.close()
				if err != nil {
					t.Fatal(err)
				}
				out, _ := replayed(t, res.path)
				for _, leak := range c.leaks {
					if strings.Contains(out, leak) {
						t.Errorf("echo %q cut at %d replays %q: %q", c.echo, cut, leak, out)
					}
				}
				if !strings.Contains(out, "[REDACTED]") || !strings.HasSuffix(c.echo, out[len(out)-2:]) {
					t.Errorf("echo %q cut at %d replays as %q", c.echo, cut, out)
				}
			})
		}
	}
}

// TestRecordedEchoKeepsWhatIsNoSecret: output that only looks like the
// start of a typed secret is recorded whole once the next output shows
// it is not, or when the recording ends; short texts found alone (a user
// name before curl -u's colon, yes to a prompt) are not hidden from later
// output.
func TestRecordedEchoKeepsWhatIsNoSecret(t *testing.T) {
	r, err := createRecording(context.Background(), nil, t.TempDir(), "0123456789abcdef0123456789abcdef", Spec{Cols: 80, Rows: 24}, time.Now(), 1<<20, DefaultRecordWait, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	r.learn([]byte("false && sshpass -p S3cr3tH1 ssh h\r"), nil)
	r.learn([]byte("false && curl -u bob: https://x/\r"), nil)
	r.learn([]byte("yes | passwd\r"), []string{"y"})
	for _, o := range []string{"total S3", "cr\r\nbob y admin\r\n", "S3cr3"} {
		r.output([]byte(o))
	}
	res, err := r.close()
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := replayed(t, res.path); out != "total S3cr\r\nbob y admin\r\nS3cr3" {
		t.Errorf("output replays as %q", out)
	}
}

// TestRecordedEchoLateKeepsNoTypedSecret: on a busy host the pump may
// record a send's echo after several later sends were typed. The short
// rest of a secret an earlier send began stays hidden however many sends
// came between, until output showed its echo; a secret edited while
// typed (…XX⌫⌫G9) stays hidden even after a flood of output, its echo
// being replaced whole before redaction's rules cut it.
func TestRecordedEchoLateKeepsNoTypedSecret(t *testing.T) {
	for _, flood := range []int{0, 2 * briefOutput} {
		r, err := createRecording(context.Background(), nil, t.TempDir(), "0123456789abcdef0123456789abcdef", Spec{Cols: 80, Rows: 24}, time.Now(), 1<<20, DefaultRecordWait, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		r.learn([]byte("false && sshpass -pS3cr3tXX\x7f\x7fG9 ssh db2\r"), nil)
		r.learn([]byte("q8 https://x/\r"), []string{"q8"})
		r.output([]byte(strings.Repeat("x", flood)))
		for k := 0; k < 2*briefSends; k++ {
			r.learn([]byte(fmt.Sprintf("echo later-%d\r", k)), nil)
		}
		r.output([]byte("false && sshpass -pS3cr3tXX\b \b\b \bG9 ssh db2\r\n$ q8 https://x/\r\n$ "))
		res, err := r.close()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := replayed(t, res.path)
		leaks := []string{"S3cr3tXX", "G9"}
		if flood == 0 {
			leaks = append(leaks, "q8")
		}
		for _, leak := range leaks {
			if strings.Contains(out, leak) {
				t.Errorf("echo late after %d bytes replays %q: %q", flood, leak, out[flood:])
			}
		}
		if !strings.Contains(out, "ssh db2") || !strings.Contains(out, "https://x/") {
			t.Errorf("echo late after %d bytes replays as %q", flood, out[flood:])
		}
	}
}

// TestRecordedEchoForgetsBriefSecrets: the short secrets of a send stop
// being looked for once its echo and later sends have passed, so a user
// name or a yes is not hidden from all later output.
func TestRecordedEchoForgetsBriefSecrets(t *testing.T) {
	// The echo in one chunk, and cut inside its end.
	for _, echo := range [][]string{{"ab q7\r\n"}, {"ab q", "7\r\n"}} {
		r, err := createRecording(context.Background(), nil, t.TempDir(), "0123456789abcdef0123456789abcdef", Spec{Cols: 80, Rows: 24}, time.Now(), 1<<20, DefaultRecordWait, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		r.learn([]byte("ab q7\r"), []string{"q7"})
		for _, o := range echo {
			r.output([]byte(o))
		}
		for k := 0; k < briefSends; k++ {
			r.learn([]byte(fmt.Sprintf("echo later-%d\r", k)), nil)
			r.output([]byte(fmt.Sprintf("echo later-%d\r\n", k)))
		}
		r.learn([]byte("echo done\r"), nil)
		r.output([]byte("seen q7 again\r\n"))
		res, err := r.close()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := replayed(t, res.path)
		if strings.Contains(out, "q7\r\n") || !strings.Contains(out, "seen q7 again") {
			t.Errorf("echo %q: brief secret kept wrong: %q", echo, out)
		}
	}
}

// TestRecordedEchoForgetsUnechoedBriefSecrets: a short secret whose echo
// never shows (typed where the terminal does not echo) is forgotten once
// briefOutput bytes of output passed, or after maxBriefSends sends in a
// session that prints nothing: the list of those looked for stays bounded.
func TestRecordedEchoForgetsUnechoedBriefSecrets(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		r, err := createRecording(context.Background(), nil, t.TempDir(), "0123456789abcdef0123456789abcdef", Spec{Cols: 80, Rows: 24}, time.Now(), 1<<20, DefaultRecordWait, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		r.learn([]byte("q6\r"), []string{"q6"})
		sends := briefSends
		if quiet {
			sends = maxBriefSends
		} else {
			r.output([]byte(strings.Repeat("x", briefOutput) + "\r\n"))
		}
		for k := 0; k < sends+8; k++ {
			r.learn([]byte("z9\r"), []string{"z9"}) // each send brings a short secret of its own
		}
		if len(r.brief) > maxBriefSends {
			t.Errorf("quiet %v: %d sends' short secrets kept", quiet, len(r.brief))
		}
		r.output([]byte("seen q6 again\r\n"))
		res, err := r.close()
		if err != nil {
			t.Fatal(err)
		}
		if out, _ := replayed(t, res.path); !strings.Contains(out, "seen q6 again") {
			t.Errorf("quiet %v: q6 still hidden: %q", quiet, out[max(0, len(out)-40):])
		}
	}
}
