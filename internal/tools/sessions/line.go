package sessions

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// What is typed is not what runs: a terminal's line discipline, or the
// shell's own line editor, edits the text before the shell reads it, and
// hands it over a line at a time on Enter. So warden follows each session's
// input line the way the terminal does and classifies the lines the shell
// will be handed, together with any unfinished command they continue.
//
// warden cannot know which program reads the terminal, so it applies an
// edit only where the readers it may be typing to agree on the effect: the
// kernel's canonical line discipline with its default settings (sh, dash,
// read, cat), GNU readline (bash) and zsh's line editor. Those are
//
//   - DEL (0x7f) erases the last character, when it is ASCII;
//   - Ctrl-U (0x15) clears the line;
//   - Ctrl-W (0x17) erases trailing spaces and then one word of letters,
//     digits and '_' that follows a space or starts the line;
//   - Ctrl-C (0x03) discards the line and any unfinished command. It must
//     end the send (but for Enter), since whether text typed right after
//     it reaches the shell depends on when the shell handles the
//     interrupt; and the first line entered after it must be a complete
//     command, since dash drops the line it is reading when it handles
//     the interrupt, and the lines after must parse the same either way;
//   - Ctrl-D (0x04) on an empty line is end of input (for the shell,
//     unless a program may be reading the terminal);
//   - CR and LF are Enter.
//
// An edit key, or Ctrl-D, after Enter in the same send is unseen: the
// terminal handles a send's bytes as they arrive, in the mode of the
// program then reading, which the entered line may end (afterEnter). So
// is text left typed after Enter in the same send, which a later edit
// may not reach.
//
// Every other key is unseen: what it does depends on the program (Tab
// completion, arrows and every escape sequence, readline's Ctrl-A, Ctrl-K,
// Ctrl-Y, Ctrl-R, …, ^H, which readline erases with but a plain terminal
// types, Ctrl-Z and Ctrl-\ whose flush races the shell, non-ASCII text
// where the locale is not known to be UTF-8, since bash then reads it as
// Alt- keys), and so do lines bash would rewrite from its history ('!'
// designators, a leading '^'). A session without a terminal gets every
// byte as it is, and its lines end at LF only.
//
// The model takes the shell to be what reads the lines. A program in the
// foreground that reads part of a line or some of the lines (read,
// head, cat, sed, a pager, an editor) changes where the shell's commands
// begin; no classifier of the typed text can know how much it took, so
// after one the session is adrift until Ctrl-C (partial.go), and so after
// one that asks for a password or a confirmation (askers.go). A command that
// changes how the session reads keys (stty, bind, histchars, …) ends the
// model for good: rekey.go, computed.go; so does a program that reads the
// next lines in its own language (readers.go), a trap, and a signal that
// may leave the terminal in a killed program's modes (stopped). A name
// given a new meaning holds later sends that mention it: renames.go.
const (
	// maxLine bounds a terminal line warden follows: the canonical line
	// discipline keeps 4095 bytes of a line and then overwrites the last,
	// so a longer line is not what was typed.
	maxLine = 4000
	// maxPipeLine bounds a line in a session without a terminal.
	maxPipeLine = 64 << 10
	// maxOpen bounds the entered lines of an unfinished command.
	maxOpen = 64 << 10
)

