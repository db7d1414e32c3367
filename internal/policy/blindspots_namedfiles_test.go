package policy

import (
	"strings"
	"testing"
	"time"
)

// TestBlindSpotNamedFiles: a call that runs text the classifier cannot
// see, and names a script an earlier call wrote, is denied for what the
// script runs, whichever way its text travels (a descriptor, a command
// substitution, a filter, a program's own reading).
func TestBlindSpotNamedFiles(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	P := f.write(t, "plain", []byte("echo start\nreboot\n"))
	f.write(t, "my job", []byte("systemctl poweroff\n"))
	f.write(t, "job.py", []byte("import os\nos.system('reboot')\n"))
	f.write(t, "computed", []byte("x=reb; ${x}oot\n"))
	for _, c := range []string{
		// descriptors
		"exec 3<" + P + "; sh <&3", "exec 3< " + P + "\nbash <&3", "sh 3<" + P + " <&3",
		"exec {fd}<" + P + "; sh <&$fd", "sh /dev/fd/3 3<" + P, "bash /proc/self/fd/7 7< " + P,
		// command and process substitutions
		"sh -c \"$(cat " + P + ")\"", "eval \"$(cat " + P + ")\"", "eval \"$(< " + P + ")\"",
		"bash -c \"$(<" + P + ")\"", "sh -c \"`cat " + P + "`\"", "$(cat " + P + ")", "`cat " + P + "`",
		"sh <(cat " + P + ")", "source <(cat " + P + ")", ". <(sed p " + P + ")",
		"sh <<< \"$(cat " + P + ")\"", "bash <<EOF\n$(cat " + P + ")\nEOF",
		// variables and builtins that read it
		"x=$(cat " + P + "); $x", "x=$(cat " + P + "); eval $x", "f=" + P + "; eval \"$(cat $f)\"",
		"mapfile -t a < " + P + "; \"${a[@]}\"", "read -r x < " + P + "; $x", "readarray a < " + P + "; eval \"${a[1]}\"",
		// filters in front of a shell, and programs that run what they read
		"cat < " + P + " | sh", "tee < " + P + " | sh", "head -100 " + P + " | sh", "cat " + P + " " + P + " | sh",
		"cat -- " + P + " | sh", "dd if=" + P + " | sh", "sed -n p " + P + " | sh", "tail -n +1 " + P + " | bash -s",
		"awk '{system($0)}' " + P, "xargs -a " + P + " -I{} sh -c {}", "perl -ne 'system($_)' " + P,
		// spellings of the name: quoted, joined, relative after cd or in
		// the working directory, other interpreters' text, computed text
		"eval \"$(cat '" + d + "/my job')\"", "eval \"$(cat " + d + "/pl\"\"ain)\"", "eval \"$(cat " + d + "/pl\\ain)\"",
		"cd " + d + "; sh < plain", "cd " + d + "; cat plain | sh", "cd " + d + " && eval \"$(cat ./plain)\"",
		"cat job.py | python3 -", "cd " + d + "; python3 <(cat job.py)", "eval \"$(cat " + d + "/computed)\"",
		// a glob in the name's last part
		"eval \"$(cat " + d + "/pl*)\"", "exec 3<" + d + "/p?ain; sh <&3", "cd " + d + "; cat [p]lain | sh",
		// a name computed where an input redirection opens it
		"d=" + d[:len(d)-1] + "; exec 3<\"${d}" + d[len(d)-1:] + "/my job\"; sh <&3", "n=pl; exec 4<" + d + "/${n}ain; bash <&4",
	} {
		v := f.p.Evaluate(Input{Command: c})
		if !v.Denied {
			t.Errorf("Evaluate(%q) = %s, want denied for what the file it names runs", c, formatVerdict(v))
		}
	}
	// In the working directory the server gives, without a cd.
	if v := f.p.Evaluate(Input{Command: "exec 3<plain; sh <&3", Dir: d}); !v.Denied {
		t.Errorf("a relative name in the call's directory: %s, want denied", formatVerdict(v))
	}
	// A harmless script, a file older than warden, a call that runs
	// nothing unseen, and another host's files are not held against it.
	f.write(t, "fine", []byte("uptime\ndf -h\n"))
	for _, c := range []string{"eval \"$(cat " + d + "/fine)\"", "exec 3<" + d + "/fine; sh <&3"} {
		if v := f.p.Evaluate(Input{Command: c}); v.Denied || v.Tier != TierDestructive {
			t.Errorf("Evaluate(%q) = %s, want tier 3 (text the classifier cannot see), not denied", c, formatVerdict(v))
		}
	}
	for _, c := range []string{"cat " + P, "grep -c reboot " + P, "cp " + P + " /tmp/x", "rm -f " + P} {
		if v := f.p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: it runs nothing unseen", c, formatVerdict(v))
		}
	}
	old := *f.p
	old.since = time.Now().Add(time.Hour)
	if v := old.Evaluate(Input{Command: "exec 3<" + P + "; sh <&3"}); v.Denied {
		t.Errorf("a file older than the policy was read: %s", formatVerdict(v))
	}
	if v := f.p.Evaluate(Input{Command: "exec 3<" + P + "; sh <&3", Host: "nas"}); v.Denied {
		t.Errorf("another host's file was read here: %s", formatVerdict(v))
	}
	// A FIFO named by an opaque call is not opened.
	fifoUnopened(t, f.p, d, func(fifo string) string { return "eval \"$(cat " + fifo + ")\"" })
}

// TestNameTokens: the words of a call's text that may name a file.
func TestNameTokens(t *testing.T) {
	var words []string
	nameTokens(`exec 3</a/b; sh <&3 "$(cat '/my job')" if=/c --x=/d /e""f /g\h`, func(w string) bool {
		words = append(words, w)
		return true
	})
	got := strings.Join(words, "|")
	for _, w := range []string{"/a/b", "/my job", "/c", "/d", "/ef", "/gh"} {
		if !strings.Contains("|"+got+"|", "|"+w+"|") {
			t.Errorf("nameTokens: %q lacks %q", got, w)
		}
	}
}
