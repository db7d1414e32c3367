package sessions

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// A program that reads part of a line from the terminal leaves the rest of
// it for the shell: after "read -n 4 x", typing "ls #touch x" runs
// "touch x". One that reads whole lines changes where the shell's
// commands begin as surely: after "head -n 1", the line "echo \" goes to
// head, not the shell, so the next line "touch x", which warden would read
// as echo's continuation, is a command. warden cannot tell how much such
// a program took, so what is typed after it is unknown until Ctrl-C ends
// it: the line that starts it must be the last thing in its send, and the
// session is adrift after it. The readers found are bash's read and
// mapfile, dd, head and the other programs that read their input when
// they are given no file (lineReaders), reading the terminal: not from a
// pipe or a redirection.

// splits says why text starts a program that reads part of a line from
// the terminal, or returns "".
func splits(text string) string {
	return splitsIn(text, 0, partReaders)
}

// readerRules are the programs a walk looks for: how it recognises one in a
// simple command, names it in a text at all, and whether a text it cannot
// parse counts as one (for part-line readers it does; for whole-line
// readers only complete commands are walked, so it cannot happen but in
// nested strings, which count as text).
type readerRules struct {
	call   func(*syntax.CallExpr) string
	named  func(string) bool
	strict bool
	// menus: bash's select, which reads its reply as read does, counts.
	menus bool
}

var (
	partReaders = readerRules{call: splitCall, named: mayRead, strict: true}
	lineReading = readerRules{call: linesCall, named: namesLineReader, menus: true}
)

// readsTerminal says why the complete commands text start a program that
// reads whole lines of the terminal, or returns "". Only commands the
// shell has read whole have started: one still being typed (cat <<EOF and
// its body) reads nothing yet.
func readsTerminal(text string) string {
	return splitsIn(text, 0, lineReading)
}

func splitsIn(text string, depth int, rr readerRules) string {
	return splitsText(text, depth, rr, false)
}

// splitsText is splitsIn; piped says text's input is a pipe, so that only
// what opens the terminal itself counts.
func splitsText(text string, depth int, rr readerRules, piped bool) string {
	if !rr.named(text) {
		return ""
	}
	if depth > rekeyDepth {
		// Too deep to read as shell: the mention counts, as in rekeysIn.
		return "a program that may read the terminal (read, dd, head, cat …) in strings nested too deep to follow"
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		if !rr.strict {
			return ""
		}
		return "a program that may read part of a line (read, dd, head -c) in a command warden cannot parse"
	}
	return splitsNode(f, text, depth, rr, piped)
}

// splitsNode is splitsIn over one node of text's syntax tree. A command
// whose input is redirected, or that reads a pipe, does not read the
// terminal, unless it opens it itself: a later stage of a pipeline with
// "< /dev/tty", or given it as a file (ls | cat /dev/tty).
func splitsNode(node syntax.Node, text string, depth int, rr readerRules, piped bool) string {
	why := ""
	syntax.Walk(node, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if stdinRedirected(n) && !opensTerminal(n.Cmd) {
				why = substitutions(n, func(s syntax.Node) string { return splitsNode(s, text, depth, rr, piped) })
				return false
			}
			if piped && stdinFromTerminal(n) {
				why = splitsNode(n, text, depth, rr, false)
				return false
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				if why = splitsNode(n.X, text, depth, rr, piped); why == "" {
					why = splitsNode(n.Y, text, depth, rr, true)
				}
				return false
			}
		case *syntax.CallExpr:
			if !piped || namesTerminalArg(literals(n.Args)) || opensTerminal(n) {
				why = rr.call(n)
			}
		case *syntax.ForClause:
			if n.Select && rr.menus && !piped {
				why = "select reads its reply from the terminal as read does, which may be the line the next command is typed after"
			}
		case *syntax.Word:
			if v := literal(n); v != text && !isName(v) {
				why = splitsText(v, depth+1, rr, piped)
			}
		}
		return why == ""
	})
	return why
}

