package config

import (
	"regexp"
	"strings"
	"testing"
)

// TestEveryProblemAtOnce: one read reports the file's shape problems and
// its values' problems together, in line order, each with file, line and
// the dotted key path.
func TestEveryProblemAtOnce(t *testing.T) {
	yml := `mode: yolo
exec:
  default_timeout: 5 minutes
  max_bytes: lots
hosts:
  - name: a
  - name: b
  - name: c
    port: 70000
  - name: d
    adress: 10.0.0.4
polcy:
  deny: []
`
	_, err := read(t, yml, nil)
	if err == nil {
		t.Fatal("got no error")
	}
	want := []string{
		`test.yaml:1: mode: "yolo" is not one of readonly, guarded, open`,
		`test.yaml:3: exec.default_timeout: "5 minutes" is not a duration; write a number with a unit, like 60s, 5m or 1h30m`,
		`test.yaml:4: exec.max_bytes: "lots" is not a whole number`,
		`test.yaml:9: hosts[2].port: 70000 is not a port from 1 to 65535 (0 or unset: 22, or ssh_config's)`,
		`test.yaml:11: hosts[3].adress: unknown key; did you mean "address"?`,
		`test.yaml:12: polcy: unknown key; did you mean "policy"?`,
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProblemMessages pins the wording of each kind of problem.
func TestProblemMessages(t *testing.T) {
	tests := []struct {
		name, yml string
		env       map[string]string
		want      string
	}{
		{"unknown key, near", "http:\n  adr: 127.0.0.1:1\n", nil, `test.yaml:2: http.adr: unknown key; did you mean "addr"?`},
		{"unknown key, far", "sessions:\n  zzzzzz: 1\n", nil, `test.yaml:2: sessions.zzzzzz: unknown key; the keys here are idle_timeout, max, max_lifetime, max_recording_bytes, ring_bytes`},
		{"duration without unit", "ssh:\n  connect_timeout: 10\n", nil, `test.yaml:2: ssh.connect_timeout: "10" is not a duration; write a number with a unit, like 60s, 5m or 1h30m`},
		{"duration as list", "idle_exit: [1s]\n", nil, `test.yaml:1: idle_exit: must be a duration like 60s or 5m, not a list`},
		{"integer as float", "sessions:\n  max: 1.5\n", nil, `test.yaml:2: sessions.max: "1.5" is not a whole number`},
		{"number", "http:\n  rate_per_source: fast\n", nil, `test.yaml:2: http.rate_per_source: "fast" is not a number`},
		{"bool", "http:\n  allow_non_loopback: yes\n", nil, `test.yaml:2: http.allow_non_loopback: "yes" is not true or false`},
		{"list expected", "tools: /etc/warden/tools\n", nil, `test.yaml:1: tools: must be a list, not "/etc/warden/tools"`},
		{"mapping expected", "exec: fast\n", nil, `test.yaml:1: exec: must be a mapping of keys, not "fast"`},
		{"string expected", "mode: {a: b}\n", nil, `test.yaml:1: mode: must be a single value, not a mapping`},
		{"map of names", "policy:\n  tool_modes: [run_command]\n", nil, `test.yaml:2: policy.tool_modes: must be a mapping of names to values, not a list`},
		{"twice", "mode: open\nmode: readonly\n", nil, `test.yaml:2: mode: given twice (first on line 1)`},
		{"not a mapping", "- a\n", nil, `test.yaml:1: the file must be a mapping of keys such as mode: and http:, not a list`},
		{"syntax", "mode: open\n  http: x\n", nil, `test.yaml:2: mapping values are not allowed in this context`},
		{"nested list key", "hosts:\n  - name: nas\n    files: {allow_roots: [srv]}\n", nil, `test.yaml:3: hosts[0].files.allow_roots[0]: "srv" is not an absolute path`},
		{"value from the environment", "mode: open\n", map[string]string{"WARDEN_MODE": "root"}, `mode: "root" is not one of readonly, guarded, open (set by WARDEN_MODE)`},
		{"lockout key", "http:\n  lockout:\n    window: 0s\n", nil, `test.yaml:3: http.lockout.window: must be positive`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(t, tc.yml, tc.env)
			if err == nil {
				t.Fatalf("got no error, want %q", tc.want)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// goType matches what a Go decoder says about its types: config.Exec,
// !!str, "unmarshal", int64 and the like.
var goType = regexp.MustCompile(`\b(config|time|yaml)\.[A-Z]|!!|unmarshal|\bint(8|16|32|64)?\b|\bfloat64\b|\bstruct\b|\*`)

// TestNoGoTypeNames: no problem, whatever the input, speaks of Go types.
func TestNoGoTypeNames(t *testing.T) {
	inputs := []string{
		"exec: [1]\n", "exec:\n  max_bytes: [1]\n", "exec:\n  max_bytes: x\n", "hosts: {a: 1}\n",
		"hosts:\n  - port: x\n", "policy:\n  tool_modes: 3\n", "confine:\n  network: maybe\n",
		"http:\n  rate_per_source: [1]\n", "idle_exit: {a: 1}\n", "snapshots: [1]\n", "hosts:\n  - files: 1\n",
		"tools: [[a]]\n", "mode: [a]\n", "exec:\n  bogus: 1\n", "3\n", "mode: &a [x]\nstate_dir: *a\n",
		"http:\n  lockout:\n    max_failures: 1e3\n", "? [a]\n: b\n",
	}
	for _, in := range inputs {
		_, err := read(t, in, nil)
		if err == nil {
			t.Errorf("%q: got no error", in)
			continue
		}
		if m := goType.FindString(err.Error()); m != "" {
			t.Errorf("%q: error speaks of Go types (%q):\n%s", in, m, err)
		}
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"runners", "run", "env", "address"}
	tests := []struct{ got, want string }{
		{"runers", `; did you mean "runners"?`},
		{"Adress", `; did you mean "address"?`},
		{"zzzzzzzz", "; the keys here are address, env, run, runners"},
	}
	for _, tc := range tests {
		if got := suggest(tc.got, keys); got != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.got, got, tc.want)
		}
	}
}

// TestDigest: the digest names the file's bytes, the default's without one.
func TestDigest(t *testing.T) {
	c, err := Parse("x.yaml", []byte("mode: open\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Digest(), Digest([]byte("mode: open\n")); got != want {
		t.Errorf("digest = %s, want %s", got, want)
	}
	d, _ := Parse("default", nil)
	if got, want := d.Digest(), Digest(Default); got != want || got == c.Digest() {
		t.Errorf("default digest = %s, want %s", got, want)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("mode: open\nhosts:\n  - name: a\n    port: x\n"))
	f.Add(Default)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, probs, err := parse("fuzz", data)
		if err != nil || c == nil {
			t.Fatalf("parse: %v", err)
		}
		for _, p := range probs {
			if p.Msg == "" {
				t.Fatalf("problem without message: %+v", p)
			}
		}
		_ = c.Finish("/h", "")
	})
}
