package policy

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotStartupFiles: the configuration a program reads from its
// user's home or the system's wherever it runs (a shell's startup files,
// ssh_config, npmrc, cargo's config), written since warden started, has
// what it runs meet the deny list when that program runs; a shell that
// reads none of them, a file that runs nothing refused, an old file and
// another host's command are not held against the call.
func TestBlindSpotStartupFiles(t *testing.T) {
	dir, _ := lastingDir(t, "startup-")
	home := filepath.Join(dir, "home")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	p.rootHome = "" // warden runs as root: sudo -i reads Home's files
	included := ""
	for _, tc := range []struct {
		file, text string
		cmds       []string
	}{
		{".bashrc", "alias ll='ls -l'\nsystemctl reboot\n", []string{"bash -i", "bash", "sudo -i id", "bash -s", "bash -i < /dev/null"}},
		{".profile", "PATH=$HOME/bin:$PATH\nhalt -p\n", []string{"bash -lc true", "bash --login -c uptime", "sh -l", "sudo --login id"}},
		{".bash_profile", ". ~/.nothing\npoweroff\n", []string{"bash -l", "sudo -i"}},
		{".zshenv", "reboot\n", []string{"zsh -c true", "zsh"}},
		{".ssh/config", "Host *\n  ProxyCommand sh -c 'reboot'\n", []string{"ssh db1 uptime", "scp a db1:b", "rsync -a a db1:b", "git fetch"}},
		{".ssh/config", "Host x\n  PermitLocalCommand yes\n  LocalCommand init 0\n", []string{"ssh x"}},
		{".ssh/config", "Match host x exec \"test -f /x && reboot\"\n  User y\n", []string{"ssh x true", "sftp x"}},
		{".ssh/config", "Host *\n  KnownHostsCommand=/sbin/halt %H\n", []string{"ssh -p 2222 x"}},
		{".ssh/conf.d/x.conf", "Host *\n  ProxyCommand reboot\n", nil}, // included by the next
		{".ssh/config", "Include conf.d/*.conf\nHost y\n  User z\n", []string{"ssh y true"}},
		{".npmrc", "script-shell=/sbin/reboot\n", []string{"npm test", "npx jest", "pnpm run build"}},
		{".cargo/config.toml", "[build]\nrustc-wrapper = \"/sbin/poweroff\"\n", []string{"cargo build"}},
		{".config/fish/config.fish", "reboot\n", []string{"fish -c true"}},
		{".vimrc", "set number\nsilent !reboot\n", []string{"vim /etc/hosts", "vi -R x", "nvim"}},
		{".tmux.conf", "run-shell 'systemctl poweroff'\n", []string{"tmux", "tmux new -d -s x"}},
		{".psqlrc", "\\! reboot\n", []string{"psql -l"}},
		{".kube/config", "users:\n- name: x\n  user:\n    exec:\n      command: /sbin/reboot\n", []string{"kubectl get pods", "helm list"}},
		{".aws/config", "[default]\ncredential_process = /sbin/poweroff\n", []string{"aws s3 ls"}},
		{".sqliterc", ".shell halt\n", []string{"sqlite3 x.db .tables"}},
		{".dpkg.cfg", "# dpkg options\npost-invoke=systemctl reboot\n", []string{"dpkg -i x.deb"}},
		{".local/lib/python3.11/site-packages/x.pth", "import os; os.system('reboot')\n",
			[]string{"python3 -m json.tool x.json", "python3 -c 'print(1)'", "pip list"}},
		{".local/lib/python3.12/site-packages/usercustomize.py", "import subprocess\nsubprocess.run(['poweroff'])\n", []string{"python3 t.py"}},
		// The units systemctl starts run their unit files' Exec lines.
		{".config/systemd/user/evil.service", "[Unit]\nDescription=x\n[Service]\nExecStart=-/sbin/reboot\n",
			[]string{"systemctl --user start evil", "systemctl --user restart evil.service", "systemctl --user enable --now evil.timer"}},
		{".config/systemd/user/tpl@.service", "[Service]\nExecStartPre=/bin/sh -c 'systemctl poweroff'\n", []string{"systemctl --user start tpl@x"}},
		{".config/systemd/user/web.service.d/override.conf", "[Service]\nExecStartPost=halt\n", []string{"systemctl --user reload-or-restart web"}},
		// Mail clients, downloaders, X's start script, ksh's rc, svn's helpers,
		// docker's CLI plugins, gh's aliases, helm's plugins, REPLs and file
		// managers that run what their start-up files name.
		{".muttrc", "set editor=vim\nsource \"reboot|\"\n", []string{"mutt -s hi a@b < /dev/null", "neomutt -s hi a@b < /dev/null"}},
		{".aria2/aria2.conf", "on-download-complete=/sbin/reboot\n", []string{"aria2c https://x/y"}},
		{".config/yt-dlp/config", "--exec 'systemctl poweroff'\n", []string{"yt-dlp https://x/y"}},
		{".xinitrc", "exec reboot\n", []string{"startx", "xinit"}},
		{".kshrc", "halt\n", []string{"ksh -i", "mksh -i", "ksh93"}},
		{".mkshrc", "poweroff\n", []string{"mksh -i"}},
		{".subversion/config", "[helpers]\ndiff-cmd = /sbin/reboot\n", []string{"svn diff"}},
		{".docker/cli-plugins/docker-compose", "#!/bin/sh\nsystemctl reboot\n", []string{"docker compose ps", "docker info", "docker compose up -d"}},
		{".config/gh/config.yml", "aliases:\n    co: '!reboot'\n", []string{"gh pr list"}},
		{".local/share/helm/plugins/diff/plugin.yaml", "name: diff\ncommand: /sbin/poweroff\n", []string{"helm diff upgrade x ./c", "helm list"}},
		{".local/share/helm/plugins/diff/run.sh", "#!/bin/sh\nhalt\n", []string{"helm diff upgrade x ./c"}},
		{".gnupg/gpg-agent.conf", "pinentry-program /sbin/reboot\n", []string{"gpg --list-keys", "gpg -d x.gpg"}},
		{".pryrc", "system('reboot')\n", []string{"pry"}},
		{".config/rclone/rclone.conf", "[nas]\ntype = sftp\nssh = sh -c 'systemctl poweroff'\n", []string{"rclone ls nas:"}},
		{".config/ranger/commands.py", "import os\nos.system('poweroff')\n", []string{"ranger"}},
		{".config/mpv/scripts/x.lua", "os.execute('reboot')\n", []string{"mpv x.mkv"}},
		{".jupyter/jupyter_server_config.py", "import os\nos.system('poweroff')\n", []string{"jupyter lab", "jupyter notebook list"}},
		{".ipython/profile_default/startup/00-x.py", "import os\nos.system('halt')\n", []string{"jupyter lab", "ipython"}},
		{".lesskey", "#env\nLESSOPEN=|reboot %s\n", []string{"less /etc/hosts", "man ls"}},
		{".bash_aliases", "alias ll='ls -l'\npoweroff\n", []string{"bash -i", "sudo -i id"}},
		{".bash_logout", "halt\n", []string{"bash -lc true"}},
		{".zlogout", "reboot\n", []string{"zsh -l"}},
		{".config/fish/functions/ls.fish", "function ls\n  reboot\nend\n", []string{"fish -c ls"}},
		{".vim/plugin/x.vim", "silent !systemctl poweroff\n", []string{"vim /etc/hosts"}},
		{".config/nvim/plugin/x.lua", "os.execute('reboot')\n", []string{"nvim"}},
	} {
		f := writeUnder(t, home, tc.file, tc.text)
		if tc.cmds == nil {
			included = f // a file the next case includes
			continue
		}
		want := f
		if strings.HasPrefix(tc.text, "Include ") {
			want = included
		}
		newFileDenies(t, p, "~/"+tc.file, tc.text, "configuration names, and "+truncate(want, 64), tc.cmds)
		os.Remove(f)
	}
	// docker's configuration names another directory of CLI plugins.
	plugin := writeUnder(t, dir, "plugs/docker-x", "#!/bin/sh\nsystemctl poweroff\n")
	writeUnder(t, home, ".docker/config.json", `{"auths": {}, "cliPluginsExtraDirs": ["`+dir+`/plugs"]}`)
	if v := p.Evaluate(Input{Command: "docker ps"}); !v.Denied || !strings.Contains(v.Reason, plugin) {
		t.Errorf("a docker plugin in a directory config.json adds: %s, want denied", formatVerdict(v))
	}
	// A session started with no command starts its shell interactive.
	f := writeUnder(t, home, ".bashrc", "export EDITOR=vi\nsystemctl poweroff\n")
	if v := p.Evaluate(Input{Shell: "/bin/bash"}); !v.Denied || !strings.Contains(v.Reason, f) {
		t.Errorf("a session's bash with ~/.bashrc running poweroff: %s, want denied", formatVerdict(v))
	}
	for _, in := range []Input{{Shell: "/bin/sh"}, {Shell: "/bin/bash", Host: "nas"}, {}} {
		if v := p.Evaluate(in); v.Denied {
			t.Errorf("Evaluate(%+v) = %s: that shell reads no ~/.bashrc here", in, formatVerdict(v))
		}
	}
	// ssh_config files that include each other are each read once.
	writeUnder(t, home, ".ssh/config", "Include ~/.ssh/config\nInclude loop\n")
	writeUnder(t, home, ".ssh/loop", "Include config\nHost *\n  ProxyCommand halt\n")
	if v := p.Evaluate(Input{Command: "ssh x true"}); !v.Denied || !strings.Contains(v.Reason, "/.ssh/loop") {
		t.Errorf("ssh_config files that include each other: %s, want denied for loop's ProxyCommand", formatVerdict(v))
	}
	// Read only by the shells that read it; settings that run nothing.
	writeUnder(t, home, ".bashrc", "reboot\n")
	writeUnder(t, home, ".ssh/config", "Host reboot\n  User admin\n")
	writeUnder(t, home, ".config/systemd/user/ok.service", "[Unit]\nDescription=Say hello before a reboot\n[Service]\nExecStart=/bin/echo reboot\n")
	writeUnder(t, home, ".config/systemd/user/evil.service", "[Service]\nExecStart=/sbin/reboot\n")
	for _, c := range []string{"systemctl --user start ok", "systemctl --user status evil", "systemctl --user cat evil", "bash -c true", "sh -c uptime", "bash -n x.sh", "bash < /dev/null", "echo uptime | bash", "ssh reboot uptime", "ls ~"} {
		if v := p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: it reads no startup file that runs what the deny list refuses", c, formatVerdict(v))
		}
	}
}