// substitutions is the first reason found reads gives for a command or
// process substitution of s's words, redirections and here-documents: a
// command whose input is redirected expands them first, with the shell's
// own input (head -n 1 <<< "$(read x)" reads the terminal in read).
func substitutions(s *syntax.Stmt, reads func(syntax.Node) string) string {
	why := ""
	syntax.Walk(s, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			if why == "" {
				why = reads(n)
			}
			return false
		}
		return why == ""
	})
	return why
}

// stdinFromTerminal reports whether s takes its input from the terminal
// by a redirection (< /dev/tty).
func stdinFromTerminal(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		if (r.N == nil || r.N.Value == "0") && (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) &&
			r.Word != nil && terminalPath(literal(r.Word)) {
			return true
		}
		// <&2, 0<&1: a copy of another descriptor, which in a session
		// is the terminal (1, 2) or may be (3 after exec 3<&0).
		if (r.N == nil || r.N.Value == "0") && r.Op == syntax.DplIn && r.Word != nil && literal(r.Word) != "-" {
			return true
		}
	}
	return false
}

// namesTerminalArg reports whether a command's words name the terminal as
// a file, alone or after "=" (dd if=/dev/tty), where it reads more than
// its name.
func namesTerminalArg(vals []string) bool {
	if len(vals) == 0 || quietNamers[progName(vals[0])] {
		return false
	}
	return some(vals[1:], func(v string) bool {
		_, named, found := strings.Cut(v, "=")
		return namesTerminal(v) || found && namesTerminal(named)
	})
}

// stdinRedirected reports whether s reads its standard input from a file
// or a here-document rather than the terminal: "< /dev/tty" is the
// terminal again, and so is a file named at run time, which may be it.
func stdinRedirected(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			return true
		case syntax.RdrIn, syntax.RdrInOut:
			if r.Word != nil && !terminalPath(literal(r.Word)) {
				return true
			}
		}
	}
	return false
}

// mayRead reports whether text names one of the readers at all, so that
// most lines are not parsed twice.
func mayRead(text string) bool {
	if strings.ContainsAny(text, "*?[") {
		return true // a glob may name one
	}
	for _, t := range tokens(text) {
		switch path.Base(t) {
		case "read", "dd", "head":
			return true
		}
	}
	return false
}

// namesLineReader is mayRead for the programs that read whole lines.
func namesLineReader(text string) bool {
	if strings.ContainsAny(text, "*?[") || strings.Contains(text, "/dev/") || strings.Contains(text, "/fd/0") {
		return true
	}
	for _, t := range tokens(text) {
		switch b := path.Base(t); {
		case lineReaders[b] != 0, t == "select", b == "ssh", b == "slogin", b == "rsh", b == "openssl":
			return true
		}
	}
	return false
}

// linesCall says why the simple command c starts a program that reads
// whole lines of the terminal: one in a command's place, first or after
// a wrapper. Which word after a wrapper's options is its program depends
// on each wrapper's grammar (env -u NAME, sudo -u USER, timeout -s INT 5,
// taskset MASK, flock FILE, chroot DIR), and a value taken for the
// program hides the reader after it: "env -u X head -n 1" would let head
// take the line typed next. So after a wrapper every word counts as one
// that may be its program.
func linesCall(c *syntax.CallExpr) string {
	vals := literals(c.Args)
	program := true // vals[i] is in a command's place: first, or the one a wrapper runs
	wrapped := false
	for i, v := range vals {
		rest := vals[i+1:]
		name := progName(v)
		if name == "find" {
			if why := findRuns(c.Args[i+1:]); why != "" {
				return why
			}
		}
		if i > 0 && !quietNamers[progName(vals[0])] {
			_, named, found := strings.Cut(v, "=")
			if namesTerminal(v) || found && namesTerminal(named) {
				return progName(vals[0]) + " is given the terminal (" + truncate(v, 32) + ") as a file, and reads the lines typed next"
			}
		}
		switch {
		case !program && !wrapped:
		case wrappers[name] || wrapper[name]:
			program, wrapped = true, true
			if why := readsTerminalLines(name, rest); why != "" {
				return why // xargs reads its input and runs a program
			}
		case strings.HasPrefix(v, "-") || strings.Contains(v, "=") || isDuration(v):
			program = i > 0 // a wrapper's option, assignment or duration
		default:
			program = false
			if why := readsTerminalLines(name, rest); why != "" && !(name == "read" && slices.ContainsFunc(rest, func(a string) bool {
				return strings.HasPrefix(a, "-") && strings.ContainsAny(a, "nNd\x00")
			})) {
				return why
			}
		}
	}
	return ""
}