// typing is what warden knows of a session's input.
type typing struct {
	// line is what was typed since the last Enter, after the edits.
	line string
	// open is the entered lines, each ending in "\n", of a command the
	// shell is still reading (an open quote or here-document, a trailing
	// backslash, an unfinished if or for).
	open string
	// lost, when set, says why warden does not know line. Ctrl-U and
	// Ctrl-C clear it; Enter hands the unknown line over.
	lost string
	// adrift, when set, says why warden does not know whether the shell is
	// in the middle of a command. Ctrl-C clears it.
	adrift string
	// asked: adrift only because a program may be asking a question on
	// the terminal (askers.go), which takes whole lines: a line that is a
	// complete command on its own may still be typed, as its answer.
	asked bool
	// interrupted: Ctrl-C was typed and no line entered since.
	interrupted bool
	// held, when set, says why the session was adrift when a Ctrl-C
	// cleared it: the program it waited for may ignore the interrupt or
	// read keys raw and still hold the terminal (held.go).
	held string
	// rekeyed, when set, says why the session no longer reads keys the
	// way warden follows them (rekey.go). Nothing clears it.
	rekeyed string
	// renamed is the names, one a line, that commands run earlier gave a
	// new meaning (renames.go). Nothing clears it.
	renamed string
	// notUTF8: a line may have changed the shell's locale (locale.go),
	// so non-ASCII text is no longer known to be text.
	notUTF8 bool
	// dialect, when set, says why a shell warden did not choose, which
	// may be zsh, may read what is typed (usershell.go). Nothing clears
	// it.
	dialect string
	// modes, when set, says why the terminal's line editing may be off:
	// a program warden cannot follow ran, and one that turns editing
	// and the interrupt off (raw mode) may exit, crash or be killed
	// without turning them back on. A plain shell then reads DEL,
	// Ctrl-U, Ctrl-W and Ctrl-C as characters: "touch x #", Ctrl-U,
	// "echo hi" runs touch. Ctrl-C cannot end that doubt, since it is
	// one of the keys in question, so nothing clears it; lines typed
	// without those keys read the same either way.
	modes string
}

// keyboard is how a session reads its input.
type keyboard struct {
	// pty: a terminal. Without one the program gets every byte as it is.
	pty bool
	// utf8: the session's locale is known to be UTF-8, so non-ASCII text
	// is text.
	utf8 bool
}

// typed is what one send does.
type typed struct {
	// next is the state after the send.
	next typing
	// lines are the lines the send hands over with Enter, in order.
	lines []string
	// text is what policy classifies: the lines handed over, with the
	// unfinished command they continue, and then the line left typed.
	text string
	// unseen, when set, says why warden cannot know what the send does.
	unseen string
}

// signalled returns t after session_signal sent INT to the terminal's
// foreground: as after Ctrl-C the shell drops an unfinished command and
// may drop the next line it reads, but without the terminal's flush a
// typed line stays for a plain reader while readline drops it.
func (t typing) signalled() typing {
	n := typing{interrupted: true, rekeyed: t.rekeyed, renamed: t.renamed, modes: t.modes, held: t.held, notUTF8: t.notUTF8,
		dialect: t.dialect}
	if t.adrift != "" {
		n.held = t.adrift
	}
	if t.line != "" || t.lost != "" {
		n.lost = "an interrupt from session_signal drops the typed line in bash but not in a plain terminal"
	}
	return n
}

// stopped returns t after session_signal sent sig (not INT, WINCH or
// CONT) to the terminal's foreground. A program it stops or kills cannot
// restore the terminal modes it set (less, vi and top turn the line
// discipline's editing off), and a shell without readline (sh, dash) then
// reads every key as typed: "touch x", Ctrl-U, "ls" runs touch. Nothing
// typed afterwards shows whether the modes were restored, so the session
// stays unknown, as after a key change (rekey.go).
func (t typing) stopped(sig string) typing {
	if t.rekeyed == "" {
		t.rekeyed = "session_signal " + sig + " may have stopped or killed a program before it restored the terminal's modes, " +
			"after which a shell without readline reads keys unedited"
	}
	return t
}

// feed returns what typing data into a session in state t does.
func (t typing) feed(data string, k keyboard) typed {
	k.utf8 = k.utf8 && !t.notUTF8
	f := feeder{notUTF8: t.notUTF8, k: k, line: []byte(t.line), lost: t.lost, adrift: t.adrift, asked: t.asked, open: t.open, began: t.open, interrupted: t.interrupted, rekeyed: t.rekeyed, renamed: t.renamed, modes: t.modes, held: t.held, dialect: t.dialect}
	if t.rekeyed != "" {
		f.see("warden no longer knows how this session reads what is typed or what it runs: earlier, " + t.rekeyed +
			"; use session_signal to interrupt, or start a new session")
	}
	for _, c := range data {
		f.key(c)
	}
	return f.finish()
}

