package audit

import "testing"

// TestRedactEscapedJSONDepth: JSON written in a string of a script that a
// shell inside a shell runs has its quotes escaped once per level (\" one
// level down, \\\" two, \\" in '…' for a program that unescapes once), and
// its secret-named keys hold their values at every level.
func TestRedactEscapedJSONDepth(t *testing.T) {
	const pw = "Zq9Secret77"
	checkSubtests(t, pw, []detourCase{
		{"two", `ssh h "curl -d \"{\\\"password\\\": \\\"` + pw + `\\\"}\" https://api/x"`, []string{"https://api/x"}},
		{"two", `bash -c "curl -d \"{\\\"token\\\":\\\"` + pw + `\\\"}\" https://api/x"`, []string{"https://api/x"}},
		{"two", `ssh h "echo \"{\\\"user\\\": \\\"bob\\\", \\\"api_key\\\": \\\"` + pw + `\\\"}\" > /etc/app.json"`, []string{`\\\"user\\\": \\\"bob\\\"`, "> /etc/app.json"}},
		{"two", `ssh h 'ssh g "echo \"{\\\"password\\\": \\\"` + pw + `\\\"}\""'`, nil},
		{"two", `echo "{\\\"client_secret\\\":\\\"` + pw + `\\\"}"`, nil},
		{"two", `echo {\\\"password\\\":\\\"` + pw + `\\\"}`, nil},
		{"single", `echo '{\\"password\\": \\"` + pw + `\\"}'`, nil},
		{"single", `curl -d '{"body": "{\\"secret\\": \\"` + pw + `\\"}"}' https://api/x`, []string{"https://api/x"}},
		{"single", `kubectl patch secret s -p '{\\"stringData\\":{\\"password\\":\\"` + pw + `\\"}}'`, nil},
		// Kept: other keys and the command around them.
		{"kept", `ssh h "curl -d \"{\\\"user\\\": \\\"bob\\\", \\\"n\\\": 2}\" https://api/x"`, []string{`\\\"user\\\": \\\"bob\\\"`, "https://api/x"}},
		{"kept", `echo '{\\"name\\": \\"web\\"}'`, []string{`{\\"name\\": \\"web\\"}`}},
	})
}
