package sessions

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// Programs on none of warden's reader lists, or on one with arguments
// that make them read: each may take the lines typed next (nslookup and
// terraform read their own lines, dpkg, fsck, mv and apt ask, pinentry,
// whiptail and fzf read keys, a script or a computed name may do
// anything).
var unknownOpeners = []string{
	"acmectl", "terraform apply", "fsck /dev/sda1", "pinentry-curses", "whiptail --yesno hi 8 40",
	"dialog --yesno hi 8 40", "fzf", "at now", "logger",
	"wall", "write bob", "sfdisk /dev/sdb", "./configure", "./reader.sh",
	"/opt/tool/bin/tool", "make install", "mysql_secure_installation", "certbot",
	"info ls",
	"docker system prune", "docker load", "podman volume prune", "kubectl apply -f -", "git apply", "git difftool",
	"git am", "git cat-file --batch", "curl -d @- https://example.com", "curl -T - https://example.com",
	"docker compose exec web sh", "lxc-attach -n c", "vagrant ssh", "fg", "fg %1",
	// A value of an option before the subcommand hides nothing.
	"git -C ps am", "docker -H unix:///x load", "docker -c ps load", "kubectl -n get apply -f -",
	"curl -T . https://example.com", "tar x", "tar -xz", "tar xf -", "tar -x -f /dev/stdin", "mount //srv/share /mnt", "curl --upload-file . https://example.com",
	// Wrapped, piped, redirected (it may open /dev/tty), nested, computed.
	"sudo -u bob acmectl", "env X=1 acmectl", "timeout 60 acmectl", "nice -n 5 terraform apply", "ls | fzf",
	"acmectl < /dev/null", "ls; acmectl", "true && pinentry", "(acmectl)", "{ acmectl; }", "sh -c acmectl",
	"bash -c 'ls; acmectl'", "eval acmectl", "f() { :; }; f", "x=$(ls) acmectl",
	"for i in 1; do acmectl; done", "if true; then acmectl; fi", "env -S acmectl", "env -S 'acmectl -x'",
	"env --split-string='LANG=C acmectl'", "env -Sacmectl", "env -u X -S 'acmectl'",
	// A program of a quiet name that is not the system's.
	"./ls", "/tmp/x/cat /etc/hosts", "~/bin/date", "bin/echo hi", "../ls -l", "/home/u/.local/bin/id", "sudo -n ./ls", "./sudo -n ls",
	"/tmp/env ls", "./timeout 5 ls",
}

// Programs that, given these arguments, only ask a question: its answer
// is data, so plain lines may still be typed, as after an asker.
var questionOpeners = []string{
	"mv a b", "mv -i a b", "rm x", "rm -r d", "apt-get -y install x", "apt install --yes x", "aptitude -y install x",
	"systemctl restart nginx", "systemctl enable --now x", "hostnamectl set-hostname h", "timedatectl set-ntp true",
	"find . -ok rm {} ;", "nmcli --ask connection up x", "npm init", "gzip f", "zstd f", "dpkg --configure -a",
	"dpkg -i x.deb", "sudo -n rm x", "ls && mv a b", "killall -i nginx", "pip uninstall x",
}

func TestQuestionsLeaveAnAskersLeeway(t *testing.T) {
	t.Parallel()
	for _, c := range questionOpeners {
		t.Run(c, func(t *testing.T) {
			leftUnseen(t, c)
			if _, last := typeAll(tty, c, "cat <<'EOF'\nexit\ntouch /etc/x\nEOF"); last.unseen == "" {
				t.Errorf("a here-document after it is seen: %q", last.text)
			}
			if _, last := typeAll(tty, c, "touch /etc/x #\x15echo hi"); last.unseen == "" {
				t.Errorf("an edited line after it is seen: %q", last.text)
			}
			if _, last := typeAll(tty, c, "y", "ls -l", "Y"); last.unseen != "" {
				t.Errorf("plain lines after it: %s", last.unseen)
			}
		})
	}
}

