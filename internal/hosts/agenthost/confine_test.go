package agenthost_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/runner"
)

// TestRemoteConfinement is the confinement suite's point on an agent
// host: programs that write although their words read as a read — the
// classifier's blind spots — are held by the remote kernel at the level
// the call was admitted at; approved work may write but never reaches the
// agent's own binary.
func TestRemoteConfinement(t *testing.T) {
	if st, err := confine.New(confine.Options{}, confine.Auto); err != nil || !st.Status().Active {
		t.Skip("no kernel confinement here")
	}
	r := newRig(t, agenthost.Required, nil)
	if _, err := r.run(t, "true"); err != nil {
		t.Fatal(err)
	}
	if h := r.host(t); !strings.Contains(h.Confinement, "landlock") {
		t.Fatalf("the agent host's confinement is %q, want landlock", h.Confinement)
	}
	runAt := func(level confine.Level, cmd string) runner.Result {
		t.Helper()
		ctx, cancel := context.WithTimeout(confine.With(context.Background(), confine.Admission{Level: level, Tool: "run_command"}), 60*time.Second)
		defer cancel()
		res, err := r.host(t).Runner.Run(ctx, runner.Request{Argv: []string{"/bin/sh", "-c", cmd}, Env: env})
		if err != nil {
			t.Fatalf("%s at %s: %v", cmd, level, err)
		}
		return res
	}
	blind := map[string]string{
		"redirect": "echo x > %s",
		"sort -o":  "sort -o %s /dev/null",
		"find":     "find /dev/null -fprint %s",
		"awk":      `awk 'BEGIN { print 1 > "%s" }'`,
		"dd":       "dd if=/dev/null of=%s status=none",
		"cp":       "cp /dev/null %s",
		"touch":    "touch %s",
		"mkdir":    "mkdir %s",
		"ln":       "ln -s /etc/passwd %s",
	}
	for _, level := range []confine.Level{confine.Read, confine.Temp} {
		for name, tmpl := range blind {
			target := filepath.Join(r.work, string(level)+"-"+strings.ReplaceAll(name, " ", ""))
			res := runAt(level, strings.ReplaceAll(tmpl, "%s", target))
			if _, err := os.Lstat(target); err == nil {
				t.Errorf("%s at %s created %s (exit %d)", name, level, target, res.ExitCode)
			}
		}
	}
	// Temp may write the temporary directories, Read may not.
	tmp := filepath.Join("/tmp", "warden-agent-temp-"+strings.ReplaceAll(t.Name(), "/", "-"))
	defer os.Remove(tmp)
	runAt(confine.Read, "touch "+tmp)
	if _, err := os.Lstat(tmp); err == nil {
		t.Error("a read-level program wrote /tmp")
	}
	if res := runAt(confine.Temp, "touch "+tmp); res.ExitCode != 0 {
		t.Errorf("a temp-level program could not write /tmp: %s", res.Stderr)
	}
	// Approved work writes where the login may, but not the agent's own
	// directory: the build there stays what warden verified.
	target := filepath.Join(r.work, "approved")
	if res := runAt(confine.Full, "touch "+target); res.ExitCode != 0 {
		t.Errorf("approved work could not write: %+v", res)
	}
	bin := r.cachedBinary(t)
	before := fileSum(t, bin)
	runAt(confine.Full, "cp /bin/true "+bin+"; touch "+filepath.Join(filepath.Dir(bin), "planted"))
	if fileSum(t, bin) != before {
		t.Error("approved work replaced the agent's binary")
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(bin), "planted")); err == nil {
		t.Error("approved work wrote into the agent's directory")
	}
	// Warden's typed probes run at Inspect on the far side too.
	ctx := confine.With(context.Background(), confine.Admission{Level: confine.Read, Tool: "system_info"})
	probe := filepath.Join(r.work, "probe")
	if res, err := r.host(t).Inspect.Run(ctx, runner.Request{Argv: []string{"/bin/sh", "-c", "touch " + probe + "; echo ran"}, Env: env}); err != nil || string(res.Stdout) != "ran\n" {
		t.Errorf("a probe: %+v %v", res, err)
	}
	if _, err := os.Lstat(probe); err == nil {
		t.Error("a probe at Inspect wrote a file")
	}
}
