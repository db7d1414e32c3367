package policy

import "testing"

// TestBlindSpotWr38SubcommandWrappers: a program one of whose
// subcommands runs the command in its arguments (secret managers,
// project and toolchain environments, containers, schedulers, terminals)
// runs exactly that command, so the deny rules refuse it there as they
// do bare, in every spelling of the wrapper's options; before, the
// classifier only guessed at a command among the words, which raised the
// tier and denied nothing.
func TestBlindSpotWr38SubcommandWrappers(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"op run -- reboot",
		"op run --env-file=.env -- reboot",
		"op run --env-file .env reboot",
		"aws-vault exec prof -- reboot",
		"aws-vault --debug exec -d 1h prof reboot",
		"direnv exec . reboot",
		"direnv exec /srv rm -rf /",
		"nix-shell --run reboot",
		"nix-shell -p x --command reboot",
		"nix-shell -p hello --run 'cd / && rm -rf /'",
		"nix run nixpkgs#busybox -- reboot",
		"nix develop -c reboot",
		"nix develop .#x --command poweroff",
		"nix shell nixpkgs#x nixpkgs#y -c reboot",
		"nix --extra-experimental-features 'nix-command flakes' develop --comm reboot",
		"toolbox run reboot",
		"toolbox run -c box reboot",
		"distrobox enter box -- reboot",
		"distrobox-enter --name box -- halt",
		"sem reboot",
		"sem --id x -j2 'rm -rf /'",
		"schedtool -e reboot",
		"schedtool -a 0x1 -e reboot",
		"doppler run -- reboot",
		"doppler run -p x -c prd -- reboot",
		"doppler run --command 'reboot'",
		"dotenv -- reboot",
		"dotenv -e .env -- reboot",
		"dotenv run reboot",
		"dotenvx run -f .env -- reboot",
		"infisical run -- reboot",
		"infisical run --env=prod --command 'reboot'",
		"chamber exec svc -- reboot",
		"chamber exec a b -- reboot",
		"envconsul reboot",
		"envconsul -prefix foo reboot",
		"envconsul -once -prefix foo reboot",
		"summon reboot",
		"summon -p x reboot",
		"sops exec-env f 'reboot'",
		"sops exec-file f 'rm -rf /'",
		"pipenv run reboot",
		"poetry run reboot",
		"poetry -C /srv run reboot",
		"poetry run mkfs.ext4 /dev/sda",
		"poetry run dd if=/dev/zero of=/dev/sda",
		"uv run reboot",
		"uv run --with x reboot",
		"uv run -p 3.12 -- reboot",
		"bundle exec reboot",
		"rye run reboot",
		"pdm run reboot",
		"hatch run reboot",
		"pixi run reboot",
		"conda run -n x reboot",
		"micromamba run -p /opt/env reboot",
		"mise exec -- reboot",
		"mise x node@20 -- reboot",
		"mise exec -c reboot",
		"asdf exec reboot",
		"pyenv exec reboot",
		"rbenv exec reboot",
		"volta run --node 18 reboot",
		"fnm exec --using=18 -- reboot",
		"devbox run reboot",
		"saml2aws exec -- reboot",
		"berglas exec -- reboot",
		"teller run -- reboot",
		"env-cmd -f .env reboot",
		"cross-env A=1 reboot",
		"envchain ns reboot",
		"hyperfine reboot",
		"hyperfine -w 3 'ls' 'reboot'",
		"hyperfine --prepare reboot ls",
		"entr reboot",
		"entr -s 'reboot'",
		"watchexec -- reboot",
		"watchexec -e go reboot",
		"tsp reboot",
		"schroot -c x -- reboot",
		"flatpak run --command=reboot x",
		"flatpak run --command reboot org.x.y",
		"lxc exec c -- reboot",
		"incus exec c reboot",
		"xterm -e reboot",
		"xterm -geometry 80x24 -e reboot",
		"alacritty --command reboot",
		"gnome-terminal -- reboot",
		"torify reboot",
		"sandbox-exec -p x reboot",
		"sudo poetry run reboot",
		"env A=1 uv run reboot",
		"/usr/local/bin/op run -- reboot",
		"op run -- sh -c 'reboot'",
		"nice -n5 doppler run -- rm -rf /",
		"f() { poetry run \"$@\"; }; f reboot",
	))
	runExactHosts(t, p, []exactCase{
		{"poetry run pytest", "poetry run pytest -x", TierMutate},
		{"uv run pytest", "uv run pytest", TierMutate},
		{"op run env", "op run -- env", TierMutate},
		{"bundle exec rake", "bundle exec rake -T", TierMutate},
		{"nix-shell run", "nix-shell -p hello --run 'hello'", TierMutate},
		{"flatpak run", "flatpak run org.x.y", TierMutate},
		{"flatpak command ls", "flatpak run --command=ls org.x.y /", TierMutate},
		{"flatpak list", "flatpak list", TierRead},
		{"lxc list", "lxc list", TierRead},
		{"xterm top", "xterm -e top", TierMutate},
		{"torify curl", "torify curl http://x", TierBenign},
		{"hyperfine ls", "hyperfine 'ls' 'ls -la'", TierMutate},
	})
}

