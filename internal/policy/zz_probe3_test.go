package policy

import "testing"

func TestZZProbe3(t *testing.T) {
	p := protectedPolicy(t)
	for _, s := range []string{
		"exec -a reboot /bin/systemctl",
		"(exec -a poweroff systemctl)",
		"exec -a halt busybox",
		"exec -a x /sbin/reboot",
		"python3 -c 'import os; os.execv(\"/bin/systemctl\", [\"reboot\"])'",
		"perl -e 'exec {\"/bin/systemctl\"} \"reboot\"'",
		"tar -C /sbin -c reboot | tar -x -O > /tmp/x",
		"PATH=/tmp/d:$PATH x",
		"env PATH=/tmp/d x",
	} {
		d := p.Evaluate(Input{Command: s})
		t.Logf("%-60q tier=%d denied=%v %s", s, d.Tier, d.Denied, d.Reason)
	}
}
