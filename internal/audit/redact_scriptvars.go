package audit

import "strings"

// A script's variable given where a secret goes in an argv list
// (p := "…"; exec.Command("sshpass", "-p", p, …), x = "…";
// subprocess.run(["curl", "-u", x, …])), as a secret-named key's value
// (os.environ["PGPASSWORD"] = x, {"password": x}) or a login call's
// password (ftp.login("bob", x)): the item is a name, not the secret, so
// the literal assigned to the name is the secret. The name is
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

// maxNamesLooked bounds how many names one text is searched for an
// assignment of (scriptNameUse), so the search stays linear.
const maxNamesLooked = 4

// scriptNameUse is scriptSecretItem for the name s[k:e] as a secret key's
// value or a login call's password, where a name is as often a literal
// (YAML's password: changeme, a shell's secret=pw) as a script's
// variable: it is noted only when the text assigns it a value as
// scriptAssigned reads one, so a text that does not is not read twice.
// Each name is searched for once.
func (r *redactor) scriptNameUse(k, e int) {
	if r.argv.second || e <= k {
		return
	}
	name := r.s[k:e]
	for n := 0; n < r.namesLooked; n++ {
		if r.looked[n] == name {
			return
		}
	}
	if r.namesLooked == maxNamesLooked {
		return
	}
	r.looked[r.namesLooked] = name
	r.namesLooked++
	if assignsName(r.s, name) {
		r.scriptSecretItem(k, e)
	}
}

// assignsName reports whether s holds name = or name := (a script's
// assignment, not the shell's name=), in one scan.
func assignsName(s, name string) bool {
	for from := 0; ; {
		x := strings.Index(s[from:], name)
		if x < 0 {
			return false
		}
		p := from + x + len(name)
		q := p
		for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
			q++
		}
		if strings.HasPrefix(s[q:], ":=") || q > p && q+1 < len(s) && s[q] == '=' && s[q+1] != '=' {
			return true
		}
		from = p
	}
}

// scriptAssigned redacts, in the second pass, the quoted literal assigned
// to the name s[i:j] a secret's place in a script uses (name = "…",
// name := "…", let name = '…'), and returns where scanning resumes, or 0.
func (r *redactor) scriptAssigned(i, j int) int {
	s := r.s
	if end := r.routerAssigned(i, j); end > 0 {
		return end // :local p "…"; /user set admin password=$p
	}
	b := i
	for b > 0 && (s[b-1] == ' ' || s[b-1] == '\t') {
		b--
	}
	if b > 0 && s[b-1] == ',' || j < len(s) && s[j] == ',' {
		return 0 // u, pw = 'bob', '…': unpacked, read by unpacked (redact_decls.go)
	}
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
	if strings.HasPrefix(s[k:], `\"`) {
		// Inside a shell's double quotes: ssh h "python3 -c 'x = \"…\"; …'".
		e := strings.Index(s[k+2:min(len(s), k+2+maxSQLValue)], `\"`)
		if e <= 0 {
			return 0
		}
		return r.replace(k+2, k+2+e, Redacted)
	}
	if k >= len(s) || s[k] != '"' && s[k] != '\'' && s[k] != '`' {
		return 0
	}
	e := strings.IndexByte(s[k+1:min(len(s), k+1+maxSQLValue)], s[k])
	if e <= 0 {
		return 0
	}
	return r.replace(k+1, k+1+e, Redacted)
}
