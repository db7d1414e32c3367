package policy

import "testing"

// TestBlindSpotAssembledPaths: a protected path assembled from variables
// the script assigns is read wherever the shell reads it: as an
// argument, as a redirection's target, through another variable the
// value was copied or cut into (g=$f, d=${p%/*}), through a pattern
// operator, as the default of an expansion, in nested code that sees the
// script's variables, and in a file:// URL naming this machine.
func TestBlindSpotAssembledPaths(t *testing.T) {
	p := protectedPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"f=/etc/warden/config.yaml; cat < $f",
		"f=/etc/warden/config.yaml; cat <\"$f\"",
		"f=/etc/warden/config.yaml; exec 4<$f",
		"f=/etc/warden/config.yaml; x=$(< \"$f\")",
		"f=/etc/warden/config.yaml; while read l; do :; done < \"$f\"",
		"cat < ${CONF-/etc/warden/config.yaml}",
		"f=/etc/warden/config.yaml; g=$f; cat $g",
		"f=/etc/warden; g=\"$f/config.yaml\"; h=$g; cat \"$h\"",
		"p=/etc/warden/config.yaml/x; cat ${p%/*}",
		"p=/etc/warden/config.yaml/x; d=${p%/*}; cat $d",
		"p=/etc/warden/config.yaml.bak; cat ${p%.*}",
		"p=/etc/warden/config.yaml.bak; cat ${p%.b*}",
		"p=x/etc/warden/config.yaml; cat ${p#?}",
		"p=x/etc/warden/config.yaml; cat ${p#*x}",
		"p=/etc/warden/cXnfig.yaml; cat ${p/[X]/o}",
		"p=/etc/warden/cXnfig.yaml; cat ${p/?Xn/con}",
		"x=/etc/warden/config.yaml; cat ${x-}",
		"x=/etc/warden/config.yaml; cat ${x:-/tmp/y}",
		"cat ${x-/etc/warden/config.yaml}",
		"cat \"${x-/etc/warden/config.yaml}\"",
		"cat ${x+/etc/warden/config.yaml}",
		"cat ${x:+/etc/warden/config.yaml}",
		"cat /etc/${x-warden}/config.yaml",
		"cat ${x:-$HOME/.local/state/warden/token}",
		"export F=/etc/warden/config.yaml; sh -c 'cat $F'",
		"F=/etc/warden/config.yaml sh -c 'cat $F'",
		"f=/etc/warden/config.yaml; eval 'cat $f'",
		"curl -s file://localhost/etc/warden/config.yaml",
		"curl file://127.0.0.1/root/.local/state/warden/token",
		"curl file://LOCALHOST./etc/warden/audit.key",
	))
	runExact(t, p, []exactCase{
		{"redirect elsewhere", "f=/etc/hostname; cat < $f", TierRead},
		{"copied elsewhere", "f=/etc/os-release; g=$f; cat $g", TierRead},
		{"cut elsewhere", "p=/var/log/syslog.1; cat ${p%.*}", TierRead},
		{"default elsewhere", "cat ${LOG-/var/log/syslog}", TierRead},
		{"remote URL", "curl -s https://example.com/etc/warden/config.yaml", TierBenign},
		{"look-alike after cut", "p=/etc/warden/config.yamlZZ; cat ${p%Z*}", TierRead},
	})
}

// TestBlindSpotIndirectPaths: a protected path reached through a
// variable that names another (${!y}, a nameref), an element assigned on
// its own (a[0]=…; cat $a), or a value read from a literal here-string is
// denied like the path itself.
func TestBlindSpotIndirectPaths(t *testing.T) {
	p := protectedPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"x=/etc/warden/config.yaml; y=x; cat ${!y}",
		"x=/etc/warden/config.yaml; y=x; cat \"${!y}\"",
		"declare -n r=x; x=/etc/warden/config.yaml; cat $r",
		"declare -n r=x; x=/root/.local/state/warden; cat \"$r/token\"",
		"a[0]=/etc/warden/config.yaml; cat ${a}",
		"read f <<< /etc/warden/config.yaml; cat $f",
		"a=(/etc warden config.yaml); cat ${a[0]}/${a[1]}/${a[2]}",
		"a=([2]=config.yaml [0]=/etc [1]=warden); cat \"${a[0]}/${a[1]}/${a[2]}\"",
		"p[0]=/root/.local/state; p[1]=warden; cat ${p[0]}/${p[1]}/token",
		"read -r f <<< ' /root/.local/state/warden/token '; cat \"$f\"",
	))
	runExact(t, p, []exactCase{
		{"indirect elsewhere", "x=/etc/hostname; y=x; cat ${!y}", TierRead},
		{"nameref elsewhere", "declare -n r=x; x=/etc/hostname; cat $r", TierRead},
		{"array elsewhere", "a=(/etc/hostname /etc/os-release); cat \"${a[@]}\"", TierRead},
		{"read elsewhere", "read f <<< /etc/hostname; cat $f", TierRead},
		{"elements elsewhere", "a=(/etc warden x); cat ${a[0]}/${a[1]}/${a[2]}", TierRead},
	})
}

