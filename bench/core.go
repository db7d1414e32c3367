package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// auditRecord is a realistic run_command record, about 560 bytes a line.
func auditRecord(i int) audit.Record {
	code := 0
	return audit.Record{
		Identity:     "local:operator",
		Client:       "claude-code/2.1.0",
		Tool:         "run_command",
		Host:         "nas1",
		Tier:         0,
		Decision:     "allow",
		Reason:       "journalctl: read-only",
		Args:         json.RawMessage(`{"command":"journalctl -u smbd --since '1 hour ago' | tail -n 200","timeout_s":30}`),
		ExitCode:     &code,
		Status:       "ok",
		DurationMS:   int64(40 + i%100),
		OutputSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		OutputLen:    int64(4096 + i),
	}
}

// appendRate appends from workers goroutines for d and returns records/s.
func (e *env) appendRate(ctx context.Context, mode audit.SyncMode, workers int, d time.Duration) (float64, error) {
	l, err := audit.Open(audit.Options{Path: filepath.Join(e.dir("audit"), "audit.jsonl"), Sync: mode, RotateBytes: 64 << 20, Node: "bench"})
	if err != nil {
		return 0, err
	}
	defer l.Close()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		n     int
		first error
	)
	start := time.Now()
	deadline := start.Add(d)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			i := 0
			for ; time.Now().Before(deadline); i++ {
				if _, err := l.Append(ctx, auditRecord(w*1_000_000+i)); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
					return
				}
			}
			mu.Lock()
			n += i
			mu.Unlock()
		}()
	}
	wg.Wait()
	if first != nil {
		return 0, first
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// classifyInputs span what agents send, from a plain read to text the
// classifier must see through.
var classifyInputs = []struct{ name, command string }{
	{"`echo hi`", "echo hi"},
	{"a pipeline", "journalctl -u smbd --since '1 hour ago' | grep -i error | tail -n 200"},
	{"find -exec", `find /var/log -name '*.gz' -mtime +30 -exec rm -f {} \;`},
	{"wrappers and `sh -c`", `sudo -u bob env FOO=1 nice -n 5 timeout 10 sh -c 'cd /srv && tar czf /tmp/b.tgz data'`},
	{"subshells, `$(…)`, here-doc", "for f in $(ls /etc/*.conf); do (grep -c x \"$f\" || true); done; cat <<EOF > /tmp/x\n$(uname -a)\nEOF"},
}

// core is section 5: warden's own per-call costs, called directly.
func (e *env) core(ctx context.Context, floor dist) *table {
	t := &table{
		title: "Per-call costs inside warden: audit append and classification",
		cols:  []string{"measure", "rate", "per operation", "÷ fork/exec floor p50", "note"},
	}
	logf("core: audit append")
	d := time.Second
	for _, c := range []struct {
		mode    audit.SyncMode
		workers int
		name    string
	}{
		{audit.SyncNone, 1, "audit append, `sync: none` (default), 1 writer"},
		{audit.SyncNone, 32, "audit append, `sync: none`, 32 writers"},
		{audit.SyncGroup, 32, "audit append, `sync: group`, 32 writers"},
		{audit.SyncAlways, 1, "audit append, `sync: always`, 1 writer"},
	} {
		rate, err := e.appendRate(ctx, c.mode, c.workers, d)
		if err != nil {
			t.skip(c.name, err.Error())
			continue
		}
		per := time.Duration(float64(time.Second) / rate)
		t.row(c.name, count(rate)+" records/s", ms(per), fmt.Sprintf("%.3f", float64(per)/float64(floor.p50)), "hash-chained JSON line, one write(2)")
	}

	logf("core: classification")
	p, err := policy.New(policy.Rules{})
	if err != nil {
		t.skip("classification", err.Error())
		return t
	}
	for _, in := range classifyInputs {
		v := p.Evaluate(policy.Input{Command: in.command})
		n := 0
		start := time.Now()
		for time.Since(start) < 300*time.Millisecond {
			for range 100 {
				p.Evaluate(policy.Input{Command: in.command})
			}
			n += 100
		}
		per := time.Since(start) / time.Duration(n)
		verdict := v.Tier.String()
		if v.Denied {
			verdict += ", denied"
		}
		t.row("classify "+in.name, count(float64(time.Second)/float64(per))+"/s", ms(per), fmt.Sprintf("%.3f", float64(per)/float64(floor.p50)),
			fmt.Sprintf("%s, %s in open mode", verdict, policy.Admit(policy.Open, v)))
	}
	return t
}