// feeder applies keys to a line and collects the lines handed over. The
// lines since the last Ctrl-C (or Ctrl-D) form a segment: the shell reads a
// segment's lines as one script, and a new segment starts afresh.
type feeder struct {
	k      keyboard
	line   []byte
	lost   string
	adrift string
	asked  bool     // typing's
	edited bool     // the send holds an edit key (DEL, Ctrl-U, Ctrl-W)
	open   string   // the unfinished command before seg
	began  string   // the unfinished command before the send
	seg    []string // lines entered in the current segment
	kept   []string // what is classified of the segments before
	ran    []string // the complete commands of the segments before
	lines  []string
	unseen string
	// rekeyed, renamed, modes, held, dialect and notUTF8 are typing's.
	rekeyed, renamed, modes, held, dialect string
	notUTF8                                bool
	// typed: text was added to the line in this send, which nothing has
	// classified yet.
	typed bool
	// interrupted: Ctrl-C was typed and no line entered since; sent: in
	// this send, so text typed after it races the shell's handling of
	// the interrupt.
	interrupted, sent bool
}

// see records the first reason a send cannot be known.
func (f *feeder) see(why string) {
	if f.unseen == "" {
		f.unseen = why
	}
}

// unknown records a key with an effect warden cannot see; the line is then
// unknown too.
func (f *feeder) unknown(why string) {
	f.see(why)
	if f.lost == "" {
		f.lost = why
	}
}

func (f *feeder) key(c rune) {
	if !f.k.pty {
		if c == '\n' {
			f.enter()
		} else {
			f.add(c)
		}
		return
	}
	switch {
	case c == '\r' || c == '\n':
		f.enter()
	case c == 0x7f:
		f.raw("DEL")
		f.afterEnter("DEL (0x7f)")
		f.erase()
		f.edited = true
	case c == 0x15:
		f.raw("Ctrl-U")
		f.line, f.lost = f.line[:0], ""
		f.afterEnter("Ctrl-U (0x15)")
		f.edited = true
	case c == 0x17:
		f.raw("Ctrl-W")
		f.afterEnter("Ctrl-W (0x17)")
		f.eraseWord()
		f.edited = true
	case c == 0x03:
		if f.typed && len(f.line) > 0 {
			f.raw("Ctrl-C after text typed on the line")
		}
		f.line, f.lost = f.line[:0], ""
		if f.adrift != "" {
			f.held = f.adrift
		}
		f.restart()
		f.interrupted, f.sent = true, true
	case c == 0x04:
		f.afterEnter("Ctrl-D (0x04)")
		if len(f.line) == 0 && f.lost == "" {
			// While a program may be reading the terminal, end of input
			// is its own, and the next program of its list reads on
			// (after "cat; head -n 1" it is head's turn): only Ctrl-C
			// ends them all.
			if f.adrift == "" {
				f.restart()
			}
			return
		}
		f.unknown("Ctrl-D (0x04) on a non-empty line hands the line over without Enter in a plain terminal but deletes a character in bash")
	case c == '\t':
		f.unknown("Tab (0x09) completes words in the shell, which changes the line in ways warden cannot see")
	case c == 0x08:
		f.unknown("^H (0x08) erases a character in bash but is typed as a character by a plain terminal (sh, dash, read); erase with DEL (0x7f)")
	case c == 0x1b:
		f.unknown("ESC (0x1b) starts an escape sequence or Alt- key (arrows, history, bracketed paste), which edits the line in ways warden cannot see")
	case c == 0x1a || c == 0x1c:
		f.unknown(fmt.Sprintf("control character %s stops or quits the foreground program and may or may not clear the line; use session_signal", keyName(c)))
	case c < 0x20:
		f.unknown(fmt.Sprintf("control character %s edits the line in ways warden cannot see", keyName(c)))
	case c >= 0x80 && c < 0xa0:
		f.unknown(fmt.Sprintf("%U is a C1 control character, which a terminal may read as an escape sequence", c))
	case c >= 0x80 && !f.k.utf8:
		f.unknown(fmt.Sprintf("non-ASCII text (%q) in a session whose locale warden does not know to be UTF-8 may be read as Alt- keys by bash", c))
	default:
		f.add(c)
	}
}

