package sessions

import (
	"strings"
	"testing"
)

// A name an earlier send gave a new meaning makes a later send that
// mentions it unseen: policy classifies "ls" as a read, but the shell runs
// the alias or function.
func TestRenamedNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		define []string // sends, each run (approved) in turn
		use    string
	}{
		{[]string{"alias ls='touch /etc/x'"}, "ls"},
		{[]string{"alias ll='ls -l' cat='touch /etc/x'"}, "cat /etc/hostname"},
		{[]string{`builtin alias "grep=touch /etc/x"`}, "grep root /etc/passwd"},
		{[]string{`command alias l\s=reboot`}, "ls -la"},
		{[]string{"command -p alias ls='touch /etc/x'"}, "ls"},
		{[]string{"builtin -- alias ls='touch /etc/x'"}, "ls"},
		{[]string{`eval 'alias w="touch /etc/x"'`}, "w"},
		{[]string{"alias @='touch /etc/x'"}, "echo hi; @"},
		{[]string{"ls() { touch /etc/x; }"}, "ls"},
		{[]string{"function cat { touch /etc/x; }"}, "cat /etc/hostname"},
		{[]string{"id ( ) { touch /etc/x; }"}, "command id"},
		{[]string{"function pwd() { touch /etc/x; }"}, "cd /tmp && pwd"},
		{[]string{"hash -p /tmp/evil uptime"}, "uptime"},
		{[]string{"hash -p/tmp/evil uptime"}, "uptime"},
		{[]string{"enable -n echo"}, "echo hi"},
		{[]string{"enable -f /tmp/x.so ls"}, "ls"},
		{[]string{"echo 'a…", "b'; alias q='touch /etc/x'"}, "q"},
		{[]string{"f() {", "touch /etc/x", "}"}, "f"},
		{[]string{"alias df='touch /etc/x'\nls"}, "df -h"},
		{[]string{"alias ls='touch /etc/x'", "pwd"}, "ls"},
		{[]string{"ls() { touch /etc/x; }"}, `l\s -l`},
		{[]string{"ls() { touch /etc/x; }"}, "'ls'"},
		{[]string{"ls() { touch /etc/x; }"}, `l""s`},
		{[]string{"ls() { touch /etc/x; }"}, "{ls,} -l"},
		{[]string{"function @ { touch /etc/x; }"}, `\@`},
		// An integer variable's later assignments are arithmetic, and a
		// nameref's value is a name whose subscript is evaluated.
		{[]string{"declare -i n"}, "n=$(cat /tmp/f)"},
		{[]string{"typeset -i n=0"}, "read n < /tmp/f"},
		{[]string{"declare -ri n=1 m"}, "m=$1"},
		{[]string{"local -i n"}, "n+=$(cat /tmp/f)"},
		{[]string{"declare -n r"}, "r=$(cat /tmp/f)"},
		{[]string{"declare -in n"}, "printf -v n %s \"$x\""},
		{[]string{"command declare -i n"}, "n=$x"},
		{[]string{"builtin typeset -i n"}, "n=$x"},
		{[]string{"x=1 declare -i n"}, "n=$x"},
		{[]string{"declare -i 'n'"}, "n=$x"},
		{[]string{"declare -i a[3]"}, "a=$x"},
	}
	for _, tt := range tests {
		_, last := typeAll(tty, append(tt.define, tt.use)...)
		if last.unseen == "" || !strings.Contains(last.unseen, "new meaning") {
			t.Errorf("%q then %q: unseen %q, text %q", tt.define, tt.use, last.unseen, last.text)
		}
		_, last = typeAll(pipes, append(tt.define, tt.use)...)
		if last.unseen == "" {
			t.Errorf("pipes: %q then %q is seen", tt.define, tt.use)
		}
	}
	// Other names, and listing or using without defining, stay seen.
	for _, sends := range [][]string{
		{"alias ll='ls -l'", "pwd"},
		{"alias", "alias -p", "hash", "hash -r", "hash ls", "enable", "enable -a", "trap", "trap -p", "trap -l", "ls"},
		{"f() { ls; }", "cat /etc/hostname"},
		{"git log --format='%h (%s)'", "ls"},
		{"echo 'alias ls=x'", "pwd"},
		{"echo $((1+2)); (cd /tmp && ls)", "ls"},
		{"declare -i n", "ls"},
		{"declare -a n; declare -x m=1; declare -r k=2; export -n j", "n=$x; m=$x; j=$x"},
		{"declare +i n", "n=$x"},
	} {
		if _, last := typeAll(tty, sends...); last.unseen != "" {
			t.Errorf("%q: %s", sends, last.unseen)
		}
	}
}