// TestHookCommands: the commands read from the package tools' and
// services' configuration, in the formats they are written in (apt.conf's
// lists, as Debian's 99needrestart and 20listchanges have them; dpkg.cfg;
// logrotate's scripts; supervisor's programs), and nothing from their
// comments.
func TestHookCommands(t *testing.T) {
	for _, tc := range []struct {
		p, text string
		want    []string
	}{
		{"/etc/apt/apt.conf.d/99x", "// reboot when needed\nDPkg::Pre-Invoke { \"test -x /a && /a\"; };\n" +
			"DPkg::Post-Invoke {\n  \"rm -f /var/cache/x || true\";\n  \"/usr/sbin/reboot\";\n};\nAPT::Update::Post-Invoke-Success {\"touch /x\";};\n",
			[]string{"test -x /a && /a", "rm -f /var/cache/x || true", "/usr/sbin/reboot", "touch /x"}},
		{"/etc/apt/apt.conf.d/50unattended-upgrades", "// Automatically reboot *WITHOUT CONFIRMATION*\nUnattended-Upgrade::Automatic-Reboot \"false\";\n", nil},
		{"/etc/dpkg/dpkg.cfg.d/x", "# reboot\npost-invoke=halt\npre-invoke=/bin/true\nforce-unsafe-io\n", []string{"halt", "/bin/true"}},
		{"/etc/logrotate.d/nginx", "/var/log/nginx/*.log {\n  daily\n  # reboot\n  postrotate\n    invoke-rc.d nginx rotate >/dev/null 2>&1\n    poweroff\n  endscript\n}\n",
			[]string{"invoke-rc.d nginx rotate >/dev/null 2>&1", "poweroff"}},
		{"/etc/supervisor/conf.d/app.conf", "[program:app]\n; reboot\ncommand = /srv/app/run --port 80\nautorestart=true\n", []string{"/srv/app/run --port 80"}},
	} {
		got, ok := hookCommands(tc.p, tc.text)
		if !ok || strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("hookCommands(%s) = %q, %v; want %q", tc.p, got, ok, tc.want)
		}
	}
	if _, ok := hookCommands("/srv/app/tox.ini", "[testenv]\ncommands = reboot\n"); ok {
		t.Error("a project file was read as a service's configuration")
	}
}

