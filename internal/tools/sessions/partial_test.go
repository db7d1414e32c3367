package sessions

import (
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func TestSplits(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"read -n 4 x", "read -rn1 x", "read -N 2", "read -d x y", "IFS= read -rsn1 k", "read -r -n 3",
		"dd bs=1 count=4", "dd of=/tmp/x bs=1 count=3", "dd if=/dev/tty bs=1 count=2", "dd count=1 bs=4 if=-",
		"/bin/d? bs=1 count=4", "he?d -c 2", "head -c 4", "head --bytes=4", "head -c4", "head -c 4 -", "busybox head -c 2",
		"sh -c 'read -n 2 x'", "bash -c 'head -c 3'", "ls; read -n 1 k; ls", "echo x | cat; dd bs=1 count=1",
	} {
		if splits(s) == "" {
			t.Errorf("%q: not seen to read part of a line", s)
		}
	}
	for _, s := range []string{
		"read x", "read -r line", "read -p 'name? ' x", "head -n 5 /etc/hosts", "head -c 100 /var/log/syslog",
		"head -c 4 -- /etc/hosts", "dd if=/dev/sda of=/tmp/x bs=1M count=1", "cat f | head -c 4",
		"head -c 4 < /etc/hosts", "read -n 1 x < /tmp/f", "echo ready", "ls -la /var/log | grep x",
		"journalctl -u nginx", "git status", "head /etc/hosts",
	} {
		if why := splits(s); why != "" {
			t.Errorf("%q: %s", s, why)
		}
	}
}

// After a program that reads part of a line the shell may get the rest of
// the next line: that line is unseen until Ctrl-C ends the program.
func TestSplitLine(t *testing.T) {
	t.Parallel()
	if _, last := typeAll(tty, "read -n 4 x\rls #touch /etc/x"); last.unseen == "" {
		t.Error("a line typed after read -n in the same send is seen")
	}
	_, last := typeAll(tty, "read -n 4 x")
	if last.unseen != "" || last.next.adrift == "" {
		t.Fatalf("read -n alone: unseen %q, adrift %q", last.unseen, last.next.adrift)
	}
	if got := last.next.feed("ls #touch /etc/x\r", tty); got.unseen == "" {
		t.Error("the line after read -n is seen")
	}
	got := last.next.feed("\x03", tty)
	if got.unseen != "" {
		t.Fatalf("ctrl-c: %s", got.unseen)
	}
	if after := got.next.feed("\rls\r", tty); after.unseen != "" {
		t.Errorf("after ctrl-c: %s", after.unseen)
	}
	if _, last := typeAll(tty, "head -n 3 /etc/hosts", "ls"); last.unseen != "" {
		t.Errorf("head -n: %s", last.unseen)
	}
}

// Strings run as shell inside strings are read rekeyDepth deep; deeper, a
// mention of a reader or a key-changing program still counts, so nesting
// cannot hide one.
func TestNestedPastDepth(t *testing.T) {
	t.Parallel()
	nest := func(cmd string, n int) string {
		for range n {
			q, err := syntax.Quote(cmd, syntax.LangBash)
			if err != nil {
				t.Fatal(err)
			}
			cmd = "sh -c " + q
		}
		return cmd
	}
	for _, n := range []int{1, rekeyDepth, rekeyDepth + 1, rekeyDepth + 4} {
		if s := nest("read -n 4 x", n); splits(s) == "" {
			t.Errorf("read -n nested %d deep: not seen: %s", n, s)
		}
		if s := nest("stty kill q", n); rekeys(s) == "" {
			t.Errorf("stty nested %d deep: not seen: %s", n, s)
		}
		if s := nest("ls -la", n); splits(s) != "" || rekeys(s) != "" {
			t.Errorf("ls nested %d deep: %q %q", n, splits(s), rekeys(s))
		}
	}
}

