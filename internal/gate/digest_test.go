package gate

import (
	"encoding/json"
	"testing"
)

func mustDigest(t *testing.T, c Call) [32]byte {
	t.Helper()
	d, err := Digest(c)
	if err != nil {
		t.Fatalf("Digest(%+v): %v", c, err)
	}
	return d
}

func TestDigestSameCall(t *testing.T) {
	base := Call{Tool: "exec", Host: "web1", Identity: "alice",
		Args: json.RawMessage(`{"command":"ls -l","cwd":"/srv","opts":{"a":1,"b":[1,2,{"y":true,"x":null}]}}`)}
	tests := []struct {
		name string
		args string
	}{
		{"identical", `{"command":"ls -l","cwd":"/srv","opts":{"a":1,"b":[1,2,{"y":true,"x":null}]}}`},
		{"keys reordered", `{"opts":{"b":[1,2,{"x":null,"y":true}],"a":1},"cwd":"/srv","command":"ls -l"}`},
		{"whitespace", "{ \"command\" : \"ls -l\",\n\t\"cwd\": \"/srv\" , \"opts\": { \"a\": 1, \"b\": [ 1 , 2, {\"y\": true, \"x\": null} ] } }\n"},
		{"escapes spelled differently", `{"command":"ls\u0020-l","cwd":"\/srv","opts":{"a":1,"b":[1,2,{"y":true,"x":null}]}}`},
		{"approval_token added", `{"command":"ls -l","approval_token":"abc","cwd":"/srv","opts":{"a":1,"b":[1,2,{"y":true,"x":null}]}}`},
		{"request_state added", `{"request_state":{"s":"x"},"command":"ls -l","cwd":"/srv","opts":{"a":1,"b":[1,2,{"y":true,"x":null}]}}`},
		{"both gate fields added", `{"approval_token":"t","request_state":"s","command":"ls -l","cwd":"/srv","opts":{"a":1,"b":[1,2,{"y":true,"x":null}]}}`},
	}
	want := mustDigest(t, base)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			c.Args = json.RawMessage(tt.args)
			if got := mustDigest(t, c); got != want {
				t.Errorf("Digest = %x, want %x", got, want)
			}
		})
	}
}

func TestDigestNoArguments(t *testing.T) {
	want := mustDigest(t, Call{Tool: "uptime", Host: "h", Args: json.RawMessage(`{}`)})
	for _, args := range []string{"", "  ", "null", ` { } `, `{"approval_token":"x"}`} {
		if got := mustDigest(t, Call{Tool: "uptime", Host: "h", Args: json.RawMessage(args)}); got != want {
			t.Errorf("Digest with args %q = %x, want %x (same as {})", args, got, want)
		}
	}
}

func TestDigestDifferentCall(t *testing.T) {
	base := Call{Tool: "exec", Host: "web1", Identity: "alice",
		Args: json.RawMessage(`{"command":"ls","n":1,"list":[1,2],"opt":{"deep":"x"}}`)}
	tests := []struct {
		name string
		call Call
	}{
		{"tool", Call{Tool: "exec2", Host: "web1", Identity: "alice", Args: base.Args}},
		{"host", Call{Tool: "exec", Host: "web2", Identity: "alice", Args: base.Args}},
		{"identity", Call{Tool: "exec", Host: "web1", Identity: "bob", Args: base.Args}},
		{"empty identity", Call{Tool: "exec", Host: "web1", Args: base.Args}},
		{"tool/host boundary", Call{Tool: "exe", Host: "cweb1", Identity: "alice", Args: base.Args}},
		{"host/identity boundary", Call{Tool: "exec", Host: "web1a", Identity: "lice", Args: base.Args}},
		{"string argument", with(base, `{"command":"ls ","n":1,"list":[1,2],"opt":{"deep":"x"}}`)},
		{"number argument", with(base, `{"command":"ls","n":2,"list":[1,2],"opt":{"deep":"x"}}`)},
		{"number spelling", with(base, `{"command":"ls","n":1.0,"list":[1,2],"opt":{"deep":"x"}}`)},
		{"number as string", with(base, `{"command":"ls","n":"1","list":[1,2],"opt":{"deep":"x"}}`)},
		{"array order", with(base, `{"command":"ls","n":1,"list":[2,1],"opt":{"deep":"x"}}`)},
		{"nested value", with(base, `{"command":"ls","n":1,"list":[1,2],"opt":{"deep":"y"}}`)},
		{"nested key", with(base, `{"command":"ls","n":1,"list":[1,2],"opt":{"Deep":"x"}}`)},
		{"argument removed", with(base, `{"command":"ls","list":[1,2],"opt":{"deep":"x"}}`)},
		{"argument added", with(base, `{"command":"ls","n":1,"list":[1,2],"opt":{"deep":"x"},"sudo":true}`)},
		{"null argument added", with(base, `{"command":"ls","n":1,"list":[1,2],"opt":{"deep":"x"},"sudo":null}`)},
		{"nested approval_token kept", with(base, `{"command":"ls","n":1,"list":[1,2],"opt":{"deep":"x","approval_token":"t"}}`)},
		{"gate field name case", with(base, `{"command":"ls","n":1,"list":[1,2],"opt":{"deep":"x"},"Approval_Token":"t"}`)},
		{"control character", with(base, `{"command":"ls\n","n":1,"list":[1,2],"opt":{"deep":"x"}}`)},
	}
	want := mustDigest(t, base)
	seen := map[[32]byte]string{want: "base"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustDigest(t, tt.call)
			if prev, ok := seen[got]; ok {
				t.Errorf("Digest = %x, same as %q", got, prev)
			}
			seen[got] = tt.name
		})
	}
}

