package policy

import (
	"fmt"
	"path"
	"strings"
)

// The program in command position: a function, builtin, known program,
// or an unknown one, and what each is taken to do.

// program resolves the program in command position and classifies it.
func (e *eval) program(args []arg, ctx cctx) (t Tier, why string) {
	a0, fn := args[0], e.fnCall
	e.fnCall = false // a wrapper's command looked up below is a program
	// A glob in command position runs whatever it expands to, literal or
	// not: /tmp/x/reb??t is reboot if such a file exists.
	if a0.glob && isPattern(a0.val) {
		e.opaque = true
		// What it matches here is read as a program named by path is.
		for _, m := range e.globPrograms(a0.val) {
			if _, _, ok := e.localProgram(append([]arg{{val: m, known: true}}, args[1:]...), false, ctx); ok && e.denied {
				break
			}
		}
		if name, ok := globMatchesDanger(a0.val); ok {
			vals := argVals(args[1:])
			if why := denyCheck(name, vals); why != "" {
				e.deny(why + " (via glob " + a0.val + ")")
			}
			return TierDestructive, fmt.Sprintf("glob %q in command position could run %s", a0.val, name)
		}
		return TierDestructive, fmt.Sprintf("glob %q in command position", a0.val)
	}
	if !a0.known {
		e.opaque = true
		// An empty expansion vanishes and the next word becomes the
		// program: "$EMPTY reboot" runs reboot.
		if len(args) > 1 {
			e.simple(args[1:], ctx, "")
		}
		return TierDestructive, fmt.Sprintf("program name %q is computed at run time", truncate(a0.val, 64))
	}
	if a0.val == "" {
		return TierRead, "empty command"
	}
	if historyWord(a0.val) {
		return TierDestructive, "history expansion " + truncate(a0.val, 32) + " re-runs an earlier command"
	}
	if len(a0.val) > 1 && a0.val[0] == '=' {
		// zsh expands =NAME to NAME's path (EQUALS): =reboot runs
		// reboot. Elsewhere no program has such a name.
		a0.val = a0.val[1:]
		args = append([]arg{a0}, args[1:]...)
	}
	ent, known := knownPrograms[path.Base(a0.val)]
	if !fn {
		if t, why, ok := e.localProgram(args, known || knownName(path.Base(a0.val)), ctx); ok {
			return t, why
		}
	}
	if !known && !fn {
		if t, why, ok := e.foldedProgram(args, ctx); ok {
			return t, why
		}
	}
	if !known {
		ent.name, ent.h = normalised(path.Base(a0.val))
	}
	name, h := ent.name, ent.h
	if !fn {
		e.noteDaemonClient(ent.daemon || !known && daemonClients[name], name, a0.val, args[1:])
		e.noteLoader(name, false)
	}
	c := e.pushCall()
	defer e.popCall()
	*c = call{e: e, name: name, path: a0.val, args: args[1:], ctx: ctx}
	e.unreadArgs(c)
	if why := denyCheck(name, c.vals()); why != "" && !c.listsOnly() {
		e.deny(why)
		return TierDestructive, why
	}
	if why := c.emptyVarsDeny(false); why != "" && !c.listsOnly() {
		e.deny(why)
		return TierDestructive, why
	}
	c.laterDenied()
	if !fn {
		if jt, jwhy := c.jvmOptions(); jt == TierDestructive {
			if e.denied {
				return jt, jwhy
			}
			defer func() {
				if t < TierDestructive {
					t, why = jt, jwhy
				}
			}()
		}
	}
	if !fn && routerOSPrint(a0, args[1:]) {
		return TierRead, "on RouterOS, prints a menu's items (elsewhere no program is kept there)"
	}
	if !fn && a0.known && rootProgram(a0.val) {
		return c.unknownProgram(TierMutate, "runs "+truncate(a0.val, 64)+": no system keeps programs directly under /, "+
			"so it is not the "+name+" its name says (on RouterOS, a menu command: /file remove, /ip service disable)")
	}
	if strings.IndexByte(a0.val, '/') >= 0 && !fn {
		if where := c.agentProgram(); where != "" {
			e.opaque = true
			return TierDestructive, "runs " + truncate(a0.val, 64) + ", which " + where + ": whatever a benign call wrote there, not the " + name + " its name says"
		}
		if initScript(a0.val) {
			h = initScriptHandler(h, ent.tierWhy, known)
		} else if fwhy := foreignProgram(a0.val); fwhy != "" {
			// Its name still meets the deny rules (above); what it
			// does is a file's, not a reader's.
			defer func() {
				if t < TierMutate {
					t, why = TierMutate, fwhy
				}
			}()
		}
	}
	if h != nil {
		t, why := h(c)
		if t < TierDestructive { // a raw program's tier 2 forms too (ifconfig eth0 $x)
			if ct, cwhy := c.computedArgs(); ct > t {
				t, why = ct, cwhy
			}
		}
		if t < TierDestructive {
			if ct, cwhy := c.denyComputed(); ct > t {
				t, why = ct, cwhy
			}
		}
		if !e.denied && !c.listsOnly() {
			// What the handler denies of the words once emptied (find
			// "$D"/ -delete), where it did not deny them as they are.
			if dwhy := c.emptyVarsDeny(true); dwhy != "" {
				e.deny(dwhy)
				return TierDestructive, dwhy
			}
		}
		return c.infoOrProject(t, why)
	}
	if known {
		if ent.runs {
			e.opaque = true
		}
		if ent.tier < TierDestructive {
			if ct, cwhy := c.denyComputed(); ct == TierDestructive {
				return c.inProject(ct, cwhy)
			}
		}
		if ent.tier < TierDestructive {
			// A table entry reads none of the program's options: one
			// named for a program to run is read as an unknown
			// program's is (nano --speller=/tmp/x).
			if t, why := c.runOptWords(); t == TierDestructive {
				return t, why
			}
		}
		return c.infoOrProject(ent.tier, ent.why)
	}
	if fn {
		return TierRead, "calls the script's function " + truncate(name, 64) + ", classified where it is defined"
	}
	t, why = simpleTier(name)
	if _, listed := simpleTiers[name]; !listed {
		return c.unknownProgram(t, why)
	}
	if t == TierMutate && !ctx.inArgs {
		if at, awhy := c.argCommand(); at > t {
			return at, awhy
		}
	}
	return c.inProject(t, why)
}

