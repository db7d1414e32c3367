package export

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCEFSpecExamples encodes the examples of the ArcSight Common Event
// Format implementation standard and expects them byte for byte.
func TestCEFSpecExamples(t *testing.T) {
	tests := []struct {
		name, sev string
		severity  int
		ext       []KV
		want      string
	}{
		{"worm successfully stopped", "", 10, []KV{{"src", "10.0.0.1"}, {"dst", "2.1.2.2"}, {"spt", "1232"}},
			`CEF:0|Security|threatmanager|1.0|100|worm successfully stopped|10|src=10.0.0.1 dst=2.1.2.2 spt=1232`},
		{"detected a | in message", "", 10, []KV{{"src", "10.0.0.1"}, {"act", "blocked a |"}, {"dst", "1.1.1.1"}},
			`CEF:0|Security|threatmanager|1.0|100|detected a \| in message|10|src=10.0.0.1 act=blocked a | dst=1.1.1.1`},
		{`detected a \ in packet`, "", 10, []KV{{"src", "10.0.0.1"}, {"act", `blocked a \`}, {"dst", "1.1.1.1"}},
			`CEF:0|Security|threatmanager|1.0|100|detected a \\ in packet|10|src=10.0.0.1 act=blocked a \\ dst=1.1.1.1`},
		{"detected a = in message", "", 10, []KV{{"src", "10.0.0.1"}, {"act", "blocked a ="}, {"dst", "1.1.1.1"}},
			`CEF:0|Security|threatmanager|1.0|100|detected a = in message|10|src=10.0.0.1 act=blocked a \= dst=1.1.1.1`},
		{"Detected a threat. No action needed.", "", 10, []KV{{"src", "10.0.0.1"}, {"msg", "Detected a threat.\n No action needed."}},
			`CEF:0|Security|threatmanager|1.0|100|Detected a threat. No action needed.|10|src=10.0.0.1 msg=Detected a threat.\n No action needed.`},
	}
	for _, tt := range tests {
		got := string(AppendCEFEvent(nil, "Security", "threatmanager", "1.0", "100", tt.name, tt.severity, tt.ext))
		if got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

// TestLEEFSpecExamples encodes the examples of the LEEF 1.0 and 2.0
// specifications (IBM QRadar) and expects them byte for byte.
func TestLEEFSpecExamples(t *testing.T) {
	v1 := AppendLEEFEvent(nil, "1.0", "Microsoft", "MSExchange", "4.0 SP1", "15345", '\t', []KV{
		{"src", "192.0.2.0"}, {"dst", "172.50.123.1"}, {"sev", "5"}, {"cat", "anomaly"},
		{"srcPort", "81"}, {"dstPort", "21"}, {"usrName", "joe.black"}})
	if want := "LEEF:1.0|Microsoft|MSExchange|4.0 SP1|15345|src=192.0.2.0\tdst=172.50.123.1\tsev=5\tcat=anomaly\tsrcPort=81\tdstPort=21\tusrName=joe.black"; string(v1) != want {
		t.Errorf("LEEF 1.0:\ngot  %q\nwant %q", v1, want)
	}
	v2 := AppendLEEFEvent(nil, "2.0", "Lancope", "StealthWatch", "1.0", "41", '^', []KV{
		{"src", "10.0.1.8"}, {"dst", "10.0.0.5"}, {"sev", "5"}, {"srcPort", "81"}, {"dstPort", "21"}})
	if want := "LEEF:2.0|Lancope|StealthWatch|1.0|41|^|src=10.0.1.8^dst=10.0.0.5^sev=5^srcPort=81^dstPort=21"; string(v2) != want {
		t.Errorf("LEEF 2.0:\ngot  %q\nwant %q", v2, want)
	}
}

// goldenRecords are a call, a refusal with awkward text, and a pruning.
func goldenRecords() []audit.Record {
	ts := time.Date(2026, 11, 22, 10, 15, 0, 123456789, time.UTC)
	code := 0
	h := func(c byte) string { return string(bytes.Repeat([]byte{c}, 64)) }
	return []audit.Record{
		{TS: ts, Seq: 41, ID: "3f2a", Node: "nas1", Identity: "alice@example.com", Client: "claude-code/2.1.0",
			Tool: "run_command", Host: "local", Tier: 0, Decision: "allow", Args: json.RawMessage(`{"command":"df -h"}`),
			ExitCode: &code, Status: "ok", DurationMS: 12, OutputSHA256: h('9'), OutputLen: 512, Prev: h('a'), Hash: h('b')},
		{TS: ts, Seq: 42, ID: "3f2b", Node: "nas1", Identity: "bob", Tool: "run_command", Host: "web|1", Tier: 3,
			Decision: "denied", Reason: "deny rule: rm -rf / \\ a=b\nnext\tline",
			Args: json.RawMessage(`{"command":"rm -rf / # a=b | c"}`), Status: "denied", DurationMS: 1, Prev: h('b'), Hash: h('c')},
		{TS: ts, Seq: 43, ID: "3f2c", Node: "nas1", Tool: "warden.audit", Decision: "pruned", Status: "ok",
			Reason: "retention deleted 2 rotated file(s)", Prev: h('c'), Hash: h('d')},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/audit/export -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

func TestRecordFormatsGolden(t *testing.T) {
	for _, f := range []struct {
		name string
		enc  func([]byte, audit.Record) []byte
	}{
		{"cef.golden", func(b []byte, r audit.Record) []byte { return AppendCEF(b, r, "1.4.0") }},
		{"leef.golden", func(b []byte, r audit.Record) []byte { return AppendLEEF(b, r, "1.4.0") }},
	} {
		var out []byte
		for _, r := range goldenRecords() {
			out = f.enc(out, r)
			out = append(out, '\n')
		}
		golden(t, f.name, out)
	}
	for _, network := range []string{"tcp", "udp"} {
		s := Syslog{Network: network, Format: "json", Facility: 10, AppName: "warden", ProcID: "4242"}
		enc, err := s.Encoder()
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		for _, r := range goldenRecords() {
			out = enc(out, r, []byte(`{"seq":`+string(rune('0'+r.Seq%10))+`}`))
			out = append(out, '\n')
		}
		golden(t, "rfc5424-"+network+".golden", out)
	}
}

func TestSyslogRejectsBadConfig(t *testing.T) {
	for _, s := range []Syslog{{Format: "xml"}, {Format: "json", Facility: 24}} {
		if _, err := s.Encoder(); err == nil {
			t.Errorf("Encoder(%+v) succeeded", s)
		}
	}
	if _, err := Facility("local9"); err == nil {
		t.Error("Facility(local9) succeeded")
	}
	if f, err := Facility("authpriv"); err != nil || f != 10 {
		t.Errorf("Facility(authpriv) = %d, %v", f, err)
	}
}
