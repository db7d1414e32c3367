package policy

// Shell variables: assignments before a command or alone, export,
// declare, local, readonly and typeset, and the environment of a call.

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ifsForRead reports whether a gives IFS to the read builtin alone
// (IFS= read -r line, IFS=: read -r user rest). bash, dash and busybox sh
// keep it only while read splits its input, whose fields are unknown
// anyway, so it changes no word the classifier reads later. A function
// named read would run with it, so then it counts as any IFS assignment.
func ifsForRead(a *syntax.Assign, ce *syntax.CallExpr, sc *scope) bool {
	if a.Name == nil || a.Name.Value != "IFS" || a.Naked || a.Append || a.Index != nil || a.Array != nil || len(ce.Args) == 0 {
		return false
	}
	w := ce.Args[0]
	if len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && l.Value == "read" && !sc.shadowed("read")
}

// assign classifies a shell variable assignment, before a command or alone.
func (e *eval) assign(a *syntax.Assign, ctx cctx, sc *scope, alone bool) {
	if a.Value != nil {
		e.subst(a.Value, ctx, sc)
	}
	if a.Array != nil {
		e.subst(a.Array, ctx, sc)
		for _, el := range a.Array.Elems {
			if el.Value != nil {
				e.expandedWords([]*syntax.Word{el.Value}, ctx, sc)
			}
		}
	}
	if a.Index != nil {
		e.subst(a.Index, ctx, sc)
	}
	if a.Name == nil {
		return
	}
	e.assignArith(a, false, ctx, sc)
	val, known := "", false
	if a.Value != nil {
		r := resolver{e: e, ctx: ctx, sc: sc}
		v := r.lit(a.Value)
		val, known = v.val, v.known
	}
	where := "assignment before a command"
	if alone {
		where = "assignment"
	}
	e.dirVar(a.Name.Value, arg{val: val, known: known})
	if a.Value != nil {
		// x=$HOME/.local/state/warden/token; cat "$x": a value known only
		// in part is no literal the later "$x" can be tried with.
		e.pathWord(arg{val: val, known: known}, ctx, "")
	}
	if !known {
		if a.Name.Value == "PATH" && a.Value != nil {
			e.wordPathValues(a.Value, sc)
		}
		e.unknownVar(a.Name.Value, ctx, where)
		// X=--to-command=reboot; TAR_OPTIONS=$X tar: the values the
		// script gives X elsewhere are what TAR_OPTIONS may hold.
		e.boundValues(a.Value, ctx, sc, func(v string) { e.envVarCtx(a.Name.Value, v, ctx, where) })
		return
	}
	e.envVarCtx(a.Name.Value, val, ctx, where)
}

// boundValues calls f with each value w takes under the trial bindings
// of the variables it uses (scope.bindings): the literal values the
// script assigns them. Like a command's trial readings, these only add
// findings; the unbound reading has already counted what is unknown.
func (e *eval) boundValues(w *syntax.Word, ctx cctx, sc *scope, f func(string)) {
	if w == nil {
		return
	}
	for _, bind := range sc.bindings([]*syntax.Word{w}) {
		r := resolver{e: e, ctx: ctx, sc: sc, bind: bind}
		if v := r.lit(w); v.known {
			f(v.val)
		}
	}
}

// unknownVar classifies setting name to a value known only at run time:
// the name alone decides, whether an assignment or read, printf -v,
// mapfile, for or ${NAME:=…} sets it (read BORG_RSH; borg list runs what
// was read, as BORG_RSH=$(cat f) borg list does).
func (e *eval) unknownVar(name string, ctx cctx, where string) {
	e.envName(name, ctx, where)
	e.unknownProxyVar(name, ctx, where)
	e.tempDirVar(name, "", false, ctx, where)
	e.busAddressVar(name, "", false, ctx, where)
	e.libvirtVar(name, "", false, ctx, where)
	e.clientVar(name, "", false, ctx, where)
	e.backupVar(name, "", false, ctx, where)
	e.toolchainVar(name, "", false, ctx, where)
	e.projectVar(name, "", false, ctx, where)
	e.localeVar(name, "", false, ctx, where)
}

