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
