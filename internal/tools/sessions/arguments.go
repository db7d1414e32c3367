package sessions

import (
	"path"
	"strings"
)

// A shell of another language named where a program may stand ends the
// model (rekey.go): first, after a wrapper, or behind an option (env -i
// zsh, su -s /bin/zsh). After a wrapper it may stand behind an option's
// value or a wrapper's operand too, even one that names a program warden
// knows: "exec -a man zsh", "sudo -u man zsh" and "flock man zsh" run zsh,
// and were read as running man. But a word after a program that runs none
// of its arguments is one of them: "sudo apt install -s zsh" simulates
// installing zsh and starts no shell, yet it ended the model for good.

// mayRun reports whether the word vals[i] of a simple command may be a
// program it runs, for the shells of other languages.
func mayRun(vals []string, i int) bool {
	if i == 0 {
		return true
	}
	if argumentOf(vals, i) {
		return false
	}
	prev := vals[i-1]
	if wrapper[path.Base(prev)] || strings.HasPrefix(prev, "-") {
		return true
	}
	return i >= 2 && runBy(vals, i) && (strings.HasPrefix(vals[i-2], "-") || operandWrappers[progName(vals[i-2])])
}

// packagers are programs that install, remove or report packages named
// by their arguments and run none of them.
var packagers = setOf("apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman", "apk", "snap", "flatpak",
	"brew", "pip", "pip3", "dpkg", "apt-file", "port", "pkg", "emerge", "xbps-install", "nix-env")

// operandWrappers run a program named after an operand of their own (the
// root, a lock file, a group, a time), which may be any word.
var operandWrappers = setOf("chroot", "flock", "sg", "faketime", "sem", "parallel", "cgexec", "taskset", "chrt",
	"timeout", "numactl", "xargs", "busybox")

// argumentOf reports whether the word vals[i] of a simple command is
// certainly an argument of a program named before it, not a program a
// wrapper runs: a program known to run none of its arguments stands
// before it where only a program can — first, or after a wrapper's
// options, not where an option's value (sudo --user man zsh, sudo -nu
// man zsh) or a wrapper's operand (flock man zsh) may.
func argumentOf(vals []string, i int) bool {
	for j := 0; j < i; j++ {
		v := vals[j]
		b := progName(v)
		if wrapper[b] || strings.HasPrefix(v, "-") || strings.Contains(v, "=") {
			continue
		}
		if j > 0 && (strings.HasPrefix(vals[j-1], "-") || operandWrappers[progName(vals[j-1])]) {
			continue
		}
		if j > 0 && !wrapper[progName(vals[0])] {
			return false
		}
		return quietPrograms[b] || packagers[b] || b == "echo" || b == "printf" || b == "type" || b == "man"
	}
	return false
}
