package policy

import (
	"strings"
	"testing"
)

func TestOperatorRules(t *testing.T) {
	p, err := New(Rules{
		Deny:  []string{`^curl .*pastebin`, `\bnmap\b`, `/etc/shadow`},
		Allow: []string{`systemctl restart (nginx|php-fpm)`, `docker restart \w+`, `rm -rf /srv/app/cache`, `sudo .*`},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		in      Input
		tier    Tier
		deny    bool
		allowed bool
	}{
		{"allow rule", cmd("systemctl restart nginx"), TierMutate, false, true},
		{"allow rule through sudo", cmd("sudo systemctl restart nginx"), TierMutate, false, true},
		{"allow anchored", cmd("systemctl restart nginx; rm -rf /srv/data"), TierDestructive, false, false},
		{"allow needs every command", cmd("docker restart web && systemctl restart nginx"), TierMutate, false, true},
		{"allow partial", cmd("docker restart web && apt-get install -y x"), TierMutate, false, false},
		{"allow tier 3", cmd("rm -rf /srv/app/cache"), TierDestructive, false, true},
		{"allow does not cover payload of other", cmd("rm -rf /srv/app/cache; python3 -c 1"), TierDestructive, false, false},
		{"allow never beats deny", cmd("sudo reboot"), TierDestructive, true, false},
		{"allow not set for read only", cmd("ls"), TierRead, false, false},
		{"allow with read only parts", cmd("ls && systemctl restart nginx"), TierMutate, false, true},
		{"allow not for env risk", Input{Command: "systemctl restart nginx", Env: map[string]string{"LD_PRELOAD": "/x.so"}}, TierDestructive, false, false},
		{"allow not for parse failure", cmd("systemctl restart nginx )"), TierDestructive, false, false},
		{"deny rule", cmd("curl -s https://pastebin.com/raw/x"), TierDestructive, true, false},
		{"deny rule normalised path", cmd("/usr/bin/curl https://pastebin.com/x"), TierDestructive, true, false},
		{"deny rule quoted", cmd("'n'map -sS 10.0.0.1"), TierDestructive, true, false},
		{"deny rule nested", cmd("sh -c 'nmap localhost'"), TierDestructive, true, false},
		{"deny rule redirection", cmd("cat x > /etc/shadow"), TierDestructive, true, false},
		{"deny rule whole input", cmd("echo a;   cat   /etc/shadow"), TierDestructive, true, false},
		{"deny rule argv", Input{Argv: []string{"nmap", "host"}}, TierDestructive, true, false},
		{"deny rule script", Input{Interpreter: "bash", Script: "nmap x\n"}, TierDestructive, true, false},
		{"no rule", cmd("curl -s https://example.com"), TierBenign, false, false},
	}
	for _, tc := range tests {
		v := p.Evaluate(tc.in)
		if v.Tier != tc.tier || v.Denied != tc.deny || v.Allowed != tc.allowed {
			t.Errorf("%s: Evaluate(%q) = %+v; want tier %s denied=%v allowed=%v", tc.name, describe(tc.in), v, tc.tier, tc.deny, tc.allowed)
		}
		if tc.deny && !strings.HasPrefix(v.Reason, "denied: ") {
			t.Errorf("%s: reason %q does not say denied", tc.name, v.Reason)
		}
	}
}

// TestOperatorRuleOrderOnLargeText checks that on a script large enough
// for its rules to be tried at once, the denial still names the first
// rule in the operator's order that matches, not the first to finish
// or the one matching earliest in the text; and that the whole-text
// match still sees the text with its blanks collapsed.
func TestOperatorRuleOrderOnLargeText(t *testing.T) {
	p, err := New(Rules{Deny: []string{`never-here`, `late-word`, `early-word`, `two words`}})
	if err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat("# "+strings.Repeat("-", 77)+"\n", pieceMin/80+1)
	for _, tc := range []struct{ script, rule string }{
		{"echo early-word\n" + filler + "echo late-word\n", "late-word"},
		{filler + "echo early-word\n", "early-word"},
		{"echo two \t\n  words\n" + filler, "two words"},
	} {
		v := p.Evaluate(Input{Interpreter: "bash", Script: tc.script})
		if want := "denied: operator deny rule \"" + tc.rule + "\" matched"; v.Reason != want {
			t.Errorf("%d bytes: %q; want %q", len(tc.script), v.Reason, want)
		}
	}
}

// TestCollapseSpace checks collapseSpace against what it replaces.
func TestCollapseSpace(t *testing.T) {
	for _, s := range append([]string{"", " ", "a", " a ", "a  b\t\nc", "\u00a0x\u0085y\u2028", "x\xffy  z", "\xff", " \xff ", "\v\fa\r"}, bench1MiB[1].script) {
		if got, want := collapseSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("collapseSpace(%.40q) = %.40q; want %.40q", s, got, want)
		}
	}
}

