package packs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/shellword"
)

// Detector finds which packs a host runs and remembers the answer per
// host until Forget (an inventory reload). Detection runs one POSIX shell
// script of every pack's probe, in bounded time; a host that cannot be
// reached is not remembered, so the next call tries again.
type Detector struct {
	packs   []*Pack
	timeout time.Duration
	env     []string

	mu    sync.Mutex
	cache map[string][]string
}

// NewDetector returns a Detector for packs; timeout bounds one detection.
func NewDetector(packs []*Pack, env []string, timeout time.Duration) *Detector {
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	return &Detector{packs: packs, timeout: timeout, env: env, cache: map[string][]string{}}
}

// Forget drops every remembered answer: the inventory changed, and a name
// may now be another machine.
func (d *Detector) Forget() {
	d.mu.Lock()
	d.cache = map[string][]string{}
	d.mu.Unlock()
}

// Known returns the packs detected on host and whether it has been probed,
// without contacting it.
func (d *Detector) Known(host string) ([]string, bool) {
	if host == "" {
		host = "local"
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.cache[host]
	return append([]string(nil), p...), ok
}

// marker separates the probes' outputs in the detection script's output.
const marker = "@@warden-pack"

// Script is the detection script: each pack's probe, its output framed by
// markers with its exit status. The probes are the packs' own constants,
// quoted once; nothing of a call's arguments is in it.
func (d *Detector) Script() string {
	var b strings.Builder
	for _, p := range d.packs {
		fmt.Fprintf(&b, "echo '%s %s'; %s 2>/dev/null; echo \"%s rc $?\"\n", marker, p.Name, shellword.Join(p.Detect.Argv), marker)
	}
	return b.String()
}

// Argv is how the detection script runs.
func (d *Detector) Argv() []string { return []string{"sh", "-c", d.Script()} }

// Detect returns the packs host t runs, probing it once per inventory.
func (d *Detector) Detect(ctx context.Context, t *hosts.Host) ([]string, error) {
	if p, ok := d.Known(t.Name); ok {
		return p, nil
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	res, err := t.Inspect.Run(ctx, runner.Request{Argv: d.Argv(), Env: d.env, Timeout: d.timeout, MaxBytes: 256 << 10})
	if err != nil {
		return nil, fmt.Errorf("detect packs on %s: %w", t.Name, err)
	}
	if res.TimedOut || res.Canceled {
		return nil, fmt.Errorf("detect packs on %s: no answer within %s", t.Name, d.timeout)
	}
	found := d.match(string(res.Stdout))
	d.mu.Lock()
	d.cache[t.Name] = found
	d.mu.Unlock()
	return found, nil
}

// match reads the detection script's output.
func (d *Detector) match(out string) []string {
	sections := map[string]string{}
	codes := map[string]int{}
	cur := ""
	var body strings.Builder
	for _, line := range strings.SplitAfter(out, "\n") {
		l := strings.TrimRight(line, "\n")
		if rest, ok := strings.CutPrefix(l, marker+" "); ok {
			if code, ok := strings.CutPrefix(rest, "rc "); ok && cur != "" {
				sections[cur] = body.String()
				codes[cur], _ = strconv.Atoi(code)
				cur = ""
				continue
			}
			cur = rest
			body.Reset()
			continue
		}
		if cur != "" {
			body.WriteString(line)
		}
	}
	found := []string{}
	for _, p := range d.packs {
		s, ok := sections[p.Name]
		if ok && codes[p.Name] == 0 && p.Detect.re.MatchString(s) {
			found = append(found, p.Name)
		}
	}
	return found
}
