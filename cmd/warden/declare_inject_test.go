package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// and a run.
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
	env, _ := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfg)
	// Control: the fake docker runs the prepare command and the command.
	out, errOut, code := runWarden(t, env, "exe", "--tools="+tools, "prep_0", "name=hello")
	if code != 0 || !strings.Contains(out, "ran") {
		t.Fatalf("control: exit %d\n%s\n%s", code, out, errOut)
	}
	// Values arrive as written, however they read to a shell.
	for _, v := range []string{"a b", "it's", "$HOME", "-n", "x;y", `"q"`, "*"} {
		out, errOut, code := runWarden(t, env, "exe", "--tools="+tools, "prep_echo", "name="+v)
		if code != 0 || !strings.Contains(out, "["+v+"]") {
			t.Errorf("prep_echo %q: exit %d, want [%s] in\n%s\n%s", v, code, v, out, errOut)
		}
	}
	marks := t.TempDir()
	n := 0
	for i := range templates {
		for _, v := range injections {
			n++
			t.Run(fmt.Sprintf("%d/%q", i, v), func(t *testing.T) {
				m := filepath.Join(marks, fmt.Sprintf("m%d", n))
				out, errOut, code := runWarden(t, env, "exe", "--tools="+tools, fmt.Sprintf("prep_%d", i), "name="+strings.ReplaceAll(v, "M", m))
				if _, err := os.Stat(m); err == nil {
					t.Errorf("template %q with value %q ran a second command (exit %d)\n%s\n%s", templates[i], v, code, out, errOut)
				}
			})
		}
	}
}
