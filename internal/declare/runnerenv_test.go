package declare

import (
	"strings"
	"testing"
)

// TestRunnerOptionsReadNoEnv: a runner option other than docker's
// prepare_command is written into the sandbox program's command line
// (docker run --hostname=…, --user, the image, a mount's source, bwrap's
// --bind) or its profile, and env "NAME" printed warden's value there, in
// every spelling: plain, quoted, through a function or a variable. Such an
// option is refused when the file loads.
func TestRunnerOptionsReadNoEnv(t *testing.T) {
	spellings := []string{
		`{{ env "K" }}`,
		`{{ env "K" | quote }}`,
		`{{ env "K" | upper }}`,
		`{{ $k := env "K" }}{{ $k }}`,
		`{{ with env "K" }}{{ . }}{{ end }}`,
		`{{ if env "K" }}x{{ end }}`,
		`{{ range splitList "," (env "K") }}{{ . }}{{ end }}`,
		`x-{{ printf "%s" (env "K") }}`,
	}
	options := []struct{ runner, opts string }{
		{"docker", `{image: alpine, docker_run_opts: "--hostname %s"}`},
		{"docker", `{image: "alpine:%s"}`},
		{"docker", `{image: alpine, user: "%s"}`},
		{"docker", `{image: alpine, workdir: "/w/%s"}`},
		{"docker", `{image: alpine, network: "%s"}`},
		{"docker", `{image: alpine, memory: "%s"}`},
		{"docker", `{image: alpine, platform: "%s"}`},
		{"docker", `{image: alpine, mounts: ["/srv/%s:/x"]}`},
		{"docker", `{image: alpine, dns: ["%s"]}`},
		{"docker", `{image: alpine, cap_add: ["%s"]}`},
		{"bubblewrap", `{allow_read_folders: ["/srv/%s"]}`},
		{"bubblewrap", `{allow_write_files: ["/tmp/%s"]}`},
		{"landlock", `{allow_read_files: ["/srv/%s"]}`},
		{"firejail", `{custom_profile: "whitelist /srv/%s"}`},
		{"sandbox-exec", `{custom_profile: "(allow file-read* (subpath \"/srv/%s\"))"}`},
	}
	for _, o := range options {
		for _, sp := range spellings {
			opts := strings.Replace(o.opts, "%s", strings.ReplaceAll(sp, `"`, `\"`), 1)
			t.Run(o.runner+opts, func(t *testing.T) {
				y := "mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: echo ok\n        env: [K]\n        runners: [{name: " + o.runner + ", options: " + opts + "}]\n"
				_, _, err := Parse("f.yaml", []byte(y))
				if err == nil || !strings.Contains(err.Error(), "env is not available here") {
					t.Errorf("err = %v, want env refused", err)
				}
			})
		}
	}
	// prepare_command refers to the variable as run.command does, and
	// options without env load as before.
	for _, opts := range []string{
		`{image: alpine, prepare_command: "printf %s {{ env \"K\" }}"}`,
		`{image: alpine, user: "{{ .v }}", docker_run_opts: "--hostname {{ .v }}"}`,
	} {
		y := "mcp:\n  tools:\n    - name: t\n      description: d\n      params: {v: {type: string}}\n      run:\n        command: echo ok\n        env: [K]\n        runners: [{name: docker, options: " + opts + "}]\n"
		if _, _, err := Parse("f.yaml", []byte(y)); err != nil {
			t.Errorf("%s: %v", opts, err)
		}
	}
}
