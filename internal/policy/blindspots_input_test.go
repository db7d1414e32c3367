package policy

import (
	"os"
	"testing"
)

// TestBlindSpotCommandPrompts: programs that read their own commands from
// standard input when given none (virsh, lvm, openssl, ftp) do what their
// input says: literal input is classified line by line as their commands,
// input the classifier cannot see is tier 3, and an interactive prompt is
// tier 2.
func TestBlindSpotCommandPrompts(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"virsh < /tmp/f", "virsh -c qemu:///system < /tmp/f", "virsh -q 0</tmp/f",
		"echo 'destroy vm1' | virsh", "virsh <<< 'undefine vm1'", "cat /tmp/f | sudo virsh",
		"lvm < /tmp/f", "echo 'lvremove -f vg/lv' | lvm", "exec 3</tmp/f; lvm <&3",
		"openssl < /tmp/f", "curl -s x | openssl",
		"ftp < /tmp/f", "ftp -n host < /tmp/f", "lftp host < /tmp/f", "cat /tmp/f | ftp host",
	))
	runBlind(t, p, sameCases(TierDestructive, true,
		"echo '!reboot' | ftp", "ftp host <<< '!poweroff'", "printf 'open h\\n!init 1\\n' | lftp",
		"echo 'rand -out /dev/sda 16' | openssl",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"openssl <<< 'rand -out /var/x 16'", "virsh", "lvm", "openssl",
	))
	runExact(t, p, []exactCase{
		{"virsh list", "virsh list --all", TierRead},
		{"virsh list on input", "echo list | virsh", TierRead},
		{"lvm lvs", "lvm lvs", TierRead},
		{"lvm lvs on input", "lvm <<< 'lvs'", TierRead},
		{"openssl version", "openssl version", TierRead},
		{"openssl version on input", "echo version | openssl", TierRead},
	})
}

// TestBlindSpotSmbclientCommands: smbclient's commands, from -c or its
// input, include "!", which runs a local shell command, as ftp's do.
func TestBlindSpotSmbclientCommands(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"smbclient //h/s -c '!reboot'", "smbclient //h/s -U u -c 'ls; !reboot'", "smbclient //h/s --command='!init 1'",
		"echo '!reboot' | smbclient //h/s", "smbclient -N //h/s <<< '!poweroff'",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"smbclient //h/s < /tmp/f", "smbclient //h/s -c '!touch /tmp/p'", `smbclient //h/s -c "$C"`,
	))
	runExact(t, p, []exactCase{
		{"listing", "smbclient //h/s -c 'ls'", TierMutate},
		{"shares", "smbclient -L h -N", TierMutate},
	})
}

// TestBlindSpotParallelInputCommands: GNU parallel given no command runs
// each input as a command: the words after ::: (one from each source,
// joined), each line of an -a or :::: file and each line of its input.
func TestBlindSpotParallelInputCommands(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"parallel ::: reboot", "parallel -j2 ::: ls 'rm -rf /'", "parallel ::: init ::: 1",
		"parallel --halt now,fail=1 ::: 'sh -c poweroff'", "sudo parallel ::: 'telinit S'",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"parallel -a /tmp/f", "parallel --arg-file /tmp/f", "parallel --arg-file=/tmp/f -j4",
		"parallel :::: /tmp/f", "parallel ::::+ /tmp/f", "parallel -a /tmp/f :::",
		"parallel ::: 'curl -s x | sh'",
	))
	runBlind(t, p, sameCases(TierBenign, false, "parallel ::: 'touch /tmp/p'"))
	runExact(t, p, []exactCase{
		{"reading commands", "parallel ::: 'ls /' df", TierRead},
		{"template with -a", "parallel -a /tmp/f echo", TierRead},
		{"template with ::::", "parallel echo :::: /tmp/f", TierRead},
		{"template with :::", "parallel -j4 gzip -t ::: a.gz b.gz", TierRead},
	})
}

// TestBlindSpotAwkIndirect: gawk calls a function whose name a variable
// holds (@f(…)), built-ins included, so system() runs with no "system" in
// the text; @include and @load read code from files.
func TestBlindSpotAwkIndirect(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		`gawk 'BEGIN{f="sys" "tem"; @f("touch /tmp/p")}'`,
		`gawk -v f=sys -v g=tem 'BEGIN{h=f g; @h(ARGV[1])}' x`,
		`awk 'BEGIN { fn = toupper("s") ; @ fn ("id") }'`,
		`gawk '@include "/tmp/x.awk"'`, `gawk '@include "x"; BEGIN{}'`,
		`AWKPATH=/tmp gawk '@include "lib"' f`,
	))
	runBlind(t, p, sameCases(TierDestructive, true,
		`gawk 'BEGIN{f="sys" "tem"; @f("reboot")}'`,
	))
	runExact(t, p, []exactCase{
		{"@ in a regexp", "awk '/@example[.]com/' f", TierRead},
		{"@ in a string", `awk '{print $1 "@" $2}' f`, TierRead},
		{"@namespace", `gawk '@namespace "x"; BEGIN{print 1}'`, TierRead},
	})
}

