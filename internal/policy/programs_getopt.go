package policy

import (
	"slices"
	"strings"
)

// Options are read the way the programs read them: GNU getopt_long for most
// (clusters of flags, values attached or next, abbreviated long names), and
// single-dash words for the few that say so (wordOptions).

// optVals returns the values c's options of the given names get, in order,
// read the way getopt_long reads them: "--opt v", "--opt=v" and any
// abbreviation of a long option ("--mo=4755" is --mode); "-o v", "-ov", and
// a short option ending or inside a cluster of flags ("-pm 2755",
// "-Dm4755", "-sSLo f"). A cluster ends at a letter that takes a value of
// its own (valueLetters), whose value is the rest. Options end at "--".
// An abbreviation another option of the program also begins with is
// an error there, so taking it for the named one errs only toward caution.
func (c *call) optVals(args []arg, names ...string) []arg {
	if wordOptions[c.name] {
		return scanOpts(args, "", false, names, nil)
	}
	return scanOpts(args, c.valueLetters(), true, names, c.ownLong)
}

// ownLong reports whether name is one of c's own long options spelled
// whole, as its option tables know them (tar's whole table, the value
// options of computedGrammars): getopt takes such a name as itself, never
// as an abbreviation of a longer one (journalctl --cursor=C starts at a
// cursor, where --cursor-file=F writes one; tar --checkpoint=N prints
// progress, --checkpoint-action runs a program).
func (c *call) ownLong(name string) bool {
	if c.name == "tar" || c.name == "gtar" {
		return slices.Contains(tarLongOpts, name)
	}
	return computedGrammars[c.name].long[name]
}

// exactOptVals is optVals for options of every program, whose other
// options are unknown: names spelled in full, and "-ov".
func exactOptVals(args []arg, names ...string) []arg {
	return scanOpts(args, "", false, names, nil)
}

// valueLetters are c's short options that take a value, as far as the
// option tables know them.
func (c *call) valueLetters() string {
	return computedGrammars[c.name].short + wrapSpecs[c.name].valueShort + clusterValues[c.name]
}

// clusterValues are the short options that take a value, for programs
// whose handlers read options with optVals and which no other table
// lists: a cluster of flags ends at one of them (curl -XDELETE is -X
// DELETE, not -D ELETE).
var clusterValues = map[string]string{
	"badblocks": "bcdeiopt",
	"curl":      "AbcCdDeEFHKmoPQrTtuUwxXyYz",
	"wget":      "aABDeIilOoPQRtTUwX",
	"sshuttle":  "elrstxX",
	"make":      "CfIjloWO",
	"gmake":     "CfIjloWO",
	"bmake":     "CfIjloWOdDTVmx",
	"ninja":     "Cfjkldtw",
	"scons":     "CfIjYn",
	"gradle":    "bcpgIDPx",
	"gradlew":   "bcpgIDPx",
	"man":       "CeELmMpPrRsS",
	"less":      "bhjkoOpPtTxyz#",
	"more":      "bhjkoOpPtTxyz#",
	"install":   "gmoSt",
	"cp":        "St",
	"mkdir":     "m",
	"mknod":     "m",
	"mkfifo":    "m",
	"mktemp":    "p",
	"tar":       "fCbFgHKLMNTVX",
	"at":        "qft",
	"batch":     "qft",
	"apt-get":   "cot",
	"apt":       "cot",
	"pkg":       "jcrCRo",
	"rsync":     "eBfTM",
	"unzip":     "dx",
	"btrfs":     "cfp", // send -c, -f, -p
	"cpio":      "CEFHIMORsV",
	"patch":     "BdDFgiopPrVYz",
	"gpg":       "aeforsuNRu",
	"anacron":   "tS",
	"getent":    "s",
	// supervisorctl's getopt: -c config, -s server, -u user, -p password,
	// -r history file.
	"supervisorctl": "cprsu",
	"snapraid":      "cfdpoSBLil",
	// date -d, -f and -r take a value, and -I its format attached only
	// (-Iseconds, -Is): the cluster ends there, it holds no -s.
	"date":      "dfrI",
	"smbclient": "cDUWIpRsOTlmAnitdL",
	// ncat's and OpenBSD nc's (-e and -c are read as the names asked for).
	"nc":     "degGimopswxIMOPTVX",
	"ncat":   "degGimopswxIMOPTVX",
	"netcat": "degGimopswxIMOPTVX",
	// iperf3's getopt string; needrestart's -c, -r, -m, -f, -t and -u; rndc's.
	"iperf3":      "pfiIcbtnklPwBMSLOFATCX",
	"needrestart": "crmftu",
	"rndc":        "bckpsty",
	// nano's (and pico's, nano under another name) and the dnsmasq
	// options known to take a value; one missing here ends a cluster
	// later, which reads more of it as options, never less.
	"nano":    "CJQTXYfors",
	"pico":    "CJQTXYfors",
	"dnsmasq": "aAcCFGHilOprsSux",
}

// wordOptions are programs whose options are single-dash words that never
// cluster (cmake -DX=1, gdb -batch, xmllint -noout).
var wordOptions = map[string]bool{"cmake": true, "gdb": true, "xmllint": true}

