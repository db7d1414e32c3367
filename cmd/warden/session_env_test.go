package main

import (
	"fmt"
	"testing"
)

// TestSessionStartEnvNames: session_start's env takes variable names, as
// run_command's does. A key that is no name — one with "=" in it, which
// joined as NAME=value sets the variable after the "=" (LD_PRELOAD=/x),
// a line break, a space, a leading digit or dash, an empty key, shell
// syntax — is refused at the argument with a clear error and nothing
// starts, in every host's reading; plain names start a session.
func TestSessionStartEnvNames(t *testing.T) {
	cfg := writeFile(t, "mode: guarded\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	for i, k := range []string{"LD_PRELOAD=/tmp/x.so", "BASH_ENV=/tmp/x", "PATH=/tmp:", "A\nLD_PRELOAD", "A\rB", "A B", "1A", "-A", "",
		"A;id", "$(id)", "A=", "=A", "A\x00B", "ÄPFEL", "A-B", "A.B", "BASH_FUNC_ls%%"} {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			res, got := callTool(t, s.cs, "session_start", map[string]any{"command": "echo hi", "env": map[string]any{k: "1"}})
			if got["status"] != "invalid_argument" {
				t.Errorf("env key %q: status %v, want invalid_argument: %s", k, got["status"], text(res))
			}
		})
	}
	res, got := callTool(t, s.cs, "session_start", map[string]any{"command": "echo hi", "env": map[string]any{"FOO": "1", "_x": "a=b", "A1": ""}})
	if got["status"] != "ok" {
		t.Fatalf("plain names: %s", text(res))
	}
	callTool(t, s.cs, "session_close", map[string]any{"session_id": got["session_id"]})
	res, got = callTool(t, s.cs, "session_start", map[string]any{"command": "echo hi", "env": map[string]any{"FOO": "a\x00b"}})
	if got["status"] != "invalid_argument" {
		t.Errorf("NUL in a value: %s", text(res))
	}
}
