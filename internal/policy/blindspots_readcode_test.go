package policy

import "testing"

// tierCases makes exact cases of one tier, each named by its command.
func tierCases(tier Tier, cmds ...string) []exactCase {
	out := make([]exactCase, len(cmds))
	for i, c := range cmds {
		out[i] = exactCase{c, c, tier}
	}
	return out
}

// TestReadsThatStartProviders: terraform's and tofu's reading subcommands
// that load provider schemas start the provider binaries of the project
// (tier 2, like plan); those that read only configuration and state stay
// tier 0.
func TestReadsThatStartProviders(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierMutate,
		"terraform validate",
		"terraform validate -json",
		"terraform -chdir=/srv/infra validate",
		"terraform console",
		"terraform -chdir=infra console",
		"terraform graph",
		"terraform graph -type=plan",
		"terraform show",
		"terraform show -json",
		"terraform show -json plan.out",
		"terraform state show aws_instance.web",
		"terraform providers schema -json",
		"terraform refresh",
		"tofu validate",
		"tofu show -json",
		"tofu state show aws_instance.web",
		"tofu graph",
		"tofu providers schema -json",
		"sudo terraform validate",
		"env TF_LOG=1 terraform validate",
		"timeout 60 terraform -chdir=infra show -json",
		"sh -c 'terraform validate'",
		"cd infra && terraform validate",
	))
	runExactHosts(t, p, tierCases(TierRead,
		"terraform version",
		"terraform -version",
		"terraform output",
		"terraform output -json",
		"terraform state list",
		"terraform workspace list",
		"terraform workspace show",
		"terraform providers",
		"terraform metadata functions -json",
		"tofu output -json",
		"tofu state list",
		"tofu version",
	))
}

// TestReadsThatStartViewers: npm's page commands start the browser or
// manual viewer an .npmrc names (the project's included); listing and
// viewing package data start nothing.
func TestReadsThatStartViewers(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierMutate,
		"npm docs",
		"npm docs express",
		"npm repo express",
		"npm bugs",
		"npm bugs express",
		"npm help install",
		"npm help config",
		"npm fund express",
		"npm --prefix /srv/app docs",
		"npm docs express --json",
		"sudo -u app npm repo",
	))
	runExactHosts(t, p, tierCases(TierRead,
		"npm help",
		"npm fund",
		"npm fund --json",
		"npm view express",
		"npm view express versions --json",
		"npm ls --all",
		"npm outdated",
		"npm explain express",
	))
}

