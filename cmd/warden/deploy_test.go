package main

import (
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

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
