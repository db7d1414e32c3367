package config

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestSchemaIsCurrent keeps docs/warden.schema.json in step with Config.
func TestSchemaIsCurrent(t *testing.T) {
	got, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const path = "../../docs/warden.schema.json"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/config -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Error("docs/warden.schema.json is stale; run go test ./internal/config -update")
	}
}
