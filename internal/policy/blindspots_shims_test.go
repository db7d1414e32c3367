package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotVersionManagerShims: rustup's proxies, asdf's and mise's
// shims, pyenv's, rbenv's and the other version managers' pick the binary
// they run from a file in the working directory (rust-toolchain.toml's
// path, .tool-versions' path:DIR, pyenv's CVE-2022-35861 climb, the dotnet
// host's global.json), so in a temporary directory, or one known only at
// run time, even a version query runs what a tier 1 write put there, in
// every way of getting there. The operator's projects keep their tiers.
func TestBlindSpotVersionManagerShims(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	moves := []string{"cd %s && ", "cd %s; ", "pushd %s && ", "env -C %s ", "sudo -D %s ", "(cd %s && ", "cd / && cd .%s && "}
	reads := []string{"cargo --version", "cargo -V", "cargo version", "cargo help", "rustc -V", "rustc --version", "rustdoc -V",
		"rustfmt --version", "cargo-clippy -V", "rust-analyzer --version", "rustup show", "dotnet --version", "dotnet --list-sdks",
		"python3 --version", "python -V", "python3.12 -V", "pip list", "pip3 --version", "pip3.11 freeze", "ruby -v", "gem list",
		"irb -v", "node -v", "node --version", "nodejs -v", "npm --version", "corepack --version", "go version", "go env",
		"gofmt -l f.go", "java -version", "javac -version", "terraform version", "terraform output", "timeout 5 cargo -V",
		"nice node -v", "command python3 -V", "erl -version", "elixir --version", "iex --version", "deno --version", "bun --version",
		"php -v", "php8.2 -v", "perl -v", "perl5.36 -v", "julia --version", "lua -v", "kotlin -version", "scala -version"}
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/tmp", "$d", "\"$(mktemp -d)\"", "/private/tmp/x"} {
		for _, m := range moves {
			if strings.HasPrefix(m, "cd / && cd .") && !strings.HasPrefix(d, "/") {
				continue
			}
			for _, r := range reads {
				if strings.HasPrefix(m, "sudo") && strings.HasPrefix(r, "command ") {
					continue
				}
				c := strings.ReplaceAll(m, "%s", d) + r
				if strings.HasPrefix(m, "(") {
					c += ")"
				}
				cmds = append(cmds, c)
			}
		}
	}
	for _, start := range []string{"/tmp", "/var/tmp/x"} {
		cmds = append(cmds, "find "+start+" -name rust-toolchain.toml -execdir cargo --version \\;",
			"find "+start+" -name .tool-versions -execdir node -v \\;")
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/q"} {
		for _, c := range []string{"cargo --version", "python3 -V", "node -v", "dotnet --version"} {
			if v := p.Evaluate(Input{Command: c, Dir: d, Host: "db1"}); v.Tier < TierDestructive {
				t.Errorf("Evaluate(%q in %s) = %s (%s); want tier 3", c, d, v.Tier, v.Reason)
			}
		}
	}
	runExactHosts(t, p, []exactCase{
		{"no directory named", "cargo --version", TierRead},
		{"no directory named, python", "python3 --version", TierRead},
		{"operator's project build", "cd /srv/app && cargo build", TierMutate},
		{"operator's project version", "cd /srv/app && cargo --version", TierRead},
		{"below an unnamed start", "cd src && node -v", TierRead},
		{"python elsewhere", "cd /srv/app && python3 -V", TierRead},
		{"pip elsewhere", "cd /opt/tool && pip list", TierRead},
		{"go elsewhere", "cd /srv/go && go version", TierRead},
		{"php elsewhere", "cd /var/www && php -v", TierRead},
		{"perl elsewhere", "cd /srv && perl -v", TierRead},
		{"listing in /tmp", "cd /tmp/x && ls -la", TierRead},
		{"reading in /tmp", "cd /tmp/x && cat rust-toolchain.toml", TierRead},
		{"grep in /tmp", "cd /tmp/x && grep -r path .tool-versions", TierRead},
	})
	// A home the classifier can name (the local one) is the operator's;
	// an SSH login's is a directory known only at run time, as for git.
	runExact(t, p, []exactCase{{"home project", "cd ~/src/x && rustc -V", TierMutate}})
}
