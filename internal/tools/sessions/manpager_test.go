package sessions

import (
	"strings"
	"testing"
)

// man reads its options as argp does: a pager named clustered, by a long
// name abbreviated, or in MANOPT reads keys raw as man -P less does.
func TestManPagerInAnySpelling(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"man -aPless ls", "man -aP less ls", "man -aiPless ls", "man -LC -Pless ls", "man -aPmost ls",
		"man --pag=less ls", "man --page less ls", "man --pager=less ls", "man --pag=/usr/bin/less ls",
		"MANOPT='-P less' man ls", "MANOPT=-aPless man ls", "env MANOPT=-Pless man ls", "MANOPT='--pag=less' man ls",
		"sudo man -aPless ls", "/usr/bin/man -aPless ls", "m\\an -aPless ls",
	} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s); !strings.Contains(last.unseen, "page") {
				t.Errorf("unseen %q", last.unseen)
			}
		})
	}
}

// A value that only looks like a pager, or cat, keeps the model.
func TestManWithoutAPagerStaysFollowed(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"man ls", "man -a ls", "man -aPcat ls", "man -P cat ls", "man -L Pless ls", "man -- -Pless", "man -k printf"} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "ls -l"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}

// ag and ack take --pager abbreviated, as man does.
func TestAbbreviatedPagerOptions(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"ag --pag less x", "ag --page=less x", "ack --pag=less x", "ack --page less x", "sudo ag --pag=most x"} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s); !strings.Contains(last.unseen, "page") {
				t.Errorf("unseen %q", last.unseen)
			}
		})
	}
	for _, s := range []string{"ag --pag cat x", "ack --pag=cat x", "ag x", "ack x"} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "ls -l"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}