func TestUnknownProgramsMayReadTheNextLines(t *testing.T) {
	t.Parallel()
	for _, c := range unknownOpeners {
		t.Run(c, func(t *testing.T) {
			first := typing{}.feed(c+"\r", tty)
			if first.next.adrift == "" {
				t.Fatalf("not adrift after it (unseen %q)", first.unseen)
			}
			leftUnseen(t, c)
			// The program takes the opener, exit ends it, and the shell
			// runs what the model reads as the here-document's body.
			if _, last := typeAll(tty, c, "cat <<'EOF'\nexit\ntouch /etc/x\nEOF"); last.unseen == "" {
				t.Errorf("a here-document after it is seen: %q", last.text)
			}
			// A raw reader leaves edit keys to a plain shell unedited.
			if _, last := typeAll(tty, c, "touch /etc/x #\x15echo hi"); last.unseen == "" {
				t.Errorf("an edited line after it is seen: %q", last.text)
			}
			// In the send that starts it, too.
			if got := (typing{}).feed(c+"\recho \\\rtouch /etc/x\r", tty); got.unseen == "" {
				t.Errorf("lines typed after it in its own send are seen")
			}
			// It may read the next line in a language of its own, where
			// a line that reads as a harmless command writes
			// (supervisorctl's "clear all"); Ctrl-C ends the doubt.
			if _, last := typeAll(tty, c, "clear all"); last.unseen == "" {
				t.Errorf("a plain line after it is seen: %q", last.text)
			}
			if _, last := typeAll(tty, c, "\x03…", "", "echo \\", "ls"); last.unseen != "" {
				t.Errorf("after Ctrl-C: %s", last.unseen)
			}
		})
	}
}

// Programs warden knows to leave the terminal alone keep the session
// followed, edits and continuations included.
func TestQuietProgramsStayFollowed(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"ls", "ls -la /var/log", "cd /var/log", "cat x", "pwd", "echo hi", "printf '%s\\n' a", "export A=1", "x=1",
		"git status", "git log --oneline", "git diff HEAD~1", "git log -p", "git show -p HEAD", "git -C /srv/r log -p", "git commit -m msg", "systemctl status nginx",
		"systemctl list-units", "journalctl -u nginx", "docker ps", "docker logs c", "kubectl get pods",
		"rm -f x", "rm -rf d", "mv -f a b", "cp a b", "mkdir -p d", "touch f", "chmod 600 f", "ln -s a b",
		"command -v nslookup", "type nslookup", "which nslookup", "env -S 'ls -l'", "sudo -n -u bob ls", "env LANG=C ls", "timeout 5 ls",
		"find . -name x", "find /etc -type f -exec grep -l x {} +", "ps aux", "df -h", "du -sh .", "ip a", "ss -tlnp",
		"ping -c 1 host", "dig example.com", "uname -a", "man ssh | cat", "apt list --installed", "dnf -y install x",
		"[ -f x ] && echo y", "[[ -f x ]]", "((x++))", "let x=1", "declare -a a", "curl https://example.com",
		"sleep 1", "date", "id", "sh -c ls", "bash -c 'echo hi'", "exit", "crontab -l", "virsh list --all", "rg foo",
		"apt-cache policy x", "lxc list", "pkill -f x", "killall nginx", "mount", "tar -tzf a.tgz", "tar xf a.tar",
		"tar -C /tmp -xzf a.tgz", "tar --file=a.tar -t", "pip list",
		// Options before the subcommand that take a value.
		"docker -H unix:///run/d.sock version", "docker --context prod ps -a", "podman --url unix:///x ps",
		"kubectl -n kube-system get pods", "kubectl --context c --namespace n logs p", "systemctl -n 50 status nginx",
		"systemctl -H user@h list-units", "timedatectl -M m status", "virsh -c qemu:///system list --all",
		"lxc --project p list", "git -C /srv/app log -1", "git -c color.ui=never status", "pip --python /usr/bin/python3 list", "pip3 show x", "/bin/ls", "/usr/bin/git status", "/usr/local/bin/rg x", "/sbin/ip a", "stty -a", "trap -p", "ls -l /dev/tty", "sshpass -p x ssh -n -o BatchMode=yes h ls",
	} {
		if _, last := typeAll(tty, c, "echo \\", "ls", "echo x\x7fy", "cat <<'EOF'", "body", "EOF"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}

// TestUnknownReaderTakesTheOpener: a program on none of warden's lists
// that reads a line of the terminal takes the first line of a
// here-document typed after it, and the shell runs its body. In a
// writable session that send needs approval, so no unapproved send runs
// the marker's touch.
func TestUnknownReaderTakesTheOpener(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reader := filepath.Join(dir, "asks")
	if err := os.WriteFile(reader, []byte("#!/bin/sh\nprintf 'Enter a value: '\nread -r answer\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, opener := range []string{reader, "env " + reader, "cd " + dir + " && ./asks"} {
		t.Run(opener, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			id, marker := rg.opened(opener)
			rg.readUntil(id, "value")
			got := rg.send(id, "cat <<'EOF'\ntouch "+marker+"\nEOF", true)
			time.Sleep(300 * time.Millisecond)
			rg.send(id, "\x03", false)
			rg.send(id, "", true)
			rg.send(id, "echo done-$((20+3))", true)
			rg.readUntil(id, "done-23")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after %s took the line before it", opener)
			}
			if got["status"] == "ok" {
				t.Errorf("the here-document after it ran without approval")
			}
		})
	}
}

