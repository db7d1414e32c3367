package policy

import (
	"slices"
	"strconv"
	"strings"

	"github.com/warden-mcp/warden/internal/shellword"
)

// xargsLongOpts are GNU xargs's long options, for reading abbreviations;
// xargsLongValues those that take the next word as their value.
var xargsLongOpts = []string{"--arg-file", "--delimiter", "--eof", "--exit", "--help", "--interactive",
	"--max-args", "--max-chars", "--max-lines", "--max-procs", "--no-run-if-empty", "--null", "--open-tty",
	"--process-slot-var", "--replace", "--show-limits", "--verbose", "--version"}

var xargsLongValues = set(`--arg-file --delimiter --max-args --max-chars --max-procs --process-slot-var`)

// xargsProgram classifies xargs: the command it runs, with arguments from
// its input that cannot be known.
func xargsProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	repl, procs := "", ""
	argFile, delim, argPath := false, "", ""
	for i < len(args) {
		v := args[i].val
		if !args[i].known {
			return c.unreadableArgs()
		}
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, has := strings.Cut(v, "=")
			name = longOpt(name, xargsLongOpts)
			if xargsLongValues[name] && !has && i+1 < len(args) {
				// --arg-file FILE: the value is the next word.
				i++
				val = args[i].val
			}
			switch name {
			case "--max-procs":
				procs = val
			case "--replace":
				repl = "{}"
				if has && val != "" {
					repl = val
				}
			case "--arg-file":
				argFile, argPath = true, val
			case "--null":
				delim = "\x00"
			case "--delimiter":
				delim = val
			case "--process-slot-var":
				// Each child gets the variable set to its slot number
				// (0, 1, …) before xargs looks its command up: PATH=0
				// runs ./0/ls for ls, BASH_ENV=0 sources ./0. The name
				// decides as in env NAME=0.
				c.e.envVarCtx(val, "0", c.ctx, "xargs --process-slot-var")
			}
			i++
			continue
		}
	cluster:
		for j := 1; j < len(v); j++ {
			switch f := v[j]; f {
			case 'a', 'd', 'E', 'L', 'n', 'P', 's', 'I':
				val := v[j+1:]
				if val == "" {
					i++
					if i < len(args) {
						val = args[i].val
					}
				}
				switch f {
				case 'P':
					procs = val
				case 'I':
					repl = val
				case 'a':
					argFile, argPath = true, val
				case 'd':
					delim = val
				}
				break cluster
			case '0':
				delim = "\x00"
			case 'i':
				repl = "{}"
				if j+1 < len(v) {
					repl = v[j+1:]
				}
				break cluster
			case 'e', 'l':
				break cluster
			}
		}
		i++
	}
	if i >= len(args) {
		return TierRead, "xargs: echoes its input"
	}
	if manyJobs(procs) {
		c.e.note(TierDestructive, c.ctx.covered, "xargs -P %s: runs as many commands at once as its input holds, which can fill the process table", procs)
	}
	cmd := append([]arg(nil), args[i:]...)
	stdin := c.ctx.stdin
	if ts := c.ctx.sc.fileTexts(argPath); argFile && len(ts) > 0 {
		// xargs -a <(echo …), or a file the script wrote: known text.
		stdin, argFile = stdinSrc{kind: stdinText, text: ts[len(ts)-1]}, false
	}
	if in, ok := xargsInput(stdin, argFile, delim, repl != ""); ok {
		// The input is known text (echo 0 | xargs init): run the
		// command with it.
		if c.runWithInput(cmd, in, repl, false) {
			return TierRead, "xargs"
		}
	}
	if !argFile && stdin.kind != stdinText {
		// Texts the unknown input may be (echo /* prints what the
		// pattern matches; x=/usr; echo "$x"): the command with each
		// as well, a pattern read as one.
		for _, alt := range stdin.alts {
			if in, ok := xargsInput(stdinSrc{kind: stdinText, text: alt}, false, delim, repl != ""); ok {
				c.runWithInput(cmd, in, repl, true)
			}
		}
	}
	if repl != "" {
		for k := range cmd {
			if strings.Contains(cmd[k].val, repl) {
				cmd[k] = arg{val: cmd[k].val}
			}
		}
	} else {
		cmd = append(cmd, unknownArg)
	}
	c.run(cmd)
	if removesEach(cmd) {
		return TierDestructive, "xargs rm: removes every file its input names"
	}
	return TierRead, "xargs"
}

