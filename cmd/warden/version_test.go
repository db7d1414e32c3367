package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// buildWarden builds the binary with extra go build flags.
func buildWarden(t *testing.T, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "warden")
	args := append(append([]string{"build"}, flags...), "-o", bin, ".")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %v: %v\n%s", args, err, out)
	}
	return bin
}

// TestVersionLdflags: -ldflags -X stamps the version, commit and date.
func TestVersionLdflags(t *testing.T) {
	bin := buildWarden(t, "-ldflags", "-X main.version=v1.2.3 -X main.commit=0123456789abcdef -X main.date=2026-11-24T00:00:00Z")
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "warden v1.2.3\ncommit:   0123456789abcdef\ndate:     2026-11-24T00:00:00Z\ngo:       " + runtime.Version() + "\n"
	if string(out) != want {
		t.Errorf("warden version:\n got:\n%s\nwant:\n%s", out, want)
	}
}

// TestVersionFromBuildInfo: a plain go build in a git checkout (the
// README's first command) reports the commit it was built from and that
// commit's time, from the build info the Go toolchain stamps.
func TestVersionFromBuildInfo(t *testing.T) {
	head := func() string {
		b, err := exec.Command("git", "rev-parse", "HEAD").Output()
		if err != nil {
			t.Skipf("not a git checkout: %v", err)
		}
		return strings.TrimSpace(string(b))
	}
	before := head()
	bin := buildWarden(t, "-buildvcs=true")
	after := head()
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	commit := strings.Fields(strings.TrimPrefix(lines[1], "commit:"))
	if len(commit) == 0 || (commit[0] != before && commit[0] != after) {
		t.Fatalf("commit line %q, want HEAD %s", lines[1], before)
	}
	// Go 1.24 and later stamp a pseudo-version naming the commit
	// (v0.0.0-20261124040321-1fdb9cb7f5fb, +dirty for a modified tree);
	// older ones leave "(devel)", which warden shows as dev.
	if lines[0] != "warden dev" && !(strings.HasPrefix(lines[0], "warden v") && strings.Contains(lines[0], commit[0][:12])) {
		t.Errorf("first line %q, want warden dev or a pseudo-version of %s", lines[0], commit[0])
	}
	ct, err := exec.Command("git", "show", "-s", "--format=%ct", commit[0]).Output()
	if err != nil {
		t.Fatal(err)
	}
	secs, _ := strconv.ParseInt(strings.TrimSpace(string(ct)), 10, 64)
	if want := "date:     " + time.Unix(secs, 0).UTC().Format(time.RFC3339); lines[2] != want {
		t.Errorf("date line %q, want %q", lines[2], want)
	}
}
