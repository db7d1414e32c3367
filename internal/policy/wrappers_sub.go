package policy

import (
	"path"
	"slices"
	"strings"
)

// subWrap is the grammar of a program one of whose subcommands runs the
// command in its arguments (poetry run CMD, aws-vault exec PROFILE --
// CMD, nix develop -c CMD, sops exec-env FILE 'CMD'), or that runs one
// after options and operands of its own (envconsul -prefix P CMD, sem
// CMD). What it runs is classified as the command it is, so the deny
// rules see through it; without the grammar the classifier could only
// guess at a command among the words (argCommand), which raises the tier
// but denies nothing.
type subWrap struct {
	verbs     []string // subcommands that run the command, of one or two words; with none, the program itself does
	top       bool     // the program itself runs one too, when no verb is given (dotenv -- CMD, dotenv run CMD)
	spec      wrapSpec // the options (valueShort, valueLong, shellShort, shellLong) and leading operands
	argvShort string   // short options after which the remaining words are the command (nix develop -c CMD ARGS)
	argvLong  []string // long options like argvShort
	dashDash  bool     // the command is what follows "--" where one is given (chamber exec SVC... -- CMD)
	shellCmd  bool     // the command is shell text, its words joined (sops exec-env FILE 'CMD', sem CMD)
	each      bool     // every operand is a shell command (hyperfine CMD1 CMD2)
	flagsOnly bool     // only the shell options run anything; operands are data (nix-shell -p PKG --run CMD)
	assigns   bool     // NAME=VALUE words come before the command (cross-env A=1 CMD)
	pkgs      bool     // +PKG words come before the command (pkgx +node@18 node)
	ownCmds   string   // a first word starting with one of these is the program's own command (kitty +runpy, kitty @ launch: kittyOwn)
	goBools   []string // Go flag-style options (-prefix P): each takes a value but these
	install   string   // the verb whose first operand names a package whose program runs (nix run nixpkgs#PKG -- ARGS); under the others only the options run anything
	shellFlag byte     // a flag that makes the command shell text (entr -s)
	progLong  []string // options naming the program run with the operands after the leading ones (flatpak run --command=PROG APP ARGS); without one nothing runs
}

// Value options shared by the secret managers' cobra commands.
var (
	dopplerValues = []string{"--project", "--config", "--token", "--fallback", "--mount", "--mount-format", "--mount-template",
		"--mount-max-reads", "--name-transformer", "--scope", "--api-host", "--dashboard-host", "--configuration",
		"--passphrase", "--fallback-passphrase", "--only-secrets", "--preserve-env"}
	uvRunValues = []string{"--with", "--with-editable", "--with-requirements", "--python", "--package", "--extra", "--group",
		"--only-group", "--no-group", "--env-file", "--index", "--default-index", "--index-url", "--extra-index-url",
		"--find-links", "--directory", "--project", "--config-file", "--cache-dir", "--refresh-package", "--upgrade-package",
		"--reinstall-package", "--no-binary-package", "--no-build-package", "--resolution", "--prerelease", "--exclude-newer",
		"--link-mode", "--color", "--index-strategy", "--keyring-provider", "--config-setting", "--python-platform",
		"--allow-insecure-host", "--no-build-isolation-package", "--exclude-newer-package", "--no-sources-package"}
	nixDevelopValues = []string{"--keep", "--unset", "--phase", "--profile", "--redirect", "--override-input", "--inputs-from",
		"--expr", "--file", "--include", "--option", "--arg", "--argstr", "--override-flake", "--reference-lock-file",
		"--output-lock-file", "--eval-store", "--store", "--extra-experimental-features", "--experimental-features", "--log-format"}
	condaRunValues = []string{"--name", "--prefix", "--cwd"}
	// runc's and crun's exec options and their global ones.
	runtimeExecValues = []string{"--console-socket", "--pidfd-socket", "--cwd", "--env", "--user", "--additional-gids", "--process",
		"--pid-file", "--process-label", "--apparmor", "--cap", "--preserve-fds", "--cgroup", "--root", "--log", "--log-format",
		"--log-level", "--criu", "--rootless"}
	apptainerValues = []string{"--bind", "--home", "--workdir", "--env", "--env-file", "--pwd", "--overlay", "--security",
		"--network", "--network-args", "--scratch", "--mount", "--app", "--hostname", "--dns", "--add-caps", "--drop-caps",
		"--apply-cgroups", "--cpus", "--memory", "--fusemount", "--nv-ccli", "--passphrase", "--pem-path", "--oci-conf"}
)

