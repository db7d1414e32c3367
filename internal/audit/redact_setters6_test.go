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

// TestRedactKeyedSetters: tools that name a setting's key with one option
// and give its value with another (reg add /v … /d …, plutil -replace KEY
// -string …, xmlstarlet -u XPATH -v …) lose the value when the key's last
// segment names a secret; other keys' values stay.
func TestRedactKeyedSetters(t *testing.T) {
	checkCases(t, []spelling{
		{`reg add HKLM\Software\X /v Password /t REG_SZ /d S3cr3tZ /f`, []string{"S3cr3tZ"}, []string{"/v Password /t REG_SZ /d ", " /f"}},
		{`REG ADD "HKCU\Software\App" /V ApiToken /D "S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"/V ApiToken /D "}},
		{"plutil -replace password -string S3cr3tZ f.plist", []string{"S3cr3tZ"}, []string{" f.plist"}},
		{"xmlstarlet ed -L -u '//password' -v S3cr3tZ c.xml", []string{"S3cr3tZ"}, []string{" c.xml"}},
		{`xmlstarlet ed -u "/config/db/password" -v "S3cr3tZ" c.xml`, []string{"S3cr3tZ"}, []string{`-u "/config/db/password" -v "`}},
		{"xmlstarlet ed -s /cfg -t elem -n token -v S3cr3tZ c.xml", []string{"S3cr3tZ"}, []string{"-n token -v "}},
		// Kept.
		{`reg add HKLM\Software\X /v Port /t REG_DWORD /d 8080`, nil, []string{"/d 8080"}},
		{"xmlstarlet ed -u //port -v 8080 c.xml", nil, []string{"-v 8080"}},
		{"plutil -replace autohide -bool true f.plist", nil, []string{"-bool true"}},
	})
}

// TestRedactSecretPathKeys: a key-value store's key under a path whose
// first segment stores secrets (secret/, secrets/, credentials/) holds
// one whatever its last segment's name, and a quoted key path is read as
// the plain one.
func TestRedactSecretPathKeys(t *testing.T) {
	checkCases(t, []spelling{
		{"consul kv put secret/db S3cr3tZ", []string{"S3cr3tZ"}, []string{"consul kv put secret/db "}},
		{"consul kv put secrets/app/dsn S3cr3tZ", []string{"S3cr3tZ"}, []string{"secrets/app/dsn "}},
		{"etcdctl put /secrets/app/db S3cr3tZ", []string{"S3cr3tZ"}, []string{"/secrets/app/db "}},
		{`consul kv put "secret/db" S3cr3tZ`, []string{"S3cr3tZ"}, []string{`"secret/db" `}},
		{`consul kv put "app/password" S3cr3tZ`, []string{"S3cr3tZ"}, []string{`"app/password" `}},
		{`git config --global "user.password" S3cr3tZ`, []string{"S3cr3tZ"}, []string{`"user.password" `}},
		// Kept.
		{"consul kv put app/config/port 8080", nil, []string{"app/config/port 8080"}},
		{`consul kv put "app/port" 8080`, nil, []string{`"app/port" 8080`}},
	})
}
