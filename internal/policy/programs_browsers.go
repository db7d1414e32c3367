package policy

import "strings"

// textBrowserRuns are the options of text browsers and lnav that run what
// a file or a setting says: lynx -cmd_script types keys from a file (its
// "!" is a shell), elinks -eval and its configuration set protocol.user
// handlers that -dump runs for a mailto: or other URL, w3m -o and -config
// set cgi_bin (whose scripts file:/cgi-bin/ runs) and the external
// programs, and lnav -c/-f run its commands (":sh", "|script").
var textBrowserRuns = map[string][]string{
	"lynx":   {"-cmd_script", "-cfg", "-lss", "-editor", "-rlogin", "-telnet"},
	"elinks": {"-eval", "-config-dir", "-config-file", "-remote"},
	"w3m":    {"-o", "-config", "-bookmark"},
	"lnav":   {"-c", "-f", "--commands"},
}

// textBrowserProgram classifies the text browsers and lnav: interactive
// programs that can run commands (tier 2), tier 3 with an option that
// runs what the classifier cannot see, and lnav -w writes its input.
func textBrowserProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": interactive program that can run commands"}
	for _, v := range exactOptVals(c.args, textBrowserRuns[c.name]...) {
		r.raise(TierDestructive, c.name+" "+truncate(v.val, 64)+": runs commands a file or setting names")
		if c.name == "lnav" && v.known && strings.HasPrefix(v.val, ":sh ") {
			c.shell(strings.TrimPrefix(v.val, ":sh "), "lnav :sh", nil, false)
		}
	}
	if c.name == "lynx" {
		// lynx also takes -opt=value.
		for _, a := range c.args {
			for _, o := range textBrowserRuns["lynx"] {
				if strings.HasPrefix(a.val, o+"=") || strings.HasPrefix(a.val, o+":") {
					r.raise(TierDestructive, "lynx "+truncate(a.val, 64)+": runs commands a file or setting names")
				}
			}
		}
	}
	if c.name == "lnav" {
		for _, f := range exactOptVals(c.args, "-w") {
			r.raise(c.writeArg(f, "lnav -w"))
		}
	}
	return r.t, r.why
}
