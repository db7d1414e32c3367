package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestScriptFunctionCalls: a call of a function the script declared at its
// top level before the call is not an unknown program: the body was
// classified where it was declared. The call is still a program (tier 2,
// or the program's own tier) when the shell may not find the function:
// declared later, in a subshell or a branch, with bash's "function"
// keyword (dash reads that as a command), removed by unset or by text
// eval, source or trap run, or run through a wrapper, time included
// (a program to sh), and a function named like a program the classifier
// knows is still that program.
func TestScriptFunctionCalls(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"call", "chk() { df -h; }; chk", TierRead},
		{"call with args", "chk() { systemctl is-active \"$1\"; }; chk nginx", TierRead},
		{"local from $1", "chk() { local svc=$1; journalctl -u \"$svc\" -n 20 --no-pager; }\nchk nginx\nchk sshd", TierRead},
		{"in a pipeline", "chk() { df -h; }; chk | grep sda", TierRead},
		{"in a substitution", "chk() { df -h; }; echo \"$(chk)\"", TierRead},
		{"in a loop", "chk() { systemctl is-active \"$1\"; }\nfor u in a b; do chk \"$u\"; done", TierRead},
		{"from a later function", "chk() { df -h; }; run() { chk; }; run", TierRead},
		{"quoted name", "chk() { df -h; }; \"chk\"", TierRead},
	})
	runBlind(t, p, sameCases(TierMutate, false,
		"chk; chk() { df -h; }",
		"(chk() { df -h; }); chk",
		"if true; then chk() { df -h; }; fi; chk",
		"function chk { df -h; }; chk",
		"function chk() { df -h; }; chk",
		"chk() { df -h; }; unset -f chk; chk",
		"chk() { df -h; }; unset chk; chk",
		"chk() { df -h; }; builtin unset -f chk; chk",
		"chk() { df -h; }; eval \"un\"\"set -f chk\"; chk",
		"chk() { df -h; }; trap 'unset -f chk' RETURN; chk",
		"chk() { df -h; }; . /dev/null; chk",
		"chk() { df -h; }; sudo chk",
		"chk() { df -h; }; xargs chk",
		"chk() { df -h; }; env chk",
		"chk() { df -h; }; command chk",
		"chk() { df -h; }; time chk",
		"chk() { df -h; }; bash -c chk",
		"chk() { df -h; }; nohup chk",
		"run() { chk; }; chk() { df -h; }; run",
		"/usr/local/bin/chk() { df -h; }; /usr/local/bin/chk",
		"chk() { df -h; }; chk > /etc/x",
	))
	runBlind(t, p, []blindCase{
		{"body counts", "chk() { rm -rf /srv/data; }; chk", TierDestructive, false},
		{"named like a program", "rm() { echo; }; rm -rf /", TierDestructive, true},
		{"body runs its args", "chk() { \"$@\"; }; chk reboot", TierDestructive, true},
	})
}

// TestKillOwnJob: kill of $! after a top-level statement of the same
// script started a background job signals that child of this shell (cmd &
// sleep 2; kill $!), with any one signal; $! before any such statement,
// a job started in a subshell, a later -N (a process group) or another
// pid keep kill's tier or its denial.
func TestKillOwnJob(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"kill $!", "tail -n 50 -f /var/log/nginx/error.log & sleep 2; kill $!", TierRead},
		{"quoted", `ip monitor link & sleep 1; kill "$!"`, TierRead},
		{"-INT", "docker compose logs -f --tail 0 & sleep 2; kill -INT $!", TierRead},
		{"-9", "journalctl -f & sleep 3; kill -9 $!", TierRead},
		{"-s TERM", "journalctl -f & sleep 3; kill -s TERM $!", TierRead},
		{"script", "tcpdump -i eth0 -c 50 -nn port 53 &\nsleep 5\nkill $! 2>/dev/null", TierRead},
	})
	runBlind(t, p, []blindCase{
		{"no job", "kill $!", TierMutate, false},
		{"job after", "kill $!; journalctl -f &", TierMutate, false},
		{"-- only", "kill -- $!", TierMutate, false},
		{"job in a subshell", "(journalctl -f &); kill $!", TierMutate, false},
		{"variable", "tcpdump -i eth0 & pid=$!; sleep 5; kill $pid", TierMutate, false},
		{"and a process group", "journalctl -f & sleep 3; kill -9 -1 $!", TierDestructive, true},
		{"and pid 1", "journalctl -f & sleep 3; kill -9 $! 1", TierDestructive, true},
		{"and another pid", "journalctl -f & sleep 3; kill $! 1234", TierMutate, false},
	})
}

// TestBlindSpotLoopsThatFork: a loop that may run without bound and
// starts a background job on each pass, itself or through a function of
// the script, fills the process table as a fork bomb does: tier 3. A few
// literal items, and loops that wait for each pass, stay as they were.
func TestBlindSpotLoopsThatFork(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"while true; do sleep 1 & done",
		"until false; do sleep 9 & done",
		"while :; do yes >/dev/null & done",
		"for i in $(seq 1 100000); do sleep 1000 & done",
		"for ((;;)); do sleep 1 & done",
		"for i in {1..100000}; do sleep 1 & done",
		"for f in /var/log/*; do cat \"$f\" & done",
		"while read -r h; do ping -c1 \"$h\" & done < /tmp/hosts",
		"while true; do coproc sleep 1; done",
		"while true; do ( sleep 1 & ); done",
		"while true; do sleep 1 & disown; done",
		"f() { sleep 1 & }; while true; do f; done",
		"for x; do sleep 1 & done",
	))
	runExact(t, p, []exactCase{
		{"a few hosts at once", "for h in web1 web2 db1; do ping -c1 $h & done; wait", TierRead},
		{"a waiting loop", "while true; do uptime; sleep 5; done", TierRead},
		{"unused function", "while true; do f() { sleep 1 & }; done", TierRead},
		{"function without jobs", "g() { sleep 1; }; while true; do g; done", TierRead},
	})
	// The bound: as many literal words as maxLoopForks, and one more.
	words := strings.Repeat("h ", maxLoopForks)
	runExact(t, p, []exactCase{{"at the bound", "for x in " + words + "; do ping -c1 $x & done; wait", TierRead}})
	runBlind(t, p, sameCases(TierDestructive, false, "for x in "+words+"h; do ping -c1 $x & done; wait"))
}

