package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"
)

// TestProgramsGetNoTerminal starts warden from a terminal, as an operator's
// shell or an AI client's does: its programs must not get that terminal,
// where one could draw on it or type into the operator's shell (TIOCSTI).
func TestProgramsGetNoTerminal(t *testing.T) {
	mfd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no terminals here: %v", err)
	}
	master := os.NewFile(uintptr(mfd), "/dev/ptmx")
	defer master.Close()
	if err := unix.IoctlSetPointerInt(mfd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(mfd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slave.Close()
	seen := &syncBuffer{}
	go io.Copy(seen, master)

	env, _ := wardenEnv(t)
	cmd := exec.Command(wardenBin, "serve")
	cmd.Env = env
	cmd.Stderr = &syncBuffer{}
	cmd.ExtraFiles = []*os.File{slave}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v\n%s", err, cmd.Stderr)
	}
	defer cs.Close()
	// Field 7 of /proc/self/stat is the controlling terminal, 0 for none.
	res, got := callTool(t, cs, "run_command", map[string]any{"command": `echo canary-tty-7 > /dev/tty; awk '{print "tty_nr=" $7}' /proc/self/stat`})
	if got["status"] != "ok" {
		t.Fatalf("run_command: %v %s", got, text(res))
	}
	if !strings.Contains(text(res), "tty_nr=0\n") {
		t.Errorf("the program has a controlling terminal: %s", text(res))
	}
	// Anything written reaches the master at once; give it a moment.
	time.Sleep(200 * time.Millisecond)
	if strings.Contains(seen.String(), "canary-tty-7") {
		t.Errorf("a program wrote to the terminal warden was started from: %q", seen.String())
	}
}