// Hooks that run on later events, and definitions whose names are
// computed, end the model for good.
func TestShellHooksEndTheModel(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"trap 'touch /etc/x' DEBUG",
		"trap '' INT",
		"trap -- 'touch /etc/x' EXIT",
		`builtin trap "rm -rf /tmp/y" RETURN`,
		"eval \"trap 'touch /etc/x' ERR\"",
		"command_not_found_handle() { touch /etc/x; }",
		"function command_not_found_handle { touch /etc/x; }",
		`alias "$n=touch /etc/x"`,
		"alias $(echo ls)='touch /etc/x'",
		"hash -p /tmp/evil $n",
		"command -p . /tmp/rc",
		"command -p source /tmp/rc",
		"enable -n $n",
		`declare -i "$n"`,
		"declare $opt n",
		"command typeset -n $n",
	} {
		_, last := typeAll(tty, s)
		if last.unseen == "" || last.next.rekeyed == "" {
			t.Errorf("%q: unseen %q, rekeyed %q", s, last.unseen, last.next.rekeyed)
			continue
		}
		if got := last.next.feed("ls\r", tty); got.unseen == "" {
			t.Errorf("%q: a later ls is seen", s)
		}
	}
}

// A word computed at run time where a key-changing program, option or
// variable would stand may be it.
func TestComputedKeyChanges(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"c=stty; $c kill '#'",
		`"$(echo stty)" kill q`,
		"$(printf st)ty erase q",
		"`echo bind` -x '\"l\": touch /etc/x'",
		"${S:-stty} kill q",
		"sudo $cmd kill q",
		"timeout 5 $cmd kill q",
		"env $c kill q",
		"exec $sh",
		"set -o $o",
		`shopt -so "$o"`,
		"set $x",
		"set -eu -o $o",
		"eval \"$x\"",
		"eval $(cat /tmp/f)",
		"builtin eval \"$x\"",
		"tput $cap",
		`printf -v "$n" %s '$(touch /etc/x)'`,
		`printf -v"$n" %s x`,
		`read "$n" <<< '$(touch /etc/x)'`,
		`read -r -a "$n"`,
		`mapfile -t $n < /tmp/f`,
		`declare "$n=\$(touch /etc/x)"`,
		`export "$n"`,
		`local -n r=$n`,
		`declare -n r="$n"`,
		`unset "$n"`,
		`command export "$n=x"`,
		`env -u "$n" git log`,
	} {
		_, last := typeAll(tty, s)
		if last.unseen == "" || last.next.rekeyed == "" {
			t.Errorf("%q: unseen %q, rekeyed %q", s, last.unseen, last.next.rekeyed)
		}
	}
	for _, s := range []string{
		`read -p "$prompt" answer`, `read -r -t "$t" line`, "echo $HOME; ls $HOME", `ls -l "$dir"`,
		"sudo -u $user ls", "nice -n $n ls", "env FOO=$x ls", "set -- $x", `for f in *; do echo "$f"; done`,
		"x=$(date); echo $x", `printf '%s\n' "$x"`, `cd "$OLDPWD"`,
		`grep "$pat" /etc/hostname`, "export FOO=$x", `declare -a a=("$x")`, `local v="$1"`,
	} {
		if _, last := typeAll(tty, s); last.unseen != "" {
			t.Errorf("%q: %s", s, last.unseen)
		}
	}
}