// runWithInput runs xargs's command cmd with the fields of its input,
// appended or put in place of repl, one command per line with repl. A
// field with a glob character is read as a pattern when globs is set. It
// reports whether every line was tried.
func (c *call) runWithInput(cmd []arg, in []string, repl string, globs bool) bool {
	field := func(v string) arg {
		return arg{val: v, known: true, glob: globs && strings.ContainsAny(v, "*?[")}
	}
	if repl == "" {
		run := slices.Clip(cmd)
		for _, f := range in {
			run = append(run, field(f))
		}
		c.run(run)
		return true
	}
	for k, line := range in {
		if k >= maxAlts {
			break
		}
		sub := make([]arg, len(cmd))
		for j, a := range cmd {
			sub[j] = a
			if strings.Contains(a.val, repl) {
				sub[j] = field(strings.ReplaceAll(a.val, repl, line))
				sub[j].known = a.known
			}
		}
		c.run(sub)
	}
	return len(in) <= maxAlts
}

// manyJobs reports whether a count of jobs to run at once is unbounded
// (0, as xargs -P and parallel -j read it) or past maxLoopForks.
func manyJobs(v string) bool {
	if v == "" {
		return false
	}
	if strings.Trim(v, "0123456789") != "" {
		return false // parallel's +N, -N, N% and files are relative to the processors
	}
	n, err := strconv.Atoi(v)
	return err != nil || n == 0 || n > maxLoopForks // too long to count is past it too
}

// xargsInput splits known standard input the way xargs would: lines with
// -I, the delimiter with -d or -0, otherwise blank-separated words with
// quotes and backslashes removed. ok is false when the input is unknown.
func xargsInput(in stdinSrc, argFile bool, delim string, lines bool) ([]string, bool) {
	if argFile || in.kind != stdinText {
		return nil, false
	}
	text := in.text
	switch {
	case delim != "":
		d := ansiC(delim)
		if d == "" {
			return nil, false
		}
		var out []string
		for _, f := range strings.Split(strings.TrimSuffix(text, "\n"), d[:1]) {
			if f != "" {
				out = append(out, f)
			}
		}
		return out, true
	case lines:
		var out []string
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimLeft(l, " \t"); l != "" {
				out = append(out, l)
			}
		}
		return out, true
	}
	var out []string
	var b strings.Builder
	have := false
	quote := byte(0)
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else {
				b.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, have = ch, true
		case ch == '\\' && i+1 < len(text):
			i++
			b.WriteByte(text[i])
			have = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if have {
				out = append(out, b.String())
				b.Reset()
				have = false
			}
		default:
			b.WriteByte(ch)
			have = true
		}
	}
	if have {
		out = append(out, b.String())
	}
	return out, true
}

// parallelValued are GNU parallel's options that take the next word as
// their value (it also reads "--opt=value" and unique abbreviations).
var parallelValued = set(`-j -S -P -n -N -L -l -s -E -I -a -C -d -J --jobs --sshlogin --results --res --joblog
	--delay --timeout --tmpdir --tempdir --workdir --wd --arg-file --colsep --delimiter --halt --nice
	--retries --termseq --tagstring --ctagstring --rpl --filter --limit --ssh --sshloginfile --slf
	--basefile --bf --transferfile --tf --return --env --sqlmaster --sqlworker --sqlandworker
	--compress-program --decompress-program --load --memfree --memsuspend --block --recstart --recend
	--header --max-args --max-replace-args --max-lines --max-chars --replace --extensionreplace --er
	--basenamereplace --bnr --dirnamereplace --dnr --seqreplace --slotreplace --profile --sshdelay
	--ssh-delay --hostgroups --total-jobs`)