// scanOpts returns the values args give the options names: spelled
// whole, and with getopt also abbreviated or at the end of a cluster of
// short flags (valueShort are those that take a value), unless whole
// says the word is an option of its own.
func scanOpts(args []arg, valueShort string, getopt bool, names []string, whole func(string) bool) []arg {
	var out []arg
	value := func(i int, a arg, rest string) (arg, int) {
		if rest != "" {
			return arg{val: rest, known: a.known, glob: a.glob}, i
		}
		if i+1 < len(args) {
			return args[i+1], i + 1
		}
		return arg{}, -1
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.val == "--" {
			break
		}
		if !strings.HasPrefix(a.val, "-") || a.val == "-" {
			continue
		}
		name, eqVal, hasEq := strings.Cut(a.val, "=")
		matched, v, next := false, arg{}, i
		for _, n := range names {
			switch {
			case a.val == n:
				v, next = value(i, a, "")
				matched = next >= 0
			case strings.HasPrefix(n, "--") && name == n && hasEq:
				v, matched = arg{val: eqVal, known: a.known, glob: a.glob}, true
			case len(n) == 2 && n[0] == '-' && !strings.HasPrefix(a.val, "--") && strings.HasPrefix(a.val, n) && len(a.val) > 2:
				v, matched = arg{val: a.val[2:], known: a.known, glob: a.glob}, true
			}
			if matched {
				break
			}
		}
		if !matched && getopt {
			v, next, matched = getoptVal(args, i, valueShort, names, whole, value)
		}
		if !matched {
			continue
		}
		out = append(out, v)
		if next > i {
			i = next
		}
	}
	return out
}

// getoptVal reads args[i] as an abbreviated long option or a cluster of
// short flags ending in one of names.
func getoptVal(args []arg, i int, valueShort string, names []string, whole func(string) bool, value func(int, arg, string) (arg, int)) (arg, int, bool) {
	a := args[i]
	if strings.HasPrefix(a.val, "--") {
		name, eqVal, hasEq := strings.Cut(a.val, "=")
		if len(name) < 3 {
			return arg{}, i, false
		}
		if slices.Contains(names, name) || whole != nil && whole(name) {
			return arg{}, i, false // the whole name of another option
		}
		for _, n := range names {
			if strings.HasPrefix(n, "--") && strings.HasPrefix(n, name) {
				if hasEq {
					return arg{val: eqVal, known: a.known, glob: a.glob}, i, true
				}
				v, next := value(i, a, "")
				return v, next, next >= 0
			}
		}
		return arg{}, i, false
	}
	// A cluster of flags: -pm, -Dm4755, and flags named by digits as
	// getopt takes them (ssh -4E, nc -4e, tar -c0f).
	for j := 1; j < len(a.val); j++ {
		f := a.val[j]
		if !optLetter(f) {
			return arg{}, i, false
		}
		for _, n := range names {
			if len(n) == 2 && n[0] == '-' && n[1] == f {
				v, next := value(i, a, a.val[j+1:])
				return v, next, next >= 0
			}
		}
		if strings.IndexByte(valueShort, f) >= 0 {
			return arg{}, i, false // the rest is that option's value
		}
	}
	return arg{}, i, false
}

// longOpt resolves a long option name as getopt_long does against a
// program's long options: the name itself, or the only option it
// abbreviates. An unknown or ambiguous name is returned as it is.
func longOpt(name string, opts []string) string {
	found := ""
	for _, o := range opts {
		if o == name {
			return o
		}
		if strings.HasPrefix(o, name) && len(name) > 2 {
			if found != "" {
				return name
			}
			found = o
		}
	}
	if found == "" {
		return name
	}
	return found
}

// flagSet reports whether c's options set a flag, read as getopt_long
// reads them: the short letter in a cluster of flags (up to a letter that
// takes a value), or the long name or an abbreviation of it at least
// minAbbrev bytes long ("--arch" for --archive). Options end at "--".
func (c *call) flagSet(short byte, long string, minAbbrev int) bool {
	values := c.valueLetters()
	for _, a := range c.args {
		v := a.val
		if v == "--" {
			return false
		}
		if strings.HasPrefix(v, "--") {
			name, _, _ := strings.Cut(v, "=")
			if long != "" && (name == long || len(name) >= minAbbrev && strings.HasPrefix(long, name)) {
				return true
			}
			continue
		}
		if short == 0 || len(v) < 2 || v[0] != '-' || wordOptions[c.name] {
			continue
		}
		for j := 1; j < len(v); j++ {
			f := v[j]
			if f == short {
				return true
			}
			if strings.IndexByte(values, f) >= 0 || !optLetter(f) {
				break
			}
		}
	}
	return false
}

// optLetter reports whether getopt may take c as a short option in a
// cluster: a letter or a digit (-4, -6 and tar's -0…-9 cluster as
// letters do).
func optLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// operands returns the non-option arguments (everything after "--").
func operands(args []string) []string {
	var out []string
	opts := true
	for _, a := range args {
		if opts && a == "--" {
			opts = false
			continue
		}
		if opts && len(a) > 1 && a[0] == '-' {
			continue
		}
		out = append(out, a)
	}
	return out
}

// hasFlag reports whether args carry a short flag (alone or in a cluster)
// or the long flag, whole or abbreviated as getopt_long takes it.
func hasFlag(args []string, short byte, long string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if long != "" && longFlag(a, long) {
			return true
		}
		if shortFlag(a, short) {
			return true
		}
	}
	return false
}

// longFlag reports whether a is the long option long, alone or with an
// attached "=value", or an abbreviation of it: getopt_long takes any
// prefix of a long name ("--comp" for --compile, "--se=…" for --set), and
// a prefix two options share is an error there, so taking it for this one
// errs only toward caution.
func longFlag(a, long string) bool {
	name, _, _ := strings.Cut(a, "=")
	return name == long || len(name) > 2 && strings.HasPrefix(name, "--") && strings.HasPrefix(long, name)
}

// shortFlag reports whether a is a short-option cluster containing c.
func shortFlag(a string, c byte) bool {
	return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], c) >= 0
}
