package sessions

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// A program that reads the lines typed after it in a language of its own
// takes them instead of the shell: after "mysql", the line "set global
// general_log_file='/etc/x'" is an SQL write that policy reads as the
// shell's set, a read; after "ed", "w /etc/x" writes a file where the
// shell's w lists users; after "vi", ":w /etc/x". warden does not parse
// those languages, and cannot tell when the program exits, so starting one
// on the terminal ends the model for good, as a shell of another language
// does (rekey.go). A program given its code to run and exit (python3 -c,
// mysql -e, a script file) reads no lines from the terminal.

// readerKinds maps a program to how it decides to read the terminal:
//
//	'a' always: editors, full-screen programs and line editors;
//	'c' unless given code or a script: interpreters (-c, -e, -m, a file);
//	'q' unless given a query (-e, -c, -f, --execute, --command, --file) or,
//	    for the file databases, one after the database: database clients;
//	'b' unless run in batch mode (-b…, --batch): top;
//	'g' unless run in batch mode (debuggers.go): gdb, lldb;
//	'k' unless run in report mode: full-screen monitors (watch, mtr),
//	    which read keys with the terminal's editing off, so that what is
//	    typed while one runs, or is killed, reaches a plain shell unedited
//	    (dash reads "touch x #^Uecho hi" as touch);
//	'r' unless given a command or operand: the command shells of
//	    services and tools (virsh, lvm, supervisorctl, nslookup), which
//	    run one command given and otherwise read their own, and outlive
//	    Ctrl-C where a line typed is a command in their language
//	    (supervisorctl's "clear all" writes);
//	'd' given a device, unless told a script (replScripts): the
//	    partitioners and file system debuggers (parted, fdisk, debugfs).
var readerKinds = map[string]byte{
	"virsh": 'r', "lvm": 'r', "supervisorctl": 'r', "nslookup": 'r', "bluetoothctl": 'r', "wpa_cli": 'r',
	"ntpq": 'r', "ntpdc": 'r', "kadmin": 'r', "kadmin.local": 'r', "rpcclient": 'r', "sqlcmd": 'r', "gluster": 'r',
	"ceph": 'r', "units": 'r', "gnuplot": 'r', "octave": 'r', "maxima": 'r', "gp": 'r', "calc": 'r', "qalc": 'r',
	"ocaml": 'r', "utop": 'r', "swipl": 'r', "gforth": 'r', "clj": 'r', "racket": 'r', "mysqlsh": 'r', "pgcli": 'r',
	"mycli": 'r', "litecli": 'r', "trino": 'r', "presto": 'r', "beeline": 'r', "hive": 'r', "isql": 'r',
	"spark-shell": 'r', "pyspark": 'r', "crm": 'r', "nsupdate": 'r', "multipathd": 'r', "zkCli.sh": 'r',
	"parted": 'd', "fdisk": 'd', "gdisk": 'd', "debugfs": 'd', "xfs_db": 'd', "cfdisk": 'a', "cgdisk": 'a',
	"ed": 'a', "red": 'a', "ex": 'a', "vi": 'a', "vim": 'a', "nvim": 'a', "view": 'a', "vimdiff": 'a',
	"nvi": 'a', "elvis": 'a', "emacs": 'a', "nano": 'a', "pico": 'a', "joe": 'a', "mg": 'a', "micro": 'a',
	"mcedit": 'a', "mc": 'a', "top": 'b', "htop": 'a', "atop": 'b', "iotop": 'b', "tig": 'a', "ranger": 'a',
	"nnn": 'a', "vifm": 'a', "tmux": 'a', "screen": 'a', "more": 'a', "most": 'a', "pg": 'a', "irb": 'a', "ghci": 'a', "iex": 'a', "jshell": 'a',
	"ftp": 'a', "sftp": 'a', "lftp": 'a', "tftp": 'a', "ncftp": 'a', "telnet": 'a', "bconsole": 'a',
	"python": 'c', "python2": 'c', "python3": 'c', "pypy": 'c', "pypy3": 'c', "ipython": 'c', "ipython3": 'c',
	"perl": 'c', "ruby": 'c', "node": 'c', "nodejs": 'c', "deno": 'c', "bun": 'c', "php": 'c', "lua": 'c',
	"luajit": 'c', "tclsh": 'c', "wish": 'c', "expect": 'c', "julia": 'c', "R": 'c', "guile": 'c',
	"sbcl": 'c', "clisp": 'c', "erl": 'c', "scala": 'c', "gawk": 'c', "osqueryi": 'c',
	"mysql": 'q', "mariadb": 'q', "psql": 'q', "sqlite3": 'q', "sqlite": 'q', "duckdb": 'q',
	"redis-cli": 'q', "valkey-cli": 'q', "mongo": 'q', "mongosh": 'q', "cqlsh": 'q', "sqlplus": 'q',
	"clickhouse-client": 'q', "influx": 'q', "usql": 'q', "smbclient": 'q', "nft": 'q',
	"gdb": 'g', "gdb-multiarch": 'g', "lldb": 'g', "cgdb": 'a', "pdb": 'a', "jdb": 'a',
	"watch": 'k', "mtr": 'k', "iftop": 'k', "nload": 'k', "nethogs": 'k', "bmon": 'k', "tload": 'k',
	"slurm": 'k', "speedometer": 'k', "cmatrix": 'k',
	// The pagers read keys too, whatever their input, and outlive Ctrl-C.
	"less": 'k', "lv": 'k', "w3m": 'k',
}

