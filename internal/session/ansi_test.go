package session

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStrip(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello world\n", "hello world\n"},
		{"crlf", "a\r\nb\r\r\n", "a\nb\n"},
		{"lone cr and backspace", "10%\r20%\bX", "10%20%X"},
		{"tab kept", "a\tb", "a\tb"},
		{"sgr", "\x1b[1;31mred\x1b[0m", "red"},
		{"csi private", "\x1b[?2004h$ \x1b[?25l", "$ "},
		{"csi with intermediate", "a\x1b[2 qb", "ab"},
		{"8-bit csi", "a\u009b31mb", "ab"},
		{"osc bel", "\x1b]0;title\x07text", "text"},
		{"osc st", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"osc 8-bit st", "\u009d0;t\u009ctext", "text"},
		{"dcs", "\x1bPq#0;2;0;0;0#0~~\x1b\\after", "after"},
		{"apc pm sos", "\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\ok", "ok"},
		{"charset", "\x1b(Bx\x1b)0y", "xy"},
		{"keypad and save", "\x1b=\x1b7a\x1b8", "a"},
		{"esc esc", "\x1b\x1b[31mz", "z"},
		{"can aborts", "\x1b[31\x18kept", "kept"},
		{"newline inside csi executes", "\x1b[3\n1mx", "\nx"},
		{"esc then non-ascii", "\x1bé", "é"},
		{"string ended by new escape", "\x1b]0;t\x1b[31mx", "x"},
		{"bell and nul", "a\x07b\x00c\x7fd", "abcd"},
		{"c1 controls", "a\u0085b\u008ec", "abc"},
		{"invalid utf8", "a\xffb\xc3", "a\ufffdb\ufffd"},
		{"utf8 kept", "héllo 世界 🎉", "héllo 世界 🎉"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Strip([]byte(tt.in)); got != tt.want {
				t.Errorf("Strip(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestStripSplitAnywhere feeds inputs one byte at a time: sequences and
// characters split across reads must come out as if whole.
func TestStripSplitAnywhere(t *testing.T) {
	in := "\x1b[1;31mré\x1b]0;ti\x07d\r\n\x1bP1$r\x1b\\世\xe7\x95\x8c\x1b(B!"
	whole := Strip([]byte(in))
	var s Stripper
	var out []byte
	for i := range len(in) {
		out = s.Append(out, []byte{in[i]})
	}
	out = s.Flush(out)
	if string(out) != whole {
		t.Errorf("byte by byte = %q, whole = %q", out, whole)
	}
	if whole != "réd\n世界!" {
		t.Errorf("whole = %q", whole)
	}
}

func TestStripUnterminatedStringIsBounded(t *testing.T) {
	in := "\x1b]0;" + strings.Repeat("a", maxStringLen+10) + "\nvisible"
	if got := Strip([]byte(in)); !strings.HasSuffix(got, "\nvisible") {
		t.Errorf("an unterminated OSC hid the rest of the output: %q…", got[:min(len(got), 40)])
	}
}

func FuzzStrip(f *testing.F) {
	for _, s := range []string{
		"plain\r\n", "\x1b[1;31mred\x1b[0m", "\x1b]0;t\x07x", "\x1bP q\x1b\\", "\u009b1m\u009d2\u009c",
		"\xff\xc3\xa9\xe4\xb8", "\x1b\x1b[", "\x1b(B\x1b#8", "a\x18b\x1a",
	} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint8) {
		got := Strip(in)
		if !utf8.ValidString(got) {
			t.Fatalf("output is not UTF-8: %q", got)
		}
		for _, r := range got {
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("control %U survived in %q", r, got)
			}
		}
		if again := Strip([]byte(got)); again != got {
			t.Fatalf("not idempotent: %q then %q", got, again)
		}
		// Split at any point, the stream strips the same.
		k := int(cut) % (len(in) + 1)
		var s Stripper
		out := s.Append(nil, in[:k])
		out = s.Append(out, in[k:])
		out = s.Flush(out)
		if !bytes.Equal(out, []byte(got)) {
			t.Fatalf("split at %d gives %q, whole gives %q", k, out, got)
		}
	})
}