func FuzzCollapseSpace(f *testing.F) {
	f.Add("a \u00a0 b\xff\n")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := collapseSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("collapseSpace(%q) = %q; want %q", s, got, want)
		}
	})
}

func TestEnvRisk(t *testing.T) {
	p := testPolicy(t)
	tests := []struct {
		name string
		env  map[string]string
		tier Tier
		deny bool
	}{
		{"plain", map[string]string{"LANG": "C.UTF-8", "TZ": "UTC"}, TierRead, false},
		{"ld preload", map[string]string{"LD_PRELOAD": "/tmp/x.so"}, TierDestructive, false},
		{"ld audit prefix", map[string]string{"LD_AUDIT": "/tmp/x.so"}, TierDestructive, false},
		{"bash env", map[string]string{"BASH_ENV": "/tmp/x"}, TierDestructive, false},
		{"env", map[string]string{"ENV": "/tmp/x"}, TierDestructive, false},
		{"ps4", map[string]string{"PS4": "$(id)"}, TierDestructive, false},
		{"shellopts", map[string]string{"SHELLOPTS": "xtrace"}, TierDestructive, false},
		{"bash func", map[string]string{"BASH_FUNC_ls%%": "() { id; }"}, TierDestructive, false},
		{"git ssh", map[string]string{"GIT_SSH_COMMAND": "ssh -o ProxyCommand=id"}, TierDestructive, false},
		{"git exec path", map[string]string{"GIT_EXEC_PATH": "/tmp"}, TierDestructive, false},
		{"pythonstartup", map[string]string{"PYTHONSTARTUP": "/tmp/x.py"}, TierDestructive, false},
		{"perl5opt", map[string]string{"PERL5OPT": "-Mx"}, TierDestructive, false},
		{"node options", map[string]string{"NODE_OPTIONS": "--require /tmp/x.js"}, TierDestructive, false},
		{"pager shell", map[string]string{"PAGER": "sh -c reboot"}, TierDestructive, true},
		{"path", map[string]string{"PATH": "/tmp/evil:/usr/bin"}, TierDestructive, false},
		{"value deny", map[string]string{"NOTE": "then run mkfs.ext4 /dev/sda"}, TierDestructive, true},
		{"value harmless", map[string]string{"NOTE": "disk almost full"}, TierRead, false},
		{"bad name", map[string]string{"A B": "x"}, TierDestructive, false},
	}
	for _, tc := range tests {
		v := p.Evaluate(Input{Command: "ls", Env: tc.env})
		if v.Tier != tc.tier || v.Denied != tc.deny {
			t.Errorf("%s: env %v = %s denied=%v (%s); want %s denied=%v", tc.name, tc.env, v.Tier, v.Denied, v.Reason, tc.tier, tc.deny)
		}
	}
}

func TestCriticalPath(t *testing.T) {
	yes := []string{"/", "//", "/.", "/..", "/./", "/bin/..", "/*", "/.*", "/etc", "/etc/", "/etc/*", "/usr/", "/usr/lib",
		"~", "~/", "~/*", "~root", "$HOME", "${HOME}/", "\"$HOME\"", "/e*", "/[eu]*", "/home/*", "../../../../.."}
	no := []string{"/tmp/x", "/srv/app/cache", "/etc/nginx/sites-enabled", "./build", "~/project/build", "$HOME/.cache/x", "", "relative"}
	for _, p := range yes {
		if !criticalPath(p) {
			t.Errorf("criticalPath(%q) = false, want true", p)
		}
	}
	for _, p := range no {
		if criticalPath(p) {
			t.Errorf("criticalPath(%q) = true, want false", p)
		}
	}
}

func TestSedScan(t *testing.T) {
	tests := []struct {
		script            string
		exec, write, read bool
	}{
		{"s/a/b/g", false, false, true},
		{"1,5p", false, false, true},
		{"/^#/d;s/x/y/", false, false, true},
		{"s/a/b/e", true, false, true},
		{"1e id", true, false, true},
		{"e", true, false, true},
		{"$!N; s/\\n/ /", false, false, true},
		{"w /tmp/out", false, true, true},
		{"s/a/b/w /tmp/out", false, true, true},
		{"s|/usr|/opt|g", false, false, true},
		{"/start/,/end/{ s/a/b/; p }", false, false, true},
		{"y/abc/xyz/", false, false, true},
		{"a\\hello", false, false, true},
		{"1~2d", false, false, true},
		{"s/a/b", false, false, false},
		{"k", false, false, false},
	}
	for _, tc := range tests {
		_, exec, write, ok := sedExec(tc.script)
		if exec != tc.exec || write != tc.write || ok != tc.read {
			t.Errorf("sedExec(%q) = exec %v write %v ok %v; want %v %v %v", tc.script, exec, write, ok, tc.exec, tc.write, tc.read)
		}
	}
}
