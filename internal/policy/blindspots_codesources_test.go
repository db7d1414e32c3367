package policy

import "testing"

// TestBlindSpotBuildCodeFromAgentFiles: a build tool or task runner given
// its code (a makefile, a build directory, a task file, tests, a compose
// file) under a temporary directory, through a descriptor, from standard
// input, or computed at run time was tier 2 ("runs the build's recipes"),
// which open mode admits unapproved, though a tier 1 call could write that
// file first: it runs what the agent wrote, as sh /tmp/x.sh does, so it is
// tier 3 in every spelling of the option.
func TestBlindSpotBuildCodeFromAgentFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`make -f /tmp/M`,
		`make -f/tmp/M`,
		`make --file=/tmp/M`,
		`make --file /tmp/M`,
		`make --fi=/tmp/M`,
		`make --makefile=/tmp/M all`,
		`make -skf /tmp/M`,
		`make -f /var/tmp/x/M install`,
		`make -f /dev/shm/M`,
		`make -f /tmp//M`,
		`make -f /tmp/x/../M`,
		`make -f /proc/self/root/tmp/M`,
		`make -I /tmp/inc`,
		`make -C /tmp/d`,
		`make -C/tmp/d all`,
		`make --directory=/tmp/d`,
		`make --dir=/tmp/d`,
		`make -C /tmp/x/../../srv/app`,
		`make -C /srv/app -f ../../tmp/M`,
		`make $X`,
		`make "-f$X"`,
		`make -k$X`,
		`make "$T"`,
		`make -C "$D"`,
		`gmake -f /tmp/M`,
		`bmake -f /tmp/M`,
		`bmake -m /tmp/mk`,
		`/usr/bin/make -f /tmp/M`,
		`sudo make -C /tmp/d install`,
		`env make -f /tmp/M`,
		`ninja -f /tmp/b.ninja`,
		`ninja -C /tmp/out`,
		`ninja -f -`,
		`ninja -f /dev/stdin`,
		`ninja -f /dev/fd/3`,
		`cmake -S /tmp/src -B /srv/b`,
		`cmake -B /tmp/build -S /srv/src`,
		`cmake --build /tmp/b`,
		`cmake --install /tmp/b`,
		`cmake /tmp/src`,
		`meson setup /srv/b /tmp/src`,
		`meson compile -C /tmp/b`,
		`meson setup --native-file /tmp/n.ini b`,
		`just -f /tmp/j`,
		`just --justfile /tmp/j build`,
		`just --justfile=/tmp/j`,
		`just -d /tmp/d`,
		`just --working-directory /tmp/d`,
		`rake -f /tmp/R`,
		`rake --rakefile /tmp/R`,
		`rake -C /tmp/d`,
		`rake -R /tmp/lib`,
		`task -t /tmp/T.yml`,
		`task --taskfile=/tmp/T.yml build`,
		`task -d /tmp/d`,
		`go-task -t /tmp/T.yml`,
		`scons -f /tmp/S`,
		`scons -C /tmp/d`,
		`scons --site-dir=/tmp/site`,
		`ant -f /tmp/build.xml`,
		`ant -buildfile /tmp/build.xml`,
		`ant -lib /tmp/jars`,
		`mvn -f /tmp/pom.xml package`,
		`mvn --file /tmp/pom.xml package`,
		`./mvnw -f /tmp/d install`,
		`gradle -b /tmp/b.gradle build`,
		`gradle -p /tmp/d build`,
		`gradle --project-dir /tmp/d build`,
		`gradle --project-dir=/tmp/d build`,
		`gradle -c /tmp/settings.gradle build`,
		`./gradlew -p /tmp/d test`,
		`composer -d /tmp/d install`,
		`composer --working-dir=/tmp/d install`,
		`bundle exec --gemfile=/tmp/G rake`,
		`tox -c /tmp/tox.ini`,
		`nox -f /tmp/noxfile.py`,
		`nox --noxfile /tmp/noxfile.py`,
		`pytest /tmp/t`,
		`pytest /tmp/test_x.py -q`,
		`pytest -c /tmp/p.ini`,
		`pytest --rootdir /tmp/d`,
		`pytest "$T"`,
		`cargo build --manifest-path /tmp/d/Cargo.toml`,
		`cargo --manifest-path=/tmp/d/Cargo.toml test`,
		`go run /tmp/x.go`,
		`go run /tmp/x`,
		`go test /tmp/x/...`,
		`go -C /tmp/d test ./...`,
		`go -C=/tmp/d run .`,
		`terraform -chdir=/tmp/d plan`,
		`terraform -chdir /tmp/d apply`,
		`tofu -chdir=/tmp/d plan`,
		`docker compose -f /tmp/c.yml up -d`,
		`docker compose --file=/tmp/c.yml up -d`,
		`docker compose --project-directory /tmp/d up`,
		`docker-compose -f /tmp/c.yml up -d`,
		`docker compose -f - up`,
		`cd /tmp/x && docker compose up -d`,
		`bazel --bazelrc=/tmp/rc build //x`,
		`npm --prefix /tmp/d run x`,
		`npm -C /tmp/d test`,
		`npm --pre /tmp/d run build`,
		`npm --userconfig /tmp/rc run x`,
		`less -k /tmp/k /var/log/syslog`,
		`GNUMAKEFLAGS=-f/tmp/M make`,
		`env GNUMAKEFLAGS=-f/tmp/M make all`,
	))
	runExactHosts(t, p, []exactCase{
		{"make", `make`, TierMutate},
		{"make -C srv", `make -j4 -C /srv/app install`, TierMutate},
		{"make -f srv", `make -f /srv/app/Makefile`, TierMutate},
		{"make -f home", `make -C ~/src/x`, TierMutate},
		{"make relative", `make -f Makefile.prod all`, TierMutate},
		{"make -j nproc", `make -j$(nproc)`, TierMutate},
		{"make -j quoted", `make -j"$N" all`, TierMutate},
		{"make --jobs", `make --jobs=$N`, TierMutate},
		{"make variables", `make V=1 CC=gcc`, TierMutate},
		{"make in srv loop", `for d in /srv/*/; do make -C "$d"; done`, TierMutate},
		{"ninja srv", `ninja -C /srv/build`, TierMutate},
		{"ninja query", `ninja -C /tmp/out -t targets`, TierRead},
		{"cmake", `cmake -S . -B build`, TierMutate},
		{"cmake parent", `cmake ..`, TierMutate},
		{"cmake build", `cmake --build build -j$(nproc)`, TierMutate},
		{"mvn", `mvn -fae -q install`, TierMutate},
		{"gradle", `./gradlew build`, TierMutate},
		{"gradle include", `gradle --include-build ../lib build`, TierMutate},
		{"go test", `go test ./...`, TierMutate},
		{"go test run", `go test -run "$T" ./...`, TierMutate},
		{"go run", `go run ./cmd/x`, TierMutate},
		{"terraform", `terraform -chdir=/srv/infra plan`, TierMutate},
		{"compose srv", `docker compose -f /srv/app/compose.yml up -d`, TierMutate},
		{"compose", `docker compose up -d`, TierMutate},
		{"compose ps", `docker compose -f /tmp/c.yml ps`, TierRead},
		{"compose file from tmp cwd", `cd /tmp/x && docker compose -f /srv/app/compose.yml up -d`, TierMutate},
		{"npm prefix", `npm --prefix /srv/app run build`, TierMutate},
		{"pytest", `pytest tests/`, TierMutate},
	})
}