func with(c Call, args string) Call {
	c.Args = json.RawMessage(args)
	return c
}

func TestDigestRejects(t *testing.T) {
	tests := []struct {
		name string
		args string
	}{
		{"not json", `{"command":`},
		{"trailing data", `{"a":1} {"b":2}`},
		{"trailing garbage", `{"a":1}x`},
		{"array", `[1,2]`},
		{"string", `"ls"`},
		{"number", `1`},
		{"duplicate key", `{"a":1,"a":2}`},
		{"duplicate nested key", `{"a":{"b":1,"b":1}}`},
		{"duplicate gate field", `{"approval_token":"x","approval_token":"y"}`},
		{"invalid utf-8", "{\"a\":\"\xff\"}"},
		{"single quotes", `{'a':1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d, err := Digest(Call{Tool: "t", Args: json.RawMessage(tt.args)}); err == nil {
				t.Errorf("Digest(%q) = %x, want error", tt.args, d)
			}
		})
	}
}

// TestCanonicalArgs pins the canonical encoding: changing it changes every
// digest.
func TestCanonicalArgs(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"sorted bytewise", `{"b":1,"a":2,"B":3,"é":4}`, `{"B":3,"a":2,"b":1,"é":4}`},
		{"numbers as given", `{"n":[1.0, 1e3, -0, 12345678901234567890]}`, `{"n":[1.0,1e3,-0,12345678901234567890]}`},
		{"minimal escapes", `{"s":"\u0041\/\"\\\b\f\n\r\t\u0001\u001f<>&\u00e9"}`, `{"s":"A/\"\\\b\f\n\r\t\u0001\u001f<>&é"}`},
		{"literals", `{"t":true,"f":false,"z":null,"e":[],"o":{}}`, `{"e":[],"f":false,"o":{},"t":true,"z":null}`},
		{"gate fields stripped at top only", `{"request_state":1,"x":{"request_state":2}}`, `{"x":{"request_state":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canonicalArgs(json.RawMessage(tt.args))
			if err != nil {
				t.Fatalf("canonicalArgs(%q): %v", tt.args, err)
			}
			if string(got) != tt.want {
				t.Errorf("canonicalArgs(%q)\n got %s\nwant %s", tt.args, got, tt.want)
			}
		})
	}
}

func FuzzDigest(f *testing.F) {
	f.Add("exec", "h", "id", []byte(`{"command":"ls","n":1.50,"x":[true,null,{"b":"\u00e9","a":"\n"}]}`))
	f.Add("", "", "", []byte(``))
	f.Add("t", "h", "i", []byte(`{"approval_token":"x","request_state":{"a":1}}`))
	f.Add("t", "h", "i", []byte(`{"a":1,"a":2}`))
	f.Add("t", "h", "i", []byte("{\"\xff\":1}"))
	f.Add("t", "h", "i", []byte(`[[[[[[{}]]]]]]`))
	f.Fuzz(func(t *testing.T, tool, host, identity string, args []byte) {
		c := Call{Tool: tool, Host: host, Identity: identity, Args: args}
		d, err := Digest(c)
		if err != nil {
			return
		}
		canon, err := canonicalArgs(args)
		if err != nil {
			t.Fatalf("Digest accepted %q but canonicalArgs failed: %v", args, err)
		}
		if !json.Valid(canon) {
			t.Fatalf("canonical form %q of %q is not valid JSON", canon, args)
		}
		again, err := canonicalArgs(canon)
		if err != nil || string(again) != string(canon) {
			t.Fatalf("canonical form not a fixed point: %q -> %q (%v)", canon, again, err)
		}
		c.Args = canon
		if d2 := mustDigest(t, c); d2 != d {
			t.Fatalf("digest of canonical form %x differs from %x", d2, d)
		}
	})
}

// TestUnambiguous: a key repeated at any depth is refused; distinct keys,
// repeated values and non-objects (left to the tool's validation) are not.
func TestUnambiguous(t *testing.T) {
	bad := []string{
		`{"a":1,"a":2}`,
		`{"command":"ls","command":"rm -rf /"}`,
		`{"comm\u0061nd":"x","command":"y"}`,
		`{"env":{"A":"1","A":"2"}}`,
		`{"hosts":[{"h":1,"h":2}]}`,
		`{"a":{"b":{"c":1,"c":1}}}`,
		`{"approval_token":"x","approval_token":"y"}`,
	}
	for _, s := range bad {
		if err := Unambiguous(json.RawMessage(s)); err == nil {
			t.Errorf("Unambiguous(%s) = nil, want an error", s)
		}
	}
	good := []string{``, `null`, `{}`, `{"a":1,"A":1}`, `{"a":{"a":1}}`, `[{"a":1},{"a":1}]`, `{"a":"a","b":"a"}`, `{"a":`}
	for _, s := range good {
		if err := Unambiguous(json.RawMessage(s)); err != nil {
			t.Errorf("Unambiguous(%s) = %v, want nil", s, err)
		}
	}
}
