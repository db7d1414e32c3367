package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// A program that asks a question on the terminal itself — a password
// (sudo, su, ssh), a key's passphrase (ssh-keygen -y, openssl pkey,
// gpg), a confirmation (rm -i, apt) — takes the line typed next as its
// answer, however it looks, and may ask again after a wrong one. warden
// cannot tell whether it asks (sudo may remember a password, a key may
// have no passphrase) or how many lines it takes, so after "ssh-keygen -y
// -f key" the line "echo \" may be the passphrase, and "touch x", which
// warden would read as echo's argument, a command. So the session is
// adrift after one until Ctrl-C, as after a line reader (partial.go), with
// one leeway: such a program takes whole lines, so lines that are each a
// complete command on their own, typed without edit keys, read alike
// whichever of them it takes (line.go's answers), and its answer can be
// typed. Most of them open /dev/tty, so a redirected input does not keep
// them from asking.

// asksTerminal says why the complete commands text start a program that
// may ask a question on the terminal, or returns "".
func asksTerminal(text string) string {
	return asksIn(text, 0)
}

func asksIn(text string, depth int) string {
	if depth > rekeyDepth || !some(tokens(text), func(t string) bool { return askers[progName(t)] != nil }) {
		return ""
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		return ""
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			vals := literals(n.Args)
			for i, v := range vals {
				if !runBy(vals, i) {
					continue
				}
				b := progName(v)
				if ask := askers[b]; ask != nil && ask(vals[i+1:]) {
					why = b + " may ask for a password, passphrase or confirmation on the terminal, " +
						"which takes the lines typed next however they look"
					break
				}
			}
		case *syntax.Word:
			// sh -c 'sudo true', ssh-agent bash -c "…"
			if v := literal(n); v != text && !isName(v) {
				why = asksIn(v, depth+1)
			}
		}
		return why == ""
	})
	return why
}

// askers maps a program to whether, given its arguments, it may ask on
// the terminal.
var askers = map[string]func(rest []string) bool{
	"sudo": func(r []string) bool {
		return !hasOpt(r, "-n", "--non-interactive") && !(len(r) == 1 && hasOpt(r, "-k", "-K", "-V", "-h", "--version", "--help"))
	},
	"doas":   func(r []string) bool { return !hasOpt(r, "-n") },
	"su":     always,
	"pkexec": always, "login": always, "newgrp": always, "sg": always, "gpasswd": always, "chsh": always, "chfn": always,
	"passwd":      func(r []string) bool { return !hasOpt(r, "-S", "--status") },
	"chage":       func(r []string) bool { return len(r) <= 1 }, // chage USER asks for every field
	"ssh":         sshAsks,
	"slogin":      sshAsks,
	"scp":         sshAsks,
	"sftp":        sshAsks,
	"sshfs":       sshAsks,
	"ssh-copy-id": sshAsks,
	"mosh":        sshAsks,
	"rsync": func(r []string) bool {
		return some(r, func(a string) bool { return !strings.HasPrefix(a, "-") && strings.Contains(a, ":") })
	},
	"ssh-add":              func(r []string) bool { return !hasOpt(r, "-l", "-L", "-D", "-d", "-T") },
	"ssh-keygen":           sshKeygenAsks,
	"openssl":              opensslAsks,
	"gpg":                  gpgAsks,
	"gpg2":                 gpgAsks,
	"pass":                 always,
	"age":                  func(r []string) bool { return hasOpt(r, "-p", "--passphrase", "-d", "--decrypt") },
	"curl":                 curlAsks,
	"wget":                 func(r []string) bool { return hasOpt(r, "--ask-password") },
	"mysql":                mysqlAsks,
	"mariadb":              mysqlAsks,
	"mysqldump":            mysqlAsks,
	"mysqladmin":           mysqlAsks,
	"mysqlshow":            mysqlAsks,
	"mysqlcheck":           mysqlAsks,
	"mysqlimport":          mysqlAsks,
	"mariadb-dump":         mysqlAsks,
	"psql":                 pgAsks,
	"pg_dump":              pgAsks,
	"pg_dumpall":           pgAsks,
	"pg_restore":           pgAsks,
	"pg_basebackup":        pgAsks,
	"createdb":             pgAsks,
	"dropdb":               pgAsks,
	"createuser":           pgAsks,
	"dropuser":             pgAsks,
	"vacuumdb":             pgAsks,
	"reindexdb":            pgAsks,
	"git":                  gitAsks,
	"svn":                  func(r []string) bool { return !hasOpt(r, "--version", "help", "--non-interactive") },
	"kinit":                always,
	"ldapsearch":           ldapAsks,
	"ldapmodify":           ldapAsks,
	"ldapadd":              ldapAsks,
	"ldapdelete":           ldapAsks,
	"ldappasswd":           ldapAsks,
	"ldapwhoami":           ldapAsks,
	"smbclient":            func(r []string) bool { return !hasOpt(r, "-N", "--no-pass") },
	"cryptsetup":           cryptsetupAsks,
	"veracrypt":            always,
	"encfs":                always,
	"gocryptfs":            always,
	"systemd-ask-password": always,
	"unzip":                func(r []string) bool { return !hasOpt(r, "-l", "-Z", "-v", "-P") },
	"7z":                   sevenAsks,
	"7za":                  sevenAsks,
	"zip":                  func(r []string) bool { return hasOpt(r, "-e", "--encrypt") },
	"htpasswd": func(r []string) bool {
		return !some(r, func(a string) bool { return len(a) > 1 && a[0] == '-' && strings.ContainsRune(a, 'b') })
	},
	"mkpasswd": always,
	"keytool":  func(r []string) bool { return !hasOpt(r, "-storepass") },
	"vault":    func(r []string) bool { return firstWord(r) == "login" },
	"docker":   loginAsks,
	"podman":   loginAsks,
	"npm":      loginAsks,
	"rm":       interactiveAsks,
	"cp":       interactiveAsks,
	"mv":       interactiveAsks,
	"ln":       interactiveAsks,
	"apt":      pkgAsks,
	"apt-get":  pkgAsks,
	"aptitude": pkgAsks,
	"dnf":      pkgAsks,
	"yum":      pkgAsks,
	"zypper":   pkgAsks,
}

