package policy

import (
	"regexp"
	"strings"
)

// queryShellMarks are client commands of sqlite3, mysql and psql that run
// a shell command, load code, read more commands from a file or write a
// file: sqlite3 .shell/.system/.load/.output '|cmd', mysql \! and system,
// psql \!, \o |cmd and \copy … program; and SQL that writes files or
// loads code into the server: sqlite3's writefile() and edit() (which runs
// the editor it is given), PostgreSQL's lo_export, extensions, untrusted
// and C languages and ALTER SYSTEM, MySQL's plugins, components and UDFs.
var queryShellMarks = []string{".sh", ".system", ".load", "load_extension", ".output", ".once", ".import",
	".read", ".excel", ".open", ".save", ".backup", ".restore", `\!`, "system", "pager", `\o`, `\g`, `\copy`,
	`\i`, `\w`, `\setenv`, "program", "outfile", "dumpfile", `\.`, "source", "tee",
	"writefile", "edit(", "edit (", "lo_export", "create extension", "plpython", "plperl", "pltcl", "plsh", "language c",
	"language 'c'", "install plugin", "install component", "soname"}

// queryProgram classifies database clients that read commands: their
// client commands can run a shell, so a command text the classifier
// cannot read (standard input, a file) is TierDestructive. Queries
// themselves may change the database: TierMutate.
func queryProgram(c *call) (Tier, string) {
	if clientVersion(c) {
		return TierRead, c.name + " " + c.args[0].val
	}
	args := c.args
	var texts []arg
	var ops []arg
	file := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.known && strings.HasPrefix(v, "-") {
			c.e.opaque = true
			return TierDestructive, c.name + ": options computed at run time"
		}
		next := func() (arg, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return arg{}, false
		}
		// A cluster of flags ending in the command option (mysql -sse X,
		// psql -Atc X, psql -XqfFILE) is that option.
		if tl := queryClusterLetters[c.name]; tl != "" && len(v) > 2 && v[0] == '-' && v[1] != '-' {
			if at, rest, ok := clusterOption(v, tl[:2], tl[2:]); ok {
				if at == 'f' {
					file = v
				} else if rest != "" {
					texts = append(texts, arg{val: rest, known: a.known})
				} else if t, ok := next(); ok {
					texts = append(texts, t)
				}
				continue
			}
		}
		switch c.name {
		case "sqlite3", "sqlite":
			switch v {
			case "-cmd":
				if t, ok := next(); ok {
					texts = append(texts, t)
				}
				continue
			case "-init":
				file = v
				next()
				continue
			case "-separator", "-newline", "-nullvalue", "-maxsize", "-vfs", "-mmap", "-heap", "-lookaside", "-pagecache", "-A", "-escape":
				next()
				continue
			}
		case "psql":
			switch {
			case v == "-c" || longFlag(v, "--command") && !strings.Contains(v, "="):
				if t, ok := next(); ok {
					texts = append(texts, t)
				}
				continue
			case longFlag(v, "--command"):
				_, val, _ := strings.Cut(v, "=")
				texts = append(texts, arg{val: val, known: a.known})
				continue
			case strings.HasPrefix(v, "-c") && len(v) > 2:
				texts = append(texts, arg{val: v[2:], known: a.known})
				continue
			case v == "-f" || longFlag(v, "--file") || strings.HasPrefix(v, "-f") && len(v) > 2:
				file = v
				if v == "-f" || strings.HasPrefix(v, "--") && !strings.Contains(v, "=") {
					next()
				}
				continue
			case longFlag(v, "--log-file") || longFlag(v, "--output"):
				file = v
				continue
			case psqlOutputCluster(v):
				// -o FILE, -o'|cmd', -Ao|cmd, -L/tmp/log: output to a file or
				// a command, however the cluster spells it.
				if at := v[len(v)-1]; at == 'o' || at == 'L' {
					next()
				}
				file = v
				continue
			case len(v) == 2 && strings.IndexByte("dhpUvPTF", v[1]) >= 0:
				next()
				continue
			}
		default: // mysql, mariadb
			switch {
			case v == "-e" || (longFlag(v, "--execute") || longFlag(v, "--init-command")) && !strings.Contains(v, "="):
				if t, ok := next(); ok {
					texts = append(texts, t)
				}
				continue
			case longFlag(v, "--execute") || longFlag(v, "--init-command"):
				_, val, _ := strings.Cut(v, "=")
				texts = append(texts, arg{val: val, known: a.known})
				continue
			case strings.HasPrefix(v, "-e") && len(v) > 2:
				texts = append(texts, arg{val: v[2:], known: a.known})
				continue
			case strings.HasPrefix(v, "--tee") || strings.HasPrefix(v, "--pager") || mysqlAbbrevFile(v) || v == "--system-command" || strings.HasPrefix(v, "--defaults") || v == "--plugin-dir" || strings.HasPrefix(v, "--plugin-dir="):
				file = v
				continue
			case len(v) == 2 && strings.IndexByte("uhPDSW", v[1]) >= 0:
				next()
				continue
			}
		}
		if !strings.HasPrefix(v, "-") {
			ops = append(ops, a)
		}
	}
	if file != "" {
		c.e.opaque = true
		return TierDestructive, c.name + " " + file + ": reads commands from a file or runs a program"
	}
	if c.name == "sqlite3" || c.name == "sqlite" {
		if len(ops) > 1 {
			texts = append(texts, ops[1:]...)
		}
		if t, why := c.sqliteArchive(); t > TierRead {
			return t, why
		}
	}
	var extra raiser
	if c.name == "psql" {
		extra.raise(c.psqlPrompts(texts))
	}
	if extra.t == TierDestructive {
		return extra.t, extra.why
	}
	if len(texts) == 0 {
		switch c.ctx.stdin.kind {
		case stdinUnknown:
			c.e.opaque = true
			return TierDestructive, c.name + " reads commands, which can run a shell, from input the classifier cannot see"
		case stdinText:
			texts = append(texts, arg{val: c.ctx.stdin.text, known: true})
		default:
			return TierMutate, c.name + ": interactive client that can run shell commands"
		}
	}
	for _, t := range texts {
		if !t.known {
			c.e.opaque = true
			return TierDestructive, c.name + ": commands computed at run time"
		}
		l := strings.ToLower(t.val)
		if c.name == "psql" {
			if fs := psqlFileTargets(t.val); len(fs) > 0 {
				r := raiser{TierDestructive, "psql: client command writes " + truncate(fs[0], 64)}
				for _, f := range fs {
					c.writeArg(arg{val: f, known: true}, "psql client command")
				}
				c.e.scanText(t.val)
				return r.t, r.why
			}
		}
		if (c.name == "mysql" || c.name == "mariadb") && (strings.Contains(t.val, `\P`) || strings.Contains(t.val, `\T`)) {
			// mysql's short forms of pager and tee, case-sensitive
			// (psql's \p and \t only print and toggle).
			c.e.opaque = true
			c.e.scanText(t.val)
			return TierDestructive, c.name + `: client command \P or \T runs a pager or writes a file`
		}
		for _, m := range queryShellMarks {
			if strings.Contains(l, m) {
				c.e.opaque = true
				c.e.scanText(t.val)
				return TierDestructive, c.name + ": client command " + m + " can run a program or write a file"
			}
		}
		if k := sqlFileStatement(l); k != "" {
			return TierDestructive, c.name + ": " + k + " writes or reads a file the statement names"
		}
		if k := sqlDestroys(t.val); k != "" {
			return TierDestructive, c.name + ": " + k + " destroys data"
		}
		if c.name == "sqlite3" || c.name == "sqlite" {
			extra.raise(c.sqliteDotWrites(t.val))
		}
	}
	if extra.t > TierMutate {
		return extra.t, extra.why
	}
	return TierMutate, c.name + ": queries may change the database"
}

