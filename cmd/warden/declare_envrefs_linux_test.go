package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestDeclarativeEnvOffCommandLine: a declarative tool's command that
// reads warden's environment ({{ env "NAME" }}) once held the value in
// its text, the program's command line, which every local process may read
// (/proc/PID/cmdline, ps) whatever its confinement: a plain ps in a read
// showed the key. The command now refers to the variable, the value in
// the program's environment; in every quoting context the program still
// gets the value exactly (its digest is checked), and no reader running
// meanwhile sees it.
func TestDeclarativeEnvOffCommandLine(t *testing.T) {
	asRootAndNobody(t, envOffCommandLine)
}

// envContexts print the key in each place a template can put it; want is
// what the program then prints of it (KEY stands for the key).
var envContexts = []struct{ name, cmd, want string }{
	{"arg", `printf %s {{ env "API_KEY" }}`, "KEY"},
	{"word", `printf %s k={{ env "API_KEY" }}`, "k=KEY"},
	{"double", `printf %s "k={{ env "API_KEY" }}"`, "k=KEY"},
	{"single", `printf %s 'k={{ env "API_KEY" }}'`, "k=KEY"},
	{"dollar-single", `printf %s $'k\t{{ env "API_KEY" }}'`, "k\tKEY"},
	{"heredoc", "cat <<EOF\nk={{ env \"API_KEY\" }}\nEOF", "k=KEY\n"},
	{"param-word", `printf %s ${WARDEN_T_UNSET:-{{ env "API_KEY" }}}`, "KEY"},
	{"param-word-dq", `printf %s "${WARDEN_T_UNSET:-{{ env "API_KEY" }}}"`, "KEY"},
	{"assignment", `k={{ env "API_KEY" }}; printf %s "$k"`, "KEY"},
	{"option", `printf %s --key={{ env "API_KEY" }}`, "--key=KEY"},
	{"subst", `printf %s "$(printf %s {{ env "API_KEY" }})"`, "KEY"},
	{"passthrough", `printf %s {{ env "OTHER_KEY" }}`, "KEY"},
	{"twice", `printf %s {{ env "API_KEY" }}/{{ env "API_KEY" }}`, "KEY/KEY"},
	{"quote", `printf %s {{ env "API_KEY" | quote }}`, "KEY"},
	{"squote-double", `printf %s "k={{ env "API_KEY" | squote }}"`, "k=KEY"},
}

func envOffCommandLine(t *testing.T, nobody bool) {
	dir := programDir(t)
	// Shell text in the key: the reference must keep it one literal word.
	const key = `canary-2b7e-key 'q' "d" $(id) ` + "`x` \\ $HOME *"
	tools := filepath.Join(dir, "tools.yaml")
	var tdef strings.Builder
	tdef.WriteString("mcp:\n  run:\n    shell: bash\n  tools:\n") // bash has $'…'
	for i, c := range envContexts {
		cmd := fmt.Sprintf("sleep 2.%03d\n{ ", 600+i) + c.cmd + "\n} | sha256sum"
		fmt.Fprintf(&tdef, "    - name: env_%d\n      description: d\n      tier: 0\n      run:\n        command: %q\n        env: [API_KEY]\n", i, cmd)
	}
	cfg := filepath.Join(dir, "warden.yaml")
	for p, body := range map[string]string{tools: tdef.String(), cfg: "tools: [" + tools + "]\nexec:\n  env_passthrough: [OTHER_KEY]\n"} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, state := wardenEnv(t, "WARDEN_MODE=readonly", "WARDEN_CONFIG="+cfg, "API_KEY="+key, "OTHER_KEY="+key, "SHELL=/bin/sh")
	cs := startConfined(t, env, state, nobody)
	outs := make([]string, len(envContexts))
	var wg sync.WaitGroup
	for i := range envContexts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, got := callTool(t, cs, fmt.Sprintf("env_%d", i), nil)
			outs[i] = fmt.Sprintf("%v %s", got["status"], text(res))
		}()
	}
	var seen strings.Builder
	for _, read := range []string{
		"sleep 1; ps -eo args",
		"ps auxww",
		"pgrep -af sleep",
		"cat /proc/[0-9]*/cmdline | tr '\\0' ' '",
		"for p in $(pgrep sh); do tr '\\0' ' ' < /proc/$p/cmdline; echo; done",
	} {
		res, got := callTool(t, cs, "run_command", map[string]any{"command": read})
		fmt.Fprintf(&seen, "== %s (%v)\n%s\n", read, got["status"], text(res))
	}
	wg.Wait()
	for i, c := range envContexts {
		t.Run(c.name, func(t *testing.T) {
			// Every line a reader printed of this tool's programs.
			mark := fmt.Sprintf("sleep 2.%03d", 600+i)
			var lines []string
			for _, l := range strings.Split(seen.String(), "\n") {
				if strings.Contains(l, mark) && !strings.Contains(l, "== ") {
					lines = append(lines, l)
				}
			}
			if len(lines) == 0 {
				t.Fatalf("no reader saw the tool running, so this shows nothing:\n%s", seen.String())
			}
			if l := strings.Join(lines, "\n"); strings.Contains(l, "canary-2b7e") {
				t.Errorf("a read saw the key on the tool's command line:\n%s", l)
			}
			sum := fmt.Sprintf("%x", sha256.Sum256([]byte(strings.ReplaceAll(c.want, "KEY", key))))
			if !strings.HasPrefix(outs[i], "ok") || !strings.Contains(outs[i], sum) {
				t.Errorf("the program did not get the key as written: %s", outs[i])
			}
			if strings.Contains(outs[i], "canary-2b7e") {
				t.Errorf("the result shows the key: %s", outs[i])
			}
		})
	}
}