// newFileDenies checks that each of cmds is denied, its reason holding
// want, for the file holding text that changed since p started; and that
// the first is not on another host, nor with the file older than p.
func newFileDenies(t *testing.T, p *Policy, file, text, want string, cmds []string) {
	t.Helper()
	for _, c := range cmds {
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, want) {
			t.Errorf("%s holding %q: Evaluate(%q) = %s, want denied for what it runs", file, text, c, formatVerdict(v))
		}
	}
	c := cmds[0]
	if v := p.Evaluate(Input{Command: c, Host: "nas"}); v.Denied {
		t.Errorf("another host's %q was denied for this host's %s: %s", c, file, formatVerdict(v))
	}
	old := *p
	old.since = time.Now().Add(time.Hour)
	if v := old.Evaluate(Input{Command: c}); v.Denied {
		t.Errorf("%s older than the policy was read for %q: %s", file, c, formatVerdict(v))
	}
}

// TestBlindSpotConfigOptions: configuration an option names in place of
// the user's (gpg --options, --homedir; yarn --use-yarnrc; hg
// --config-file), a Mercurial repository's .hg/hgrc found up from the
// working directory, and npm's settings that name code (--node-options,
// --init-module, --git, --node-gyp), written since warden started, meet
// the deny list when the program runs.
func TestBlindSpotConfigOptions(t *testing.T) {
	dir, p := lastingDir(t, "cfgopt-")
	write := func(name, text string) { writeUnder(t, dir, name, text) }
	write("g/gpg.conf", "list-options show-photos\nphoto-viewer \"reboot\"\n")
	write("ga/gpg-agent.conf", "pinentry-program /sbin/poweroff\n")
	write("cfg/yarnrc", "yarn-path \"/sbin/reboot\"\n")
	write("cfg/hgrc", "[hooks]\npre-status = halt\n")
	write("repo/.hg/hgrc", "[extensions]\n[hooks]\npre-status = systemctl reboot\n")
	write("repo/sub/x", "x\n")
	write("proj/package.json", `{"scripts":{"build":"echo hi"}}`+"\n")
	write("cfg/init.js", "require('child_process').execSync('reboot')\n")
	write("cfg/gyp.sh", "#!/bin/sh\nhalt -p\n")
	write("ok/gpg.conf", "keyserver hkps://keys.example.org\n")
	write("okrepo/.hg/hgrc", "[ui]\nusername = me\n")
	write("sv/web/run", "#!/bin/sh\nexec reboot\n")
	write("pk/x.pkr.hcl", "build {\n  provisioner \"shell-local\" {\n    inline = [\"reboot\"]\n  }\n}\n")
	write("pu/Pulumi.yaml", "name: x\nruntime: python\n")
	write("pu/__main__.py", "import os\nos.system('poweroff')\n")
	write("cdk/cdk.json", `{"app": "sh -c 'halt'"}`+"\n")
	write("sls/serverless.yml", "custom:\n  scripts:\n    hooks:\n      'deploy:finalize': reboot\n")
	write("mol/molecule/default/converge.yml", "- hosts: localhost\n  tasks:\n    - command: reboot\n")
	code := "import os\nos.system('reboot')\n"
	for _, f := range []string{"py/main.py", "py/srv/asgi2.py", "py/gconf.py", "py/web/gunicorn.conf.py", "py/proj.py", "py/tasks/app.py",
		"py/hello.py", "py/fl/app.py", "py/api.py", "py/st.py", "py/docs/conf.py", "py/mk/hooks/x.py"} {
		write(f, code)
	}
	write("py/mk/mkdocs.yml", "site_name: x\nhooks:\n  - hooks/x.py\n")
	write("py/jk/_plugins/x.rb", "system('reboot')\n")
	write("rs/Cargo.toml", "[package]\nname = \"x\"\nbuild = \"gen/main.rs\"\n")
	write("rs/gen/main.rs", "fn main() { std::process::Command::new(\"reboot\").status().unwrap(); }\n")
	for _, c := range []string{
		"gpg --options g/gpg.conf --list-keys", "gpg --options=" + dir + "/g/gpg.conf -k", "gpg --homedir g --list-keys",
		"gpg --homedir=" + dir + "/ga -d x.gpg", "gpg2 --homed ga --list-keys",
		"cd proj && yarn --use-yarnrc ../cfg/yarnrc install", "yarn --cwd proj --use-yarnrc=cfg/yarnrc install",
		"hg --config-file cfg/hgrc status", "hg -R repo status", "cd repo && hg status", "cd repo/sub && hg diff",
		"hg --cwd repo/sub status",
		"cd proj && npm run build --node-options=\"--require " + dir + "/cfg/init.js\"",
		"cd proj && npm init --init-module=" + dir + "/cfg/init.js", "cd proj && npm install --git " + dir + "/cfg/init.js",
		"cd proj && npm i --node-gyp=" + dir + "/cfg/gyp.sh",
		// A runit or s6 service's run script; infrastructure tools'
		// templates and programs.
		"s6-svc -u sv/web", "runsv " + dir + "/sv/web", "sv up " + dir + "/sv/web", "cd pk && packer build x.pkr.hcl",
		"packer build pk", "cd pu && pulumi up", "pulumi -C pu preview", "cd cdk && cdk deploy", "cd sls && sls deploy",
		"cd sls && serverless deploy", "cd mol && molecule test",
		// Python application servers and site builders load the project's
		// modules and files.
		"cd py && uvicorn main:app", "cd py && uvicorn --app-dir srv asgi2:app", "cd py && gunicorn -c gconf.py x:app",
		"cd py/web && gunicorn x:app", "cd py && celery -A proj worker", "cd py && celery --app=tasks.app worker",
		"cd py && flask --app hello run", "cd py/fl && flask run", "cd py && fastapi run api.py", "cd py && streamlit run st.py",
		"cd py && sphinx-build docs out", "cd py/mk && mkdocs build", "cd py/jk && jekyll build",
		"cd rs && cargo build", "cargo build --manifest-path rs/Cargo.toml",
	} {
		cmd := "cd " + dir + " && " + c
		if v := p.Evaluate(Input{Command: cmd}); !v.Denied || !strings.Contains(v.Reason, "reboot") &&
			!strings.Contains(v.Reason, "poweroff") && !strings.Contains(v.Reason, "halt") {
			t.Errorf("Evaluate(%q) = %s, want denied for what the configuration it names runs", cmd, formatVerdict(v))
		}
		if v := p.Evaluate(Input{Command: cmd, Host: "nas"}); v.Denied {
			t.Errorf("another host's %q was denied for this host's files: %s", c, formatVerdict(v))
		}
	}
	for _, c := range []string{"gpg --homedir ok --list-keys", "hg -R okrepo status", "gpg --options none.conf -k",
		"cd proj && npm run build --node-options=--max-old-space-size=4096", "cd proj && yarn install"} {
		if v := p.Evaluate(Input{Command: "cd " + dir + " && " + c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s, want not denied: its configuration runs nothing", c, formatVerdict(v))
		}
	}
	old := *p
	old.since = time.Now().Add(time.Hour)
	for _, c := range []string{"gpg --homedir g --list-keys", "hg -R repo status", "hg --config-file cfg/hgrc status"} {
		if v := old.Evaluate(Input{Command: "cd " + dir + " && " + c}); v.Denied {
			t.Errorf("a configuration older than the policy was read for %q: %s", c, formatVerdict(v))
		}
	}
}

// TestBlindSpotRootHome: when warden's own user is not root, what sudo, su
// and doas run as root reads root's configuration, not warden's user's.
func TestBlindSpotRootHome(t *testing.T) {
	dir, _ := lastingDir(t, "roothome-")
	home, root := filepath.Join(dir, "home"), filepath.Join(dir, "root")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	p.rootHome = root
	writeUnder(t, home, ".bashrc", "alias ll='ls -l'\n")
	writeUnder(t, root, ".bashrc", "systemctl reboot\n")
	writeUnder(t, root, ".profile", "poweroff\n")
	writeUnder(t, root, ".gitconfig", "[alias]\n\tst = !halt\n")
	writeUnder(t, root, ".ssh/config", "Host *\n  ProxyCommand reboot\n")
	for _, c := range []string{"sudo -i id", "sudo --login id", "sudo git st", "sudo -u root git st", "doas git st",
		"sudo bash -lc true", "sudo ssh x true", "su - -c id", "su -l root -c id", "su -lc id", "sudo -s bash -i"} {
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, root+"/") {
			t.Errorf("Evaluate(%q) = %s, want denied for what root's configuration runs", c, formatVerdict(v))
		}
		if v := p.Evaluate(Input{Command: c, Host: "nas"}); v.Denied {
			t.Errorf("another host's %q was denied for this host's files: %s", c, formatVerdict(v))
		}
	}
	// Warden's own user's configuration runs nothing; bob's is not root's;
	// su without a login reads no profile.
	for _, c := range []string{"git st", "bash -lc true", "ssh x true", "sudo -u bob git st", "su -c id", "su bob -c id"} {
		if v := p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: it reads no file of root's", c, formatVerdict(v))
		}
	}
}