// readsLines says why the commands of text start a program that reads the
// lines typed next on the terminal in a language of its own, or returns
// "". A command whose input is redirected, or that reads a pipe, does not
// read the terminal, but for the programs that open it themselves
// (ttyReaders).
func readsLines(text string) string {
	return readsLinesIn(text, 0)
}

// stringRunners run a command string given with -c, as the shells do.
var stringRunners = map[string]bool{"su": true, "runuser": true, "script": true, "flock": true}

// ttyReaders read keys from the terminal whatever their input is: editors
// (vim - < f, git log | vi -), pagers and full-screen programs.
var ttyReaders = map[string]bool{
	"vi": true, "vim": true, "nvim": true, "view": true, "vimdiff": true, "nvi": true, "elvis": true,
	"emacs": true, "nano": true, "pico": true, "joe": true, "mg": true, "micro": true, "mcedit": true,
	"mc": true, "top": true, "htop": true, "atop": true, "iotop": true, "tig": true, "ranger": true,
	"nnn": true, "vifm": true, "tmux": true, "screen": true, "more": true, "most": true, "pg": true,
	"less": true, "lv": true, "w3m": true,
}

func readsLinesIn(text string, depth int) string {
	if depth > rekeyDepth || !mayReadLines(text) {
		return ""
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		return ""
	}
	return readsNode(f, text, depth, false)
}

// readsNode is readsLinesIn over one node; busy says its input is not the
// terminal.
func readsNode(node syntax.Node, text string, depth int, busy bool) string {
	why := ""
	syntax.Walk(node, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if !busy && stdinRedirected(n) {
				why = readsNode(n, text, depth, true)
				if why == "" {
					why = substitutions(n, func(s syntax.Node) string { return readsNode(s, text, depth, false) })
				}
				return false
			}
			if busy && stdinFromTerminal(n) {
				// echo | python3 < /dev/tty
				why = readsNode(n, text, depth, false)
				return false
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				if why = readsNode(n.X, text, depth, busy); why == "" {
					why = readsNode(n.Y, text, depth, true)
				}
				return false
			}
		case *syntax.CallExpr:
			vals := literals(n.Args)
			for i := range vals {
				if i > 0 && isName(vals[i]) && len(vals[i-1]) > 1 && vals[i-1][0] == '-' && vals[i-1][len(vals[i-1])-1] == 'c' &&
					some(vals[:i-1], func(v string) bool { return shells[progName(v)] || stringRunners[progName(v)] }) {
					// sh -c vi, su -c python3: a program named alone.
					if why = readsLinesIn(vals[i], depth+1); why != "" {
						break
					}
				}
				if runBy(vals, i) {
					if p := namedPager(append(append(vals[i:i+1:i+1], manOpts(n, vals[:i])...), vals[i+1:]...)); p != "" {
						why = progName(vals[i]) + " is told to page its output with " + truncate(p, 32) +
							", which reads keys with the terminal's line editing off and outlives Ctrl-C"
						break
					}
				}
				if busy && !ttyReaders[progName(vals[i])] {
					continue
				}
				if why = langReader(vals, i); why != "" {
					break
				}
			}
		case *syntax.Word:
			if v := literal(n); v != text && !isName(v) {
				why = readsLinesIn(v, depth+1)
			}
		}
		return why == ""
	})
	return why
}

