package policy

import (
	"slices"
	"strings"
)

// Patterns as write targets. bash expands a pattern in a redirection's
// target when it matches one file (echo b > /p?oc/sysrq-trigge? writes
// /proc/sysrq-trigger), and a program's operand is whatever the pattern
// matches, so a pattern is checked against what it can name: the SysRq
// trigger and block devices are denied as their plain names are, kernel
// state (/proc, /sys) and devices are TierDestructive, sensitive files
// are as their names are. After nocaseglob (shopt -s, bash -O, zsh's
// setopt or -o) the pattern's components match either case, so
// /D?V/S?A is /dev/sda.

// globWriteTarget classifies writing to the clean absolute pattern c
// (spelled v); ok is false when it can name none of those.
func (e *eval) globWriteTarget(c, v string) (t Tier, why, deny string, ok bool) {
	pats := []string{c}
	if e.paths != nil && e.paths.nocase {
		pats = append(pats, foldPattern(c))
	}
	match := func(p string) bool {
		return slices.ContainsFunc(pats, func(pat string) bool {
			m, _ := shellMatch(pat, p)
			return m
		})
	}
	if match("/proc/sysrq-trigger") {
		why := "write to /proc/sysrq-trigger (raw kernel request: reboot, crash, power off) through the pattern " + truncate(v, 96)
		return TierDestructive, why, why, true
	}
	for _, d := range sampleDevices {
		if match(d) {
			why := "write to block device " + truncate(v, 96)
			return TierDestructive, why, why, true
		}
	}
	for _, pat := range pats {
		first, _, _ := strings.Cut(strings.TrimPrefix(pat, "/"), "/")
		for _, dir := range []string{"proc", "sys", "dev"} {
			if m, _ := shellMatch(first, dir); m {
				return TierDestructive, "write to kernel state or a device: the pattern " + truncate(v, 96) + " can name /" + dir, "", true
			}
		}
	}
	for _, f := range sensitiveSamples {
		if match(f) {
			return TierDestructive, "modifies sensitive file " + f + " through the pattern " + truncate(v, 96), "", true
		}
	}
	return TierRead, "", "", false
}

// sensitiveSamples are sensitiveExact's names, in a fixed order.
var sensitiveSamples = func() []string {
	var out []string
	for f := range sensitiveExact {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}()