// raw records that key, an edit, may reach the shell as a character
// where the terminal's editing may be off (typing.modes).
func (f *feeder) raw(key string) {
	if f.modes != "" {
		f.see(key + " may reach the shell as a character, not an edit: a program that ran earlier (" + f.modes +
			") may have turned the terminal's line editing off and not back on; type whole lines without edit keys " +
			"(Ctrl-C on its own clears a line typed in an earlier send), or start a new session")
	}
}

// afterEnter records that key, an edit or end of input, follows a line
// entered in the same send. The terminal handles every byte of a send as
// it arrives, in the mode the program reading it then has: bash's
// readline reads keys raw and applies its edits itself, so when the
// entered line ends it or starts another shell ("exit" in a nested bash,
// "sh" typed into bash), a plain shell reads the rest of the send with the
// edit keys as characters: "exit⏎touch x #^Uecho hi" runs touch in the
// shell below. Such a key is unknown there; sent on its own, it reaches a
// program that reads it.
func (f *feeder) afterEnter(key string) {
	if f.k.pty && len(f.lines) > 0 {
		f.unknown(key + " after a line entered in the same send may reach the next program as a character: " +
			"the terminal handles it in the mode of the program reading when the send arrives; send it in a send of its own")
	}
}

// keyName names a C0 control character: "0x01 (^A)".
func keyName(c rune) string {
	return fmt.Sprintf("0x%02x (^%c)", c, c+'@')
}

func (f *feeder) add(c rune) {
	if f.sent {
		f.see("text typed after Ctrl-C (0x03) in the same send may or may not reach the shell, depending on when it handles the interrupt; send Ctrl-C on its own first")
	}
	limit := maxLine
	if !f.k.pty {
		limit = maxPipeLine
	}
	if len(f.line)+utf8.RuneLen(c) > limit {
		if f.lost == "" {
			f.unknown(fmt.Sprintf("the line is longer than %d bytes, which a terminal does not keep whole", limit))
		}
		return
	}
	f.line = utf8.AppendRune(f.line, c)
	f.typed = true
}

func (f *feeder) erase() {
	if f.lost != "" || len(f.line) == 0 {
		return
	}
	if c := f.line[len(f.line)-1]; c < utf8.RuneSelf {
		f.line = f.line[:len(f.line)-1]
		return
	}
	r, _ := utf8.DecodeLastRune(f.line)
	f.unknown(fmt.Sprintf("DEL (0x7f) after the non-ASCII character %q erases one byte in a plain terminal but one character in bash", r))
}

// eraseWord applies Ctrl-W where the terminal (which stops at punctuation)
// and readline (which stops at a space) agree.
func (f *feeder) eraseWord() {
	if f.lost != "" {
		return
	}
	s := f.line
	end := len(s)
	for end > 0 && s[end-1] == ' ' {
		end--
	}
	start := end
	for start > 0 && wordByte(s[start-1]) {
		start--
	}
	if end > 0 && (start == end || start > 0 && s[start-1] != ' ') {
		from := strings.LastIndexByte(string(s[:end]), ' ') + 1
		f.unknown(fmt.Sprintf("Ctrl-W (0x17) after %q erases up to a space in bash but up to punctuation in a plain terminal", s[from:end]))
		return
	}
	f.line = s[:start]
}