// TestReadsThatRunNamedCode: options of reading subcommands that name an
// interpreter, a hook file, a plugin directory or a configuration that
// names plugins.
func TestReadsThatRunNamedCode(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierMutate,
		// pip --python X runs X -m pip: X is the program classified.
		"pip list --python .venv",
		"pip check --python=./bin/tool",
		// pnpm's hooks file.
		"pnpm ls --pnpmfile=x.cjs",
		"pnpm list --pnpmfile x.cjs",
		"pnpm --config.pnpmfile=x.cjs view foo",
		// dnf and yum load Python plugins on every command.
		"dnf list -c /etc/dnf/alt.conf",
		"dnf list --config=/etc/dnf/alt.conf",
		"dnf list --conf /etc/dnf/alt.conf",
		"dnf info bash --setopt=pluginpath=/usr/lib/dnf-plugins",
		"dnf list --setopt pluginpath=/opt/plugins",
		"dnf list --setop=pluginconfpath=/etc/dnf/p",
		"dnf repoquery --setopt=main.pluginpath=/opt/p bash",
		"yum info bash --setopt=pluginpath=/opt/p",
		"yum list -c /etc/yum-alt.conf",
		// ansible's documentation and inventory commands load plugins.
		"ansible-doc -M ./plugins -l",
		"ansible-doc --module-path=./plugins -l",
		"ansible-doc --playbook-dir . -t filter -l",
		"ansible-doc --playbook-di=. -l",
		"ansible-config dump -c ./ansible.cfg",
		"ansible-config list --config=/etc/ansible/x.cfg",
		"ansible-inventory --list --playbook-dir ./pb",
		"ansible-inventory --graph --playbook-dir=/srv/pb",
	))
	runExactHosts(t, p, tierCases(TierDestructive,
		// An executable vault password file is run for the password.
		"ansible-inventory --list --vault-password-file ./x.sh",
		"ansible-inventory --list --vault-pass-file=./x.sh",
		"ansible-inventory --list --vault-id dev@./x.sh",
		"ansible-inventory --list --vault-id ./x.sh",
		"ansible-doc -l --vault-id dev@./x.sh",
		// An interpreter or option computed at run time.
		`pip list --python "$PY"`,
		`dnf list --setopt="$OPT"`,
		// The same code named where a tier 1 write can have put it.
		"pnpm ls --global-pnpmfile=/tmp/h.cjs",
		"dnf list -c /tmp/dnf.conf",
		"dnf list --config=/tmp/dnf.conf",
		"dnf info bash --setopt=pluginpath=/tmp/x",
		"dnf list --setopt pluginpath=/usr/lib/p,/tmp/x",
		"yum list -c /tmp/yum.conf",
		"ansible-config list --config=/tmp/x.cfg",
	))
	runExactHosts(t, p, tierCases(TierRead,
		"pip list",
		"pip --proxy http://proxy:3128 list",
		"pip list --python python3",
		"pip list --python /usr/bin/python3.12",
		"pnpm ls",
		"pnpm list --depth 0",
		"dnf list installed",
		"dnf list --setopt=installonly_limit=3",
		"dnf repoquery bash",
		"yum info bash",
		"ansible-doc -l",
		"ansible-doc -t filter -l",
		"ansible-doc ansible.builtin.copy",
		"ansible-config dump",
		"ansible-config list",
		"ansible-config view",
		"ansible-inventory --list",
		"ansible-inventory --graph",
		"ansible-inventory --list --vault-id dev@prompt",
	))
}

// TestReadsThatEvaluateFiles: brew evaluates the Ruby of a formula given
// by path or URL and rpm expands a spec file's macros (%(…) runs a shell)
// even to list or query them: unseen code, tier 3. restic's -o programs
// are classified as the commands they are; brew home starts a browser.
func TestReadsThatEvaluateFiles(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierDestructive,
		"brew info ./x.rb",
		"brew info --formula ./x.rb",
		"brew deps /tmp/x.rb",
		"brew desc x.rb",
		"brew --prefix ./x.rb",
		"brew info https://example.com/x.rb",
		"brew uses --recursive ../f/x.rb",
		"rpm -q --specfile x.spec",
		"rpm -q --spec x.spec",
		"rpm --specfile -q x.spec",
		"rpm -q --queryformat '%{NAME}\\n' --specfile /tmp/x.spec",
		`restic snapshots -o "$O"`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		"brew home",
		"brew home wget",
		"restic -r sftp:h:/r ls latest -o sftp.command=./tunnel",
		// The working directory's interpreter, whatever its name
		// (programdirs.go).
		"pip show requests --python ./venv/bin/python",
	))
	// A program under a temporary directory is whatever a benign call
	// wrote there (agentprogram.go).
	runExactHosts(t, p, tierCases(TierDestructive,
		"pip --python /tmp/x list",
		"pip --python=/tmp/x list",
		"pip --pyth /tmp/x list",
		"pip --py=/tmp/x show requests",
		"pip3 list --python /tmp/evil",
		"restic snapshots -o sftp.command=/tmp/x",
		"restic snapshots --option=rclone.program=/tmp/x",
	))
	runExactHosts(t, p, tierCases(TierRead,
		"brew info wget",
		"brew info homebrew/core/wget",
		"brew deps --tree wget",
		"brew list",
		"brew --prefix",
		"brew --prefix openssl",
		"rpm -qa",
		"rpm -qi bash",
		"rpm -qf /usr/bin/ls",
		"restic snapshots",
		"restic snapshots -o s3.region=eu-west-1",
	))
}

