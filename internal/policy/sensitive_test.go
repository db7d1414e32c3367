package policy

import (
	"path"
	"strings"
	"testing"
)

// TestSensitivePathSame holds sensitivePath, which asks its tables of the
// path itself, to what asking them of "/"+path and path+"/" answered:
// every table entry, and the entry spelled around its edges.
func TestSensitivePathSame(t *testing.T) {
	var entries []string
	for s := range sensitiveExact {
		entries = append(entries, s)
	}
	entries = append(entries, sensitiveSuffix...)
	entries = append(entries, sensitiveInfix...)
	entries = append(entries, sensitivePrefix...)
	for _, s := range sensitivePrefix {
		if !strings.Contains(s[1:], "/") {
			t.Errorf("prefix %q has no directory: sensitivePrefixes files it under %q", s, s[1:])
		}
	}
	var paths []string
	for _, s := range entries {
		trimmed := strings.Trim(s, "/")
		for _, v := range []string{s, trimmed, "/" + trimmed, trimmed + "/", s + "x", s + "/x", "x" + s, "/x" + s, "x/" + trimmed,
			s[:len(s)-1], s[1:], path.Dir(s), path.Dir(s) + "/", "./" + trimmed, "/home/u" + s, "a/" + trimmed + "/b", s + ".bak", "/srv" + s + "old"} {
			paths = append(paths, v, strings.ToUpper(v))
		}
	}
	paths = append(paths, "", "/", ".", "..", "x", "/etc", "/etc/", "/usr", "/var/lib", "/tmp/x", "relative/path", "/proc/1/root/etc/passwd")
	checked := 0
	for _, p := range paths {
		if got, want := sensitivePath(p), refSensitivePath(p); got != want {
			t.Errorf("sensitivePath(%q) = %v, asked of the slashed path %v", p, got, want)
		}
		checked++
	}
	if checked < 1000 {
		t.Fatalf("only %d paths checked", checked)
	}
}

// refSensitivePath is sensitivePath as it was before its tables were
// asked of the path itself: the reference TestSensitivePathSame holds it to.
func refSensitivePath(l string) bool {
	c := l
	if strings.HasPrefix(c, "/") {
		c = path.Clean(c)
	}
	if sensitiveExact[c] || pythonStartup(c) {
		return true
	}
	slashed := "/" + c // built once: this runs for every argument of every mutating command
	for _, s := range sensitiveSuffix {
		if strings.HasSuffix(c, s) || c == strings.TrimPrefix(s, "/") || strings.HasSuffix(slashed, s) {
			return true
		}
	}
	for _, s := range sensitiveInfix {
		if strings.Contains(slashed+"/", s) {
			return true
		}
	}
	dir := c + "/" // the directory itself: cp x /etc/cron.d/ names /etc/cron.d
	for _, s := range sensitivePrefix {
		if strings.HasPrefix(c, s) || strings.HasPrefix(dir, s) {
			return true
		}
	}
	return false
}