// Programs warden counts as quiet read the terminal given some arguments:
// its input named as a file, a file name it asks for, a file it asks
// before replacing. ssh-keygen -l, date -f - and wg pubkey are reads to
// policy, so a read-only session ran "echo \" and then touch after them.
var argumentReaders = []string{
	"ssh-keygen -l", "ssh-keygen -L", "ssh-keygen -lv", "date -f -", "date --file=-", "date -f /dev/stdin", "wg pubkey",
	"dig -f -", "ip -batch -", "ip -b -", "ip -force -batch /dev/stdin", "tc -batch -", "setfacl --restore=-", "setfacl -M - f",
	"rpm --import -", "sysctl -p -", "sysctl -p /dev/stdin", "wg setconf wg0 /dev/stdin", "wg set wg0 private-key /dev/tty",
	"gzip f", "gzip -9 f", "gunzip f.gz", "zstd f", "unzstd f.zst", "lz4 f", "pigz f", "rename 's/a/b/'", "rename -n 's/a/b/'",
	"zfs receive pool/x", "zfs recv -F pool/x", "zfs load-key pool", "dpkg -i x.deb", "dpkg --configure -a",
	"dpkg --set-selections", "sudo -n date -f -", "env LANG=C wg pubkey", "ls; ssh-keygen -l",
}

func TestArgumentsThatReadTheTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range argumentReaders {
		t.Run(c, func(t *testing.T) {
			leftUnseen(t, c)
			if _, last := typeAll(tty, c, "cat <<'EOF'\nx\ntouch /etc/x\nEOF"); last.unseen == "" {
				t.Errorf("a here-document after it is seen: %q", last.text)
			}
		})
	}
	for _, c := range []string{
		"cd -", "echo -", "printf '%s' -", "gzip -f f", "gzip -c f", "gzip -l f.gz", "gzip -df x.gz", "zstd -f f", "zstd -d -c f.zst",
		"rename a b f", "wg show", "wg", "zfs list", "zfs get all pool", "dpkg -l", "dpkg -L x", "dpkg -S /bin/ls",
		"ssh-keygen -l -f k.pub", "ssh-keygen -F host", "ssh-keygen -R host", "date", "date -d tomorrow", "ip a",
		"ip -br link", "dig example.com", "sysctl -a",
	} {
		if _, last := typeAll(tty, c, "echo \\", "ls", "echo x\x7fy"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}

// TestFileNameAskedOnTheTerminal: ssh-keygen -l without -f asks for the
// key's file name, takes "echo \" as it and exits, and the shell runs the
// next line alone, which warden would read as echo's argument.
func TestFileNameAskedOnTheTerminal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("no ssh-keygen")
	}
	for i, opener := range []string{"ssh-keygen -l", "ssh-keygen -L"} {
		t.Run(opener, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			id, marker := rg.opened(opener)
			rg.readUntil(id, "file")
			refused := rg.splitWrite(id, marker, 500*time.Millisecond, i)
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after %s took the line before it", opener)
			}
			if refused == nil {
				t.Errorf("every send after %s ran without approval", opener)
			}
		})
	}
}

// The command shells of services and tools run a command given and
// otherwise read their own, and outlive Ctrl-C (virsh, bluetoothctl),
// so a line typed after Ctrl-C may be theirs: supervisorctl's "clear
// all" writes. Started without a command, they end the model.
func TestCommandShellsEndTheModel(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"virsh", "virsh -c qemu:///system", "lvm", "supervisorctl", "supervisorctl -c /etc/s.conf", "nslookup", "nslookup -",
		"bluetoothctl", "wpa_cli", "wpa_cli -i wlan0", "ntpq", "kadmin.local", "sqlcmd -S db", "gluster", "ceph",
		"units", "gnuplot", "pgcli", "mycli", "parted /dev/sdb", "fdisk /dev/sdb", "gdisk /dev/sdb", "debugfs /dev/sdb1",
		"xfs_db /dev/sdb1", "debugfs -w /dev/sdb1", "cfdisk /dev/sdb", "sudo virsh", "env LANG=C supervisorctl",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "\x03…", "", "clear all"); last.unseen == "" {
				t.Errorf("a line after it and Ctrl-C is read as the shell's: %q", last.text)
			}
		})
	}
	for _, c := range []string{
		"virsh list --all", "lvm lvs", "supervisorctl status", "nslookup example.com", "bluetoothctl show", "wpa_cli status",
		"ntpq -p", "units '2 m' ft", "parted /dev/sdb print", "parted -s /dev/sdb mklabel gpt", "fdisk -l", "fdisk -l /dev/sdb",
		"gdisk -l /dev/sdb", "debugfs -R stats /dev/sdb1", "xfs_db -c sb /dev/sdb1", "ceph status", "gluster volume info",
	} {
		if _, last := typeAll(tty, c, "\x03…", "", "echo \\", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
