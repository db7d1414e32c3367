package policy

import "testing"

// TestBlindSpotComputedOptions: a word whose value is known only at run
// time can split into several words or begin with '-', and so become an
// option of the program it is given to: x='-o /etc/passwd'; sort $x.
// Where a program has options that write, run or evaluate, such a word is
// at least tier 2; one that provably stays a single operand
// ("/var/log/$f", "https://$host/", an integer) keeps the command's tier.
func TestBlindSpotComputedOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		// Builtins that take variable names or actions: printf -v,
		// test -v, getopts NAME, wait -p, trap ACTION.
		{"printf $x", "printf $x", TierMutate, false},
		{"printf $x y", "printf $x y", TierMutate, false},
		{"printf \"$x\" y", "printf \"$x\" y", TierMutate, false},
		{"printf ${x}", "printf ${x} y", TierMutate, false},
		{"printf $(cat)", "printf $(cat /tmp/f) y", TierMutate, false},
		{"printf `cat`", "printf `cat /tmp/f` y", TierMutate, false},
		{"printf \"$@\"", "printf \"$@\"", TierMutate, false},
		{"test $x", "test $x", TierMutate, false},
		{"[ $x ]", "[ $x ]", TierMutate, false},
		{"[ $(cat) ]", "[ $(cat /tmp/f) ]", TierMutate, false},
		{"[ -n $x ]", "[ -n $x ]", TierMutate, false},
		{"[ \"$x\" \"$y\" ]", "[ \"$x\" \"$y\" ]", TierMutate, false},
		{"test \"$op\" name", "test \"$op\" 'a[1]' = 1", TierMutate, false},
		{"[ -f $f ] with a globbed f", "for f in /var/log/*.log; do [ -s $f ]; done", TierMutate, false},
		{"getopts $x", "getopts $x", TierMutate, false},
		{"getopts $(cat)", "getopts $(cat /tmp/f)", TierMutate, false},
		{"wait $x", "wait $x", TierMutate, false},
		{"wait \"$x\"", "wait \"$x\"", TierMutate, false},
		{"wait -n $x", "wait -n $x", TierMutate, false},
		{"trap $x", "trap $x", TierDestructive, false},
		{"trap $(cat)", "trap $(cat /tmp/f)", TierDestructive, false},
		// Programs whose options delete, write or run.
		{"find $x", "find / $x", TierDestructive, false},
		{"find \"$x\"", "find \"$x\"", TierDestructive, false},
		{"find $(cat)", "find /srv $(cat /tmp/f)", TierDestructive, false},
		{"find dir$x", "find /var/log/$d -name x", TierDestructive, false},
		{"sort $x", "sort $x /tmp/in", TierMutate, false},
		{"sort \"$x\"", "sort \"$x\" /tmp/in", TierMutate, false},
		{"sort -n $x", "sort -n $x", TierMutate, false},
		{"uniq a $x", "uniq /tmp/a $x", TierMutate, false},
		{"shuf $x", "shuf $x", TierMutate, false},
		{"iconv $x", "iconv -f latin1 $x", TierMutate, false},
		{"xxd $x", "xxd /tmp/a $x", TierMutate, false},
		{"git log $x", "git log $x", TierMutate, false},
		{"git show \"$x\"", "git show \"$x\"", TierMutate, false},
		{"git diff $(cat)", "git diff $(cat /tmp/f)", TierMutate, false},
		{"git grep $x", "git grep foo $x", TierMutate, false},
		{"curl $x", "curl $x http://h/", TierMutate, false},
		{"curl \"$x\"", "curl \"$x\" http://h/", TierMutate, false},
		{"curl url $x", "curl -s http://h/ $x", TierMutate, false},
		{"curl \"$url\"", "curl -s \"$url\"", TierMutate, false},
		{"curl -X$m", "curl -X$m http://h/", TierMutate, false},
		{"curl -X \"$m\"", "curl -X \"$m\" http://h/", TierMutate, false},
		{"wget $x", "wget -qO- $x", TierMutate, false},
		{"wget \"$x\"", "wget -qO- \"$x\" http://h/", TierMutate, false},
		{"http $m", "http $m http://h/", TierMutate, false},
		{"xh $(cat)", "xh $(cat /tmp/m) http://h/", TierMutate, false},
		// With a denied payload, a literal option still carries its
		// verdict.
		{"find -exec literal deny", "x=1; find / -exec reboot \\;", TierDestructive, true},
	})
	runExact(t, p, []exactCase{
		{"printf with a literal format", "printf '%s\\n' \"$x\"", TierRead},
		{"printf format starting with text", "printf \"Value: $x\\n\"", TierRead},
		{"printf after --", "printf -- \"$x\"", TierRead},
		{"[ string ]", "[ \"$x\" ]", TierRead},
		{"[ -n string ]", "[ -n \"$x\" ]", TierRead},
		{"[ a = b ]", "[ \"$a\" = \"$b\" ]", TierRead},
		{"[ ! x ]", "[ ! \"$x\" ]", TierRead},
		{"[ -f x -a -r x ]", "[ -f \"$f\" -a -r \"$f\" ]", TierRead},
		{"[ quoted globbed f ]", "for f in /var/log/*.log; do [ -s \"$f\" ]; done", TierRead},
		{"test -z $(ls)", "test -z \"$(ls)\"", TierRead},
		{"getopts quoted spec", "getopts \"$spec\" opt", TierRead},
		{"wait $!", "sleep 1 & wait $!", TierRead},
		{"wait on a saved pid", "sleep 1 & pid=$!; wait $pid", TierRead},
		{"wait \"$pid\"", "pid=5; wait \"$pid\"", TierRead},
		{"find under a literal dir", "find \"/var/log/$d\" -name '*.log'", TierRead},
		{"find test value", "find /var/log -name \"$pat\"", TierRead},
		{"sort key value", "sort -k \"$k\" /tmp/x", TierRead},
		{"sort -t value", "sort -t \"$sep\" -k2 /tmp/x", TierRead},
		{"git -C value", "git -C \"$d\" status", TierRead},
		{"git log -n value", "git log -n \"$n\" --oneline", TierRead},
		{"curl literal scheme", "curl -s \"https://$host/health\"", TierBenign},
		{"curl header value", "curl -H \"Authorization: Bearer $t\" https://h/", TierBenign},
		{"curl user value", "curl -u \"$u:$p\" https://h/", TierBenign},
		{"wget literal scheme", "wget -qO- \"https://$h/\"", TierBenign},
		{"http GET literal", "http GET \"https://$h/\"", TierBenign},
	})
}

