package audit

import "strings"

// A script's variable given where a secret goes in an argv list
// (p := "…"; exec.Command("sshpass", "-p", p, …), x = "…";
// subprocess.run(["curl", "-u", x, …])): the item is a name, not the
// secret, so the literal assigned to the name is the secret. The name is
// noted as a secret's place in the first pass, as a shell expansion is
// (secretUse), and its assignments are redacted in the second.

// scriptSecretItem notes the argv list item s[k:e] at a secret's place
// when it is a bare name.
func (r *redactor) scriptSecretItem(k, e int) {
	for e > k && (r.s[e-1] == ' ' || r.s[e-1] == '\t') {
		e--
	}
	name := r.s[k:e]
	if r.argv.second || !shellName(name) || !isAlnumUnderscore(name[0]) {
		return
	}
	for x := 0; x < len(name); x++ {
		if !isAlnumUnderscore(name[x]) {
			return
		}
	}
	r.argv.use(name, heldSecret)
	r.argv.secretUses = true
}

// scriptAssigned redacts, in the second pass, the quoted literal assigned
// to the name s[i:j] a secret's place in a script uses (name = "…",
// name := "…", let name = '…'), and returns where scanning resumes, or 0.
func (r *redactor) scriptAssigned(i, j int) int {
	s := r.s
	k := skipBlanks(s, j)
	switch {
	case strings.HasPrefix(s[k:], ":="):
		k += 2
	case k < len(s) && s[k] == '=' && !strings.HasPrefix(s[k:], "=="):
		if k == j {
			return 0 // name=value: the shell's assignment, read by holdWord
		}
		k++
	default:
		return 0
	}
	k = skipBlanks(s, k)
	if k >= len(s) || s[k] != '"' && s[k] != '\'' && s[k] != '`' {
		return 0
	}
	e := strings.IndexByte(s[k+1:min(len(s), k+1+maxSQLValue)], s[k])
	if e <= 0 {
		return 0
	}
	return r.replace(k+1, k+1+e, Redacted)
}
