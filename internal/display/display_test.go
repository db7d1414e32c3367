package display

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain ls -l\nsecond line", "plain ls -l\nsecond line"},
		{"a\x1b[2Kb", `a\x1b[2Kb`},
		{"\x1b]52;c;eA==\x07", `\x1b]52;c;eA==\x07`},
		{"\u009b2K", `\x9b2K`},
		{"del\x7f", `del\x7f`},
		{"rm \u202e/pmt/", `rm \u202e/pmt/`},
		{"\u2066x\u2069", `\u2066x\u2069`},
		{"zw\u200bj\u200d\ufeff", `zw\u200bj\u200d\ufeff`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"ls\u2028rm", `ls\u2028rm`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"tab\there", `tab\x09here`},
		{"é ü 日本 😀", "é ü 日本 😀"},
		{"echo hi" + strings.Repeat(" ", 10000) + "; rm -rf /home", "echo hi …[10000 blanks]… ; rm -rf /home"},
		{"ls" + strings.Repeat("\u00a0", 40) + "x", "ls …[40 blanks]… x"},
		{"ls" + strings.Repeat("\u3000\u2003", 20) + "x", "ls …[40 blanks]… x"},
		{"a" + strings.Repeat(" ", 16) + "b", "a" + strings.Repeat(" ", 16) + "b"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Line("a\nb\x1b"); got != `a\nb\x1b` {
		t.Errorf("Line = %q", got)
	}
}

// TestJSON: the escaped JSON decodes to the same value and holds no
// hidden rune.
func TestJSON(t *testing.T) {
	for _, s := range []string{"rm \u202e/pmt/", "\u009b2K\x7f", "\U000e0041 tag", "\u200b", "a\x1b]0;t\x07", "日本 plain"} {
		enc, _ := json.Marshal(map[string]string{"command": s})
		out := JSON(enc)
		var back map[string]string
		if err := json.Unmarshal(out, &back); err != nil || back["command"] != s {
			t.Errorf("JSON(%s) = %s: decodes to %q, %v", enc, out, back["command"], err)
		}
		for _, r := range string(out) {
			if Hidden(r) {
				t.Errorf("JSON(%s) = %s holds %U", enc, out, r)
			}
		}
	}
}

func TestOutput(t *testing.T) {
	tests := []struct{ in, want string }{
		{"col1\tcol2\r\nnext\n", "col1\tcol2\r\nnext\n"},
		{"safe\rrm -rf /", `safe\x0drm -rf /`},
		{"A\x1b]52;c;eA==\x07B", `A\x1b]52;c;eA==\x07B`},
		{"B\u009bC\u202eD\x7fE", `B\x9bC\u202eD\x7fE`},
		{"a" + strings.Repeat(" ", 40) + "b", "a" + strings.Repeat(" ", 40) + "b"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"日本\u200b", `日本\u200b`},
	}
	for _, tt := range tests {
		if got := Output(tt.in); got != tt.want {
			t.Errorf("Output(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
