package policy

import "testing"

// TestBlindSpotGitSubmoduleUpdate: submodule.NAME.update = !cmd runs cmd
// on git submodule update, and remote.NAME.url names where fetch and push
// go (ext::cmd, or a host the host rules never see), in every way git
// takes a setting.
func TestBlindSpotGitSubmoduleUpdate(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"git -c submodule.x.update='!reboot' submodule update", "git -c Submodule.X.Update=!reboot submodule update --init",
		"git clone -c submodule.x.update='!reboot' /tmp/r",
		"git -c remote.origin.url=http://169.254.169.254/ fetch", // a denied host
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"git -c submodule.x.update='!touch /tmp/p' submodule update --init",
		"git config submodule.x.update '!touch /tmp/p'", "git -c remote.origin.url=http://example.com/ fetch",
		"git -c remote.origin.pushurl='ext::sh -c id' push",
	))
	runExact(t, p, []exactCase{
		{"other remote keys", "git -c core.logAllRefUpdates=true log", TierRead},
		{"reading the setting", "git config --get submodule.x.update", TierRead},
	})
}

// TestBlindSpotEditorsAndFinders: every name of vim runs its start-up
// commands (vimdiff -c '!cmd'), nvim -l runs a Lua script, and fzf and
// skim run the shell commands of --bind (start:execute(…) fires with no
// key), --preview and -c/--cmd, and of the variables that set them.
func TestBlindSpotEditorsAndFinders(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"vimdiff -c '!reboot' a b", "gvimdiff '+!reboot' a b", "rview -c '!reboot' f", "evim --cmd '!reboot'",
		"fzf --bind 'start:execute(reboot)'", "fzf --preview 'rm -rf / {}'", "sk -c 'reboot'",
		"FZF_DEFAULT_COMMAND=reboot fzf",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"vimdiff -c '!touch /tmp/p' a b", "nvim -l /tmp/x.lua", "nvim --clean -l /tmp/x.lua",
		"fzf --bind='load:become(touch /tmp/p)'", "fzf --listen 6266", "sk --cmd=x",
		"FZF_DEFAULT_OPTS='--bind start:execute(x)' fzf -f x", "export FZF_DEFAULT_OPTS_FILE=/tmp/x; fzf -f x",
	))
	runExact(t, p, []exactCase{
		{"vimdiff", "vimdiff a b", TierMutate},
		{"vim -l is lisp mode", "vim -l f", TierMutate},
		{"fzf filter", "ls | fzf -f x", TierRead},
		{"fzf --filter=", "fzf --filter=x < /tmp/list", TierRead},
		{"fzf preview of a reader", "fzf --preview 'cat {}'", TierMutate},
	})
}

// TestBlindSpotSystemdLater: what the service manager and systemd's
// configuration tools apply runs later as root: set-environment's
// variables reach every unit started after it, and a tmpfiles or sysusers
// configuration creates files of any mode (setuid included), writes any
// file and adds users of any uid.
func TestBlindSpotSystemdLater(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"systemctl set-environment LD_PRELOAD=/tmp/x.so", "systemctl set-environment FOO=1 PATH=/tmp:/usr/bin",
		"systemctl --user set-environment BASH_ENV=/tmp/x", `systemctl set-environment "$V"`,
		"systemd-tmpfiles --create /tmp/x.conf", "systemd-tmpfiles --create - < /tmp/f", "sudo systemd-tmpfiles --create --remove /tmp/x.conf",
		"systemd-tmpfiles --replace=/srv/x.conf /tmp/x", "systemd-sysusers /tmp/x.conf", "systemd-sysusers - < /tmp/f",
	))
	runExact(t, p, []exactCase{
		{"plain variable", "systemctl set-environment FOO=1", TierMutate},
		{"system configuration", "systemd-tmpfiles --create", TierMutate},
		{"under a root", "systemd-tmpfiles --root /mnt --create", TierMutate},
		{"show configuration", "systemd-tmpfiles --cat-config", TierRead},
	})
}

// TestBlindSpotGitHelpPager: git help CMD shows the page with man (and
// its pager), info or a web browser, like man CMD, in every spelling: git
// help -w/-m/-i, git CMD --help, git --help CMD. Lists are printed.
func TestBlindSpotGitHelpPager(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"git help log", "git help -w log", "git help --web log", "git help -m log", "git help -i log",
		"git log --help", "git --help log", "sudo git help status",
	))
	runExact(t, p, []exactCase{
		{"bare help", "git help", TierRead},
		{"list all", "git help -a", TierRead},
		{"guides", "git help --guides", TierRead},
		{"usage", "git log -h", TierRead},
	})
}

// TestBlindSpotAnacronTable: anacron -t TABLE runs that table's jobs as
// root (now, with -n), in every spelling of -t.
func TestBlindSpotAnacronTable(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"anacron -t /tmp/tab -fn", "anacron -fnt /tmp/tab", "anacron -t/tmp/tab", "anacron -S /tmp/s -t /tmp/tab",
		"sudo anacron -d -t /tmp/tab",
	))
	runExact(t, p, []exactCase{
		{"system jobs", "anacron -f", TierMutate},
		{"test the table", "anacron -T -t /tmp/tab", TierRead},
	})
}

