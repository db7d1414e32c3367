package main

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// TestComposeIsEphemeralAndHealthchecked reads deploy/compose.yaml as
// Compose would: the service exits when idle and is not restarted for it
// (only a crash restarts it), and its healthcheck, run for real against a
// serving warden, passes, and fails against a port nothing serves.
func TestComposeIsEphemeralAndHealthchecked(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Services map[string]struct {
			Command     []string `yaml:"command"`
			Restart     string   `yaml:"restart"`
			Healthcheck struct {
				Test []string `yaml:"test"`
			} `yaml:"healthcheck"`
			Environment map[string]string `yaml:"environment"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	svc, ok := f.Services["warden"]
	if !ok {
		t.Fatal("compose.yaml has no warden service")
	}
	if i := slices.Index(svc.Command, "--idle-exit"); i < 0 || i+1 >= len(svc.Command) {
		t.Errorf("command %q does not exit when idle", svc.Command)
	}
	if r := svc.Restart; r != "no" && r != "on-failure" && !strings.HasPrefix(r, "on-failure:") {
		t.Errorf("restart: %q restarts the relay after an idle exit", r)
	}
	if svc.Environment["WARDEN_HOST_NAMESPACE"] != "pid1" {
		t.Errorf("WARDEN_HOST_NAMESPACE = %q, want pid1", svc.Environment["WARDEN_HOST_NAMESPACE"])
	}
	test := svc.Healthcheck.Test
	if len(test) < 2 || test[0] != "CMD" || !strings.Contains(strings.Join(test, " "), "/healthz") {
		t.Fatalf("healthcheck %q does not ask /healthz", test)
	}

	env, state := wardenEnv(t)
	s := startHTTP(t, env, state)
	u, err := url.Parse(s.url)
	if err != nil {
		t.Fatal(err)
	}
	check := func(port string) error {
		argv := make([]string, len(test)-1)
		for i, a := range test[1:] {
			argv[i] = strings.ReplaceAll(a, "127.0.0.1/8787", "127.0.0.1/"+port)
		}
		out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
		if err != nil {
			t.Logf("healthcheck on port %s: %v %s", port, err, out)
		}
		return err
	}
	if err := check(u.Port()); err != nil {
		t.Errorf("the healthcheck fails against a serving warden: %v", err)
	}
	if err := check("1"); err == nil {
		t.Error("the healthcheck passes against a port nothing serves")
	}
}

// TestDeployExitsWhenIdle runs the command lines the systemd unit and the
// compose file ship — with the idle time shortened and a free loopback
// port — and shows the ephemeral shape they promise: warden exits by
// itself when idle, with status 0 (so Restart=on-failure and
// restart: on-failure leave it down), and leaves last_activity in its state
// dir saying it stopped, for a watchdog.
func TestDeployExitsWhenIdle(t *testing.T) {
	unit, err := os.ReadFile("../../deploy/warden.service")
	if err != nil {
		t.Fatal(err)
	}
	var execStart []string
	keys := map[string]string{}
	for _, l := range strings.Split(string(unit), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		switch k {
		case "ExecStart":
			execStart = strings.Fields(v)
		case "Environment":
			if ek, ev, ok := strings.Cut(v, "="); ok {
				keys["env:"+ek] = ev
			}
		default:
			keys[k] = v
		}
	}
	if r := keys["Restart"]; r != "on-failure" && r != "no" {
		t.Errorf("warden.service Restart=%s restarts warden after an idle exit", r)
	}
	if keys["env:WARDEN_STATE_DIR"] != "/var/lib/warden" {
		t.Errorf("warden.service state dir %q, want /var/lib/warden (where its comments say last_activity is)", keys["env:WARDEN_STATE_DIR"])
	}
	if len(execStart) < 2 || execStart[1] != "serve" {
		t.Fatalf("ExecStart %q", execStart)
	}

	raw, err := os.ReadFile("../../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Services map[string]struct {
			Command []string `yaml:"command"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}

	for name, args := range map[string][]string{"warden.service": execStart[1:], "compose.yaml": f.Services["warden"].Command} {
		t.Run(name, func(t *testing.T) {
			i := slices.Index(args, "--idle-exit")
			if i < 0 || i+1 >= len(args) {
				t.Fatalf("%q does not exit when idle", args)
			}
			run := slices.Clone(args)
			run[i+1] = "1s"
			for j, a := range run {
				if strings.HasSuffix(a, ":8787") {
					run[j] = "127.0.0.1:0"
				}
			}
			env, state := wardenEnv(t, "WARDEN_TOKEN=deploy-test-token-0123456789abcdef")
			cmd := execCommand(run, env)
			var out syncBuffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("the idle exit is not clean (%v): a restart policy on failure would restart it\n%s", err, out.String())
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("warden %q did not exit when idle\n%s", run, out.String())
			}
			b, err := os.ReadFile(filepath.Join(state, "last_activity"))
			if err != nil {
				t.Fatalf("no last_activity for a watchdog: %v", err)
			}
			var rec struct {
				State     string  `json:"state"`
				IdleExitS float64 `json:"idle_exit_s"`
			}
			if err := json.Unmarshal(b, &rec); err != nil || rec.State != "stopped" || rec.IdleExitS != 1 {
				t.Errorf("last_activity %s (%v), want state stopped and idle_exit_s 1", b, err)
			}
		})
	}
}
