package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotZshGrammar: text zsh runs is read as bash, and what zsh
// reads by a grammar of its own counts too: glob qualifiers run code once
// per matching file, an unbraced subscript is arithmetic, $~ and
// GLOB_SUBST glob a value (its qualifiers included), and hash NAME=PATH
// makes NAME run PATH. The same holds for text handed to a login shell or
// $SHELL, which may be zsh.
func TestBlindSpotZshGrammar(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		// glob qualifiers, which the bash parser takes for extended globs
		`zsh -c 'ls *(e:"sh /tmp/p":)'`,
		`zsh -c 'ls *(e@sh /tmp/p@)'`,
		`zsh -c 'ls /var/log/**/*(e:"sh /tmp/p":)'`,
		`zsh -c 'ls ?(+f)'`,
		`zsh -c 'f() { sh /tmp/p; }; ls *(+f)'`,
		`zsh -c 'ls *(#qe:"sh /tmp/p":)'`,
		`zsh -c 'ls /tmp/*(-.e{sh /tmp/p})'`,
		`zsh -c 'ls /tmp/x(e:"sh /tmp/p":)'`,
		`zsh -c 'for f in *(e:"sh /tmp/p":); do :; done'`,
		`zsh -c 'eval "ls *(+f)"'`,
		`zsh -c "ls \*(+f)"`,
		`/usr/bin/zsh -c 'ls @(+f)'`,
		`zsh -f -c 'ls *(+f)'`,
		`echo 'ls *(e:"sh /tmp/p":)' | zsh`,
		`zsh <<< 'ls *(+f)'`,
		`zsh -s <<< 'ls *(+f)'`,
		`sudo zsh -c 'ls *(+f)'`,
		`bash -c "zsh -c 'ls *(+f)'"`,
		// arithmetic in an unbraced subscript
		`zsh -c 'x=$(cat /tmp/f); a=(1 2); echo $a[x]'`,
		`zsh -c 'read x < /tmp/f; a=(1 2); echo $a[$x]'`,
		`zsh -c 'a=(1 2); echo $a[$1]' zsh '$(sh /tmp/p)'`,
		// a value globbed
		`zsh -c 'x=$(cat /tmp/f); ls $~x'`,
		`zsh -c 'set -o globsubst; x=$(cat /tmp/f); ls $x'`,
		`zsh -c 'setopt GLOB_SUBST; x=$(cat /tmp/f); ls $x'`,
		`zsh -c 'setopt glob_subst; ls $1' zsh '*(+f)'`,
		`zsh -o globsubst -c 'x=$(cat /tmp/f); ls $x'`,
		`zsh -o GLOBSUBST -c 'ls $1'`,
		`zsh --glob-subst -c 'ls $1'`,
		`zsh --globsubst -c 'ls $1'`,
		// a name made to run another file
		`zsh -c 'hash ls=/tmp/p; ls'`,
		`zsh -c 'builtin hash -- ls=/tmp/p; ls'`,
		`zsh -c 'h=ls=/tmp/p; hash $h; ls'`,
		// text a login shell or $SHELL runs
		`ssh h 'ls *(+f)'`,
		`ssh h ls '*(e:"sh /tmp/p":)'`,
		`ssh h 'x=$(cat /tmp/f); ls $~x'`,
		`su -c 'ls *(+f)' bob`,
		`sudo -s 'ls *(+f)'`,
		`script -qc 'ls *(+f)' /dev/null`,
		`flock /tmp/l -c 'ls *(+f)'`,
		`ssh -o ProxyCommand='ls *(+f)' h`,
	))
	// What zsh reads as bash does keeps its verdict.
	for _, c := range []struct {
		cmd string
		max Tier
	}{
		{`zsh -c 'ls -la /var/log | grep err'`, TierRead},
		{`zsh -c 'a=(1 2 3); echo $a[1] $a[-1] $a[2,3]'`, TierRead},
		{`zsh -c 'echo $HOME; cat /etc/hosts'`, TierRead},
		{`zsh -c 'hash -r; ls'`, TierRead},
		{`bash -c 'shopt -s extglob; ls !(*.log)'`, TierBenign},
		{`ssh h 'ls -la /var/log'`, TierBenign},
	} {
		if got := p.Evaluate(Input{Command: c.cmd}); got.Tier > c.max || got.Denied {
			t.Errorf("Evaluate(%q) = %s denied=%v (%s); want at most %s", c.cmd, got.Tier, got.Denied, got.Reason, c.max)
		}
	}
}

