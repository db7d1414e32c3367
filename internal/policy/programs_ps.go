package policy

import "strings"

// psValueShort are ps's dash options that take the next word as a value
// (-o pid,etime, -p 1, -u root); psValueBSD are its BSD letters that do
// (ps axo pid,etime, ps p 1, ps U root).
const (
	psValueShort = "CGgOopqstUuk"
	psValueBSD   = "OopqtUk"
)

// psLongFlags are ps's long options that take no value.
var psLongFlags = set(`--forest --headers --no-headers --cumulative --deselect --help --info --version --context`)

// psProgram classifies ps, a read, unless its BSD e letter (ps e, ps auxe,
// ps eww) shows every process's environment after its command: warden's
// own among them on another machine's ps, as /proc/PID/environ is.
func psProgram(c *call) (Tier, string) {
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.known {
			// Whatever its spelling, a BSD word known only at run time
			// may hold the e letter.
			if !strings.HasPrefix(v, "-") {
				return TierMutate, "ps " + truncate(v, 32) + ": options known only at run time may show other processes' environments"
			}
			continue
		}
		switch {
		case strings.HasPrefix(v, "--"):
			if !strings.Contains(v, "=") && !psLongFlags[v] {
				i++
			}
		case strings.HasPrefix(v, "-"):
			// A value-taking letter takes the rest of the word, or the
			// next word when it ends the cluster.
			for j := 1; j < len(v); j++ {
				if strings.IndexByte(psValueShort, v[j]) >= 0 {
					if j == len(v)-1 {
						i++
					}
					break
				}
			}
		default:
			for j := 0; j < len(v); j++ {
				if v[j] == 'e' {
					return TierMutate, "ps " + truncate(v, 32) + ": shows other processes' environments, which may hold secrets"
				}
				if strings.IndexByte(psValueBSD, v[j]) >= 0 {
					if j == len(v)-1 {
						i++
					}
					break
				}
			}
		}
	}
	return TierRead, "ps: read-only"
}
