package audit

import "testing"

// TestRedactPrintfAttachedVar: bash's printf takes -v's name attached
// too (printf -vTOKEN …), also run as command printf or builtin printf,
// and what it prints is that variable's value.
func TestRedactPrintfAttachedVar(t *testing.T) {
	const pw = "Zq9Secret77"
	checkSubtests(t, pw, []detourCase{
		{"local", "printf -vAPI_TOKEN '%s' " + pw + "; export API_TOKEN", []string{"export API_TOKEN"}},
		{"local", "printf -vGITHUB_TOKEN %s " + pw + " && gh api /user", []string{"&& gh api /user"}},
		{"local", "builtin printf -vDB_SECRET '%s\\n' '" + pw + "'", nil},
		{"ssh", `ssh h "printf -vAPI_TOKEN '%s' ` + pw + `; curl -H \"X: \$API_TOKEN\" h"`, []string{"ssh h"}},
		{"builtin", "builtin printf -v DB_SECRET '%s' " + pw, nil},
		{"builtin", "command printf -vDB_SECRET %s " + pw + "; ./migrate", []string{"./migrate"}},
		{"sh", `sh -c 'printf -vVAULT_TOKEN %s ` + pw + `; vault status'`, []string{"vault status"}},
		{"kept", "printf -vname '%s' web; echo $name", []string{"printf -vname '%s' web; echo $name"}},
	})
}
