package policy

import "strings"

// A variable named FOO_HOME, FOO_ROOT, FOO_PREFIX or FOO_RUNTIME_DIR
// names where a program is installed or keeps its runtime files, and the
// program loads what it finds there: SPARK_HOME's jars, an SDK's
// FLUTTER_ROOT, XDG_RUNTIME_DIR's systemd/user units (systemd-analyze
// --user verify hands their Documentation= to man, whose -Hcmd section
// runs cmd). The names the lists know are classified by name; for the rest
// only a literal path into a temporary directory, where a tier 1 call may
// have laid out such a tree, makes the call tier 3: a script's own
// APP_HOME=/srv/app or XDG_RUNTIME_DIR=/run/user/$(id -u) names the
// operator's. A relative one is such a path when the working directory
// may be temporary (cd /tmp/w && EXIFTOOL_HOME=. exiftool f.jpg requires
// ./.ExifTool_config, Perl) or when it climbs to one from wherever it
// starts (../../tmp/x).

// rootVarSuffixes are the endings of variables naming an installation or
// runtime directory.
var rootVarSuffixes = []string{"_HOME", "_ROOT", "_PREFIX", "_RUNTIME_DIR"}

// rootVar classifies setting name, if it names an installation or runtime
// directory, to the known value val.
func (e *eval) rootVar(name, val string, ctx cctx, where string) {
	if len(name) < 6 || name[0] < 'A' || name[0] > 'Z' || cacheDirVars[name] {
		return
	}
	match := false
	for _, s := range rootVarSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			match = true
			break
		}
	}
	if !match {
		return
	}
	for _, v := range strings.Split(val, ":") {
		why := ""
		switch {
		case strings.HasPrefix(v, "/"):
			why = agentPath(v)
		case v == "" || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "$"):
		default:
			if climbs(v) {
				why = climbAgent(v)
			}
			if w := e.agentCwdOf(true); why == "" && w != "" {
				why = "is relative to a working directory where " + w
			}
		}
		if why != "" {
			e.opaque = true
			e.note(TierDestructive, ctx.covered, "%s sets %s to %s, which %s: a program loads its code, units or plugins from "+
				"the directory such a variable names", where, name, truncate(val, 64), why)
			return
		}
	}
}
