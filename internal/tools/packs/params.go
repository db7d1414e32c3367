package packs

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

const approvalArg = "approval_token"

var (
	// safeWordRe is what enum values and interface names may hold: no
	// leading dash, nothing a program could read as an option or a path.
	safeWordRe = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$`)
	labelRe    = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)
)

// check validates a parameter value given as text and returns it as the
// word that goes into argv.
func (q Param) check(v string) (string, error) {
	switch q.Kind {
	case KindTarget:
		return checkTarget(v)
	case KindInt:
		n, err := strconv.Atoi(v)
		if err != nil {
			return "", fmt.Errorf("%q is not an integer", v)
		}
		if n < q.Min || n > q.Max {
			return "", fmt.Errorf("%d is outside %d..%d", n, q.Min, q.Max)
		}
		return strconv.Itoa(n), nil
	case KindName:
		if !safeWordRe.MatchString(v) {
			return "", fmt.Errorf("%q is not a name (letters, digits, ., _ and -, not starting with -)", truncate(v, 64))
		}
		return v, nil
	case KindEnum:
		for _, e := range q.Enum {
			if v == e {
				return v, nil
			}
		}
		return "", fmt.Errorf("%q is not one of %s", v, strings.Join(q.Enum, ", "))
	}
	return "", fmt.Errorf("unknown kind %q", q.Kind)
}

// checkTarget accepts an IP address or a DNS host name; nothing that
// starts with a dash, holds a space, a path or a URL reaches a program.
func checkTarget(v string) (string, error) {
	if a, err := netip.ParseAddr(v); err == nil && a.Zone() == "" {
		return a.String(), nil
	}
	name := strings.TrimSuffix(v, ".")
	if name == "" || len(name) > 253 {
		return "", fmt.Errorf("%q is not a host name or IP address", truncate(v, 64))
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if !labelRe.MatchString(l) {
			return "", fmt.Errorf("%q is not a host name or IP address", truncate(v, 64))
		}
	}
	// All-numeric names are IP spellings (2852039166, 0x7f.1) that
	// programs would read as addresses; only the dotted form is accepted.
	if allNumeric(labels) {
		return "", fmt.Errorf("%q: write IP addresses in dotted or IPv6 form", truncate(v, 64))
	}
	return v, nil
}

func allNumeric(labels []string) bool {
	for _, l := range labels {
		if _, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(l), "0x"), 16, 64); err != nil {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// values validates a call's arguments against the tool's parameters and
// returns each as the word it becomes, defaults applied.
func (t *Tool) values(args map[string]any) (map[string]string, error) {
	out := map[string]string{}
	known := map[string]bool{"host": true, approvalArg: true}
	for _, q := range t.Params {
		known[q.Name] = true
		raw, ok := args[q.Name]
		if !ok || raw == nil {
			if q.Required {
				return nil, fmt.Errorf("%s is required", q.Name)
			}
			if q.Default != "" {
				out[q.Name], _ = q.check(q.Default)
			}
			continue
		}
		var s string
		switch v := raw.(type) {
		case string:
			s = v
		case float64:
			if v != math.Trunc(v) || math.Abs(v) > 1e9 {
				return nil, fmt.Errorf("%s: %v is not an integer", q.Name, v)
			}
			s = strconv.Itoa(int(v))
		default:
			return nil, fmt.Errorf("%s: unexpected %T", q.Name, raw)
		}
		w, err := q.check(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", q.Name, err)
		}
		out[q.Name] = w
	}
	for k := range args {
		if !known[k] {
			return nil, fmt.Errorf("unknown argument %q", k)
		}
	}
	return out, nil
}

// expand fills a step's argv with parameter values and each's item.
func expand(argv []string, vals map[string]string, each string) ([]string, error) {
	out := make([]string, len(argv))
	var err error
	for i, w := range argv {
		out[i] = placeRe.ReplaceAllStringFunc(w, func(m string) string {
			k := m[1 : len(m)-1]
			if k == "each" {
				return each
			}
			v, ok := vals[k]
			if !ok {
				err = errors.Join(err, fmt.Errorf("%s has no value", k))
			}
			return v
		})
	}
	return out, err
}

// runs reports whether a step runs for these values.
func (s Step) runs(vals map[string]string) bool {
	for k, v := range s.When {
		if vals[k] != v {
			return false
		}
	}
	return true
}

// inputSchema is the input schema of the tools of one name: the host, and
// each parameter with the values every pack's version accepts.
func inputSchema(versions []*Tool) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"host": {Type: "string", Description: "An inventory host name (see hosts_list), or local."},
	}, Required: []string{"host"}}
	first := versions[0]
	for i, q := range first.Params {
		p := &jsonschema.Schema{Description: q.Description}
		switch q.Kind {
		case KindTarget:
			p.Type = "string"
			p.Description += " A host name or IP address."
		case KindName:
			p.Type = "string"
			p.Pattern = safeWordRe.String()
		case KindInt:
			p.Type = "integer"
			p.Minimum, p.Maximum = ptr(float64(q.Min)), ptr(float64(q.Max))
		case KindEnum:
			p.Type = "string"
			set := map[string]bool{}
			for _, t := range versions {
				for _, e := range t.Params[i].Enum {
					set[e] = true
				}
			}
			var vals []string
			for e := range set {
				vals = append(vals, e)
			}
			sort.Strings(vals)
			for _, e := range vals {
				p.Enum = append(p.Enum, e)
			}
			if len(versions) > 1 {
				p.Description += " Each firmware accepts its own subset; a value it lacks is refused."
			}
		}
		if q.Default != "" {
			p.Description += " Default " + q.Default + "."
		}
		s.Properties[q.Name] = p
		if q.Required {
			s.Required = append(s.Required, q.Name)
		}
	}
	s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return s
}

func ptr[T any](v T) *T { return &v }
