package audit

import "testing"

// TestRedactIdiomQuotedValues: inside sh -c '…' (or ssh h '…', su -c
// '…'), a script's own single quotes are spelled with the idiom that
// closes the outer string, adds an escaped quote and opens it again. A
// secret-named key, a login call's password and a secret-named subscript
// quoted that way hold their values as when quoted plainly.
func TestRedactIdiomQuotedValues(t *testing.T) {
	const pw = "Zq9Secret77"
	q := `'\''`
	checkSubtests(t, pw, []detourCase{
		{"key", `sh -c 'echo "{` + q + `password` + q + `: ` + q + pw + q + `}" > /etc/app.json; systemctl restart app'`, []string{"> /etc/app.json; systemctl restart app"}},
		{"key", `ssh h 'ruby -e "h = {` + q + `api_key` + q + ` => ` + q + pw + q + `, ` + q + `user` + q + ` => ` + q + `bob` + q + `}"'`, []string{q + `user` + q + ` => ` + q + `bob` + q}},
		{"key", `sh -c 'node -e "c({` + q + `token` + q + `:` + q + pw + q + `})"'`, nil},
		{"key", `su - app -c 'printf "%s" "{` + q + `secret` + q + `: ` + q + pw + q + `}" > s.json'`, []string{"> s.json"}},
		{"login", `sh -c 'mongosh --eval "db.auth(` + q + `admin` + q + `,` + q + pw + q + `)" admin; echo ok'`, []string{"admin" + q, "echo ok"}},
		{"login", `sh -c 'python3 -c "ftp.login(` + q + `bob` + q + `, ` + q + pw + q + `)"; echo ok'`, []string{"bob" + q, "echo ok"}},
		{"subscript", `sh -c 'python3 -c "x[` + q + `password` + q + `]=` + q + pw + q + `; print(x[` + q + `user` + q + `])"'`, []string{"print(x["}},
		{"subscript", `bash -c 'python3 -c "os.environ[` + q + `PGPASSWORD` + q + `] = ` + q + pw + q + `"; psql -h db'`, []string{"psql -h db"}},
		// Kept: other keys and calls quoted that way.
		{"kept", `sh -c 'echo "{` + q + `name` + q + `: ` + q + `web` + q + `}"'`, []string{q + `name` + q + `: ` + q + `web` + q}},
		{"kept", `sh -c 'python3 -c "print(x[` + q + `user` + q + `])"'`, []string{`print(x[` + q + `user` + q + `])`}},
	})
}
