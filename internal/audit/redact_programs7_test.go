package audit

import "testing"

// TestRedactMorePrograms: programs' own password options and prompts
// found open this round (steghide -p, winrs -p:, createuser -P, salt-call
// and salt-ssh like salt), and a process substitution given to a password
// file option spelled as one word (initdb --pwfile, --passfile,
// --secretfile).
func TestRedactMorePrograms(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"option", "steghide embed -cf a.jpg -ef s.txt -p " + pw, []string{"-ef s.txt"}},
		{"option", "steghide extract -sf a.jpg --passphrase '" + pw + "'", []string{"-sf a.jpg"}},
		{"option", "winrs -r:h -u:bob -p:" + pw + " cmd", []string{"-u:bob", " cmd"}},
		{"option", "winrs /r:h /u:bob /p:" + pw + " ipconfig", []string{"ipconfig"}},
		{"option", "ssh jump 'winrs -r:h -u:bob -p:" + pw + " cmd'", []string{"ssh jump"}},
		{"positional", "salt-call --local shadow.set_password bob " + pw, []string{"set_password bob"}},
		{"positional", "salt-ssh '*' user.chpass bob " + pw, []string{"user.chpass bob"}},
		{"prompt", "createuser -P bob <<< $'" + pw + "\\n" + pw + "'", []string{"createuser -P bob"}},
		{"prompt", "printf '" + pw + "\\n" + pw + "\\n' | createuser --pwprompt -U postgres bob", []string{"-U postgres bob"}},
		{"prompt", "sudo -u postgres createuser -P app <<EOF\n" + pw + "\n" + pw + "\nEOF", nil},
		{"pwfile", "initdb --pwfile=<(echo " + pw + ") -D /var/lib/pg", []string{"-D /var/lib/pg"}},
		{"pwfile", "initdb -D d --pwfile <(printf '%s' " + pw + ")", nil},
		{"pwfile", "./app --passfile <(echo " + pw + ")", nil},
		{"pwfile", "./app --secretfile=<(echo " + pw + ")", nil},
		{"positional", "vercel secrets add stripe-key " + pw, []string{"vercel secrets add stripe-key"}},
		{"positional", "npx vercel secret add db " + pw, nil},
		// Kept: no secret in these.
		{"kept", "createuser -d bob", []string{"createuser -d bob"}},
		{"kept", "steghide info a.jpg", []string{"steghide info a.jpg"}},
		{"kept", "initdb -D d --pwfile=/root/pw", []string{"--pwfile=/root/pw"}},
		{"kept", "winrs -r:h -u:bob cmd", []string{"-u:bob cmd"}},
		{"kept", "salt-call state.apply", []string{"state.apply"}},
		{"kept", "diff <(sort a) <(sort b)", []string{"<(sort a) <(sort b)"}},
		{"kept", "vercel secrets rm foo", []string{"vercel secrets rm foo"}},
		{"kept", "vercel deploy --prod", []string{"--prod"}},
	})
}
