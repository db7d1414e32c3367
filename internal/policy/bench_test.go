package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// BenchmarkEvaluateTypical is one ordinary investigation command.
func BenchmarkEvaluateTypical(b *testing.B) {
	p := testPolicy(b)
	in := Input{Command: "journalctl -u nginx --since today | grep -i error | tail -50"}
	b.ReportAllocs()
	for b.Loop() {
		if v := p.Evaluate(in); v.Tier != TierRead {
			b.Fatal(v)
		}
	}
}

// BenchmarkEvaluateWrapped peels several wrappers and a payload.
func BenchmarkEvaluateWrapped(b *testing.B) {
	p := testPolicy(b)
	in := Input{Command: "sudo -u app env LANG=C timeout 30 nice -n 10 sh -c 'cd /srv/app && git status && docker ps'"}
	b.ReportAllocs()
	for b.Loop() {
		p.Evaluate(in)
	}
}

// benchReadOnly are ordinary read-only investigation snippets.
var benchReadOnly = []string{
	"ls -la /var/log | grep x\n",
	"cat /etc/hosts\n",
	"df -h\n",
	"ps aux | awk '{print $1}'\n",
	"echo \"$HOME\"\n",
	"set -eu\n",
	"for f in /var/log/*.log; do\n  if [ -s \"$f\" ]; then\n    grep -c error \"$f\" | awk '{ print $1 }' >/dev/null 2>&1 || true\n  fi\ndone\n",
	"df -h | sort -k5 -r | head -5\n",
	"systemctl is-active nginx && echo \"nginx: $(systemctl show -p MainPID nginx)\"\n",
	"case \"$(uname -s)\" in Linux) free -m ;; *) echo other ;; esac\n",
	"show() {\n  local name=\"$1\"\n  systemctl status \"$name\" --no-pager | head -20\n}\n",
	"i=0\nwhile [ \"$i\" -lt 3 ]; do\n  uptime; i=$((i + 1))\ndone\n",
	"if [[ -d /etc/nginx ]]; then find /etc/nginx -name '*.conf' | xargs grep -l server_name; elif test -f /etc/httpd/conf/httpd.conf; then cat /etc/httpd/conf/httpd.conf; else echo none; fi\n",
	"journalctl -u nginx --since today | grep -i error | tail -50\n",
	"du -sh /var/lib/* 2>/dev/null | sort -h | tail\n",
}

// benchMixed are snippets with mutations, here-documents, quoting and
// nested shells.
var benchMixed = []string{
	"mkdir -p /tmp/work\n",
	"show nginx\n",
	"cat > /tmp/work/notes.txt <<'EOF'\nplain text, $(not run) and `not run`\nEOF\n",
	"cat <<EOF >> /tmp/work/report\nhost: $(hostname) user: $USER\nEOF\n",
	"sed -i 's/foo/bar/g' /srv/app/config.ini\n",
	"cp /etc/nginx/nginx.conf /tmp/work/nginx.conf.bak\n",
	"sh -c 'cd /srv/app && git status && sh -c \"ls -la /srv/app | wc -l\"'\n",
	"bash -c \"echo 'quoted \\\"words\\\" here' | tr a-z A-Z\"\n",
	"systemctl restart nginx\n",
	"rm -f /tmp/work/*.tmp\n",
	"X=\"a b\"; printf '%s\\n' \"$X\" 'single $x' \"double \\$y\" $'ansi\\tc'\n",
	"docker exec web sh -c 'tail -n 50 /var/log/app.log'\n",
	"tar -czf /tmp/work/logs.tgz /var/log/nginx\n",
	"chown -R www-data: /srv/app/cache\n",
	"sudo -u app env LANG=C timeout 30 nice -n 10 sh -c 'cd /srv/app && git pull --ff-only'\n",
	"for svc in nginx php-fpm; do systemctl reload \"$svc\" || echo \"failed: $svc\" >&2; done\n",
	"ls /srv | while read -r d; do echo \"$d\"; done\n",
}

// benchLine are commands joined into one long line.
var benchLine = []string{
	"uptime", "df -h", "ls -la /var/log | grep x", "cat /etc/hosts", "echo \"$HOME\"",
	"ps aux | awk '{print $1}'", "free -m", "ip -br addr", "test -f /etc/os-release && cat /etc/os-release",
}

