package sessions

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// Some programs ask for a password on the terminal itself, not on their
// standard input (sudo, su, gpg, openssl, ssh-keygen …), so the audit
// package's reading of what a command takes as input does not find them.
// The line typed after one is that password: it must not reach the audit
// log or the approval text.

// terminalPrompters are the programs that may ask for a password or
// passphrase on the terminal.
var terminalPrompters = map[string]bool{
	"sudo": true, "su": true, "doas": true, "pkexec": true, "login": true, "newgrp": true, "sg": true,
	"passwd": true, "gpasswd": true, "chsh": true, "chfn": true, "openssl": true, "gpg": true, "gpg2": true,
	"ssh-keygen": true, "ssh-add": true, "ssh": true, "scp": true, "sftp": true, "rsync": true,
	"cryptsetup": true, "veracrypt": true, "age": true, "zip": true, "unzip": true, "7z": true, "7za": true,
	"htpasswd": true, "mkpasswd": true, "systemd-ask-password": true, "pinentry": true, "keytool": true,
	"vault": true, "pass": true, "ldapsearch": true, "ldapmodify": true, "ldapadd": true, "smbclient": true,
	"kinit": true, "git": true, "svn": true, "mysql": true, "mariadb": true, "psql": true, "pg_dump": true,
	"ecryptfs-unwrap-passphrase": true, "encfs": true, "gocryptfs": true, "sqlcmd": true, "mongosh": true,
	"mongo": true, "sshfs": true, "hg": true, "openconnect": true,
}

// promptsWhen are programs that ask on the terminal in some uses only,
// told by their arguments: naming them all would take the command typed
// after every other use for a password.
var promptsWhen = map[string]func(args []string) bool{
	// sqlplus bob@db asks for bob's password; / and bob/pw@db ask for
	// none.
	"sqlplus": func(args []string) bool {
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				user, _, _ := strings.Cut(a, "@")
				return user != "" && !strings.Contains(user, "/")
			}
		}
		return false
	},
	// A CIFS mount without a password or credentials file asks for one.
	"mount": func(args []string) bool {
		return slices.ContainsFunc(args, func(a string) bool {
			return a == "cifs" || a == "smb3" || a == "-tcifs" || a == "-tsmb3" || a == "--types=cifs"
		}) && cifsAsks(args)
	},
	"mount.cifs": cifsAsks,
	"mount.smb3": cifsAsks,
	// net ads join -U admin asks for admin's password; -U admin%pw and
	// Kerberos do not.
	"net": func(args []string) bool {
		for i, a := range args {
			switch {
			case a == "-k" || a == "--kerberos" || strings.HasPrefix(a, "--use-kerberos"):
				return false
			case (a == "-U" || a == "--user") && i+1 < len(args):
				return !strings.Contains(args[i+1], "%")
			case strings.HasPrefix(a, "-U") || strings.HasPrefix(a, "--user="):
				return !strings.Contains(a, "%")
			}
		}
		return false
	},
	// pdbedit -a (--create) asks for the new user's password.
	"pdbedit": func(args []string) bool {
		return slices.ContainsFunc(args, func(a string) bool { return a == "-a" || a == "--create" })
	},
	// doveadm pw asks for the password it hashes.
	"doveadm": func(args []string) bool { return len(args) > 0 && args[0] == "pw" },
}

// cifsAsks reports whether a CIFS mount's options give it no password,
// credentials file or passwordless security, so mount.cifs asks.
func cifsAsks(args []string) bool {
	return !slices.ContainsFunc(args, func(a string) bool {
		for _, k := range []string{"pass", "cred", "guest", "sec=none", "sec=krb5"} {
			if strings.Contains(a, k) {
				return true
			}
		}
		return false
	})
}

// readsSecret reports whether the command line typed may ask for a
// secret that the next line typed answers.
func readsSecret(line string) bool {
	if audit.ReadsSecretInput(line) {
		return true
	}
	if !some(tokens(line), func(t string) bool { return terminalPrompters[progName(t)] || promptsWhen[progName(t)] != nil }) {
		return false
	}
	f, err := policy.ParseBash(line)
	if err != nil {
		return true // it names one; the answer may be a secret
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && !found {
			vals := literals(c.Args)
			for i, v := range vals {
				if terminalPrompters[progName(v)] && (i == 0 || wrapper[progName(vals[0])]) {
					found = !(progName(v) == "sudo" && some(vals[i+1:], func(a string) bool { return a == "-n" || a == "--non-interactive" }))
					break
				}
				if asks := promptsWhen[progName(v)]; asks != nil && (i == 0 || wrapper[progName(vals[0])]) {
					found = asks(vals[i+1:])
					break
				}
			}
		}
		return !found
	})
	return found
}
