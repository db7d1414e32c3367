package policy

import "testing"

// TestAwkPatternsAreText: awk's '|' and system are read in its code, not
// inside string or regular expression literals (/nologin|false/,
// /filesystem/, FS="|") or comments; a pipe, system or gawk @ directive in
// the code, including one after a literal, a division or an unclosed
// quote, and one hidden by a '#' inside a comment, is still tier 3.
func TestAwkPatternsAreText(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"alternation", `getent passwd | awk -F: '$7 !~ /nologin|false/ {print $1}'`, TierRead},
		{"system in a pattern", `df | awk '/filesystem/ {print}'`, TierRead},
		{"count alternation", `awk '/error|warn|crit/ {c++} END {print c}' /var/log/syslog`, TierRead},
		{"group alternation", `awk '$1 ~ /^(sda|sdb)$/' /proc/diskstats`, TierRead},
		{"FS string", `awk 'BEGIN{FS="|"} {print $2}' data.txt`, TierRead},
		{"pipe in a string", `awk '{print "a|b", $1}' f`, TierRead},
		{"divisions", `awk '{ n = $3 / 1024 / 1024; printf "%.1f\n", n }' f`, TierRead},
		{"system in a string", `awk '{print "system"}' f`, TierRead},
		{"comment", "awk '# comment with | pipe\n{print $1}' f", TierRead},
		{"or", `awk 'NR==1 || /x/ {print}' f`, TierRead},
		{"mail address", `awk '/@example\.com/ {print "root@host"}' f`, TierRead},
	})
	runBlind(t, p, []blindCase{
		{"system", `awk 'BEGIN{system ("id")}'`, TierDestructive, false},
		{"getline pipe", `awk 'BEGIN{"id" | getline x; print x}'`, TierDestructive, false},
		{"print pipe", `awk '{print | "sh"}'`, TierDestructive, false},
		{"coprocess", `awk '{print |& "cat"}'`, TierDestructive, false},
		{"variable pipe", `awk 'BEGIN { cmd = "date"; cmd | getline d }'`, TierDestructive, false},
		{"@load", `awk '@load "filefuncs"; BEGIN{}'`, TierDestructive, false},
		{"@include", `awk '@include "/tmp/x.awk"'`, TierDestructive, false},
		{"indirect call", `awk 'BEGIN{f="system"; @f("id")}'`, TierDestructive, false},
		{"after x++ /", `awk '{ x = a++ / system("id") / 1 }'`, TierDestructive, false},
		{"after ) /", `awk '{ x = (a) / system("id") / 1 }'`, TierDestructive, false},
		{"after a number /", `awk 'BEGIN { print 1 /2/ system("id") }'`, TierDestructive, false},
		{"escaped quote", `awk 'BEGIN { s = "\"" ; system("id") }'`, TierDestructive, false},
		{"escaped slash", `awk '/\// { system("id") }'`, TierDestructive, false},
		{"slash in brackets", `awk '/[/]/ { system("id") }'`, TierDestructive, false},
		{"quote in a comment", "awk 'BEGIN { # \"\nsystem(\"id\") } # \"'", TierDestructive, false},
		{"unclosed string", "awk 'BEGIN { x = \"a\nsystem(\"id\") }'", TierDestructive, false},
		{"unclosed regex", "awk 'BEGIN { x = /a\nsystem(\"id\") }'", TierDestructive, false},
		{"pipe after a comment line", "awk '{print $1} # \"\n/x/ { print | \"sh\" }' f", TierDestructive, false},
		{"print > file", `awk '{print "x" > "/etc/x"}'`, TierMutate, false},
	})
}

// TestDdDiscardsAndComputedOperands: dd whose every of= discards
// (of=/dev/null, a read speed test) writes nothing; an operand computed
// at run time that can be of= ("of=$x", $x, "$x") writes a file named at
// run time; killall -l lists signals.
func TestDdDiscardsAndComputedOperands(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"of=/dev/null", "dd if=/dev/sda of=/dev/null bs=1M count=100", TierRead},
		{"status", "dd if=/dev/sda of=/dev/null status=progress", TierRead},
		{"quoted if", `dd if="$dev" of=/dev/null bs=1M count=10`, TierRead},
		{"stdout", "dd if=/dev/sda bs=512 count=1", TierRead},
		{"killall -l", "killall -l", TierRead},
	})
	runBlind(t, p, []blindCase{
		{"second of=", "dd if=/dev/sda of=/dev/null of=/etc/x", TierMutate, false},
		{"computed word", "dd if=/dev/sda $x", TierMutate, false},
		{"computed of=", `dd if=/dev/sda "of=$x"`, TierMutate, false},
		{"quoted computed word", `dd if=/dev/sda "$x"`, TierMutate, false},
		{"unquoted if", "dd if=$dev of=/dev/null", TierMutate, false},
		{"of= file", "dd if=/dev/sda of=/tmp/mbr bs=512 count=1", TierMutate, false},
		{"of= device", "dd if=/dev/zero of=/dev/sda", TierDestructive, true},
		{"killall -l NAME", "killall -l nginx", TierMutate, false},
		{"killall warden", "killall warden", TierDestructive, false},
	})
}
