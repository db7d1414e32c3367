package policy

import "strings"

// Pagers, shells and editors named by option in programs whose other
// options genericOpts does not know: the abbreviations of --pager that
// getopt_long, Getopt::Long and my_getopt take, and the package managers'
// script shells and editors.

// pagerAbbrev are programs whose option parsers (getopt_long, Perl's
// Getopt::Long, MariaDB's my_getopt) take any unambiguous prefix of a long
// option, and whose only long option starting "--pag" is --pager: ag,
// ack, and the MySQL and MariaDB clients.
var pagerAbbrev = set(`ag ack ack-grep mysql mariadb`)

// abbrevPager returns the values of --pager given as "--pag" or "--page",
// after "=" or in the next word.
func abbrevPager(args []arg) []arg {
	var out []arg
	for i, a := range args {
		if a.val == "--" {
			break
		}
		name, val, eq := strings.Cut(a.val, "=")
		if name != "--pag" && name != "--page" {
			continue
		}
		switch {
		case eq:
			out = append(out, arg{val: val, known: a.known, glob: a.glob})
		case i+1 < len(args):
			out = append(out, args[i+1])
		}
	}
	return out
}

// programShellOpts are the options of package managers that name the
// shell their scripts run in or the editor they start.
var programShellOpts = map[string][]string{
	"npm":  {"--script-shell", "--shell", "--editor"},
	"yarn": {"--script-shell", "--shell"},
	"pnpm": {"--script-shell", "--config.script-shell", "--shell", "--config.shell", "--editor"},
	"pip":  {"--editor"}, "pip3": {"--editor"},
}
