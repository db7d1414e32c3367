package policy

import (
	"os/user"
	"path"
	"strings"
)

// Who a command runs as decides whose start-up and configuration files
// its programs read: sudo, doas, pkexec, su, runuser, gosu and su-exec
// set HOME to their target user's home, so sudo -u bob git status reads
// bob's ~/.gitconfig, and sudo git status root's.

// targetUser is a user, known not to be root, that a wrapper runs a command
// as, and their home directory: empty where there is none to read (no
// such user, or a host other than this one).
type targetUser struct{ name, home string }

// maxUsers is how many users one evaluation tells apart (cctx.user is a
// byte); a command run as a user past them reads files the classifier
// does not follow, which takes approval (limits.go).
const maxUsers = 255

// userRef returns the cctx.user of commands run as the user name.
func (e *eval) userRef(name string) uint8 {
	for i, u := range e.users {
		if u.name == name {
			return uint8(i + 1)
		}
	}
	if len(e.users) >= maxUsers {
		e.pastLimit(maxUsers, "users commands run as")
		return 0
	}
	u := targetUser{name: name}
	if e.local {
		u.home = lookupHome(name)
	}
	e.users = append(e.users, u)
	return uint8(len(e.users))
}

// lookupHome returns the home directory of the user named name (#UID:
// the user of that id), or "" when there is no such user.
func lookupHome(name string) string {
	var u *user.User
	var err error
	if id, ok := strings.CutPrefix(name, "#"); ok {
		u, err = user.LookupId(id)
	} else {
		u, err = user.Lookup(name)
	}
	if err != nil || !path.IsAbs(u.HomeDir) {
		return ""
	}
	return path.Clean(u.HomeDir)
}

// runsAs notes that c's command runs as the user u names: root when u is
// root's name or id, someone else when it is known, either when it is
// computed at run time (then as before).
func (c *call) runsAs(u arg) {
	switch {
	case !u.known:
	case u.val == "root" || u.val == "0" || u.val == "#0":
		c.ctx.root, c.ctx.user = true, 0
	default:
		c.ctx.root, c.ctx.user = false, c.e.userRef(u.val)
	}
}

// homeDir is the home directory of the user c runs as: the target user's
// under sudo -u, su and the other wrappers; root's under a wrapper to root
// when warden's own user is not root; else warden's user's (Rules.Home).
func (c *call) homeDir() string {
	if c.ctx.user > 0 && int(c.ctx.user) <= len(c.e.users) {
		return c.e.users[c.ctx.user-1].home
	}
	if c.ctx.root && c.e.p.rootHome != "" {
		return c.e.p.rootHome
	}
	if c.e.p.protect != nil {
		return c.e.p.protect.home
	}
	return ""
}

// wrapperUser returns the user sudo, doas or pkexec (name), given its own
// options own, runs its command as: the last -u/--user, or root.
func wrapperUser(name string, own []arg) arg {
	names := []string{"-u", "--user"}
	if name == "pkexec" {
		names = names[1:]
	}
	if us := scanOpts(own, "CDghpRrtTUu", true, names, nil); len(us) > 0 {
		return us[len(us)-1]
	}
	return arg{val: "root", known: true}
}

// suUser returns the user su or runuser runs as, given its own options
// own and the words after them, rest: runuser's -u/--user, else the first
// word (after an optional "-"), else root.
func suUser(name string, own, rest []arg) arg {
	if name == "runuser" {
		if us := scanOpts(own, "gGsuw", true, []string{"-u", "--user"}, nil); len(us) > 0 {
			return us[len(us)-1]
		}
	}
	if len(rest) > 0 && rest[0].known && rest[0].val == "-" {
		rest = rest[1:]
	}
	switch {
	case len(rest) == 0:
		return arg{val: "root", known: true}
	case rest[0].known && strings.HasPrefix(rest[0].val, "-"):
		return arg{} // an option after the user's place: not read
	}
	return rest[0]
}

// leadingUser returns the user gosu or su-exec runs as, the first of
// the words after its options, rest: USER[:GROUP], a name or a numeric id.
func leadingUser(rest []arg) arg {
	if len(rest) == 0 || !rest[0].known {
		return arg{}
	}
	u, _, _ := strings.Cut(rest[0].val, ":")
	if allDigits(u) && u != "0" {
		u = "#" + u
	}
	return arg{val: u, known: true}
}