// boundNameMatters reports whether setting name, to a value known only at
// run time, is a finding of unknownVar or dirVar: for arithmetic text
// (let "PATH=1", [[ HOME=1 -eq 1 ]]), which assigns the names it sets
// where the context to note a finding in is not at hand. It follows the
// checks unknownVar makes, by name.
func boundNameMatters(name string) bool {
	if t, _ := envRisk(name); t > TierRead {
		return true
	}
	return shellValued[name] || tempDirs[name] || cacheDirVars[name] || busAddressVars[name] || libvirtURIVars[name] ||
		backupRepoVars[name] || proxyVarName(name) || endpointVar(name) || resolverVars[name] || toolchainVersionVars[name] ||
		toolchainPlaceVars[name] || projectVars[name] || name == "LANGUAGE" || name == "OLDPWD" || name == "DIRSTACK" ||
		(strings.HasPrefix(name, "ASDF_") || strings.HasPrefix(name, "MISE_") || strings.HasPrefix(name, "RTX_")) && strings.HasSuffix(name, "_VERSION")
}

// dirVar takes a value given to OLDPWD or DIRSTACK as a directory the
// input can make current: cd -, cd ~- and popd go there, so
// OLDPWD=/etc/warden; cd -; cat config.yaml reads warden's config. A value
// known only at run time makes the current directory unknown.
func (e *eval) dirVar(name string, v arg) {
	if name != "OLDPWD" && name != "DIRSTACK" {
		return
	}
	ps := e.pathsFor()
	if ps == nil {
		return
	}
	if d, ok := knownDir(v); ok && !(v.glob && isPattern(v.val)) && d != "" {
		ps.addCd(arg{val: d, known: true})
		return
	}
	ps.cdUnknown = true
}

// decl classifies export, declare, local, readonly and typeset.
func (e *eval) decl(d *syntax.DeclClause, ctx cctx, sc *scope) {
	e.declArith(d, ctx, sc)
	// declare -p NAME prints the variable; with -p, bash ignores the
	// other attribute options given with names.
	printOnly := (d.Variant.Value == "declare" || d.Variant.Value == "typeset") && strings.ContainsRune(declFlags(d), 'p')
	for _, a := range d.Args {
		if a.Naked && a.Name == nil {
			if a.Value != nil {
				e.subst(a.Value, ctx, sc)
				e.quotedDecl(d, a.Value, printOnly, ctx, sc)
			}
			continue
		}
		if a.Naked {
			if (!printOnly || a.Index != nil) && !plainLessValues(a.Name.Value, sc) {
				e.envName(a.Name.Value, ctx, d.Variant.Value)
			}
			continue
		}
		e.assign(a, ctx, sc, true)
		if d.Variant.Value != "local" && a.Value != nil {
			// export X=/sbin/reboot: the programs after it get it.
			r := resolver{e: e, ctx: ctx, sc: sc}
			if v := r.lit(a.Value); v.known {
				e.deniedProgramValue(a.Name.Value, v.val, d.Variant.Value)
			}
		}
	}
	e.note(TierRead, false, "%s", d.Variant.Value)
}

// quotedDecl reads a declaration's argument that the parser leaves as a
// plain word because it is quoted or escaped in part: bash splits
// export "PAGER=reboot", declare -x 'LD_PRELOAD=/x.so' and export
// PAG""ER=x at the first "=" after expanding the word, so the name is set
// as an unquoted assignment would set it. A word without "=" names a
// variable as a bare name does (export "PAGER").
func (e *eval) quotedDecl(d *syntax.DeclClause, w *syntax.Word, printOnly bool, ctx cctx, sc *scope) {
	r := resolver{e: e, ctx: ctx, sc: sc}
	if hasBrace(w) {
		// Not an assignment word to the parser, so bash brace-expands
		// it and the builtin reads each field: export LD_{PRELOAD,X}=/x.so
		// sets LD_PRELOAD (declbraces.go).
		e.bracedDecl(d, r.appendFields(nil, w), printOnly, ctx)
		return
	}
	v := r.lit(w)
	e.declField(d, v, printOnly, ctx)
	if !v.known {
		e.boundValues(w, ctx, sc, func(val string) { e.declField(d, arg{val: val, known: true}, printOnly, ctx) })
	}
}