// lineReaders are the programs that read whole lines of their input: 1
// those that always do, 2 those that do when no file is named, 3 those
// whose first operand is a script or pattern and later ones files, 4
// those that compare two files and read their input for a missing one
// (cmp f, diff - f), 5 those that read it only when "-" names it (file -).
var lineReaders = map[string]int{
	"read": 1, "mapfile": 1, "readarray": 1, "tr": 1, "tee": 1, "xargs": 1, "bc": 1, "dc": 1,
	"col": 1, "colrm": 1, "numfmt": 2, "sum": 2, "cksum": 2, "b2sum": 2, "sha224sum": 2, "sha384sum": 2,
	"pr": 2, "basenc": 2, "dos2unix": 2, "unix2dos": 2, "bat": 2, "batcat": 2, "ul": 2, "ptx": 2, "split": 2,
	"zcat": 2, "gzcat": 2, "bzcat": 2, "xzcat": 2, "zstdcat": 2, "lz4cat": 2, "gzip": 2, "gunzip": 2,
	"bzip2": 2, "bunzip2": 2, "xz": 2, "unxz": 2, "lzma": 2, "unlzma": 2, "zstd": 2, "unzstd": 2, "lz4": 2,
	"json_pp": 2, "yq": 3, "csplit": 5, "xmllint": 5, "file": 5,
	"cmp": 4, "diff": 4, "diff3": 4, "sdiff": 4, "comm": 4, "join": 4,
	"cat": 2, "tac": 2, "head": 2, "tail": 2, "wc": 2, "sort": 2, "uniq": 2, "cut": 2, "paste": 2,
	"nl": 2, "fold": 2, "fmt": 2, "rev": 2, "base64": 2, "base32": 2, "md5sum": 2, "sha1sum": 2,
	"sha256sum": 2, "sha512sum": 2, "shasum": 2, "od": 2, "hexdump": 2, "xxd": 2, "less": 2, "more": 2,
	"column": 2, "expand": 2, "unexpand": 2, "strings": 2, "shuf": 2, "iconv": 2, "tsort": 2,
	"sed": 3, "awk": 3, "gawk": 3, "mawk": 3, "nawk": 3, "grep": 3, "egrep": 3, "fgrep": 3, "jq": 3,
}

// wrappers run the command that follows their options.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "timeout": true, "nice": true, "nohup": true, "stdbuf": true,
	"command": true, "builtin": true, "exec": true, "time": true, "ionice": true, "chrt": true, "setsid": true,
}

// readerValues are, per program, the short options of lineReaders that
// take the next word as their value, which is no file; a long option with
// a value is taken to attach it with "=" (--lines=5).
var readerValues = map[string]string{
	"head": "nc", "tail": "ncs", "sed": "efl", "grep": "efABCmdD", "egrep": "efABCmdD", "fgrep": "efABCmdD",
	"awk": "fvFe", "gawk": "fvFe", "mawk": "fvFe", "nawk": "fvFe", "jq": "fL", "cut": "dfbc", "sort": "ktoST",
	"uniq": "fsw", "base64": "w", "base32": "w", "od": "AtjNw", "hexdump": "nsef", "xxd": "lscg", "fold": "w",
	"shasum": "a", "fmt": "wpg", "nl": "bvwsil", "column": "tsco", "shuf": "nio", "iconv": "fto", "strings": "nte", "paste": "d",
}

