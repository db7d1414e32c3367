package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotMakeIncludes: a Makefile's include whose name a variable
// gives (include $(X), X's value in the Makefile or on make's command
// line, ${A}/x.mk, $(wildcard …)) was not read, so an included file
// written this session ran its $(shell reboot) at tier 2. The names are
// put together from the Makefile's own literal assignments and make's
// command line now, and the file they name is read, in the directories
// make -I names too (bmake's .include as well); a name left computed
// takes approval when a variable set outside the Makefile gives it (the
// environment's, a command line's substitution reference, a shell
// assignment) or the Makefile itself is new. An old Makefile's usual
// -include $(DEPS) stays as it was.
func TestBlindSpotMakeIncludes(t *testing.T) {
	dir, _ := lastingDir(t, "makeinc-")
	bin := filepath.Join(dir, "bin")
	writeUnder(t, bin, "make", "#!/bin/sh\n") // found, so classified by its name
	p, err := New(Rules{Path: bin + ":/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	evil := writeUnder(t, dir, "ev/evil.mk", "$(shell reboot)\nx:\n\ttrue\n")
	writeUnder(t, dir, "ev/plain.a", "x = 1\n")
	old := *p
	old.since = time.Now().Add(time.Hour) // every file here older than warden
	n := 0
	makefile := func(text string) string {
		n++
		d := filepath.Join(dir, "m", fmt.Sprint(n))
		writeUnder(t, d, "Makefile", text+"x:\n\ttrue\n")
		return "cd " + d + " && "
	}
	for _, tc := range []struct{ makefile, cmd string }{
		{"X = ../../ev/evil.mk\ninclude $(X)\n", "make x"},
		{"X := ev\ninclude ../../$(X)/evil.mk\n", "make"},
		{"A = ../../ev\nB = $(A)/evil.mk\n-include ${B}\n", "make x"},
		{"override EVIL ::= ../../ev/evil.mk\nsinclude $(EVIL)\n", "make x"},
		{"EXTRA ?= x.mk\ninclude $(EXTRA)\n", "make x EXTRA=../../ev/evil.mk"},
		{"include $(EVIL)\n", "make EVIL=../../ev/evil.mk x"},
		{"MK = ../../ev/plain.a\nMK += ../../ev/evil.mk\ninclude $(MK)\n", "make"},
		{"include $(wildcard ../../ev/*.mk)\n", "make x"},
		// Found in a directory -I names.
		{"include evil.mk\n", "make -I ../../ev x"}, {"-include evil.mk\n", "make -I../../ev"},
		{"sinclude evil.mk\n", "make --include-dir=../../ev x"}, {"include $(X)\n", "make -C . -kI ../../ev X=evil.mk"},
		{".include \"evil.mk\"\n", "bmake -I ../../ev x"}, {".-include <evil.mk>\n", "bmake -I../../ev"},
	} {
		c := makefile(tc.makefile) + tc.cmd
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, evil) {
			t.Errorf("%q with a Makefile of %q: %s, want denied for what %s runs", tc.cmd, tc.makefile, formatVerdict(v), evil)
		}
	}
	// Computed past reading: a variable from outside, or a new Makefile.
	for _, tc := range []struct{ makefile, cmd string }{
		{"include $(EVIL)\n", "EVIL=../../ev/evil.mk make x"},
		{"include $(EVIL:.a=.mk)\n", "make EVIL=../../ev/evil.a x"},
		{"Y != echo ../../ev/evil.mk\ninclude $(Y)\n", "make x"},
		{"SRCS := $(wildcard *.c)\n-include $(SRCS:.c=.d)\n", "make x"},
		{"include ../../ev/$(firstword $(MK))\n", "make x"},
	} {
		c := makefile(tc.makefile) + tc.cmd
		for i, q := range []*Policy{p, &old} {
			v := q.Evaluate(Input{Command: c})
			want := i == 0 || !strings.Contains(tc.makefile, "SRCS") // an old Makefile's own
			if got := v.Tier == TierDestructive && strings.Contains(v.Reason, "make includes a file named at run time"); got != want {
				t.Errorf("%q with a Makefile of %q (old %v): %s, want tier 3 for the include: %v", tc.cmd, tc.makefile, i == 1, formatVerdict(v), want)
			}
		}
	}
	// An old Makefile's dependency files; a name that reads a harmless file.
	for _, tc := range []struct{ makefile, cmd string }{
		{"SRCS := $(wildcard *.c)\nDEPS := $(SRCS:.c=.d)\n-include $(DEPS)\n", "make x CFLAGS=-O2"},
		{"-include $(patsubst %.c,%.d,$(wildcard *.c))\n", "make x"},
		{"EVIL ?= x.mk\ninclude $(EVIL)\n", "make x EVIL=../../ev/plain.a"},
	} {
		c := makefile(tc.makefile) + tc.cmd
		if v := old.Evaluate(Input{Command: c}); v.Denied || v.Tier == TierDestructive {
			t.Errorf("%q with an old Makefile of %q: %s, want tier 2", tc.cmd, tc.makefile, formatVerdict(v))
		}
	}
}
