package policy

// wrapSpec is the option grammar of a program that runs another program.
type wrapSpec struct {
	valueShort string   // short options that take a value (-n 10, -n10)
	valueLong  []string // long options that take a separate value (--user root)
	shellShort string   // short options whose value is shell text (su -c)
	shellLong  []string // long options whose value is shell text
	leading    int      // operands before the command (timeout DURATION, chroot DIR)
	own        Tier     // the wrapper's own tier
	noCmd      Tier     // tier when no command follows
	noCmdWhy   string
	modeShort  string // short flags after which the wrapper does something else (command -v)
	modeTier   Tier
	modeWhy    string
	modeLong   []string // long options that set mode like modeShort
	stopAtArg  bool     // options end at the first operand (POSIX); otherwise GNU-style
	argv0      byte     // short option whose value is the command's argv[0] (exec -a, chpst -b)
}

// ldsoCode are the dynamic loader's options taking a value: the first
// three load code (libraries, audit modules) into the program it runs.
var ldsoCode = []string{"--library-path", "--preload", "--audit", "--argv0", "--inhibit-rpath", "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask"}

var wrapSpecs = map[string]wrapSpec{
	"nice":        {valueShort: "n", valueLong: []string{"--adjustment"}, noCmdWhy: "nice: prints the niceness"},
	"nohup":       {own: TierMutate}, // writes nohup.out in the working directory or $HOME when its output is a terminal (a session)
	"stdbuf":      {valueShort: "ioe", valueLong: []string{"--input", "--output", "--error"}},
	"setsid":      {},
	"chrt":        {valueShort: "TPD", valueLong: []string{"--sched-runtime", "--sched-period", "--sched-deadline"}, leading: 1, modeShort: "pm", modeLong: []string{"--pid"}, modeTier: TierMutate, modeWhy: "chrt: changes another process's scheduling"},
	"taskset":     {leading: 1, modeShort: "p", modeLong: []string{"--pid"}, modeTier: TierMutate, modeWhy: "taskset: changes another process's affinity"},
	"ionice":      {valueShort: "cnpPu", valueLong: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}, modeShort: "pPu", modeLong: []string{"--pid", "--pgid", "--uid"}, modeTier: TierMutate, modeWhy: "ionice: changes another process's I/O priority"},
	"timeout":     {valueShort: "sk", valueLong: []string{"--signal", "--kill-after"}, leading: 1},
	"time":        {valueShort: "fo", valueLong: []string{"--format", "--output"}},
	"command":     {modeShort: "vV", modeTier: TierRead, modeWhy: "command -v: looks a name up", stopAtArg: true},
	"builtin":     {stopAtArg: true},
	"exec":        {valueShort: "a", noCmdWhy: "exec: redirections only", stopAtArg: true, argv0: 'a'},
	"caffeinate":  {valueShort: "tw"},
	"cgexec":      {valueShort: "g"},
	"systemd-run": {valueShort: "pEuMHsC", valueLong: []string{"--capsule", "--background", "--shell-prompt-prefix", "--property", "--setenv", "--unit", "--machine", "--host", "--slice", "--uid", "--gid", "--nice", "--working-directory", "--description", "--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property", "--path-property", "--socket-property", "--service-type"}, own: TierMutate, noCmd: TierMutate},
	"chroot":      {valueLong: []string{"--userspec", "--groups"}, leading: 1, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "chroot: opens a shell in another root"},
	"unshare":     {valueShort: "SGRw", valueLong: []string{"--setuid", "--setgid", "--root", "--wd", "--map-user", "--map-group", "--propagation", "--setgroups", "--map-users", "--map-groups", "--monotonic", "--boottime"}, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "unshare: opens a shell in new namespaces"},
	"nsenter":     {valueShort: "tSGRw", valueLong: []string{"--target", "--setuid", "--setgid"}, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "nsenter: opens a shell in another process's namespaces"},
	"setpriv":     {valueLong: []string{"--reuid", "--regid", "--ruid", "--euid", "--rgid", "--egid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule", "--pdeathsig"}, own: TierMutate},
	"strace": {valueShort: "eopsuabEIOPSUX", valueLong: []string{"--trace", "--output", "--attach", "--string-limit",
		"--user", "--columns", "--env", "--signal", "--status", "--trace-path", "--summary-columns", "--summary-sort-by",
		"--abbrev", "--verbose", "--raw", "--read", "--write", "--fault", "--inject",
		"--interruptible", "--argv0"}, modeShort: "p", modeLong: []string{"--attach"}, modeTier: TierMutate, modeWhy: "strace: attaches to another process"},
	"ltrace": {valueShort: "aADeFlnopsuwx", valueLong: []string{"--output", "--library", "--config", "--align",
		"--indent", "--where", "--debug"}, modeShort: "p", modeTier: TierMutate, modeWhy: "ltrace: attaches to another process"},
	"rlwrap": {valueShort: "bCDefgHlMOPqsStwz", valueLong: []string{"--break-chars", "--command-name", "--history-no-dupes",
		"--extra-char-after-completion", "--file", "--forget-matching", "--history-filename", "--logfile", "--multi-line-ext",
		"--only-cook", "--pre-given", "--quote-characters", "--histsize", "--substitute-prompt", "--set-term-name",
		"--wait-before-prompt", "--filter"}, own: TierMutate}, // keeps a history file in $HOME
	"valgrind":     {},
	"faketime":     {valueShort: "p", valueLong: []string{"--date-prog"}, leading: 1}, // -m and -f are flags; TIMESTAMP, then the program
	"proxychains":  {valueShort: "f"},
	"proxychains4": {valueShort: "f"},
	"torsocks":     {valueShort: "uapP", modeLong: []string{"--shell"}, modeTier: TierDestructive, modeWhy: "torsocks --shell: opens a shell"},
	"torify":       {}, // torsocks' older front end
	// macOS' sandbox-exec -f FILE | -p PROFILE | -n NAME [-D K=V] CMD.
	"sandbox-exec":     {valueShort: "fpnD"},
	"catchsegv":        {},
	"eatmydata":        {},
	"unbuffer":         {},
	"fakeroot":         {valueShort: "lfisb", valueLong: []string{"--lib", "--faked", "--fd-base"}, modeShort: "vh", modeLong: []string{"--version", "--help"}, modeTier: TierRead, modeWhy: "fakeroot: prints its version or help", noCmd: TierDestructive, noCmdWhy: "fakeroot: opens a shell"},
	"dbus-run-session": {valueLong: []string{"--config-file", "--dbus-daemon"}},
	// The dynamic loader run as a program (/lib64/ld-linux-x86-64.so.2
	// PROG) runs PROG; its options end at the first operand.
	"ld.so": {valueLong: ldsoCode[:len(ldsoCode):len(ldsoCode)], stopAtArg: true, modeLong: []string{"--list", "--verify", "--help", "--version", "--list-tunables", "--list-diagnostics"},
		modeTier: TierRead, modeWhy: "ld.so: lists or checks a program's libraries"},
	"systemd-inhibit": {valueLong: []string{"--what", "--who", "--why", "--mode"}, own: TierBenign}, // holds off shutdown, sleep or idle while the command runs
	"prlimit":         {valueShort: "o", valueLong: []string{"--output", "--pid"}, modeShort: "p", modeLong: []string{"--pid"}, modeTier: TierMutate, modeWhy: "prlimit: changes another process's limits", noCmdWhy: "prlimit: prints limits"},
	"numactl":         {valueShort: "CNmpiP", valueLong: []string{"--physcpubind", "--cpunodebind", "--membind", "--preferred", "--interleave"}},
	"cpulimit":        {valueShort: "lpePcs", valueLong: []string{"--limit", "--pid", "--exe", "--path", "--cpu", "--signal"}, modeShort: "peP", modeLong: []string{"--pid", "--exe", "--path"}, modeTier: TierMutate, modeWhy: "cpulimit: stops and resumes another process"},
	"trickle":         {valueShort: "udwtlnL"},
	"sshpass":         {valueShort: "pfdP"},
	"sg":              {own: TierMutate, noCmd: TierDestructive, noCmdWhy: "sg: opens a shell with another group"},
	"newgrp":          {noCmd: TierDestructive, noCmdWhy: "newgrp: opens a shell with another group"},
	"dbus-launch":     {own: TierMutate, noCmd: TierMutate, noCmdWhy: "dbus-launch: starts a bus daemon that outlives the command"},
	"ssh-agent":       {valueShort: "aEOPt", own: TierMutate, noCmd: TierMutate, noCmdWhy: "ssh-agent: starts an agent"},
	"xvfb-run":        {valueShort: "efnpsw", valueLong: []string{"--error-file", "--auth-file", "--server-num", "--xauth-protocol", "--server-args", "--wait"}},
	"daemonize":       {valueShort: "ceEoplu", own: TierMutate},
	"chpst":           {valueShort: "uUb/enlLmdofcprtC", stopAtArg: true, argv0: 'b'},
	"su":              {valueShort: "gGsw", valueLong: []string{"--group", "--supp-group", "--shell", "--whitelist-environment"}, shellShort: "c", shellLong: []string{"--command", "--session-command"}, noCmd: TierDestructive, noCmdWhy: "su: opens a shell as another user"},
	"runuser":         {valueShort: "gGsuw", valueLong: []string{"--group", "--supp-group", "--shell", "--user", "--whitelist-environment"}, shellShort: "c", shellLong: []string{"--command", "--session-command"}, noCmd: TierDestructive, noCmdWhy: "runuser: opens a shell as another user"},
	"flock":           {valueShort: "wE", valueLong: []string{"--timeout", "--conflict-exit-code"}, shellShort: "c", shellLong: []string{"--command"}, leading: 1, noCmdWhy: "flock: locks a descriptor"},
	"script":          {valueShort: "OIBTEm", valueLong: []string{"--log-out", "--log-in", "--log-io", "--log-timing", "--echo", "--logging-format"}, shellShort: "c", shellLong: []string{"--command"}, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "script: opens an interactive shell"},
	"watch":           {valueShort: "nq", valueLong: []string{"--interval", "--equexit"}},
	// jc COMMAND ARGS runs the command and parses its output ("magic"
	// syntax); jc --PARSER only reads its input.
	"jc": {stopAtArg: true, noCmdWhy: "jc: parses its input"},
	// daemontools, s6, runit and moreutils wrappers, su-exec and gosu.
	"gosu":         {leading: 1},
	"su-exec":      {leading: 1},
	"setuidgid":    {leading: 1},
	"s6-setuidgid": {leading: 1},
	"envdir":       {leading: 1, own: TierDestructive}, // the environment (LD_PRELOAD, PATH…) from files unseen
	"s6-envdir":    {valueShort: "c", leading: 1, own: TierDestructive},
	"softlimit":    {valueShort: "mdsloapfcrt"},
	"s6-softlimit": {valueShort: "adfmsoprtl"},
	"setlock":      {leading: 1},
	"s6-setlock":   {valueShort: "td", leading: 1},
	"lckdo":        {valueShort: "W", leading: 1},
	"chronic":      {},
	"pgrphack":     {},
	"envuidgid":    {leading: 1},
	"nocache":      {valueShort: "n"},
	"with-contenv": {},
	// Container init processes and SELinux's runcon run their command.
	"tini":      {valueShort: "pe", stopAtArg: true},
	"dumb-init": {valueShort: "r", valueLong: []string{"--rewrite"}, stopAtArg: true},
	"runcon":    {valueShort: "urtl", valueLong: []string{"--user", "--role", "--type", "--range"}},
	// flatpak-spawn --host runs the command on the host, outside the
	// sandbox the agent may think it is in.
	"flatpak-spawn": {valueLong: []string{"--forward-fd", "--env", "--directory", "--app-path", "--usr-path"}},
	"ifne":          {},
	"aa-exec":       {valueShort: "pn", valueLong: []string{"--profile", "--namespace"}},
	"systemd-cat":   {valueShort: "tp", valueLong: []string{"--identifier", "--priority", "--stderr-priority"}, own: TierBenign, noCmd: TierBenign, noCmdWhy: "systemd-cat: writes its input to the journal"},
	"nq":            {own: TierMutate}, // runs the command in the background, its output in files in the working directory
	// run0 asks the service manager to run the command, like systemd-run:
	// outside warden's confinement.
	"run0": {valueShort: "ugD", valueLong: []string{"--user", "--group", "--nice", "--chdir", "--setenv", "--unit",
		"--property", "--description", "--slice", "--background", "--machine", "--shell-prompt-prefix", "--area"},
		noCmd: TierDestructive, noCmdWhy: "run0: opens a root shell outside warden's confinement"},
	"arch-chroot": {valueShort: "u", leading: 1, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "arch-chroot: opens a shell in another root"},
}

// lockWrappers take a lock file before the command, creating it.
var lockWrappers = set(`flock setlock s6-setlock lckdo`)