// TestBlindSpotBuildCodeWrittenThenRun: a makefile the script writes with
// literal text and then hands to make meets the deny list as that text,
// as sh of a file the script wrote does.
func TestBlindSpotBuildCodeWrittenThenRun(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`printf 'all:\n\treboot\n' > /tmp/M; make -f /tmp/M`,
		`printf 'all:\n\treboot\n' > /tmp/M; make --file=/tmp/M`,
		`printf 'all:\n\treboot\n' > /tmp/M; make -f/tmp/M`,
		`printf 'all:\n\t%s%s\n' re boot > /tmp/M; gmake -f /tmp/M`,
		`printf 'x:\n\treboot\n' > /tmp/j; just --justfile=/tmp/j x`,
		`echo 'default: ; reboot' > /tmp/M; make -f /tmp/M`,
	))
}

// TestBlindSpotWrittenThenRunBehindOption: the file a script wrote and
// then hands to a program it runs is found behind the option that names
// it, --file=/tmp/m and -f/tmp/m, not only as a word of its own.
func TestBlindSpotWrittenThenRunBehindOption(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`printf 'all:\n\t%s%s\n' re boot > /tmp/M; make --file=/tmp/M`,
		`printf 'all:\n\t%s%s\n' re boot > /tmp/M; make -f/tmp/M`,
		`printf 'all:\n\t%s%s\n' re boot > /tmp/M; make --makefile=/tmp/M all`,
		`printf 'all:\n\t%s%s\n' re boot > /tmp/M; make -sf/tmp/M`,
		`printf 'x:\n\t%s%s\n' re boot > /tmp/j; just --justfile=/tmp/j x`,
		`printf 'BEGIN{system("%s%s")}' re boot > /tmp/a; gawk --file=/tmp/a`,
		`printf 'BEGIN{system("%s%s")}' re boot > /tmp/a; awk -f/tmp/a`,
	))
}

