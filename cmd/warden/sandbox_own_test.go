package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSandboxRunnersHideWardensOwnFiles runs declarative tools under the
// sandbox runners, which run outside warden's kernel confinement, and has
// them read warden's token, audit log and config file through every
// folder a tool may expose: an ancestor of the state dir given as a
// parameter or fixed by the operator, a symlink to the state dir or to one
// file in it, a folder holding the config file, read and write folders
// and files. No answer may carry what those files hold; benign files
// beside them must still read.
func TestSandboxRunnersHideWardensOwnFiles(t *testing.T) {
	const (
		token  = "TOKENMARKER-4b1e"
		conf   = "CONFMARKER-0d7c"
		benign = "BENIGN-sbx-9a2f"
		// The pattern never spells a marker, so no refusal that quotes
		// the command can carry one.
		pattern = "[T]OKENMARKER\\|[C]ONFMARKER\\|[B]ENIGN-sbx"
	)
	var runners []string
	for _, r := range []struct{ name, prog string }{{"bubblewrap", "bwrap"}, {"firejail", "firejail"}, {"landlock", ""}} {
		if r.prog != "" {
			if _, err := exec.LookPath(r.prog); err != nil {
				continue
			}
		}
		runners = append(runners, r.name)
	}
	env, state := wardenEnv(t)
	base := filepath.Dir(state)
	mkfile(t, filepath.Join(state, "token"), token+"\n", time.Now())
	// A benign file beside the state dir, in the folders above it.
	beside, err := os.CreateTemp(base, "benign-*.txt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(beside.Name()) })
	fmt.Fprintln(beside, benign)
	beside.Close()

	tmp := programDir(t)
	if err := os.Symlink(state, filepath.Join(tmp, "lnk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(state, "token"), filepath.Join(tmp, "lnkfile")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(tmp, "lnbase")); err != nil {
		t.Fatal(err)
	}
	confDir := filepath.Join(tmp, "cfg", "x", "etc")
	mkfile(t, filepath.Join(tmp, "srv", "app.conf"), benign+"\n", time.Now())

	var tools strings.Builder
	tools.WriteString("mcp:\n  tools:\n")
	for _, r := range runners {
		short := strings.ReplaceAll(r, "-", "_")
		fmt.Fprintf(&tools, `    - name: grep_dir_%[1]s
      description: search a folder
      params:
        dir: {type: string, required: true}
        pattern: {type: string, required: true}
      run:
        command: grep -r {{ .pattern }} {{ .dir }}
        runners:
          - name: %[2]s
            options:
              allow_read_folders: ["{{ .dir }}"]
    - name: grep_rw_%[1]s
      description: search a folder it may write
      params:
        dir: {type: string, required: true}
        pattern: {type: string, required: true}
      run:
        command: grep -r {{ .pattern }} {{ .dir }}
        runners:
          - name: %[2]s
            options:
              allow_write_folders: ["{{ .dir }}"]
    - name: cat_file_%[1]s
      description: print a file
      params:
        file: {type: string, required: true}
      run:
        command: cat {{ .file }}
        runners:
          - name: %[2]s
            options:
              allow_read_files: ["{{ .file }}"]
    - name: grep_fixed_%[1]s
      description: search the operator's folder
      params:
        pattern: {type: string, required: true}
      run:
        command: grep -r {{ .pattern }} %[3]s %[4]s
        runners:
          - name: %[2]s
            options:
              allow_read_folders: [%[3]s, %[4]s]
`, short, r, filepath.Dir(base), tmp)
	}
	// Beside the config: a tool file is warden's own, like the config.
	toolsFile := filepath.Join(confDir, "tools.yaml")
	mkfile(t, toolsFile, tools.String(), time.Now())
	cfgPath := filepath.Join(confDir, "warden.yaml")
	mkfile(t, cfgPath, "# "+conf+"\nmode: readonly\ntools: ["+toolsFile+"]\n", time.Now())
	env = append(env, "WARDEN_CONFIG="+cfgPath)
	s := startStdio(t, env, state, nil)

	type call struct {
		tool string
		args map[string]any
	}
	n, tried := 0, 0
	for _, r := range runners {
		short := strings.ReplaceAll(r, "-", "_")
		// A runner installed but unable to sandbox here (no user
		// namespaces, Landlock off) fails every call: nothing to show.
		res, _ := callTool(t, s.cs, "grep_dir_"+short, map[string]any{"dir": filepath.Join(tmp, "srv"), "pattern": pattern})
		if b, _ := json.Marshal(res); res.IsError || !strings.Contains(string(b), benign) {
			t.Logf("%s cannot run here: %.300s", r, b)
			continue
		}
		tried++
		var calls []call
		for _, dir := range []string{filepath.Dir(base), filepath.Join(tmp, "lnk"), filepath.Join(tmp, "lnbase"), confDir, tmp} {
			calls = append(calls,
				call{"grep_dir_" + short, map[string]any{"dir": dir, "pattern": pattern}},
				call{"grep_rw_" + short, map[string]any{"dir": dir, "pattern": pattern}},
			)
		}
		for _, f := range []string{filepath.Join(tmp, "lnkfile"), filepath.Join(tmp, "lnk/token"), filepath.Join(tmp, "lnbase", filepath.Base(state), "token")} {
			calls = append(calls, call{"cat_file_" + short, map[string]any{"file": f}})
		}
		calls = append(calls, call{"grep_fixed_" + short, map[string]any{"pattern": pattern}})
		for _, c := range calls {
			n++
			t.Run(fmt.Sprintf("%02d-%s", n, c.tool), func(t *testing.T) {
				res, _ := callTool(t, s.cs, c.tool, c.args)
				b, _ := json.Marshal(res)
				for _, m := range []string{token, conf} {
					if strings.Contains(string(b), m) {
						t.Errorf("%s %v: the answer carries warden's %q: %.600s", c.tool, c.args, m, b)
					}
				}
			})
		}
		// Benign files beside warden's own still read.
		for _, c := range []call{
			{"grep_dir_" + short, map[string]any{"dir": filepath.Dir(base), "pattern": pattern}},
			{"grep_dir_" + short, map[string]any{"dir": tmp, "pattern": pattern}},
			{"grep_rw_" + short, map[string]any{"dir": filepath.Join(tmp, "srv"), "pattern": pattern}},
			{"grep_fixed_" + short, map[string]any{"pattern": pattern}},
		} {
			res, _ := callTool(t, s.cs, c.tool, c.args)
			if b, _ := json.Marshal(res); !strings.Contains(string(b), benign) {
				t.Errorf("benign %s %v: %.600s", c.tool, c.args, b)
			}
		}
	}
	if tried == 0 {
		t.Skip("no sandbox runner works here")
	}
}