func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// enter hands the line over.
func (f *feeder) enter() {
	l := string(f.line)
	if f.lost != "" {
		f.see("Enter would hand over a line warden does not know (" + f.lost + "); clear it with Ctrl-U (0x15) or Ctrl-C (0x03) first")
		// Whatever the shell got, warden cannot follow what it reads next.
		f.adrift, f.asked = f.lost, false
	}
	if f.adrift != "" && !f.answers(l) {
		f.see("the shell may be in the middle of a command warden could not follow (" + f.adrift + "); send Ctrl-C (0x03) first")
	}
	if why := commentEscape(l); why != "" {
		f.see(why)
	}
	if f.interrupted && f.k.pty {
		if text, done, _, broken := follow("", []string{l}); done < len(text) || broken != nil {
			f.see("the first line after Ctrl-C (0x03) may be dropped by the shell as it handles the interrupt, so it must be a complete command on its own; send an empty line first")
		}
		f.interrupted = false
	}
	f.lines = append(f.lines, l)
	f.seg = append(f.seg, l)
	f.line, f.lost, f.typed = f.line[:0], "", false
}

// answers reports whether the line l, entered while a program may be
// asking on the terminal, is safe either way: whether the program takes
// it as its answer or the shell runs it, the lines after it are read
// alike, since it is a complete command on its own typed where no command
// is unfinished. Without edit keys, since a program that asks with the
// terminal's editing off (pinentry) leaves them to a plain shell unedited.
func (f *feeder) answers(l string) bool {
	if !f.asked || f.lost != "" || f.edited || f.open != "" {
		return false
	}
	for _, prev := range f.seg {
		if !alone(prev) {
			return false
		}
	}
	return alone(l)
}

// alike reports whether the send's lines read alike whichever of them a
// program that asks on the terminal takes: each is a complete command on
// its own, typed without edit keys where no command was unfinished.
func (f *feeder) alike() bool {
	if f.edited || f.lost != "" || f.began != "" {
		return false
	}
	for _, l := range f.lines {
		if !alone(l) {
			return false
		}
	}
	return true
}

// answered reports whether every program of the send's lines that warden
// does not know comes in a line after one that may ask on the terminal,
// where it may be the answer.
func (f *feeder) answered() bool {
	for k := range f.lines {
		head := envSpelled(strings.Join(f.lines[:k+1], "\n"))
		if asksTerminal(head) != "" {
			w, a := unknownReaders(head)
			return w == "" || a
		}
	}
	return false
}

// alone reports whether l is a complete command on its own.
func alone(l string) bool {
	text, done, _, broken := follow("", []string{l})
	return broken == nil && done == len(text)
}

// restart ends the segment: Ctrl-C, or Ctrl-D on an empty line, makes the
// shell drop an unfinished command and read afresh.
func (f *feeder) restart() {
	if len(f.seg) > 0 {
		text, done, fresh, broken := follow(f.open, f.seg)
		f.history(fresh)
		if broken != nil {
			done = len(text)
		}
		// Commands that were complete ran; the unfinished rest is dropped
		// and never runs.
		f.kept = append(f.kept, text[:done])
		f.ran = append(f.ran, text[:done])
	}
	f.open, f.seg, f.adrift, f.asked = "", nil, "", false
}

// history marks lines that bash or zsh would rewrite from their history
// before running them. fresh says which lines begin a command; in others
// quoting carried over from earlier lines is unknown here.
func (f *feeder) history(fresh []bool) {
	if !f.k.pty {
		return
	}
	for i, l := range f.seg {
		if why := recalled(l, fresh[i]); why != "" {
			f.see(why)
		}
	}
}