// subWraps are the programs whose subcommands (or whose own grammar) run
// a command; each is keyed by the program's name.
var subWraps = map[string]subWrap{
	// Secret managers and environment loaders: the command runs with the
	// secrets in its environment.
	"op":        {verbs: []string{"run"}, spec: wrapSpec{valueLong: []string{"--env-file", "--account", "--config", "--encoding", "--session", "--format", "--cache"}}},
	"aws-vault": {verbs: []string{"exec"}, spec: wrapSpec{valueShort: "dt", valueLong: []string{"--duration", "--mfa-token", "--region", "--backend", "--prompt", "--keychain", "--config"}, leading: 1}},
	"doppler":   {verbs: []string{"run"}, spec: wrapSpec{valueShort: "pc", valueLong: dopplerValues, shellLong: []string{"--command"}}},
	"infisical": {verbs: []string{"run"}, spec: wrapSpec{valueShort: "t", valueLong: []string{"--env", "--path", "--projectId", "--token", "--tags", "--domain",
		"--watch-interval", "--project-config-dir"}, shellLong: []string{"--command"}}},
	"chamber":   {verbs: []string{"exec"}, spec: wrapSpec{leading: 1}, dashDash: true},
	"envconsul": {spec: wrapSpec{shellLong: []string{"-exec"}}, goBools: []string{"-once", "-upcase", "-sanitize", "-pristine", "-no-prefix", "-v", "-version", "-h", "-help"}},
	"summon":    {spec: wrapSpec{valueShort: "pfDei", valueLong: []string{"--provider", "--yaml", "--environment", "--ignore"}}},
	"sops":      {verbs: []string{"exec-env", "exec-file"}, spec: wrapSpec{valueLong: []string{"--user", "--filename", "--input-type", "--output-type"}, leading: 1}, shellCmd: true},
	"dotenv":    {verbs: []string{"run"}, top: true, spec: wrapSpec{valueShort: "evpf", valueLong: []string{"--file"}}, dashDash: true},
	"dotenvx":   {verbs: []string{"run"}, spec: wrapSpec{valueShort: "fe", valueLong: []string{"--env-file", "--env", "--env-keys-file", "--convention", "--log-level"}}, dashDash: true},
	"env-cmd":   {spec: wrapSpec{valueShort: "fer", valueLong: []string{"--file", "--environments", "--rc-file"}}},
	"cross-env": {assigns: true},
	"envchain":  {spec: wrapSpec{leading: 1}},
	"berglas":   {verbs: []string{"exec"}, spec: wrapSpec{valueLong: []string{"--project"}}, dashDash: true},
	"teller":    {verbs: []string{"run"}, spec: wrapSpec{valueShort: "c", valueLong: []string{"--config"}}, dashDash: true},
	"saml2aws":  {verbs: []string{"exec"}, spec: wrapSpec{valueShort: "pa", valueLong: []string{"--exec-profile", "--profile", "--idp-account", "--config", "--region"}}},
	"direnv":    {verbs: []string{"exec"}, spec: wrapSpec{leading: 1}},
	// Project and toolchain environments run the command in theirs.
	"pipenv":     {verbs: []string{"run"}},
	"poetry":     {verbs: []string{"run"}},
	"uv":         {verbs: []string{"run", "tool run"}, spec: wrapSpec{valueShort: "wpfPC", valueLong: append([]string{"--from"}, uvRunValues...)}},
	"rye":        {verbs: []string{"run"}},
	"pdm":        {verbs: []string{"run"}, spec: wrapSpec{valueShort: "p", valueLong: []string{"--project", "--venv"}}},
	"hatch":      {verbs: []string{"run"}},
	"pixi":       {verbs: []string{"run", "exec", "x"}, spec: wrapSpec{valueShort: "esc", valueLong: []string{"--environment", "--manifest-path", "--spec", "--channel", "--executable"}}},
	"bundle":     {verbs: []string{"exec"}, spec: wrapSpec{valueLong: []string{"--gemfile"}}},
	"conda":      {verbs: []string{"run"}, spec: wrapSpec{valueShort: "np", valueLong: condaRunValues}},
	"mamba":      {verbs: []string{"run"}, spec: wrapSpec{valueShort: "np", valueLong: condaRunValues}},
	"micromamba": {verbs: []string{"run"}, spec: wrapSpec{valueShort: "npa", valueLong: append([]string{"--attach"}, condaRunValues...)}},
	"mise":       {verbs: []string{"exec", "x"}, spec: wrapSpec{valueShort: "jC", valueLong: []string{"--jobs", "--cd", "--env"}, shellShort: "c", shellLong: []string{"--command"}}, dashDash: true},
	"rtx":        {verbs: []string{"exec", "x"}, spec: wrapSpec{shellShort: "c", shellLong: []string{"--command"}}, dashDash: true},
	"asdf":       {verbs: []string{"exec", "env"}},
	"rbenv":      {verbs: []string{"exec"}},
	"pyenv":      {verbs: []string{"exec"}},
	"nodenv":     {verbs: []string{"exec"}},
	"goenv":      {verbs: []string{"exec"}},
	"plenv":      {verbs: []string{"exec"}},
	"jenv":       {verbs: []string{"exec"}},
	"volta":      {verbs: []string{"run"}, spec: wrapSpec{valueLong: []string{"--node", "--npm", "--yarn", "--pnpm", "--env"}}},
	"fnm":        {verbs: []string{"exec"}, spec: wrapSpec{valueLong: []string{"--using"}}},
	"devbox":     {verbs: []string{"run"}, spec: wrapSpec{valueShort: "ce", valueLong: []string{"--config", "--env", "--env-file", "--environment"}}},
	"devenv":     {verbs: []string{"shell"}},
	"nix-shell":  {spec: wrapSpec{shellLong: []string{"--run", "--command"}}, flagsOnly: true},
	"nix": {verbs: []string{"develop", "shell", "run"}, spec: wrapSpec{valueShort: "kIf", valueLong: nixDevelopValues},
		argvShort: "c", argvLong: []string{"--command"}, install: "run"},
	// Containers and sandboxes that run the command inside.
	"toolbox":         {verbs: []string{"run"}, spec: wrapSpec{valueShort: "cdr", valueLong: []string{"--container", "--distro", "--release"}}},
	"distrobox":       {verbs: []string{"enter"}, spec: wrapSpec{valueShort: "na", valueLong: []string{"--name", "--additional-flags"}, leading: 1}, dashDash: true},
	"distrobox-enter": {spec: wrapSpec{valueShort: "na", valueLong: []string{"--name", "--additional-flags"}, leading: 1}, dashDash: true},
	"schroot":         {spec: wrapSpec{valueShort: "cudn", valueLong: []string{"--chroot", "--user", "--directory", "--session-name", "--option"}}},
	"flatpak":         {verbs: []string{"run"}, spec: wrapSpec{valueLong: []string{"--arch", "--branch", "--runtime", "--runtime-version", "--filesystem", "--nofilesystem", "--share", "--unshare", "--socket", "--nosocket", "--device", "--nodevice", "--env", "--unset-env", "--env-fd", "--own-name", "--talk-name", "--system-own-name", "--system-talk-name", "--add-policy", "--remove-policy", "--persist", "--cwd", "--app-path", "--usr-path", "--instance-id-fd", "--parent-pid", "--allow", "--disallow", "--commit", "--runtime-commit"}, leading: 1}, progLong: []string{"--command"}},
	"lxc":             {verbs: []string{"exec"}, spec: wrapSpec{valueLong: []string{"--env", "--cwd", "--user", "--group", "--mode", "--project", "--remote"}, leading: 1}},
	"incus":           {verbs: []string{"exec"}, spec: wrapSpec{valueLong: []string{"--env", "--cwd", "--user", "--group", "--mode", "--project"}, leading: 1}},
	"apptainer":       {verbs: []string{"exec"}, spec: wrapSpec{valueShort: "BHW", valueLong: apptainerValues, leading: 1}},
	"singularity":     {verbs: []string{"exec"}, spec: wrapSpec{valueShort: "BHW", valueLong: apptainerValues, leading: 1}},
	"devcontainer":    {verbs: []string{"exec"}, spec: wrapSpec{valueLong: []string{"--workspace-folder", "--container-id", "--config", "--remote-env", "--id-label", "--docker-path", "--log-level", "--log-format", "--override-config", "--mount-workspace-git-root"}}},
	"vagrant":         {verbs: []string{"ssh"}, spec: wrapSpec{shellShort: "c", shellLong: []string{"--command"}}, flagsOnly: true},
	// Schedulers and runners of commands.
	"sem":       {spec: wrapSpec{valueShort: "j", valueLong: []string{"--id", "--jobs", "--timeout", "--semaphoretimeout", "--st", "--semaphorename"}}, shellCmd: true},
	"schedtool": {spec: wrapSpec{valueShort: "apnM"}, argvShort: "e", flagsOnly: true},
	"hyperfine": {spec: wrapSpec{valueShort: "wrmMSnuPL", valueLong: []string{"--warmup", "--min-runs", "--max-runs", "--runs", "--setup", "--prepare",
		"--conclude", "--cleanup", "--parameter-scan", "--parameter-step-size", "--parameter-list", "--style", "--shell", "--sort", "--time-unit",
		"--export-asciidoc", "--export-csv", "--export-json", "--export-markdown", "--export-orgmode", "--output", "--input", "--command-name", "--reference"},
		shellShort: "pcs", shellLong: []string{"--setup", "--prepare", "--conclude", "--cleanup", "--reference"}}, each: true},
	"entr":                {shellFlag: 's'},
	"watchexec":           {spec: wrapSpec{valueShort: "ewWdsE", valueLong: []string{"--exts", "--watch", "--watch-non-recursive", "--ignore", "--ignore-file", "--debounce", "--delay-run", "--signal", "--stop-signal", "--stop-timeout", "--shell", "--env", "--workdir", "--project-origin", "--filter", "--filter-file", "--on-busy-update", "--poll", "--emit-events-to", "--color", "--timings", "--log-file"}}, shellCmd: true},
	"tsp":                 {spec: wrapSpec{valueShort: "LDWNE"}},
	"xterm":               {argvLong: []string{"-e"}, flagsOnly: true},
	"uxterm":              {argvLong: []string{"-e"}, flagsOnly: true},
	"konsole":             {argvLong: []string{"-e"}, flagsOnly: true},
	"urxvt":               {argvLong: []string{"-e"}, flagsOnly: true},
	"rxvt":                {argvLong: []string{"-e"}, flagsOnly: true},
	"x-terminal-emulator": {argvLong: []string{"-e"}, flagsOnly: true},
	"alacritty":           {argvLong: []string{"-e", "--command"}, flagsOnly: true},
	"gnome-terminal":      {dashDash: true, flagsOnly: true},
	"wezterm": {verbs: []string{"start", "cli spawn", "ssh", "connect"}, spec: wrapSpec{valueLong: []string{"--cwd", "--class", "--workspace", "--position",
		"--domain", "--domain-name", "--pane-id", "--window-id"}}, dashDash: true},
	"st":             {argvLong: []string{"-e"}, flagsOnly: true},
	"terminator":     {argvLong: []string{"-x", "--execute"}, flagsOnly: true},
	"tilix":          {argvLong: []string{"-x"}, flagsOnly: true},
	"xfce4-terminal": {argvLong: []string{"-x", "--execute"}, flagsOnly: true},
	// Terminal emulators: -e/-x take the command's words, -c/--command
	// (and mate-terminal's, lxterminal's, terminology's -e) its text.
	"ghostty":              {argvLong: []string{"-e"}, flagsOnly: true},
	"cool-retro-term":      {argvLong: []string{"-e"}, flagsOnly: true},
	"eterm":                {argvLong: []string{"-e", "--exec"}, flagsOnly: true},
	"aterm":                {argvLong: []string{"-e"}, flagsOnly: true},
	"mlterm":               {argvLong: []string{"-e"}, flagsOnly: true},
	"rio":                  {argvLong: []string{"-e", "--command"}, flagsOnly: true},
	"i3-sensible-terminal": {argvLong: []string{"-e"}, flagsOnly: true},
	"sakura":               {argvLong: []string{"-x", "--xterm-execute"}, spec: wrapSpec{shellShort: "e", shellLong: []string{"--execute"}}, flagsOnly: true},
	"mate-terminal":        {argvLong: []string{"-x", "--execute"}, spec: wrapSpec{shellShort: "e", shellLong: []string{"--command"}}, flagsOnly: true},
	"lxterminal":           {spec: wrapSpec{shellShort: "e", shellLong: []string{"--command"}}, flagsOnly: true},
	"qterminal":            {spec: wrapSpec{shellShort: "e", shellLong: []string{"--execute"}}, flagsOnly: true},
	"terminology":          {spec: wrapSpec{shellShort: "e", shellLong: []string{"--exec"}}, flagsOnly: true},
	"guake":                {spec: wrapSpec{shellShort: "e", shellLong: []string{"--execute-command"}}, flagsOnly: true},
	"tilda":                {spec: wrapSpec{shellShort: "c", shellLong: []string{"--command"}}, flagsOnly: true},
	"blackbox":             {spec: wrapSpec{shellShort: "c", shellLong: []string{"--command"}}, flagsOnly: true},
	"ptyxis":               {spec: wrapSpec{shellShort: "x", shellLong: []string{"--execute"}}, dashDash: true, flagsOnly: true},
	"kgx":                  {argvLong: []string{"-e"}, dashDash: true, flagsOnly: true},
	// kitty, foot and xdg-terminal-exec run the words after their options.
	"kitty": {spec: wrapSpec{valueShort: "cTodw", valueLong: []string{"--config", "--override", "--title", "--class", "--name",
		"--directory", "--working-directory", "--detached-log", "--session", "--instance-group", "--listen-on", "--start-as",
		"--position", "--watcher", "--os-window-tag", "--logo", "--logo-position", "--logo-alpha"}}, ownCmds: "+@"},
	"foot": {spec: wrapSpec{valueShort: "cofTtaWwDdp", valueLong: []string{"--config", "--override", "--font", "--title",
		"--term", "--app-id", "--window-size-chars", "--window-size-pixels", "--working-directory", "--log-level", "--print-pid"}}},
	"footclient": {spec: wrapSpec{valueShort: "oTtaWwDsd", valueLong: []string{"--override", "--title", "--term", "--app-id",
		"--window-size-chars", "--window-size-pixels", "--working-directory", "--server-socket", "--log-level"}}},
	"xdg-terminal-exec": {dashDash: true},
	// Multiplexers' and recorders' verbs that run a command.
	"zellij": {verbs: []string{"run", "r", "action new-pane"}, spec: wrapSpec{valueShort: "ndxy", valueLong: []string{"--name", "--direction",
		"--cwd", "--width", "--height", "--x", "--y", "--pinned", "--layout"}}, dashDash: true},
	"asciinema": {verbs: []string{"rec", "record"}, spec: wrapSpec{valueShort: "itI", valueLong: []string{"--idle-time-limit", "--title", "--env", "--cols", "--rows", "--format", "--input", "--output-format", "--capture-env"}, shellShort: "c", shellLong: []string{"--command"}}, flagsOnly: true},
	"ttyrec":    {spec: wrapSpec{shellShort: "e"}, flagsOnly: true},
	"termrec":   {spec: wrapSpec{shellShort: "e", shellLong: []string{"--exec"}}, flagsOnly: true},
	// Debuggers, profilers and tracers that start the program they study.
	"rr":        {verbs: []string{"record"}, spec: wrapSpec{valueShort: "ceiptov", valueLong: []string{"--num-cpu-ticks", "--num-events", "--env", "--bind-to-cpu", "--output-trace-dir", "--asan", "--trace-id"}}},
	"heaptrack": {spec: wrapSpec{valueShort: "opa", valueLong: []string{"--output", "--pid", "--analyze", "--record-only", "--use-inject"}}},
	"uftrace":   {verbs: []string{"record", "live"}, spec: wrapSpec{valueShort: "ACDFNRSTUWZadefgpstr", valueLong: []string{"--data", "--filter", "--notrace", "--trigger", "--depth", "--time-filter", "--caller-filter", "--argument", "--retval", "--auto-args", "--patch", "--unpatch", "--size-filter", "--loc-filter", "--buffer", "--max-stack", "--signal", "--event", "--watch", "--with-syms", "--symbols"}}},
	"trace-cmd": {verbs: []string{"record", "profile"}, spec: wrapSpec{valueShort: "eflpoOPsbrmMBnCDgGiT", valueLong: []string{"--user", "--max-graph-depth", "--module", "--func-stack", "--proc-map", "--cmdlines-size", "--temp", "--name", "--verbose", "--poll", "--ts-offset", "--tsync-interval"}}},
	// Jails, sandboxes and privilege tools that run a command.
	"nsjail":     {dashDash: true, flagsOnly: true},
	"minijail0":  {spec: wrapSpec{valueShort: "abBcCfgkPRSTuV"}},
	"fakechroot": {spec: wrapSpec{valueShort: "ldec", valueLong: []string{"--lib", "--use-system-libs", "--environment", "--config-dir", "--elfloader"}}},
	"rootlesskit": {spec: wrapSpec{valueShort: "p", valueLong: []string{"--state-dir", "--net", "--mtu", "--cidr", "--ifname", "--port-driver",
		"--publish", "--copy-up", "--copy-up-mode", "--propagation", "--subid-source", "--slirp4netns-binary", "--slirp4netns-sandbox",
		"--slirp4netns-seccomp", "--vpnkit-binary", "--lxc-user-nic-binary", "--lxc-user-nic-bridge", "--pidns", "--cgroupns", "--utsns",
		"--ipns", "--reaper", "--evacuate-cgroup2", "--log-level", "--detach-netns"}}},
	"buildah": {verbs: []string{"unshare"}, spec: wrapSpec{valueShort: "m", valueLong: []string{"--mount"}}},
	"podman":  {verbs: []string{"unshare"}},
	// Guests' and containers' exec verbs, for the programs with tables of
	// their own (subRules asks these).
	"pct":        {verbs: []string{"exec"}, spec: wrapSpec{leading: 1}, dashDash: true},
	"qm":         {verbs: []string{"guest exec"}, spec: wrapSpec{valueLong: []string{"--timeout", "--pass-stdin", "--synchronous"}, leading: 1}, dashDash: true},
	"iocage":     {verbs: []string{"exec"}, spec: wrapSpec{valueShort: "uU", valueLong: []string{"--host_user", "--jail_user"}, leading: 1}},
	"machinectl": {verbs: []string{"shell"}, spec: wrapSpec{valueShort: "EM", valueLong: []string{"--setenv", "--uid", "--machine", "--host"}, leading: 1}},
	"ctr": {verbs: []string{"run"}, spec: wrapSpec{valueLong: []string{"--env", "--env-file", "--label", "--mount", "--runtime", "--runtime-config-path",
		"--snapshotter", "--snapshotter-label", "--config", "--cwd", "--user", "--with-ns", "--cni-labels", "--gpus", "--pid-file",
		"--fifo-dir", "--cgroup", "--platform", "--memory-limit", "--cpus", "--cpu-shares", "--cpu-quota", "--cpu-period", "--device",
		"--seccomp-profile", "--apparmor-profile", "--apparmor-default-profile", "--rootfs-propagation", "--hostname", "--annotation",
		"--cap-add", "--cap-drop", "--blockio-config-file", "--blockio-class", "--rdt-class", "--uidmap", "--gidmap", "--address",
		"--namespace", "--timeout"}, leading: 2}},
	"runc":       {verbs: []string{"exec"}, spec: wrapSpec{valueShort: "eugpc", valueLong: runtimeExecValues, leading: 1}},
	"crun":       {verbs: []string{"exec"}, spec: wrapSpec{valueShort: "eugpc", valueLong: runtimeExecValues, leading: 1}},
	"lxc-attach": {spec: wrapSpec{valueShort: "naPsvLugfe", valueLong: []string{"--name", "--arch", "--rcfile", "--lxcpath", "--namespaces", "--set-var", "--keep-var", "--pty-log", "--uid", "--gid", "--logfile", "--logpriority", "--context", "--elevated-privileges"}}, dashDash: true, flagsOnly: true},
	"vzctl":      {verbs: []string{"exec", "exec2"}, spec: wrapSpec{leading: 1}, shellCmd: true},
	"jexec":      {spec: wrapSpec{valueShort: "uUd", leading: 1}},
	"please":     {spec: wrapSpec{valueShort: "dertu", valueLong: []string{"--dir", "--env", "--reason", "--target", "--allowenv"}}},
	"pkgx":       {assigns: true, pkgs: true},
	"uvx":        {spec: wrapSpec{valueShort: "wp", valueLong: append([]string{"--from"}, uvRunValues...)}},
	// Servers that run a command for each connection.
	"tcpserver":    {spec: wrapSpec{valueShort: "cCxBgulbt", leading: 2}},
	"s6-tcpserver": {spec: wrapSpec{valueShort: "cCbgu", leading: 2}},
	"ttyd":         {spec: wrapSpec{valueShort: "piHcugswIbPtTCKAmdU", valueLong: []string{"--port", "--interface", "--socket-owner", "--credential", "--auth-header", "--uid", "--gid", "--signal", "--cwd", "--index", "--base-path", "--ping-interval", "--srv-buf-size", "--client-option", "--terminal-type", "--ssl-cert", "--ssl-key", "--ssl-ca", "--max-clients", "--debug"}}},
	"gotty":        {spec: wrapSpec{valueShort: "apcrt", valueLong: []string{"--address", "--port", "--path", "--credential", "--random-url-length", "--tls-crt", "--tls-key", "--tls-ca-crt", "--index", "--title-format", "--reconnect-time", "--max-connection", "--timeout", "--width", "--height", "--ws-origin", "--term", "--config"}}},
	"dropbear":     {spec: wrapSpec{shellShort: "c"}, flagsOnly: true},
	// websocketd takes Go flags, with one dash or two.
	"websocketd": {goBools: []string{"-devconsole", "--devconsole", "-ssl", "--ssl", "-binary", "--binary", "-reverselookup",
		"--reverselookup", "-help", "--help", "-version", "--version", "-license", "--license"}},
	"empty": {spec: wrapSpec{valueShort: "iopLtu"}},
	"retry": {spec: wrapSpec{valueShort: "tdmD", valueLong: []string{"--times", "--delay", "--max-delay", "--until", "--tries", "--sleep"}}, dashDash: true},
}