// TestBlindSpotLoaderRunsItsOperand: the dynamic loader run as a program
// runs its operand, and loads the libraries its options name into it, but
// was an unknown program (tier 2): /lib64/ld-linux-x86-64.so.2 /tmp/x ran
// what a benign call wrote, and ld.so /sbin/reboot met no deny rule.
func TestBlindSpotLoaderRunsItsOperand(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`/lib64/ld-linux-x86-64.so.2 /tmp/x`,
		`/lib/ld-linux-aarch64.so.1 /tmp/x`,
		`/lib/ld-linux.so.2 /var/tmp/x`,
		`/lib/ld-musl-x86_64.so.1 /dev/shm/x`,
		`ld.so /tmp/x`,
		`/lib64/ld-linux-x86-64.so.2 --argv0 ls /tmp/x`,
		`/lib64/ld-linux-x86-64.so.2 --library-path /tmp/l /bin/ls`,
		`/lib64/ld-linux-x86-64.so.2 --preload /usr/lib/x.so /bin/ls`,
		`/lib64/ld-linux-x86-64.so.2 --audit /tmp/a.so /bin/true`,
		`cd /tmp && /lib64/ld-linux-x86-64.so.2 ./x`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`/lib64/ld-linux-x86-64.so.2 /sbin/reboot`,
		`/lib64/ld-linux-x86-64.so.2 /usr/bin/rm -rf /`,
		`sudo /lib/ld-linux-aarch64.so.1 /sbin/poweroff`,
	))
	runExactHosts(t, p, []exactCase{
		{"ls", `/lib64/ld-linux-x86-64.so.2 /bin/ls /etc`, TierRead},
		{"list", `/lib64/ld-linux-x86-64.so.2 --list /bin/ls`, TierRead},
		{"version", `/lib64/ld-linux-x86-64.so.2 --version`, TierRead},
	})
}

