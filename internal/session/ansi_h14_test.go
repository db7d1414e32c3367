package session

import "testing"

// TestStripShowsInvisibleFormatting: what a session prints reaches the
// agent, warden watch, warden session show and the web console through the
// Stripper; a bidi override there would reorder the text the reader sees, a
// zero-width or tag character would hide text in it.
func TestStripShowsInvisibleFormatting(t *testing.T) {
	tests := []struct{ in, want string }{
		{"rm \u202e/pmt/ fr-", `rm \u202e/pmt/ fr-`},
		{"a\u2066b\u2069c", `a\u2066b\u2069c`},
		{"zero\u200bwidth\u200d\ufeff", `zero\u200bwidth\u200d\ufeff`},
		{"tag\U000e0041\U000e007f", `tag\U000e0041\U000e007f`},
		{"line\u2028sep\u2029", `line\u2028sep\u2029`},
		{"\u061c\u200e\u200f", `\u061c\u200e\u200f`},
		{"plain é 日本 😀\n\tok", "plain é 日本 😀\n\tok"},
	}
	for _, tt := range tests {
		if got := Strip([]byte(tt.in)); got != tt.want {
			t.Errorf("Strip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Split across reads, a character still comes out as one escape.
	var s Stripper
	b := []byte("x\u202ey")
	out := s.Append(nil, b[:2])
	out = s.Append(out, b[2:])
	if got := string(s.Flush(out)); got != `x\u202ey` {
		t.Errorf("split: %q", got)
	}
}