// readsTerminalLines says why the simple command named name with
// arguments rest reads whole lines of the terminal, or returns "".
func readsTerminalLines(name string, rest []string) string {
	switch name {
	case "ssh", "slogin", "rsh":
		// The remote command gets the terminal's lines on its input,
		// and what it reads there warden cannot see.
		if sshPassesInput(rest) {
			return name + " passes the lines typed next to its remote command, which may read them"
		}
		return ""
	case "openssl":
		if opensslReadsInput(rest) {
			return "openssl " + firstWord(rest) + " reads lines of the terminal, which may include the one the next command is typed after"
		}
		return ""
	case "awk", "gawk", "mawk", "nawk":
		// getline reads a file the program names, "-" or /dev/stdin
		// among them, whatever awk is given: awk 'BEGIN{getline l <
		// "-"}' /etc/hosts takes the line typed next.
		if slices.ContainsFunc(rest, func(a string) bool { return strings.Contains(a, "getline") }) {
			return name + "'s getline may read a line of the terminal, which may be the one the next command is typed after"
		}
	}
	kind := lineReaders[name]
	if kind == 0 {
		return ""
	}
	// ops are the operands; "-" among the files is the input, as no file
	// is, and so is "-" as the value of -f (grep -f -, awk -f -).
	var ops []string
	script, dash := false, false
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		next := ""
		if j+1 < len(rest) {
			next = rest[j+1]
		}
		switch {
		case a == "--":
			ops = append(ops, rest[j+1:]...)
			j = len(rest)
		case len(a) == 2 && a[0] == '-' && strings.IndexByte(readerValues[name], a[1]) >= 0:
			script = script || a == "-e" || a == "-f"
			dash = dash || a == "-f" && next == "-"
			j++
		case a == "--arg" || a == "--argjson" || a == "--slurpfile" || a == "--rawfile":
			j += 2 // jq's name and value
		case a == "--regexp" || a == "--file" || a == "--expression":
			script = true
			dash = dash || a == "--file" && next == "-"
			j++
		case strings.HasPrefix(a, "--") && a != "--" && !strings.Contains(a, "="):
			// head --lines 1, grep --max-c 1 x: a long option's value
			// (readerlongs.go) is no file.
			if o, ok := readerLongValue(name, a); ok {
				script = script || readerScriptOpts[o]
				dash = dash || (o == "--file" || o == "--from-file") && next == "-"
				j++
			}
		case strings.HasPrefix(a, "--regexp=") || strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--expression="):
			script = true
			dash = dash || a == "--file=-"
		case a == "-" || !strings.HasPrefix(a, "-"):
			ops = append(ops, a)
		}
	}
	files := ops
	if kind == 3 && !script && len(files) > 0 {
		files = files[1:] // the script or pattern
	}
	dash = dash || slices.ContainsFunc(files, func(f string) bool {
		return f == "-" || namesTerminal(f) || strings.ContainsRune(f, 0) && computedTerminal(f)
	})
	operands := len(ops)
	switch {
	case dash && kind > 1,
		kind == 1 && (name != "xargs" || !slices.Contains(rest, "-a") && !slices.Contains(rest, "--arg-file")),
		kind == 2 && operands == 0,
		kind == 3 && (operands == 0 || operands == 1 && !script),
		kind == 4 && operands < 2:
		return name + " reads lines of the terminal, which may include the one the next command is typed after"
	}
	return ""
}

// namesTerminal reports whether the word v, as written, names the
// terminal as a file.
func namesTerminal(v string) bool {
	return !strings.ContainsRune(v, 0) && terminalPath(v)
}

// quietNamers name a file without reading it, so that naming the terminal
// reads nothing typed.
var quietNamers = map[string]bool{
	"echo": true, "printf": true, "ls": true, "stat": true, "test": true, "[": true, "[[": true,
	"readlink": true, "realpath": true, "tty": true, "basename": true, "dirname": true,
}

