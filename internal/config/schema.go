package config

import (
	"encoding/json"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schema returns the JSON Schema of warden.yaml, for editors: unknown keys
// are rejected as the loader rejects them.
func Schema() ([]byte, error) {
	s, err := jsonschema.For[Config](&jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{
			reflect.TypeFor[Mechanisms](): {
				Description: "an approval mechanism, or a list of human ones where the first answer wins",
				OneOf: []*jsonschema.Schema{
					{Type: "string", Enum: []any{"token", "elicit", "console"}},
					{Type: "array", Items: &jsonschema.Schema{Type: "string", Enum: []any{"elicit", "console"}}},
				},
			},
			reflect.TypeFor[Duration](): {Type: "string", Pattern: `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`, Description: "a duration such as 60s, 5m or 8h"},
		},
	})
	if err != nil {
		return nil, err
	}
	s.Schema = "https://json-schema.org/draft/2020-12/schema"
	s.Title = "warden.yaml"
	for _, p := range s.Properties {
		p.Required = nil
	}
	s.Required = nil
	clearRequired(s)
	modes := []any{"readonly", "guarded", "open"}
	s.Properties["mode"].Enum = modes
	if h := s.Properties["hosts"]; h != nil && h.Items != nil {
		if ft := h.Items.Properties["files_transport"]; ft != nil {
			ft.Enum = []any{"auto", "sftp", "exec"}
		}
		if ag := h.Items.Properties["agent"]; ag != nil {
			ag.Enum = []any{"off", "auto", "required"}
		}
	}
	if a := s.Properties["audit"]; a != nil {
		if e := a.Properties["export"]; e != nil && e.Items != nil {
			for key, vals := range map[string][]string{
				"type": AuditExportTypes, "network": AuditExportNetworks, "protocol": AuditExportProtocols,
				"format": AuditExportFormats, "facility": SyslogFacilities,
			} {
				if p := e.Items.Properties[key]; p != nil {
					for _, v := range vals {
						p.Enum = append(p.Enum, v)
					}
				}
			}
		}
	}
	return json.MarshalIndent(s, "", "  ")
}

// clearRequired makes every key optional: the embedded default fills them.
func clearRequired(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Required = nil
	for _, p := range s.Properties {
		clearRequired(p)
	}
	clearRequired(s.Items)
	clearRequired(s.AdditionalProperties)
}