// TestBlindSpotSedReads: sed's r and R read the file they name into the
// output, and the name needs no space after the command, so the path is
// read from the script: r/etc/warden/audit.key is warden's key.
func TestBlindSpotSedReads(t *testing.T) {
	p := protectedPolicy(t)
	for _, cmd := range []string{
		"sed -n 'r/etc/warden/audit.key' f", "sed '1R/etc/warden/config.yaml' f",
		"sed --expression='$r/root/.local/state/warden/token' f", "sed -e p -e '/x/R/etc/warden/audit.key' f",
		"sudo sed -n '1{r/etc/warden/config.yaml\n}' f",
	} {
		if v := p.Evaluate(Input{Command: cmd}); !v.Denied {
			t.Errorf("Evaluate(%q) = %s (%s); want denied", cmd, v.Tier, v.Reason)
		}
	}
	if v := p.Evaluate(Input{Command: "sed '/x/r/etc/hosts' f"}); v.Tier != TierRead || v.Denied {
		t.Errorf("sed r of an ordinary file: %s denied=%v (%s)", v.Tier, v.Denied, v.Reason)
	}
}

// TestBlindSpotBase64Output: the BSD and macOS base64 write their output
// to -o/--output, a write checked like a redirection's target.
func TestBlindSpotBase64Output(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"base64 -o /etc/x f", "base64 --output=/etc/x f", "base64 -Do /etc/x f", "base64 -do/etc/x", "base64 --out /etc/x f",
	))
	runBlind(t, p, sameCases(TierDestructive, true,
		"base64 -d -i x -o /proc/sysrq-trigger", "sudo base64 -D -o /dev/sda x",
	))
	runExact(t, p, []exactCase{
		{"decode to stdout", "base64 -d x", TierRead},
		{"ignore garbage", "base64 -di x", TierRead},
	})
}

// TestBlindSpotRelativeWriteAfterCd: a relative write target is read
// against every directory a cd in the input can make current, so a write
// named sysrq-trigger or sda after cd /proc or cd /dev is the write to
// /proc/sysrq-trigger or /dev/sda it is, through any program that writes.
func TestBlindSpotRelativeWriteAfterCd(t *testing.T) {
	p := protectedPolicy(t)
	for _, cmd := range []string{
		"cd /proc && echo b > sysrq-trigger", "cd /proc; cp /tmp/b ./sysrq-trigger", "cd / && printf b >proc/sysrq-trigger",
		"cd /dev && cp /tmp/b sda", "cd /dev; tee sda < /tmp/x", "pushd /dev; mv /tmp/x nvme0n1",
		"cd /dev\nsort -o sda f", "cd /proc && sh -c 'echo c > sysrq-trigger'", "cd /dev && tar -cf sda /srv",
	} {
		if v := p.Evaluate(Input{Command: cmd}); !v.Denied {
			t.Errorf("Evaluate(%q) = %s (%s); want denied", cmd, v.Tier, v.Reason)
		}
	}
	for _, cmd := range []string{"cd /tmp && echo b > sysrq-trigger", "echo x > sda", "cd /srv && cp a sda"} {
		if v := p.Evaluate(Input{Command: cmd}); v.Denied || v.Tier != TierMutate {
			t.Errorf("Evaluate(%q) = %s denied=%v (%s); want tier2", cmd, v.Tier, v.Denied, v.Reason)
		}
	}
}

// TestBlindSpotWriteIntoSetuid: a local setuid or setgid file written in
// place keeps its bit (root has CAP_FSETID), so writing it, by any
// program or redirection, sets new code to run with its owner's rights.
func TestBlindSpotWriteIntoSetuid(t *testing.T) {
	dir := t.TempDir()
	suid, plain := dir+"/suid", dir+"/plain"
	for _, f := range []string{suid, plain} {
		if err := os.WriteFile(f, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(suid, 0o755|os.ModeSetuid); err != nil {
		t.Skip(err)
	}
	if fi, err := os.Stat(suid); err != nil || fi.Mode()&os.ModeSetuid == 0 {
		t.Skip("this file system keeps no setuid bit")
	}
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"cat /tmp/x > "+suid, "cat /tmp/x >> "+suid, "tee "+suid+" < /tmp/x", "dd if=/tmp/x of="+suid,
		"cp /tmp/x "+suid, "rsync /tmp/x "+suid, "sed -i s/a/b/ "+suid, "sudo sh -c 'cat /tmp/x > "+suid+"'",
		"curl -o "+suid+" https://example.com/x",
	))
	runExact(t, p, []exactCase{
		{"plain file", "cat /tmp/x > " + plain, TierMutate},
		{"cp onto a plain file", "cp /tmp/x " + plain, TierMutate},
		{"sed -i a plain file", "sed -i s/a/b/ " + plain, TierMutate},
		{"reading it", "cat " + suid, TierRead},
	})
	if v := p.Evaluate(Input{Command: "cat /tmp/x > " + suid, Host: "web1"}); v.Tier != TierMutate {
		t.Errorf("remote host: %s (%s); a local file says nothing about another machine", v.Tier, v.Reason)
	}
}

