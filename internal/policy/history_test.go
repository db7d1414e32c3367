package policy

import "testing"

func TestHistoryReplays(t *testing.T) {
	p, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd  string
		want Tier
	}{
		{"history", TierRead},
		{"history 20", TierRead},
		{"fc -l", TierRead},
		{"fc -ln -5", TierRead},
		{"fc -rl 1 5", TierRead},
		{"history -s 'rm -rf /srv'; fc -s", TierDestructive},
		{"fc -s", TierDestructive},
		{"fc -s ls=rm", TierDestructive},
		{"fc -e - 12", TierDestructive},
		{"fc", TierDestructive},
		{"history -r /tmp/h", TierMutate},
		{"history -n", TierMutate},
		{"builtin fc -s", TierDestructive},
		{"bash -c 'fc -s x=y'", TierDestructive},
	} {
		if got := p.Evaluate(Input{Command: c.cmd}); got.Tier != c.want {
			t.Errorf("Evaluate(%q) = %v (%s), want %v", c.cmd, got.Tier, got.Reason, c.want)
		}
	}
}

// TestCommentEndingInBackslash: shells end a comment at the newline even
// after a backslash and run the next line; the parser would hide it.
func TestCommentEndingInBackslash(t *testing.T) {
	p, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"echo hi #\\\nrm -rf /tmp/y",
		"echo hi # note \\\ntouch /srv/x",
		"#\\\nreboot",
		"ls # a\\\n  # b \\\n chmod 777 /etc/x",
		"sh -c 'echo a #\\\nrm -rf /srv/y'",
	} {
		if got := p.Evaluate(Input{Command: cmd}); got.Tier < TierMutate && !got.Denied {
			t.Errorf("Evaluate(%q) = %v (%s), want the hidden line seen", cmd, got.Tier, got.Reason)
		}
	}
	for _, cmd := range []string{"echo 'a \\\nb' # fine", "ls \\\n -la # listing"} {
		if got := p.Evaluate(Input{Command: cmd}); got.Tier != TierRead {
			t.Errorf("Evaluate(%q) = %v (%s), want a read", cmd, got.Tier, got.Reason)
		}
	}
}
