package policy

import (
	"path"
	"strings"
)

// Program directories: a program named by a path is the program its name
// says only where the system keeps programs. Elsewhere it is a file of
// whoever wrote it there, a repository's ./cat or /srv/app/tools/ls, and
// its name says nothing of what it does.

// programDirs are the directories systems and their package managers
// keep programs in.
var programDirs = set(`/bin /sbin /usr/bin /usr/sbin /usr/local/bin /usr/local/sbin /usr/games /usr/local/games
	/snap/bin /opt/bin /opt/sbin /usr/syno/bin /usr/syno/sbin /opt/homebrew/bin /opt/homebrew/sbin
	/home/linuxbrew/.linuxbrew/bin /home/linuxbrew/.linuxbrew/sbin /run/current-system/sw/bin /run/wrappers/bin
	/usr/pkg/bin /usr/pkg/sbin /usr/X11R6/bin /usr/ucb /etc/init.d /etc/rc.d /usr/local/etc/rc.d`)

// programTrees are the trees whose every directory is a system one:
// helpers under /usr/lib and /usr/libexec, packages' own trees under
// /usr/share (/usr/share/dotnet), Nix's and Guix's stores.
var programTrees = []string{"/usr/lib/", "/usr/lib64/", "/usr/libexec/", "/usr/share/", "/lib/", "/lib64/", "/usr/local/lib/",
	"/usr/local/libexec/", "/usr/local/share/", "/nix/store/", "/gnu/store/"}

// homeProgramDirs are the program directories of a user's home: the
// user's own, pip's, cargo's and go's.
var homeProgramDirs = []string{"/bin", "/.local/bin", "/.cargo/bin", "/go/bin"}

// programDir reports whether dir, a program's directory as written, is
// one the system or a user's package tools keep programs in: a relative
// one never is (it is the working directory's).
func programDir(dir string) bool {
	if strings.HasPrefix(dir, "~") {
		home, rest, _ := strings.Cut(dir, "/")
		return !strings.Contains(home, "/") && slicesHas(homeProgramDirs, "/"+rest)
	}
	if !strings.HasPrefix(dir, "/") {
		return false
	}
	dir = path.Clean(dir)
	if programDirs[dir] {
		return true
	}
	for _, t := range programTrees {
		if strings.HasPrefix(dir+"/", t) {
			return true
		}
	}
	// A vendor's tree: /opt/puppetlabs/bin, /opt/VRTS/bin.
	if parent := path.Dir(dir); path.Dir(parent) == "/opt" && (path.Base(dir) == "bin" || path.Base(dir) == "sbin") {
		return true
	}
	// /root/… and /home/USER/…
	for _, h := range homeProgramDirs {
		if base, ok := strings.CutSuffix(dir, h); ok && (base == "/root" || path.Dir(base) == "/home") {
			return true
		}
	}
	return false
}

// foreignProgram returns why p, a program named by a path, is not the
// program its name says, or "".
func foreignProgram(p string) string {
	if programDir(path.Dir(p)) {
		return ""
	}
	return "runs " + truncate(p, 64) + ", a file outside the system's program directories: not the " + path.Base(p) + " its name says"
}
