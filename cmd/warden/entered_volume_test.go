package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hosts/hoststest"
)

// TestContainerShapeVolumeState: in the container shape the state dir is a
// volume, which the host holds under another path (compose's
// /var/lib/docker/volumes/…/_data). The kernel masks it there for every
// program; the file and snapshot tools, which read the host's tree as
// warden itself, must refuse it there too, in every spelling, while the
// host's other files still read.
func TestContainerShapeVolumeState(t *testing.T) {
	const token = "TOKENMARKER-vol-5a9d"
	hostnameFile := filepath.Join(t.TempDir(), "hostname")
	if err := os.WriteFile(hostnameFile, []byte("nas-vol\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pid1 := hoststest.Target(t, "nas-vol", map[string]string{hostnameFile: "/etc/hostname"})
	vol := newStateDir(t) // the volume's directory on the host
	mkfile(t, filepath.Join(vol, "token"), token+"\n", time.Now())
	beside := filepath.Join(filepath.Dir(vol), "benign-"+filepath.Base(vol)+".txt")
	mkfile(t, beside, "BENIGN-vol\n", time.Now())
	t.Cleanup(func() { os.Remove(beside) })
	links := t.TempDir()
	if err := os.Symlink(vol, filepath.Join(links, "state")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(vol), filepath.Join(links, "up")); err != nil {
		t.Fatal(err)
	}
	inside := fmt.Sprintf("/srv/warden-state-%d", os.Getpid())
	t.Cleanup(func() { os.Remove(inside) })
	cfg := writeFile(t, "mode: open\nsnapshots:\n  - name: host\n    kind: dir\n    path: "+t.TempDir()+"\n    live: /\n")
	env, _ := wardenEnv(t, "WARDEN_HOST_NAMESPACE=pid1", "WARDEN_CONFIG="+cfg)
	for i, e := range env {
		if strings.HasPrefix(e, "WARDEN_STATE_DIR=") {
			env[i] = "WARDEN_STATE_DIR=" + inside
		}
	}
	// The container: its own mount and UTS namespaces in the host's PID
	// namespace, the volume bound at the state dir.
	cmd := exec.Command("nsenter", "--target", strconv.Itoa(pid1), "--pid", "--",
		"unshare", "--mount", "--uts", "--fork", "--",
		"sh", "-c", `hostname warden-box && mount -t proc proc /proc && mkdir -p "$1" && mount --bind "$2" "$1" && exec "$0" serve`,
		wardenBin, inside, vol)
	cmd.Env = env
	cs, _ := connectCmd(t, cmd, nil)

	dir, base := filepath.Dir(vol), filepath.Base(vol)
	spellings := []string{
		vol + "/token", vol + "//token", vol + "/./token", dir + "//" + base + "/token", dir + "/./" + base + "/token",
		vol + "/../" + base + "/token", filepath.Join(links, "state", "token"), filepath.Join(links, "up", base, "token"),
		vol + "/audit.jsonl", vol + "/audit.jsonl.head",
	}
	type call struct {
		tool string
		args map[string]any
	}
	var calls []call
	for _, p := range spellings {
		calls = append(calls,
			call{"read_file", map[string]any{"path": p}},
			call{"stat_file", map[string]any{"path": p}},
			call{"copy_file", map[string]any{"from": p, "to": filepath.Join(t.TempDir(), "copy")}},
			call{"write_file", map[string]any{"path": p, "content": "x", "overwrite": true}},
			call{"snapshot_read_file", map[string]any{"dataset": "host", "snapshot": "@live", "path": strings.TrimPrefix(p, "/")}},
		)
	}
	for _, p := range []string{vol, vol + "/", filepath.Join(links, "state")} {
		calls = append(calls,
			call{"list_dir", map[string]any{"path": p}},
			call{"snapshot_list_dir", map[string]any{"dataset": "host", "snapshot": "@live", "path": strings.TrimPrefix(p, "/")}},
		)
	}
	calls = append(calls, call{"snapshot_grep", map[string]any{"dataset": "host", "snapshot": "@live", "path": strings.TrimPrefix(dir, "/"), "regex": "TOKENMARKER"}})
	for i, c := range calls {
		t.Run(fmt.Sprintf("%02d-%s", i, c.tool), func(t *testing.T) {
			res, got := callTool(t, cs, c.tool, c.args)
			b, _ := json.Marshal(res)
			if strings.Contains(string(b), token) {
				t.Errorf("%s %v: the answer carries warden's token: %.400s", c.tool, c.args, b)
			}
			if strings.HasSuffix(c.tool, "list_dir") && strings.Contains(string(b), "audit.jsonl") {
				t.Errorf("%s %v: lists warden's state: %.400s", c.tool, c.args, b)
			}
			if (c.tool == "write_file" || c.tool == "copy_file" || c.tool == "stat_file") && got["status"] == "ok" {
				if c.tool != "stat_file" || got["exists"] == true {
					t.Errorf("%s %v succeeded on warden's state: %.400s", c.tool, c.args, b)
				}
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(vol, "token")); err != nil || string(b) != token+"\n" {
		t.Errorf("the token on the volume changed: %q, %v", b, err)
	}
	// The host's other files still read, beside the volume too.
	for _, c := range []call{
		{"read_file", map[string]any{"path": "/etc/hostname"}},
		{"read_file", map[string]any{"path": beside}},
		{"snapshot_read_file", map[string]any{"dataset": "host", "snapshot": "@live", "path": strings.TrimPrefix(beside, "/")}},
	} {
		res, got := callTool(t, cs, c.tool, c.args)
		if got["status"] != "ok" {
			t.Errorf("benign %s %v: %s", c.tool, c.args, text(res))
		}
	}
}