// TestBlindSpotUserHome: sudo -u, doas -u, pkexec --user, su, runuser,
// gosu and su-exec run their command with the target user's home, whose
// start-up and configuration files it reads: a user made for the test
// (root only) with a home holding what the deny list refuses. A user that
// does not exist has no home to read, warden's own user's least of all.
func TestBlindSpotUserHome(t *testing.T) {
	dir, _ := lastingDir(t, "userhome-")
	home, root, bobs := filepath.Join(dir, "home"), filepath.Join(dir, "root"), filepath.Join(dir, "bob")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	p.rootHome = root
	writeUnder(t, home, ".gitconfig", "[alias]\n\tst = !systemctl reboot\n")
	writeUnder(t, root, ".bashrc", "alias ll='ls -l'\n")
	for _, c := range []string{"sudo -u wz-no-such-user git st", "su - wz-no-such-user -c id", "gosu wz-no-such-user git st"} {
		if v := p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: a user that does not exist has no home, and not warden's user's", c, formatVerdict(v))
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("makes a user with useradd: needs root")
	}
	bob := "wz" + strings.ToLower(strings.ReplaceAll(filepath.Base(t.TempDir()), "-", ""))
	bob = bob[:min(len(bob), 30)]
	if out, err := exec.Command("useradd", "--no-create-home", "--home-dir", bobs, "--shell", "/bin/sh", bob).CombinedOutput(); err != nil {
		t.Fatalf("useradd: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("userdel", bob).Run() })
	u, err := user.Lookup(bob)
	if err != nil {
		t.Fatal(err)
	}
	writeUnder(t, home, ".gitconfig", "[user]\n\tname = x\n")
	writeUnder(t, bobs, ".gitconfig", "[alias]\n\tst = !halt\n")
	writeUnder(t, bobs, ".profile", "poweroff\n")
	writeUnder(t, bobs, ".ssh/config", "Host *\n  ProxyCommand reboot\n")
	for _, c := range []string{"sudo -u " + bob + " git st", "sudo --user=" + bob + " ssh x true", "sudo -u '#" + u.Uid + "' git st",
		"sudo -iu " + bob, "sudo -u root -u " + bob + " git st", "doas -u " + bob + " git st", "pkexec --user " + bob + " git st",
		"su - " + bob + " -c id", "su -l " + bob, "runuser -u " + bob + " -- git st", "runuser -l " + bob + " -c id",
		"gosu " + bob + " git st", "gosu " + u.Uid + ":" + u.Gid + " ssh x true", "su-exec " + bob + " git st",
		"sudo -u " + bob + " sh -c 'cd /tmp && git st'"} {
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, bobs+"/") {
			t.Errorf("Evaluate(%q) = %s, want denied for what %s's configuration runs", c, formatVerdict(v), bob)
		}
		if v := p.Evaluate(Input{Command: c, Host: "nas"}); v.Denied {
			t.Errorf("another host's %q was denied for this host's files: %s", c, formatVerdict(v))
		}
	}
	// Root's and warden's user's homes are clean; sudo's last -u counts.
	for _, c := range []string{"git st", "sudo git st", "sudo -u " + bob + " -u root git st", "su -c id", "gosu root git st"} {
		if v := p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: it reads none of %s's files", c, formatVerdict(v), bob)
		}
	}
}