// splitCall says why the simple command c reads part of a line.
func splitCall(c *syntax.CallExpr) string {
	vals := literals(c.Args)
	for i, v := range vals {
		rest := vals[i+1:]
		name := progName(v)
		switch name {
		case "read":
			for _, a := range rest {
				if len(a) > 1 && a[0] == '-' && strings.ContainsAny(a, "nNd\x00") {
					return "read " + a + " reads part of a line and leaves the rest to the shell"
				}
				if a == "" || a[0] != '-' {
					break
				}
			}
		case "dd":
			in := ""
			for _, a := range rest {
				if v, ok := strings.CutPrefix(a, "if="); ok {
					in = v
				}
			}
			if in == "" || in == "-" || terminalPath(in) {
				return "dd reads its input in blocks, which may end inside a line, and leaves the rest to the shell"
			}
		case "head":
			bytes, files := false, false
			for j := 0; j < len(rest); j++ {
				a := rest[j]
				switch {
				case a == "-c" || a == "-n":
					bytes = bytes || a == "-c"
					j++
				case strings.HasPrefix(a, "--") && !strings.Contains(a, "="):
					// --bytes 4, --by 4, --lines 1 (readerlongs.go)
					if o, ok := readerLongValue("head", a); ok {
						bytes = bytes || o == "--bytes"
						j++
					}
				case strings.HasPrefix(a, "--bytes") || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "c\x00"):
					bytes = true
				case a != "-" && !strings.HasPrefix(a, "-"):
					files = true
				}
			}
			if bytes && !files {
				return "head -c reads part of a line and leaves the rest to the shell"
			}
		}
	}
	return ""
}

// sshPassesInput reports whether ssh with arguments rest runs a remote
// command with its input connected: not -n, -f or -N. Without a remote
// command ssh is an interactive shell elsewhere (elsewhere.go).
func sshPassesInput(rest []string) bool {
	words := 0
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if words == 0 && len(a) > 1 && a[0] == '-' {
			if strings.ContainsAny(a[1:], "nfN") && strings.IndexByte(sshValueOpts, a[1]) < 0 {
				return false
			}
			if strings.IndexByte(sshValueOpts, a[len(a)-1]) >= 0 && len(a) == 2 {
				j++
			}
			continue
		}
		words++
	}
	return words > 1
}

// opensslReadsInput reports whether the openssl command with arguments
// rest reads its input: s_client and s_server send what is typed to the
// peer, and the commands that read a PEM or data read their input when
// given no -in (dgst and verify: no file).
func opensslReadsInput(rest []string) bool {
	switch firstWord(rest) {
	case "s_client", "s_server":
		return true
	case "x509", "req", "crl", "pkey", "rsa", "ec", "dsa", "asn1parse", "pkcs7", "pkcs8", "pkcs12", "base64", "enc",
		"cms", "smime", "sess_id", "pkeyutl", "rsautl", "crl2pkcs7", "nseq", "spkac", "storeutl", "ts":
		if firstWord(rest) == "req" && slices.Contains(rest, "-new") {
			// It asks for the subject's fields on its input.
			return !slices.Contains(rest, "-subj") && !slices.Contains(rest, "-batch")
		}
		return !slices.Contains(rest, "-in") && !slices.Contains(rest, "-help")
	case "dgst", "verify", "sha256", "sha1", "md5", "sha512":
		files := 0
		for j, a := range rest {
			switch {
			case j == 0 || strings.HasPrefix(a, "-"):
			case j > 0 && (rest[j-1] == "-CAfile" || rest[j-1] == "-untrusted" || rest[j-1] == "-sign" || rest[j-1] == "-verify" ||
				rest[j-1] == "-signature" || rest[j-1] == "-out" || rest[j-1] == "-hmac" || rest[j-1] == "-CApath" || rest[j-1] == "-prverify"):
			default:
				files++
			}
		}
		return files == 0
	}
	return false
}

// isDuration reports whether v is a wrapper's duration (timeout 5, 2.5s,
// 1h), which starts with a digit: ssh and sh are made of the same letters.
func isDuration(v string) bool {
	return v != "" && v[0] >= '0' && v[0] <= '9' && strings.Trim(v, "0123456789.smhd") == ""
}
