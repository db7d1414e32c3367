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
	return TierMutate, c.name + ": changes the system"
}
