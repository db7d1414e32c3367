package confine

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
)

func TestQuick(t *testing.T) {
	HideProcess()
	c, err := New(Options{Protect: []string{"/tmp/cf/state"}}, Auto)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("status %+v", c.Status())
	for _, l := range []Level{Read, Temp, Full} {
		cmd := exec.Command("/bin/sh", "-c", "echo hi > /tmp/cf/"+string(l)+"; echo x > /root/cf-"+string(l)+"; cat /tmp/cf/state/token; chmod 600 /etc/hostname; kill -0 $PPID && echo killok; echo ppid=$PPID; ls -l /proc/$PPID/environ; cat /proc/$PPID/environ | head -c 20; echo; grep -E '^(Name|Tgid|Pid)' /proc/$PPID/status; ls /proc/$PPID/fd | head -3; grep Cap /proc/self/status")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		rel, err := c.Start(With(context.Background(), Admission{Level: l}), cmd.Start)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		rel()
		t.Logf("%s: %s", l, out.String())
	}
	os.Remove("/root/cf-full")
}