// TestBlindSpotHiddenRunners: builtins and tools that run the command in
// their arguments (jobs -x, jc's "magic" syntax) take that command's tier
// and verdict; tools with options or verbs that write or change state are
// at least tier 2.
func TestBlindSpotHiddenRunners(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"jobs -x", "jobs -x touch /var/p", TierMutate, false},
		{"jobs -x deny", "jobs -x rm -rf /", TierDestructive, true},
		{"jobs -x reboot", "jobs -x reboot", TierDestructive, true},
		{"jobs -lx", "jobs -lx sh -c 'reboot'", TierDestructive, true},
		{"jobs $x", "jobs $x touch /var/p", TierDestructive, false},
		{"jc magic", "jc rm -rf /", TierDestructive, true},
		{"jc options then magic", "jc -p -r systemctl reboot", TierDestructive, true},
		{"jc magic touch", "jc --pretty touch /var/p", TierMutate, false},
		{"jc computed", "jc $x", TierDestructive, false},
		{"lshw -dump", "lshw -dump /var/db", TierMutate, false},
		{"zstdcat -o", "zstdcat -o /var/out in.zst", TierMutate, false},
		{"systemd-analyze set-log-level", "systemd-analyze set-log-level debug", TierMutate, false},
		{"systemd-analyze log-level X", "systemd-analyze log-level debug", TierMutate, false},
		{"systemd-analyze log-target X", "systemd-analyze --no-pager log-target console", TierMutate, false},
		{"systemd-analyze service-watchdogs off", "systemd-analyze service-watchdogs off", TierMutate, false},
		{"systemd-analyze computed", "systemd-analyze $v", TierMutate, false},
		{"vcgencmd display_power 0", "vcgencmd display_power 0", TierMutate, false},
		{"vcgencmd set_logging", "vcgencmd set_logging level=0", TierMutate, false},
		// curl: methods in every spelling, FTP quote commands, and
		// schemes that send raw bytes to a service.
		{"curl -XPURGE", "curl -XPURGE http://h/", TierMutate, false},
		{"curl -Xpatch", "curl -Xpatch http://h/", TierMutate, false},
		{"curl -sXDELETE", "curl -sXDELETE http://h/", TierMutate, false},
		{"curl -sX PUT", "curl -sX PUT http://h/", TierMutate, false},
		{"curl --request", "curl --request delete http://h/", TierMutate, false},
		{"curl -Q", "curl -Q 'DELE f' ftp://h/", TierMutate, false},
		{"curl --quote", "curl --quote '-RMD d' ftp://h/", TierMutate, false},
		{"curl -sQ", "curl -sQ'rm /f' sftp://h/", TierMutate, false},
		{"curl telnet", "curl telnet://127.0.0.1:6379 <<< FLUSHALL", TierMutate, false},
		{"curl gopher", "curl gopher://127.0.0.1:6379/_FLUSHALL", TierMutate, false},
		{"curl GOPHER", "curl GOPHER://127.0.0.1:6379/_FLUSHALL", TierMutate, false},
		{"curl dict", "curl -s dict://127.0.0.1:11211/stats", TierMutate, false},
		{"curl --url mqtt", "curl --url mqtt://h/topic -d x", TierMutate, false},
		{"curl --proto-default", "curl --proto-default telnet 127.0.0.1:6379", TierMutate, false},
		// HTTPie and xh take the method before the URL.
		{"http POST", "http POST http://h/x", TierMutate, false},
		{"http delete", "http delete http://h/x", TierMutate, false},
		{"https PUT after options", "https -a u:p PUT h/x", TierMutate, false},
		{"xh patch", "xh patch h/x", TierMutate, false},
		{"http --session", "http --session=s h/x", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"jobs lists", "jobs -l", TierRead},
		{"jc parser", "jc --dig < /tmp/d", TierRead},
		{"jc magic read", "jc -p uptime", TierRead},
		{"systemd-analyze blame", "systemd-analyze blame", TierRead},
		{"systemd-analyze alone", "systemd-analyze", TierRead},
		{"systemd-analyze log-level query", "systemd-analyze log-level", TierRead},
		{"systemd-analyze security unit", "systemd-analyze security nginx.service", TierRead},
		{"vcgencmd measure_temp", "vcgencmd measure_temp", TierRead},
		{"vcgencmd display_power query", "vcgencmd display_power -1 2", TierRead},
		{"zstdcat to stdout", "zstdcat in.zst", TierRead},
		{"lshw short", "lshw -short", TierRead},
		{"curl -XGET", "curl -sS -XGET http://h/", TierBenign},
		{"curl -X HEAD", "curl -X HEAD http://h/", TierBenign},
		{"curl https", "curl -fsSL https://h/x", TierBenign},
		{"http GET", "http GET h/x", TierBenign},
		{"http url only", "http h/x", TierBenign},
	})
}