// TestBlindSpotMoreRunnersFromAgentFiles: the same class in the task
// runners and project tools beyond the classic build tools (their project
// or task file is code), and climbs that reach a temporary directory from
// a home or an unnamed start.
func TestBlindSpotMoreRunnersFromAgentFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`poetry -C /tmp/d run x`,
		`poetry --directory=/tmp/d install`,
		`uv run --directory /tmp/d x`,
		`uv run --project /tmp/d x`,
		`pdm -p /tmp/d run x`,
		`invoke -r /tmp/d build`,
		`inv --search-root=/tmp/d build`,
		`fab -r /tmp/d deploy`,
		`doit -f /tmp/dodo.py`,
		`grunt --gruntfile /tmp/G.js`,
		`gulp --gulpfile /tmp/g.js`,
		`mage -d /tmp/d build`,
		`xmake -P /tmp/d`,
		`premake5 --file=/tmp/p.lua gmake`,
		`packer build /tmp/x.pkr.hcl`,
		`tilt up -f /tmp/Tiltfile`,
		`helmfile -f /tmp/h.yaml apply`,
		`terragrunt apply --terragrunt-working-dir /tmp/d`,
		`nix-shell /tmp/x.nix`,
		`nix-build /tmp/x.nix`,
		`qmake /tmp/x.pro`,
		`zig build --build-file /tmp/build.zig`,
		`invoke -r /srv/app -c ../../tmp/t build`,
		`dune build --root /tmp/d`,
		`stack --stack-yaml /tmp/s.yaml build`,
		`cabal --project-file=/tmp/c.project build`,
		`devbox run -c /tmp/d x`,
		`mise -C /tmp/d run x`,
		`cd /tmp/x && poetry run x`,
		`cd /tmp/x && invoke build`,
		`make -C ~/../../tmp/x`,
		`make -f ~/../../tmp/M`,
		`make -f ~root/../tmp/M`,
		`cmake ../../../../../../tmp/x`,
		`make -f ../../../../tmp/M`,
	))
	// Relative to the directory an earlier -C names, not the working one.
	for _, c := range []string{`make -C /srv/app -C ../../tmp/x`, `make -C /srv/app/a -C ../../../tmp/x`,
		`make -C /srv/app -f ../../tmp/M`, `ninja -C /srv/b -f ../../tmp/b.ninja`} {
		for _, h := range classifierHosts {
			if got := p.Evaluate(Input{Command: c, Host: h, Dir: "/home/u/proj/deep"}); got.Tier != TierDestructive {
				t.Errorf("Evaluate(%q, host %q, dir /home/u/proj/deep) = %s (%s); want tier 3", c, h, got.Tier, got.Reason)
			}
		}
	}
	runExactHosts(t, p, []exactCase{
		{"poetry", `poetry -C /srv/app install`, TierMutate},
		{"uv", `uv run --project ~/src/x pytest`, TierMutate},
		{"make home", `make -f ~/src/Makefile`, TierMutate},
		{"make home dir", `make -C ~/src/x`, TierMutate},
		{"packer", `packer build /srv/images/x.pkr.hcl`, TierMutate},
		{"make chained", `make -C /srv/app -C sub`, TierMutate},
	})
}

// TestBlindSpotManagersFromAgentFiles: configuration managers, process
// managers, a repository tool and a desktop launcher whose manifest,
// configuration or entry is code were tier 2 with one under a temporary
// directory: puppet apply, salt-call's file root, chef's Ruby
// configuration, pm2 start, monit's program checks, dracut's sourced
// configuration, hg's hgrc (extensions and hooks on any command, log
// included), gio launch.
func TestBlindSpotManagersFromAgentFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`puppet apply /tmp/x.pp`,
		`puppet apply --modulepath=/tmp/m site.pp`,
		`salt-call --local state.apply --file-root=/tmp/s`,
		`chef-client -z -c /tmp/c.rb`,
		`chef-solo -j /tmp/node.json`,
		`pm2 start /tmp/eco.config.js`,
		`pm2 restart /var/tmp/app.js`,
		`monit -c /tmp/monitrc`,
		`dracut --conf /tmp/d.conf -f`,
		`dracut --confdir=/tmp/d -f`,
		`hg -R /tmp/r log`,
		`hg --repository=/tmp/r status`,
		`hg --repo /tmp/r diff`,
		`hg --cwd /tmp/r status`,
		`cd /tmp/r && hg log`,
		`gio launch /tmp/x.desktop`,
	))
	runExactHosts(t, p, []exactCase{
		{"puppet", `puppet apply /etc/puppet/site.pp`, TierMutate},
		{"pm2 srv", `pm2 start /srv/app/app.js --name x`, TierMutate},
		{"pm2 list", `pm2 list`, TierRead},
		{"dracut", `dracut -f`, TierMutate},
		{"hg srv", `hg -R /srv/r log`, TierMutate},
	})
}