// subCommand classifies the command a subWraps program runs, as the
// command it is: its tier and deny rules reach the call. ok is false when
// the call runs none (poetry show, nix build); t is tier 3 when what it
// runs is computed at run time.
func (c *call) subCommand() (t Tier, why string, ok bool) {
	if c.name == "kitten" {
		return c.kitten(c.args)
	}
	w, found := subWraps[c.name]
	if !found {
		return TierRead, "", false
	}
	args := c.args
	start, verb := -1, ""
	if len(w.verbs) > 0 {
		for i, a := range args {
			if !a.known {
				break
			}
			v := a.val
			if v == "--" {
				break
			}
			if strings.HasPrefix(v, "-") {
				continue
			}
			if slices.Contains(w.verbs, v) {
				start, verb = i+1, v
				break
			}
			if i+1 < len(args) && args[i+1].known && slices.Contains(w.verbs, v+" "+args[i+1].val) {
				start, verb = i+2, v+" "+args[i+1].val // wezterm cli spawn CMD, uv tool run CMD
				break
			}
			if i > 0 && strings.HasPrefix(args[i-1].val, "-") && !strings.Contains(args[i-1].val, "=") {
				continue // a global option's value (poetry -C DIR run CMD)
			}
			break
		}
	}
	if start < 0 {
		if len(w.verbs) > 0 && !w.top {
			return TierRead, "", false
		}
		start = 0
	}
	if c.name == "wezterm" && (verb == "ssh" || verb == "connect") {
		return c.weztermRemote(verb, args[start:])
	}
	if w.install != "" && verb != w.install {
		w.flagsOnly = true // nix develop INSTALLABLE -c CMD: the installables are data
	}
	p := w.parse(args[start:])
	what := c.name
	if verb != "" {
		what += " " + verb
	}
	if p.computed {
		c.e.opaque = true
		return TierDestructive, what + ": options computed at run time", true
	}
	for _, s := range p.shellText {
		if !s.known {
			c.e.opaque = true
			return TierDestructive, what + ": shell command computed at run time", true
		}
		c.shell(s.val, what+" command", nil, false)
	}
	cmd := p.cmd
	if w.progLong != nil {
		if p.prog == nil {
			return TierMutate, what, false
		}
		cmd = append([]arg{*p.prog}, cmd...)
	}
	if len(cmd) > 0 && w.install != "" && verb == w.install {
		cmd = installed(cmd)
	}
	if len(cmd) > 0 && cmd[0].known && cmd[0].val != "" && strings.IndexByte(w.ownCmds, cmd[0].val[0]) >= 0 {
		return c.kittyOwn(cmd)
	}
	if len(cmd) == 0 {
		return TierMutate, what, len(p.shellText) > 0
	}
	switch {
	case w.shellCmd || w.each || p.shell:
		if !allKnown(cmd) {
			c.e.opaque = true
			return TierDestructive, what + ": command computed at run time", true
		}
		if w.each {
			for _, a := range cmd {
				c.shell(a.val, what+" command", nil, false)
			}
		} else {
			c.shell(strings.Join(argVals(cmd), " "), what+" command", nil, false)
		}
	default:
		c.run(cmd)
	}
	return TierMutate, what, true
}