// A signal other than INT (and WINCH, CONT) may stop or kill a program
// before it restores the terminal's modes; dash then reads keys unedited,
// so the line model no longer holds.
func TestStoppedSession(t *testing.T) {
	t.Parallel()
	for _, sig := range []string{"KILL", "TERM", "TSTP", "QUIT", "HUP", "USR1"} {
		st := typing{}.stopped(sig)
		if st.rekeyed == "" {
			t.Fatalf("%s: not rekeyed", sig)
		}
		if got := st.feed("touch /etc/x\x15ls\r", tty); got.unseen == "" || !strings.Contains(got.unseen, sig) {
			t.Errorf("%s: unseen %q", sig, got.unseen)
		}
	}
	// The typed twin: timeout with another signal.
	for _, s := range []string{"timeout -s HUP 1 less /etc/passwd", "timeout -s 9 2 less /etc/hostname",
		"timeout --signal=KILL 1 top", "timeout -k 1 2 less /etc/hostname", "sudo timeout -sQUIT 1 less /etc/passwd"} {
		if _, last := typeAll(tty, s); last.unseen == "" || last.next.rekeyed == "" {
			t.Errorf("%q: unseen %q", s, last.unseen)
		}
	}
	for _, s := range []string{"timeout 1 ls /etc/passwd", "timeout -s INT 5 ping -c 1 db1", "timeout --signal=TERM 5 ls"} {
		if _, last := typeAll(tty, s); last.unseen != "" {
			t.Errorf("%q: %s", s, last.unseen)
		}
	}
	before := typing{rekeyed: "earlier"}
	if got := before.stopped("KILL"); got.rekeyed != "earlier" {
		t.Errorf("the first reason is replaced: %q", got.rekeyed)
	}
}

// A program that reads the lines typed next in its own language (SQL, an
// editor's or interpreter's commands) ends the model: "w /etc/x" is ed's
// write, not the shell's w.
func TestLanguageReaders(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"mysql -u root -p shop", "sudo -u postgres psql", "sqlite3 /tmp/db", "ed", "ex /etc/hostname",
		"vi /tmp/x", "python3", "python3 -i /tmp/s.py", "perl -de0", "php -a", "irb", "node", "gdb ./a.out",
		"top", "redis-cli", "ftp db1", "env TERM=dumb ed -s /tmp/f", "ls && sqlite3", "timeout 60 python3 -q",
		"vi /tmp/f < /dev/null", "git log | vim -", "cat /etc/hostname | more", "more /etc/hostname", "git log --oneline | less",
		"nano /tmp/f <<< x", "ls | (cat; vim -)", "bash -c vi", "su -c python3", "flock /tmp/l vi",
		"strace -f -o /tmp/t python3", "systemd-run --pty --user ed", "find . | xargs -o vi",
		// Full-screen monitors read keys with the terminal's editing off.
		"watch date", "timeout 2 watch -n1 ls", "mtr 127.0.0.1", "iftop", "nload", "sudo nethogs",
	} {
		_, last := typeAll(tty, s)
		if last.unseen == "" || last.next.rekeyed == "" {
			t.Errorf("%q: unseen %q, rekeyed %q", s, last.unseen, last.next.rekeyed)
		}
	}
	for _, s := range []string{
		"python3 -c 'print(1)'", "python3 /tmp/s.py", "mysql -e 'select 1'", "psql -c 'select 1'",
		"sqlite3 /tmp/db 'select 1'", "mysql < /tmp/dump.sql", "echo 'select 1' | mysql", "top -bn1 | head",
		"gdb -batch -ex bt ./a.out", "perl -ne 'print' /etc/hostname", "echo vi ed python3", "redis-cli get x",
		"ed -s /tmp/f <<'EOF'\n,p\nEOF", "python3 --version",
		"echo 'print(1)' | python3", "sqlite3 /tmp/db < /tmp/q.sql", "git log | head",
		"man vim", "which python3", "type vi", "apt-cache show vim", "grep -c vi /etc/passwd", "bash -c ls",
		"mtr -r 127.0.0.1", "mtr --json db1", "iftop -t", "echo watch",
	} {
		if _, last := typeAll(tty, s); last.unseen != "" {
			t.Errorf("%q: %s", s, last.unseen)
		}
	}
}