// TestBlindSpotSedLabels: GNU sed ends a label at a blank as well as at
// ";", so the command after ":a " or "b end " runs.
func TestBlindSpotSedLabels(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		`sed ':l s/.*/sh \/tmp\/p/e' /etc/hosts`,
		`sed -n ':a e sh /tmp/p' /etc/hosts`,
		`sed -n ':a	e sh /tmp/p' /etc/hosts`,
		`sed 'ta e sh /tmp/p' /etc/hosts`,
		`sed 'Ta e sh /tmp/p' /etc/hosts`,
		`sed 'b  end e sh /tmp/p' /etc/hosts`,
		`sed -n '/x/b a
:a e sh /tmp/p' /etc/hosts`,
		`sed -e ':a e sh /tmp/p' /etc/hosts`,
		`sed --expression=':a e sh /tmp/p' /etc/hosts`,
		`find /etc -name hosts -exec sed ':a e sh /tmp/p' {} \;`,
	))
	runBlind(t, p, sameCases(TierMutate, false,
		`sed ':x w /etc/cron.d/job' /etc/hosts`,
		`sed -n ':a w /etc/x' /etc/hosts`,
		`sed -n ':a	w /etc/x' /etc/hosts`,
		`sed -n 'ba;:a w /etc/x' /etc/hosts`,
		`sed -n 'b end; :end w /etc/x' /etc/hosts`,
		`sed ':l s/x/y/w /etc/x' /etc/hosts`,
		`sed -n 'v 4.2 w /etc/x' /etc/hosts`,
	))
	for _, cmd := range []string{`sed ':a;N;$!ba;s/\n/ /g' /etc/hosts`, `sed -e :a -e '$!N;s/\n//;ta' /etc/hosts`, `sed -n '/a/,/b/{/b/!p}' /etc/hosts`} {
		if got := p.Evaluate(Input{Command: cmd}); got.Tier != TierRead {
			t.Errorf("Evaluate(%q) = %s (%s); want read", cmd, got.Tier, got.Reason)
		}
	}
}

// TestBlindSpotZshQualifierDeny: the code of a zsh glob qualifier meets
// the deny list wherever zsh may read it — text the bash reading cannot
// parse (/(e:'reboot':) is no extended glob), a script file zsh runs or
// reads as input, text a login shell runs — with the qualifier letters,
// delimiters and quotes zsh takes.
func TestBlindSpotZshQualifierDeny(t *testing.T) {
	f := newLocalFixture(t)
	z := f.write(t, "q.zsh", []byte("print /(e:'reboot':)\n"))
	for _, c := range []string{
		`zsh -c "print /(e:'reboot':)"`, `zsh -c 'ls *(e:reboot:)'`, `zsh -c 'ls *(.Ne{systemctl poweroff})'`,
		`zsh -c 'print /(+reboot)'`, `zsh -c "print /(e|'halt -f'|)"`, `ssh h "print /(e:'reboot':)"`,
		"zsh " + z, "zsh < " + z, "cat " + z + " | zsh", "exec 3<" + z + "; zsh <&3",
	} {
		if v := f.p.Evaluate(Input{Command: c}); !v.Denied {
			t.Errorf("Evaluate(%q) = %s, want denied for the qualifier's code", c, formatVerdict(v))
		}
	}
	clean := newLocalFixture(t) // a working directory without q.zsh
	for _, c := range []string{`zsh -c 'ls -d *(.om[1,3])'`, `zsh -c 'print -l /etc/*(N)'`, `python3 -c 'print(e.reboot)'`} {
		if v := clean.p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s, want not denied", c, formatVerdict(v))
		}
	}
}

