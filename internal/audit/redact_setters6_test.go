package audit

import "testing"

// TestRedactSettingsWriters: tools that write a setting by its key or
// path lose the value of a secret-named one: a JSON Patch's operation by
// its path, debconf's password-typed answers, macOS's defaults write and
// augtool set; other settings stay.
func TestRedactSettingsWriters(t *testing.T) {
	checkCases(t, []spelling{
		{`kubectl patch secret s --type=json -p='[{"op":"replace","path":"/data/password","value":"S3cr3tZ"}]'`, []string{"S3cr3tZ"}, []string{`"path":"/data/password","value":"`}},
		{`kubectl patch secret s --type=json -p='[{"op":"add","path":"/stringData/token","value":"S3cr3tZ"}]'`, []string{"S3cr3tZ"}, []string{`"op":"add"`}},
		{`echo "mysql-server mysql-server/root_password_again password S3cr3tZ" | debconf-set-selections`, []string{"S3cr3tZ"}, []string{"root_password_again password "}},
		{"debconf-set-selections <<< 'slapd slapd/password1 password S3cr3tZ'", []string{"S3cr3tZ"}, []string{"debconf-set-selections <<< '"}},
		{"cat <<EOF | debconf-set-selections\npostfix postfix/sasl_password password S3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"sasl_password password "}},
		{"defaults write com.example.app password S3cr3tZ", []string{"S3cr3tZ"}, []string{"com.example.app password "}},
		{"augtool set /files/etc/app.conf/password S3cr3tZ", []string{"S3cr3tZ"}, []string{"/files/etc/app.conf/password "}},
		// Kept.
		{`kubectl patch deploy d --type=json -p='[{"op":"replace","path":"/spec/replicas","value":3}]'`, nil, []string{`"value":3`}},
		{"echo 'tzdata tzdata/Areas select Europe' | debconf-set-selections", nil, []string{"select Europe"}},
		{"defaults write com.apple.dock autohide -bool true", nil, []string{"autohide -bool true"}},
	})
}
