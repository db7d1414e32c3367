package audit

import "testing"

// TestRedactOTPSeeds: oathtool's KEY, the HOTP/TOTP seed every code is
// made from, is its first positional after the options and their
// values; coturn's test client takes the TURN password with -w.
func TestRedactOTPSeeds(t *testing.T) {
	const pw = "JBSWY3DPEHPK3PXPZQ9"
	var cases []detourCase
	for _, c := range []detourCase{
		{"oathtool", "oathtool --totp -b " + pw, []string{"oathtool --totp -b"}},
		{"oathtool", "oathtool -b --totp -d 8 " + pw, []string{"-d 8"}},
		{"oathtool", "oathtool --totp -b -s 60 -N '2024-01-01 00:00' '" + pw + "'", []string{"-s 60"}},
		{"oathtool", "oathtool --hotp -c 5 -w 3 " + pw + " 755224", []string{"-c 5 -w 3", "755224"}},
		{"oathtool", "code=$(oathtool --base32 --totp " + pw + ") && vpn-login bob $code", []string{"vpn-login bob $code"}},
		{"turn", "turnutils_uclient -u bob -w " + pw + " turn.example.com", []string{"turn.example.com"}},
	} {
		cases = append(cases, c, detourCase{c.class + "/ssh", `ssh h "` + escapeDouble(c.in) + `"`, []string{"ssh h"}})
	}
	cases = append(cases,
		detourCase{"kept", "oathtool --help", []string{"oathtool --help"}},
		detourCase{"kept", "man oathtool | grep -i totp", []string{"man oathtool | grep -i totp"}},
	)
	checkSubtests(t, pw, cases)
}