func always([]string) bool { return true }

// hasOpt reports whether rest holds one of opts, as a word or, for a long
// option, with "=value".
func hasOpt(rest []string, opts ...string) bool {
	return some(rest, func(a string) bool {
		for _, o := range opts {
			if a == o || strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"=") {
				return true
			}
		}
		return false
	})
}

// sshAsks: a password, a key's passphrase or a new host key, unless in
// batch mode or only printing.
func sshAsks(r []string) bool {
	for i, a := range r {
		o := strings.ToLower(strings.TrimPrefix(a, "-o"))
		if a == "-o" && i+1 < len(r) {
			o = strings.ToLower(r[i+1])
		}
		if strings.HasPrefix(o, "batchmode=yes") || strings.HasPrefix(o, "batchmode yes") {
			return false
		}
	}
	return !hasOpt(r, "-V", "-G")
}

// sshKeygenAsks: a key's passphrase, a new one, or, when -f is missing
// for a command that needs a file (-l, -L, -y, -p, -e, -i, -c), its name
// ("Enter file in which the key is"). Looking up or removing known hosts
// and listing a PKCS#11 token ask nothing.
func sshKeygenAsks(r []string) bool {
	file := some(r, func(a string) bool { return a == "-f" || strings.HasPrefix(a, "-f") && len(a) > 2 })
	return !hasOpt(r, "-F", "-R", "-H", "-D") && !(hasOpt(r, "-l", "-L", "-Q") && file)
}

// opensslAsks: the commands that read a private key, encrypt, or make a
// password may ask for a pass phrase; the rest ask only when given a key.
func opensslAsks(r []string) bool {
	switch firstWord(r) {
	case "version", "ciphers", "list", "help", "errstr", "rand", "prime", "speed", "x509", "crl", "verify", "s_client", "dgst",
		"sha1", "sha256", "sha512", "md5", "base64", "asn1parse", "req", "pkcs7", "crl2pkcs7", "sess_id", "nseq":
		// req -newkey encrypts the key it makes unless -nodes.
		return hasOpt(r, "-signkey", "-CAkey", "-key", "-inkey", "-sign", "-prverify") ||
			hasOpt(r, "-newkey") && !hasOpt(r, "-nodes", "-noenc")
	}
	return true
}