// TestReadsPointedAtAProject: helm's --dependency-update writes the
// chart's dependencies into it even to render or lint, and yarn --cwd
// runs the yarn release and plugins the named project's .yarnrc.yml
// names.
func TestReadsPointedAtAProject(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierMutate,
		"helm template x ./c --dependency-update",
		"helm template x ./c --dependency-update=true",
		"helm lint ./c --dependency-update",
		"helm show values ./c --dependency-update",
		"yarn --cwd /srv/p info foo",
		"yarn info foo --cwd=/srv/p",
		"yarn --cwd app list",
	))
	// A project a tier 1 write could make: its yarnPath is run (projectdirs.go).
	runExactHosts(t, p, tierCases(TierDestructive,
		"yarn --cwd /tmp/p info foo",
		"yarn info foo --cwd=/tmp/p",
		"yarn --cwd ../app list",
	))
	runExactHosts(t, p, tierCases(TierRead,
		"helm template x ./c",
		"helm template x ./c --dependency-update=false",
		"helm lint ./c",
		"helm show values ./c",
		"yarn list",
		"yarn info foo",
		"yarn --version",
	))
}

// TestReadsGivenCodeByOptionOrEnv: podman's global options name the OCI
// runtime, conmon and network tool that ps and info run, or storage it
// mounts and writes; terraform's CLI configuration, data directory and
// TF_CLI_ARGS*, and RubyGems' plugin and Gemfile paths, point a reading
// command at code however they are set.
func TestReadsGivenCodeByOptionOrEnv(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierMutate,
		"podman --runtime=/tmp/x ps",
		"podman --runtime /tmp/x info",
		"podman --conmon=/tmp/x version",
		"podman --network-cmd-path=/tmp/x info",
		"podman --module=./x.conf ps",
		"podman --storage-opt=overlay.mount_program=/tmp/x images",
		"podman --root=/tmp/r ps",
		"sudo podman --runtime=/tmp/x ps",
	))
	runExactHosts(t, p, tierCases(TierDestructive,
		"TF_CLI_CONFIG_FILE=/tmp/x terraform output",
		"env TF_CLI_CONFIG_FILE=/tmp/x tofu output",
		"TF_DATA_DIR=/tmp/x terraform output",
		"TF_CLI_ARGS_apply=-destroy terraform apply",
		"env TF_CLI_ARGS='-destroy' terraform apply",
		"export TF_CLI_ARGS_apply=-destroy; terraform apply",
		"GEM_HOME=/tmp/g gem list",
		"GEM_PATH=/tmp/g gem env",
		"RUBYGEMS_GEMDEPS=/tmp/Gemfile gem list",
		"BUNDLE_GEMFILE=/tmp/Gemfile gem list",
		`podman --runtime="$R" ps`,
	))
	runExactHosts(t, p, tierCases(TierRead,
		"podman ps",
		"podman ps --format json",
		"podman info",
		"podman images",
		"podman --log-level=debug ps",
		"terraform output",
		"TF_LOG=debug terraform output",
		"TF_WORKSPACE=prod terraform output",
		"TF_IN_AUTOMATION=1 terraform state list",
		"gem list",
	))
}

// TestHelpAndDocThatRun: help and documentation modes that start another
// program: cargo help of an external subcommand runs cargo-NAME --help,
// go doc -http builds and runs pkgsite; a kuberc changes the flags of
// every kubectl command, and helm --repository-cache is where show and
// template download a chart.
func TestHelpAndDocThatRun(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierMutate,
		"cargo help foo",
		"cargo help audit",
		"go doc -http",
		"go doc -http=:8080 fmt",
		"go doc --http fmt",
		"helm show values repo/c --repository-cache /etc/x",
		"helm template x repo/c --repository-cache=/tmp/hc",
	))
	runExactHosts(t, p, tierCases(TierDestructive,
		"kubectl --kuberc=/tmp/x get pods",
		"kubectl get pods --kuberc /tmp/x",
		"KUBERC=/tmp/x kubectl get pods",
		"env KUBERC=/tmp/x kubectl version",
	))
	runExactHosts(t, p, tierCases(TierRead,
		"cargo help",
		"cargo help build",
		"cargo help b",
		"cargo help tree",
		"go doc fmt",
		"go doc -all fmt",
		"go doc -u -src fmt.Println",
		"kubectl get pods",
		"helm show values repo/c",
	))
}