// TestReadsTerminal: programs that read whole lines of the terminal, in a
// command's place, and the same programs reading a file, a pipe or a
// redirection, which take nothing typed.
func TestReadsTerminal(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"read x", "read -r line", "read -p 'name? ' x", "mapfile -t a", "head -n 1", "head -1", "head", "tail -f",
		"cat", "cat -", "sed q", "sed -n 1p", "awk 'NR==1{exit}'", "grep -m1 .", "grep -A 3 x", "jq .", "tee", "tee /tmp/x",
		"xargs echo", "sort", "wc -l", "timeout 3 cat", "sudo cat", "env LC_ALL=C sort", "nice -n 5 head -n 2",
		"ls; head -n 1", "true && read x", "sh -c 'read x'", "/usr/bin/c?t",
		// Readers that stop at the first line they cannot use, and readers
		// of a file that is the terminal.
		"numfmt", "file -", "cmp /etc/hostname", "diff - /etc/hosts", "comm - /etc/hosts", "zcat -f", "gzip -dc",
		"sha224sum", "cksum", "yq .", "xmllint -", "head -n 1 < /dev/tty", "cat 0</dev/stdin", "wc -l /dev/stdin",
		"openssl base64 -in /dev/stdin", "sed q /proc/self/fd/0",
		// bash's select reads its reply as read does.
		"select x in a b; do break; done", "if true; then select x in a; do :; done; fi",
	} {
		if readsTerminal(s+"\n") == "" {
			t.Errorf("%q: not seen to read lines of the terminal", s)
		}
	}
	for _, s := range []string{
		"cat /etc/hosts", "head -n 5 /etc/hosts", "sed -n 1p /etc/hosts", "grep x /etc/hosts", "jq . f.json",
		"ls | head -n 1", "echo x | cat", "head -n 1 < /etc/hosts", "cat <<EOF\nx\nEOF", "read x <<< y",
		"xargs -a /tmp/list echo", "echo hello cat", "git status", "ls -la", "cat <<EOF",
		"diff a b", "cmp a b", "file /etc/hosts", "zcat f.gz", "echo /dev/tty", "ls -l /dev/stdin",
		"tty", "head -n 1 < /etc/hostname", "for x in a b; do echo $x; done", "echo select",
	} {
		if why := readsTerminal(s + "\n"); why != "" {
			t.Errorf("%q: %s", s, why)
		}
	}
}

// TestSubstitutionsReadTheShellsInput: a command whose input is
// redirected expands its words first, with the shell's input: the
// command substitution in head -n 1 <<< "$(head -n 1)" reads the
// terminal. So does awk's getline, whatever file awk is given.
func TestSubstitutionsReadTheShellsInput(t *testing.T) {
	t.Parallel()
	leavesNextLinesUnseen(t, []string{
		`head -n1 <<< "$(head -n1)"`, `cat <<< $(read x; echo $x)`, "cat < /etc/hosts $(head -n 1)", "wc -l < /etc/hosts `sed q`",
		"cat <<EOF\n$(head -n 1)\nEOF", "grep x < /etc/hosts <(head -n 1)", "sort < /etc/hosts > $(head -n1)",
		"cat < /etc/hosts $(dd bs=1 count=3 2>/dev/null)", `tr a b < /etc/hosts "$(read -n 2 x; echo)"`,
		"cat < /etc/hosts $(python3)", "cat < /etc/hosts $(mysql)", "wc < /etc/hosts $(bc)",
		"awk 'BEGIN{getline l < \"/dev/tty\"}' /etc/hosts", "awk 'BEGIN{getline l < \"-\"}' /etc/hosts",
		"awk '{getline l < \"/dev/stdin\"; exit}' /etc/hosts", "gawk 'BEGIN { getline x < f }' f=- /etc/hosts",
		"busybox awk 'BEGIN{getline}' /etc/hosts", "mawk -f /dev/null -v x=1 'NR==1{getline y<\"-\"}' /etc/hosts",
	})
	for _, c := range []string{
		"cat < /etc/hosts", `head -n1 <<< "$(date)"`, "cat <<EOF\n$(hostname)\nEOF", "wc -l < /etc/hosts $(ls /etc/hostname)",
		"awk '{print $1}' /etc/hosts", "awk -F: '{print $1}' /etc/passwd", "echo x | cat <(echo y)",
	} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// TestSubstitutionInATerminal: in a real terminal, the substitution's
// head takes "echo \"; no unapproved send may make the marker.
func TestSubstitutionInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{"cat < /etc/hostname $(head -n 1)", "awk 'BEGIN{getline l < \"-\"}' /etc/hostname"} {
		t.Run(opener, func(t *testing.T) { openerLeavesNoWrite(t, opener, 12) })
	}
}
