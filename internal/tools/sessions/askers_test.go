package sessions

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// Commands that may ask on the terminal: the line typed next may be their
// answer, so what follows it is not what it looks like.
var askingCommands = []string{
	"sudo true", "sudo -l", "sudo -v", "sudo -k ls", "sudo -u bob cat /etc/shadow", "doas ls", "su -c id", "su - bob",
	"pkexec ls", "passwd", "chsh", "newgrp staff", "sg staff -c id",
	"ssh host ls", "ssh -p 22 host uptime", "scp host:x .", "rsync -a host:/etc/ /tmp/e/", "ssh-copy-id host",
	"ssh-keygen -y -f k", "ssh-keygen -p -f k", "ssh-keygen -t ed25519", "ssh-add", "ssh-add ~/.ssh/id_rsa",
	"openssl pkey -in k.pem -noout", "openssl rsa -in k.pem -check", "openssl pkcs12 -in a.p12 -info", "openssl passwd -6",
	"openssl enc -aes-256-cbc -in f", "openssl x509 -in c -signkey k.pem", "openssl dgst -sha256 -sign k.pem f",
	"openssl req -new -newkey rsa:2048 -subj /CN=x -keyout k.pem -out r.csr",
	"gpg -d f.gpg", "gpg --decrypt f", "gpg -c f", "gpg --edit-key x", "gpg2 -d f", "pass show x", "age -d -o x f.age",
	"curl -u bob https://example.com", "curl --user bob https://example.com", "curl -ubob https://example.com",
	"curl --user=bob https://example.com", "wget --ask-password https://example.com",
	"mysql -p -e 'select 1'", "mysql --password -e 'select 1'", "mysqldump -p db", "mysqladmin -p status",
	"psql -W -c 'select 1'", "psql -c 'select 1'", "pg_dump db", "pg_dumpall",
	"git clone https://example.com/r", "git fetch", "git pull", "git push", "git ls-remote origin", "git -C r fetch",
	"git submodule update", "git remote update", "svn update", "kinit bob", "ldapsearch -W -x", "smbclient -L host",
	"cryptsetup open /dev/sdb c", "cryptsetup luksFormat /dev/sdb", "cryptsetup luksDump --dump-master-key /dev/sdb",
	"unzip a.zip", "unzip -p a.zip", "7z x a.7z", "zip -e a.zip f", "htpasswd f bob", "mkpasswd", "keytool -list",
	"vault login", "npm login",
	"rm -i f", "rm -ri d", "rm -I d", "cp -i a b", "mv -vi a b", "ln -si a b", "rm --interactive=always f",
	"apt install x", "apt-get remove x", "dnf install x", "yum erase x", "zypper in x",
	// Wrapped, nested, in lists and pipelines, and with their input
	// redirected: most open /dev/tty.
	"env LANG=C sudo true", "timeout 60 ssh host ls", "nice openssl pkey -in k", "command su -c id",
	"sh -c 'sudo true'", "bash -c \"ssh-keygen -y -f k\"", "ls; sudo true", "true && ssh host ls",
	"sudo cat f | grep x", "ssh host ls < /dev/null", "ssh-keygen -y -f k </dev/null", "/usr/bin/sudo true",
	"(gpg -d f)", "x=$(ssh host cat f)", "for h in a b; do ssh $h ls; done",
}

func TestAskersTakeTheNextLine(t *testing.T) {
	t.Parallel()
	for _, c := range askingCommands {
		t.Run(c, func(t *testing.T) {
			first := typing{}.feed(c+"\r", tty)
			if first.unseen != "" {
				t.Fatalf("the command itself is unseen: %s", first.unseen)
			}
			if first.next.adrift == "" {
				t.Fatalf("not adrift after it")
			}
			// Typed in the same send, the answer is unseen too.
			if got := (typing{}).feed(c+"\recho \\\r", tty); got.unseen == "" {
				t.Errorf("a line typed after it in the same send is seen")
			}
			leftUnseen(t, c)
		})
	}
}

// Everyday commands that ask nothing keep the session followed.
func TestNonAskersStayFollowed(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"ls", "git log", "git status", "git diff HEAD~1", "git show", "ssh-add -l", "ssh-keygen -l -f k.pub",
		"ssh-keygen -F host", "gpg --list-keys", "gpg -k", "gpg --verify f.sig", "openssl version",
		"openssl x509 -in c.pem -noout -text", "openssl verify c.pem", "openssl rand -hex 8",
		"openssl s_client -connect h:443 < /dev/null", "sudo -n true", "sudo -k", "ssh -n -o BatchMode=yes host ls",
		"ssh -n -oBatchMode=yes host ls", "curl https://example.com", "curl -u bob:pw https://example.com",
		"mysql -e 'select 1'", "psql -w -c 'select 1'", "unzip -l a.zip", "7z l a.7z", "rm -f x", "rm -rf d",
		"cp -a a b", "mv -f a b", "apt list --installed", "dnf -y install x",
		"cryptsetup status c", "cryptsetup luksDump /dev/sdb", "echo sudo", "grep ssh /etc/services", "passwd -S",
		"man ssh | cat", "which gpg", "type -a sudo",
	} {
		_, last := typeAll(tty, c, "echo \\", "ls")
		if last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}

