package policy

import (
	"path"
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

// writeVariants are the names a target word can stand for beyond its
// text: a tilde word that climbs out of the home directory
// (~root/../proc/sysrq-trigger, ~/../../dev/sda, of=~x/../../dev/sda,
// whose tilde bash expands after a name and "=") is the absolute path it reaches from
// a home of each depth up to four, for a home the classifier cannot name;
// an extended pattern (/proc/@(sysrq-trigger), which the resolver leaves
// unknown) is the glob with each @(…) as *; a globstar ** also spans no
// directory or several.
func writeVariants(v string) []string {
	var out []string
	if name, val, ok := strings.Cut(v, "=~"); ok && validName(name) {
		v = "~" + val // of=~x/… is an assignment-like word: bash expands its tilde
	}
	if rest, ok := strings.CutPrefix(v, "~"); ok && strings.Contains(rest, "..") {
		user, sub, _ := strings.Cut(rest, "/")
		homes := []string{"/", "/h1", "/h1/h2", "/h1/h2/h3", "/h1/h2/h3/h4"}
		if user == "root" {
			homes = []string{"/root"}
		}
		for _, h := range homes {
			c := path.Join(h, sub)
			if h == "/root" || h == "/" || !strings.HasPrefix(c+"/", h+"/") {
				out = append(out, c)
			}
		}
	}
	if strings.HasPrefix(v, "/") && strings.Contains(v, "(") && !strings.ContainsAny(v, "$`") {
		if g := extGlob.ReplaceAllString(v, "*"); g != v {
			out = append(out, path.Clean(g))
		}
	}
	return out
}

// globWriteTarget classifies writing to the clean absolute pattern c
// (spelled v); ok is false when it can name none of those.
func (e *eval) globWriteTarget(c, v string) (t Tier, why, deny string, ok bool) {
	pats := []string{c}
	if strings.Contains(c, "**") {
		for _, r := range []string{"/", "/*/", "/*/*/"} {
			pats = append(pats, strings.ReplaceAll(c, "/**/", r))
		}
	}
	if e.paths != nil && e.paths.nocase {
		for _, p := range pats {
			pats = append(pats, foldPattern(p))
		}
	}
	match := func(p string) bool {
		return slices.ContainsFunc(pats, func(pat string) bool {
			m, _ := shellMatch(pat, p)
			return m
		})
	}
	for _, f := range []string{"/proc/sysrq-trigger", "/sys/power/state", "/sys/power/autosleep"} {
		if match(f) {
			why := powerFiles[f] + " through the pattern " + truncate(v, 96)
			return TierDestructive, why, why, true
		}
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
