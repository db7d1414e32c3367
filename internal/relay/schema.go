package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// argSchema is a tool's resolved input schema and, when every property is
// a bare JSON type, the types by name (plain), which settle most calls
// without the general validator.
type argSchema struct {
	resolved *jsonschema.Resolved
	plain    map[string]jsonKind
	required []string
}

// jsonKind is a set of JSON value kinds.
type jsonKind uint8

const (
	kindString jsonKind = 1 << iota
	kindInteger
	kindFraction // a number written with a fraction or an exponent
	kindBoolean
	kindComposite // an object or array: no plain property holds one
)

// plainKinds maps the schema types a bare property may have to kinds.
var plainKinds = map[string]jsonKind{
	"string":  kindString,
	"integer": kindInteger,
	"number":  kindInteger | kindFraction,
	"boolean": kindBoolean,
}

// newArgSchema resolves in and notes its plain properties: a property is
// plain when its schema is one bare type (a description aside). A
// property with anything more (items, enum, pattern, bounds, nested
// properties) is not, and arguments that carry it go to the validator.
func newArgSchema(in *jsonschema.Schema) (*argSchema, error) {
	resolved, err := in.Resolve(nil)
	if err != nil {
		return nil, err
	}
	a := &argSchema{resolved: resolved}
	top := *in
	top.Properties, top.Required, top.PropertyOrder, top.Description = nil, nil, nil, ""
	if !reflect.DeepEqual(top, jsonschema.Schema{Type: "object", AdditionalProperties: falseSchema()}) {
		return a, nil
	}
	a.plain = map[string]jsonKind{}
	for name, p := range in.Properties {
		bare := *p
		bare.Description = ""
		if k, ok := plainKinds[bare.Type]; ok && reflect.DeepEqual(bare, jsonschema.Schema{Type: bare.Type}) {
			a.plain[name] = k
		}
	}
	a.required = in.Required
	return a, nil
}

// falseSchema is the schema no value satisfies, as jsonschema.For writes
// additionalProperties: false.
func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

// valid reports whether raw is certainly valid: a JSON object whose every
// non-null member is a plain property holding a value of its type, with
// every required property present and not null. False means "ask the
// validator", which also words the error.
func (a *argSchema) valid(raw json.RawMessage) (ok, empty bool) {
	if a.plain == nil {
		return false, false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return false, false
	}
	given := 0
	for name, v := range m {
		k := kindOf(v)
		if k == 0 {
			continue // null: an absent argument
		}
		if a.plain[name]&k == 0 {
			return false, false
		}
		given++
	}
	for _, name := range a.required {
		if kindOf(m[name]) == 0 {
			return false, false
		}
	}
	return true, given == 0
}

// kindOf is the kind of a JSON value: 0 for null or absent.
func kindOf(v json.RawMessage) jsonKind {
	if len(v) == 0 {
		return 0
	}
	switch v[0] {
	case '"':
		return kindString
	case 't', 'f':
		return kindBoolean
	case 'n':
		return 0
	case '{', '[':
		return kindComposite
	}
	if bytes.ContainsAny(v, ".eE") {
		return kindFraction
	}
	return kindInteger
}

// validate checks raw arguments against the tool's schema and decodes them
// into v, applying defaults for run-time schemas. The approval token is the
// relay's own argument and is not passed to the tool.
func validate(a *argSchema, raw json.RawMessage, v any) error {
	if _, isMap := v.(*map[string]any); !isMap {
		if ok, empty := a.valid(raw); ok {
			if empty {
				return nil
			}
			if err := json.Unmarshal(raw, v); err != nil {
				return fmt.Errorf("arguments: %v", err)
			}
			return nil
		}
	}
	resolved := a.resolved
	m := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		var top any
		if err := json.Unmarshal(raw, &top); err != nil {
			return fmt.Errorf("arguments are not valid JSON: %v", err)
		}
		obj, ok := top.(map[string]any)
		if !ok {
			return errors.New("arguments must be a JSON object")
		}
		m = obj
	}
	// A null argument is an absent one: schemas declare optional fields
	// by type alone (no nullable type arrays), and clients that send null
	// for "not given" keep working.
	for k, v := range m {
		if v == nil {
			delete(m, k)
		}
	}
	if err := resolved.Validate(m); err != nil {
		return err
	}
	delete(m, approvalTokenArg)
	if mp, ok := v.(*map[string]any); ok {
		// Run-time schemas (declarative tools) carry defaults.
		if err := resolved.ApplyDefaults(&m); err != nil {
			return err
		}
		*mp = m
		return nil
	}
	// Schemas derived from Go types have no defaults: decode the validated
	// arguments straight into the struct, which ignores approval_token.
	if len(m) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("arguments: %v", err)
	}
	return nil
}

// outputSchema derives a tool's output schema from Out and widens it to
// describe the pipeline's own results too: every result carries status, and
// refusals carry reason, tier and approval fields instead of Out's fields.
func outputSchema[Out any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[Out](nil)
	if err != nil {
		return nil, err
	}
	s.Required = nil
	s.AdditionalProperties = nil
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	s.Properties["status"] = &jsonschema.Schema{
		Type:        "string",
		Enum:        []any{string(StatusOK), string(StatusDenied), string(StatusApproval), string(StatusTimeout), string(StatusInvalid), string(StatusError)},
		Description: "Outcome of the call.",
	}
	s.Properties["reason"] = &jsonschema.Schema{Type: "string", Description: "Why the call did not run or failed."}
	s.Properties["tier"] = &jsonschema.Schema{Type: "integer", Description: "Policy tier of the call (0 read-only … 3 destructive)."}
	s.Properties[approvalTokenArg] = &jsonschema.Schema{Type: "string", Description: "Present with status approval_required: re-issue the identical call with this token."}
	s.Properties["expires_at"] = &jsonschema.Schema{Type: "string", Description: "When the approval token expires (RFC 3339)."}
	s.Required = []string{"status"}
	return s, nil
}
