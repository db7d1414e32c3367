package audit

import "strings"

// Which commands read a secret on their standard input: the key and
// password readers by name and option, and any command whose own words
// cue a credential.

// credentialCue reports whether a word of a command (its name or an
// argument) says the command handles a credential: a segment of it
// (split at '-', '_', '.' and case) is passwd, password, passphrase,
// pass (or ends in pass: storepass), login, logon, unlock, auth, cpw,
// secret, key or token, or it holds "passw" (ldappasswd, mosquitto_passwd,
// systemd-ask-password, pveum passwd, kadmin -q 'cpw u', mongosh
// --password, expect -f login.exp). Such a command that is fed a
// literal on its input (echo, printf, yes, <<<, a here-document) is
// most likely given the password it asks for, since nothing else would
// be typed into a password or login prompt, so that literal is
// redacted: a redacted harmless literal costs the log a word, a kept
// password costs the secret. Text filters (grep password) are no such
// command: their input is the text they search.
func credentialCue(w string) bool {
	if len(w) < 3 || len(w) > 64 {
		return false
	}
	if len(w) >= 5 && containsFold(w, "passw") {
		return true
	}
	for k := 0; k < len(w); {
		for k < len(w) && (w[k] == '-' || w[k] == '_' || w[k] == '.') {
			k++
		}
		e := k
		for e < len(w) && w[e] != '-' && w[e] != '_' && w[e] != '.' {
			e++
		}
		if cueSegment(w[k:e], w[0] == '-') {
			return true
		}
		k = e
	}
	return false
}

// cueSegments are the words credentialCue looks for, by length.
var cueSegments = [...][]string{
	3: {"cpw", "key"}, 4: {"pass", "auth"}, 5: {"login", "logon", "token"}, 6: {"unlock", "secret", "signin"}, 7: {"adduser"}, 10: {"passphrase"},
	// gem signin, … authenticate: a login by another name.
	12: {"authenticate"},
}

// cueSegment reports whether the segment g, in any case, is one of
// cueSegments or, in an option, ends in pass after 3 bytes or more
// (keytool -importpass, -storepass; not sshpass, which has its own rule).
func cueSegment(g string, option bool) bool {
	if len(g) < len(cueSegments) {
		for _, c := range cueSegments[len(g)] {
			if strings.EqualFold(g, c) {
				return true
			}
		}
	}
	return option && len(g) >= 7 && strings.EqualFold(g[len(g)-4:], "pass") && !strings.EqualFold(g, "bypass") && !strings.EqualFold(g, "compass")
}

// textFilter reports whether the program cmd reads its input as text to
// search, transform or show, whatever its arguments name.
func textFilter(cmd string) bool {
	switch cmd {
	case "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "mawk", "jq", "yq", "gojq", "cut", "tr", "sort",
		"uniq", "head", "tail", "wc", "cat", "tac", "less", "more", "column", "fold", "fmt", "nl", "base64", "xxd", "od", "hexdump",
		"md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "diff", "cmp", "comm", "paste", "join", "tee", "echo",
		"printf", "test", "[", "[[", "perl", "python", "python3", "ruby", "node", "xargs", "logger", "wall", "write", "mail", "mailx",
		"sendmail", "gzip", "xz", "zstd", "bzip2", "iconv", "rev", "expand", "unexpand", "strings", "file", "bc", "dc",
		// Nor are commands that read no input, whose arguments are
		// paths or names (cd auth, vim secret.txt): a session's next
		// line after them is a command, not a password.
		"cd", "ls", "ll", "vi", "vim", "nvim", "nano", "emacs", "rm", "cp", "mv", "mkdir", "rmdir", "touch", "chmod", "chown",
		"chgrp", "find", "stat", "du", "df", "tree", "man", "which", "type", "whereis", "ln", "readlink", "realpath", "basename", "dirname":
		return true
	}
	return false
}

