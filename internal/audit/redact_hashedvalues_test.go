package audit

import "testing"

// TestRedactHashedValues: a secret-named key whose value is a call
// qualified by '.', '::' or '->' (password: bcrypt.hashSync("…", 10),
// 'password' => Hash::make('…'), BCrypt::Password.create("…")) loses the
// call's literal, not the call's name; and publishers' and user tools'
// own password options and prompts (hatch publish -a, uv publish -p,
// npm adduser, adduser).
func TestRedactHashedValues(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"call", `php artisan tinker --execute="User::find(1)->update(['password' => Hash::make('` + pw + `')])"`, []string{"Hash::make('"}},
		{"call", `node -e 'db.users.insert({name: "bob", password: bcrypt.hashSync("` + pw + `", 10)})'`, []string{`bcrypt.hashSync("`, ", 10)"}},
		{"call", `ruby -e 'u.update(password: BCrypt::Password.create("` + pw + `"))'`, []string{"BCrypt::Password.create("}},
		{"call", `php -r '$u->update(["password" => password_hash("` + pw + `", PASSWORD_BCRYPT)]);'`, []string{"password_hash("}},
		{"call", `php -r '$u->password = $hasher->make("` + pw + `");'`, nil},
		{"call", `rails runner 'User.create!(email: "a@b", password: Digest::SHA256.hexdigest("` + pw + `"))'`, []string{"Digest::SHA256.hexdigest("}},
		{"call", "mongosh --eval 'db.users.updateOne({u: \"bob\"}, {$set: {password: bcrypt.hashSync(\"" + pw + "\")}})'", nil},
		{"call", `ssh app1 "php -r '\$u->update([\"password\" => Hash::make(\"` + pw + `\")]);'"`, []string{"ssh app1"}},
		{"publish", "hatch publish -u __token__ -a " + pw, []string{"-u __token__"}},
		{"publish", "hatch publish --auth " + pw, nil},
		{"publish", "uv publish -p " + pw, nil},
		{"publish", "uv publish -u bob -p '" + pw + "' dist/*", []string{"dist/*"}},
		{"publish", "uv publish -t " + pw, nil},
		{"prompt", "npm adduser <<< $'bob\\n" + pw + "\\na@b'", []string{"npm adduser"}},
		{"prompt", "printf 'bob\\n" + pw + "\\n' | npm adduser --registry https://r", []string{"--registry https://r"}},
		{"prompt", "adduser bob <<< $'" + pw + "\\n" + pw + "\\n'", nil},
		// Kept: a getter's name, another program's -p, no value.
		{"kept", `ruby -e 'puts password: ENV.fetch("PW")'`, []string{`ENV.fetch("PW")`}},
		{"kept", `python3 -c 'print(dict(password=os.environ.get("PW")))'`, []string{`os.environ.get("PW")`}},
		{"kept", "uv pip install -p 3.12 requests", []string{"-p 3.12"}},
		{"kept", "uv run -p python3.11 x.py", []string{"-p python3.11"}},
		{"kept", "hatch run -a x", []string{"-a x"}},
		{"kept", "adduser bob sudo", []string{"adduser bob sudo"}},
		{"kept", "kubectl get secret x -o jsonpath='{.data.password}'", []string{"{.data.password}"}},
	})
}