// psqlOutputCluster reports whether the short-option cluster v holds
// psql's -o or -L before any other option that takes a value.
func psqlOutputCluster(v string) bool {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for j := 1; j < len(v); j++ {
		switch {
		case v[j] == 'o' || v[j] == 'L':
			return true
		case strings.IndexByte("cdfhpUvPTFR", v[j]) >= 0:
			return false
		}
	}
	return false
}

// sqliteDotWrites checks the files sqlite3's .log, .trace and .clone
// write (a dot command begins its line) as redirections are checked, and
// reads .ar/.archive extracting (-x, --extract) as tier 3: it writes the
// files the archive names, with their modes, under any -C directory.
func (c *call) sqliteDotWrites(text string) (Tier, string) {
	var r raiser
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case ".log", ".trace", ".clone":
			if len(f) > 1 && f[1] != "stdout" && f[1] != "stderr" && f[1] != "off" {
				r.raise(c.writeArg(arg{val: strings.Trim(f[1], `"'`), known: true}, "sqlite3 "+f[0]))
			}
		case ".ar", ".archive":
			if sqliteExtracts(f[1:]) {
				r.raise(TierDestructive, "sqlite3 "+f[0]+" -x: extracts the files the archive names")
			}
		}
	}
	return r.t, r.why
}

// sqliteArchive reads sqlite3 -A (or --archive): the words after it are
// .ar's, and -Ax or an -x after it extracts.
func (c *call) sqliteArchive() (Tier, string) {
	for i, a := range c.args {
		v := a.val
		switch {
		case v == "-A" || v == "-archive" || v == "--archive":
			if sqliteExtracts(argVals(c.args[i+1:])) {
				return TierDestructive, "sqlite3 -A -x: extracts the files the archive names"
			}
		case strings.HasPrefix(v, "-A"):
			if strings.ContainsRune(v[2:], 'x') || sqliteExtracts(argVals(c.args[i+1:])) {
				return TierDestructive, "sqlite3 " + v + ": extracts the files the archive names"
			}
		}
	}
	return TierRead, ""
}

