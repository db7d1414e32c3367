package sessions

import (
	"os"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// env -S's string, however spelled (abbreviated, attached, bundled), is
// the command env runs: a reader in it takes the line typed next, so
// "echo \" goes to it and the next line runs alone.
func TestEnvSplitStringSpellings(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"env -S'head -n 1'", "env -S 'head -n 1'", "env -iS'head -n 1'", "env -0S'head -n 1'",
		"env --split-string='head -n 1'", "env --split-string 'head -n 1'", "env --split='head -n 1'",
		"env --sp='head -n 1'", "env --s 'head -n 1'", "env --s='head -n 1'", "sudo env --sp='head -n 1'",
		"env -u X -S'head -n 1'", "env --unset X --sp='head -n 1'", "env -C /tmp -S'head -n 1'",
		"env --chdir=/tmp --sp='head -n 1'", "env A=1 --sp='head -n 1'", "env -S'sh -c \"head -n 1\"'",
		"env -S'env -S\"head -n 1\"'", "env --sp='read x'", "env --sp='cat'", "env -S'-i head -n 1'",
		"env --sp='sudo true'", "nice env --split-str='head -n 1'", "env -S'head -n 1' | ls",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("%q is classified as echo's argument", last.text)
			}
		})
	}
	// Language readers and key changes in it end the model.
	for _, c := range []string{"env --sp='stty kill x'", "env -S'python3'", "env --split='nslookup'", "env -S'bash --rcfile f'"} {
		if _, last := typeAll(tty, c, "ls"); last.unseen == "" {
			t.Errorf("%q then ls: seen", c)
		}
	}
	// env's other words stay what they were.
	for _, c := range []string{"env", "env -0 A=1 ls", "env -u FOO ls", "env --unset=FOO ls", "ls -Sr", "sort -S 1M f",
		"env -S'ls -l'", "env --sp='ls -l' /tmp", "env --ignore-signal=PIPE ls", "env --default-signal=INT ls", "echo env -S'cat'"} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// env --ignore-signal and --block-signal (any abbreviation, the signal
// named or all of them) start a program Ctrl-C does not end: after
// "env --ignore-signal=INT head -n 2", Ctrl-C and an empty line, head
// takes "echo \" and "touch /etc/x" runs. Such a reader ends the model
// as tee -i does.
func TestEnvSignalsOutliveCtrlC(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"env --ignore-signal=INT head -n 2", "env --ignore-signal head -n 2", "env --ignore-s=SIGINT head -n 2",
		"env --ignore-signal=TERM,INT cat", "env --ignore-signal=2 cat", "env --ignore-signal=int cat",
		"env --block-signal=INT head -n 2", "env --block cat", "env --b=INT cat", "env -i --ignore-signal cat",
		"sudo env --ignore-signal=INT head -n 2", "nice env --bl head -n 2", "timeout 60 env --ignore-signal read x",
		"env -S'--ignore-signal=INT head -n 2'", "env --sp='--block-signal cat'", "sh -c 'env --ignore-signal cat'",
		"ls; env --ignore-signal=INT cat", "tee --ign /dev/null; head -n 1", "tee --i /dev/null", "tee -a --ignore-int f",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "\x03…", "", "\x04…", "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("after Ctrl-C, %q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{"env --ignore-signal=PIPE cat", "env --ignore-signal=HUP,TERM cat", "env --default-signal cat", "tee --append f"} {
		if _, last := typeAll(tty, c, "\x03…", "", "ls"); last.unseen != "" {
			t.Errorf("%q, Ctrl-C, ls: %s", c, last.unseen)
		}
	}
}

// TestEnvIgnoringCtrlCInATerminal runs the case in a real terminal: head,
// started deaf to Ctrl-C, takes the empty line and "echo \", and a shell
// would run the touch that warden read as echo's argument. No
// unapproved send may make the marker.
func TestEnvIgnoringCtrlCInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{"env --ignore-signal=INT head -n 2", "env --bl head -n 2", "env -S'--ignore-s=INT head -n 2'"} {
		t.Run(opener, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			marker := mark(t)
			id := rg.start(map[string]any{"writable": true})
			if got := rg.approved("session_send", map[string]any{"session_id": id, "data": opener, "enter": true}); got["status"] != "ok" {
				t.Fatalf("send %q: %v", opener, got)
			}
			time.Sleep(300 * time.Millisecond)
			for _, data := range []string{"\x03", "\r", "echo \\\r", "touch " + marker + "\r"} {
				if got := rg.send(id, data, false); got["status"] != "ok" {
					break
				}
				time.Sleep(300 * time.Millisecond)
			}
			for _, data := range []string{"\x03", "\r", "\r", "echo done-$((20+4))\r"} {
				rg.approved("session_send", map[string]any{"session_id": id, "data": data, "enter": false})
				time.Sleep(300 * time.Millisecond)
			}
			rg.readUntil(id, "done-24")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after %q and Ctrl-C", opener)
			}
		})
	}
}