// TestBlindSpotInitScripts: service, invoke-rc.d and rc-service run the
// init script of the service they are given, and service's start of a
// systemd unit runs its Exec lines: written since warden started, each
// meets the deny list. The files are the system's own, so only root
// writes them (uniquely named, removed after).
func TestBlindSpotInitScripts(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("writes /etc/init.d and /etc/systemd/system: needs root")
	}
	p, err := New(Rules{Path: "/usr/bin:/bin:/usr/sbin:/sbin", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(t.TempDir()) // unique
	script, unit := "/etc/init.d/wz-"+name, "/etc/systemd/system/wz-"+name+"-u.service"
	for f, text := range map[string]string{script: "#!/bin/sh\ncase \"$1\" in\nstart) systemctl reboot ;;\nesac\n",
		unit: "[Service]\nExecStart=/sbin/poweroff\n"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(f) })
	}
	for _, c := range []string{"service wz-" + name + " start", "service wz-" + name + " status", "invoke-rc.d wz-" + name + " restart",
		"rc-service wz-" + name + " start", "service wz-" + name + "-u start", "service wz-" + name + "-u restart"} {
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, "/wz-"+name) {
			t.Errorf("Evaluate(%q) = %s, want denied for what the service's new script or unit runs", c, formatVerdict(v))
		}
		if v := p.Evaluate(Input{Command: c, Host: "nas"}); v.Denied {
			t.Errorf("another host's %q was denied for this host's files: %s", c, formatVerdict(v))
		}
	}
	// The unit's Exec lines run only when it starts.
	if v := p.Evaluate(Input{Command: "service wz-" + name + "-u status"}); v.Denied {
		t.Errorf("service status of a unit: %s, want not denied (its Exec lines do not run)", formatVerdict(v))
	}
}

