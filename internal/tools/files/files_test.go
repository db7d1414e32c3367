package files

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/localhost"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner/local"
)

// tree builds, under a temp dir, an allowed root "data", a look-alike
// "data_evil", a secret outside, warden's state inside the root, and
// symlinks of every shape pointing out.
func tree(t *testing.T) (base string, d *Deps) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p, content string) {
		p = filepath.Join(base, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(base, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("data/ok.txt", "hello\n")
	mk("data/sub/deep.txt", "deep\n")
	mk("data/state/token", "SECRET-TOKEN")
	mk("data_evil/x.txt", "evil\n")
	mk("outside/secret.txt", "SECRET\n")
	ln("../outside/secret.txt", "data/rel-final")
	ln(filepath.Join(base, "outside/secret.txt"), "data/abs-final")
	ln("../outside", "data/rel-parent")
	ln(filepath.Join(base, "outside"), "data/abs-parent")
	ln("sub/deep.txt", "data/inside-link")
	ln("sub", "data/inside-dir")
	ln("state/token", "data/to-state")
	ln("../data_evil/x.txt", "data/to-lookalike")
	ln("loop-b", "data/loop-a")
	ln("loop-a", "data/loop-b")
	ln("missing/../../outside/secret.txt", "data/dangling-dotdot")
	pp, err := policy.NewPathPolicy(policy.PathRules{
		Allow:   []string{filepath.Join(base, "data")},
		Protect: ProtectPaths(filepath.Join(base, "data/state")),
	})
	if err != nil {
		t.Fatal(err)
	}
	run := local.New(local.Options{})
	lp, err := localhost.New(localhost.Options{Runner: run, Inspect: run})
	if err != nil {
		t.Fatal(err)
	}
	h := lp.Host()
	only := func(_ context.Context, name string) (*hosts.Host, error) {
		if !hosts.IsLocal(name) {
			return nil, fmt.Errorf("host %q: not in this test's inventory", name)
		}
		return h, nil
	}
	return base, &Deps{Paths: pp, Limits: DefaultLimits, Hosts: only}
}

// read runs read_file's plan and run steps and returns the outcome, or an
// invalid_argument outcome when the plan refused.
func read(t *testing.T, d *Deps, a ReadArgs) *relay.Outcome {
	t.Helper()
	p, err := d.planRead(context.Background(), nil, &a)
	if err != nil {
		return relay.Fail(relay.StatusInvalid, "%v", err)
	}
	return p.Run(context.Background())
}

func ok(o *relay.Outcome) bool { return o.Status == "" || o.Status == relay.StatusOK }

func TestReadConfinement(t *testing.T) {
	base, d := tree(t)
	data := filepath.Join(base, "data")
	tests := []struct {
		name, path string
		want       string // content when allowed; "" means refused
	}{
		{"plain", data + "/ok.txt", "hello\n"},
		{"dot-dot inside", data + "/sub/../ok.txt", "hello\n"},
		{"dot-dot out", data + "/../outside/secret.txt", ""},
		{"dot-dot many", data + "/sub/../../../../../etc/passwd", ""},
		{"relative", "data/ok.txt", ""},
		{"look-alike prefix", base + "/data_evil/x.txt", ""},
		{"relative final symlink out", data + "/rel-final", ""},
		{"absolute final symlink out", data + "/abs-final", ""},
		{"relative parent symlink out", data + "/rel-parent/secret.txt", ""},
		{"absolute parent symlink out", data + "/abs-parent/secret.txt", ""},
		{"symlink to look-alike", data + "/to-lookalike", ""},
		{"symlink inside", data + "/inside-link", "deep\n"},
		{"symlinked dir inside", data + "/inside-dir/deep.txt", "deep\n"},
		{"warden state directly", data + "/state/token", ""},
		{"warden state via symlink", data + "/to-state", ""},
		{"symlink loop", data + "/loop-a", ""},
		{"dangling link with dot-dot", data + "/dangling-dotdot", ""},
		{"non-existent", data + "/nope.txt", ""},
		{"NUL", data + "/ok.txt\x00", ""},
		{"newline", data + "/ok\n.txt", ""},
		{"directory", data + "/sub", ""},
		{"shell metacharacters are a name", data + "/a b;$(id)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := read(t, d, ReadArgs{Path: tt.path})
			if tt.want == "" {
				if ok(o) {
					t.Fatalf("read %q succeeded: %+v", tt.path, o.Result)
				}
				if r, _ := o.Result.(ReadResult); strings.Contains(r.Content, "SECRET") {
					t.Fatalf("refusal leaked content")
				}
				return
			}
			if !ok(o) {
				t.Fatalf("read %q: %s %s", tt.path, o.Status, o.Reason)
			}
			if got := o.Result.(ReadResult).Content; got != tt.want {
				t.Fatalf("read %q = %q; want %q", tt.path, got, tt.want)
			}
		})
	}
}

// TestSwappedSymlinkRace swaps a checked directory for a symlink out of
// the root between the check and the open: the no-follow walk refuses it.
func TestSwappedSymlinkRace(t *testing.T) {
	base, d := tree(t)
	data := filepath.Join(base, "data")
	if err := os.MkdirAll(data+"/swap", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data+"/swap/secret.txt", []byte("fine"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := d.planRead(context.Background(), nil, &ReadArgs{Path: data + "/swap/secret.txt"})
	if err != nil {
		t.Fatal(err)
	}
	// The plan has resolved and checked the path; now the attacker swaps
	// the directory for a link to the secret's directory.
	if err := os.RemoveAll(data + "/swap"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base+"/outside", data+"/swap"); err != nil {
		t.Fatal(err)
	}
	o := p.Run(context.Background())
	if ok(o) {
		t.Fatalf("read through a swapped-in symlink succeeded: %+v", o.Result)
	}
	if !strings.Contains(o.Reason, "symlink") && !strings.Contains(o.Reason, "not a directory") {
		t.Errorf("reason %q does not say the path changed", o.Reason)
	}
	// The same for the final component, and for a write.
	if err := os.WriteFile(data+"/final.txt", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	pw, err := d.planWrite(context.Background(), nil, &WriteArgs{Path: data + "/final.txt", Content: "pwned", Overwrite: true})
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(data + "/final.txt")
	if err := os.Symlink(base+"/outside/secret.txt", data+"/final.txt"); err != nil {
		t.Fatal(err)
	}
	if o := pw.Run(context.Background()); ok(o) {
		t.Fatalf("write through a swapped-in final symlink succeeded")
	}
	if b, _ := os.ReadFile(base + "/outside/secret.txt"); string(b) != "SECRET\n" {
		t.Fatalf("secret was changed to %q", b)
	}
}

// TestSwappedParentEveryTool swaps a directory the plan walked through —
// the parent, the grandparent, for an absolute or a relative link out of
// the root, or for a link to the look-alike root — after every tool's plan
// and before its run: each fails, and nothing outside the root is created
// or changed.
func TestSwappedParentEveryTool(t *testing.T) {
	type plan func(d *Deps, p string) (*relay.Plan, error)
	tools := map[string]plan{
		"read": func(d *Deps, p string) (*relay.Plan, error) {
			return d.planRead(context.Background(), nil, &ReadArgs{Path: p + "/f.txt"})
		},
		"list": func(d *Deps, p string) (*relay.Plan, error) {
			return d.planList(context.Background(), nil, &ListArgs{Path: p})
		},
		"write_new": func(d *Deps, p string) (*relay.Plan, error) {
			return d.planWrite(context.Background(), nil, &WriteArgs{Path: p + "/new.txt", Content: "pwned"})
		},
		"write_over": func(d *Deps, p string) (*relay.Plan, error) {
			return d.planWrite(context.Background(), nil, &WriteArgs{Path: p + "/f.txt", Content: "pwned", Overwrite: true})
		},
		"copy_to": func(d *Deps, p string) (*relay.Plan, error) {
			return d.planCopy(context.Background(), nil, &CopyArgs{From: filepath.Dir(filepath.Dir(filepath.Dir(p))) + "/ok.txt", To: p + "/f.txt", Overwrite: true})
		},
		"copy_from": func(d *Deps, p string) (*relay.Plan, error) {
			return d.planCopy(context.Background(), nil, &CopyArgs{From: p + "/f.txt", To: filepath.Dir(filepath.Dir(filepath.Dir(p))) + "/copied.txt"})
		},
	}
	for name, mk := range tools {
		for _, swap := range []struct{ at, target string }{
			{"a/b/c", "abs"}, {"a/b/c", "rel"}, {"a/b", "abs"}, {"a/b", "rel"}, {"a", "abs"}, {"a/b/c", "lookalike"},
		} {
			t.Run(name+"/"+swap.at+"/"+swap.target, func(t *testing.T) {
				base, d := tree(t)
				data := filepath.Join(base, "data")
				dir := filepath.Join(data, "a/b/c")
				os.MkdirAll(dir, 0o755)
				os.WriteFile(dir+"/f.txt", []byte("inside\n"), 0o644)
				os.MkdirAll(base+"/outside/b/c", 0o755)
				os.MkdirAll(base+"/data_evil/b/c", 0o755)
				for _, o := range []string{base + "/outside/b/c", base + "/data_evil/b/c"} {
					os.WriteFile(o+"/f.txt", []byte("SECRET\n"), 0o644)
				}
				p, err := mk(d, dir)
				if err != nil {
					t.Fatal(err)
				}
				swapped := filepath.Join(data, swap.at)
				os.RemoveAll(swapped)
				// Each link leads to a tree shaped like the rest of the
				// path, so only the walk's refusal can stop the call.
				target := map[string]string{
					"a/b/c abs": base + "/outside/b/c", "a/b/c rel": "../../../../outside/b/c",
					"a/b abs": base + "/outside/b", "a/b rel": "../../../outside/b",
					"a abs": base + "/outside", "a/b/c lookalike": "../../../../data_evil/b/c",
				}[swap.at+" "+swap.target]
				if err := os.Symlink(target, swapped); err != nil {
					t.Fatal(err)
				}
				if o := p.Run(context.Background()); ok(o) {
					t.Errorf("%s through %s swapped for a link to %s succeeded: %+v", name, swap.at, target, o.Result)
				}
				for _, o := range []string{base + "/outside/b/c", base + "/data_evil/b/c"} {
					if b, _ := os.ReadFile(o + "/f.txt"); string(b) != "SECRET\n" {
						t.Errorf("%s/f.txt changed to %q", o, b)
					}
					if _, err := os.Lstat(o + "/new.txt"); err == nil {
						t.Errorf("%s/new.txt was created", o)
					}
				}
			})
		}
	}
}

func TestReadBounds(t *testing.T) {
	base, d := tree(t)
	data := filepath.Join(base, "data")
	os.WriteFile(data+"/big.txt", []byte(strings.Repeat("é", 100)), 0o644) // 200 bytes
	o := read(t, d, ReadArgs{Path: data + "/big.txt", MaxBytes: 5})
	r := o.Result.(ReadResult)
	if !ok(o) || r.Encoding != "utf-8" || r.Content != "éé" || !r.Truncated || r.NextOffset != 4 {
		t.Fatalf("bounded read = %+v; want two runes cut on a rune boundary, truncated, next 4", r)
	}
	o = read(t, d, ReadArgs{Path: data + "/big.txt", Offset: 196})
	if r := o.Result.(ReadResult); r.Content != "éé" || r.Truncated {
		t.Fatalf("read at offset = %+v", r)
	}
	bin := []byte{0, 1, 2, 0xff, 0xfe, 'a'}
	os.WriteFile(data+"/bin", bin, 0o644)
	o = read(t, d, ReadArgs{Path: data + "/bin"})
	if r := o.Result.(ReadResult); r.Encoding != "base64" || r.Content != base64.StdEncoding.EncodeToString(bin) {
		t.Fatalf("binary read = %+v", r)
	}
	d.Limits.MaxReadBytes = 8
	o = read(t, d, ReadArgs{Path: data + "/big.txt", MaxBytes: 1 << 20})
	if r := o.Result.(ReadResult); r.Length > 8 {
		t.Fatalf("max_bytes raised the server cap: read %d bytes", r.Length)
	}
	if o := read(t, d, ReadArgs{Path: data + "/ok.txt", Offset: -1}); ok(o) {
		t.Fatal("negative offset accepted")
	}
}

func TestWriteFile(t *testing.T) {
	base, d := tree(t)
	data := filepath.Join(base, "data")
	write := func(a WriteArgs) *relay.Outcome {
		p, err := d.planWrite(context.Background(), nil, &a)
		if err != nil {
			return relay.Fail(relay.StatusInvalid, "%v", err)
		}
		return p.Run(context.Background())
	}
	if o := write(WriteArgs{Path: data + "/new.txt", Content: "one", Mode: "0600"}); !ok(o) || !o.Result.(WriteResult).Created {
		t.Fatalf("create: %s %s", o.Status, o.Reason)
	}
	st, _ := os.Stat(data + "/new.txt")
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %o; want 600", st.Mode().Perm())
	}
	if o := write(WriteArgs{Path: data + "/new.txt", Content: "two"}); ok(o) || !strings.Contains(o.Reason, "overwrite") {
		t.Fatalf("overwrite without overwrite=true: %s %s", o.Status, o.Reason)
	}
	if b, _ := os.ReadFile(data + "/new.txt"); string(b) != "one" {
		t.Fatalf("refused overwrite changed the file to %q", b)
	}
	if o := write(WriteArgs{Path: data + "/new.txt", Content: "dHdv", Encoding: "base64", Overwrite: true}); !ok(o) || o.Result.(WriteResult).Created {
		t.Fatalf("overwrite: %s %s", o.Status, o.Reason)
	}
	if b, _ := os.ReadFile(data + "/new.txt"); string(b) != "two" {
		t.Fatalf("content = %q; want two", b)
	}
	if st, _ := os.Stat(data + "/new.txt"); st.Mode().Perm() != 0o600 {
		t.Fatalf("overwrite lost the mode: %o", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(data)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".warden-") {
			t.Fatalf("temporary file %s left behind", e.Name())
		}
	}
	for name, a := range map[string]WriteArgs{
		"outside":          {Path: base + "/outside/new.txt", Content: "x"},
		"via parent link":  {Path: data + "/rel-parent/new.txt", Content: "x"},
		"via final link":   {Path: data + "/abs-final", Content: "x", Overwrite: true},
		"warden state":     {Path: data + "/state/token", Content: "x", Overwrite: true},
		"setuid mode":      {Path: data + "/suid", Content: "x", Mode: "4755"},
		"bad base64":       {Path: data + "/b", Content: "!!", Encoding: "base64"},
		"directory":        {Path: data + "/sub", Content: "x", Overwrite: true},
		"missing parent":   {Path: data + "/nope/x", Content: "x"},
		"look-alike root":  {Path: base + "/data_evil/y", Content: "x"},
		"invalid encoding": {Path: data + "/c", Content: "x", Encoding: "hex"},
	} {
		if o := write(a); ok(o) {
			t.Errorf("%s: write %s succeeded", name, a.Path)
		}
	}
	if b, _ := os.ReadFile(base + "/outside/secret.txt"); string(b) != "SECRET\n" {
		t.Fatalf("secret changed: %q", b)
	}
	if b, _ := os.ReadFile(data + "/state/token"); string(b) != "SECRET-TOKEN" {
		t.Fatalf("state changed: %q", b)
	}
}

func TestListAndStat(t *testing.T) {
	base, d := tree(t)
	data := filepath.Join(base, "data")
	p, err := d.planList(context.Background(), nil, &ListArgs{Path: data, MaxEntries: 3})
	if err != nil {
		t.Fatal(err)
	}
	o := p.Run(context.Background())
	r := o.Result.(ListResult)
	if len(r.Entries) != 3 || !r.Truncated || r.Entries[0].Name != "abs-final" || r.Entries[0].Type != hostfs.TypeSymlink || r.Entries[0].LinkTarget == "" {
		t.Fatalf("list = %+v", r)
	}
	if _, err := d.planList(context.Background(), nil, &ListArgs{Path: data + "/rel-parent"}); err == nil {
		t.Fatal("listing through a symlink out of the root was allowed")
	}
	ps, err := d.planStat(context.Background(), nil, &StatArgs{Path: data + "/inside-link"})
	if err != nil {
		t.Fatal(err)
	}
	s := ps.Run(context.Background()).Result.(StatResult)
	if !s.Exists || !s.Symlink || s.LinkTarget != "sub/deep.txt" || s.ResolvedPath != data+"/sub/deep.txt" || s.Type != hostfs.TypeFile || s.Size != 5 {
		t.Fatalf("stat of inside link = %+v", s)
	}
	ps, err = d.planStat(context.Background(), nil, &StatArgs{Path: data + "/not-yet"})
	if err != nil {
		t.Fatal(err)
	}
	if s := ps.Run(context.Background()).Result.(StatResult); s.Exists {
		t.Fatalf("stat of missing path = %+v", s)
	}
}

// A host the resolver does not know is refused before the call is planned,
// with the resolver's reason; nothing is read locally in its place.
func TestUnknownHostRefused(t *testing.T) {
	base, d := tree(t)
	_, err := d.planRead(context.Background(), nil, &ReadArgs{Path: base + "/data/ok.txt", Host: "nas"})
	if err == nil || !strings.Contains(err.Error(), `host "nas"`) {
		t.Fatalf("read on an unknown host: %v", err)
	}
}
