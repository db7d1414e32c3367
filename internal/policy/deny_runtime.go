package policy

import (
	"path"
	"strings"
)

// What every program needs to start: the dynamic loader and the C
// library. Removed, moved away, truncated or shredded, no dynamically
// linked program starts again — no shell, no sshd session, no package
// manager to put them back — until the machine is booted from something
// else. Replacing them (cp, an upgrade) is tier 3 with the other system
// libraries (systemProgramFile).

const runtimeWhy = "no dynamically linked program starts without it"

// runtimeFile reports whether p names the dynamic loader or the C library
// in a system library directory: ld-linux*.so*, ld-musl-*.so*, libc.so.6,
// musl's libc.musl-*.so*, or a glob that matches one there.
func runtimeFile(p string) bool {
	p = strings.TrimSpace(unquote.Replace(p))
	if !strings.HasPrefix(p, "/") || !strings.Contains(p, "l") {
		return false
	}
	c := path.Clean(p)
	dir, base := path.Split(c)
	if !loaderDir(path.Clean(dir)) {
		return false
	}
	for _, n := range []string{"ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "ld-linux-armhf.so.3", "ld-linux.so.2",
		"ld-musl-x86_64.so.1", "ld-musl-aarch64.so.1", "ld-musl-armhf.so.1", "libc.so.6", "libc.musl-x86_64.so.1"} {
		if base == n {
			return true
		}
		if strings.ContainsAny(base, "*?[") {
			if ok, _ := path.Match(base, n); ok {
				return true
			}
		}
	}
	return strings.HasPrefix(base, "ld-linux") || strings.HasPrefix(base, "ld-musl")
}

// loaderDir reports whether d is where the loader and the C library
// live: /lib, /lib64, /usr/lib and the like, or their multiarch
// directory (/lib/x86_64-linux-gnu).
func loaderDir(d string) bool {
	switch d {
	case "/lib", "/lib32", "/lib64", "/libx32", "/usr/lib", "/usr/lib32", "/usr/lib64":
		return true
	}
	parent, sub := path.Split(d)
	return (parent == "/lib/" || parent == "/usr/lib/") && strings.Contains(sub, "-linux-")
}

// runtimeRemoval returns why rm, unlink, shred or truncate take the
// loader or the C library away, or "".
func runtimeRemoval(name string, args []string) string {
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v
		}
		if runtimeFile(a) {
			return name + " " + a + ": " + runtimeWhy
		}
	}
	return ""
}

// everyFileDirs are the directories whose files, removed all at once
// without -r (rm -f /usr/bin/*), leave the host unable to run, start or
// log in: the programs, the libraries, the configuration, the boot files,
// the firmware's variables, and / itself, whose /bin, /lib and /sbin are
// links into /usr on merged systems.
var everyFileDirs = set(`/ /bin /sbin /usr/bin /usr/sbin /lib /lib32 /lib64 /libx32 /usr/lib /usr/lib32
	/usr/lib64 /usr/libexec /etc /boot /sys/firmware/efi/efivars`)

// rmFilesDeny denies a non-recursive rm of every file of one of
// everyFileDirs: an operand that is the directory with a pattern that
// matches every name in it (/usr/bin/*, /etc/.* /etc/*, /lib/x86_64-linux-gnu/../*).
func rmFilesDeny(ops []string) string {
	for _, t := range ops {
		t = strings.TrimSpace(unquote.Replace(t))
		if !strings.HasPrefix(t, "/") || !everyName(path.Base(t)) {
			continue
		}
		if d := path.Clean(path.Dir(t)); everyFileDirs[d] {
			return "rm: removes every file of " + d
		}
	}
	return ""
}

// everyName reports whether a pattern matches every name in a directory
// (or every one with a dot, or every hidden one): *, ./*, .*, *.*, ?*.
func everyName(p string) bool {
	switch strings.TrimPrefix(p, "./") {
	case "*", ".*", "*.*", "?*":
		return true
	}
	return false
}

// powerNoop reports whether a power program's options make it leave the
// power state alone: shutdown -c (cancels a pending shutdown, what one
// wants in a hurry) and --show; -w or
// --wtmp-only of reboot, poweroff and halt (only the wtmp record); kexec
// -l, -p or -u without -e (loading or unloading the kernel to boot next,
// as kdump's setup does; without any of them kexec loads and boots).
// Help and version print only.
func powerNoop(name string, args []string) bool {
	if helpOnly(args) || len(args) == 1 && args[0] == "--version" {
		return true
	}
	switch name {
	case "shutdown":
		// -k is only the wall message to systemd's and sysvinit's
		// shutdown, but a kexec reboot to dinit's: not read as a no-op.
		if hasFlag(args, 0, "--show") {
			return true
		}
		// The last action given wins: -c -r now reboots.
		last := byte(0)
	words:
		for _, a := range args {
			switch {
			case a == "--":
				break words
			case strings.HasPrefix(a, "--"):
				for _, l := range []struct {
					c    byte
					long string
				}{{'c', "--cancel"}, {'r', "--reboot"}, {'H', "--halt"}, {'P', "--poweroff"}} {
					if longFlag(a, l.long) {
						last = l.c
					}
				}
			case strings.HasPrefix(a, "-"):
				for k := 1; k < len(a); k++ {
					if strings.IndexByte("crHPh", a[k]) >= 0 {
						last = a[k]
					}
				}
			}
		}
		return last == 'c'
	case "reboot", "poweroff", "halt":
		return getoptFlag(args, 'w', "--wtmp-only", "")
	case "kexec":
		if getoptFlag(args, 'e', "--exec", "t") {
			return false
		}
		for _, f := range []struct {
			c    byte
			long string
		}{{'l', "--load"}, {'p', "--load-panic"}, {'u', "--unload"}, {'S', "--status"}} {
			if getoptFlag(args, f.c, f.long, "t") {
				return true
			}
		}
	}
	return false
}