// TestBlindSpotWrittenBuildDirThenRun: a build file the script writes into
// a temporary directory it then points the build at (-C, --directory,
// -d) meets the deny list as its text, as a file named on the command line
// does; so do the other runners' files written and then named.
func TestBlindSpotWrittenBuildDirThenRun(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`printf 'all:\n\t%s%s\n' re boot > /tmp/d/Makefile; make -C /tmp/d`,
		`printf 'all:\n\t%s%s\n' re boot > /tmp/d/GNUmakefile; make --directory=/tmp/d`,
		`printf 'all:\n\t%s%s\n' re boot > /tmp/d/Makefile; gmake -C/tmp/d all`,
		`printf 'rule r\n  command = %s%s\nbuild x: r\n' re boot > /tmp/o/build.ninja; ninja -C /tmp/o`,
		`printf 'x:\n\t%s%s\n' re boot > /tmp/d/justfile; just -d /tmp/d x`,
		`printf 'rule r\n  command = %s%s\nbuild x: r\n' re boot > /tmp/b.ninja; ninja -f /tmp/b.ninja`,
		`printf 'execute_process(COMMAND %s%s)\n' re boot > /tmp/x.cmake; cmake -P /tmp/x.cmake`,
		`printf 'version: 3\ntasks:\n  x:\n    cmds:\n      - %s%s\n' re boot > /tmp/T.yml; task -t /tmp/T.yml x`,
		`printf 'task :x do\n  sh "%s%s"\nend\n' re boot > /tmp/R; rake -f /tmp/R x`,
	))
}

// TestBlindSpotToolingConfigFromAgentFiles: JavaScript, Python and Go
// tooling whose configuration file is code (eslint.config.js, a jest or
// webpack config, a pre-commit hook's entry, golangci-lint's plugins)
// was tier 2 given one under a temporary directory, or run in one.
func TestBlindSpotToolingConfigFromAgentFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`eslint -c /tmp/x.js src`,
		`eslint --config=/tmp/x.js src`,
		`prettier --config /tmp/p.js --check .`,
		`jest -c /tmp/j.js`,
		`jest --rootDir /tmp/d`,
		`webpack --config /tmp/w.js`,
		`rollup -c /tmp/r.js`,
		`vite build --config /tmp/v.js`,
		`babel --config-file /tmp/b.js src`,
		`mocha --config /tmp/m.js`,
		`pre-commit run --config /tmp/c.yaml`,
		`golangci-lint run -c /tmp/g.yml`,
		`cd /tmp/x && eslint .`,
		`cd /tmp/x && pre-commit run -a`,
	))
	runExactHosts(t, p, []exactCase{
		{"eslint", `eslint src`, TierMutate},
		{"eslint srv", `eslint -c /srv/app/eslint.config.js src`, TierMutate},
		{"pre-commit", `pre-commit run -a`, TierMutate},
	})
}

// TestBlindSpotWrittenRelativeThenRun: a file the script wrote by a
// relative name, after a cd, and then runs (sh s, make -f M) or leaves as
// the project's own file for a build or git in that directory (Makefile,
// build.ninja, .git/hooks/pre-commit) meets the deny list as its text,
// as one named by an absolute path does.
func TestBlindSpotWrittenRelativeThenRun(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`cd /tmp && printf '%s%s\n' re boot > s && sh s`,
		`cd /tmp && printf '%s%s\n' re boot > s; bash ./s`,
		`cd /tmp && printf 'all:\n\t%s%s\n' re boot > M && make -f M`,
		`cd /tmp && printf 'all:\n\t%s%s\n' re boot > M && make --file=M`,
		`cd /tmp/d && printf 'all:\n\t%s%s\n' re boot > Makefile && make`,
		`cd /tmp/d; printf 'all:\n\t%s%s\n' re boot > GNUmakefile; make all`,
		`cd /tmp/o && printf 'rule r\n  command = %s%s\nbuild x: r\n' re boot > build.ninja && ninja`,
		`cd /tmp/d && printf 'x:\n\t%s%s\n' re boot > justfile && just x`,
		`cd /tmp/r && printf '#!/bin/sh\n%s%s\n' re boot > .git/hooks/pre-commit && git commit -m x`,
	))
	runExactHosts(t, p, []exactCase{
		{"notes then make", `cd /tmp/d && printf 'x' > notes.txt && make`, TierDestructive},
	})
}
