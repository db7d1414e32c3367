package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// injections are values an agent may give a declarative tool's parameter
// that would run a second command if the value were pasted into shell text
// instead of quoted for its place. M stands for the marker's path.
var injections = []string{
	"; touch M",
	"x;touch M",
	"$(touch M)",
	"`touch M`",
	"x\ntouch M",
	"x\rtouch M\n",
	"| touch M",
	"&& touch M",
	"|| touch M",
	"& touch M",
	"'; touch M; '",
	`"; touch M; "`,
	`\"; touch M; \"`,
	"x'$(touch M)'",
	"${IFS}$(touch M)",
	"$(touch${IFS}M)",
	"x > /dev/null; touch M",
	"'\ntouch M\n'",
}

// TestDeclarativeDockerPrepareInjection: a docker runner's prepare_command
// is shell text the container's /bin/sh runs before the command, but it was
// rendered as a plain template, so a parameter printed in it was pasted into
// the shell text unquoted: `echo {{ .name }}` with name "; touch M" ran
// touch. The runner's docker CLI is replaced here by one that runs what the
// container would run, on the host, so the marker shows what the container's
// shell ran; the mode is open, so only the quoting stands between a value
// and a run. One served warden takes every call: a process per call made
// this test take minutes.
func TestDeclarativeDockerPrepareInjection(t *testing.T) {
	dir := programDir(t)
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// docker run … -- IMAGE ARGV…: run ARGV here.
	fake := "#!/bin/sh\nwhile [ $# -gt 0 ] && [ \"$1\" != -- ]; do shift; done\nshift 2\nexec \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "docker"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	templates := []string{
		`echo {{ .name }} >/dev/null`,
		`echo "{{ .name }}" >/dev/null`,
		`echo '{{ .name }}' >/dev/null`,
		`echo x{{ .name }}y >/dev/null`,
		`echo {{ .name | quote }} >/dev/null`,
		`echo {{ .name | squote }} >/dev/null`,
		`echo {{ .name | upper | lower }} >/dev/null`,
		`echo {{ printf "%s" .name }} >/dev/null`,
		`X={{ .name }}; echo "$X" >/dev/null`,
		"cat >/dev/null <<EOF\n{{ .name }}\nEOF",
	}
	var tdef strings.Builder
	tdef.WriteString("mcp:\n  tools:\n")
	tdef.WriteString("    - name: prep_echo\n      description: d\n      params:\n        name: {type: string}\n      run:\n        command: echo ran\n        runners:\n          - name: docker\n            options:\n              image: alpine\n              prepare_command: \"printf '[%s]' {{ .name }}\"\n")
	for i, tm := range templates {
		fmt.Fprintf(&tdef, "    - name: prep_%d\n      description: d\n      params:\n        name: {type: string}\n      run:\n        command: echo ran\n        runners:\n          - name: docker\n            options:\n              image: alpine\n              prepare_command: %q\n", i, tm)
	}
	tools := filepath.Join(dir, "tools.yaml")
	cfg := filepath.Join(dir, "warden.yaml")
	for p, body := range map[string]string{tools: tdef.String(), cfg: "exec:\n  path: " + bin + ":/usr/bin:/bin\n"} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfg)
	cs := startStdio(t, env, state, nil, "--tools", tools).cs
	// Control: the fake docker runs the prepare command and the command.
	if out := callText(t, cs, "prep_0", map[string]any{"name": "hello"}); !strings.Contains(out, "ran") {
		t.Fatalf("control: %s", out)
	}
	// Values arrive as written, however they read to a shell.
	for _, v := range []string{"a b", "it's", "$HOME", "-n", "x;y", `"q"`, "*"} {
		if out := callText(t, cs, "prep_echo", map[string]any{"name": v}); !strings.Contains(out, "["+v+"]") {
			t.Errorf("prep_echo %q: want [%s] in\n%s", v, v, out)
		}
	}
	marks := t.TempDir()
	n := 0
	for i := range templates {
		for _, v := range injections {
			n++
			t.Run(fmt.Sprintf("%d/%q", i, v), func(t *testing.T) {
				m := filepath.Join(marks, fmt.Sprintf("m%d", n))
				out := callText(t, cs, fmt.Sprintf("prep_%d", i), map[string]any{"name": strings.ReplaceAll(v, "M", m)})
				if _, err := os.Stat(m); err == nil {
					t.Errorf("template %q with value %q ran a second command\n%s", templates[i], v, out)
				}
			})
		}
	}
}

// callText calls a tool and returns what it showed, whatever its outcome:
// a refused call's reason, a failed one's output.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: protocol error %v", name, err)
	}
	return text(res)
}
