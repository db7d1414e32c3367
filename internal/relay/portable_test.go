package relay

import (
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func TestDropNullsKeepsOrderAndText(t *testing.T) {
	in := `{"z":1,"a":null,"m":{"x":null,"y":[null,{"k":null,"n":1.50}],"e":[]},"s":"null \u003c"}`
	want := `{"z":1,"m":{"y":[null,{"n":1.50}],"e":[]},"s":"null \u003c"}`
	if got := string(dropNulls([]byte(in))); got != want {
		t.Errorf("dropNulls = %s, want %s", got, want)
	}
}

func TestPortableSchema(t *testing.T) {
	type out struct {
		Name  string            `json:"name"`
		List  []string          `json:"list"`
		Tier  *int              `json:"tier,omitempty"`
		Attrs map[string]string `json:"attrs"`
	}
	s, err := jsonschema.For[out](nil)
	if err != nil {
		t.Fatal(err)
	}
	portable(s)
	if s.Properties["list"].Type != "array" || s.Properties["tier"].Type != "integer" || s.Properties["attrs"].Type != "object" || s.Properties["list"].Types != nil {
		t.Errorf("types left: %+v %+v %+v", s.Properties["list"], s.Properties["tier"], s.Properties["attrs"])
	}
	for _, r := range s.Required {
		if r == "list" || r == "tier" {
			t.Errorf("required = %v: a field omitted when empty is required", s.Required)
		}
	}
}

// TestNullArgumentIsAbsent: with type arrays gone, a client's null for an
// optional field still means "not given", and a wrong type still fails.
func TestNullArgumentIsAbsent(t *testing.T) {
	type in struct {
		Tier *int    `json:"tier,omitempty"`
		Name *string `json:"name,omitempty"`
	}
	s, err := jsonschema.For[in](nil)
	if err != nil {
		t.Fatal(err)
	}
	portable(s)
	a, err := newArgSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	var v in
	if err := validate(a, []byte(`{"tier":null,"name":"x"}`), &v); err != nil || v.Tier != nil || v.Name == nil || *v.Name != "x" {
		t.Errorf("null tier: %v, %+v", err, v)
	}
	if err := validate(a, []byte(`{"tier":"x"}`), &v); err == nil {
		t.Error("a string tier validated")
	}
}
