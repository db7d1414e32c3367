package policy

import "testing"

// TestBlindSpotExactLoopValues: a for loop over literal words gives its
// variable exactly those values in its body, so a command there that uses
// it is read once with each (ssh "$h" to web1 and web2, git -C "$r" under
// /srv) instead of as a destination, device or project known only at run
// time: reads stay reads, on this machine and on an SSH host. Each value
// still meets every rule (a denied host or warden's state among the items
// is denied, a temporary directory is tier 3), and nothing that may change
// the variable in the script (an assignment, read, printf -v, arithmetic,
// eval, a trap, a function, a sourced file, a nameref, IFS, another loop
// over the name) nor a use the binding cannot stand for (unquoted glob
// names, which the shell would split) lets a value be taken as known.
func TestBlindSpotExactLoopValues(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"git -C over list", `for r in /srv/a /srv/b; do git -C "$r" status; done`, TierRead},
		{"git -C over glob", `for r in /srv/*/; do git -C "$r" status --short; done`, TierRead},
		{"git -C unquoted list", `for r in /srv/a /srv/b; do git -C $r log -1; done`, TierRead},
		{"git -C braces", `for r in /srv/app /opt/app; do git -C "${r}" log -1; done`, TierRead},
		{"cd then git", `for r in /srv/a /srv/b; do cd $r && git status; done`, TierRead},
		{"git under home glob", `for r in /home/*/src; do git -C "$r" log --oneline -3; done`, TierRead},
		{"smartctl devices", `for d in /dev/sda /dev/sdb; do smartctl -a $d; done`, TierRead},
		{"smartctl names", `for d in sda sdb nvme0n1; do smartctl -H /dev/$d; done`, TierRead},
		{"ethtool", `for n in eth0 eth1; do ethtool $n; done`, TierRead},
		{"sysctl keys", `for k in net.ipv4.ip_forward vm.swappiness; do sysctl $k; done`, TierRead},
		{"hdparm", `for d in /dev/sda /dev/sdb; do hdparm -I $d | grep Model; done`, TierRead},
		{"ssh hosts", `for h in web1 web2; do ssh $h uptime; done`, TierBenign},
		{"ssh hosts quoted", `for h in web1 web2 db1; do ssh "$h" 'df -h /'; done`, TierBenign},
		{"curl hosts", `for h in web1 web2; do curl -s http://$h/health; done`, TierBenign},
		{"curl braces", `for h in web1 web2; do curl -s "http://${h}:8080/metrics" | head; done`, TierBenign},
		{"wget hosts", `for h in web1 web2; do wget -qO- http://$h/; done`, TierBenign},
		{"nested loops", `for h in web1 web2; do for p in 80 443; do nc -zv $h $p; done; done`, TierBenign},
		{"ls dirs", `for d in /etc /var/log; do ls "$d"; done`, TierRead},
		{"du glob", `for d in /srv/*/; do du -sh "$d"; done`, TierRead},
		{"tail logs", `for f in /var/log/*.log; do tail -n 5 "$f"; done`, TierRead},
		{"systemctl reload", `for s in nginx php-fpm; do systemctl reload "$s"; done`, TierMutate},
		// A cd to a glob under a directory that holds no temporary one
		// reaches none a tier 1 write made (protect.go, cdSafeGlob).
		{"cd glob then git", `for r in /srv/*/; do cd "$r" && git status -s; done`, TierRead},
		{"subshell cd glob", `for r in /srv/*/; do (cd "$r" && git log -1); done`, TierRead},
		{"cd glob and back", `for r in /srv/*/; do cd "$r"; git status; cd -; done`, TierRead},
		{"pushd glob", `for r in /srv/*/; do pushd "$r" && git status && popd; done`, TierRead},
		{"cd literal glob", `cd /srv/*/ && git status`, TierRead},
		{"cd home glob", `for r in /home/*/src; do cd "$r" && git fetch --dry-run; done`, TierMutate},
	})

	var cases []blindCase
	for _, c := range []string{
		`for h in web1; do h=169.254.169.254; curl http://$h/; done`,
		`for h in 169.254.169.254; do curl http://$h/; done`,
		`for h in web1 169.254.169.254; do ssh "$h" uptime; done`,
		`for h in web1; do curl http://${h:-169.254.169.254}/; done`,
		`for d in /etc /root/.local/state; do cat $d/warden/token; done`,
		`for d in /root/.local/*; do cat "$d/warden/token"; done`,
		`for f in tok*; do cat "/root/.local/state/warden/$f"; done`,
		`for p in ls reboot; do $p; done`,
		`for c in "rm -rf /"; do $c; done`,
		`for d in /dev/sda; do dd if=/dev/zero of=$d; done`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`for p in /usr/sbin/reb*; do "$p"; done`,
		`for h in web1; do declare -i n; n='h=2852039166'; curl http://$h/; done`,
		`for r in /tmp/a /srv/b; do git -C "$r" status; done`,
		`for r in /srv/*/; do cd "$r" && cd ../../tmp/x && git status; done`,
		`for r in /tmp/*/; do cd "$r" && git status; done`,
		`for r in /var/*/; do cd "$r" && git status; done`,
		`for r in /srv/*/; do cd "$r"; done; cd /tmp/x; git status`,
		`cd /tmp/x; for r in /srv/*/; do cd "$r" && git status; done`,
		`for r in /srv/*/; do cd "$r"; cd x; git status; done`,
		`for r in /tmp/*/; do git -C "$r" status; done`,
		`for r in /var/*/x; do git -C "$r" status; done`,
		`for r in /*/x; do git -C "$r" status; done`,
		`for r in /srv/.*; do git -C "$r" status; done`,
		`for r in /srv/[.]*; do git -C "$r" status; done`,
		`for r in /srv/*; do git -C $r status; done`,
		`for r in "/srv/a b"; do git -C $r status; done`,
		`for r in /srv/*/../../tmp/x; do git -C "$r" status; done`,
		`for h in web1; do read h; curl http://$h/; done`,
		`for h in web1; do read -r h; curl http://$h/; done`,
		`for h in web1; do printf -v h %s x; curl http://$h/; done`,
		`for h in web1; do printf -vh %s x; curl http://$h/; done`,
		`for h in web1; do read -a h; curl http://$h/; done`,
		`for h in web1; do mapfile h < /tmp/x; curl http://$h/; done`,
		`for h in web1; do getopts a h; curl http://$h/; done`,
		`for h in web1; do unset h; curl http://$h/; done`,
		`for h in web1; do let h=1; curl http://$h/; done`,
		`for h in web1; do : $((h=1)); curl http://$h/; done`,
		`for h in web1; do : ${h:=x}; curl http://$h/; done`,
		`for h in web1; do eval h=x; curl http://$h/; done`,
		`trap 'h=x' DEBUG; for h in web1; do curl http://$h/; done`,
		`f() { h=x; }; for h in web1; do f; curl http://$h/; done`,
		`for h in web1; do . /tmp/env; curl http://$h/; done`,
		`declare -n ref=h; for h in web1; do ref=x; curl http://$h/; done`,
		`for h in web1; do declare h=x; curl http://$h/; done`,
		`for h in web1; do export h=x; curl http://$h/; done`,
		`for h in web1; do wait -p h; curl http://$h/; done`,
		`for h in web1; do IFS=. ; curl http://$h/; done`,
		`for h in web1; do for h in x; do :; done; curl http://$h/; done`,
		`for h in web1; do :; done; for h in x; do curl http://$h/; done`,
		`for h in web1; do coproc h { cat; }; curl http://$h/; done`,
		`for h in web1; do [[ -v a[h=2] ]]; curl http://$h/; done`,
		`for h in web1; do test -v 'a[h=2]'; curl http://$h/; done`,
		`for h in web1; do echo ${a[h=2]}; curl http://$h/; done`,
		`for h in web1; do command read h; curl http://$h/; done`,
		`for h in web1; do builtin printf -v h x; curl http://$h/; done`,
		`for h in web1; do select h in a; do break; done; curl http://$h/; done`,
		`for h in web1; do mapfile -C 'h=x' -c1 a < /etc/hosts; curl http://$h/; done`,
		`for h in web1; do curl http://$(echo $h)/; done`,
		`for h in web1; do exec {h}>/dev/null; curl http://$h/; done`,
		`for h in web1; do { curl http://$h/; } {h}</dev/null; done`,
		`f() { curl http://$h/; }; for h in web1; do f; done`,
		`for h in web1; do f() { curl http://$h/; }; done; h=$(cat /tmp/h); f`,
		`sh -c 'for h in web1; do curl http://$h/; done; h=x'`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, false})
	}
	// A glob that can match a name beginning with '-' is an option, and
	// bash sets $_ after every command: computed, as opValue says.
	cases = append(cases, sameCases(TierMutate, false,
		`for d in /dev/sda *; do smartctl -H "$d"; done`,
		`for d in /dev/sda -*; do smartctl -H "$d"; done`,
		`for d in /dev/sda ?x; do smartctl -H "$d"; done`,
		`for _ in /dev/sda; do smartctl -H "$_"; done`,
	)...)
	runBlindHosts(t, p, cases)
}