func sqliteExtracts(words []string) bool {
	for _, w := range words {
		if w == "--extract" || len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsRune(w[1:], 'x') {
			return true
		}
	}
	return false
}

// psqlPrompts classifies the commands psql's prompts run: %`cmd` in
// PROMPT1-3, set by -v/--set/--variable or \set, runs cmd each time the
// prompt is shown.
func (c *call) psqlPrompts(texts []arg) (Tier, string) {
	var vals []arg
	vals = append(vals, c.optVals(c.args, "-v", "--set", "--variable")...)
	for _, t := range texts {
		for _, line := range strings.Split(t.val, "\n") {
			f := strings.Fields(line)
			if len(f) >= 3 && f[0] == `\set` {
				vals = append(vals, arg{val: f[1] + "=" + strings.Join(f[2:], " "), known: t.known})
			}
		}
	}
	var r raiser
	for _, v := range vals {
		name, val, _ := strings.Cut(v.val, "=")
		if !strings.HasPrefix(strings.ToUpper(name), "PROMPT") {
			continue
		}
		if !v.known {
			c.e.opaque = true
			r.raise(TierDestructive, "psql "+name+": a prompt computed at run time can run commands")
			continue
		}
		for rest := val; ; {
			i := strings.Index(rest, "%`")
			if i < 0 {
				break
			}
			rest = rest[i+2:]
			cmd, after, _ := strings.Cut(rest, "`")
			c.shell(cmd, "psql prompt command", nil, false)
			r.raise(TierDestructive, "psql "+name+": the prompt runs "+truncate(cmd, 64))
			rest = after
		}
	}
	return r.t, r.why
}

// sqlComment matches SQL's comments, which may stand between any two
// words of a statement.
var sqlComment = regexp.MustCompile(`/\*[\s\S]*?\*/|--[^\n]*`)

// sqlFileStatements match, in lower-case text with comments and runs of
// blanks made one space, the statements that make the server or the
// client write or read a file named in the statement: sqlite's VACUUM
// INTO and ATTACH (which creates the file; PostgreSQL's ATTACH PARTITION
// is let through by sqlFileStatement), and PostgreSQL's server-side COPY
// to or from a file.
var sqlFileStatements = []struct {
	re   *regexp.Regexp
	name string
}{
	{regexp.MustCompile(`\bvacuum (?:[\w"\x60\[\]]+ )?into\b`), "VACUUM INTO"},
	{regexp.MustCompile(`\battach (?:database )?(?:'|"|\x60|\[|\w)`), "ATTACH"},
	{regexp.MustCompile(`\bcopy\b[^;]*?\b(?:to|from) ?(?:e ?'|'|"|\$)`), "COPY to or from a file"},
}

// pgAttachPartition matches PostgreSQL's ALTER TABLE … ATTACH PARTITION,
// which names a table, not a file.
var pgAttachPartition = regexp.MustCompile(`\battach partition [\w."]+ (?:for values|default)\b`)

// sqlFileStatement names the first statement of sqlFileStatements in
// lower-case SQL text l, or returns "".
func sqlFileStatement(l string) string {
	if !strings.Contains(l, "vacuum") && !strings.Contains(l, "attach") && !strings.Contains(l, "copy") {
		return ""
	}
	n := strings.Join(strings.Fields(sqlComment.ReplaceAllString(l, " ")), " ")
	n = pgAttachPartition.ReplaceAllString(n, "")
	for _, f := range sqlFileStatements {
		if f.re.MatchString(n) {
			return f.name
		}
	}
	return ""
}

// mysqlAbbrevFile reports whether v is an abbreviation, as MariaDB's
// my_getopt takes any unambiguous prefix, of a mysql option that writes a
// file, runs a program or loads a plugin: --te for --tee, --pag for
// --pager, --plugin-d for --plugin-dir, --default-a for --default-auth.
func mysqlAbbrevFile(v string) bool {
	name, _, _ := strings.Cut(v, "=")
	for _, o := range []struct {
		long string
		min  int
	}{{"--tee", 4}, {"--pager", 5}, {"--plugin-dir", 10}, {"--default-auth", 11}} {
		if len(name) >= o.min && strings.HasPrefix(o.long, name) {
			return true
		}
	}
	return false
}

// psqlFileRe finds psql's meta-commands that write the file they name: \o
// and \out (query output), \w and \write (the query buffer), \s (the
// history), \g and \gx (one query's output) and \copy … to FILE.
var psqlFileRe = regexp.MustCompile(`\\(?:o|out|w|write|s|g|gx)[ \t]+([^\s|\\][^\s\\]*)|(?i)\\copy\b[^\\]*?\bto[ \t]+'?([^\s'|\\][^\s'\\]*)`)

// psqlFileTargets returns the files psql's meta-commands in text write
// ('|cmd' targets are programs, which the shell marks catch).
func psqlFileTargets(text string) []string {
	var out []string
	for _, m := range psqlFileRe.FindAllStringSubmatch(text, -1) {
		for _, f := range m[1:] {
			if f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}
