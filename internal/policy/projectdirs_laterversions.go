package policy

import "strings"

// Version managers keep the toolchain a name or a directory selects, and
// their shims run it later, in any directory, for every call of the
// language's programs: rustup toolchain link NAME DIR and rustup default
// DIR, asdf set nodejs path:DIR, mise use node@path:DIR, pyenv global
// ../../tmp/x (CVE-2022-35861), jenv add DIR. A directory a tier 1 write
// can fill makes such a call tier 3 (projectdirs_later.go): node -v would
// afterwards run what the agent wrote, outside warden's confinement on
// an SSH host.

// toolchainVerbs are the subcommands of each version manager that record
// a version or a toolchain's directory; "toolchain" is rustup's group.
var toolchainVerbs = set(`link default override set local global shell use install add toolchain`)

// toolchainPlaces returns the directories c's operands record as
// toolchains: a path (a word with "/"), asdf's and mise's path:DIR, or a
// word known only at run time.
func (c *call) toolchainPlaces() []arg {
	ops := c.operandArgs("")
	if len(ops) == 0 || !ops[0].known || !toolchainVerbs[ops[0].val] {
		return nil
	}
	var out []arg
	for _, o := range ops[1:] {
		v := o.val
		if _, p, ok := strings.Cut(v, "path:"); ok {
			out = append(out, arg{val: p, known: o.known, glob: o.glob}) // path:DIR, node@path:DIR
			continue
		}
		if !o.known || strings.Contains(v, "/") {
			out = append(out, o)
		}
	}
	return out
}
