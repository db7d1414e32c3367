package audit

import (
	"slices"
	"strings"
)

// A key named by its file: openssl's -signkey k.pem and -inkey, ssh's and
// ansible's --private-key ~/.ssh/id_rsa, terraform's ssh_key=…pub. The
// name ends in "key", but the value is where the key is kept, a path, and
// no secret.

// keyFilePath reports whether the key or flag w, whose separator or
// blank is at sep, names a key and is given a file's path.
func keyFilePath(w, s string, sep int) bool {
	l := strings.ToLower(strings.TrimLeft(w, "-"))
	if sep >= len(s) {
		return false
	}
	if i := sep - len(w); i >= 0 && s[i:sep] == w && strings.HasSuffix(s[:i], "--from-file=") && s[sep] == '=' {
		// kubectl create secret … --from-file=password=pw.txt: the
		// key's source is a file, by the option's definition.
		return true
	}
	// mount.cifs -o credentials=/root/.smbcred: a file of credentials.
	// SUDO_ASKPASS=/tmp/ap: a program that prints the password
	// (redact_pwfiles.go reads what was written there).
	if !strings.HasSuffix(l, "key") && l != "credentials" && l != "creds" && !askpassName(w) {
		return false
	}
	k := sep
	switch {
	case s[k] == '=':
		k++
	case w[0] == '-' && (s[k] == ' ' || s[k] == '\t'):
		k = skipBlanks(s, k)
	default:
		return false
	}
	if k < len(s) && (s[k] == '"' || s[k] == '\'') {
		k++
	}
	e := k
	for e < len(s) && e-k < 256 && s[e] > ' ' && s[e] != '"' && s[e] != '\'' && s[e] != ',' && s[e] != ';' {
		e++
	}
	v := s[k:e]
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		strings.HasPrefix(v, "$HOME/") || strings.HasPrefix(v, "${HOME}/") {
		return true
	}
	if d := strings.LastIndexByte(v, '.'); d > 0 {
		switch strings.ToLower(v[d+1:]) {
		case "pem", "key", "crt", "cer", "der", "p12", "pfx", "jks", "pub", "ppk", "asc", "gpg", "p8":
			return true
		}
	}
	return false
}

// keyFileOptions are programs' options named for a key whose value is
// always the key's file (or an algorithm), however the file is named:
// openssl rsa -inkey k, x509 -CAkey cakey, req -newkey rsa:2048,
// ansible-playbook --private-key id_ed25519, docker --tlskey key.
// openssl ca's -key is its password, and -k and -K of enc are secrets:
// they are no file.
var keyFileOptions = map[string][]string{
	"openssl":          {"-inkey", "-signkey", "-CAkey", "-newkey", "-keyout", "-rkey"},
	"ansible":          {"--private-key", "--key-file"},
	"ansible-playbook": {"--private-key", "--key-file"},
	"ansible-pull":     {"--private-key", "--key-file"},
	"ansible-console":  {"--private-key", "--key-file"},
	"docker":           {"--tlskey"},
	"podman":           {"--tlskey"},
	"dockerd":          {"--tlskey"},
}

// keyFileOption reports whether w is an option of the command cmd whose
// value names a key's file.
func keyFileOption(cmd, w string) bool {
	if w[0] != '-' {
		return false
	}
	if k := strings.IndexByte(w, '='); k > 0 {
		w = w[:k]
	}
	return slices.Contains(keyFileOptions[cmd], w)
}

// secretReference reports whether the flag w, whose separator or blank is
// at sep, is --secret given a build or service secret's reference (docker
// buildx build --secret id=npm,src=/root/.npmrc, docker service create
// --secret source=db_pw,target=pw): where the secret is read from, not
// the secret.
func secretReference(w, s string, sep int) bool {
	if w != "--secret" || sep >= len(s) || s[sep] != '=' && s[sep] != ' ' && s[sep] != '\t' {
		return false
	}
	k := skipBlanks(s, sep+b2i(s[sep] == '='))
	if k < len(s) && (s[k] == '"' || s[k] == '\'') {
		k++
	}
	v := s[k:min(len(s), k+16)]
	return strings.HasPrefix(v, "id=") || strings.HasPrefix(v, "source=") || strings.HasPrefix(v, "src=") || strings.HasPrefix(v, "type=")
}