// parallelLong are the long options parallelOption acts on, for reading
// abbreviations (Getopt::Long takes any unique prefix).
var parallelLong = []string{"--joblog", "--results", "--tmpdir", "--tempdir", "--tmux", "--tmuxpane", "--filter",
	"--rpl", "--compress-program", "--decompress-program", "--limit", "--ssh", "--sqlmaster", "--sqlworker",
	"--sqlandworker", "--semaphore", "--record-env", "--sshlogin", "--arg-file", "--workdir", "--wd"}

// parallelOption classifies what one of parallel's own options does
// beside running the template: files it writes, code it runs.
func (c *call) parallelOption(name string, v arg, r *raiser) {
	what := "parallel " + name
	switch longOpt(name, parallelLong) {
	case "--joblog", "--results", "--res":
		r.raise(c.writeArg(v, what))
	case "--tmpdir", "--tempdir":
		if !v.known || !tmpPath(v.val) && v.val != "/tmp" && v.val != "/var/tmp" {
			r.raise(TierMutate, what+": writes its temporary files in "+truncate(v.val, 64))
		}
	case "--tmux", "--tmuxpane":
		r.raise(TierDestructive, what+": starts a tmux server that outlives the command")
	case "--filter", "--rpl":
		r.raise(TierDestructive, what+": runs Perl code")
	case "--compress-program", "--decompress-program", "--limit", "--ssh":
		r.raise(c.shellArg(v, what))
	case "--sqlmaster", "--sqlworker", "--sqlandworker":
		r.raise(TierMutate, what+": writes a database")
	case "--semaphore", "--record-env":
		r.raise(TierMutate, what+": keeps state in ~/.parallel")
	}
}