// TestBlindSpotRecursiveReads: a program that reads every file under a
// directory reads warden's state when it is given any directory above it,
// however far: grep -r, rg, find -exec, from an absolute path, ~, or a
// relative one after cd. Naming the directory stays tier 0.
func TestBlindSpotRecursiveReads(t *testing.T) {
	p := protectedPolicy(t, "/var/lib/warden")
	runBlind(t, p, sameCases(TierMutate, false,
		"grep -r x /var/lib",
		"grep -R token /var",
		"grep -rn password /etc",
		"grep -ril secret /",
		"grep --recursive x /var/lib",
		"grep -d recurse x /var/lib",
		"grep --directories=recurse x /var/lib",
		"grep -e x -r /var/lib",
		"egrep -Hr 'a|b' /etc",
		"rg password /etc",
		"rg -uuu token /root",
		"ag token /var/lib",
		"find /var/lib -exec cat {} +",
		"find /etc -type f -exec grep -H x {} \\;",
		"find -L /root -okdir cat {} \\;",
		"cd /var/lib; grep -r x .",
		"cd /var; grep -r x lib",
		"cd /etc; grep -r x",
		"grep -r x ~",
		"diff -r /var/lib /tmp/x",
		"diff -rN /var/lib /tmp/empty",
		"diff --recursive -u /etc /tmp/etc",
		"git grep --no-index x /var/lib",
		"cd /var/lib; git grep --no-index token",
		"fd . /var/lib -x cat",
		"fd -t f . /var/lib -X cat",
		"find /var/lib -type f | xargs cat",
		"find /var/lib -type f -print0 | xargs -0 grep x",
		"find /var/lib -type f | while read f; do cat \"$f\"; done",
		"rg --files /var/lib | xargs cat",
		"fd . /var/lib | parallel cat",
		"cat $(find /var/lib -type f)",
		"grep x \"$(find /etc -type f)\"",
	))
	// A loop over what find lists of a system directory reads each name
	// as the pattern /var/lib/* it stands for (values_listing.go), which
	// names the state directory: denied, as cat /var/lib/* is.
	runBlind(t, p, sameCases(TierDestructive, true, "for f in $(find /var/lib -type f); do cat $f; done"))
	runExact(t, p, []exactCase{
		{"names the directory", "ls -la /var/lib", TierRead},
		{"sizes", "du -sh /var/lib", TierRead},
		{"recursive elsewhere", "grep -r x /var/log", TierRead},
		{"pattern is not a path", "cd /; grep -r var /usr/share/doc", TierRead},
		{"not recursive", "grep x /etc/hosts", TierRead},
		{"rg elsewhere", "rg -n TODO /srv/app", TierRead},
		{"find without exec", "find /var/lib -name '*.db'", TierRead},
		{"find exec elsewhere", "find /var/log -name '*.gz' -exec zcat {} +", TierRead},
		{"diff of files", "diff /etc/hosts /tmp/hosts", TierRead},
		{"count the files", "find /var/lib -type f | wc -l", TierRead},
		{"list the files", "find /var/lib -name '*.db' | head", TierRead},
		{"names elsewhere into xargs", "find /var/log -name '*.log' | xargs tail -n1", TierRead},
		{"git grep in a repository", "git grep -n TODO", TierRead},
	})
}

// TestBlindSpotWorkingDirectoryWords: $PWD, ${PWD}, $(pwd), `pwd`,
// ${DIRSTACK[0]} and $OLDPWD name the directories a cd makes current, as
// ~+ and ~- do.
func TestBlindSpotWorkingDirectoryWords(t *testing.T) {
	p := protectedPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"cd /root; cat $PWD/.local/state/warden/token",
		"cd /root/.local; cat \"${PWD}/state/warden/token\"",
		"cd /root; cat \"$(pwd)/.local/state/warden/audit.jsonl\"",
		"cd /root; cat `pwd`/.local/state/warden/token",
		"cd /root; cat $(pwd -P)/.local/state/warden/token",
		"cd /root; cat ${DIRSTACK[0]}/.local/state/warden/token",
		"cd /root; cd /tmp; cat $OLDPWD/.local/state/warden/token",
	))
	runExact(t, p, []exactCase{
		{"elsewhere", "cd /var/log; tail $PWD/syslog", TierRead},
		{"another variable", "cd /root; cat $PWDX/.local/x", TierRead},
	})
}

// TestRecursiveReadsLeftToTheKernel: where the kernel refuses warden's
// paths to every local program, and on other hosts, which do not hold
// them, a recursive read of a directory above them is the everyday read it
// looks like; a word naming a protected path is still denied.
func TestRecursiveReadsLeftToTheKernel(t *testing.T) {
	rules := Rules{Protect: []string{"/etc/warden/config.yaml", "/var/lib/warden"}, Home: "/root"}
	plain, err := New(rules)
	if err != nil {
		t.Fatal(err)
	}
	rules.KernelHolds = true
	held, err := New(rules)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"grep -r PermitRootLogin /etc", "rg password /etc", "find /etc -type f | xargs grep -l x",
		"cd /var/lib; grep -r x .", "grep -r x /var/lib"} {
		if v := plain.Evaluate(Input{Command: c}); v.Tier != TierDestructive || v.Denied {
			t.Errorf("%q locally without the kernel: %s denied=%v (%s); want tier 3", c, v.Tier, v.Denied, v.Reason)
		}
		if v := plain.Evaluate(Input{Command: c, Host: "db1"}); v.Tier != TierRead || v.Denied {
			t.Errorf("%q on another host: %s denied=%v (%s); want tier 0", c, v.Tier, v.Denied, v.Reason)
		}
		if v := held.Evaluate(Input{Command: c}); v.Tier != TierRead || v.Denied {
			t.Errorf("%q with the kernel holding: %s denied=%v (%s); want tier 0", c, v.Tier, v.Denied, v.Reason)
		}
	}
	for _, c := range []string{"cat /etc/warden/config.yaml", "grep -r x /var/lib/warden", "cd /etc; cat warden/config.yaml"} {
		if v := held.Evaluate(Input{Command: c}); !v.Denied {
			t.Errorf("%q with the kernel holding: %s (%s); want denied", c, v.Tier, v.Reason)
		}
	}
}