// A program that hands the lines typed next to a shell elsewhere, a
// network service or an editor ends the model too.
func TestElsewhereReaders(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"ssh db1", "ssh -p 2222 -i ~/.ssh/k admin@db1", "ssh -t db1 top", "ssh db1 sh", "ssh db1 python3",
		"mosh db1", "nc redis 6379", "socat - TCP:redis:6379", "ncat db1 3306",
		"docker exec -it web bash", "sudo docker exec -it web sh", "podman run --interactive alpine",
		"kubectl exec -ti pod -- sh", "kubectl debug node/n1 -it --image=busybox", "lxc exec c1 -- bash",
		"machinectl shell", "nsenter -t 1 -a", "virsh console vm1",
		"fc", "fc -e vi 10", "crontab -e", "systemctl edit nginx", "git commit", "git commit --amend",
		"git rebase -i HEAD~3", "git add -p", "git tag -a v1", "visudo", "sudoedit /etc/hosts",
		"kubectl edit deploy/web", "virsh edit vm1", "crontab", "crontab -", "git revert HEAD",
		"git config --edit", "git checkout -p", "git stash -p", "git clean -i",
	} {
		_, last := typeAll(tty, s)
		if last.unseen == "" || last.next.rekeyed == "" {
			t.Errorf("%q: unseen %q, rekeyed %q", s, last.unseen, last.next.rekeyed)
		}
	}
	for _, s := range []string{
		"ssh db1 uptime", "ssh db1 'cat /etc/hostname'", "ssh -o BatchMode=yes db1 df -h", "nc -z db1 22",
		"nc -zv db1 22", "docker exec web ls", "docker ps", "kubectl get pods", "kubectl logs -f pod",
		"fc -l", "fc -s", "crontab -l", "systemctl status nginx", "git commit -m 'x'", "git commit -am fix",
		"git commit --no-edit --amend", "git log", "git status", "git tag -l", "git merge --no-edit main",
		"echo ssh db1", "ssh db1 < /tmp/cmds", "crontab /tmp/cron", "git revert --no-edit HEAD",
		"git config --get user.name", "git checkout main", "kubectl get deploy",
	} {
		if _, last := typeAll(tty, s); last.unseen != "" {
			t.Errorf("%q: %s", s, last.unseen)
		}
	}
}

// A variable set in a session stays set for every later line: one that
// changes which code programs load or names a file they write ends the
// model, and so does set -k; one set for a single command does not.
func TestPersistentVariables(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"export PATH=/tmp/b:$PATH", "PATH=/tmp/b:$PATH", "export GIT_INDEX_FILE=/etc/x",
		"declare -x LD_PRELOAD=/tmp/x.so", "typeset -gx PYTHONSTARTUP=/tmp/s.py", "read -r PYTHONPATH <<< /tmp",
		"printf -v EDITOR %s vi", "BASH_CMDS[ls]=/usr/bin/touch", "BASH_ALIASES[ls]='touch /etc/x'", "IFS=:",
		"builtin export BASH_ENV=/tmp/e", "x=1; export LD_AUDIT=/tmp/a.so", "mapfile -t PAGER < /tmp/p",
		"set -k", "set -euk", "set -o keyword", "readonly HOME=/tmp/h", "export -f ls", "declare -fx ls",
		"typeset -x -f ls", "builtin export -f ls", "command declare -xf ls",
		"shopt -s nocaseglob", "shopt -qs nocaseglob", "shopt -s nullglob nocaseglob", "builtin shopt -s nocaseglob",
		"shopt -s cdable_vars", "shopt -s cdspell", "shopt -s autocd", "setopt nocaseglob", "unsetopt CASE_GLOB",
		"setopt NO_CASE_GLOB",
	} {
		_, last := typeAll(tty, s)
		if last.unseen == "" || last.next.rekeyed == "" {
			t.Errorf("%q: unseen %q, rekeyed %q", s, last.unseen, last.next.rekeyed)
		}
	}
	for _, s := range []string{
		"export TERM=xterm LANG=C.UTF-8", "x=1; y=2", "read -r answer", "export FOO", "set -eu",
		"set -o pipefail", "declare -a arr=(1 2)", "cd /tmp; OLDPWD=/x", "env PATH=/tmp/b ls",
		"printf '%s\\n' PATH", "echo $PATH", "read -p 'PATH? ' answer",
		"shopt -s nullglob", "shopt -u nocaseglob", "shopt -q nocaseglob", "shopt nocaseglob",
	} {
		if _, last := typeAll(tty, s); last.unseen != "" {
			t.Errorf("%q: %s", s, last.unseen)
		}
	}
}

// A session whose own program reads its lines in another language gets
// none of its sends as shell.
func TestStartedReaders(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"mysql -h db1", "python3", "vi /tmp/f", "ssh db1", "sqlite3 /tmp/db", "export PATH=/tmp/b:$PATH; exec bash"} {
		if why := startRekeys(&StartArgs{Command: c}, "/bin/sh"); why == "" {
			t.Errorf("%q: the session is followed", c)
		}
	}
	for _, c := range []string{"", "bash --norc", "sh", "dash", "ls -l"} {
		if why := startRekeys(&StartArgs{Command: c}, "/bin/bash"); why != "" {
			t.Errorf("%q: %s", c, why)
		}
	}
}
