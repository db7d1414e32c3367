package audit

import "testing"

// TestRedactANSIQuotedNames: bash joins a name from $'…' and $"…" parts as
// from '…' and "…", so an option or variable named so (curl $'-u',
// --pass$'word'=, env PG$'PASS'WORD=) takes its value by the same rules.
func TestRedactANSIQuotedNames(t *testing.T) {
	checkCases(t, []spelling{
		{"env PG$'PASS'WORD=S3cr3tZ psql", []string{"S3cr3tZ"}, []string{" psql"}},
		{"docker run -e PG$'PASS'WORD=S3cr3tZ pg", []string{"S3cr3tZ"}, []string{" pg"}},
		{"mysql --pass$'word'=S3cr3tZ", []string{"S3cr3tZ"}, []string{"mysql --pass"}},
		{`mysql --pass$"word"=S3cr3tZ`, []string{"S3cr3tZ"}, []string{"mysql --pass"}},
		{"curl $'-u' bob:S3cr3tZ h", []string{"S3cr3tZ"}, []string{"bob:", " h"}},
		{"sshpass $'-p' S3cr3tZ ssh h", []string{"S3cr3tZ"}, []string{" ssh h"}},
		{`sshpass $"-p" S3cr3tZ ssh h`, []string{"S3cr3tZ"}, []string{" ssh h"}},
		{"curl $'--user' bob:S3cr3tZ h", []string{"S3cr3tZ"}, []string{"bob:"}},
		{"ldapsearch -x $'-w' S3cr3tZ -b dc=x", []string{"S3cr3tZ"}, []string{"-b dc=x"}},
		// Kept: other options.
		{"ssh $'-p' 2222 h", nil, []string{"ssh $'-p' 2222 h"}},
		{"curl $'-H' 'Accept: x' h", nil, []string{"'Accept: x'"}},
	})
}
