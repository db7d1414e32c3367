package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// validate checks raw arguments against the tool's schema and decodes them
// into v, applying defaults for run-time schemas. The approval token is the
// relay's own argument and is not passed to the tool.
func validate(resolved *jsonschema.Resolved, raw json.RawMessage, v any) error {
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
