package policy

import "strings"

// Database and cluster dumps. The dump tools read a server and write
// where an option says: pg_dump -f, mysqldump -r/--result-file,
// mongodump --archive, mongoexport --out, etcdctl and consul snapshot save
// FILE go through writeTarget, so "pg_dump -f /dev/sda db" is denied like
// a redirection; pg_basebackup -D, mysqldump --tab and mongodump --out name
// a directory, checked as extraction directories are. They stay tier 2
// (a connection to a server the classifier does not see), and the server
// they name meets the host rules.

// dumpOutputs are each dump tool's options naming the file or directory
// it writes.
var dumpOutputs = map[string][]string{
	"pg_dump":       {"-f", "--file"},
	"pg_dumpall":    {"-f", "--file"},
	"pg_basebackup": {},
	"mysqldump":     {"-r", "--result-file"},
	"mariadb-dump":  {"-r", "--result-file"},
	"mysqlpump":     {"--result-file"},
	"mongodump":     {"--archive"},
	"mongoexport":   {"-o", "--out"},
}

// dumpDirs are each dump tool's options naming a directory it writes
// into, checked as extraction directories are.
var dumpDirs = map[string][]string{
	"pg_basebackup": {"-D", "--pgdata"},
	"mysqldump":     {"-T", "--tab"},
	"mariadb-dump":  {"-T", "--tab"},
	"mongodump":     {"-o", "--out"},
}

// dumpHosts are each dump tool's options naming the server.
var dumpHosts = []string{"-h", "--host"}

// dumpProgram classifies the programs dumpOutputs names.
func dumpProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": dumps a database"}
	// PostgreSQL's tools (getopt_long) and MySQL's (my_getopt) take long
	// options abbreviated (--fi=FILE, --result=FILE, --pgd DIR); the
	// MongoDB tools (go-flags) take them whole.
	opts := c.optVals
	if strings.HasPrefix(c.name, "mongo") {
		opts = func(args []arg, names ...string) []arg { return exactOptVals(args, names...) }
	}
	for _, f := range opts(c.args, dumpOutputs[c.name]...) {
		if f.known && f.val == "-" {
			continue
		}
		r.raise(c.writeArg(f, c.name+" output"))
	}
	if dirs := dumpDirs[c.name]; len(dirs) > 0 {
		for _, d := range opts(c.args, dirs...) {
			r.raise(c.extractDir(d, c.name))
		}
	}
	if !strings.HasPrefix(c.name, "mongo") {
		for _, h := range opts(c.args, dumpHosts...) {
			c.checkHost(h.val)
		}
	}
	return r.t, r.why
}

// snapshotSave returns the file "etcdctl snapshot save FILE" and "consul
// snapshot save FILE" write, if the command is one.
func snapshotSave(c *call) (arg, bool) {
	ops := optionOperands(c.args, "", "")
	if len(ops) >= 3 && ops[0].val == "snapshot" && ops[1].val == "save" {
		return ops[2], true
	}
	return arg{}, false
}
