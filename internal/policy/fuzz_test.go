package policy

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

// fuzzSeeds are shell texts that exercise every construct the classifier walks.
var fuzzSeeds = []string{
	"ls -la /var/log | grep err",
	"rm -rf /", "r\\m -rf /*", "{rm,-rf,/}", "$'\\x72eboot'", "X=reboot; $X",
	":(){ :|:& };:", "echo reboot | sh", "sh -c 'bash -c \"reboot\"'",
	"find / -exec rm -rf {} +", "git -c alias.x='!reboot' x", "awk 'BEGIN{system(\"id\")}'",
	"sed 's/a/b/e' f", "tar --checkpoint-action=exec=id -cf x .", "ssh -oProxyCommand=id h uptime",
	"cat <<EOF | sh\nreboot\nEOF", "for d in / /etc; do rm -rf $d; done", "f() { f | f & }",
	"echo ${x:-$(reboot)} $(( $(id) )) <(ls) >(cat)", "[[ -n $(id) ]] && (( x[$(id)] ))",
	"sudo -u root env -i LD_PRELOAD=x nice -n 1 timeout 5 xargs -I{} sh -c '{}'",
	"python3 -c 'import os; os.system(\"rm -rf /\")'", "case $x in a) reboot;; esac",
	"if true; then :; elif false; then reboot; else ls; fi", "coproc x { reboot; }",
	"docker exec web sh -c 'rm -rf /'", "ip netns exec n reboot", "echo x > /dev/sda",
	"'", "\"", "$(", "`", "((", "{", "<<", "\x00", "\r\n", "${!x[@]}",
	"x=\"$(echo $(pwd))\"; echo $x", "eval \"$(cat $(pwd)/job)\"",
}

func FuzzEvaluate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "", "")
	}
	f.Add("bash -s", "reboot\n", "")
	f.Add("uptime", "", "0xa9fea9fe")
	p := testPolicy(f)
	f.Fuzz(func(t *testing.T, command, stdin, host string) {
		start := time.Now()
		v := p.evaluate(Input{Command: command, Stdin: stdin, Host: host})
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Evaluate took %v for %d bytes", d, len(command))
		}
		if v.Tier < TierRead || v.Tier > TierDestructive {
			t.Errorf("tier %d out of range", v.Tier)
		}
		if v.Denied && v.Tier != TierDestructive {
			t.Errorf("denied verdict with tier %s", v.Tier)
		}
		if v.Reason == "" {
			t.Errorf("empty reason for %q", command)
		}
		// The same text as a script must be at least as strict.
		if w := p.evaluate(Input{Interpreter: "bash", Script: command, Stdin: stdin, Host: host}); w.Denied != v.Denied && command != "" {
			t.Errorf("Command and Script disagree on %q: %+v vs %+v", command, v, w)
		}
	})
}

func FuzzScanText(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("subprocess.run(['rm', '-rf', '/'])")
	f.Fuzz(func(t *testing.T, s string) {
		e := newEval(testPolicy(t))
		e.scanText(s)
		if e.denied && e.denyWhy == "" {
			t.Errorf("denied without a reason for %q", s)
		}
		// A deny found in the text is still found with text around it.
		if e.denied {
			e2 := newEval(testPolicy(t))
			e2.scanText("x\n" + s + "\ny")
			if !e2.denied {
				t.Errorf("scanText(%q) denied alone but not with surrounding lines", s)
			}
		}
	})
}

// TestScanTextForkBombs: the text backstop finds a self-copying function
// however the text around it is laid out: alone, after other lines (whose
// word a search reaching back across the line end could take for the
// name), and inside another function's body.
func TestScanTextForkBombs(t *testing.T) {
	for _, tc := range []struct {
		text string
		bomb bool
	}{
		{":(){ :|:& };:", true},
		{"x\n:(){ :|:& };:", true},
		{"import os\nos.system('f(){ f|f& };f')", true},
		{"x\n(){:(){:&}", true},
		{"f(){ g(){ g|g& }; g; }; f", true},
		{"f(){ echo f; }; f | cat &", false},
		{"g(){ echo f|cat; }; f(){ :; }", false},
	} {
		e := newEval(testPolicy(t))
		e.scanText(tc.text)
		if e.denied != tc.bomb {
			t.Errorf("scanText(%q): denied %v (%s), want %v", tc.text, e.denied, e.denyWhy, tc.bomb)
		}
	}
}