// TestBlindSpotUnboundedJobs: xargs -P and parallel -j with 0 (as many
// at once as the input holds) or more than 64 jobs fill the process table
// as a forking loop does.
func TestBlindSpotUnboundedJobs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"seq 100000 | xargs -P0 -n1 sleep",
		"seq 100000 | xargs -P 0 -I{} sleep 100",
		"seq 100000 | xargs --max-procs=0 -n1 sleep",
		"seq 100000 | xargs --max-p 0 -n1 sleep",
		"seq 100000 | xargs -n1 -P1000 sleep",
		"seq 100000 | parallel -j0 sleep",
		"seq 100000 | parallel --jobs 0 sleep",
		"seq 100000 | parallel --jobs=500 sleep",
		"seq 100000 | parallel -P0 sleep",
	))
	runExact(t, p, []exactCase{
		{"xargs a few", "find /var/log | xargs -P4 -n1 stat", TierRead},
		{"parallel a few", "seq 100 | parallel -j4 echo", TierRead},
		{"parallel per processor", "seq 100 | parallel -j100% echo", TierRead},
		{"xargs at the bound", fmt.Sprintf("seq 100 | xargs -P%d -n1 echo", maxLoopForks), TierRead},
	})
	runBlind(t, p, sameCases(TierDestructive, false, fmt.Sprintf("seq 100 | xargs -P%d -n1 echo", maxLoopForks+1),
		"seq 100 | parallel -j 99999999999999999999 echo"))
}

// TestFunctionKeywordByShell: "function NAME { …; }" declares a function
// in text a shell of funcWordShells runs — a bash, zsh or ksh run_script
// body, bash -c, a program piped into bash, a command on a host whose
// shell is bash — so a call of it is the function, as with NAME() { …; }.
// Text sh or dash runs (run_command's /bin/sh, sh -c, a shell the
// classifier cannot name) reads it as a command named function, and the
// call stays an unknown program, as do the other cases TestScript-
// FunctionCalls lists.
func TestFunctionKeywordByShell(t *testing.T) {
	p := testPolicy(t)
	const decl = "function chk { df -h; }; chk"
	big := "function chk() { df -h; }\n" + strings.Repeat("echo x\n", pieceMin/7+1) + "chk\n"
	for _, c := range []struct {
		name string
		in   Input
		tier Tier
	}{
		{"bash script", Input{Interpreter: "bash", Script: decl}, TierRead},
		{"bash script, parentheses", Input{Interpreter: "bash", Script: "function chk() { df -h; }\nchk nginx"}, TierRead},
		{"zsh script", Input{Interpreter: "zsh", Script: decl}, TierRead},
		{"ksh script", Input{Interpreter: "ksh", Script: decl}, TierRead},
		{"mksh script", Input{Interpreter: "mksh", Script: decl}, TierRead},
		{"bash -c", Input{Command: "bash -c '" + decl + "'"}, TierRead},
		{"piped into bash", Input{Command: "echo '" + decl + "' | bash"}, TierRead},
		{"host shell bash", Input{Command: decl, HostShell: "/bin/bash"}, TierRead},
		{"large bash script in pieces", Input{Interpreter: "bash", Script: big}, TierRead},
		{"run_command", Input{Command: decl}, TierMutate},
		{"host shell sh", Input{Command: decl, HostShell: "/bin/sh"}, TierMutate},
		{"sh script", Input{Interpreter: "sh", Script: decl}, TierMutate},
		{"dash script", Input{Interpreter: "dash", Script: decl}, TierMutate},
		{"large sh script in pieces", Input{Interpreter: "sh", Script: big}, TierMutate},
		{"sh -c in bash", Input{Interpreter: "bash", Script: "sh -c '" + decl + "'"}, TierMutate},
		{"dash -c in bash -c", Input{Command: `bash -c "dash -c '` + decl + `'"`}, TierMutate},
		{"called from sh", Input{Interpreter: "bash", Script: "function chk { df -h; }; sh -c chk"}, TierMutate},
		{"called through watch", Input{Interpreter: "bash", Script: "function chk { df -h; }; watch -n1 chk"}, TierMutate},
		{"called before", Input{Interpreter: "bash", Script: "chk; function chk { df -h; }"}, TierMutate},
		{"unset", Input{Interpreter: "bash", Script: "function chk { df -h; }; unset -f chk; chk"}, TierMutate},
		{"eval", Input{Interpreter: "bash", Script: "function chk { df -h; }; eval chk"}, TierMutate},
		{"remote login shell", Input{Command: "ssh db1 '" + decl + "'"}, TierMutate},
		{"body counts", Input{Interpreter: "bash", Script: "function chk { rm -rf /srv/data; }; chk"}, TierDestructive},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := p.Evaluate(c.in)
			if c.tier == TierRead && (got.Tier != TierRead || got.Denied) || c.tier > TierRead && got.Tier < c.tier {
				t.Errorf("Evaluate(%+v) = %s denied=%v (%s); want %s", c.in, got.Tier, got.Denied, got.Reason, c.tier)
			}
		})
	}
}