// parallelProgram classifies GNU parallel, which runs its template through
// a shell once per input.
func parallelProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	remote := false
	var r raiser
	var argFiles []arg // -a FILE, --arg-file FILE and the words after ::::
	for i < len(args) && strings.HasPrefix(args[i].val, "-") && args[i].val != "--" {
		a := args[i]
		name, val, hasVal := strings.Cut(a.val, "=")
		if !strings.HasPrefix(name, "--") {
			name, val, hasVal = a.val, "", false
		}
		if name == "-S" || longOpt(name, parallelLong) == "--sshlogin" {
			remote = true
		}
		v := arg{val: val, known: a.known}
		if !hasVal && (parallelValued[name] || parallelValued[longOpt(name, parallelLong)]) {
			i++
			if i < len(args) {
				v = args[i]
			}
		}
		if name == "-a" || longOpt(name, parallelLong) == "--arg-file" {
			argFiles = append(argFiles, v)
		}
		if l := longOpt(name, parallelLong); (l == "--workdir" || l == "--wd") && v.val != "..." && v.val != "." {
			c.e.chdirOpt([]arg{v}, 0, v.val, true) // the jobs run there
		}
		jobs := ""
		switch {
		case name == "-j" || name == "-P" || strings.HasPrefix(name, "--") && (longOpt(name, parallelLong) == "--jobs" || longOpt(name, parallelLong) == "--max-procs"):
			jobs = v.val
		case len(name) > 2 && (name[1] == 'j' || name[1] == 'P') && name[0] == '-' && name[2] != '-':
			jobs = name[2:]
		}
		if manyJobs(jobs) {
			r.raise(TierDestructive, "parallel -j "+jobs+": runs as many commands at once as its input holds, which can fill the process table")
		}
		c.parallelOption(name, v, &r)
		i++
	}
	if i < len(args) && args[i].val == "--" {
		i++
	}
	var tmpl []string
	var inputs []string
	var groups [][]string // the values of each ::: source, in order
	sawSep, fromFiles, unknown := false, false, false
	for _, a := range args[min(i, len(args)):] {
		if strings.HasPrefix(a.val, ":::") {
			// :::: (and ::::+) names files whose lines are the values.
			sawSep, fromFiles = true, strings.HasPrefix(a.val, "::::")
			if !fromFiles {
				groups = append(groups, nil)
			}
			continue
		}
		if !a.known {
			unknown = true
		}
		switch {
		case sawSep && fromFiles:
			argFiles = append(argFiles, a)
		case sawSep:
			inputs = append(inputs, a.val)
			groups[len(groups)-1] = append(groups[len(groups)-1], a.val)
		default:
			tmpl = append(tmpl, a.val)
		}
	}
	if unknown {
		c.e.opaque = true
		return TierDestructive, "parallel: command computed at run time"
	}
	template := strings.Join(tmpl, " ")
	if template == "" {
		// With no command, each input is a command: the words after :::
		// (one from each source, joined), each line of an -a or ::::
		// file, or each line of standard input.
		r.raise(c.parallelInputCommands(groups, argFiles))
		return r.t, r.why
	}
	run := func(v string, known bool) {
		q := `"$__warden_unknown_input"`
		if known {
			q = shellword.Quote(v)
		}
		text := template + " " + q
		if strings.Contains(template, "{}") {
			text = strings.ReplaceAll(template, "{}", q)
		}
		c.loginShell(text, "parallel command")
	}
	if !sawSep || len(argFiles) > 0 {
		inputs = nil // some values come from a file the classifier cannot read
	}
	if !sawSep && len(argFiles) == 0 {
		// The lines of its standard input: known text, or the texts
		// unknown input may be (echo / | parallel rm -rf {}).
		texts := c.ctx.stdin.alts
		if c.ctx.stdin.kind == stdinText {
			texts = []string{c.ctx.stdin.text}
		}
		for _, t := range texts {
			for l := range strings.SplitSeq(t, "\n") {
				if l != "" && len(inputs) <= maxAlts {
					inputs = append(inputs, l)
				}
			}
		}
		if c.ctx.stdin.kind != stdinText && len(inputs) > 0 {
			run("", false)
		}
	}
	if len(inputs) == 0 {
		run("", false)
	}
	for k, v := range inputs {
		if k >= maxAlts {
			run("", false)
			break
		}
		run(v, true)
	}
	if remote {
		r.raise(TierMutate, "parallel: runs commands on other hosts")
	}
	if r.t > TierRead {
		return r.t, r.why
	}
	return TierRead, "parallel"
}

// parallelInputCommands classifies the commands GNU parallel runs when it
// is given no command: every combination of the ::: values, joined by
// spaces, and every line of its input files or standard input.
func (c *call) parallelInputCommands(groups [][]string, files []arg) (Tier, string) {
	for _, f := range files {
		if f.known && f.val == "-" {
			continue
		}
		c.e.opaque = true
		return TierDestructive, "parallel: runs each line of " + truncate(f.val, 64) + " as a command"
	}
	if len(groups) == 0 {
		return c.stdinProgram("parallel")
	}
	cmds := []string{""}
	for _, g := range groups {
		var next []string
		for _, prefix := range cmds {
			for _, v := range g {
				next = append(next, strings.TrimPrefix(prefix+" "+v, " "))
			}
		}
		if len(next) > maxAlts {
			c.e.opaque = true
			return TierDestructive, "parallel: runs more input commands than the classifier reads"
		}
		cmds = next
	}
	for _, x := range cmds {
		c.loginShell(x, "parallel input command")
	}
	if len(files) > 0 {
		return c.stdinProgram("parallel")
	}
	return TierRead, "parallel"
}
