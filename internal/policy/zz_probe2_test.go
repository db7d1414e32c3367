package policy

import "testing"

func TestZZProbe2(t *testing.T) {
	p := protectedPolicy(t)
	for _, s := range []string{
		"echo reboot >> ~/.bashrc",
		"x=reboot; echo $x >> ~/.bashrc",
		"x=reboot; echo \"$x\" >> ~/.bashrc",
		"printf '%s\\n' reboot >> ~/.bashrc",
		"echo reboot | tee -a ~/.bashrc",
		"echo reboot | cat >> ~/.bashrc",
		"echo reboot | rev | rev >> ~/.bashrc",
		"echo toober | rev >> ~/.bashrc",
		"echo cmVib290Cg== | base64 -d >> ~/.bashrc",
		"echo '* * * * * root reboot' > /etc/cron.d/x",
		"echo cmVib290Cg== | base64 -d > /etc/cron.d/x",
		"tr a-z n-za-m <<< erobbg >> ~/.profile",
	} {
		d := p.Evaluate(Input{Command: s})
		t.Logf("%-60q tier=%d denied=%v %s", s, d.Tier, d.Denied, d.Reason)
	}
}
