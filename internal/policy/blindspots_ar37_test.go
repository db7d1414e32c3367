package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlindSpotDescriptorDirs: a descriptor opened on a directory above
// warden's state names everything under it, through /dev/fd/N/…,
// /proc/PID/fd/N/… (any spelling of PID, a task's too) and /dev/stdin/…,
// and /dev/fd/.. is /proc/self, not /dev: each reads the file its source
// path would.
func TestBlindSpotDescriptorDirs(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"exec 3</etc; cat /proc/self/fd/3/warden/audit.key",
		"exec 3</etc; cat /dev/fd/3/warden/audit.key",
		"exec 3</etc; cat /proc/$$/fd/3/warden/audit.key",
		"exec 3</etc; cat /proc/$BASHPID/fd/3/warden/audit.key",
		"exec 3</etc; cat /proc/*/fd/3/warden/audit.key",
		"exec 3</etc; cat /proc/self/task/*/fd/3/warden/audit.key",
		"exec 3</etc; cat /proc/thread-self/fd/3/warden/audit.key",
		"exec 3</etc; cat /dev/fd/3/warden/audit.k*",
		"exec 3</etc; cat /dev/fd/3/w*/*.key",
		"exec 3</etc; cat /dev//fd/./3/warden//audit.key",
		"exec 3</; cat /dev/fd/3/etc/warden/audit.key",
		"exec 3</root; cat /dev/fd/3/.local/state/warden/token",
		"exec 3</etc/warden; cat /dev/fd/3/audit.key",
		"exec 3<>/etc; cat /dev/fd/3/warden/audit.key",
		"exec 7</etc 8</tmp; cat /dev/fd/7/warden/audit.key",
		"exec {d}</etc; cat /dev/fd/$d/warden/audit.key",
		`exec {d}</etc; cat "/proc/self/fd/$d/warden/audit.key"`,
		"exec 3</etc; n=3; cat /dev/fd/$n/warden/audit.key",
		"cat /dev/fd/3/warden/audit.key 3</etc",
		"cat /dev/stdin/warden/audit.key </etc",
		"cat /dev/stderr/warden/audit.key 2</etc",
		"cat /proc/self/fd/0/warden/audit.key 0</etc",
		"exec 3</etc; cp /dev/fd/3/warden/audit.key /tmp/k",
		"cd /etc/warden; cat /dev/fd/../cwd/audit.key",
		"cd /etc/warden; cat /proc/self/fd/../cwd/audit.key",
		"cd /etc/warden; cat /dev/fd/../../self/cwd/audit.key",
		"cat /dev/fd/../root/etc/warden/audit.key",
		"cat /proc/self/fd/../root/root/.local/state/warden/token",
		"cat /proc/self/task/../root/etc/warden/audit.key",
	))
	// A descriptor whose directory the input does not show is a path
	// known only in part.
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"cat /dev/fd/3/warden/audit.key",
		"cat /proc/self/fd/4/.local/state/warden/token",
		"exec 3</etc; tar c /dev/fd/3/warden",
	))
	// Only a local program reaches warden's files (protect_recursive.go).
	runBlind(t, p, sameCases(TierDestructive, false,
		"exec 3</etc; grep -r . /dev/fd/3",
		"exec 3</etc; grep -r . /proc/self/fd/3/",
		"exec 3</; rg . /dev/fd/3/etc",
		"exec 3</etc; cp -r /dev/fd/3 /tmp/e",
		"exec 3</etc; find /dev/fd/3/ -exec cat {} +",
	))
	runExactHosts(t, p, []exactCase{
		{"stdin", "cat /dev/stdin", TierRead},
		{"a descriptor", "cat /dev/fd/3", TierRead},
		{"a file's descriptor", "exec 3</tmp/f; cat /dev/fd/3", TierRead},
		{"under a temporary directory", "exec 3</tmp; cat /dev/fd/3/x", TierRead},
		{"list a descriptor directory", "exec 3</tmp; ls /dev/fd/3/", TierRead},
		{"recursive under a temporary directory", "exec 3</tmp; grep -r . /dev/fd/3", TierRead},
		{"list descriptors", "ls -l /proc/self/fd/", TierRead},
		{"readlink", "readlink /proc/self/fd/0", TierRead},
		{"fdinfo", "cat /proc/self/fdinfo/0", TierRead},
		{"to stderr", "echo hi > /dev/fd/2", TierRead},
		{"process substitution", "diff <(ls) /dev/fd/3", TierRead},
		{"own status", "cat /proc/self/status", TierRead},
	})
}

// TestBlindSpotJoinedLiterals: program text joins string literals into
// one path, awk's by juxtaposition ("/etc/war" "den/x", with or without
// blanks), so a read-only awk program reads warden's state through
// getline or ARGV in pieces no one word shows.
func TestBlindSpotJoinedLiterals(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`awk 'BEGIN{ARGV[1]="/root/.local/state/war" "den/token";ARGC=2}1'`,
		`awk 'BEGIN{while((getline l<("/root/.local/state/war" "den/token"))>0)print l}'`,
		`awk 'BEGIN{while((getline l<("/etc/war" "den/audit.key"))>0)print l}'`,
		`awk 'BEGIN { f = "/etc/" "warden/" "audit.key"; while ((getline l < f) > 0) print l }'`,
		`awk 'BEGIN{ARGV[ARGC++]="/etc/war"  "den/audit.key"} 1'`,
		`gawk 'BEGIN{ARGV[1]="/etc/war""den/audit.key";ARGC=2}{print}'`,
		"mawk 'BEGIN{ARGV[1]=\"/etc/war\"\t\"den/audit.key\";ARGC=2}{print}'",
		`busybox awk 'BEGIN{ARGV[1]="/etc/war" "den/audit.key";ARGC=2}{print}'`,
		`awk "BEGIN{ARGV[1]=\"/etc/war\" \"den/audit.key\";ARGC=2}1"`,
		`awk 'BEGIN{ARGV[1]="/etc/war" "den/config.yaml";ARGC=2}1' /dev/null`,
	))
	runExactHosts(t, p, []exactCase{
		{"joined text", `awk 'BEGIN { print "a" "b" }'`, TierRead},
		{"fields and text", `awk '{ print $1 " " $2 }' /etc/passwd`, TierRead},
		{"a joined path", `awk 'BEGIN { f = "/etc/" "passwd"; while ((getline l < f) > 0) print l }'`, TierRead},
		{"two words", `printf '%s\n' "/etc/war" "den/audit.key"`, TierRead},
	})
}

