package snapshot

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// execRunner is a minimal real runner for tests: argv straight to
// os/exec, never a shell.
type execRunner struct{}

var _ runner.Runner = execRunner{}

func (execRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, req.Argv[0], req.Argv[1:]...)
	cmd.Env = req.Env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	res := runner.Result{Stdout: out.Bytes(), Stderr: errb.Bytes(), Duration: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	default:
		return res, err
	}
	return res, nil
}

// recordingRunner remembers every argv it is asked to run and answers
// from a table keyed by the joined argv.
type recordingRunner struct {
	mu      sync.Mutex
	argvs   [][]string
	answers map[string]string
	next    runner.Runner
}

func (r *recordingRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	r.mu.Lock()
	r.argvs = append(r.argvs, slices.Clone(req.Argv))
	ans, ok := r.answers[strings.Join(req.Argv, " ")]
	r.mu.Unlock()
	if ok {
		return runner.Result{Stdout: []byte(ans)}, nil
	}
	if r.next != nil {
		return r.next.Run(ctx, req)
	}
	return runner.Result{ExitCode: 1, Stderr: []byte("not scripted")}, nil
}

func (r *recordingRunner) seen() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.argvs)
}

// writeFile writes content at root/rel, creating parents, with mtime t
// when t is not zero.
func writeFile(t testing.TB, root, rel, content string, mt time.Time) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if !mt.IsZero() {
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t testing.TB, target, at string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

func mustRun(t testing.TB, argv ...string) string {
	t.Helper()
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	return string(out)
}

// copyTree copies src to dst with cp -a, which keeps mtimes and symlinks
// as a real backup job would.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "cp", "-a", src, dst)
}

func newEngine(t testing.TB, cfg Config) *Engine {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// secret is written outside every snapshot root; no tool may ever return it.
const secret = "TOPSECRET-outside-the-snapshot"

// scenario is the shared history every source kind is built from:
// three snapshots s1, s2, s3 of a small tree. outside is a directory
// next to the snapshots holding the secret, which symlinks in s2 and s3
// point at in every way they can.
type scenario struct {
	names []string
	steps []func(t testing.TB, live string)
}

var (
	t0 = time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	t1 = t0.Add(24 * time.Hour)
	t2 = t1.Add(24 * time.Hour)
)

func newScenario(outside string) scenario {
	return scenario{
		names: []string{"s1", "s2", "s3"},
		steps: []func(t testing.TB, live string){
			func(t testing.TB, live string) {
				writeFile(t, live, "etc/app.conf", "port=80\nmode=prod\n", t0)
				writeFile(t, live, "etc/hosts", "127.0.0.1 localhost\n", t0)
				writeFile(t, live, "docs/readme.md", "hello readme, a file that will be renamed\n", t0)
				writeFile(t, live, "old.txt", "to be deleted\n", t0)
				writeFile(t, live, "keep/deep/file.txt", "deep\n", t0)
				writeFile(t, live, "big.bin", strings.Repeat("x", 100000), t0)
			},
			func(t testing.TB, live string) {
				writeFile(t, live, "etc/app.conf", "port=8080\nmode=prod\n", t1)
				if err := os.Remove(filepath.Join(live, "old.txt")); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(filepath.Join(live, "docs/readme.md"), filepath.Join(live, "docs/README.md")); err != nil {
					t.Fatal(err)
				}
				writeFile(t, live, "new.txt", "new file\n", t1)
				symlink(t, "../../../../../../../../"+strings.TrimPrefix(filepath.Join(outside, "secret.txt"), "/"), filepath.Join(live, "escape"))
				symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(live, "abslink"))
				symlink(t, "../../../../../../../../"+strings.TrimPrefix(outside, "/"), filepath.Join(live, "pdir"))
				symlink(t, outside, filepath.Join(live, "pabs"))
				symlink(t, "etc", filepath.Join(live, "inner"))
			},
			func(t testing.TB, live string) {
				// Same size as s2's, new mtime: only a content check tells.
				writeFile(t, live, "etc/app.conf", "port=8081\nmode=prod\n", t2)
				// Same content, new mtime: not a modification.
				if err := os.Chtimes(filepath.Join(live, "etc/hosts"), t2, t2); err != nil {
					t.Fatal(err)
				}
				writeFile(t, live, "etc/new.conf", "x=1\n", t2)
			},
		},
	}
}

func makeOutside(t testing.TB, dir string) string {
	t.Helper()
	outside := filepath.Join(dir, "outside")
	writeFile(t, outside, "secret.txt", secret+"\n", time.Time{})
	return outside
}
