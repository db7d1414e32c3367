package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/audit"
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
}

// readsSecret reports whether the command line typed may ask for a
// secret that the next line typed answers.
func readsSecret(line string) bool {
	if audit.ReadsSecretInput(line) {
		return true
	}
	if !some(tokens(line), func(t string) bool { return terminalPrompters[progName(t)] }) {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
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
			}
		}
		return !found
	})
	return found
}