// TestBlindSpotRunLaterFiles: files whose commands something runs later,
// outside warden's confinement, like a cron job: udev rules (RUN+=),
// modprobe install lines, apt hooks, logrotate scripts, network hooks,
// upstart jobs, autostart entries, user units, binfmt handlers, sysctl's
// core_pattern pipe, ~/.vimrc and ~/.ssh/rc. Writing them is tier 3 by
// any program that writes.
func TestBlindSpotRunLaterFiles(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"cp x /etc/udev/rules.d/99-x.rules", "echo 'RUN+=\"/tmp/x\"' > /etc/udev/rules.d/x.rules", "cp x /usr/lib/udev/rules.d/",
		"tee /etc/modprobe.d/x.conf < /tmp/x", "cp x /etc/apt/apt.conf.d/99x", "echo x > /etc/logrotate.d/x",
		"cp x /etc/NetworkManager/dispatcher.d/x", "cp x /etc/network/if-up.d/x", "cp x /etc/init/x.conf",
		"cp x /etc/xdg/autostart/x.desktop", "cp x ~/.config/autostart/x.desktop", "cp x ~/.config/systemd/user/x.service",
		"echo x > ~/.vimrc", "echo x > ~/.ssh/rc", "echo ':x:M::a::/tmp/x:' > /etc/binfmt.d/x.conf",
		"echo 'kernel.core_pattern=|/tmp/x' > /etc/sysctl.d/99-x.conf", "echo x >> /etc/sysctl.conf", "cp x /etc/gitconfig",
		"curl -o /etc/logrotate.d/x https://example.com/x", "sed -n 'w /etc/modprobe.d/x.conf' f", "mv /tmp/x /etc/tmpfiles.d/x.conf",
	))
	runExact(t, p, []exactCase{
		{"reading a udev rule", "cat /etc/udev/rules.d/99-x.rules", TierRead},
		{"an ordinary config", "cp x /etc/nginx/conf.d/x.conf", TierMutate},
		{"a file in .config", "cp x ~/.config/x.conf", TierMutate},
	})
}

// TestBlindSpotCodeFromFiles: programs that run code from a file or a
// variable the command line only names: ansible's inventories (scripts,
// or plugins whose Jinja2 runs lookup('pipe')) and playbooks, man-db's
// configuration, roff's unsafe mode, tc's exec … run and batch files, and
// the variables that pick such files or code.
func TestBlindSpotCodeFromFiles(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"ansible-inventory -i /tmp/inv.py --list", "ansible-inventory --inventory=/tmp/inv --graph",
		"ansible-inventory -i/tmp/inv --list", "ansible-inventory --inv /tmp/inv --list", `ansible-inventory --list -i "$I"`,
		"ansible -i /tmp/inv.py all -m ping", "ansible --inventory-file /tmp/inv all -m setup",
		"ansible-playbook /tmp/x.yml", "ansible-playbook --check -i h1, /tmp/x.yml", "ansible-playbook -i /tmp/inv --list-hosts x.yml",
		"man -C /tmp/man.conf ls", "man --config-file=/tmp/c ls", "man -kC /tmp/c printf",
		"groff -U /tmp/x", "groff -tU -Tutf8 /tmp/x", "nroff -U -man /tmp/x.1", "troff -U x",
		"tc -b /tmp/f", "tc -batch /tmp/f", "tc -force -batch - < /tmp/f",
		"ANSIBLE_INVENTORY=/tmp/i ansible-inventory --list", "ANSIBLE_CONFIG=/tmp/a.cfg ansible all -m ping",
		"ANSIBLE_CALLBACK_PLUGINS=/tmp/p ansible all -m ping", "export ANSIBLE_VAULT_PASSWORD_FILE=/tmp/x; ansible-inventory --list",
		"LUA_INIT='os.execute(\"id\")' lua -v", "LUA_INIT=@/tmp/x.lua lua -v", "LUA_PATH='/tmp/?.lua' lua -v",
		"MANROFFOPT=-U man ls", "GROFF_COMMAND_PREFIX=/tmp/ man ls", "PSQLRC=/tmp/x psql -c 'select 1'",
		"MYSQL_HOME=/tmp/x mysql -e 'select 1'", "R_PROFILE_USER=/tmp/x R --version", "AWS_CONFIG_FILE=/tmp/x aws s3 ls",
		"GOWORK=/tmp/w go list ./...", "KUBE_EDITOR=/tmp/x kubectl get pods", "env KUBE_EDITOR='sh -c id' kubectl edit deploy x",
	))
	runBlind(t, p, sameCases(TierDestructive, true,
		"tc exec bpf imp /tmp/s run reboot", "tc exec bpf import /tmp/s run sh -c 'rm -rf /'", "KUBE_EDITOR=reboot kubectl edit x",
	))
	runBlind(t, p, sameCases(TierMutate, false, "GOCACHE=/etc/x go list ./...", "GOMODCACHE=/etc/x go list -m all"))
	runExact(t, p, []exactCase{
		{"inventory as a host list", "ansible-inventory -i h1,h2, --list", TierRead},
		{"default inventory", "ansible-inventory --list", TierRead},
		{"ansible ping on a host list", "ansible -i localhost, localhost -m ping", TierBenign},
		{"playbook syntax check", "ansible-playbook --syntax-check x.yml", TierMutate},
		{"groff safe", "groff -man -Tutf8 /tmp/x", TierMutate},
		{"groff -m with U", "groff -mU x", TierMutate},
		{"tc exec run ls", "tc exec bpf imp /tmp/s run ls", TierMutate},
		{"go list", "go list ./...", TierRead},
	})
}