// subParse is what a subWrap's command line gives: the command it runs,
// the shell text its options hold, the program an option names, and
// whether the command is shell text (entr -s) or an option is known only
// at run time.
type subParse struct {
	cmd, shellText  []arg
	prog            *arg
	shell, computed bool
}

// parse walks the options of a subWrap's command line (after its verb).
func (w subWrap) parse(args []arg) subParse {
	var p subParse
	s := w.spec
	i := 0
	var argvRest []arg // what follows an option whose remaining words are the command
	argv := false
loop:
	for i < len(args) {
		a := args[i]
		v := a.val
		if !a.known {
			if strings.HasPrefix(v, "-") {
				p.computed = true
				return p
			}
			if w.flagsOnly {
				i++
				continue
			}
			break
		}
		if slices.Contains(w.argvLong, v) {
			argvRest, argv = args[i+1:], true
			break
		}
		if v == "--" {
			i++
			if w.dashDash {
				p.cmd = args[i:]
				return p
			}
			break
		}
		if len(v) < 2 || v[0] != '-' {
			if w.flagsOnly || w.assigns && strings.Contains(v, "=") || w.pkgs && v != "" && v[0] == '+' {
				i++
				continue
			}
			break
		}
		if strings.HasPrefix(v, "--") || w.goBools != nil {
			name, val, has := strings.Cut(v, "=")
			if w.goBools == nil {
				name = longOpt(name, slices.Concat(s.valueLong, s.shellLong, w.argvLong, w.progLong))
			}
			value := func() arg {
				if has {
					return arg{val: val, known: true}
				}
				i++
				if i >= len(args) {
					return arg{known: true}
				}
				return args[i]
			}
			switch {
			case slices.Contains(w.argvLong, name):
				argvRest, argv = args[i+1:], true
				if has {
					argvRest = append([]arg{{val: val, known: true}}, argvRest...)
				}
				break loop
			case slices.Contains(s.shellLong, name):
				p.shellText = append(p.shellText, value())
			case slices.Contains(w.progLong, name):
				v := value()
				p.prog = &v
			case !has && slices.Contains(s.valueLong, name):
				i++
			case !has && w.goBools != nil && !slices.Contains(w.goBools, name):
				i++
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			f := v[j]
			if f == w.shellFlag {
				p.shell = true
			}
			if strings.IndexByte(w.argvShort, f) >= 0 {
				argvRest, argv = args[i+1:], true
				if j+1 < len(v) {
					argvRest = append([]arg{{val: v[j+1:], known: true}}, argvRest...)
				}
				break loop
			}
			if strings.IndexByte(s.shellShort, f) >= 0 || strings.IndexByte(s.valueShort, f) >= 0 {
				val := arg{val: v[j+1:], known: true}
				if j+1 == len(v) {
					i++
					if i >= len(args) {
						break
					}
					val = args[i]
				}
				if strings.IndexByte(s.shellShort, f) >= 0 {
					p.shellText = append(p.shellText, val)
				}
				break
			}
		}
		i++
	}
	if argv {
		p.cmd = argvRest
		return p
	}
	if w.flagsOnly || i >= len(args) {
		return p
	}
	rest := args[i:]
	if w.dashDash {
		for k, a := range rest {
			if a.known && a.val == "--" {
				p.cmd = rest[k+1:]
				return p
			}
		}
	}
	if len(rest) <= s.leading {
		return p
	}
	rest = rest[s.leading:]
	if rest[0].known && rest[0].val == "--" {
		rest = rest[1:]
	}
	p.cmd = rest
	return p
}

// installed turns nix run's INSTALLABLE [--] ARGS into the command it
// runs: the program a flake's package attribute names (nixpkgs#busybox
// runs busybox), with the arguments after it. An installable naming no
// package attribute (., github:o/r) runs the flake's own program: nil.
func installed(cmd []arg) []arg {
	inst := cmd[0]
	_, attr, ok := strings.Cut(inst.val, "#")
	if !inst.known || !ok || attr == "" {
		return nil
	}
	if k := strings.LastIndexByte(attr, '.'); k >= 0 {
		attr = attr[k+1:]
	}
	rest := cmd[1:]
	for k, a := range rest {
		if a.known && a.val == "--" {
			rest = rest[k+1:]
			break
		}
	}
	return append([]arg{{val: path.Base(attr), known: true}}, rest...)
}