func FuzzDenyCheck(f *testing.F) {
	f.Add("rm", "-rf /")
	f.Add("dd", "if=/dev/zero of=/dev/sda")
	f.Add("kill", "-9 -1")
	f.Add("chmod", "-R 777 /")
	f.Add("systemctl", "--force reboot")
	f.Fuzz(func(t *testing.T, name, args string) {
		why := denyCheck(name, strings.Fields(args))
		if why != "" && !strings.Contains(why, ":") {
			t.Errorf("denyCheck(%q, %q) reason %q lacks the program", name, args, why)
		}
		// Adding a flag that only makes rm more forceful never un-denies it.
		if name == "rm" && why != "" && denyCheck("rm", append([]string{"-f"}, strings.Fields(args)...)) == "" {
			t.Errorf("rm %s denied but rm -f %s not", args, args)
		}
	})
}

func FuzzCanonicalHost(f *testing.F) {
	for _, s := range []string{"169.254.169.254", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376",
		"169.254.169.254.", "::ffff:169.254.169.254", "[::1]", "Example.COM.", "1.2.3", "64:ff9b::1.2.3.4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		c := CanonicalHost(h)
		if c2 := CanonicalHost(c); c2 != c {
			t.Errorf("CanonicalHost not idempotent: %q -> %q -> %q", h, c, c2)
		}
		if a, err := netip.ParseAddr(h); err == nil && a.Zone() == "" {
			if b, ok := parseAddr(c); !ok || b != unmap(a) {
				t.Errorf("CanonicalHost(%q) = %q, which is not the same address", h, c)
			}
		}
	})
}

// nestShell wraps s in n levels of sh -c "…".
func nestShell(s string, n int) string {
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
	for i := 0; i < n; i++ {
		s = `sh -c "` + esc.Replace(s) + `"`
	}
	return s
}

// TestBounded checks that pathological inputs classify quickly and fail
// closed.
func TestBounded(t *testing.T) {
	classifyOnly(t)
	const mib = 1 << 20
	// CPU time, not wall time: other processes on a busy machine do not
	// inflate it, while a blow-up in the classifier does.
	limit := 3 * time.Second // typically 0.1–0.5 s of CPU
	p := testPolicy(t)
	tests := []struct {
		name string
		in   Input
		tier Tier
	}{
		{"1 MiB of commands", cmd(strings.Repeat("ls -la /tmp | grep x\n", mib/21)), TierRead},
		{"1 MiB of open parens", cmd(strings.Repeat("(", mib)), TierDestructive},
		{"1 MiB of subst", cmd(strings.Repeat("$(", mib/2)), TierDestructive},
		{"1 MiB of backquotes", cmd(strings.Repeat("`", mib)), TierDestructive},
		{"1 MiB of arithmetic", cmd(strings.Repeat("$((", mib/3)), TierDestructive},
		{"1 MiB of braces", cmd(strings.Repeat("{a,b}", mib/5)), TierDestructive},
		{"brace bomb", cmd("echo " + strings.Repeat("{a,b,c,d}", 200)), TierRead},
		{"1 MiB of if", cmd(strings.Repeat("if ", mib/3)), TierDestructive},
		{"1 MiB and chain", cmd(strings.Repeat("true && ", mib/8) + "true"), TierRead},
		{"1 MiB pipeline", cmd(strings.Repeat("cat | ", mib/6) + "cat"), TierRead},
		{"nested sh -c", cmd(nestShell("ls", maxNest+2)), TierDestructive},
		{"nested sh -c within cap", cmd(nestShell("ls", 6)), TierRead},
		{"1 MiB single word", cmd(strings.Repeat("a", mib)), TierMutate},
		{"1 MiB python", Input{Interpreter: "python3", Script: strings.Repeat("print('rm -rf x')\n", mib/18)}, TierDestructive},
		{"1 MiB variables", cmd(strings.Repeat("x=$x$x; ", mib/8) + "$x"), TierDestructive},
		{"many function defs", cmd(strings.Repeat("f() { g; }; g() { f; }; ", mib/24)), TierDestructive},
		{"long elif chain", cmd("if a; then :; " + strings.Repeat("elif a; then :; ", 20000) + "fi"), TierMutate},
		{"4 MiB+ input", cmd(strings.Repeat("ls\n", 2*mib)), TierDestructive},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := cpuTime()
			v := p.Evaluate(tc.in)
			d := cpuTime() - start
			if d > limit {
				t.Errorf("took %v of CPU, want under %v", d, limit)
			}
			if v.Tier != tc.tier {
				t.Errorf("tier %s (%s), want %s", v.Tier, v.Reason, tc.tier)
			}
			t.Logf("%v, %s", d, v.Tier)
		})
	}
}
