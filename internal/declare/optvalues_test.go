package declare

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/docker"
)

// optionTool parses one tool whose only runner has the given options
// (YAML flow mapping) and parameter v.
func optionTool(t *testing.T, runnerName, opts string) Choice {
	t.Helper()
	y := fmt.Sprintf("mcp:\n  tools:\n    - name: t\n      description: d\n      params: {v: {type: string}}\n      run:\n        command: echo ok\n        runners: [{name: %s, options: %s}]\n", runnerName, opts)
	f, _, err := Parse("f.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	c := testDeps().Choose(f.Tools[0])
	if c.Reason != "" {
		t.Skip(c.Reason)
	}
	return c
}

// TestDockerRunOptsValuesStayOneWord: docker_run_opts is split as shell
// words, and a value printed in it was split with the rest, so a value
// "x --read-only" for `--hostname {{ .v }}` added docker options of its
// own (any of RunOptsAllowed: --tmpfs over a directory, --memory, …).
// A value is now one word: the option's value, or refused.
func TestDockerRunOptsValuesStayOneWord(t *testing.T) {
	opts := []string{
		`{image: alpine, docker_run_opts: "--hostname {{ .v }}"}`,
		`{image: alpine, docker_run_opts: "--hostname={{ .v }}"}`,
		`{image: alpine, docker_run_opts: "--label k={{ .v }}"}`,
		`{image: alpine, docker_run_opts: "--label 'k={{ .v }}'"}`,
		`{image: alpine, docker_run_opts: "--label \"k={{ .v }}\""}`,
		`{image: alpine, docker_run_opts: "--label k={{ .v | quote }}"}`,
	}
	values := []string{
		"x --read-only",
		"x --tmpfs /etc",
		"x --memory=64g",
		"x\t--pids-limit=-1",
		"x\n--read-only",
		"x' --read-only '",
		`x" --read-only "`,
		`x\ --read-only`,
		"x --label=a --read-only",
	}
	for i, o := range opts {
		c := optionTool(t, "docker", o)
		for _, v := range values {
			t.Run(fmt.Sprintf("%d/%q", i, v), func(t *testing.T) {
				d := testDeps()
				p, err := d.Prepare(context.Background(), c, map[string]any{"v": v})
				if err != nil {
					return // refused: nothing runs
				}
				argv, _ := p.Runner.(*docker.Runner).Argv(runner.Request{Argv: []string{"echo"}})
				for _, w := range argv {
					if strings.HasPrefix(w, "--read-only") || strings.HasPrefix(w, "--tmpfs") || strings.HasPrefix(w, "--pids-limit") || (strings.HasPrefix(w, "--memory") && slices.Contains(argv, "--memory")) || strings.HasPrefix(w, "--label=a") {
						t.Errorf("options %s with value %q added %q: %q", o, v, w, argv)
					}
				}
			})
		}
	}
	// A plain value is still the option's value.
	c := optionTool(t, "docker", opts[0])
	p, err := testDeps().Prepare(context.Background(), c, map[string]any{"v": "build-7.local"})
	if err != nil {
		t.Fatal(err)
	}
	if argv, _ := p.Runner.(*docker.Runner).Argv(runner.Request{Argv: []string{"echo"}}); !slices.Contains(argv, "--hostname=build-7.local") {
		t.Errorf("argv = %q, want --hostname=build-7.local", argv)
	}
}

// TestProfileValuesStayOneValue: a custom_profile is text firejail reads
// line by line and sandbox-exec as S-expressions, and a value printed in
// it added lines or rules of its own ("/srv\nignore net" for `whitelist
// {{ .v }}`, `") (allow default) ("` in a Seatbelt string). Such values
// are refused; a path is not, nor anything printed quoted whole.
func TestProfileValuesStayOneValue(t *testing.T) {
	profiles := []string{
		`"whitelist {{ .v }}"`,
		`"whitelist {{ .v }}\n"`,
		`"(allow file-read* (subpath \"{{ .v }}\"))"`,
	}
	values := []string{
		"/srv\nignore net none",
		"/srv\r\nnoblacklist /var/lib/warden",
		"/srv\x0bignore seccomp",
		`/srv")) (allow default) (("`,
		"/srv) (allow network*",
		`/srv\") (allow default`,
		"/srv; comment",
	}
	for i, prof := range profiles {
		c := optionTool(t, "firejail", "{custom_profile: "+prof+"}")
		for _, v := range values {
			t.Run(fmt.Sprintf("%d/%q", i, v), func(t *testing.T) {
				if _, err := testDeps().Prepare(context.Background(), c, map[string]any{"v": v}); err == nil {
					t.Errorf("profile %s took the value %q", prof, v)
				}
			})
		}
	}
	for _, prof := range append(profiles, `"(allow file-read* (subpath {{ .v | quote }}))"`) {
		c := optionTool(t, "firejail", "{custom_profile: "+prof+"}")
		for _, v := range []string{"/srv/data", "/home/bob/My Files", "/opt/app-1.2_x"} {
			if _, err := testDeps().Prepare(context.Background(), c, map[string]any{"v": v}); err != nil {
				t.Errorf("profile %s refused the path %q: %v", prof, v, err)
			}
		}
	}
}

// TestPrepareCommandEnvRefs: env "NAME" in a docker prepare_command was
// printed as its value into the docker CLI's argv, which every local
// process may read; it is now a reference, as in run.command, the value in
// the environment the CLI passes into the container, and the policy still
// reads it.
func TestPrepareCommandEnvRefs(t *testing.T) {
	const key = "k3y-2c9e 'x' $(id)"
	for _, prep := range []string{
		`printf %s {{ env "K" }}`,
		`printf %s "k={{ env "K" }}"`,
		`K2={{ env "K" }}; export K2`,
		`printf %s {{ env "K" | quote }}`,
	} {
		t.Run(prep, func(t *testing.T) {
			y := "mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: echo ok\n        env: [K]\n        runners: [{name: docker, options: {image: alpine, prepare_command: " + quoteYAML(prep) + "}}]\n"
			f, _, err := Parse("f.yaml", []byte(y))
			if err != nil {
				t.Fatal(err)
			}
			d := testDeps()
			d.Getenv = func(k string) string { return map[string]string{"K": key}[k] }
			c := d.Choose(f.Tools[0])
			if c.Reason != "" {
				t.Skip(c.Reason)
			}
			p, err := d.Prepare(context.Background(), c, map[string]any{})
			if err != nil {
				t.Fatal(err)
			}
			argv, _ := p.Runner.(*docker.Runner).Argv(runner.Request{Argv: p.Argv, Env: p.Env})
			if strings.Contains(strings.Join(argv, " "), "k3y-2c9e") {
				t.Errorf("the docker CLI's argv holds the key: %q", argv)
			}
			if !slices.Contains(p.Env, "K="+key) || !slices.Contains(argv, "K") {
				t.Errorf("env %q, argv %q: the key does not reach the container", p.Env, argv)
			}
			if !strings.Contains(p.Policy.Command, "k3y-2c9e") {
				t.Errorf("the policy reads %q, without the value", p.Policy.Command)
			}
		})
	}
}
