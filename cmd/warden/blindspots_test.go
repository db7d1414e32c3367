package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassifierBlindSpotsEndToEnd drives the real binary through the SDK
// client with commands whose danger their words do not show: arithmetic
// that evaluates a hostile value, shells fed from descriptors and files,
// warden's own paths in other spellings, options that run programs or
// write files, and single-user run levels. In readonly and guarded mode
// none may run: each comes back denied or approval_required, and the
// marker file it would create never appears.
func TestClassifierBlindSpotsEndToEnd(t *testing.T) {
	for _, mode := range []string{"readonly", "guarded"} {
		t.Run(mode, func(t *testing.T) {
			env, state, marker, _ := shimmed(t, mode, "")
			s := startStdio(t, env, state, nil)
			dir := t.TempDir()
			touch := "touch " + marker
			hostile := func(name, content string) string {
				p := filepath.Join(dir, name)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			arith := hostile("arith", "a[$("+touch+")]\n")
			script := hostile("script.sh", touch+"\n")
			// Words a command reads at run time that become options,
			// names or actions once split.
			spaced := strings.ReplaceAll(touch, " ", "${IFS}")
			printfArgs := hostile("printf-args", "-v a[$("+spaced+")] x\n")
			testArgs := hostile("test-args", "-v a[$("+spaced+")]\n")
			waitArgs := hostile("wait-args", "-n -p a[$("+spaced+")]\n")
			trapArgs := hostile("trap-args", spaced+" EXIT\n")
			findArgs := hostile("find-args", "-exec "+touch+" ;\n")
			outArgs := hostile("out-args", "-o "+marker+"\n")
			if err := os.Symlink(state, filepath.Join(dir, "state-link")); err != nil {
				t.Fatal(err)
			}
			// The first call creates the audit log inside the state dir.
			if res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": "true"}); res.IsError && mode != "readonly" {
				t.Fatalf("true: %s", text(res))
			}
			parent, base := filepath.Dir(state), filepath.Base(state)
			tests := []struct {
				name    string
				command string
				deny    bool // denied whatever the mode
			}{
				// Class 1: strings evaluated as arithmetic.
				{"arith (( ))", "bash -c 'x=$(cat " + arith + "); (( x ))'", false},
				{"arith $(( ))", "bash -c 'x=$(cat " + arith + "); echo $(( x ))'", false},
				{"arith [[ -eq ]]", "bash -c 'x=$(cat " + arith + "); [[ $x -eq 1 ]]'", false},
				{"arith let", "bash -c 'read -r x < " + arith + "; let y=x'", false},
				{"arith subscript", "bash -c 'read -r x < " + arith + "; a[$x]=1'", false},
				{"arith declare -i", "bash -c 'declare -i n; read -r n < " + arith + "'", false},
				{"arith literal", "bash -c \"x='a[\\$(" + touch + ")]'; (( x ))\"", false},
				{"arith literal deny", "bash -c \"x='a[\\$(reboot)]'; (( x ))\"", true},
				// Class 2: programs read from descriptors and files.
				{"sh <&3", "exec 3<" + script + "; sh <&3", false},
				{"bash 0<file", "bash 0<" + script, false},
				{"bash /dev/stdin <&4", "bash /dev/stdin 4<" + script + " <&4", false},
				{"source /dev/fd", "exec 5<" + script + "; . /dev/fd/5", false},
				{"process substitution", "bash <(cat " + script + ")", false},
				{"cat pipe sh", "cat " + script + " | sh", false},
				{"exec moves input", "exec 0<" + script, false},
				{"python from descriptor", "python3 - <&3 3<" + script, false},
				// Class 3: warden's own paths in other spellings.
				{"state //", "cat " + state + "//audit.jsonl && " + touch, true},
				{"state /./", "cat " + state + "/./audit.jsonl; " + touch, true},
				{"state ..", "cat " + state + "/../" + base + "/audit.jsonl; " + touch, true},
				{"state glob", "cat " + parent + "/" + base[:1] + "*/audit.js?nl; " + touch, true},
				{"state brackets", "cat " + state + "/[a]udit.jsonl; " + touch, true},
				{"state braces", "cat " + state + "/{x,audit}.jsonl; " + touch, true},
				{"state after cd", "cd " + parent + " && cat " + base + "/audit.jsonl; " + touch, true},
				{"state write", "echo x >> " + state + "/./audit.jsonl; " + touch, true},
				{"state variable", "D=" + state + "; cat $D/audit.jsonl; " + touch, true},
				{"state in sh -c", "sh -c 'ls " + state + "/'; " + touch, true},
				{"state unknown cd", "cd \"$(cat " + script + ")\"; cat *; " + touch, false},
				// Class 4: options that run programs or write files.
				{"git pager", "git -c core.pager='" + touch + "' -p log", false},
				{"man -P", "man -P '" + touch + "' ls", false},
				{"strace -o pipe", "strace -o '|" + touch + "' true", false},
				{"make --eval", "make -f /dev/null --eval='$(shell " + touch + ")'", false},
				{"sed w", "sed -n 'w " + marker + "' /etc/hostname", false},
				{"xxd -ps output", "xxd -ps /etc/hostname " + marker, false},
				{"xxd --ps output", "xxd --ps -c8 /etc/hostname " + marker, false},
				{"pandoc --log", "pandoc /etc/hostname --log=" + marker, false},
				{"prompt expansion", "bash -c 'p=$(cat " + script + "); echo \"${p@P}\"'", false},
				{"compgen -C", "bash -c \"compgen -C 'reboot' x\"", true},
				{"bisect run options", "git bisect run sh -c '" + touch + "'", false},
				{"go list -toolexec", "go list -toolexec='sh -c \"" + touch + "\"' -export std", false},
				{"GOFLAGS", "GOFLAGS=-toolexec=/tmp/x go version", false},
				{"openssl -sess_out", "openssl s_client -sess_out " + marker + " -connect 127.0.0.1:1", false},
				{"state glob in for", "for f in " + parent + "/" + base[:1] + "*/audit.jsonl; do cat \"$f\"; done; " + touch, true},
				{"state glob in variable", "f=" + parent + "/*/audit.jsonl; cat $f; " + touch, true},
				{"awk print pipe", "echo x | awk '{print | \"" + touch + "\"}'", false},
				{"curl -o", "curl -s -o " + marker + " file:///etc/hostname", false},
				{"crontab", "echo '* * * * * " + touch + "' | crontab -", false},
				{"chmod setuid", "cp /bin/true " + dir + "/t && chmod u+s " + dir + "/t && " + touch, false},
				{"sort compress", "sort --compress-program=reboot /etc/hostname", true},
				{"git upload-pack", "git clone -u 'reboot' /tmp/x /tmp/y", true},
				// A descriptor opened on a directory above the state names it.
				{"state through /dev/fd", "exec 3<" + parent + "; cat /dev/fd/3/" + base + "/audit.jsonl; " + touch, true},
				{"state through /dev/stdin", "cat /dev/stdin/" + base + "/audit.jsonl < " + parent + "; " + touch, true},
				// awk joins adjacent literals into one path.
				{"state in joined awk literals", "awk 'BEGIN{ARGV[1]=\"" + parent + "/" + base[:1] + "\" \"" + base[1:] + "/audit.jsonl\";ARGC=2}1'; " + touch, true},
				// env -S: the words after the string are the command's.
				{"env -S then options", "env -S sort -o " + marker + " /etc/hostname", false},
				{"env -S split by \\_", "env -S 'dd\\_of=" + marker + "' < /etc/hostname", false},
				// Words computed at run time that become options.
				{"printf $(cat) -v", "bash -c 'printf $(cat " + printfArgs + ")'", false},
				{"[ $(cat) ] -v", "bash -c '[ $(cat " + testArgs + ") ]'", false},
				{"wait $(cat) -p", "bash -c 'sleep 0 & wait $(cat " + waitArgs + ")'", false},
				{"trap $(cat)", "bash -c 'trap $(cat " + trapArgs + ")'", false},
				{"find $(cat) -exec", "find /etc/hostname $(cat " + findArgs + ")", false},
				{"sort $(cat) -o", "sort $(cat " + outArgs + ") /etc/hostname", false},
				{"curl $(cat) -o", "curl -s $(cat " + outArgs + ") file:///etc/hostname", false},
				{"x=$(cat); sort $x", "x=$(cat " + outArgs + "); sort $x /etc/hostname", false},
				{"kill -0 $x", "bash -c 'sleep 60 & p=$!; x=\"-s KILL $p\"; kill -0 $x; " + touch + "'", false},
				// Builtins that run the command in their arguments.
				{"jobs -x", "bash -c 'jobs -x cp /etc/hostname " + marker + "'", false},
				{"jobs -x deny", "bash -c 'jobs -x reboot'; " + touch, true},
				// Class 5: single-user run levels.
				{"init 1", "init 1; " + touch, true},
				{"telinit s", "telinit s; " + touch, true},
				{"telinit S sudo", "sudo telinit S; " + touch, true},
				{"isolate rescue", "systemctl isolate rescue; " + touch, true},
				{"emergency in sh -c", "sh -c 'systemctl emergency'; " + touch, true},
				// Class 6: the hardware watchdog, which a read arms (the
				// host reboots when it is closed); false && keeps this
				// host's watchdog closed should the classifier miss it.
				{"watchdog glob after cd", "false && cd /dev && head -c1 watch?og; " + touch, true},
				// Appliance commands that a POSIX reading took for reads:
				// an option's value read as the command, RouterOS menus
				// and op-mode clear over ssh.
				{"uci option value", "uci -c show set network.lan.ipaddr=10.0.0.1", false},
				{"ubus option value", `ubus -t list call file exec '{"command":"touch"}'`, false},
				{"opkg long option value", "opkg --add-arch list install tcpdump", false},
				{"routeros menu", "/ip service disable ssh", false},
				{"op-mode clear", "clear ip bgp all", false},
			}
			// A link to the state dir is resolved by the classifier only
			// where the kernel does not hold warden's files; where it
			// does, the read runs and the kernel refuses it.
			t.Run("state symlink", func(t *testing.T) {
				res, got := callTool(t, s.cs, "run_command", map[string]any{"command": "cat " + dir + "/state-link/audit.jsonl"})
				if status, _ := got["status"].(string); status != "denied" && (status != "ok" || got["exit_code"] == float64(0)) {
					t.Errorf("status %q exit %v, want denied or a failed read: %s", status, got["exit_code"], text(res))
				}
				if strings.Contains(text(res), "run_command") {
					t.Errorf("the audit log was read through a link: %s", text(res))
				}
			})
			if mode == "guarded" {
				// The control: a proven integer passes, and its touch
				// leaves the marker the cases above must not.
				res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": "bash -c 'n=1; (( n )) && " + touch + "'"})
				if _, err := os.Stat(marker); res.IsError || err != nil {
					t.Fatalf("control did not run (%v): %s", err, text(res))
				}
				os.Remove(marker)
			}
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					res, got := callTool(t, s.cs, "run_command", map[string]any{"command": tc.command})
					status, _ := got["status"].(string)
					switch {
					case !res.IsError || status != "denied" && status != "approval_required":
						t.Errorf("status %q, want denied or approval_required: %s", status, text(res))
					case tc.deny && status != "denied":
						t.Errorf("status %q, want denied: %s", status, text(res))
					case mode == "readonly" && status != "denied":
						t.Errorf("readonly: status %q, want denied: %s", status, text(res))
					}
					if b, err := os.ReadFile(marker); err == nil {
						os.Remove(marker)
						t.Fatalf("something ran: %q", b)
					}
					if tc.deny && !strings.Contains(text(res), "denied") {
						t.Errorf("reason does not say denied: %s", text(res))
					}
				})
			}
		})
	}
}