// TestBlindSpotAwkPartialPaths: an awk literal joined to an operand the
// program computes (ENVIRON["HOME"], a variable, a field) is the rest of
// a path known only in part, as "$HOME/…" and "$d/…" are in shell: the
// home's is the home's path where it is known.
func TestBlindSpotAwkPartialPaths(t *testing.T) {
	p := protectedPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		`awk 'BEGIN{ARGV[1]=ENVIRON["HOME"] "/.local/state/warden/token"; ARGC=2} 1'`,
		`awk 'BEGIN{while((getline l < (ENVIRON["HOME"] "/.local/state/warden/token"))>0) print l}'`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`awk -v h="$HOME" 'BEGIN{ARGV[1]=h "/.local/state/warden/token"; ARGC=2} 1'`,
		`awk 'BEGIN{d=ENVIRON["D"]; ARGV[1]=d "/warden/audit.key"; ARGC=2} 1'`,
		`awk '{ f = $1 "/warden/audit.key"; while ((getline l < f) > 0) print l }'`,
		`gawk '{ ARGV[ARGC++] = substr($0, 2) "/warden/config.yaml" }'`,
	))
	runExactHosts(t, p, []exactCase{
		{"home file", `awk 'BEGIN{ARGV[1]=ENVIRON["HOME"] "/.bashrc"; ARGC=2} 1'`, TierRead},
		{"field and path", `awk '{ print $1 "/x" }' /etc/passwd`, TierRead},
		{"printed path", `awk '{ print "/warden/x" }' /etc/passwd`, TierRead},
		{"home dirs", `awk -F: '{ x = $6 "/.ssh"; print x }' /etc/passwd`, TierRead},
	})
}

// TestBlindSpotEnvSplitString: GNU env -S STRING puts STRING's words in
// place of the option, the words after it follow, and option parsing
// starts again, so what follows -S STRING is the command's (env -S sort
// -o /tmp/o x, env -S dd of=/tmp/o), not env's options and assignments.
// STRING splits env's way: \_ separates words outside quotes, \c ends
// it, # starts a comment.
func TestBlindSpotEnvSplitString(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"env -S sort -o /tmp/o /tmp/f",
		"env -S dd of=/tmp/o",
		"env -S 'git log' --output=/tmp/o",
		`env -S 'dd\_of=/tmp/o'`,
		`env -S 'sort\_-o\_/tmp/o\_/tmp/f'`,
		`env -S"sort\\_-o\\_/tmp/o\\_/tmp/f"`,
		"env -iS sort -o /tmp/o x",
		"env -S '-i sort' -o /tmp/o x",
		"env -S 'X=1' sort -o /tmp/o x",
		"env --split-str sort -o /tmp/o x",
		"env --sp=sort -o /tmp/o x",
		"env -vS 'sort -o /tmp/o' x",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"env -S strace -o'|sh' ls",
		`env -S 'chmod\_u+s\_/bin/sh'`,
		`env -S 'crontab\_/tmp/f'`,
		`env -S 'install\_-m4755' /tmp/x /tmp/y`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`env -S 'init\_1'`,
		`env -S 'telinit\_s'`,
		`env -S 'cat\_/etc/warden/audit.key'`,
		`env -S "systemctl\\_isolate\\_rescue.target"`,
		"env -S cat /etc/warden/audit.key",
	))
	runExactHosts(t, p, []exactCase{
		{"split listing", "env -S 'ls -l' /tmp", TierRead},
		{"split then operands", "env -S ls -l /tmp", TierRead},
		{"a quoted space", `env -S 'cat "/etc/war\_den"'`, TierRead},
		{"the string ends", `env -S 'cat /etc/war\cden/audit.key'`, TierRead},
		{"a comment", `env -S 'ls #-o /tmp/o'`, TierRead},
		{"split only", "env -S sort", TierRead},
	})
}

// TestBlindSpotAr37DescriptorDirsCap: past maxFdDirs directories opened
// on one descriptor, the next are not remembered, and a path through the
// descriptor is still held as a path known only in part: tier 3, never a
// read. Within the cap, the directory it names decides (denied).
func TestBlindSpotAr37DescriptorDirsCap(t *testing.T) {
	p := protectedPolicy(t)
	opens := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "exec 3</srv/d%d; ", i)
		}
		return b.String()
	}
	runBlindHosts(t, p, []blindCase{
		{"within the cap", opens(maxFdDirs-1) + "exec 3</etc; cat /dev/fd/3/warden/audit.key", TierDestructive, true},
		{"past the cap", opens(maxFdDirs) + "exec 3</etc; cat /dev/fd/3/warden/audit.key", TierDestructive, false},
	})
}
