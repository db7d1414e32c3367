package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestToolFilesOutOfReach: the declarative tool files warden loads
// (tools: in the config, --tools, a file or a directory of them) are its
// configuration as the config file is, and may hold secrets the operator
// gave a tool (run.env NAME=VALUE). No child reads them, in any spelling,
// a repository's hook included, nor do the file tools, nor read their
// copies beside them; as root and as another user.
func TestToolFilesOutOfReach(t *testing.T) {
	asRootAndNobody(t, toolFilesOutOfReach)
}

func toolFilesOutOfReach(t *testing.T, nobody bool) {
	const secret = "canary-8e3a-tool-file-secret"
	dir := programDir(t)
	tool := func(name string) string {
		return "mcp:\n  tools:\n    - name: " + name + "\n      description: d\n      tier: 0\n      run:\n        command: 'true'\n        env: [\"API_TOKEN=" + secret + "\"]\n"
	}
	// One file named by the config, one directory of files.
	conf := filepath.Join(dir, "conf")
	toolsDir := filepath.Join(dir, "tools.d")
	for _, d := range []string{conf, toolsDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(conf, "tools.yaml")
	cfg := filepath.Join(dir, "warden.yaml")
	// Copies beside them hold the same: an operator's .bak of the file,
	// and of the directory.
	copies := []string{file + ".bak", toolsDir + ".old/a.yaml"}
	if err := os.MkdirAll(toolsDir+".old", 0o755); err != nil {
		t.Fatal(err)
	}
	for p, body := range map[string]string{
		file:                              tool("from_file"),
		filepath.Join(toolsDir, "a.yaml"): tool("from_dir"),
		copies[0]:                         tool("copy"),
		copies[1]:                         tool("copy"),
		cfg:                               "tools: [" + file + ", " + toolsDir + "]\n",
	} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(repo, 0o755)
	hook := filepath.Join(dir, "hook.sh")
	// The files are named from where the hook is, known only when it
	// runs: the classifier reads a hook written since warden started and
	// would refuse one that names them, and here the kernel must hold.
	if err := os.WriteFile(hook, []byte("d=$(dirname \"$0\"); echo HOOK-RAN; cat \"$d\"/conf/tools.yaml \"$d\"/tools.d/*\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		gitIn(t, dir, repo, args...)
	}
	git("init", "-q")
	git("config", "core.fsmonitor", "sh "+hook+" >&2")
	if nobody && unix.Geteuid() == 0 {
		filepath.Walk(repo, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, 65534, 65534) })
	}
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "WARDEN_CONFIG="+cfg, "SHELL=/bin/sh")
	cs := startConfined(t, env, state, nobody)
	if res, got := callTool(t, cs, "from_dir", nil); got["status"] != "ok" {
		t.Fatalf("the tools did not load: %v %s", got, text(res))
	}
	// An editor's swap file, made once warden runs.
	swap := filepath.Join(conf, ".tools.yaml.swp")
	if err := os.WriteFile(swap, []byte(tool("swap")), 0o644); err != nil {
		t.Fatal(err)
	}
	copies = append(copies, swap)
	hidden := func(s string) string {
		return "eval \"$(echo " + base64.StdEncoding.EncodeToString([]byte(s)) + " | base64 -d)\""
	}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"cat", map[string]any{"command": "cat " + file + " " + toolsDir + "/a.yaml"}},
		{"glob", map[string]any{"command": "cat " + dir + "/c*/t*.yaml " + dir + "/tools.d/*"}},
		{"relative", map[string]any{"command": "cat tools.yaml ../tools.d/a.yaml", "cwd": conf}},
		{"dotdot", map[string]any{"command": "cat " + conf + "/../conf/./tools.yaml"}},
		{"proc-root", map[string]any{"command": "cat /proc/self/root" + file}},
		{"grep", map[string]any{"command": "grep -r canary " + dir}},
		{"hidden", map[string]any{"command": hidden("cat " + file + " " + toolsDir + "/a.yaml")}},
		{"hidden-cp", map[string]any{"command": hidden("cp " + file + " /tmp/wt-$$ && cat /tmp/wt-$$; rm -f /tmp/wt-$$")}},
		{"hook", map[string]any{"command": "git status", "cwd": repo}},
		{"copies", map[string]any{"command": "cat " + strings.Join(copies, " ")}},
		{"copies-glob", map[string]any{"command": "cat " + conf + "/.t* " + dir + "/*/a.yaml"}},
		{"copies-hidden", map[string]any{"command": hidden("cat " + strings.Join(copies, " "))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, got := callApproved(t, cs, "run_command", c.args)
			if c.name == "hook" && !strings.Contains(text(res), "HOOK-RAN") {
				t.Errorf("the repository's hook did not run, so this shows nothing: %s", text(res))
			}
			if strings.Contains(text(res), secret) {
				t.Errorf("%v read a tool file's secret (%v):\n%s", c.args, got["status"], text(res))
			}
		})
	}
	for _, p := range append([]string{file, toolsDir + "/a.yaml"}, copies...) {
		t.Run("read_file "+filepath.Base(p), func(t *testing.T) {
			res, got := callTool(t, cs, "read_file", map[string]any{"path": p})
			if got["status"] == "ok" || strings.Contains(text(res), secret) {
				t.Errorf("read_file %s: %v %s", p, got["status"], text(res))
			}
		})
	}
}