// TestBlindSpotGitTemplates: a new repository gets its template
// directory's hooks, and git clone runs post-checkout before it returns:
// the template's hooks, written since warden started, meet the deny list
// on clone and init, wherever the template is named (the user's
// init.templateDir, --template, -c init.templateDir, GIT_TEMPLATE_DIR).
func TestBlindSpotGitTemplates(t *testing.T) {
	dir, _ := lastingDir(t, "gittpl-")
	home := filepath.Join(dir, "home")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	writeUnder(t, dir, "repo/.git/HEAD", "ref: refs/heads/main\n")
	cfg := writeUnder(t, home, ".gitconfig", "[init]\n\ttemplateDir = "+dir+"/tpl\n")
	hook := writeUnder(t, dir, "tpl/hooks/post-checkout", "#!/bin/sh\nsystemctl reboot\n")
	for _, c := range []string{"git clone repo r", "git init r", "git clone -q repo r && cd r && git log"} {
		if v := p.Evaluate(Input{Command: "cd " + dir + " && " + c}); !v.Denied || !strings.Contains(v.Reason, hook) {
			t.Errorf("Evaluate(%q) with ~/.gitconfig's init.templateDir = tpl: %s, want denied for tpl's post-checkout", c, formatVerdict(v))
		}
	}
	// A template in the home, as git expands ~/.
	writeUnder(t, home, ".gitconfig", "[init]\n\ttemplateDir = ~/tpl\n")
	homeHook := writeUnder(t, home, "tpl/hooks/post-checkout", "#!/bin/sh\nhalt\n")
	if v := p.Evaluate(Input{Command: "cd " + dir + " && git clone repo r"}); !v.Denied || !strings.Contains(v.Reason, homeHook) {
		t.Errorf("init.templateDir = ~/tpl: %s, want denied for ~/tpl's post-checkout", formatVerdict(v))
	}
	os.Remove(homeHook)
	os.Remove(cfg)
	for _, c := range []string{"git clone --template=tpl repo r", "git clone --template " + dir + "/tpl repo r",
		"git init --template=tpl r", "git -c init.templateDir=" + dir + "/tpl clone repo r", "GIT_TEMPLATE_DIR=" + dir + "/tpl git clone repo r"} {
		if v := p.Evaluate(Input{Command: "cd " + dir + " && " + c}); !v.Denied || !strings.Contains(v.Reason, hook) {
			t.Errorf("Evaluate(%q) = %s, want denied for tpl's post-checkout", c, formatVerdict(v))
		}
	}
	for _, c := range []string{"git clone repo r", "git -C repo status"} {
		if v := p.Evaluate(Input{Command: "cd " + dir + " && " + c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: no template names tpl", c, formatVerdict(v))
		}
	}
}

// TestBlindSpotPromptStrings: a prompt string is expanded as a
// double-quoted word each time it is shown (PS4 on every traced command),
// so a command substitution in one meets the deny list.
func TestBlindSpotPromptStrings(t *testing.T) {
	p := testPolicy(t)
	for _, c := range []string{"PS1='$(reboot)' bash -i", "export PS1='`poweroff`'", "PS4='$(halt)' bash -xc true",
		"SHELLOPTS=xtrace PS4='+$(systemctl reboot)' bash -c true", `PS1="a\"\$(reboot)\"b"`, "env PS0='$(reboot)' bash -i",
		"PROMPT='$(poweroff)' zsh -i", "declare -x PS2='$(halt -p)'"} {
		if v := p.Evaluate(Input{Command: c}); !v.Denied {
			t.Errorf("Evaluate(%q) = %s, want denied: the prompt's command substitution runs", c, formatVerdict(v))
		}
	}
	for _, c := range []string{`export PS1='\u@\h:\w\$ '`, "PS4='+ ${BASH_SOURCE}:${LINENO}: ' bash -xc true", "PS2='> '"} {
		if v := p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: the prompt runs nothing", c, formatVerdict(v))
		}
	}
}
