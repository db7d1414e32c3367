package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// schemaWarnings is a strict MCP client's portability check of one JSON
// schema: type arrays, nullable unions and nullable keywords, schemas
// without a type, $refs to undefined definitions, required names that are
// not properties.
func schemaWarnings(where string, s any) []string {
	root, _ := s.(map[string]any)
	defs := map[string]bool{}
	for _, k := range []string{"$defs", "definitions"} {
		if m, ok := root[k].(map[string]any); ok {
			for name := range m {
				defs["#/"+k+"/"+name] = true
			}
		}
	}
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			out = append(out, fmt.Sprintf("%s %s: schema is not an object", where, path))
			return
		}
		switch t := m["type"].(type) {
		case []any:
			out = append(out, fmt.Sprintf("%s %s: type array %v", where, path, t))
		case string:
		case nil:
			typed := false
			for _, k := range []string{"$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not"} {
				if _, ok := m[k]; ok {
					typed = true
				}
			}
			if !typed {
				out = append(out, fmt.Sprintf("%s %s: no type", where, path))
			}
		default:
			out = append(out, fmt.Sprintf("%s %s: type is %T", where, path, t))
		}
		if _, ok := m["nullable"]; ok {
			out = append(out, fmt.Sprintf("%s %s: nullable keyword", where, path))
		}
		if ref, ok := m["$ref"].(string); ok && !defs[ref] {
			out = append(out, fmt.Sprintf("%s %s: $ref %s is not defined", where, path, ref))
		}
		props, _ := m["properties"].(map[string]any)
		if req, ok := m["required"].([]any); ok {
			for _, r := range req {
				if _, ok := props[r.(string)]; !ok {
					out = append(out, fmt.Sprintf("%s %s: required %v is not a property", where, path, r))
				}
			}
		}
		for name, p := range props {
			walk(path+".properties."+name, p)
		}
		if it, ok := m["items"]; ok {
			walk(path+".items", it)
		}
		if ap, ok := m["additionalProperties"].(map[string]any); ok {
			walk(path+".additionalProperties", ap)
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
			list, _ := m[k].([]any)
			for i, x := range list {
				if xm, ok := x.(map[string]any); ok && xm["type"] == "null" {
					out = append(out, fmt.Sprintf("%s %s.%s[%d]: nullable union", where, path, k, i))
				}
				walk(fmt.Sprintf("%s.%s[%d]", path, k, i), x)
			}
		}
		for _, k := range []string{"$defs", "definitions"} {
			if dm, ok := m[k].(map[string]any); ok {
				for name, d := range dm {
					walk(path+"."+k+"."+name, d)
				}
			}
		}
	}
	walk("#", s)
	return out
}

// TestToolSchemasArePortable lists every tool of a server with built-in
// and declarative tools through the MCP client and runs the strict check
// over each input and output schema: zero warnings.
func TestToolSchemasArePortable(t *testing.T) {
	tools, err := filepath.Abs("../../testdata/tools/basic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tools); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	declarative, count := false, 0
	for _, mode := range []string{"readonly", "guarded", "open"} {
		w, _ := assemble(t, "mode: "+mode+"\ntools: ["+tools+"]\n")
		listed, err := connect(t, w).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		count = max(count, len(listed.Tools))
		for _, tool := range listed.Tools {
			declarative = declarative || tool.Name == "count"
			for kind, s := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
				if s == nil {
					continue
				}
				b, err := json.Marshal(s)
				if err != nil {
					t.Fatal(err)
				}
				var v any
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				warnings = append(warnings, schemaWarnings(mode+" "+tool.Name+" "+kind, v)...)
			}
		}
	}
	if !declarative {
		t.Fatal("the declarative tools are not listed")
	}
	if len(warnings) > 0 {
		t.Errorf("%d portability warnings over up to %d tools per mode:\n%s", len(warnings), count, strings.Join(warnings, "\n"))
	}
}

// TestSchemaCheckFindsTypeArrays proves the check would see what it
// looks for.
func TestSchemaCheckFindsTypeArrays(t *testing.T) {
	var v any
	_ = json.Unmarshal([]byte(`{"type":"object","required":["x","y"],"properties":{"x":{"type":["null","string"]},"z":{},"r":{"$ref":"#/$defs/no"},"u":{"anyOf":[{"type":"null"},{"type":"string"}]}}}`), &v)
	if got := schemaWarnings("t", v); len(got) != 5 {
		t.Errorf("warnings = %d, want 5:\n%s", len(got), strings.Join(got, "\n"))
	}
}
