package policy

import "testing"

func TestZZProbe(t *testing.T) {
	p := protectedPolicy(t)
	for _, s := range []string{"cp /bin/rm /tmp/zzdel; /tmp/zzdel -rf /", "/tmp/zzdel -rf /", "/tmp/zzdel /tmp/foo", "python3 /tmp/zz.sh", "sh /tmp/zz.sh", "/tmp/zz.sh", "/root/zzbin/zz", "/root/zzbin/del -rf /", "bash /root/zzbin/zz", ". /root/zzbin/zz",
		"/tmp/x",
		"/tmp/x -f",
		"base64 /sbin/reboot | base64 -d > /tmp/x",
		"base64 /sbin/reboot > /tmp/enc",
		"gzip -c /sbin/reboot > /tmp/x.gz",
		"xxd /sbin/reboot | xxd -r > /tmp/x",
		"head -c 99999999 /sbin/reboot > /tmp/x",
		"sed '' /sbin/reboot > /tmp/x",
		"python3 -c 'import shutil; shutil.copy(\"/sbin/reboot\", \"/tmp/x\")'",
		"tar -C /sbin -c reboot | tar -x -O > /tmp/x",
		"base64 /sbin/reboot | base64 -d > /tmp/x; chmod +x /tmp/x; /tmp/x",
		"cp /sbin/reboot /tmp/x; /tmp/x",
		"mv /sbin/reboot /tmp/x",
		"sha256sum /sbin/reboot > /tmp/sums",
		"ls -l /sbin/reboot > /tmp/l",
		"x=reboot; echo $x >> ~/.bashrc",
		"echo reboot | rev | rev >> ~/.bashrc",
		"f() { declare -x LESS='+!reboot'; less /etc/hosts; }; f",
		"curl -o /tmp/x file:///sbin/reboot",
		"openssl enc -base64 -in /sbin/reboot | openssl enc -d -base64 -out /tmp/x",
	} {
		d := p.Evaluate(Input{Command: s})
		t.Logf("%-70q tier=%d denied=%v %s", s, d.Tier, d.Denied, d.Reason)
	}
}