func (f *feeder) finish() typed {
	t := typed{lines: f.lines}
	var text string
	if len(f.seg) > 0 || f.open != "" {
		var done int
		var fresh []bool
		var broken error
		text, done, fresh, broken = follow(f.open, f.seg)
		f.history(fresh)
		f.ran = append(f.ran, text[:done])
		switch rest := text[done:]; {
		case broken != nil:
			f.adrift, f.asked = "a line that does not parse as shell: "+truncate(broken.Error(), 80), false
			f.open = ""
		case len(rest) > maxOpen:
			f.adrift, f.asked = fmt.Sprintf("an unfinished command longer than %d bytes", maxOpen), false
			f.open = ""
		default:
			f.open = rest
		}
	}
	if f.lost != "" {
		f.see(f.lost)
	}
	if len(f.lines) > 0 || len(f.line) > 0 {
		parts := append(f.kept, text, string(f.line))
		t.text = strings.Join(parts, "")
	}
	rekeyed, renamed := f.rekeyed, f.renamed
	if why := usesRenamed(t.text, renamed); why != "" {
		f.see(why)
	}
	// Without a terminal there are no keys to change, but a shell of
	// another language or a program that reads part of the input reads
	// a pipe as it reads a terminal.
	if rekeyed == "" {
		// The rules below read env's split string as words of its
		// command, however it is spelled (envsplit.go).
		text := envSpelled(t.text)
		why := rekeys(text)
		if why != "" {
			f.see(why + "; warden could not follow what is typed into the session after it")
		}
		if why != "" && len(f.lines) > 0 {
			rekeyed = why
		}
		ran := envSpelled(strings.Join(f.ran, ""))
		why = splits(text)
		if why == "" {
			why = readsTerminal(ran)
		}
		if why == "" {
			why = unreadCode(ran)
			if why != "" && f.modes == "" && len(f.lines) > 0 {
				f.modes = why
			}
		}
		asks := false
		if why == "" {
			why = asksTerminal(ran)
			asks = why != ""
		}
		if w, a := unknownReaders(ran); w != "" && (why == "" || asks) {
			// While a program may be asking, a line typed is its answer
			// as likely as a command ("hunter2" after sudo -S, in this
			// send or the one before); a program that may read in its
			// own language outweighs one that asks (sudo nslookup).
			a = a || f.asked || asks && f.answered()
			if why == "" || !a {
				why, asks = w, a
			}
			if f.modes == "" && len(f.lines) > 0 {
				f.modes = w
			}
		}
		if why != "" && len(f.lines) > 0 {
			if (len(f.lines) > 1 || len(f.line) > 0) && !(asks && f.alike()) {
				f.see(why + "; send the line that starts it on its own, with nothing after it")
			}
			switch {
			case f.adrift == "":
				f.adrift, f.asked = why, asks
			case !asks:
				f.asked = false
			}
		}
		if why := survivors(ran); why != "" && len(f.lines) > 0 {
			rekeyed = why
		}
		if why := terminalDirs(ran); why != "" && len(f.lines) > 0 {
			f.see(why + "; warden could not follow what later sends read")
			rekeyed = why
		}
		var names []string
		names, why = renames(ran)
		if why == "" {
			why = readsLines(ran)
		}
		if why == "" {
			renamed, why = addRenamed(renamed, names)
		}
		if why != "" {
			f.see(why + "; warden could not follow what later sends run")
			rekeyed = why
		}
	}
	dialect := f.dialect
	if dialect == "" && len(f.lines) > 0 {
		dialect = userShell(envSpelled(strings.Join(f.ran, "")))
	}
	if dialect != "" {
		if why := zshReads(t.text); why != "" {
			f.see(why + "; earlier, " + dialect + ", so a line that zsh reads otherwise than sh is not known")
		}
	}
	notUTF8 := f.notUTF8 || f.k.utf8 && localeChanges(strings.Join(f.ran, ""))
	if f.k.pty && len(f.lines) > 0 && len(f.line) > 0 {
		// What follows the line reaches the terminal at once, in the
		// mode of the program reading then: bash's readline reads keys
		// raw, so after "sh⏎touch x #" the plain shell it starts is
		// handed "touch x #" already taken, which a Ctrl-U typed later
		// cannot erase ("echo hi" after it runs touch).
		f.unknown("text typed after a line entered in the same send reaches the terminal in the mode of the program " +
			"then reading, which that line may change, so a later edit may not reach it; send it in a send of its own")
	}
	t.unseen = f.unseen
	t.next = typing{notUTF8: notUTF8, line: string(f.line), open: f.open, lost: f.lost, adrift: f.adrift, asked: f.asked, interrupted: f.interrupted, rekeyed: rekeyed, renamed: renamed, modes: f.modes, held: f.held, dialect: dialect}
	return t
}

