package sessions

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// A pager reads keys with the terminal's editing off and outlives Ctrl-C
// (less only stops a search), so what is typed after it may reach a shell
// without readline unedited ("qtouch x #^Uecho hi" quits less, and dash
// runs touch): the model ends, whatever gives the pager its text, and so
// does an option that names a pager in place of the session's cat.
func TestPagersEndTheModel(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"less /etc/hosts", "less -R f", "cat f | less", "git log | less", "less < f", "sudo less /var/log/syslog",
		"env LANG=C less f", "lv f", "w3m f", "man -P less ls", "man -Pless ls", "man --pager=less ls",
		"man --pager less ls", "bat --pager=less f", "bat --pager 'less -R' f", "git -c pager.log=less log",
		"git -c core.pager=most log", "ls; less f", "timeout 60 less f",
	} {
		t.Run(c, func(t *testing.T) {
			_, last := typeAll(tty, c, "\x03…", "", "ls")
			if last.unseen == "" {
				t.Errorf("a line after it, and Ctrl-C, is read as the shell's: %q", last.text)
			}
		})
	}
	for _, c := range []string{"man ls", "man -P cat ls", "bat --pager=never f", "less --version", "echo less", "git log"} {
		if _, last := typeAll(tty, c, "\x03…", "", "echo \\", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}

// The programs that pick a pager by a variable of their own get cat too,
// and changing one ends the model as changing PAGER does.
func TestEveryPagerVariableIsCat(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"AWS_PAGER", "PERLDOC_PAGER", "NIX_PAGER", "HGPAGER", "RI_PAGER", "GLAB_PAGER", "PSQL_PAGER", "MYSQL_PAGER"} {
		t.Run(v, func(t *testing.T) {
			if !slices.Contains(pagerEnv, v+"=cat") {
				t.Errorf("%s is not cat in a session's environment", v)
			}
			for _, c := range []string{"unset " + v, "export " + v + "=less", v + "=less aws s3 ls", "env -u " + v + " ls"} {
				if why := rekeys(c); why == "" {
					t.Errorf("%q: %q", c, why)
				}
			}
		})
	}
}

// TestPagerOutlivesCtrlC: less ignores Ctrl-C, so after it the keys
// "qtouch x #", Ctrl-U, "echo hi" quit it and reach a shell without
// readline unedited, which runs touch where warden would read echo hi.
// In a writable session that send needs approval, so no unapproved send
// runs the marker's touch.
func TestPagerOutlivesCtrlC(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("less"); err != nil {
		t.Skip("no less")
	}
	file := filepath.Join(t.TempDir(), "long")
	if err := os.WriteFile(file, []byte(strings.Repeat("a line to page through\n", 500)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opener := range []string{"TERM=xterm less " + file, "cat " + file + " | TERM=xterm less"} {
		t.Run(opener, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			id, marker := rg.opened(opener)
			time.Sleep(500 * time.Millisecond)
			ran := 0
			for _, data := range []string{"\x03", "qtouch " + marker + " #\x15echo hi\r"} {
				if got := rg.send(id, data, false); got["status"] == "ok" {
					ran++
				}
				time.Sleep(500 * time.Millisecond)
			}
			// Quit less, then let Ctrl-C and an empty line settle the shell.
			for _, data := range []string{"q", "\x03", "\r"} {
				rg.approved("session_send", map[string]any{"session_id": id, "data": data, "enter": false})
				time.Sleep(300 * time.Millisecond)
			}
			rg.approved("session_send", map[string]any{"session_id": id, "data": "echo done-$((20+3))", "enter": true})
			rg.readUntil(id, "done-23")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after less")
			}
			if ran == 2 {
				t.Errorf("every send after less ran without approval")
			}
		})
	}
}
