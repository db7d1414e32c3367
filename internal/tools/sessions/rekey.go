package sessions

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// The line model holds only while the session reads keys the default way.
// A command that changes that — the terminal's special characters and
// modes (stty, tset, reset), readline's key bindings and editing mode
// (bind, set -o vi), the history characters, the prompt and mail hooks
// the shell expands before each line, or the LESSSECURE that keeps the
// pagers of git log and journalctl from running commands — makes every
// later line something warden cannot follow: stty kill '#' turns
// "ls #touch x" into "touch x", bind '"l": "…"' turns "ls" into a macro,
// histchars='!l' turns "ls #l" into a rerun with a substitution. Nothing
// typed afterwards can undo it in a way warden could check, so such a
// command leaves the session unknown for good: the send that types it, and
// every send after it, is unseen.
//
// The scan reads every word of the text, with its quotes removed, so that
// a wrapper (env stty, busybox stty, sudo bind) or a string run as shell
// (sh -c 'stty kill q', a here-document fed to bash) is seen too. It
// errs on the side of finding: a mention it cannot place counts.

// rekeyDepth bounds how deep strings inside strings are read as shell.
const rekeyDepth = 4

// rekeyVars are variables whose value changes how the shell reads later
// lines or what it runs between them. Setting, reading into, exporting or
// unsetting one counts; expanding it does not.
var rekeyVars = map[string]string{
	"histchars":      "histchars changes which characters recall history",
	"PS0":            "the prompt variables are expanded, command substitutions included, around every line",
	"PS1":            "the prompt variables are expanded, command substitutions included, around every line",
	"PS2":            "the prompt variables are expanded, command substitutions included, around every line",
	"PROMPT_COMMAND": "PROMPT_COMMAND runs before every prompt",
	"MAILPATH":       "the mail check messages are expanded, command substitutions included, before a prompt",
	"MAIL":           "the mail check messages are expanded, command substitutions included, before a prompt",
	"INPUTRC":        "INPUTRC names readline's key bindings",
	"LESSSECURE":     "LESSSECURE keeps a pager (git log, journalctl, man) from running commands or writing files",
}

// pagerEnv turns off the pagers that git log, journalctl, systemctl
// status, dpkg -l or apt changelog start in the terminal.
var pagerEnv = []string{"PAGER=cat", "GIT_PAGER=cat", "MANPAGER=cat", "SYSTEMD_PAGER=cat", "DPKG_PAGER=cat",
	"BAT_PAGER=cat", "GH_PAGER=cat", "DELTA_PAGER=cat", "AWS_PAGER=cat", "PERLDOC_PAGER=cat", "NIX_PAGER=cat",
	"HGPAGER=cat", "RI_PAGER=cat", "GLAB_PAGER=cat", "PSQL_PAGER=cat", "MYSQL_PAGER=cat"}

func init() {
	for _, kv := range pagerEnv {
		k, _, _ := strings.Cut(kv, "=")
		rekeyVars[k] = k + " keeps programs such as git log and journalctl from starting a pager, " +
			"which reads keys with the terminal's editing off so that what is typed meanwhile reaches the shell unedited"
	}
}

// rekeys says why text changes how the session reads what is typed after
// it, or returns "".
func rekeys(text string) string {
	return rekeysIn(text, 0)
}

func rekeysIn(text string, depth int) string {
	if depth > rekeyDepth {
		return mentions(text)
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		// An unfinished command is read once it is finished; until then
		// any mention counts.
		return mentions(text)
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil {
				why = rekeyVars[n.Name.Value]
			}
		case *syntax.ParamExp:
			// ${PS1:=…} assigns; $PS1 only reads.
			if n.Param != nil && n.Exp != nil {
				why = rekeyVars[n.Param.Value]
			}
			return why == ""
		case *syntax.CallExpr:
			why = rekeyCall(n, depth)
			if why == "" {
				why = persists(n)
			}
		case *syntax.DeclClause:
			// declare -n r=PS1 makes r another name for PS1.
			for _, a := range n.Args {
				if a.Value != nil && why == "" {
					why = varMention(literal(a.Value))
				}
			}
			if why == "" {
				why = computedDecl(n)
			}
			if why == "" {
				why = persistDecl(n)
			}
		case *syntax.Word:
			v := literal(n)
			why = words(v)
			if why == "" && v != text && (mentions(v) != "" || namesShell(v)) && !isName(v) {
				// A string that may be run as shell: read it as one.
				why = rekeysIn(v, depth+1)
			}
			if why == "" && v == text && mentions(v) != "" && !isName(v) {
				why = mentions(v)
			}
		}
		return why == ""
	})
	return why
}

