//go:build linux

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDocNASExchange generates docs/nas.md's first diagnosis from the
// container shape, run as TestContainerShapeReachesHost runs it: warden
// in a mount and UTS namespace of its own ("warden-box") sharing the PID
// namespace of a "NAS" — PID 1 of namespaces named nas, with its own
// /etc/hostname — and host_namespace: pid1. Every answer must be the
// NAS's, never the container's.
func TestDocNASExchange(t *testing.T) {
	cs, _ := startContainerShape(t, "nas", "nas")

	var b strings.Builder
	call := func(tool string, args map[string]any, keys ...string) map[string]any {
		_, res := callTool(t, cs, tool, args)
		a, _ := json.Marshal(args)
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("agent → " + tool + " " + string(a) + "\n")
		b.WriteString("warden ← " + abridged(t, res, keys) + "\n")
		if all, _ := json.Marshal(res); strings.Contains(string(all), "warden-box") {
			t.Errorf("%s answered from warden's container: %v", tool, res)
		}
		return res
	}
	if r := call("system_info", map[string]any{}, "status", "hostname"); r["hostname"] != "nas" {
		t.Errorf("system_info: %v", r)
	}
	if r := call("run_command", map[string]any{"command": "hostname; cat /etc/hostname"}, "status", "exit_code", "stdout"); r["stdout"] != "nas\nnas\n" {
		t.Errorf("run_command: %v", r)
	}
	if r := call("read_file", map[string]any{"path": "/etc/hostname"}, "status", "content"); r["content"] != "nas\n" {
		t.Errorf("read_file: %v", r)
	}
	if t.Failed() {
		return
	}
	generatedBy(t, "../../docs/nas.md", "TestDocNASExchange", "nas-exchange", b.String())
}
