package shellword

import (
	"os/exec"
	"testing"
)

// TestQuoteRoundTrip has a real shell read each quoted word back.
func TestQuoteRoundTrip(t *testing.T) {
	words := []string{"", "plain/path_1.2-3+x,y@z%", "a b", "it's", "$(id)", "`id`", "*", "~", "=ls", "a=b", "x:y", "line\nbreak", `\`, `"q"`, "é", "-n"}
	out, err := exec.Command("/bin/sh", "-c", `printf '[%s]' `+Join(words)).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	for _, w := range words {
		want += "[" + w + "]"
	}
	if string(out) != want {
		t.Errorf("shell read back %q, want %q", out, want)
	}
	if Quote("plain") != "plain" || Quote("a=b") != "'a=b'" {
		t.Errorf("Quote leaves plain words bare and quotes the rest: %q %q", Quote("plain"), Quote("a=b"))
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{"PATH": true, "_x1": true, "a": true, "": false, "1A": false, "A-B": false, "A;B": false, "Ä": false} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}
