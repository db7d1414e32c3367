package relay

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaArgs has a field of every shape tool arguments take.
type schemaArgs struct {
	Command string            `json:"command"`
	Host    string            `json:"host,omitempty"`
	Timeout int               `json:"timeout,omitempty"`
	Ratio   float64           `json:"ratio,omitempty"`
	Follow  bool              `json:"follow,omitempty"`
	Limit   *int              `json:"limit,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Hosts   []string          `json:"hosts,omitempty"`
}

// testArgSchema builds schemaArgs' input schema as register does.
func testArgSchema(t testing.TB) *argSchema {
	in, err := jsonschema.For[schemaArgs](nil)
	if err != nil {
		t.Fatal(err)
	}
	in.Properties[approvalTokenArg] = &jsonschema.Schema{Type: "string", Description: "token"}
	portable(in)
	a, err := newArgSchema(in)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var schemaInputs = []string{
	`{"command":"echo hi"}`,
	` { "command" : "echo hi" , "host":"local"} `,
	`{"command":"x","timeout":30,"ratio":0.5,"follow":true,"limit":3}`,
	`{"command":"x","ratio":2}`,
	`{"command":"x","timeout":1.0}`,
	`{"command":"x","timeout":1e2}`,
	`{"command":"x","timeout":-4}`,
	`{"command":"x","timeout":99999999999999999999}`,
	`{"command":"x","timeout":"30"}`,
	`{"command":"x","follow":"true"}`,
	`{"command":"x","follow":1}`,
	`{"command":5}`,
	`{"command":null}`,
	`{"command":"x","host":null,"limit":null}`,
	`{"command":"x","approval_token":"abc"}`,
	`{"command":"x","approval_token":7}`,
	`{"command":"x","Command":"y"}`,
	`{"COMMAND":"x"}`,
	`{"command":"x","other":1}`,
	`{"command":"x","other":null}`,
	`{"command":"a","command":"b"}`,
	`{"command":"a","command":5}`,
	`{"command":"x","env":{"A":"1"}}`,
	`{"command":"x","env":{"A":1}}`,
	`{"command":"x","env":null}`,
	`{"command":"x","hosts":["a","b"]}`,
	`{"command":"x","hosts":[1]}`,
	`{"command":"x","host":["a"]}`,
	`{"command":"x","host":{"a":1}}`,
	`{"command":"x\u0000\"\\n"}`,
	`{"command":"\ud800"}`,
	`{}`,
	`{"host":"h"}`,
	`null`,
	``,
	`[]`,
	`"command"`,
	`{"command":"x"} trailing`,
	`{"command":"x",}`,
	`{"command":"x"`,
}

// TestPlainCheckAgreesWithValidator holds the fast check to the general
// validator: every input gives the same error, or none and the same
// decoded arguments, and the common shapes take the fast path.
func TestPlainCheckAgreesWithValidator(t *testing.T) {
	a := testArgSchema(t)
	if len(a.plain) != 7 {
		t.Fatalf("plain properties: %v, want the five bare fields and approval_token plus ratio", a.plain)
	}
	fast := 0
	for _, raw := range schemaInputs {
		if agreeWithValidator(t, a, raw) {
			fast++
		}
	}
	if fast < 8 {
		t.Errorf("only %d inputs took the fast path", fast)
	}
	for _, raw := range []string{`{"command":"echo hi"}`, `{"command":"x","timeout":30,"ratio":0.5,"follow":true,"limit":3}`} {
		if ok, _ := a.valid(json.RawMessage(raw)); !ok {
			t.Errorf("%s did not take the fast path", raw)
		}
	}
}

// agreeWithValidator compares validate with and without the fast check on
// raw and reports whether the fast check settled it. When it did not, both
// ran the validator, whose messages list properties in map order.
func agreeWithValidator(t testing.TB, a *argSchema, raw string) bool {
	t.Helper()
	var got, want schemaArgs
	gotErr := validate(a, json.RawMessage(raw), &got)
	wantErr := validate(&argSchema{resolved: a.resolved}, json.RawMessage(raw), &want)
	ok, _ := a.valid(json.RawMessage(raw))
	if (gotErr == nil) != (wantErr == nil) || (ok && gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Errorf("%q: fast path (settled: %v) error %v, validator %v", raw, ok, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q: fast path decoded %+v, validator %+v", raw, got, want)
	}
	return ok
}

func FuzzPlainCheck(f *testing.F) {
	for _, raw := range schemaInputs {
		f.Add(raw)
	}
	a := testArgSchema(f)
	f.Fuzz(func(t *testing.T, raw string) {
		agreeWithValidator(t, a, raw)
	})
}

func BenchmarkValidate(b *testing.B) {
	a := testArgSchema(b)
	raw := json.RawMessage(`{"command":"echo hi","host":"local","timeout":30}`)
	for _, c := range []struct {
		name string
		a    *argSchema
	}{{"fast", a}, {"validator", &argSchema{resolved: a.resolved}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var v schemaArgs
				if err := validate(c.a, raw, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPlainCheckNeedsAClosedObject: a schema that admits properties it
// does not name (or is not an object) has no fast check; every call goes
// to the validator.
func TestPlainCheckNeedsAClosedObject(t *testing.T) {
	open := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"command": {Type: "string"}}}
	a, err := newArgSchema(open)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := a.valid(json.RawMessage(`{"command":"x"}`)); ok || a.plain != nil {
		t.Errorf("open object: plain %v, fast check %v", a.plain, ok)
	}
	var v schemaArgs
	if err := validate(a, json.RawMessage(`{"command":"x","other":1}`), &v); err != nil || v.Command != "x" {
		t.Errorf("a property the open schema admits: %v, %+v", err, v)
	}
}