// TestReadersGivenConfig: apt-config runs Dir::Bin::dpkg to learn the
// architectures before it dumps, so it takes apt's -c and -o rules; an
// ack configuration, default options or pager variable can name the
// pager ack runs.
func TestReadersGivenConfig(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierDestructive,
		"apt-config -o Dir::Bin::dpkg=/tmp/x dump",
		"apt-config dump -o Dir::Bin::dpkg=/tmp/x",
		"apt-config --option=Dir::Bin::dpkg=/tmp/x dump",
		"apt-config -oDir::Bin::dpkg=/tmp/x dump",
		"apt-config -c /tmp/x dump",
		"apt-config --config-file=/tmp/x shell A B",
		"sudo apt-config -c /tmp/x dump",
		"ack --ackrc=/tmp/x foo",
		"ack --ackrc /tmp/x foo",
		"ack --ackr=/tmp/x foo",
		"ACKRC=/tmp/x ack foo",
		"ACK_OPTIONS=--pager=/tmp/x ack foo",
		"env ACK_PAGER=/tmp/x ack foo",
		"ACK_PAGER_COLOR=/tmp/x ack foo",
	))
	runExactHosts(t, p, tierCases(TierRead,
		"apt-config dump",
		"apt-config dump APT::Periodic",
		"apt-config shell A APT::Architecture",
		"ack foo",
		"ack -i --type=python foo src/",
		"ack --noenv foo",
	))
}

// TestReadsThatWriteWhereTold: reading commands that write a log, cache
// or report where an option tells them: every npm command its debug log
// (--logs-dir) and fetched data (--cache), pip's version check its state
// (--cache-dir), every dnf and yum command its logs, cache and history
// (--setopt=logdir… and --installroot), ansible-inventory --output in the
// "=" spelling too.
func TestReadsThatWriteWhereTold(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, tierCases(TierMutate,
		"npm ls --logs-dir=/etc/x",
		"npm ls --logs-dir /tmp/l",
		"npm view foo --cache /etc/x",
		"npm ls --cache=/etc/x",
		"pip --cache-dir /etc/x list",
		"pip list --cache-dir=/etc/x",
		"pip list --cache-d=/etc/x",
		"dnf list --setopt=cachedir=/etc/x",
		"dnf list --setopt=logdir=/etc/x",
		"dnf list --setopt persistdir=/etc/x",
		"yum list --setopt=logdir=/etc/x",
		"dnf list --installroot=/tmp/r",
		"dnf list --installroot /srv/root",
		"ansible-inventory --list --output=/etc/x",
		"ansible-inventory --list --output /etc/x",
		"ansible-inventory --list --out=/tmp/inv.json",
		// virsh logs every command to --log; zypper refreshes into its
		// root and cache directories and runs plugins from --plugin-dir or
		// the one a zypp.conf names.
		"virsh --log=/etc/x list",
		"virsh -l /etc/x list",
		"zypper --root=/tmp/r se x",
		"zypper --cache-dir=/etc/x se x",
		"zypper --plugin-dir=/tmp/p se x",
		"zypper --plug=/tmp/p se x",
		"zypper --config=/tmp/z.conf lr",
		"zypper -c /tmp/z.conf se x",
	))
	runExactHosts(t, p, tierCases(TierRead,
		"npm ls",
		"npm view foo",
		"pip list",
		"pip show requests",
		"dnf list",
		"dnf list --setopt=installonly_limit=3",
		"ansible-inventory --list",
		"virsh list",
		"virsh -c qemu:///system list",
		"zypper se x",
		"zypper lr",
		"zypper -n se x",
		"zypper --non-interactive info bash",
	))
}
