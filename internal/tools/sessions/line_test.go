package sessions

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/warden-mcp/warden/internal/policy"
)

var (
	tty   = keyboard{pty: true, utf8: true}
	pipes = keyboard{}
)

// typeAll types sends one after another, each followed by Enter unless it
// ends in "…" (which is cut), as session_send does, and returns every
// line handed over and the last send. It stops at a send that is unseen,
// which session_send would refuse.
func typeAll(k keyboard, sends ...string) (lines []string, last typed) {
	var t typing
	for _, s := range sends {
		if cut, ok := strings.CutSuffix(s, "…"); ok {
			s = cut
		} else if k.pty {
			s += "\r"
		} else {
			s += "\n"
		}
		last = t.feed(s, k)
		lines = append(lines, last.lines...)
		if last.unseen != "" {
			break
		}
		t = last.next
	}
	return lines, last
}

func TestLineEdits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		k     keyboard
		sends []string
		lines []string // every line handed over
		text  string   // what the last send has classified
		line  string   // left typed after the last send
	}{
		{name: "plain", k: tty, sends: []string{"ls -l"}, lines: []string{"ls -l"}, text: "ls -l\n"},
		{name: "erase turns a read into a removal", k: tty, sends: []string{"cat x\x7f\x7f\x7f\x7f\x7frm -rf /tmp/y"},
			lines: []string{"rm -rf /tmp/y"}, text: "rm -rf /tmp/y\n"},
		{name: "erase past the start does nothing", k: tty, sends: []string{"ls\x7f\x7f\x7f\x7frm x"}, lines: []string{"rm x"}},
		{name: "kill line", k: tty, sends: []string{"echo safe\x15touch /etc/x"}, lines: []string{"touch /etc/x"}},
		{name: "kill line then erase", k: tty, sends: []string{"ls\x15\x7frm y"}, lines: []string{"rm y"}},
		{name: "word erase", k: tty, sends: []string{"echo rm rf foo\x17\x17x"}, lines: []string{"echo rm x"}},
		{name: "word erase over trailing spaces", k: tty, sends: []string{"echo keep drop   \x17x"}, lines: []string{"echo keep x"}},
		{name: "word erase of the whole line", k: tty, sends: []string{"ls\x17\x17rm z"}, lines: []string{"rm z"}},
		{name: "word erase of spaces only", k: tty, sends: []string{"   \x17ls"}, lines: []string{"ls"}},
		{name: "ctrl-c drops the line", k: tty, sends: []string{"rm -rf /tmp/y…", "\x03…", "ls"}, lines: []string{"ls"}, text: "ls\n"},
		{name: "enter after ctrl-c", k: tty, sends: []string{"rm -rf /tmp/y…", "\x03"}, lines: []string{""}, text: ""},
		{name: "ctrl-d on an empty line", k: tty, sends: []string{"\x04"}, lines: []string{""}},
		{name: "partial line over two sends", k: tty, sends: []string{"ech…", "o hi; touch /etc/x"},
			lines: []string{"echo hi; touch /etc/x"}, text: "echo hi; touch /etc/x\n"},
		{name: "partial line over five sends", k: tty, sends: []string{"t…", "o…", "u…", "ch /e…", "tc/x"},
			lines: []string{"touch /etc/x"}},
		{name: "erase across sends", k: tty, sends: []string{"cat /etc/host…", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f…", "rm -rf /tmp/q"},
			lines: []string{"rm -rf /tmp/q"}},
		{name: "kill across sends", k: tty, sends: []string{"ls #…", "\x15…", "reboot"}, lines: []string{"reboot"}},
		{name: "partial is classified", k: tty, sends: []string{"ls -l…", "; rm -rf /tmp/a…"}, text: "ls -l; rm -rf /tmp/a", line: "ls -l; rm -rf /tmp/a"},
		// Text left after them in the same send is unseen (leftover_test.go).
		{name: "CR ends a line", k: tty, sends: []string{"ls\rrm x"}, lines: []string{"ls", "rm x"}, text: "ls\nrm x\n"},
		{name: "LF ends a line", k: tty, sends: []string{"ls\nrm x"}, lines: []string{"ls", "rm x"}, text: "ls\nrm x\n"},
		{name: "every line of multi-line data", k: tty, sends: []string{"ls\nrm x\n…"}, lines: []string{"ls", "rm x"}, text: "ls\nrm x\n"},
		{name: "CRLF is two enters", k: tty, sends: []string{"ls\r\n…"}, lines: []string{"ls", ""}},
		{name: "an unfinished command joins the next line", k: tty, sends: []string{"echo 'a", "b'; touch /etc/x"},
			lines: []string{"echo 'a", "b'; touch /etc/x"}, text: "echo 'a\nb'; touch /etc/x\n"},
		{name: "a trailing backslash joins the next line", k: tty, sends: []string{`r\`, "m -rf /tmp/y"},
			lines: []string{`r\`, "m -rf /tmp/y"}, text: "r\\\nm -rf /tmp/y\n"},
		{name: "here-document body", k: tty, sends: []string{"cat <<EOF", "x", "EOF", "ls"}, text: "ls\n"},
		{name: "quoted here-document over sends", k: tty, sends: []string{"cat <<'EOF'", "$(touch /etc/x)", "EOF"},
			text: "cat <<'EOF'\n$(touch /etc/x)\nEOF\n"},
		{name: "quoted here-document then a command", k: tty, sends: []string{`cat <<"EOF"`, "x", "EOF", "ls"}, text: "ls\n"},
		{name: "here-document with an escaped delimiter", k: tty, sends: []string{`cat <<-E\OF`, "x", "EOF"}},
		{name: "finished commands leave no context", k: tty, sends: []string{"ls", "rm x"}, text: "rm x\n"},
		{name: "ctrl-c drops an unfinished command", k: tty, sends: []string{"echo 'a", "\x03", "reboot #'"},
			lines: []string{"echo 'a", "", "reboot #'"}, text: "reboot #'\n", line: ""},
		{name: "ctrl-c keeps the commands that ran", k: tty, sends: []string{"rm -rf /tmp/q\necho 'x\r\x03…"},
			lines: []string{"rm -rf /tmp/q", "echo 'x"}, text: "rm -rf /tmp/q\n"},
		{name: "pipes take control bytes as they are", k: pipes, sends: []string{"ls\x7f\x7frm x"}, lines: []string{"ls\x7f\x7frm x"}},
		{name: "pipes end lines at LF only", k: pipes, sends: []string{"ls\rrm x"}, lines: []string{"ls\rrm x"}},
		{name: "pipes have no line editing", k: pipes, sends: []string{"a\x15\x17\x03b"}, lines: []string{"a\x15\x17\x03b"}},
		{name: "pipes join unfinished commands too", k: pipes, sends: []string{"echo 'a", "b'"}, text: "echo 'a\nb'\n"},
		{name: "non-ASCII text in a UTF-8 session", k: tty, sends: []string{"echo héllo\x7fo"}, lines: []string{"echo héllo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines, last := typeAll(tt.k, tt.sends...)
			if last.unseen != "" {
				t.Fatalf("unseen: %s", last.unseen)
			}
			if tt.lines != nil && !slices.Equal(lines, tt.lines) {
				t.Errorf("lines = %q, want %q", lines, tt.lines)
			}
			if tt.text != "" && last.text != tt.text {
				t.Errorf("text = %q, want %q", last.text, tt.text)
			}
			if last.next.line != tt.line {
				t.Errorf("line left = %q, want %q", last.next.line, tt.line)
			}
		})
	}
}

func TestUnseenKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		k     keyboard
		sends []string
		why   string // in the reason
	}{
		{name: "text after ctrl-c", k: tty, sends: []string{"rm -rf /tmp/y\x03ls"}, why: "Ctrl-C"},
		{name: "unfinished first line after ctrl-c", k: tty, sends: []string{"\x03…", "echo 'a\nreboot #'"}, why: "first line after Ctrl-C"},
		{name: "ctrl-a", k: tty, sends: []string{"rm -rf /tmp/y\x01#"}, why: "0x01 (^A)"},
		{name: "ctrl-e", k: tty, sends: []string{"\x05"}, why: "^E"},
		{name: "ctrl-k", k: tty, sends: []string{"ls\x0b"}, why: "^K"},
		{name: "ctrl-y yank", k: tty, sends: []string{"rm -rf /tmp/y\x15ls\x19"}, why: "^Y"},
		{name: "ctrl-t transpose", k: tty, sends: []string{"sl\x14"}, why: "^T"},
		{name: "ctrl-r history", k: tty, sends: []string{"\x12rm"}, why: "^R"},
		{name: "ctrl-p history", k: tty, sends: []string{"\x10"}, why: "^P"},
		{name: "ctrl-n history", k: tty, sends: []string{"\x0e"}, why: "^N"},
		{name: "ctrl-o operate", k: tty, sends: []string{"\x0f"}, why: "^O"},
		{name: "ctrl-x ctrl-e edit and run", k: tty, sends: []string{"\x18\x05"}, why: "^X"},
		{name: "ctrl-v literal next", k: tty, sends: []string{"ls\x16\x7f"}, why: "^V"},
		{name: "ctrl-z", k: tty, sends: []string{"\x1a"}, why: "session_signal"},
		{name: "ctrl-backslash", k: tty, sends: []string{"\x1c"}, why: "session_signal"},
		{name: "ctrl-s", k: tty, sends: []string{"\x13"}, why: "^S"},
		{name: "ctrl-h", k: tty, sends: []string{"rm -rf / \x08\x08\x08\x08\x08\x08\x08\x08\x08ls"}, why: "^H"},
		{name: "tab completion", k: tty, sends: []string{"rm -rf /tm\t"}, why: "Tab"},
		{name: "arrow key", k: tty, sends: []string{"ls\x1b[D\x1b[Drm "}, why: "ESC"},
		{name: "alt-b", k: tty, sends: []string{"ls\x1bbrm "}, why: "ESC"},
		{name: "bracketed paste", k: tty, sends: []string{"\x1b[200~rm -rf /\x1b[201~"}, why: "ESC"},
		{name: "C1 CSI", k: tty, sends: []string{"ls\u009bD"}, why: "C1"},
		{name: "ctrl-d on a partial line", k: tty, sends: []string{"rm -rf / \x04\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7fls"}, why: "Ctrl-D"},
		{name: "erase of a multibyte character", k: tty, sends: []string{"rm -rf / éé\x7f\x7f\x7f\x7f"}, why: "non-ASCII"},
		{name: "word erase after punctuation", k: tty, sends: []string{"echo ;xx\x17rm -rf /tmp/y"}, why: "Ctrl-W"},
		{name: "word erase of a path", k: tty, sends: []string{"cat /etc/passwd\x17"}, why: "Ctrl-W"},
		{name: "word erase after a non-ASCII word", k: tty, sends: []string{"echo é\x17"}, why: "Ctrl-W"},
		{name: "non-ASCII text where the locale is unknown", k: keyboard{pty: true}, sends: []string{"echo \u00e2"}, why: "UTF-8"},
		{name: "history designator", k: tty, sends: []string{"echo rm -rf /tmp/y", "!!:1*"}, why: "history"},
		{name: "history search", k: tty, sends: []string{"a!rm"}, why: "history"},
		{name: "history in double quotes", k: tty, sends: []string{`echo "!rm"`}, why: "history"},
		{name: "history inside a multi-line quote", k: tty, sends: []string{`echo "a`, `it's !rm"`}, why: "history"},
		{name: "quick substitution", k: tty, sends: []string{"echo rm x", "^echo ^"}, why: "'^'"},
		{name: "comment ending in a backslash", k: tty, sends: []string{"echo hi #\\", "rm -rf /tmp/y"}, why: "backslash"},
		{name: "comment ending in a backslash over pipes", k: pipes, sends: []string{"echo hi #\\\nrm -rf /tmp/y"}, why: "backslash"},
		{name: "a line too long for a terminal", k: tty, sends: []string{strings.Repeat(" ", maxLine) + "reboot"}, why: "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, last := typeAll(tt.k, tt.sends...)
			if last.unseen == "" {
				t.Fatalf("seen; lines %q, text %q", last.lines, last.text)
			}
			if !strings.Contains(last.unseen, tt.why) {
				t.Errorf("reason %q lacks %q", last.unseen, tt.why)
			}
		})
	}
}

func TestHistoryCharactersThatStayText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"[ ! -f x ] && echo no", "a != b", "echo hi!", `echo "hi!"`, "echo $!", "echo ${!x}",
		"awk '!seen[$0]++' f", `echo \!x`, "x=1; test $x != 2",
	} {
		if _, last := typeAll(tty, s); last.unseen != "" {
			t.Errorf("%q: %s", s, last.unseen)
		}
	}
}

// An unknown line is unknown until Ctrl-U or Ctrl-C clears it, and an
// Enter that hands one over leaves the shell's state unknown until Ctrl-C.
func TestLostLine(t *testing.T) {
	t.Parallel()
	// A writable session's send with Tab ran (after approval).
	_, last := typeAll(tty, "cat /etc/pas\t…")
	if last.unseen == "" || last.next.lost == "" {
		t.Fatalf("tab: unseen %q, lost %q", last.unseen, last.next.lost)
	}
	st := last.next
	if got := st.feed("swd", tty); got.unseen == "" {
		t.Error("typing more into a lost line is seen")
	}
	if got := st.feed("\x15ls\r", tty); got.unseen != "" || !slices.Equal(got.lines, []string{"ls"}) {
		t.Errorf("ctrl-u: unseen %q, lines %q", got.unseen, got.lines)
	}
	entered := st.feed("\r", tty)
	if entered.unseen == "" || entered.next.adrift == "" {
		t.Fatalf("enter of a lost line: unseen %q, adrift %q", entered.unseen, entered.next.adrift)
	}
	if got := entered.next.feed("ls\r", tty); got.unseen == "" {
		t.Error("a line after an unknown one is seen")
	}
	got := entered.next.feed("\x03\r", tty)
	// Ctrl-C ended a wait for a program, which may still hold the
	// terminal (held.go).
	if got.unseen != "" || got.next != (typing{held: entered.next.adrift}) {
		t.Fatalf("ctrl-c: unseen %q, next %+v", got.unseen, got.next)
	}
	if got := got.next.feed("ls\r", tty); got.unseen != "" {
		t.Errorf("after ctrl-c: %s", got.unseen)
	}
}

func TestSyntaxErrorLeavesTheShellUnknown(t *testing.T) {
	t.Parallel()
	_, last := typeAll(tty, "echo )\necho 'a")
	if last.next.adrift == "" {
		t.Fatalf("no adrift after a syntax error: %+v", last.next)
	}
	if got := last.next.feed("b'; touch /etc/x\r", tty); got.unseen == "" {
		t.Error("the next line is seen")
	}
}

func TestBounds(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("a", 1<<20)
	for _, k := range []keyboard{tty, pipes} {
		got := typing{}.feed(big, k)
		if got.unseen == "" || got.next.lost == "" {
			t.Errorf("pty %v: a 1 MiB line is seen", k.pty)
		}
		if n := len(got.next.line); n > maxPipeLine {
			t.Errorf("pty %v: keeps %d bytes of the line", k.pty, n)
		}
		if !utf8.ValidString(got.next.line) {
			t.Errorf("pty %v: the kept line is not valid UTF-8", k.pty)
		}
		// Kill and Enter work afterwards.
		if k.pty {
			if after := got.next.feed("\x15ls\r", k); after.unseen != "" || !slices.Equal(after.lines, []string{"ls"}) {
				t.Errorf("after ctrl-u: unseen %q, lines %q", after.unseen, after.lines)
			}
		}
	}
	// Many short lines, and an unfinished command that grows past the bound.
	many := strings.Repeat("ls\n", 100000)
	if got := (typing{}).feed(many, tty); got.unseen != "" || len(got.lines) != 100000 {
		t.Errorf("100000 lines: unseen %q, %d lines", got.unseen, len(got.lines))
	}
	doc := "cat <<EOF\n" + strings.Repeat("x\n", maxOpen)
	got := typing{}.feed(doc, tty)
	if got.next.adrift == "" || len(got.next.open) > maxOpen {
		t.Errorf("an unfinished 128 KiB command: adrift %q, %d bytes kept", got.next.adrift, len(got.next.open))
	}
	// Multibyte characters near the bound are never split.
	wide := typing{}.feed(strings.Repeat("é", maxLine), tty)
	if !utf8.ValidString(wide.next.line) {
		t.Error("the kept line is cut inside a character")
	}
}

// What the line discipline hands over is what policy classifies: spellings
// that only assemble a mutation are classified as one.
func TestAssembledLinesAreClassified(t *testing.T) {
	t.Parallel()
	p, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		sends []string
		want  policy.Tier
	}{
		{"erase", []string{"cat x\x7f\x7f\x7f\x7f\x7frm -rf /tmp/y"}, policy.TierDestructive},
		{"kill", []string{"ls -l #\x15touch /etc/warden-x"}, policy.TierMutate},
		{"word erase", []string{"ls foo\x17\x17touch /etc/warden-x"}, policy.TierMutate},
		{"split over sends", []string{"ech…", "o hi; touch /etc/warden-x"}, policy.TierMutate},
		{"split word over sends", []string{"tou…", "ch /etc/warden-x"}, policy.TierMutate},
		{"split into five", []string{"r…", "m…", " -r…", "f /…", "tmp/y"}, policy.TierDestructive},
		{"continued line", []string{`r\`, "m -rf /tmp/y"}, policy.TierDestructive},
		{"second of several lines", []string{"ls\nrm -rf /tmp/y\n…"}, policy.TierDestructive},
		{"after ctrl-c", []string{"echo 'a", "\x03", "reboot #'"}, policy.TierDestructive},
		{"partial", []string{"ls; rm -rf /tmp/y…"}, policy.TierDestructive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, last := typeAll(tty, tt.sends...)
			if last.unseen != "" {
				t.Fatalf("unseen: %s", last.unseen)
			}
			v := p.Evaluate(policy.Input{Command: last.text})
			if v.Tier < tt.want && !v.Denied {
				t.Errorf("%q classified as tier %d (%s), want at least %d", last.text, v.Tier, v.Reason, tt.want)
			}
			raw := p.Evaluate(policy.Input{Command: strings.TrimSuffix(tt.sends[len(tt.sends)-1], "…")})
			t.Logf("raw last send: tier %d; assembled: tier %d", raw.Tier, v.Tier)
		})
	}
}

func TestFollow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		open  string
		lines []string
		rest  string
		fresh []bool
	}{
		{lines: []string{"ls"}, fresh: []bool{true}},
		{lines: []string{`r\`}, rest: "r\\\n", fresh: []bool{true}},
		{lines: []string{"ls", "echo 'a"}, rest: "echo 'a\n", fresh: []bool{true, true}},
		{lines: []string{"ls; echo 'a"}, rest: "ls; echo 'a\n", fresh: []bool{true}},
		{open: "echo 'a\n", lines: []string{"b'", "ls"}, fresh: []bool{false, true}},
		{lines: []string{"cat <<EOF", "x'", "EOF", "echo \"y"}, rest: "echo \"y\n", fresh: []bool{true, false, false, true}},
		{lines: []string{"cat <<'EOF'", "x"}, rest: "cat <<'EOF'\nx\n", fresh: []bool{true, false}},
		{lines: []string{"for x in a", "do", "echo $x", "done"}, fresh: []bool{true, false, false, false}},
		{lines: []string{strings.Repeat("a", 3000) + " '", "'"}, fresh: []bool{true, false}},
	}
	for _, tt := range tests {
		text, done, fresh, broken := follow(tt.open, tt.lines)
		if broken != nil {
			t.Errorf("%q %q: %v", tt.open, tt.lines, broken)
			continue
		}
		if rest := text[done:]; rest != tt.rest {
			t.Errorf("%q %q: rest %q, want %q", tt.open, tt.lines, rest, tt.rest)
		}
		if !slices.Equal(fresh, tt.fresh) {
			t.Errorf("%q %q: fresh %v, want %v", tt.open, tt.lines, fresh, tt.fresh)
		}
	}
}

// After an interrupt the shell may drop the next line it reads (dash does,
// as it handles the interrupt), so that line must be complete on its own:
// otherwise dropping it would change how the lines after it parse.
func TestInterruptedShell(t *testing.T) {
	t.Parallel()
	_, last := typeAll(tty, "echo 'a", "ls…")
	sig := last.next.signalled()
	if !sig.interrupted || sig.open != "" || sig.lost == "" {
		t.Fatalf("after session_signal INT: %+v", sig)
	}
	if got := sig.feed("\x15echo 'a\nreboot #'\r", tty); got.unseen == "" {
		t.Errorf("an unfinished first line after an interrupt is seen: %q", got.text)
	}
	got := sig.feed("\x15ls\necho 'a\nb'\r", tty)
	if got.unseen != "" || got.next.interrupted {
		t.Errorf("a complete first line after an interrupt: unseen %q, interrupted %v", got.unseen, got.next.interrupted)
	}
	if clean := (typing{}).signalled(); clean.lost != "" {
		t.Errorf("an interrupt with nothing typed loses the line: %q", clean.lost)
	}
}
