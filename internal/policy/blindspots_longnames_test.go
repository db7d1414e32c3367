package policy

import "testing"

// TestBlindSpotLongNamesAbbreviated: handlers that compared long option
// names whole, for programs whose parsers take any unambiguous prefix —
// GNU tar (argp), iptables and ncat (getopt_long), firewall-cmd, ansible
// and HTTPie (argparse), emacs (its own completion) — read the option in
// every spelling, with its value attached or next.
func TestBlindSpotLongNamesAbbreviated(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"--remove-files", "--remove-f", "--remo", "--rem", "--recursive-u", "--recursiv", "--unlink-f", "--unl"} {
		cases = append(cases, blindCase{"tar " + o, "tar " + o + " -cf /tmp/x.tar /srv/data", TierDestructive, false})
	}
	for _, o := range []string{"--to-c=sh", "--to-comm sh", "--use-c=/tmp/x", "--use-compress /tmp/x", "--checkpoint-a=exec=/tmp/x",
		"--checkpoint-=exec=/tmp/x", "--info=/tmp/x", "--new-v /tmp/x", "--rsh=/tmp/x", "--rmt /tmp/x"} {
		cases = append(cases, blindCase{"tar " + o, "tar " + o + " -xf /tmp/a.tar", TierDestructive, false})
	}
	cases = append(cases, sameCases(TierDestructive, false,
		"tar --ext -f /tmp/a.tar --dir=/", "tar -xf /tmp/a.tar --direc /", "tar -xf /tmp/a.tar -C/", "tar --extract --file /tmp/a.tar --directory=/",
		"tar --del -f /tmp/a.tar x --rem",
	)...)
	for _, o := range []string{"--ins INPUT", "--inse INPUT", "--insert INPUT", "--app INPUT", "--appe=INPUT", "-I INPUT"} {
		for _, m := range []string{"-p tcp --dpo 22 --jum DROP", "-p tcp --dport=22 --jump=DROP", "-p tcp --destination-p 22 -j REJECT", "--jum=DROP", "--ju DROP", "-i eth0 --jum DROP"} {
			cmd := "iptables " + o + " " + m
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
	}
	cases = append(cases, sameCases(TierDestructive, false,
		"iptables --fl", "iptables --flu", "iptables --flush INPUT", "iptables --delete-c", "iptables --ze",
		"iptables --pol INPUT DROP", "iptables --polic FORWARD DROP", "ip6tables --po INPUT DROP", "iptables -t filter --pol INPUT REJECT",
		"firewall-cmd --set-default-z=drop", "firewall-cmd --set-default-zo block", "firewall-cmd --set-def=drop",
		"ncat --sh-e 'id' -l 9999", "ncat --sh 'id' -l 9999", "ncat --exe /bin/sh -l 9999", "ncat --ex=/bin/sh -l 9999",
		"ncat --lua-e /tmp/x.lua example.com 80", "ncat -lvc id", "ncat -lve/bin/sh", "nc -lvp 9999 -e /bin/sh", "netcat --exec=/bin/sh -l",
		"emacs --ev '(shell-command \"id\")'", "emacs --eva='(shell-command \"id\")'", "emacs --exe '(shell-command \"id\")'",
		"emacs --execute '(shell-command \"id\")'", "emacs -eval '(shell-command \"id\")'", "emacs -execute '(kill-emacs)'",
		"emacs --fu kill-emacs", "emacs --lo /tmp/x.el", "emacs -load /tmp/x.el", "emacs --scr /tmp/x.el", "emacs --bat -q",
		"ansible all --mod shell --arg id", "ansible all -mshell -aid", "ansible all --module-name=shell --args=id",
		"ansible all --module-n raw -a id", "ansible all -a id", "ansible all --ar id",
		"http --ti 5 DELETE http://x/y", "http --timeo=5 DELETE http://x/y", "http --prox http:x DELETE http://x/y",
		"https --max-r 3 DELETE example.org/x", "http --verif no DELETE http://x/y",
	)...)
	cases = append(cases, sameCases(TierMutate, false,
		"http --ti 5 POST http://x/y a=b", "http --auth-t basic PUT http://x/y",
	)...)
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"tar -tf", "tar --list -f /tmp/a.tar", TierRead},
		{"tar --lis", "tar --list --fil /tmp/a.tar", TierRead},
		{"tar --diff", "tar --dif -f /tmp/a.tar", TierRead},
		{"tar -czf", "tar -czf /tmp/a.tgz /srv/data", TierMutate},
		{"iptables -L", "iptables -L -n", TierRead},
		{"iptables --list", "iptables --list INPUT -n", TierRead},
		{"iptables --list-r", "iptables --list-r", TierRead},
		{"iptables --ins ACCEPT", "iptables --ins INPUT -p tcp --dport 22 -j ACCEPT", TierMutate},
		{"iptables --app DROP narrow", "iptables --app INPUT -p tcp --dpo 8080 --jum DROP", TierMutate},
		{"iptables --pol ACCEPT", "iptables --pol INPUT ACCEPT", TierMutate},
		{"firewall-cmd --list-all", "firewall-cmd --list-all", TierRead},
		{"firewall-cmd --get-default-zone", "firewall-cmd --get-default-zone", TierRead},
		{"nc -zv", "nc -zv example.com 443", TierBenign},
		{"http --ti GET", "http --ti 5 GET http://x/y", TierBenign},
		{"http --form", "http --form http://x/y", TierBenign},
		{"ansible ping", "ansible all --mod ping", TierBenign},
	})
}