// readsSecretInput reports whether the word w of a command whose first
// word is cmd (a wrapper of another program when wrapped), followed by
// rest, makes it read a password or token on its input.
func readsSecretInput(cmd, w, rest string, wrapped bool) bool {
	if cmd == "read" && len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w, 's') > 0 {
		return true // read -s, -rsp 'Password: ': a shell's silent prompt
	}
	switch w {
	case "chpasswd", "--with-token", "--key-file=-":
		return true
	case "--stdin":
		// elasticsearch-, kibana- and logstash-keystore add NAME --stdin.
		return cmd == "sudo" || cmd == "passwd" || cmd == "glab" || cmd == "veracrypt" || cmd == "mkpasswd" ||
			strings.HasSuffix(cmd, "-keystore")
	case "context":
		return cmd == "hcloud" // hcloud context create NAME reads the token there
	case "stdin", "-stdin":
		return cmd == "openssl" // -passin stdin, passwd -stdin
	case "secret":
		// secret create x -, secret set X, create secret … --from-file=/dev/stdin,
		// wrangler secret put X.
		return cmd == "docker" || cmd == "podman" || cmd == "gh" || cmd == "kubectl" || cmd == "oc" || cmd == "wrangler"
	case "secrets":
		// gcloud secrets create x --data-file=-, fly secrets import,
		// firebase functions:secrets:set X (prompts, reads a pipe).
		// doppler secrets set NAME reads the value there too.
		return cmd == "gcloud" || cmd == "fly" || cmd == "flyctl" || cmd == "firebase" || cmd == "doppler"
	case "login":
		return cmd == "cargo" || cmd == "bw" || cmd == "lpass" // cargo login reads the token
	case "--askpass":
		return cmd == "redis-cli" || cmd == "openvpn"
	case "--ask":
		return cmd == "nmcli"
	case "-x":
		// redis-cli -x AUTH: the last argument, the password, is read there.
		return cmd == "redis-cli" && strings.Contains(rest[:min(len(rest), 64)], "AUTH")
	case "padd", "pupdate":
		return cmd == "keyctl"
	case "store":
		return cmd == "secret-tool" || cmd == "git" // git credential store
	case "-K-", "-K", "--config":
		// curl -K - reads options, user = "u:p" among them, on its input.
		// ansible -K asks for become's password.
		return cmd == "curl" && (w == "-K-" || strings.HasPrefix(rest, " -") && (len(rest) == 2 || strings.IndexByte(" \t\n;|&<", rest[2]) >= 0)) ||
			w == "-K" && strings.HasPrefix(cmd, "ansible")
	case "insert":
		return cmd == "pass" || cmd == "gopass"
	case "approve":
		return cmd == "git" // git credential approve: password=… lines
	case "add":
		return cmd == "vercel" // vercel env add NAME reads the value
	case "-":
		// vault login -, ecryptfs-add-passphrase -
		// systemd-creds encrypt - out, ssh-add - (a private key).
		// rclone obscure - (the password it obscures).
		// rdesktop -p - reads the password there.
		return cmd == "vault" || cmd == "bao" || cmd == "rdesktop" || cmd == "ecryptfs-add-passphrase" || cmd == "systemd-creds" || cmd == "ssh-add" || cmd == "rclone" ||
			cmd == "ecryptfs-unwrap-passphrase" || cmd == "ecryptfs-insert-wrapped-passphrase-into-keyring"
	case "bootstrap":
		// nomad acl bootstrap -, consul acl bootstrap -: the bootstrap
		// token; it reads nothing else there.
		return cmd == "nomad" || cmd == "consul"
	case "password_stdin":
		return cmd == "sshfs" // sshfs -o password_stdin
	case "private-key", "preshared-key":
		return cmd == "wg" // wg set wg0 private-key /dev/stdin
	case "-t", "--password-from-stdin", "-a", "--create":
		return cmd == "pdbedit" // -a asks for the new user's password
	case "load-key", "change-key":
		// zfs load-key and change-key read the key (a passphrase, or a
		// hex or raw key) there when its location is prompt, the
		// default for a passphrase.
		return cmd == "zfs"
	case "keyformat", "keylocation":
		// zfs create -o keyformat=passphrase, zpool create -O
		// keyformat=raw, keylocation=prompt: the new key is read there.
		return (cmd == "zfs" || cmd == "zpool") && len(rest) > 1 && rest[0] == '=' && (w == "keyformat" || strings.HasPrefix(rest, "=prompt"))
	case "-s":
		return cmd == "mkpasswd" // mkpasswd -s (--stdin above)
	case "-p":
		// saslpasswd2's pipe mode; age -p reads the passphrase;
		// ssh-keygen -p the old passphrase and the new one.
		return cmd == "saslpasswd2" || cmd == "age" || cmd == "ssh-keygen"
	case "add_user":
		return cmd == "rabbitmqctl" // add_user NAME without a password reads it there
	case "-W":
		return strings.HasPrefix(cmd, "ldap") // ldapsearch -W, ldapmodify -W: the bind password
	case "pubkey":
		return cmd == "wg" // wg pubkey reads a private key
	case "unlock":
		// bcachefs unlock, fscrypt unlock, bw unlock: a passphrase or
		// master password.
		return cmd == "bcachefs" || cmd == "fscrypt" || cmd == "bw"
	case "encrypt", "bind":
		// clevis encrypt binds the secret it reads; fscrypt encrypt reads
		// the new passphrase.
		return cmd == "clevis" || cmd == "fscrypt" && w == "encrypt"
	case "signin":
		return cmd == "op"
	case "--password":
		return cmd == "ipa" // ipa user-add … --password
	case "--stdin-name":
		return cmd == "ansible-vault" // encrypt_string --stdin-name x: the value
	case "--vault-id":
		// --vault-id @prompt, --vault-id=dev@prompt: the vault password.
		return strings.HasPrefix(cmd, "ansible") && vaultIDPrompts(rest)
	case "set":
		return cmd == "keyring" // keyring set SERVICE USER reads the password
	case "-T":
		return cmd == "slappasswd" && strings.HasPrefix(rest, " /dev/stdin")
	case "-U", "--user":
		return sambaPrompts(cmd, "", rest)
	case "join":
		return cmd == "realm" // realm join -U admin DOMAIN reads admin's password
	}
	if cmd == "openssl" && opensslEncodes(w, rest) {
		return true // openssl base64 <<< bob:pw (redact_encoders.go)
	}
	if cmd == "ipa" && w == "passwd" {
		return true // ipa passwd u
	}
	if (cmd == "zfs" || cmd == "zpool") && len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w, 'l') > 0 {
		return true // zfs mount -l, zpool import -l: load the keys first
	}
	if wrapped && stdinReader(w) {
		return true
	}
	if (cmd == "vault" || cmd == "bao") && strings.HasPrefix(rest, "=-") && (len(rest) == 2 || strings.IndexByte(" \t\n;|&", rest[2]) >= 0) {
		return true // vault kv put secret/x value=-
	}
	if cmd == "read" && w[0] != '-' && secretName(w) {
		return true // read PASSWORD
	}
	if len(w) > 1 && w[0] == '-' && w[1] != '-' {
		switch cmd {
		case "sudo":
			return strings.IndexByte(w, 'S') > 0
		case "htpasswd", "htpasswd2":
			return strings.IndexByte(w, 'i') > 0
		case "ssh-keygen":
			return strings.IndexByte(w, 'p') > 0 // -p: the old passphrase and the new one, twice
		}
		if strings.HasPrefix(cmd, "ansible") {
			return ansiblePrompts(w)
		}
		if len(w) > 2 && w[1] == 'U' {
			return sambaPrompts(cmd, w[2:], "") // smbclient -Ubob
		}
	}
	return len(w) > 2 && (w[0] == '-' || strings.HasPrefix(rest, "=")) && optionReadsStdin(w, rest)
}