// mayReadLines reports whether text names one of readerKinds at all.
func mayReadLines(text string) bool {
	if spelled(text, "pager") || spelled(text, "-P") || spelled(text, "man") || spelled(text, "MANOPT") {
		return true
	}
	for _, t := range tokens(text) {
		b := progName(t)
		if _, ok := readerKind(b); ok {
			return true
		}
		if _, ok := elsewhereKinds[b]; ok {
			return true
		}
	}
	return false
}

// langReader says why the program vals[i] of a simple command reads the
// lines typed next in a language of its own, or returns "".
func langReader(vals []string, i int) string {
	b := unversioned(progName(vals[i]))
	if !runBy(vals, i) || i > 0 && progName(vals[0]) == "command" && hasOpt(vals[1:i], "-v", "-V") {
		return "" // command -v vi only looks the name up
	}
	rest := runArgs(vals, i)
	kind, ok := readerKinds[b]
	if !ok {
		if kind, ok = elsewhereKinds[b]; ok {
			return elsewhere(b, kind, rest)
		}
		return ""
	}
	// Asked for its version or usage, a program prints it and exits
	// (an interpreter's options are interpreterReads', in their order).
	for _, a := range rest {
		if a == "--" || a == "--args" || kind == 'c' {
			break // what follows is a program's, not this one's
		}
		if a == "--version" || a == "--help" {
			return ""
		}
	}
	reads := true
	switch kind {
	case 'c':
		reads = interpreterReads(b, rest)
	case 'q':
		reads = clientReads(b, rest)
	case 'b':
		reads = !some(rest, func(a string) bool { return strings.HasPrefix(a, "-b") || a == "--batch" })
	case 'g':
		reads = !debuggerBatch(b, rest) && !debuggerVersion(rest)
	case 'r':
		reads = replReads(b, rest)
		if k, ok := elsewhereKinds[b]; ok && !reads {
			return elsewhere(b, k, rest) // virsh console
		}
	case 'd':
		// parted DEVICE print, fdisk -l, debugfs -R stat, xfs_db -c …
		ops := 0
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") {
				ops++
			}
		}
		reads = ops > 0 && !hasOpt(rest, strings.Fields(replScripts[b])...) && !(b == "parted" && ops > 1)
	case 'k':
		if b == "mtr" && some(rest, func(a string) bool {
			return a == "-r" || a == "--report" || a == "-w" || a == "--report-wide" || a == "-j" || a == "--json" ||
				a == "-C" || a == "--csv" || a == "-x" || a == "--xml" || a == "-l" || a == "--raw" || a == "-p" || a == "--split"
		}) || b == "iftop" && some(rest, func(a string) bool { return a == "-t" }) {
			return ""
		}
		return b + " reads keys with the terminal's line editing off, so what is typed while it runs, " +
			"or after it is stopped, reaches the shell unedited"
	}
	if !reads {
		return ""
	}
	return b + " reads the lines typed next in a language warden does not parse (SQL, an editor's or " +
		"interpreter's commands), where a line that reads as a harmless shell command may write"
}

// replScripts are, per 'r' or 'd' program, the options that give it its
// commands or only list.
var replScripts = map[string]string{
	"parted": "-s --script -l --list", "fdisk": "-l --list -V --version", "gdisk": "-l",
	"debugfs": "-R --request -f -V", "xfs_db": "-c -V", "ntpq": "-p -c -i? --peers --command", "ntpdc": "-p -c -l",
	"sqlcmd": "-Q -i", "kadmin": "-q", "kadmin.local": "-q", "rpcclient": "-c --command", "mysqlsh": "-e --execute -f --file",
	"pgcli": "-e --execute", "mycli": "-e --execute", "beeline": "-e -f", "hive": "-e -f", "trino": "--execute -f --file",
	"presto": "--execute -f --file", "isql": "-b", "octave": "--eval", "gnuplot": "-e", "swipl": "-g -t", "racket": "-e -f",
}

// replValues are, per 'r' program, the short options that take the next
// word as their value (virsh -c URI), which is no command.
var replValues = map[string]string{
	"virsh": "cdlkK", "wpa_cli": "ipPgGa", "sqlcmd": "SUPdHlt", "supervisorctl": "csupr", "bluetoothctl": "at",
	"ntpq": "", "kadmin": "prkqcsw", "kadmin.local": "prkqcsw", "rpcclient": "UWNIpsnA", "mysqlsh": "uhPS",
	"pgcli": "hpUdW", "mycli": "hPupSD", "ceph": "ckn", "gluster": "", "lvm": "", "nslookup": "",
}