// declField classifies one field of a declaration's argument.
func (e *eval) declField(d *syntax.DeclClause, v arg, printOnly bool, ctx cctx) {
	if !v.known || v.val == "" || v.val[0] == '-' || v.val[0] == '+' {
		return // options; a word known only at run time is declArith's
	}
	name, val, hasVal := strings.Cut(v.val, "=")
	name = strings.TrimSuffix(name, "+")
	if i := strings.IndexByte(name, '['); i > 0 {
		name = name[:i]
	}
	if !validName(name) {
		// bash refuses it and sets nothing; RouterOS's shell, an ssh host
		// too, takes export show-sensitive file=x as writing its
		// configuration, secrets included, to flash.
		if d.Variant.Value == "export" {
			e.note(TierMutate, false, "export %s: no shell variable name; a router's export writes its configuration to a file", truncate(v.val, 64))
		}
		return
	}
	where := d.Variant.Value
	if !hasVal {
		if !printOnly {
			e.envName(name, ctx, where)
		}
		return
	}
	e.dirVar(name, arg{val: val, known: true})
	e.scanText(val)
	e.envVarCtx(name, val, ctx, where)
}

// envVar classifies a per-call environment variable.
func (e *eval) envVar(name, val string, covered bool, where string) {
	e.scanText(val)
	e.envVarCtx(name, val, cctx{covered: covered}, where)
}

func (e *eval) envVarCtx(name, val string, ctx cctx, where string) {
	if (name != "KUBECONFIG" || !e.trustedKubeconfigs(val)) && !gitTraceNoFile(name, val) && !plainLessOptions(name, val) {
		e.envName(name, ctx, where)
	}
	e.noteCodeValue(name, val)
	e.proxyVar(name, val)
	e.resolverVar(name, val, ctx)
	e.tempDirVar(name, val, true, ctx, where)
	e.fileVar(name, val, ctx, where)
	e.busAddressVar(name, val, true, ctx, where)
	e.libvirtVar(name, val, true, ctx, where)
	e.clientVar(name, val, true, ctx, where)
	e.backupVar(name, val, true, ctx, where)
	e.toolchainVar(name, val, true, ctx, where)
	e.projectVar(name, val, true, ctx, where)
	e.localeVar(name, val, true, ctx, where)
	e.rootVar(name, val, ctx, where)
	e.optionVar(name, val, ctx, where)
	if val == "" {
		return
	}
	if shellValued[name] || commandVar(name) {
		ctx.nest++
		e.script(val, ctx, name)
		return
	}
	if promptVars[name] {
		// The shell expands a prompt as a double-quoted word each time it
		// shows it (PS4 on every traced command): its $(…) run.
		ctx.nest++
		e.script(`: "`+strings.ReplaceAll(val, `"`, `\"`)+`"`, ctx, name)
		return
	}
	if where != "assignment" {
		e.deniedProgramValue(name, val, where)
		e.writtenFileValue(val, ctx)
	}
}

// promptVars are bash's and zsh's prompt strings.
var promptVars = set(`PS0 PS1 PS2 PS3 PS4 PROMPT RPROMPT RPS1`)

// writtenFileValue meets the deny list with the literal text the script
// wrote to the file a variable given to a command names
// (AUTOM4TE=/tmp/x autoconf runs /tmp/x): the program that reads the
// variable may run it.
func (e *eval) writtenFileValue(val string, ctx cctx) {
	if ctx.sc == nil || !strings.HasPrefix(val, "/") && !strings.HasPrefix(val, ".") {
		return
	}
	for _, t := range ctx.sc.fileTexts(path.Clean(val)) {
		e.scanText(t)
	}
}

// tempDirs are the variables naming where programs create their
// temporary files (mktemp, sort, Python's tempfile and many more).
var tempDirs = set(`TMPDIR TMP TEMP TEMPDIR`)

// cacheDirVars are the directories readers create and write their caches,
// locks and keys in: restic snapshots and borg list write there as a
// --cache-dir would make them, helm template and show download a chart
// named by repository into HELM_REPOSITORY_CACHE as into its
// --repository-cache, and readelf and objdump (with
// DEBUGINFOD_URLS set, as distributions set it) write the debug files
// they fetch under DEBUGINFOD_CACHE_PATH.
var cacheDirVars = set(`RESTIC_CACHE_DIR BORG_CACHE_DIR BORG_CONFIG_DIR BORG_SECURITY_DIR BORG_BASE_DIR
	XDG_CACHE_HOME KUBECACHEDIR HELM_CACHE_HOME HELM_REPOSITORY_CACHE DEBUGINFOD_CACHE_PATH`)

// tempDirVar raises setting a temporary-directory variable to anything
// but a directory under /tmp or /var/tmp (or a value known only at run
// time): the programs after it create files there, so TMPDIR=/etc/cron.d
// sort turns a read into writes of the caller's choosing.
func (e *eval) tempDirVar(name, val string, known bool, ctx cctx, where string) {
	if !tempDirs[name] && !cacheDirVars[name] || known && (tmpPath(val) || path.Clean(val) == "/tmp" || path.Clean(val) == "/var/tmp") {
		return
	}
	if !known {
		val = "a value known only at run time"
	}
	e.note(TierMutate, ctx.covered, "%s sets %s to %s: programs create their temporary files there", where, name, truncate(val, 64))
}