// unknownProgram classifies a program the classifier knows nothing of, t
// and why its tier so far: its words may name a command it runs, a host it
// reaches, or the project it works in.
func (c *call) unknownProgram(t Tier, why string) (Tier, string) {
	for _, v := range c.vals() {
		if routerOSWipes[v] {
			return TierDestructive, truncate(v, 32) + ": on RouterOS, erases the router's configuration or disk"
		}
	}
	if t == TierMutate && !c.ctx.inArgs {
		if at, awhy := c.argCommand(); at > t {
			return at, awhy
		}
	}
	t, why = c.inProject(t, why)
	c.unknownHostWords()
	c.scanWrittenNamed()
	return c.unknownInProject(t, why)
}

// scanWrittenNamed meets the deny list with the literal text the script
// wrote to a file an unknown program is then given, or under a directory
// it is given (echo '! exec reboot' > /tmp/s; runscript /tmp/s): it may
// run what the file says, in a grammar of its own.
func (c *call) scanWrittenNamed() {
	if c.ctx.sc == nil {
		return
	}
	var named map[string]bool
	for _, a := range c.args {
		if !a.known {
			continue
		}
		for _, piece := range valuePieces(a.val) {
			if strings.HasPrefix(piece, "-") {
				continue
			}
			if named == nil {
				named = map[string]bool{}
			}
			named[path.Clean(piece)] = true
		}
	}
	if named == nil {
		return
	}
	// A directory given is where the program finds its files
	// (arch-nspawn ., a build directory): what the script wrote under it.
	c.scanWritten(func(f string) bool {
		if named[f] || named["."] && !strings.HasPrefix(f, "/") {
			return true
		}
		for d := path.Dir(f); d != "." && d != "/"; d = path.Dir(d) {
			if named[d] {
				return true
			}
		}
		return false
	})
}

// routerOSWipes are RouterOS commands that erase its configuration
// (reset-configuration, whatever menu path leads to it) or a disk.
var routerOSWipes = set(`reset-configuration format-drive`)

// rootProgram reports whether p names a program directly under / (/ip,
// //export, /./file).
func rootProgram(p string) bool {
	return strings.HasPrefix(p, "/") && path.Dir(path.Clean(p)) == "/" && path.Clean(p) != "/"
}
