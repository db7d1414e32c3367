package audit

import (
	"strings"
	"testing"
)

// TestRedactNestedScriptFeeds: an echo piped into a reader in a script
// two or three shells down, whose quotes are escaped for the shells
// around it (sh -c \"…\", quote-backslash-quote-quote inside '…', \\\"…\\\"), feeds the reader
// as at the top level: the escaped quote opens the inner script before
// its first command and ends the reader's name after its last.
func TestRedactNestedScriptFeeds(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, feed := range []string{
		"echo bob:" + pw + " | chpasswd",
		"echo " + pw + " | sudo -S id",
		"printf 'bob:%s\\n' " + pw + " | chpasswd",
		"echo " + pw + " | passwd --stdin bob",
		"echo " + pw + " | docker login -u bob --password-stdin r.io",
		"echo -n bob:" + pw + " | sudo chpasswd",
	} {
		dq := strings.ReplaceAll(feed, `\`, `\\`)
		sq := strings.ReplaceAll(feed, `'`, `'\''`)
		for _, in := range []string{`sh -c "` + dq + `"`, `bash -lc "` + dq + `"`, `sudo sh -c "` + dq + `"`, `su -c "` + dq + `"`} {
			// One level down inside ssh's "…": the inner quotes are \".
			cases = append(cases,
				detourCase{"ssh-dq", `ssh h "` + escapeDouble(in) + `"`, []string{"ssh h"}},
				detourCase{"sh-dq", `sh -c "` + escapeDouble(in) + `"`, []string{"sh -c"}},
				detourCase{"docker", `docker exec c sh -c "` + escapeDouble(in) + `"`, []string{"docker exec c"}},
				detourCase{"kubectl", `kubectl exec p -- sh -c "` + escapeDouble(in) + `"`, []string{"kubectl exec p"}},
				// Two levels down: \\\" around the innermost script.
				detourCase{"ssh-dq2", `ssh h "sh -c \"` + escapeDouble(escapeDouble(in)) + `\""`, []string{"ssh h"}},
			)
		}
		if strings.Contains(feed, "'") {
			// A quoted printf format two shells down inside '…' is
			// beyond the one level of inner quotes followed.
			continue
		}
		for _, in := range []string{`sh -c '` + sq + `'`, `sudo sh -c '` + sq + `'`, `su -c '` + sq + `'`} {
			// Inside a top-level '…': the inner quotes are '\''.
			esc := strings.ReplaceAll(in, `'`, `'\''`)
			cases = append(cases,
				detourCase{"ssh-sq", `ssh h '` + esc + `'`, []string{"ssh h"}},
				detourCase{"sh-sq", `sh -c '` + esc + `'`, []string{"sh -c"}},
				detourCase{"sh-sq2", `sh -c 'sh -c '\''` + strings.ReplaceAll(esc, `'`, `'\''`) + `'\'''`, []string{"sh -c"}},
			)
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: what nested scripts pipe to programs that read no secret.
	checkSpellings(t, []spelling{
		{`ssh h "sh -c \"echo deploy notes | logger -t app\""`, nil, []string{"deploy notes"}},
		{`sh -c 'sh -c '\''echo deploy notes | grep deploy'\'''`, nil, []string{"deploy notes"}},
		{`ssh h "sh -c \"sh -c \\\"echo deploy notes | wc -l\\\"\""`, nil, []string{"deploy notes"}},
		{`ssh h "echo \"deploy notes\" | logger; chpasswd < /tmp/u"`, nil, []string{"deploy notes"}},
		{`sh -c "echo \"x | chpasswd\" > /tmp/notes"`, nil, []string{"x | chpasswd"}},
	})
}