// rekeyCall says why the simple command c changes how later keys are read.
// Every word is looked at, not only the first, so that wrappers are seen
// through.
func rekeyCall(c *syntax.CallExpr, depth int) string {
	vals := literals(c.Args)
	piped := false // xargs adds words from its input
	for i, v := range vals {
		rest := vals[i+1:]
		if why := computedCall(vals, i); why != "" {
			return why
		}
		if why := configuredShell(c, vals, i); why != "" {
			return why
		}
		if why := jobControlOff(vals, i); why != "" {
			return why
		}
		if (v == "vi" || v == "emacs") && i > 0 && len(vals[i-1]) > 1 &&
			(vals[i-1][0] == '-' || vals[i-1][0] == '+') && strings.HasSuffix(vals[i-1], "o") {
			// set -o vi, shopt -so vi, bash -o vi
			return "-o " + v + " changes readline's editing mode, which decides what the keys typed do"
		}
		switch b := progName(v); b {
		case "read", "printf", "mapfile", "readarray", "unset", "getopts", "export", "declare",
			"typeset", "local", "readonly", "env":
			// They set, export or unset the variables they name.
			for _, a := range rest {
				if why := varMention(a); why != "" {
					return why
				}
			}
			if b == "env" {
				if why := envClears(rest); why != "" {
					return why
				}
			}
			if why := computedVar(b, rest); why != "" {
				return why
			}
			if why := persistCall(b, rest); why != "" {
				return why
			}
		case "xargs", "parallel":
			piped = true
		case "timeout":
			if why := killsUnrestored(rest); why != "" {
				return why
			}
		case "set", "shopt", "setopt", "unsetopt":
			if why := persistCall(b, rest); why != "" {
				return why
			}
		case "source", ".":
			if i == 0 || wrapper[path.Base(vals[i-1])] || wrapper[progName(vals[0])] {
				return b + " runs a file in the shell itself, which may change its key bindings, history characters or prompt"
			}
		case "tput":
			for _, a := range rest {
				if a == "init" || a == "reset" {
					return "tput " + a + " sets the terminal's special characters"
				}
			}
		case "stty":
			if piped || !all(rest, func(a string) bool {
				return a == "-a" || a == "--all" || a == "-g" || a == "--save" || a == "size" || a == "speed"
			}) {
				return "stty changes the terminal's special characters or modes, which decide what a typed line becomes"
			}
		case "bind":
			if piped || !all(rest, func(a string) bool {
				return len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "pPlvVsSX") == ""
			}) {
				return "bind changes what readline makes of the keys typed"
			}
		case "zsh", "fish", "csh", "tcsh", "xonsh", "nu", "elvish", "pwsh", "yash", "powershell", "rc", "es", "ion",
			"osh", "ysh", "oil", "murex", "hilbish", "ksh", "ksh93", "mksh", "lksh", "oksh", "loksh", "pdksh":
			// Interactive unless it runs a command string and exits. The
			// ksh family speaks sh but edits lines its own way (Ctrl-W).
			if mayRun(vals, i) &&
				!some(rest, func(a string) bool { return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c') }) {
				return b + " reads the lines typed next in a language or with a line editor warden does not follow " +
					"(in an interactive zsh '#' starts no comment, and a glob qualifier *(e:…:) runs code)"
			}
		case "tset", "reset":
			// Not git reset: only where a program name stands.
			if i == 0 || strings.HasPrefix(vals[i-1], "-") || wrapper[path.Base(vals[i-1])] {
				return v + " sets the terminal's special characters"
			}
		case "exec":
			if len(rest) > 0 && len(rest[0]) > 1 && rest[0][0] == '-' && strings.ContainsRune(rest[0], 'c') {
				return "exec -c drops the session's environment, LESSSECURE included, which keeps pagers from running commands"
			}
		}
	}
	return ""
}

// envClears says why env with options opts starts a program without the
// session's environment, or returns "".
func envClears(opts []string) string {
	for _, a := range opts {
		if a == "-" || a == "-i" || a == "--ignore-environment" ||
			len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'i') {
			return "env -i drops the session's environment, LESSSECURE included, which keeps pagers from running commands"
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
	}
	return ""
}

// progNames are the programs rekeyCall and splitCall look for.
var progNames = []string{"stty", "bind", "tset", "reset", "tput", "set", "shopt", "source",
	"zsh", "fish", "csh", "tcsh", "xonsh", "nu", "elvish", "pwsh", "yash", "env", "exec",
	"read", "dd", "head", "printf", "mapfile", "readarray", "unset", "getopts", "export",
	"declare", "typeset", "local", "readonly", "xargs", "parallel",
	"cat", "tac", "tail", "sed", "awk", "grep", "tr", "tee", "sort", "wc", "cut", "less", "more", "jq",
	"sh", "bash", "dash"}

// progName is the base name of the program word v names; a glob
// (/usr/bin/st?y) names the first of progNames it matches.
func progName(v string) string {
	b := path.Base(v)
	if !strings.ContainsAny(b, "*?[") {
		return b
	}
	for _, n := range progNames {
		if ok, _ := path.Match(b, n); ok {
			return n
		}
	}
	return b
}