// replReads reports whether command shell b with arguments rest reads
// its commands from the terminal: given no command word and no option
// that gives it its commands.
func replReads(b string, rest []string) bool {
	scripts := strings.Fields(replScripts[b])
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case slices.Contains(scripts, a) || some(scripts, func(o string) bool { return strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"=") }):
			return false
		case a == "-":
		case len(a) == 2 && a[0] == '-' && strings.IndexByte(replValues[b], a[1]) >= 0:
			j++
		case !strings.HasPrefix(a, "-"):
			return b == "multipathd" && a == "-k"
		}
	}
	return b != "multipathd" || slices.Contains(rest, "-k")
}

// interpreterReads reports whether interpreter b with arguments rest
// reads its program from the terminal: no code option, no script, or -i.
func interpreterReads(b string, rest []string) bool {
	code := false
	for _, a := range rest {
		switch {
		case a == "-i" || a == "--interactive" || a == "-a" && b == "php" || a == "repl" && b == "deno":
			return true
		case b == "perl" && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'd'):
			return true // the debugger reads commands
		case a == "-" || a == "/dev/stdin" || a == "/dev/tty":
			return true
		case printsAndExits(b, a):
			return false
		case strings.HasPrefix(a, "-") && len(a) > 1 && a[1] != '-' && strings.ContainsAny(a[1:], "ceEmrf"):
			code = true // -c, -e, -E, -m, -r, -f take code, a module or a file
		case strings.HasPrefix(a, "--eval") || strings.HasPrefix(a, "--exec") || a == "--command" || a == "--version" || a == "--help":
			code = true
		case !strings.HasPrefix(a, "-"):
			code = true // a script (or an option's value: either way no REPL is sure)
		}
		if code {
			return false
		}
	}
	return true
}

// printsAndExits reports whether option a makes interpreter b print its
// version or usage and exit without reading a program: -V and -h, and -v
// but for the pythons (-v is verbose, the REPL still starts). tclsh,
// wish and expect take an unknown option as their script's.
func printsAndExits(b, a string) bool {
	switch b {
	case "tclsh", "wish", "expect":
		return false
	}
	python := strings.HasPrefix(b, "python") || strings.HasPrefix(b, "pypy") || strings.HasPrefix(b, "ipython")
	return a == "--version" || a == "--help" || a == "-h" || a == "-V" || a == "-VV" || a == "-v" && !python
}

// clientReads reports whether database client b with arguments rest reads
// queries from the terminal.
func clientReads(b string, rest []string) bool {
	positional := 0
	for _, a := range rest {
		switch {
		case a == "-e" || a == "-c" || a == "-f" || a == "-B" || a == "--batch" || a == "-x" && b == "redis-cli" ||
			strings.HasPrefix(a, "--execute") || strings.HasPrefix(a, "--command") || strings.HasPrefix(a, "--file") ||
			strings.HasPrefix(a, "--eval") || a == "--version" || a == "--help" || a == "-V" || a == "-L":
			return false
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && (a[1] == 'e' || a[1] == 'c') && b != "nft":
			return false // -e'select 1', -c'…'
		case !strings.HasPrefix(a, "-"):
			positional++
		}
	}
	switch b {
	case "sqlite3", "sqlite", "duckdb":
		return positional < 2 // the database, then a query
	case "redis-cli", "valkey-cli":
		return positional == 0 // a command
	case "nft":
		return some(rest, func(a string) bool { return a == "-i" || a == "--interactive" })
	}
	return true
}

// readerKind is readerKinds[b], for a versioned name too.
func readerKind(b string) (byte, bool) {
	k, ok := readerKinds[unversioned(b)]
	return k, ok
}

// unversioned is the name of readerKinds that the program name b is a
// version of (python3.12, perl5.36 and lua5.4 are python, perl and lua),
// or b.
func unversioned(b string) string {
	if _, ok := readerKinds[b]; ok {
		return b
	}
	if v := strings.TrimRight(b, "0123456789.-"); v != "" {
		if _, ok := readerKinds[v]; ok {
			return v
		}
	}
	return b
}
