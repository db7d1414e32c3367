package policy

import "strings"

// hgConfigCode are the Mercurial configuration sections and keys whose
// values are commands or code: hooks, extensions (Python modules), aliases
// ("!cmd" runs a shell), the editor, merge tools, pager and ssh programs.
var hgConfigCode = []string{"hooks.", "extensions.", "alias.", "ui.editor", "ui.merge", "merge-tools.",
	"pager.pager", "ui.ssh", "ui.remotecmd", "web.", "fsmonitor.", "diff-tools.", "extdiff."}

// svnConfigCode are Subversion runtime options whose values are commands:
// the helpers section's diff, diff3, editor and merge tools, and tunnels.
var svnConfigCode = []string{"diff-cmd", "diff3-cmd", "editor-cmd", "merge-tool-cmd", "tunnels"}

// vcsProgram: hg --config and svn --config-option set what runs (hooks,
// extensions, editors, diff and merge tools, ssh tunnels), and svn
// --config-dir reads a configuration that can: tier 3. Anything else is
// what hg and svn are otherwise, tier 2.
func vcsProgram(c *call) (Tier, string) {
	for i, a := range c.args {
		name, val, has := strings.Cut(a.val, "=")
		if !has && i+1 < len(c.args) {
			val = c.args[i+1].val
		}
		switch {
		case c.name == "hg" && name == "--config":
			v := strings.ToLower(val)
			for _, k := range hgConfigCode {
				if strings.HasPrefix(v, k) || !c.args[min(i+1, len(c.args)-1)].known {
					c.e.opaque = true
					return TierDestructive, "hg --config " + truncate(val, 48) + ": configuration that runs programs or code"
				}
			}
		case c.name == "svn" && (name == "--config-dir" || strings.HasPrefix(name, "--config-d")):
			c.e.opaque = true
			return TierDestructive, "svn --config-dir: reads a configuration that can name the programs svn runs"
		case c.name == "svn" && name == "--config-option":
			v := strings.ToLower(val)
			for _, k := range svnConfigCode {
				if strings.Contains(v, k) {
					c.e.opaque = true
					return TierDestructive, "svn --config-option " + truncate(val, 48) + ": configuration that runs programs"
				}
			}
		}
	}
	if t, why := vcsCommands(c); t > TierMutate {
		return t, why
	}
	return TierMutate, c.name + ": changes the system"
}

// hgRemoteCommands are the hg commands whose -e is --ssh.
var hgRemoteCommands = set(`clone pull push incoming in outgoing out identify id share`)

// vcsCommands classifies the options of hg and svn that name a program
// they run, as git's --upload-pack is: hg -e/--ssh and --remotecmd, extdiff
// -p/--program, svn --diff-cmd, --diff3-cmd and --editor-cmd; their
// commands are classified and the call is tier 3. hg --debugger drops
// into Python's debugger, which runs whatever it reads.
func vcsCommands(c *call) (Tier, string) {
	var r raiser
	switch c.name {
	case "hg":
		sub := ""
		for i := 0; i < len(c.args); i++ {
			v := c.args[i].val
			switch {
			case v == "-R" || v == "--repository" || v == "--cwd" || v == "--config" || v == "--encoding" ||
				v == "-e" || v == "--ssh" || v == "--remotecmd":
				// Their values are not the command: hg -e /tmp/x pull.
				i++
			case v == "--debugger":
				c.e.opaque = true
				return TierDestructive, "hg --debugger: runs Python's debugger, which runs what it reads"
			case !strings.HasPrefix(v, "-") && sub == "":
				sub = v
			}
		}
		names := []string{"--ssh", "--remotecmd"}
		if hgRemoteCommands[sub] {
			names = append(names, "-e")
		}
		if sub == "extdiff" {
			names = append(names, "-p", "--program")
		}
		for _, v := range c.optVals(c.args, names...) {
			c.shellArg(v, "hg "+sub+" program")
			r.raise(TierDestructive, "hg "+sub+": runs "+truncate(v.val, 64))
		}
	case "svn":
		for _, v := range exactOptVals(c.args, "--diff-cmd", "--diff3-cmd", "--editor-cmd") {
			c.shellArg(v, "svn program")
			r.raise(TierDestructive, "svn: runs "+truncate(v.val, 64))
		}
	}
	return r.t, r.why
}