// ansiblePrompts reports whether the short option cluster w of an
// ansible program asks for a password on its input: -k (the connection's),
// -K (become's), -J (the vault's), before a letter whose value the rest of
// the word is (-ework=1 asks for none).
func ansiblePrompts(w string) bool {
	for i := 1; i < len(w); i++ {
		switch w[i] {
		case 'k', 'K', 'J':
			return true
		case 'a', 'B', 'c', 'e', 'f', 'i', 'l', 'M', 'm', 'P', 'T', 't', 'u':
			return false
		}
	}
	return false
}

// vaultIDPrompts reports whether the value of --vault-id (after '=' or
// the next word in rest) is a label's prompt: @prompt, dev@prompt.
func vaultIDPrompts(rest string) bool {
	k := 1
	if !strings.HasPrefix(rest, "=") {
		if k = skipBlanks(rest, 0); k == 0 {
			return false
		}
	}
	e := k
	for e < len(rest) && e-k < 128 && strings.IndexByte(" \t\n;|&<>", rest[e]) < 0 {
		e++
	}
	v := strings.Trim(rest[k:e], `'"`)
	return v == "prompt" || strings.HasSuffix(v, "@prompt")
}

// optionReadsStdin reports whether the option or key w (its value after
// '=' or the next word in rest) names a secret read from standard input: --password-stdin,
// --token-stdin, --passphrase-fd 0, --password-file=/dev/stdin.
func optionReadsStdin(w, rest string) bool {
	name, val, eq := w, "", false
	if strings.HasPrefix(rest, "=") {
		// The word ends at '=': --password-file=-, password=- (vault).
		val, eq = rest[1:], true
		if e := strings.IndexAny(val, " \t\n;|&"); e >= 0 {
			val = val[:e]
		}
	}
	if !secretName(strings.TrimLeft(name, "-")) {
		return false
	}
	if strings.Contains(name, "stdin") {
		return true
	}
	if !eq {
		k := skipBlanks(rest, 0)
		if k == 0 {
			return false
		}
		e := k
		for e < len(rest) && e-k < 16 && rest[e] != ' ' && rest[e] != '\t' && rest[e] != '\n' {
			e++
		}
		val = rest[k:e]
	}
	switch val {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	case "0":
		return strings.HasSuffix(name, "fd")
	}
	return false
}

// sambaPrompts reports whether Samba's client cmd, given the user of -U
// (attached, or the next word in rest), asks for the password and reads
// it on its input: smbclient //h/s -U bob <<< pw. A user given as
// user%password asks for none.
func sambaPrompts(cmd, user, rest string) bool {
	switch cmd {
	case "smbclient", "rpcclient", "smbcacls", "smbcquotas", "smbget", "smbtree", "net":
	default:
		return false
	}
	if user == "" {
		k := skipBlanks(rest, 0)
		if strings.HasPrefix(rest, "=") {
			k = 1
		} else if k == 0 {
			return false
		}
		e := k
		for e < len(rest) && e-k < 128 && strings.IndexByte(" \t\n;|&<>", rest[e]) < 0 {
			e++
		}
		user = rest[k:e]
	}
	return user != "" && user[0] != '-' && !strings.Contains(user, "%")
}
