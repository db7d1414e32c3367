package policy

// Programs asked only about themselves. An editor, a process viewer or a
// terminal multiplexer is tier 2 or 3 for what it can do once it runs
// (":!cmd", F9, new-window CMD), but asked for its version, its help or
// the SDKs it has it prints and exits before it reads a configuration,
// opens a terminal or starts a server: an operator's "htop --version" or
// "dotnet --list-sdks" is a read. The words are each program's own,
// checked against its option parser, not a convention: "-h" halts in
// shutdown, "-v" is vim's Ex mode, "--help" opens less's help screen
// (from which "!" runs a shell) and expect takes "--version" as "--"
// and a script named version. What the program's directory or path
// decides (a version manager's shim, a project's code, a program under
// /tmp) is judged as before.

// infoWords are, per program, the words that alone on its command line
// only print what the program is.
var infoWords = map[string]map[string]bool{
	"htop":    set(`-V --version -h --help`),
	"btop":    set(`-v --version -h --help`),
	"atop":    set(`-V`),
	"glances": set(`-V --version -h --help`),
	"nano":    set(`-V --version -h --help`),
	"vim":     set(`--version -h --help`),
	"vi":      set(`--version --help`),
	"view":    set(`--version -h --help`),
	"vimdiff": set(`--version -h --help`),
	"rvim":    set(`--version -h --help`),
	"gvim":    set(`--version -h --help`),
	"nvim":    set(`-v --version -h --help`),
	"emacs":   set(`--version --help`),
	"micro":   set(`-version --version -help --help`),
	"mc":      set(`-V --version -h --help`),
	"ncdu":    set(`-v -V --version -h --help`),
	"less":    set(`-V --version`),
	"more":    set(`-V --version`),
	"man":     set(`-V --version --help`),
	"top":     set(`-v -h --version --help`),
	// tmux ls and screen -ls list the sessions of the server that runs,
	// and start none; a format (-F) may run commands, so only the bare word.
	"tmux":   set(`-V ls list-sessions`),
	"screen": set(`-v -ls -list`),
	"k3s":    set(`-v --version -h --help`),
	// Cluster and VM tools whose verbs verbRules reads; their version
	// and help are options, which it skips.
	"minikube": set(`--version -h --help`),
	"kind":     set(`--version -h --help`),
	"microk8s": set(`--help`),
	"vagrant":  set(`--version -v -h --help`),
	// ansible and its tools print before they load a plugin
	// (onlyAsksVersion); an agent-written ansible.cfg is judged apart.
	"ansible":          set(`--version -h --help`),
	"ansible-playbook": set(`--version -h --help`),
	"ansible-pull":     set(`--version -h --help`),
	"ansible-vault":    set(`--version -h --help`),
	"ansible-console":  set(`--version -h --help`),
	// The dotnet host answers these itself, from the SDKs and runtimes it
	// finds; global.json in an agent's directory is shimCode's.
	"dotnet": set(`--info --list-sdks --list-runtimes -h --help`),
	// mailx -H prints the headers of the mailbox and exits, sending nothing.
	"mail":   set(`-H`),
	"mailx":  set(`-H`),
	"s-nail": set(`-H`),
}

// asksInfo reports whether c's only word is one of its program's
// infoWords.
func (c *call) asksInfo() bool {
	words, ok := infoWords[c.name]
	return ok && len(c.args) == 1 && c.args[0].known && words[c.args[0].val]
}

// infoOrProject is inProject for a call that may only ask about its
// program: such a call is a read unless inProject, judging it as the
// program's ordinary tier 2 (every check runs there; each raises to tier
// 3), finds code of the agent's it would load (a shim's directory, a
// project's code, a build tool's configuration).
func (c *call) infoOrProject(t Tier, why string) (Tier, string) {
	if t == TierRead || !c.asksInfo() {
		return c.inProject(t, why)
	}
	if pt, pwhy := c.inProject(TierMutate, why); pt > TierMutate {
		return pt, pwhy
	}
	return TierRead, c.name + " " + c.args[0].val + ": prints what the program is and exits"
}