// TestAskerTakesTheOpener: a program that asks for a key's passphrase on
// the terminal takes "echo \" as its answer, and the shell then runs the
// next line, which warden would read as echo's argument. In a writable
// session that next send is refused (it needs approval), so no unapproved
// send runs the marker's touch.
func TestAskerTakesTheOpener(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var askers []string
	if _, err := exec.LookPath("ssh-keygen"); err == nil {
		key := filepath.Join(dir, "sshkey")
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "right", "-f", key).CombinedOutput(); err == nil {
			askers = append(askers, "ssh-keygen -y -f "+key)
		} else {
			t.Logf("ssh-keygen: %v %s", err, out)
		}
	}
	if _, err := exec.LookPath("openssl"); err == nil {
		key := filepath.Join(dir, "enc.pem")
		if out, err := exec.Command("openssl", "genpkey", "-algorithm", "ed25519", "-aes-128-cbc", "-pass", "pass:right", "-out", key).CombinedOutput(); err == nil {
			askers = append(askers, "openssl pkey -noout -in "+key)
		} else {
			t.Logf("openssl: %v %s", err, out)
		}
	}
	if len(askers) == 0 {
		t.Skip("neither ssh-keygen nor openssl makes an encrypted key here")
	}
	for i, asker := range askers {
		t.Run(strings.Fields(asker)[0], func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			marker := filepath.Join(t.TempDir(), "marker")
			id := rg.start(map[string]any{"writable": true})
			if got := rg.send(id, asker, true); got["status"] != "ok" {
				t.Fatalf("send %q: %v", asker, got)
			}
			rg.readUntil(id, "ass") // "Enter passphrase", "Enter pass phrase"
			refused := rg.splitWrite(id, marker, 500*time.Millisecond, i)
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after %s took the line before it", asker)
			}
			if refused == nil {
				t.Fatalf("every send after %s ran without approval", asker)
			}
			if why := fmt.Sprint(refused); !strings.Contains(why, "ask for a password") {
				t.Errorf("the refusal does not say why: %v", why)
			}
		})
	}
}

// While a program may be asking, a line that is a complete command on its
// own may be typed (its answer, or a command if it asked nothing): either
// way the lines after it read alike. A line that opens a command, or one
// typed with edit keys, is refused until Ctrl-C.
func TestAnswersToAskers(t *testing.T) {
	t.Parallel()
	asked := typing{}.feed("sudo -S true\r", tty).next
	if asked.adrift == "" || !asked.asked {
		t.Fatalf("after sudo: %+v", asked)
	}
	for _, sends := range [][]string{
		{"S3cr3t"}, {"y"}, {""}, {"ls"}, {"ls\necho hi"}, {"hunter2", "ls -l", "echo done"}, {"sudo true", "pw"},
	} {
		if _, last := typeAll(tty, append([]string{"sudo -S true"}, sends...)...); last.unseen != "" {
			t.Errorf("%q: %s", sends, last.unseen)
		}
	}
	for _, sends := range [][]string{
		{"echo \\"}, {"echo 'a"}, {"cat <<EOF"}, {"if true; then"}, {"echo $("}, {"ls\necho \\"},
		{"pw", "echo \\"}, {"x\x7fy"}, {"ls\x15ls"}, {"echo a b\x17c"}, {"pw…", "\x7fq"},
		// A reader or a part-line reader typed as the answer ends the leeway.
		{"cat", "ls"}, {"head -n 1", "ls"}, {"read -n 1 x", "ls"}, {"read -n 1 x\nls"},
		// A lost line, and Enter after it.
		{"ls\t"},
	} {
		if _, last := typeAll(tty, append([]string{"sudo -S true"}, sends...)...); last.unseen == "" {
			t.Errorf("%q: seen, text %q", sends, last.text)
		}
	}
	// Typed in the asker's own send, ahead of its question, alike.
	for _, data := range []string{"sudo -S true\nS3cr3t\r", "sudo -S true\r\r", "su -c id\npw\r", "rm -i f\ny\r"} {
		if got := (typing{}).feed(data, tty); got.unseen != "" {
			t.Errorf("%q: %s", data, got.unseen)
		}
	}
	for _, data := range []string{"sudo -S true\necho \\\rtouch x\r", "sudo -S true\necho 'a\r", "sudo -S true\nx\x7fy\r",
		"echo 'a\nb'; sudo true\nls\r"} {
		if got := (typing{}).feed(data, tty); got.unseen == "" {
			t.Errorf("%q: seen, text %q", data, got.text)
		}
	}
	// A line left typed after it is judged when it is entered.
	if _, last := typeAll(tty, "sudo -S true\recho \\…", "", "touch x"); last.unseen == "" {
		t.Errorf("a continuation left typed after sudo is seen: %q", last.text)
	}
	// Ctrl-C ends it all.
	if _, last := typeAll(tty, "sudo -S true", "\x03…", "", "echo \\", "ls"); last.unseen != "" {
		t.Errorf("after Ctrl-C: %s", last.unseen)
	}
	// Readers keep their stricter rule: nothing but Ctrl-C.
	if _, last := typeAll(tty, "head -n 1", "ls"); last.unseen == "" {
		t.Error("a line after head -n 1 is seen")
	}
}

// leavesNextLinesUnseen runs leftUnseen for each opener as a subtest.
func leavesNextLinesUnseen(t *testing.T, openers []string) {
	t.Helper()
	for _, c := range openers {
		t.Run(c, func(t *testing.T) { leftUnseen(t, c) })
	}
}

// leftUnseen checks that after opener the model does not claim to know
// what runs: a program it starts may take "echo \\" as its input, so
// "touch /etc/x" typed next would run alone.
func leftUnseen(t *testing.T, opener string) {
	t.Helper()
	if _, last := typeAll(tty, opener, "echo \\", "touch /etc/x"); last.unseen == "" {
		t.Errorf("after it, %q is classified as echo's argument", last.text)
	}
}
