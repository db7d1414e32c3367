package policy

import (
	"strings"
	"testing"
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

// benchScript is a realistic 1 MiB shell script.
func benchScript() string {
	const chunk = `set -eu
for f in /var/log/*.log; do
  if [ -s "$f" ]; then
    grep -c error "$f" | awk '{ print $1 }' >/dev/null 2>&1 || true
  fi
done
df -h | sort -k5 -r | head -5
systemctl is-active nginx && echo "nginx: $(systemctl show -p MainPID nginx)"
case "$(uname -s)" in Linux) free -m ;; *) echo other ;; esac
`
	return strings.Repeat(chunk, (1<<20)/len(chunk))
}

// BenchmarkEvaluate1MiB classifies a 1 MiB script.
func BenchmarkEvaluate1MiB(b *testing.B) {
	p := testPolicy(b)
	in := Input{Interpreter: "bash", Script: benchScript()}
	b.SetBytes(int64(len(in.Script)))
	b.ReportAllocs()
	for b.Loop() {
		if v := p.Evaluate(in); v.Tier != TierRead {
			b.Fatal(v)
		}
	}
}