// TestBlindSpotExactAssignedValues: a variable whose only assignment is a
// top-level statement of its own (h=web1) holds that value in every later
// statement, so a command there is read with it, as with a loop's items:
// ssh $h, git -C $r and smartctl $d stay what they are with the literal.
// A use before the assignment, in nested code, or anything else that may
// set the variable (a second assignment, a prefix assignment, a condition,
// a background job, read, printf -v, unset, declare, arithmetic, eval,
// trap, a function, a sourced file, a nameref, IFS) keeps it unknown, and
// the value meets every rule.
func TestBlindSpotExactAssignedValues(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"ssh", `h=web1; ssh $h uptime`, TierBenign},
		{"ssh quoted", `h=web1; ssh "$h" 'df -h'`, TierBenign},
		{"curl", `h=web1; curl -s http://$h:8080/health`, TierBenign},
		{"git -C", `r=/srv/app; git -C $r status`, TierRead},
		{"git -C quoted", `r=/srv/app; git -C "$r" log -3`, TierRead},
		{"cd then git", `r=/srv/app; cd "$r" && git status`, TierRead},
		{"smartctl", `d=/dev/sda; smartctl -a $d`, TierRead},
		{"ethtool", `n=eth0; ethtool $n`, TierRead},
		{"in a loop", `h=web1; for i in 1 2; do ssh $h uptime; done`, TierBenign},
		{"in a substitution", `h=web1; x=$(ssh $h uptime); echo "$x"`, TierBenign},
		{"in a later function", `h=web1; f() { curl -s http://$h/; }; f`, TierBenign},
		{"newlines", "r=/srv/app\ngit -C \"$r\" status\ngit -C \"$r\" log -1", TierRead},
	})
	var cases []blindCase
	for _, c := range []string{
		`h=169.254.169.254; curl http://$h/`,
		`h=web1; h=169.254.169.254; curl http://$h/`,
		`h=-oProxyCommand=reboot; ssh $h x`,
		`h="-oProxyCommand=reboot"; ssh "$h" x`,
		`r=/root/.local/state/warden; cat $r/token`,
		`p=reboot; $p`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`r=/tmp/x; git -C $r status`,
		`ssh $h uptime; h=web1`,
		`h=web1 ssh $h uptime`,
		`true && h=web1; ssh $h uptime`,
		`h=web1 & ssh $h uptime`,
		`h=web1; read h; ssh $h uptime`,
		`h=web1; f() { h=x; }; f; curl http://$h/`,
		`f() { curl http://$h/; }; h=web1; f`,
		`h=web1; (h=x); curl http://$h/`,
		`h=web1; declare -i n; n='h=1'; curl http://$h/`,
		`h=web1; sh -c 'ssh $h uptime'`,
		`trap 'h=x' DEBUG; h=web1; curl http://$h/`,
		`h=web1; unset h; curl http://$h/`,
		`h=web1; . /tmp/x; curl http://$h/`,
		`h=web1; mapfile -t h < /tmp/l; curl http://$h/`,
		`h=web1; printf -v h x; curl http://$h/`,
		`h=web1; : ${h:=x}; curl http://$h/`,
		`h=web1; let h=1; curl http://$h/`,
		`h=web1; ((h=1)); curl http://$h/`,
		`h=web1; declare h=x; curl http://$h/`,
		`h=web1; export h=x; curl http://$h/`,
		`h=web1; coproc h { :; }; curl http://$h/`,
		`h=web1; for h in x; do :; done; curl http://$h/`,
		`h=web1; getopts a h; curl http://$h/`,
		`h=web1; eval 'h=x'; curl http://$h/`,
		`h=web1; declare -n r=h; r=x; curl http://$h/`,
		`h=web1; echo ${a[h=1]}; curl http://$h/`,
		`h=web1; test -v 'a[h=1]'; curl http://$h/`,
		`h=web1; command read h; curl http://$h/`,
		`h=web1; mapfile -C 'h=x' -c1 a < /etc/hosts; curl http://$h/`,
		`h=web1; h+=.x; curl http://$h/`,
		`h=web1; h[0]=x; curl http://$h/`,
		`h="web1 -oProxyCommand=x"; ssh $h`,
		`h=web1 2>/dev/null; curl http://$h/`,
		`h=web1; exec {h}>/dev/null; curl http://$h/`,
		`h=web1; exec {h}<&0; curl http://$h/`,
		`h=web1; : {h}>/dev/null; curl http://$h/`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, false})
	}
	runBlindHosts(t, p, cases)
}