// follow reads open and then lines as an interactive shell does. It
// returns them as one text, where the last complete command in it ends
// (text[done:] is what the shell is still reading), which of lines begin
// with no command unfinished, and the syntax error the shell would report,
// if any.
func follow(open string, lines []string) (text string, done int, fresh []bool, broken error) {
	all := strings.SplitAfter(open, "\n")
	all = all[:len(all)-1]
	first := len(all)
	for _, l := range lines {
		all = append(all, l+"\n")
	}
	text = strings.Join(all, "")
	// complete[n]: nothing is unfinished after the first n lines.
	complete := make([]bool, len(all)+1)
	complete[0] = true
	r := &lineReader{lines: all}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	unfinished := false
	for _, err := range p.InteractiveSeq(r) {
		if err != nil {
			// The parser reports a here-document with a quoted delimiter
			// (<<'EOF') left open at the end as an error, where the shell
			// reads on.
			if syntax.IsIncomplete(err) || strings.Contains(err.Error(), "unclosed here-document") {
				unfinished = true
			} else {
				broken = err
			}
			break
		}
		// A trailing backslash leaves the parser wanting more without
		// an error at the end, so the last report counts.
		unfinished = p.Incomplete()
		if !unfinished && r.whole {
			complete[r.n] = true
			done = r.off
		}
	}
	if !unfinished && broken == nil {
		done = len(text)
	}
	fresh = make([]bool, len(lines))
	for i := range lines {
		fresh[i] = complete[first+i]
	}
	return text, done, fresh, broken
}

// lineReader gives the parser one line per read, so that it reports after
// each line whether a command is unfinished, as a shell's prompt would.
type lineReader struct {
	lines []string
	n     int  // lines read whole
	off   int  // bytes read
	whole bool // the last read ended a line
	part  int  // bytes of lines[n] already read
}

func (r *lineReader) Read(p []byte) (int, error) {
	if r.n >= len(r.lines) {
		return 0, io.EOF
	}
	n := copy(p, r.lines[r.n][r.part:])
	r.part += n
	r.off += n
	r.whole = r.part == len(r.lines[r.n])
	if r.whole {
		r.n, r.part = r.n+1, 0
	}
	return n, nil
}

// recalled says why bash or zsh may replace part of line from the history
// before running it, or returns "". With quoted, the line begins a command
// and its quotes are honoured (single quotes stop history expansion);
// without it, the line may continue a quote from an earlier line, so they
// are not.
func recalled(line string, quoted bool) string {
	if strings.HasPrefix(strings.TrimLeft(line, " "), "^") {
		return "a line starting with '^' reruns the previous command with a substitution in bash and zsh"
	}
	single, double := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case single:
			if c == '\'' {
				single = false
			}
		case c == '\\':
			i++
		case c == '\'' && quoted && !double:
			single = true
		case c == '"' && quoted:
			double = !double
		case c == '!':
			if i+1 == len(line) {
				continue
			}
			// bash leaves $! and ${!name} alone only after a character:
			// "$!" starting a line, or "${!" with no '}' after it on the
			// line, is expanded from the history.
			next := line[i+1]
			if next == ' ' || next == '=' || double && next == '"' || i > 1 && line[i-1] == '$' ||
				i > 1 && line[i-1] == '{' && line[i-2] == '$' && strings.IndexByte(line[i+1:], '}') >= 0 {
				continue
			}
			return fmt.Sprintf("'!' followed by %q is replaced from the shell's history in bash and zsh, which warden cannot see; quote it with '…' or put a space after it", line[i+1:min(i+8, len(line))])
		}
	}
	return ""
}

// commentEscape says why the parser warden classifies with would read line
// differently from the shell, or returns "": it takes a backslash at the
// end of a comment as joining the next line to the command before it.
func commentEscape(line string) string {
	trail := len(line) - len(strings.TrimRight(line, `\`))
	if trail%2 == 1 && strings.Contains(line, "#") {
		return "a line with '#' that ends in a backslash is read differently by warden's parser and the shell; end it otherwise"
	}
	return ""
}

// truncate cuts s to n bytes on a UTF-8 boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