// repeatTo repeats the snippets in order, joined by sep, until the text
// is about n bytes.
func repeatTo(snips []string, sep string, n int) string {
	var b strings.Builder
	for b.Len() < n {
		for _, s := range snips {
			b.WriteString(s)
			b.WriteString(sep)
		}
	}
	return b.String()
}

// bench1MiB are realistic 1 MiB scripts and the tier each classifies at.
var bench1MiB = []struct {
	name   string
	script string
	tier   Tier
}{
	{"readonly", repeatTo(benchReadOnly, "", 1<<20), TierRead},
	// rm -f makes it tier 3; nothing in it is opaque or denied.
	{"mixed", repeatTo(append(append([]string(nil), benchReadOnly...), benchMixed...), "", 1<<20), TierDestructive},
	{"oneline", repeatTo(benchLine, "; ", 1<<20), TierRead},
	// One command runs text the classifier cannot see, so the whole
	// text is scanned and the files it names are looked up.
	{"opaque", repeatTo(append(append([]string(nil), benchReadOnly...), "eval \"$(systemctl show -p ExecStart nginx)\"\n"), "", 1<<20), TierDestructive},
}

// BenchmarkEvaluate1MiB classifies 1 MiB scripts: many short read-only
// commands, a mix with mutations, here-documents and nested shells, one
// long line of ;-separated commands, and the read-only commands with an
// eval of computed text among them.
func BenchmarkEvaluate1MiB(b *testing.B) {
	p := testPolicy(b)
	for _, bc := range bench1MiB {
		b.Run(bc.name, func(b *testing.B) {
			in := Input{Interpreter: "bash", Script: bc.script}
			timeRuns(b, len(in.Script), func() {
				// A verdict that gave up ("too large to classify") is
				// not the work this measures.
				if v := p.Evaluate(in); v.Tier != bc.tier || v.Denied || strings.Contains(v.Reason, "classify") {
					b.Fatal(v)
				}
			})
		})
	}
}

// BenchmarkParse1MiB only parses the scripts of BenchmarkEvaluate1MiB: the
// floor under classification, which cannot be faster than its parser.
func BenchmarkParse1MiB(b *testing.B) {
	for _, bc := range bench1MiB {
		b.Run(bc.name, func(b *testing.B) {
			timeRuns(b, len(bc.script), func() {
				if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(bc.script), ""); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// timeRuns runs f, the work on a script of size bytes, as b's loop, and
// reports the spread of its runs.
func timeRuns(b *testing.B, size int, f func()) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var times []time.Duration
	cpu := cpuTime()
	for b.Loop() {
		start := time.Now()
		f()
		times = append(times, time.Since(start))
	}
	reportSpread(b, times, cpuTime()-cpu)
}

// reportSpread adds what ns/op hides on a shared machine: the fastest and
// the median run, and the process's CPU time per run (the collector's
// included), which other people's load does not inflate.
func reportSpread(b *testing.B, times []time.Duration, cpu time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[0].Nanoseconds()), "min-ns")
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(len(times)), "cpu-ns/op")
	}
}

// BenchmarkEvaluateManyCds classifies 64 KiB of cd d1; cat f1; cd d2; …:
// every relative word is read against the directories the cds before it
// can make current, which must not cost a walk over every cd so far.
func BenchmarkEvaluateManyCds(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 64<<10; i++ {
		fmt.Fprintf(&sb, "cd d%d; cat f%d\n", i, i)
	}
	p := testPolicy(b)
	in := Input{Interpreter: "bash", Script: sb.String()}
	b.SetBytes(int64(len(in.Script)))
	for b.Loop() {
		p.Evaluate(in)
	}
}

// BenchmarkScope1MiB is the pre-pass over each parsed script of
// BenchmarkEvaluate1MiB, walked whole: the scope and the arithmetic facts.
func BenchmarkScope1MiB(b *testing.B) {
	for _, bc := range bench1MiB {
		b.Run(bc.name, func(b *testing.B) {
			f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(bc.script), "")
			if err != nil {
				b.Fatal(err)
			}
			timeRuns(b, len(bc.script), func() { newScope(f, len(bc.script)) })
		})
	}
}