// fileVar checks the path a variable naming a file programs write holds as
// a redirection's target: nstat truncates and rewrites its history file
// (and -r removes it), so NSTAT_HISTORY=/etc/passwd nstat is tier 3 as
// > /etc/passwd is, and a block device or warden's own state is denied.
// Only a path is a file: GIT_TRACE=1 names none.
func (e *eval) fileVar(name, val string, ctx cctx, where string) {
	// TAPE is read or written as tar's mode says; its handler checks it.
	if t, _ := envRisk(name); t != TierMutate || name == "TAPE" || tempDirs[name] || cacheDirVars[name] || contextEnv[name] {
		return
	}
	if name == "DEPENDENCIES_OUTPUT" || name == "SUNPRO_DEPENDENCIES" {
		val, _, _ = strings.Cut(val, " ") // FILE TARGET
	}
	if name == "KRB5CCNAME" {
		// TYPE:RESIDUAL: a FILE: or DIR: cache is a path kinit writes.
		if t, rest, ok := strings.Cut(val, ":"); ok && (t == "FILE" || t == "DIR") {
			val = rest
		}
	}
	if !strings.HasPrefix(val, "/") {
		return
	}
	wt, why, deny := e.writeTarget(arg{val: val, known: true})
	if deny != "" {
		e.deny(where + " sets " + name + ": " + deny)
		return
	}
	if wt > TierMutate {
		e.note(wt, ctx.covered, "%s sets %s: %s", where, name, why)
	}
}

// boundName classifies a variable that is set by its name rather than by
// an assignment word: read NAME, printf -v NAME, mapfile NAME, getopts
// S NAME, wait -p NAME, for/select NAME, coproc NAME, exec {NAME}>,
// ${NAME:=…} and the target of a nameref. read PATH <<< /tmp; ls runs
// /tmp/ls as surely as PATH=/tmp ls, so the name decides as it does for
// an assignment. A subscript names the array (BASH_CMDS[ls]).
func (e *eval) boundName(a arg, ctx cctx, what string) {
	if !a.known {
		return // nameArg has counted a name computed at run time
	}
	name, _, _ := strings.Cut(a.val, "[")
	if validName(name) {
		e.unknownVar(name, ctx, what)
		e.dirVar(name, arg{}) // read OLDPWD: a value known only at run time
	}
}

// envName classifies setting a variable by its name.
func (e *eval) envName(name string, ctx cctx, where string) {
	if t, why := envRisk(name); t > TierRead {
		e.note(t, ctx.covered, "%s sets %s: %s", where, name, why)
	} else if ctx.zsh && zshTables[name] {
		e.note(TierDestructive, ctx.covered, "%s sets %s: zsh's table of functions, aliases, commands, options or files", where, name)
	}
}

// hereNames checks the here-document or here-string a compound command
// reads for warden's paths, line by line as words: the text is data to a
// program (cat <<< /etc/… prints it), but read in a loop or block hands
// its lines to commands (while read f; do cat "$f"; done <<< /etc/…).
func (e *eval) hereNames(c syntax.Command, ctx cctx) {
	if !ctx.stdinRd || ctx.stdin.kind != stdinText || ctx.stdin.text == "" || e.pathsFor() == nil {
		return
	}
	switch c.(type) {
	case *syntax.WhileClause, *syntax.Block, *syntax.Subshell, *syntax.IfClause, *syntax.ForClause, *syntax.CaseClause:
	default:
		return
	}
	text := ctx.stdin.text
	for n := 0; text != "" && n < maxRelWords; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		if line != "" {
			// A glob too: $f unquoted expands the pattern read.
			e.pathWord(arg{val: line, known: true, glob: true}, ctx, "")
		}
		text = rest
	}
}

// gitTraceNoFile reports whether a GIT_TRACE* value names no file: git
// takes "", 0 and false as off, and 1, 2 and true as standard error;
// only an absolute path (or af_unix:, a socket) is a file it writes.
func gitTraceNoFile(name, val string) bool {
	if !strings.HasPrefix(name, "GIT_TRACE") {
		return false
	}
	switch strings.ToLower(val) {
	case "", "0", "false", "1", "2", "true":
		return true
	}
	return false
}
