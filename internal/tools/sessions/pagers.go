package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The session's pager variables are cat, but an option may name a pager
// of its own (man -P less, bat --pager=less, git -c pager.log=less), which
// reads keys with the terminal's editing off. man reads its options as
// argp does: clustered (-aPless), long names abbreviated (--pag=less),
// and from MANOPT before those on its command line; ag and ack take
// --pager abbreviated too.

// pagerAbbrevs are the programs with a pager option that read long
// options abbreviated (getopt_long, argp, Perl's Getopt::Long):
// ag --pag less, ack --pag=less.
var pagerAbbrevs = setOf("man", "ag", "ack", "mysql", "mariadb")

// manValues are man's short options that take a value; T, H and X take
// one only attached. After any of them the rest of a cluster is its value.
const manValues = "CRLmMSsepPrETHX"

// namedPager is the pager that the command vals is told to start by an
// option, or "".
func namedPager(vals []string) string {
	man, abbrev := progName(vals[0]) == "man", pagerAbbrevs[progName(vals[0])]
	rest := vals[1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		v, ok := "", false
		next := func() {
			if j+1 < len(rest) {
				v, ok = rest[j+1], true
			}
		}
		name, val, eq := strings.Cut(a, "=")
		switch {
		case a == "--":
			return ""
		case name == "--pager" || abbrev && len(name) >= len("--pag") && strings.HasPrefix("--pager", name):
			if eq {
				v, ok = val, true
			} else {
				next()
			}
		case man && len(a) > 1 && a[0] == '-' && a[1] != '-':
			for k := 1; k < len(a); k++ {
				if a[k] == 'P' {
					if v = a[k+1:]; v != "" {
						ok = true
					} else {
						next()
					}
					break
				}
				if strings.IndexByte(manValues, a[k]) >= 0 {
					break
				}
			}
		case strings.HasPrefix(a, "core.pager=") || strings.HasPrefix(a, "pager."):
			_, v, ok = strings.Cut(a, "=")
		}
		if ok && v != "cat" && v != "" && v != "never" && v != "false" && v != "no" {
			return v
		}
	}
	return ""
}

// manOpts is the options MANOPT gives man, which it reads before its
// own: set for the command c (MANOPT='-P less' man ls) or by env among
// before, the words ahead of the program. Empty for other programs.
func manOpts(c *syntax.CallExpr, before []string) []string {
	var opts []string
	for _, a := range c.Assigns {
		if a.Name != nil && a.Name.Value == "MANOPT" && a.Value != nil {
			opts = append(opts, strings.Fields(literal(a.Value))...)
		}
	}
	for _, w := range before {
		if v, ok := strings.CutPrefix(w, "MANOPT="); ok {
			opts = append(opts, strings.Fields(v)...)
		}
	}
	return opts
}