// TestBlindSpotHostShell: a host's configured shell runs what warden
// runs there with "sh -c" (run_command, a script for sh, a declarative
// tool's template), so text for a host whose shell is zsh is read as zsh
// reads it too, and text for a shell outside the POSIX family, whose
// grammar the classifier does not read, cannot be classified; its deny
// list still holds.
func TestBlindSpotHostShell(t *testing.T) {
	p := protectedPolicy(t)
	zshOnly := []string{
		`ls /srv/*(e:'touch /srv/m':)`,
		`ls /srv/*(+f)`,
		`f() { :; }; print -l /srv/**/*(e@rm -rf /srv/x@)`,
		`read x; a=(1 2); echo $a[$x]`,
		`x=$(cat /srv/f); echo $a[x]`,
		`x=$(cat /srv/f); ls $~x`,
		`setopt globsubst; read x; ls $x`,
		`hash ls=/srv/p; ls`,
	}
	for _, shell := range []string{"/usr/bin/zsh", "/bin/zsh", "/usr/local/bin/zsh-5.9"} {
		for _, h := range classifierHosts {
			for _, cmd := range zshOnly {
				for _, in := range []Input{{Command: cmd}, {Script: cmd}, {Script: cmd, Interpreter: "sh"}} {
					in.Host, in.HostShell = h, shell
					if v := p.Evaluate(in); v.Tier < TierDestructive {
						t.Errorf("%q on host %q with shell %s: %s (%s); zsh runs code there", cmd, h, shell, v.Tier, v.Reason)
					}
				}
			}
		}
	}
	// The same text read by the POSIX shells keeps its verdict.
	for _, shell := range []string{"", "/bin/sh", "/bin/bash", "/bin/ash", "/bin/ksh"} {
		for _, cmd := range []string{`ls /srv/*(e:'touch /srv/m':)`, `ls /srv/*(+f)`, `read x; a=(1 2); echo $a[$x]`} {
			if v := p.Evaluate(Input{Command: cmd, Host: "db1", HostShell: shell}); v.Tier != TierRead {
				t.Errorf("%q with shell %q: %s (%s), want read-only", cmd, shell, v.Tier, v.Reason)
			}
		}
	}
	for _, shell := range []string{"/usr/bin/fish", "/bin/csh", "/bin/tcsh", "/usr/local/bin/nu", "/usr/bin/elvish", "/opt/bin/myshell"} {
		for _, in := range []Input{{Command: "echo hi"}, {Script: "ls /srv"}, {Script: "ls /srv", Interpreter: "sh"}} {
			in.Host, in.HostShell = "db1", shell
			v := p.Evaluate(in)
			if v.Tier != TierDestructive || v.Denied || !strings.Contains(v.Reason, "not a POSIX shell") {
				t.Errorf("%+v: %s denied=%v (%s); want tier 3, its shell not read", in, v.Tier, v.Denied, v.Reason)
			}
		}
		if v := p.Evaluate(Input{Command: "echo x; reboot", Host: "db1", HostShell: shell}); !v.Denied {
			t.Errorf("reboot with shell %s: %s (%s), want denied", shell, v.Tier, v.Reason)
		}
		// A script for another interpreter is that interpreter's.
		if v := p.Evaluate(Input{Script: "ls /srv", Interpreter: "bash", Host: "db1", HostShell: shell}); v.Tier != TierRead {
			t.Errorf("bash script with shell %s: %s (%s), want read-only", shell, v.Tier, v.Reason)
		}
	}
}