// TestBlindSpotWr38GitExt: git's ext:: transport runs the command its URL
// names (split at blanks, "% " a blank inside a word), wherever git takes
// a URL: the command meets the deny rules as the same words bare do.
func TestBlindSpotWr38GitExt(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"git clone 'ext::sh -c reboot' x",
		`git clone "ext::sh -c rm% -rf% /" x`,
		"git fetch ext::reboot",
		`git ls-remote "ext::sh -c reboot"`,
		"git -c protocol.ext.allow=always ls-remote ext::reboot",
		"git -c remote.origin.url=ext::reboot fetch",
		"git -c 'url.ext::reboot .insteadOf=https://x' clone https://x/y",
		"git archive --remote=ext::reboot HEAD",
		"git remote add o ext::reboot",
		"git submodule add ext::poweroff m",
		"git config remote.o.url 'ext::reboot'",
		"git -C /srv pull 'ext::dd if=/dev/zero of=/dev/sda'",
		"sudo git clone ext::reboot x",
		"u='ext::sh -c reboot'; git clone \"$u\" x",
	))
	runExactHosts(t, p, []exactCase{
		{"clone https", "git clone https://github.com/x/y", TierMutate},
		{"get url", "git config --get remote.o.url", TierRead},
		{"log grep", "git log --grep=next::foo", TierRead},
		{"ls-remote", "git ls-remote https://github.com/x/y", TierBenign},
	})
}

// TestBlindSpotWr38OptionVars: variables a program reads as options
// before its command line's (TAR_OPTIONS, MANOPT, LESS, ZIPOPT,
// FZF_DEFAULT_OPTS, PERL5OPT, JAVA_TOOL_OPTIONS, PARALLEL, ENSCRIPT) and
// git's configuration carried in the environment are read as those
// options, so a command they run meets the deny rules as on the command
// line, however the variable is set: before the command, through env or
// sudo, exported or declared earlier.
func TestBlindSpotWr38OptionVars(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"TAR_OPTIONS='--to-command=reboot' tar xf a.tar",
		"TAR_OPTIONS='--checkpoint-action=exec=reboot' tar tf a.tar",
		"TAR_OPTIONS='-I reboot' tar tf x",
		`TAR_OPTIONS="--use-compress-program='rm -rf /'" tar tf x`,
		"env TAR_OPTIONS='--to-command=reboot' tar xf a.tar",
		"sudo TAR_OPTIONS='--to-command=reboot' tar xf a.tar",
		"export TAR_OPTIONS='--to-command=reboot'; tar xf a.tar",
		"declare -x TAR_OPTIONS='--to-command=reboot'; tar xf a.tar",
		"f() { TAR_OPTIONS='--to-command=reboot' tar \"$@\"; }; f xf a",
		"LESS='+!reboot' less x",
		"ZIPOPT='-TT reboot' zip -T a.zip x",
		"MANOPT='-Hreboot' man ls",
		"env MANOPT=-Preboot man ls",
		`FZF_DEFAULT_OPTS="--bind 'enter:execute(reboot)'" fzf`,
		`PERL5OPT='-Mstrict;system("reboot")' perl x.pl`,
		`PERL5OPT='Mstrict;system("reboot")' perl x.pl`,
		"JAVA_TOOL_OPTIONS='-XX:OnError=reboot' java -version",
		"PARALLEL='--ssh reboot' parallel -S h echo ::: a",
		"ENSCRIPT='-I reboot' enscript x",
		`GIT_CONFIG_PARAMETERS="'core.pager'='reboot'" git log`,
		`GIT_CONFIG_PARAMETERS="'alias.x'='!reboot'" git x`,
		`export GIT_CONFIG_PARAMETERS="'core.sshCommand'='reboot'"; git fetch`,
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=reboot git log",
	))
	runExactHosts(t, p, []exactCase{
		{"tar list", "tar tf a.tar", TierRead},
		{"zcat", "zcat x.gz", TierRead},
		{"git log", "git log", TierRead},
		{"gzip list", "gzip -l x.gz", TierRead},
	})
}
