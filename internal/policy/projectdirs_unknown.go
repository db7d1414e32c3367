package policy

import "strings"

// A program the classifier does not know is tier 2: what it does is
// unknown, and many such programs take code from the directory they run
// in — nix's flake.nix and shell.nix, pipenv's, hatch's and pixi's
// scripts, vitest's, playwright's and postcss' JavaScript configuration,
// mkdocs' hooks, jekyll's _plugins, conan's conanfile.py, platformio's
// extra_scripts, fastlane's Fastfile, jj's repository configuration,
// direnv's .envrc, the toolchain a version manager's shim picks. The
// lists of project programs (projectdirs.go) cannot name them all, so an
// unknown program run where the working directory is a temporary one, or
// one known only at run time, is tier 3 as git there is: open mode would
// otherwise run, unapproved, what a tier 1 write put in that directory,
// and on a plain SSH host nothing else holds it.

// unknownInProject raises the tier t of the unknown program c to tier 3
// when its working directory may be one the agent wrote.
func (c *call) unknownInProject(t Tier, why string) (Tier, string) {
	if t >= TierDestructive || c.e.paths == nil || c.ctx.inArgs {
		return t, why
	}
	if where := c.e.agentCwdOf(true); where != "" {
		// What the script wrote there by relative name may be the file it
		// reads (printf … > flake.nix && nix develop): any such file.
		c.scanWritten(relativeFile)
		c.e.opaque = true
		return TierDestructive, why + ", which may run code from the directory it runs in, and " + where
	}
	return t, why
}

// relativeFile reports whether f, a name the script wrote to, is relative
// to the working directory.
func relativeFile(f string) bool { return !strings.HasPrefix(f, "/") }