// TestUnknownProgramArgumentsEndToEnd: in open mode an unknown program runs
// at once (tier 2). One that runs the command in its arguments — here a
// two-line script the classifier has never heard of — must not carry a
// denied or tier-3 command past the approval it would need alone.
func TestUnknownProgramArgumentsEndToEnd(t *testing.T) {
	env, state, marker, _ := shimmed(t, "open", "")
	s := startStdio(t, env, state, nil)
	progs := programDir(t)
	wrap := filepath.Join(progs, "wrapit")
	if err := os.WriteFile(wrap, []byte("#!/bin/sh\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A wrapper that hands its arguments to a shell as one command line.
	line := filepath.Join(progs, "lineit")
	if err := os.WriteFile(line, []byte("#!/bin/sh\nexec sh -c \"$*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The control: a plain command through either wrapper runs at once.
	for _, w := range []string{wrap + " echo wrapped", line + " 'echo wrapped'"} {
		if res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": w}); res.IsError || !strings.Contains(text(res), "wrapped") {
			t.Fatalf("control %s: %s", w, text(res))
		}
	}
	for _, command := range []string{
		wrap + " reboot",
		wrap + " -- sudo reboot",
		wrap + " -u x rm -rf /",
		wrap + " dd if=/dev/zero of=/dev/sda",
		wrap + " run sh -c 'rm -rf /srv'",
		wrap + " a b c d e f g h i j k l m n o p q r s t u v w x y z poweroff",
		line + " 'reboot now'",
		line + " 'true; sudo reboot'",
		line + ` "(poweroff)"`,
	} {
		t.Run(command, func(t *testing.T) { refusedCleanly(t, s.cs, command, "approval_required", marker, "") })
	}
}

// TestWrittenThenRunEndToEnd: in open mode a call that writes a file and
// runs it by its path in the same breath ran unasked (tier 2, an unknown
// program), whatever the file came to hold; so did one that copies it
// into a directory on the search path and runs it by its name. What it
// writes there, and the files it copies there, meet the deny list; a
// script whose comment names reboot still runs with its output sent to
// a log.
func TestWrittenThenRunEndToEnd(t *testing.T) {
	env, state, marker, shims := shimmed(t, "open", "")
	s := startStdio(t, env, state, nil)
	progs := programDir(t)
	// Written after warden started, as an earlier call would have.
	evil := filepath.Join(progs, "evil")
	if err := os.WriteFile(evil, []byte("#!/bin/sh\nreboot\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(progs, "check.sh")
	if err := os.WriteFile(ok, []byte("#!/bin/sh\n# reboot when the kernel asks for it\necho checked\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{
		"echo reboot > " + progs + "/j1; /bin/chmod +x " + progs + "/j1; " + progs + "/j1",
		"cat > " + progs + "/j2 <<'EOF'\n#!/bin/sh\npoweroff\nEOF\n/bin/chmod 755 " + progs + "/j2 && " + progs + "/j2",
		"cd " + progs + " && printf 'halt\\n' > j3 && /bin/chmod +x j3 && ./j3",
		"/bin/cp " + evil + " " + progs + "/j4; " + progs + "/j4",
		"/bin/cp " + evil + " " + ok + "; " + ok,
		// Copied into a directory on the search path, then run by its
		// name, new or a system program's it comes before.
		"/bin/cp " + evil + " " + shims + "/j5; j5",
		"/bin/ln -s " + evil + " " + shims + "/uptime && uptime",
	} {
		t.Run(command, func(t *testing.T) { refusedCleanly(t, s.cs, command, "denied", marker, "") })
	}
	log := filepath.Join(progs, "out.log")
	if res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": ok + " > " + log + " 2>&1; /bin/cat " + log}); res.IsError || !strings.Contains(text(res), "checked") {
		t.Errorf("a script whose comment names reboot, its output to a log: %s", text(res))
	}
}

// TestUnreadThenRunEndToEnd: in open mode a call that fills a file with
// what the classifier cannot read — a filter's output, an archive's
// member — and runs it in the same breath ran unasked (tier 2), and the
// deny list never saw what it ran. Now it waits for approval; run in a
// call of its own, the file is read first and denied.
func TestUnreadThenRunEndToEnd(t *testing.T) {
	env, state, marker, shims := shimmed(t, "open", "")
	s := startStdio(t, env, state, nil)
	progs := programDir(t)
	member := filepath.Join(progs, "src", "tool")
	if err := os.MkdirAll(filepath.Dir(member), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(member, []byte("#!/bin/sh\nreboot\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(progs, "tools.tgz")
	if out, err := exec.Command("tar", "-czf", archive, "-C", filepath.Dir(member), "tool").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v: %s", err, out)
	}
	if err := os.Remove(member); err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{
		"echo toober | /usr/bin/rev > " + progs + "/u1; /bin/chmod +x " + progs + "/u1; " + progs + "/u1",
		"cd " + progs + " && echo erobbg | /usr/bin/tr a-z n-za-m > u2 && /bin/chmod +x u2 && ./u2",
		"v=re; w=boot; echo $v$w > " + progs + "/u3; /bin/chmod +x " + progs + "/u3; " + progs + "/u3",
		// As root, tar keeping the archive's modes is tier 3 by itself.
		"/bin/tar --no-same-permissions --no-same-owner -xzf " + archive + " -C " + shims + " && tool",
		"cd " + progs + " && /bin/mkdir -p y && cd y && /bin/tar --no-same-permissions --no-same-owner -xzf ../tools.tgz && ./tool",
		"cd " + progs + " && /bin/mkdir -p x && cd x && /bin/gzip -dc ../tools.tgz | /bin/tar --no-same-permissions --no-same-owner -x && ./tool",
	} {
		t.Run(command, func(t *testing.T) { refusedCleanly(t, s.cs, command, "approval_required", marker, "") })
	}
	// Written in one call and run in the next, it is read, and denied.
	if res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": "cd " + progs + " && echo toober | /usr/bin/rev > u4 && /bin/chmod +x u4"}); res.IsError {
		t.Fatalf("writing u4: %s", text(res))
	}
	refusedCleanly(t, s.cs, progs+"/u4", "denied", marker, "")
}