// gpgAsks: anything but looking at keys and signatures may need a
// passphrase (pinentry on the terminal) or ask a question; and the looks
// that read a file read the terminal when given none (gpg --list-packets).
func gpgAsks(r []string) bool {
	if hasOpt(r, "--list-packets", "--show-keys", "--verify") {
		return !some(r, func(a string) bool { return !strings.HasPrefix(a, "-") }) || hasOpt(r, "-")
	}
	return !hasOpt(r, "--list-keys", "-k", "--list-secret-keys", "-K", "--list-public-keys", "--fingerprint",
		"--list-sigs", "--check-sigs", "--version", "--help", "--list-config")
}

// curlAsks: -u USER without ":PASSWORD" asks for the password.
func curlAsks(r []string) bool {
	for i, a := range r {
		v, ok := "", false
		switch {
		case a == "-u" || a == "--user" || a == "-U" || a == "--proxy-user":
			if i+1 < len(r) {
				v, ok = r[i+1], true
			}
		case strings.HasPrefix(a, "--user=") || strings.HasPrefix(a, "--proxy-user="):
			_, v, _ = strings.Cut(a, "=")
			ok = true
		case len(a) > 2 && (strings.HasPrefix(a, "-u") || strings.HasPrefix(a, "-U")):
			v, ok = a[2:], true
		}
		if ok && !strings.Contains(v, ":") {
			return true
		}
	}
	return false
}

// mysqlAsks: -p or --password with no value asks for it.
func mysqlAsks(r []string) bool {
	return some(r, func(a string) bool { return a == "-p" || a == "--password" })
}

// pgAsks: libpq asks when the server wants a password, unless -w.
func pgAsks(r []string) bool { return !hasOpt(r, "-w", "--no-password", "--version", "-V", "--help") }

// gitAsks: the commands that reach a remote may ask for credentials or a
// key's passphrase.
func gitAsks(r []string) bool {
	return some(r, func(a string) bool {
		switch a {
		case "clone", "fetch", "pull", "push", "ls-remote", "submodule", "remote", "archive", "send-email", "svn", "p4":
			return true
		}
		return false
	})
}

func ldapAsks(r []string) bool { return hasOpt(r, "-W") }

// cryptsetupAsks: opening, formatting or changing keys asks for a
// passphrase.
func cryptsetupAsks(r []string) bool {
	switch firstWord(r) {
	case "status", "luksDump", "isLuks", "luksUUID", "close", "luksClose", "remove", "benchmark", "--version", "--help":
		return hasOpt(r, "--dump-master-key", "--dump-volume-key")
	}
	return true
}

func sevenAsks(r []string) bool {
	return !some(r, func(a string) bool { return strings.HasPrefix(a, "-p") }) && firstWord(r) != "l"
}

// loginAsks: "docker login" without a password asks for one.
func loginAsks(r []string) bool {
	switch firstWord(r) {
	case "login", "adduser":
		return !hasOpt(r, "-p", "--password", "--password-stdin")
	}
	return false
}

// interactiveAsks: rm -i, cp -i, mv --interactive ask before each file.
func interactiveAsks(r []string) bool {
	return some(r, func(a string) bool {
		return a == "--interactive" || strings.HasPrefix(a, "--interactive=") ||
			len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "iI")
	})
}

// pkgAsks: installing or removing without -y asks to continue.
func pkgAsks(r []string) bool {
	switch firstWord(r) {
	case "install", "remove", "purge", "upgrade", "dist-upgrade", "full-upgrade", "autoremove", "reinstall",
		"erase", "in", "rm", "up", "dup":
	default:
		return false
	}
	return !some(r, func(a string) bool {
		return a == "--yes" || a == "--assume-yes" || a == "--non-interactive" || a == "-n" ||
			len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'y')
	})
}
