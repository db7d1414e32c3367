package sessions

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/session"
)

// TestPromptsByArguments: programs that ask for a password on the
// terminal in some uses — sqlplus given a user without a password, a CIFS
// mount without password= or credentials=, net with -U user (no %pw),
// pdbedit -a, doveadm pw — and always (the legacy mongo shell, sshfs,
// hg, openconnect) were not known, so the password typed in the next send
// was written to the audit record as typed. Uses that ask for none keep
// the next line (a command) in the record.
func TestPromptsByArguments(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Open)
	asks := []string{
		"sqlplus bob@db",
		"sqlplus -s bob@//h:1521/svc",
		"sudo -u oracle sqlplus system@orcl",
		"mount -t cifs //nas/share /mnt -o username=bob",
		"mount -t smb3 //nas/share /mnt -o user=bob,vers=3.0",
		"sudo mount -t cifs //nas/share /mnt -o username=bob,uid=1000",
		"mount.cifs //nas/share /mnt -o user=bob",
		"net ads join -U admin",
		"net rpc user add bob -U administrator",
		"net ads join -Uadmin example.com",
		"net ads join --user=admin",
		"pdbedit -a bob",
		"pdbedit --create -u bob",
		"doveadm pw -s SHA512-CRYPT",
		"mongo -u bob -p --authenticationDatabase admin",
		"sshfs bob@h:/srv /mnt/srv",
		"hg push https://h/r",
		"openconnect -u bob vpn.example.com",
	}
	for i, p := range asks {
		t.Run(p, func(t *testing.T) {
			secret := fmt.Sprintf("Zq9Typed%02dX", i)
			id := rg.start(map[string]any{"writable": true})
			defer rg.call("session_close", map[string]any{"session_id": id})
			rg.approved("session_send", map[string]any{"session_id": id, "data": "false && " + p, "enter": true})
			rg.approved("session_send", map[string]any{"session_id": id, "data": secret, "enter": true})
			b, _ := json.Marshal(rg.audit.all)
			if strings.Contains(string(b), secret) {
				t.Errorf("audit records keep the answer %q to %q", secret, p)
			}
		})
	}
	kept := []string{
		"sqlplus / as sysdba",
		"sqlplus -s bob/x@db @run.sql",
		"sqlplus /nolog",
		"mount -a",
		"mount /dev/sdb1 /mnt",
		"mount -t nfs h:/srv /mnt",
		"mount -t cifs //nas/share /mnt -o credentials=/root/.smbcred",
		"mount -t cifs //nas/share /mnt -o guest",
		"net ads info",
		"net ads join -k",
		"net ads join -U admin%x",
		"pdbedit -L",
		"doveadm who",
		"ip -br addr",
	}
	for i, p := range kept {
		t.Run("kept/"+p, func(t *testing.T) {
			next := fmt.Sprintf("echo Zq9Shown%02dX", i)
			id := rg.start(map[string]any{"writable": true})
			defer rg.call("session_close", map[string]any{"session_id": id})
			rg.approved("session_send", map[string]any{"session_id": id, "data": "false && " + p, "enter": true})
			rg.call("session_send", map[string]any{"session_id": id, "data": next, "enter": true})
			b, _ := json.Marshal(rg.audit.all)
			if !strings.Contains(string(b), next) {
				t.Errorf("the command %q typed after %q is not in the audit records", next, p)
			}
		})
	}
}

// TestAnswerAcrossTheLinesCut: a send's typed lines are recorded cut to
// 4 KiB, and the answer to a prompt typed in the same send was replaced
// only after the cut, so an answer lying across it kept its head in the
// record ("echo <3 KiB>⏎echo <1 KiB>; mysql -p⏎answer"). Each line stays
// below the terminal's 4095-byte line, past which it would drop the rest.
func TestAnswerAcrossTheLinesCut(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Open)
	for _, before := range []int{6, 12, 20, 30} {
		t.Run(fmt.Sprint(before), func(t *testing.T) {
			id := rg.start(map[string]any{"writable": true})
			defer rg.call("session_close", map[string]any{"session_id": id})
			first := "echo " + strings.Repeat("x", 3000)
			prompt := "; false && mysql -uroot -p"
			second := "echo " + strings.Repeat("y", 4096-len(first)-2-before-len("echo ")-len(prompt)) + prompt
			answer := "Zq9CutAnswer" + strings.Repeat("Q", 40)
			rg.approved("session_send", map[string]any{"session_id": id, "data": first + "\n" + second + "\n" + answer, "enter": true})
			b, _ := json.Marshal(rg.audit.all)
			if strings.Contains(string(b), "Zq9Cut") {
				t.Errorf("audit records keep the head of the answer cut %d bytes in", before)
			}
		})
	}
}

// TestSilentTerminalAnswers: a program no rule knows of asks for a
// password (ssh, a script's getpass, stty -echo then read), and the line
// typed next was recorded as typed, in the audit record and the
// recording's input. A terminal that reads a whole line with its echo off
// is at such a prompt, whichever program asked; one that echoes (read -p,
// cat) is not, and what is typed there stays.
func TestSilentTerminalAnswers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rg := newRigWith(t, policy.Open, session.Options{RecordDir: dir})
	// Each prints ASK-2READY, which the terminal's echo of the command
	// line does not hold: a wait for it ends once the program has asked,
	// not when its command line is echoed (python3 takes a while to start
	// on a busy machine, and a line typed before it turns echo off is
	// rightly recorded).
	asks := []string{
		"stty -echo; echo ASK-$((1+1))READY; read X; stty echo",
		"stty -echo; echo ASK-$((1+1))READY; read -r X Y; stty echo",
		`sh -c 'stty -echo; echo ASK-$((1+1))READY; head -n1 >/dev/null; stty echo'`,
		`python3 -c "import getpass; getpass.getpass('ASK-%dREADY' % 2)"`,
		`perl -e 'system "stty -echo"; print "ASK-", 1+1, "READY\n"; <STDIN>; system "stty echo"'`,
	}
	kept := []string{
		"read -p ASK-$((1+1))READY X",
		"echo ASK-$((1+1))READY; head -n1 >/dev/null",
	}
	check := func(t *testing.T, cmd, typed string, secret bool) {
		id := rg.start(map[string]any{"writable": true})
		defer rg.call("session_close", map[string]any{"session_id": id})
		rg.approved("session_send", map[string]any{"session_id": id, "data": cmd, "enter": true})
		rg.readUntil(id, "ASK-2READY")
		time.Sleep(100 * time.Millisecond)
		rg.call("session_send", map[string]any{"session_id": id, "data": typed, "enter": true})
		b, _ := json.Marshal(rg.audit.all)
		if held := strings.Contains(string(b), typed); held == secret {
			t.Errorf("after %q the audit records hold %q: %v, want %v", cmd, typed, held, !secret)
		}
	}
	for i, cmd := range asks {
		t.Run(cmd, func(t *testing.T) { check(t, cmd, fmt.Sprintf("Zq9Silent%02dX", i), true) })
	}
	for i, cmd := range kept {
		t.Run("kept/"+cmd, func(t *testing.T) { check(t, cmd, fmt.Sprintf("Zq9Echoed%02dX", i), false) })
	}
	casts, _ := filepath.Glob(filepath.Join(dir, "*.cast"))
	for _, c := range casts {
		b, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "Zq9Silent") {
			t.Errorf("recording %s holds an answer typed at a silent prompt", filepath.Base(c))
		}
	}
}