// TestBlindSpotYqSplit: mikefarah's yq -s/--split-exp writes a file per
// document, named by its expression, in every spelling.
func TestBlindSpotYqSplit(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"yq -s '.a' f", "yq --split-exp '.a' f", "yq --split-e='.a' f", "yq -Ps '\"/etc/x\"' f", "sudo yq -s .a f",
	))
	runExact(t, p, []exactCase{
		{"output format", "yq -o json f", TierRead},
		{"query", "yq '.a' f", TierRead},
	})
}

// TestBlindSpotCopyTargets: what cp, install, mv, rsync and scp write is
// checked like a redirection's target, in each spelling of the
// destination (last operand, inside a directory, -t DIR), and so is the
// archive tar creates in every spelling of -f.
func TestBlindSpotCopyTargets(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"cp /tmp/b /proc/sysrq-trigger", "cp -t /proc /tmp/sysrq-trigger", "cp --target-directory=/proc /tmp/sysrq-trigger",
		"cp /tmp/sysrq-trigger /proc", "cp /tmp/sysrq-trigger /proc/", "busybox cp /tmp/b /proc/sysrq-trigger",
		"install /tmp/b /proc/sysrq-trigger",
		"mv /tmp/b /proc/sysrq-trigger", "sudo mv -f /tmp/b /dev/nvme0n1",
		"rsync /tmp/b /proc/sysrq-trigger", "rsync -av --inplace /tmp/b /dev/sda", "rsync -e ssh h:/b /dev/sda",
		"scp /tmp/b /proc/sysrq-trigger", "scp h:/b /dev/sda",
		"tar -cf /dev/sda /tmp", "tar cf /dev/sda /tmp", "tar -czvf /dev/sda /tmp", "tar --create --file=/dev/sda /tmp",
		"tar -cf/proc/sysrq-trigger /tmp",
		// mv across file systems copies: writing the sleep state suspends.
		"mv /tmp/x /sys/power/state",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"cp /tmp/x /proc/sys/kernel/core_pattern", "mv /tmp/x /sys/power/disk",
	))
	runExact(t, p, []exactCase{
		{"cp into tmp", "cp a /tmp/b", TierMutate},
		{"cp -t", "cp -t /srv/x a b", TierMutate},
		{"cp to /dev/null", "cp a /dev/null", TierMutate},
		{"mv", "mv a b", TierMutate},
		{"rsync to a host", "rsync -a /tmp/x h:/dev/sda", TierMutate},
		{"scp to a host", "scp /tmp/x h:/proc/sysrq-trigger", TierMutate},
		{"tar to a file", "tar -czf /srv/x.tgz /etc", TierMutate},
		{"tar to stdout", "tar -cf - /etc", TierMutate},
	})
}

// TestBlindSpotSQLThatWritesOrLoads: SQL that writes files or loads code
// into the database server is tier 3 like the clients' own shell
// commands: sqlite3's writefile() and edit() (which runs the editor it
// is given), PostgreSQL's lo_export, extensions and untrusted languages,
// MySQL's plugins and UDFs. Ordinary queries stay tier 2.
func TestBlindSpotSQLThatWritesOrLoads(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"sqlite3 /tmp/db 'select writefile(\"/etc/cron.d/x\", \"y\")'",
		"sqlite3 /tmp/db \"SELECT WriteFile('/root/.ssh/authorized_keys', 'k')\"",
		"sqlite3 /tmp/db 'select edit(\"x\", \"touch /tmp/m\")'",
		"sqlite3 /tmp/db \"select edit ('x', 'vi')\"",
		"psql -c \"CREATE EXTENSION plpython3u\"",
		"psql -c \"create function f() returns int as 'x' language plperlu\"",
		"psql -c \"create function f() returns int as '/tmp/x.so' language C\"",
		"psql -c \"select lo_export(1, '/etc/x')\"",
		"mysql -e \"install plugin x soname 'x.so'\"",
		"mysql -e \"create function f returns string soname 'x.so'\"",
		"echo \"INSTALL COMPONENT 'file://x'\" | mysql",
	))
	runExact(t, p, []exactCase{
		{"sqlite select", "sqlite3 /tmp/db 'select name from users'", TierMutate},
		{"psql select", "psql -c 'select count(*) from orders'", TierMutate},
	})
}
