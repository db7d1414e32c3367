package audit

import "testing"

// TestRedactRedirectionAmpersands: the '&' of a redirection (2>&1, >&2,
// <&0, &>/dev/null, &>>log) is no command's end, so the options after
// it and the here-string or here-document of the same command are
// still that command's; a '&' that runs a command in the background
// still ends it.
func TestRedactRedirectionAmpersands(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, rd := range []string{"2>&1", ">&2", "1>&2", "2>&-", ">&/dev/null", "&>/dev/null", "&>>/tmp/log", "&> /tmp/log", "<&0", "0<&0", "2>&1 >/dev/null"} {
		for _, c := range []string{
			"sudo -S id " + rd + " <<< " + pw,
			"chpasswd " + rd + " <<< 'bob:" + pw + "'",
			"chpasswd " + rd + " <<EOF\nbob:" + pw + "\nEOF",
			"docker login -u bob --password-stdin r.io " + rd + " <<< " + pw,
			"mysql -uroot " + rd + " -p" + pw + " shop",
			"sshpass " + rd + " -p " + pw + " ssh h",
			"curl -s " + rd + " -u bob:" + pw + " https://x",
			"htpasswd -b " + rd + " /etc/h bob " + pw,
			"redis-cli -h db " + rd + " -a " + pw + " ping",
		} {
			cases = append(cases, detourCase{"local", c, []string{rd}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: a background '&' ends the command, and what follows is
	// another's.
	checkSpellings(t, []spelling{
		{"chpasswd < /tmp/u & cat <<< 'deploy notes'", nil, []string{"deploy notes"}},
		{"sudo -S id 2>&1 & cat <<< 'deploy notes'", nil, []string{"deploy notes"}},
		{"mysql -p 2>&1 & nc -p 3306 db", nil, []string{"nc -p 3306 db"}},
		{"make 2>&1 | tee build.log && ls -p /tmp", nil, []string{"make 2>&1 | tee build.log && ls -p /tmp"}},
		{"cmd >/dev/null 2>&1 &\necho done", nil, []string{"cmd >/dev/null 2>&1 &\necho done"}},
	})
}
