package relay

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	tests := []struct {
		name, in string
		n        int
		want     string
	}{
		{"short", "abc", 5, "abc"},
		{"exact", "abcde", 5, "abcde"},
		{"ascii", "abcdefgh", 5, "abcde… [3 bytes cut]"},
		{"inside a rune", "abcdé", 5, "abcd… [2 bytes cut]"},
		{"inside a 4-byte rune", "ab😀cd", 4, "ab… [6 bytes cut]"},
		{"invalid UTF-8", "ab\xff\xfecd", 3, "ab\xff… [3 bytes cut]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := clip(tc.in, tc.n); got != tc.want {
				t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
	big := strings.Repeat("é", 1<<19)
	got := clip(big, maxReasonBytes)
	if len(got) > maxReasonBytes+64 || !utf8.ValidString(got) {
		t.Errorf("clip of a megabyte: %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
}
