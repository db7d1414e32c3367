package policy

import "strings"

// Global options before a subcommand, read as the program's own parser
// reads them: a value-taking option whose value is the next word shifts
// the subcommand one word on, so "systemctl --mach c help x" is
// "systemctl --machine c help x" (help on a container), not the verb c.

// subAbbrevParsers are the programs driven by subcommands whose global
// options are parsed by getopt_long or a parser like it (Python's
// argparse, optparse and getopt): a long option is taken in any
// unambiguous abbreviation. cobra/pflag (docker, kubectl, helm, restic,
// tailscale), GOption (flatpak) and apt's own parser take long names
// whole.
var subAbbrevParsers = map[string]bool{
	"systemctl": true, "loginctl": true, "timedatectl": true, "hostnamectl": true, "localectl": true,
	"networkctl": true, "resolvectl": true, "varlinkctl": true,
	"pip": true, "pip3": true, "dnf": true, "yum": true, "apk": true, "pkg": true,
	"supervisorctl": true, "netplan": true, "ansible-inventory": true,
	"borg": true, "virsh": true, "zypper": true, "npm": true, // argparse, getopt_long, getopt_long, nopt
}

// subOptTakesNext reports whether the global option word v of name's
// table tab takes the next word as its value, as the program reads it.
func subOptTakesNext(name string, tab subTable, v string) bool {
	if name == "nmcli" {
		return nmcliTakesValue(v)
	}
	if g, ok := strictGlobals[name]; ok {
		return g.takesNext(v)
	}
	return optTakesNext(v, tab.valueShort, tab.valueLong, subAbbrevParsers[name])
}

// nmcliOpts are nmcli's options in the order it tries them: it takes a
// word with one dash or two, by any prefix, the first option it begins
// winning ("-f" and "--fi" are -fields, "-mo" -mode); those ending in
// "=" take a value.
var nmcliOpts = []string{"terse", "pretty", "mode=", "colors=", "escape=", "fields=", "get-values=",
	"nocheck", "ask", "show-secrets", "wait=", "version", "offline", "help"}

// nmcliTakesValue reports whether an nmcli option word takes the next
// word as its value.
func nmcliTakesValue(v string) bool {
	w := strings.TrimPrefix(strings.TrimPrefix(v, "-"), "-")
	if w == "" || v == w || strings.Contains(w, "=") {
		return false
	}
	for _, o := range nmcliOpts {
		if name := strings.TrimSuffix(o, "="); strings.HasPrefix(name, w) {
			return name != o
		}
	}
	return false
}

// optTakesNext reports whether the option word v (no "=" in a long one)
// takes the next word as its value: a long name of valueLong, or with
// abbrev any prefix of one ("--mach"); a letter of valueShort, alone or,
// with abbrev (getopt's clusters), ending a cluster of flags ("-qM c").
// An abbreviation another option of the program also begins with is an
// error there, so reading it as taking a value errs only toward a later
// word being the verb or operand.
func optTakesNext(v, valueShort string, valueLong []string, abbrev bool) bool {
	if strings.HasPrefix(v, "--") {
		if strings.Contains(v, "=") {
			return false
		}
		for _, l := range valueLong {
			if v == l || abbrev && len(v) > 2 && strings.HasPrefix(l, v) {
				return true
			}
		}
		return false
	}
	if len(v) < 2 || v[0] != '-' || valueShort == "" {
		return false
	}
	if len(v) == 2 || abbrev {
		// In a cluster, the first letter that takes a value takes the
		// rest of the word, or the next word when it ends the cluster.
		for j := 1; j < len(v); j++ {
			f := v[j]
			if !optLetter(f) {
				return false
			}
			if strings.IndexByte(valueShort, f) >= 0 {
				return j == len(v)-1
			}
		}
	}
	return false
}

// getoptOperands returns the operands of a getopt_long program's args,
// skipping the options of valueShort and valueLong with their values in
// every spelling getopt_long takes (abbreviated, ending a cluster):
// "coredumpctl --dir list debug" debugs.
func getoptOperands(args []string, valueShort string, valueLong []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		if optTakesNext(a, valueShort, valueLong, true) {
			i++
		}
	}
	return out
}

// subWordIndex returns the index in vals of name's subcommand, the first
// word that is neither a global option nor an option's value, or
// len(vals) when there is none; for programs without a table, the first
// word not starting with "-".
func subWordIndex(name string, vals []string) int {
	tab, ok := subcommandTables[name]
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" {
			return i + 1
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			return i
		}
		if ok && subOptTakesNext(name, tab, v) {
			i++
		}
	}
	return len(vals)
}

// perlGetoptTables are the table programs whose options Perl's
// Getopt::Long reads (Proxmox's pct and qm): one dash or two, any
// unambiguous prefix of the name ("pct restore … --forc" forces).
var perlGetoptTables = map[string]bool{"pct": true, "qm": true}

// perlAbbrev reports whether the word r is the option flag (-name or
// --name) as Getopt::Long takes it: either dash form, abbreviated to two
// letters or more, a value attached with "=".
func perlAbbrev(r, flag string) bool {
	name, _, _ := strings.Cut(r, "=")
	if !strings.HasPrefix(name, "-") {
		return false
	}
	n := strings.TrimPrefix(strings.TrimPrefix(name, "-"), "-")
	f := strings.TrimPrefix(strings.TrimPrefix(flag, "-"), "-")
	return len(n) >= 2 && len(f) > 1 && strings.HasPrefix(f, n)
}