// wrapper are programs that run the program named after them.
var wrapper = map[string]bool{
	"env": true, "command": true, "exec": true, "builtin": true, "sudo": true, "doas": true,
	"nice": true, "nohup": true, "timeout": true, "setsid": true, "busybox": true,
	"stdbuf": true, "time": true, "xargs": true, "chroot": true, "unshare": true,
	"flock": true, "chrt": true, "taskset": true, "ionice": true, "setpriv": true, "runuser": true,
	"pkexec": true, "firejail": true, "unbuffer": true, "rlwrap": true, "faketime": true, "strace": true,
	"ltrace": true, "valgrind": true, "systemd-run": true, "proxychains": true, "proxychains4": true,
	"torsocks": true, "sg": true, "caffeinate": true, "dbus-run-session": true, "xvfb-run": true,
	"catchsegv": true, "numactl": true, "cgexec": true, "sem": true, "parallel": true,
}

func some(vals []string, ok func(string) bool) bool {
	return !all(vals, func(v string) bool { return !ok(v) })
}

func all(vals []string, ok func(string) bool) bool {
	for _, v := range vals {
		if !ok(v) {
			return false
		}
	}
	return true
}

// literals is literal of each word.
func literals(ws []*syntax.Word) []string {
	vals := make([]string, len(ws))
	for i, w := range ws {
		vals[i] = literal(w)
	}
	return vals
}

// literal is w's text with quotes and backslashes removed, and a NUL where
// a part is computed at run time.
func literal(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		literalPart(&b, p, false)
	}
	return b.String()
}

func literalPart(b *strings.Builder, p syntax.WordPart, quoted bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value, quoted))
	case *syntax.SglQuoted:
		if !p.Dollar {
			b.WriteString(p.Value)
			return
		}
		s, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{p}})
		if err != nil {
			s = p.Value
		}
		b.WriteString(s)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			literalPart(b, q, true)
		}
	default:
		b.WriteByte(0)
	}
}

// unescape removes the backslashes the shell removes: every one outside
// quotes, and inside double quotes those before $ ` " \ and a newline.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && (!quoted || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// tokens splits s into runs of the characters a program or variable name
// is made of. The prefilters that look for a name in a text before parsing
// it use them, so the quotes and backslashes a name may be spelled with
// (h\ead, he'a'd, "h"ead) are taken out first, and the words of a text
// with ANSI-C quoting ($'\x68ead') are added as the shell reads them.
func tokens(s string) []string {
	field := func(r rune) bool {
		return !(r == '_' || r == '.' || r == '/' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}
	out := strings.FieldsFunc(s, field)
	if !strings.ContainsAny(s, `\'"`) {
		return out
	}
	out = append(out, strings.FieldsFunc(unquoted.Replace(s), field)...)
	if strings.Contains(s, "$'") {
		if f, err := policy.ParseBash(s); err == nil {
			syntax.Walk(f, func(n syntax.Node) bool {
				if w, ok := n.(*syntax.Word); ok {
					out = append(out, strings.FieldsFunc(literal(w), field)...)
				}
				return true
			})
		} else {
			out = append(out, "$'") // a name may hide in it: no prefilter can pass it by
		}
	}
	return out
}

// spelled reports whether text may hold w, in any quoting: a\lias, ev'a'l
// and $'\x65nv' hold alias, eval and env as the shell reads them.
func spelled(text, w string) bool {
	return strings.Contains(text, w) || strings.Contains(unquoted.Replace(text), w) || strings.Contains(text, "$'")
}

// unquoted takes out the quotes and backslashes of a text.
var unquoted = strings.NewReplacer(`\`, "", "'", "", `"`, "")

// varMention says why s names one of rekeyVars, or returns "".
func varMention(s string) string {
	for _, t := range tokens(s) {
		if why := rekeyVars[t]; why != "" {
			return why
		}
	}
	return ""
}

// mentions says why s names a program or variable that can change how
// later keys are read, or returns "". It is the fallback where s cannot be
// read as shell.
func mentions(s string) string {
	if why := varMention(s); why != "" {
		return why
	}
	for _, t := range tokens(s) {
		switch path.Base(t) {
		case "stty", "bind", "tset", "reset":
			return path.Base(t) + " may change the terminal's or readline's keys, which decide what a typed line becomes"
		}
		// eval 'shopt -u interactive_comments': read as shell.
		if commentsOpt(t) {
			return noComments
		}
		if why := shellStateOpts[t]; why != "" {
			return t + " " + why
		}
	}
	return words(s)
}

// rekeyWords are words that change keys however they are spelled around:
// a program's terminal calls, readline's files.
var rekeyWords = map[string]bool{
	"termios": true, "tcsetattr": true, "setraw": true, "setcbreak": true,
	"inputrc": true,
}

// words says why s holds one of rekeyWords, or returns "".
func words(s string) string {
	for _, t := range tokens(s) {
		for _, w := range append(strings.FieldsFunc(t, func(r rune) bool { return r == '.' || r == '/' }), path.Base(t)) {
			if rekeyWords[w] {
				return w + " changes the terminal's or readline's keys, which decide what a typed line becomes"
			}
		}
	}
	return ""
}

// isName reports whether s is one token, as a program name or an option
// word is: rekeyCall has judged it where it stands.
func isName(s string) bool {
	t := tokens(s)
	return len(t) == 1 && t[0] == s
}
