package policy

import (
	"encoding/base64"
	"encoding/hex"
	"testing"
	"unicode/utf16"
)

// utf16Base64 is s as pwsh -EncodedCommand takes it: UTF-16LE, then base64.
func utf16Base64(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// TestBlindSpotPowerShell: PowerShell's own commands were not deny-list
// words — Restart-Computer and Stop-Computer change the power state and
// Remove-Item -Recurse (and its aliases ri, del, erase, rd) removes a
// tree — in any case, after a module's name, with the backticks a bare
// word ignores.
func TestBlindSpotPowerShell(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"pwsh -c Restart-Computer",
		"pwsh -NoProfile -Command 'Stop-Computer -Force'",
		"powershell -c restart-computer",
		"pwsh -c 'RESTART-COMPUTER -Force'",
		"pwsh -c 'Re`start-Com`puter'",
		"pwsh -c 'Microsoft.PowerShell.Management\\Restart-Computer'",
		`pwsh -c 'iex "Stop-Computer"'`,
		`pwsh -c '$c = "Restart-Computer"; & $c'`,
		`pwsh -c '& ("Restart-" + "Computer")'`,
		"pwsh -c 'Remove-Item -Recurse -Force /'",
		"pwsh -c 'Remove-Item / -Recurse -Force'",
		`pwsh -c "remove-item -path '/etc' -recurse"`,
		"pwsh -c 'ri -r -fo /'",
		"pwsh -c 'del -Recurse /usr'",
		"pwsh -c 'erase -r /boot'",
		"pwsh -c 'rd -r /var'",
	))
	runExactHosts(t, p, []exactCase{
		{"other cmdlets", "pwsh -c 'Get-Process | Stop-Process -Name x; Get-ChildItem /var/log'", TierDestructive},
		{"words about it", `pwsh -c 'Write-Output "restart the computer later"'`, TierDestructive},
		{"a tree of its own", "pwsh -c 'Remove-Item -Recurse -Force /tmp/build'", TierDestructive},
		{"shell backquotes", "echo `date`-`hostname`", TierRead},
	})
}

// TestBlindSpotEncodedPayload: an interpreter's payload that decodes the
// text it runs (base64, either alphabet, padded or not; UTF-16 as pwsh
// -EncodedCommand takes it; hex) hid a deny-list program from the scan
// of the payload; the decoded text, and what it decodes to in turn, is
// now scanned too.
func TestBlindSpotEncodedPayload(t *testing.T) {
	p := testPolicy(t)
	b64 := base64.StdEncoding.EncodeToString
	raw := base64.RawStdEncoding.EncodeToString
	url := base64.URLEncoding.EncodeToString
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`python3 -c "import os,base64; os.system(base64.b64decode('`+b64([]byte("reboot"))+`'))"`,
		`python3 -c "import os,base64; os.system(base64.b64decode('`+b64([]byte(b64([]byte("systemctl poweroff"))))+`').decode())"`,
		`python3 -c "import os; os.system(bytes.fromhex('`+hex.EncodeToString([]byte("shutdown -h now"))+`').decode())"`,
		// The shortest word the scan decodes: halt, six characters unpadded.
		`python3 -c "import os,base64; os.system(base64.b64decode('`+b64([]byte("halt"))+`'))"`,
		`perl -MMIME::Base64 -e 'system(decode_base64("`+raw([]byte("halt"))+`"))'`,
		`perl -MMIME::Base64 -e 'system(decode_base64("`+raw([]byte("init 0"))+`"))'`,
		`node -e "require('child_process').execSync(Buffer.from('`+url([]byte("rm -rf --no-preserve-root /"))+`','base64url').toString())"`,
		`ruby -e 'system(["`+raw([]byte("halt -f"))+`"].pack("m"))'`,
		"pwsh -EncodedCommand "+utf16Base64("Restart-Computer -Force"),
		"pwsh -enc "+utf16Base64("Stop-Computer"),
		"powershell -e "+utf16Base64("& reboot"),
		`pwsh -c "[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('`+b64([]byte("Restart-Computer"))+`')) | iex"`,
	))
	runExactHosts(t, p, []exactCase{
		{"harmless decoded", `python3 -c "import base64; print(base64.b64decode('` + b64([]byte("hello world")) + `'))"`, TierDestructive},
		{"a hash", `python3 -c "print('` + hex.EncodeToString(make([]byte, 32)) + `e3b0c44298fc1c149afbf4c8996fb924')"`, TierDestructive},
		{"a key", `python3 -c "k = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0'"`, TierDestructive},
		{"encoded command, harmless", "pwsh -enc " + utf16Base64("Get-Date"), TierDestructive},
	})
}

// TestEncodedNestBound: text encoded maxDecodings times over is decoded;
// once more is not (each decoding reads the whole text again).
func TestEncodedNestBound(t *testing.T) {
	p := testPolicy(t)
	enc := "reboot"
	for n := 1; n <= maxDecodings+1; n++ {
		enc = base64.StdEncoding.EncodeToString([]byte(enc))
		v := p.Evaluate(Input{Command: `python3 -c "import os; os.system(d('` + enc + `'))"`})
		if v.Denied != (n <= maxDecodings) {
			t.Errorf("encoded %d times: %s, want denied=%v", n, formatVerdict(v), n <= maxDecodings)
		}
	}
}
