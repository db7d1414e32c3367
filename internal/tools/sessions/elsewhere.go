package sessions

import (
	"slices"
	"strings"
)

// Some programs hand the lines typed next to something other than the
// session's shell: a shell on another host or in a container (ssh host,
// docker exec -it, kubectl exec -it), a network service (nc, socat: a
// redis "set" or "config set dir" is a write that reads as the shell's
// set), or an editor a command opens (fc, crontab -e, git commit without
// a message). There the lines run where policy's host rules and the
// session's confinement do not reach, or in a language warden does not
// parse, so starting one ends the model as readers.go does.

// elsewhereKinds maps a program to how it decides to pass the terminal's
// lines on:
//
//	'h' a remote shell unless given a remote command that reads none;
//	'n' a network connection, unless only scanning (-z);
//	'x' an exec or run subcommand with -i, -t or --interactive;
//	'e' an editor, opened by a subcommand or option (editorOpens).
var elsewhereKinds = map[string]byte{
	"ssh": 'h', "slogin": 'h', "mosh": 'h', "rsh": 'h', "rlogin": 'h',
	"nc": 'n', "ncat": 'n', "netcat": 'n', "socat": 'n', "cu": 'n', "minicom": 'n', "picocom": 'n',
	"docker": 'x', "podman": 'x', "nerdctl": 'x', "kubectl": 'x', "oc": 'x', "lxc": 'x', "incus": 'x',
	"nsenter": 'a', "machinectl": 'x', "virsh": 'x', "toolbox": 'x', "distrobox": 'x',
	"fc": 'e', "crontab": 'e', "visudo": 'a', "vipw": 'a', "vigr": 'a', "sudoedit": 'a', "edquota": 'a',
	"git": 'e', "systemctl": 'e',
}

// sshValueOpts are ssh's options that take a value.
const sshValueOpts = "BbcDEeFIiJLlmOoPpQRSWw"

// elsewhere says why program b with arguments rest passes the lines typed
// next to something other than the session's shell, or returns "".
func elsewhere(b string, kind byte, rest []string) string {
	switch kind {
	case 'a':
		return b + " runs a shell or an editor elsewhere, which reads the lines typed next"
	case 'h':
		var remote []string
		tty := false
		for j := 0; j < len(rest); j++ {
			a := rest[j]
			if len(remote) == 0 && len(a) > 1 && a[0] == '-' {
				tty = tty || strings.Trim(a[1:], "t") == ""
				if strings.IndexByte(sshValueOpts, a[len(a)-1]) >= 0 {
					j++
				}
				continue
			}
			remote = append(remote, a)
		}
		if len(remote) <= 1 || tty {
			return b + " runs a shell on another host, which reads the lines typed next where this session's host rules do not apply"
		}
		// The remote command reads the terminal's lines as a local one would.
		if langReader(remote[1:], 0) != "" || shells[progName(remote[1])] {
			return b + " runs " + truncate(remote[1], 32) + " on another host, which reads the lines typed next"
		}
	case 'n':
		if !some(rest, func(a string) bool { return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'z') }) {
			return b + " sends the lines typed next to a network service, in its own protocol (a redis or SQL command may write)"
		}
	case 'x':
		sub := firstWord(withoutGlobalValues(b, rest))
		switch sub {
		case "exec", "run", "attach", "debug", "shell", "login", "console", "enter", "create", "edit":
		default:
			return ""
		}
		// lxc and incus exec read the terminal unless told otherwise.
		native := (b == "lxc" || b == "incus") && sub == "exec" && !some(rest, func(a string) bool {
			return a == "-n" || strings.HasPrefix(a, "--mode")
		})
		if sub == "edit" {
			return b + " edit opens an editor, which reads the keys typed next and may run what it saves"
		}
		if native || sub == "attach" || sub == "shell" || sub == "login" || sub == "console" || sub == "enter" ||
			some(rest, func(a string) bool {
				return a == "--interactive" || a == "--stdin" || a == "--tty" ||
					len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "it") == "" && a != "-"
			}) {
			return b + " " + sub + " runs a program in another container, machine or namespace, which reads the lines typed next"
		}
	case 'e':
		if editorOpens(b, rest) {
			return b + " opens an editor, which reads the keys typed next and may run what it saves"
		}
	}
	return ""
}

// shells are the programs that read shell commands from their input.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true, "mksh": true,
	"zsh": true, "fish": true, "csh": true, "tcsh": true, "busybox": true}

// firstWord is the first of rest that is not an option.
func firstWord(rest []string) string {
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// editorOpens reports whether b with arguments rest opens an editor on the
// terminal.
func editorOpens(b string, rest []string) bool {
	rest = withoutGlobalValues(b, rest)
	has := func(opts ...string) bool {
		return some(rest, func(a string) bool {
			for _, o := range opts {
				if a == o || strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"=") {
					return true
				}
			}
			return false
		})
	}
	switch b {
	case "fc":
		// fc -s reruns, fc -l lists; otherwise it edits and runs.
		return !some(rest, func(a string) bool { return len(a) > 1 && a[0] == '-' && strings.ContainsAny(a[1:], "sl") })
	case "crontab":
		// -e edits; with no file (or "-") it installs what is typed.
		return has("-e") || firstWord(rest) == "" && !has("-l", "-r") || has("-")
	case "systemctl":
		return firstWord(rest) == "edit"
	case "git":
		// Only the subcommand's own options count: git -C DIR commit
		// opens the editor, git commit -C REV does not.
		i := slices.IndexFunc(rest, func(a string) bool { return !strings.HasPrefix(a, "-") })
		if i < 0 {
			return false
		}
		sub := rest[i]
		rest = rest[i+1:]
		switch sub {
		case "commit", "tag", "merge", "revert", "notes":
			return !has("-m", "--message", "-F", "--file", "-C", "--reuse-message", "--no-edit", "-l", "--list") &&
				!some(rest, func(a string) bool {
					return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "mFC") || strings.HasPrefix(a, "--fixup")
				})
		case "rebase", "add", "cherry-pick", "config", "checkout", "restore", "reset", "stash", "clean":
			return has("-i", "--interactive", "-p", "--patch", "-e", "--edit")
		}
	}
	return false
}
