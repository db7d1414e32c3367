package policy

import "strings"

// usermodValueLong are usermod's long options that take a value.
var usermodValueLong = []string{"--comment", "--home", "--expiredate", "--inactive", "--gid", "--groups", "--login",
	"--password", "--shell", "--uid", "--root", "--prefix", "--selinux-user", "--add-subuids", "--del-subuids",
	"--add-subgids", "--del-subgids", "--selinux-range"}

// rootAccountDeny denies taking the root account away by other means than
// userdel: usermod -l renaming it (su, sudo and ssh root@ then find no
// root) or -u giving it another uid (no account has uid 0), and
// FreeBSD's pw userdel root, pw usermod root -l/-u.
func rootAccountDeny(name string, args []string) string {
	if name == "pw" {
		// pw userdel|usermod [-n] root [options]
		ops := operands(args)
		if len(ops) < 2 || ops[0] != "userdel" && ops[0] != "usermod" {
			return ""
		}
		root := ops[1] == "root"
		for i, a := range args {
			if a == "-n" && i+1 < len(args) && args[i+1] == "root" {
				root = true
			}
		}
		if !root {
			return ""
		}
		if ops[0] == "userdel" {
			return "pw userdel root: deletes the root user"
		}
		for i, a := range args {
			if (a == "-l" || a == "-u") && i+1 < len(args) && args[i+1] != "root" && pidWord(args[i+1]) != "0" {
				return "pw usermod root " + a + ": renames root or takes its uid 0"
			}
		}
		return ""
	}
	ops := getoptOperands(args, "cdefgGlpsuRPZ", usermodValueLong)
	if len(ops) == 0 || ops[len(ops)-1] != "root" {
		return ""
	}
	for i, a := range args {
		opt, v, eq := strings.Cut(a, "=")
		short := len(a) >= 2 && a[0] == '-' && a[1] != '-'
		switch {
		case short && (a[1] == 'l' || a[1] == 'u'):
			v = a[2:]
			if v == "" && i+1 < len(args) {
				v = args[i+1]
			}
			opt = a[:2]
		case longFlag(opt, "--login") || longFlag(opt, "--uid"):
			if !eq && i+1 < len(args) {
				v = args[i+1]
			}
		default:
			continue
		}
		if v != "root" && pidWord(v) != "0" {
			return "usermod " + opt + " " + v + " root: renames root or takes its uid 0"
		}
	}
	return ""
}
