package relay

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// portable rewrites a schema derived from Go types into a form strict MCP
// clients accept: jsonschema-go declares pointers, slices and maps as
// "type": ["null", T]; warden omits such a field when it is empty instead
// of sending null, so the type becomes T and the field is not required.
func portable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	for name, p := range s.Properties {
		if dropNull(p) {
			s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == name })
		}
		portable(p)
	}
	if len(s.Required) == 0 {
		s.Required = nil
	}
	dropNull(s)
	portable(s.Items)
	portable(s.AdditionalProperties)
	for _, d := range s.Defs {
		portable(d)
	}
	for _, d := range s.Definitions {
		portable(d)
	}
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, x := range list {
			portable(x)
		}
	}
}

// dropNull turns "type": ["null", T] into "type": T, reporting whether
// it did.
func dropNull(s *jsonschema.Schema) bool {
	if s == nil || !slices.Contains(s.Types, "null") {
		return false
	}
	rest := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
	switch len(rest) {
	case 0:
		return false
	case 1:
		s.Type, s.Types = rest[0], nil
	default:
		s.Types = rest
	}
	return true
}

// dropNulls removes every object member whose value is null from a JSON
// document, keeping the order and the text of everything else: the
// structured result omits an empty optional field rather than sending
// null, as its schema says.
func dropNulls(b []byte) []byte {
	if !bytes.Contains(b, []byte("null")) {
		return b
	}
	var v orderedValue
	if err := json.Unmarshal(b, &v); err != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// orderedValue is a JSON value decoded with its object members in order.
type orderedValue struct {
	raw     json.RawMessage
	keys    []string
	members []orderedValue
	items   []orderedValue
	kind    byte // '{', '[' or 0 for a scalar kept raw
}

func (o *orderedValue) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch b[0] {
	case '{':
		o.kind = '{'
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if _, err := dec.Token(); err != nil {
			return err
		}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return err
			}
			var m orderedValue
			if err := dec.Decode(&m); err != nil {
				return err
			}
			if m.kind == 0 && string(m.raw) == "null" {
				continue
			}
			o.keys = append(o.keys, t.(string))
			o.members = append(o.members, m)
		}
		return nil
	case '[':
		o.kind = '['
		var items []orderedValue
		if err := json.Unmarshal(b, &items); err != nil {
			return err
		}
		o.items = items
		return nil
	}
	o.raw = append(json.RawMessage(nil), b...)
	return nil
}

func (o orderedValue) MarshalJSON() ([]byte, error) {
	switch o.kind {
	case '{':
		var b bytes.Buffer
		b.WriteByte('{')
		for i, k := range o.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, err := json.Marshal(k)
			if err != nil {
				return nil, err
			}
			b.Write(kb)
			b.WriteByte(':')
			vb, err := o.members[i].MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.Write(vb)
		}
		b.WriteByte('}')
		return b.Bytes(), nil
	case '[':
		if o.items == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(o.items)
	}
	return o.raw, nil
}
