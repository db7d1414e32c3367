package policy

import "testing"

// TestBlindSpotDecodedInput: a program that runs commands from its input
// (ed's !CMD, make -f -'s recipes, sed -f -'s e, gdb -x /dev/stdin, expect,
// dc, m4) reads the text its writer produced, after the decoding the
// writer applies: printf's format escapes and arguments, echo -e, printf
// %b, $'…' strings and here-strings. What the deny list refuses there is
// denied, as it is typed anywhere else, so no approval runs it.
func TestBlindSpotDecodedInput(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		// escapes that end a line or spell a name
		`make -f /dev/stdin <<< $'all:\n\treboot'`,
		`make -f - <<< $'all:\n\t\x72eboot'`,
		`printf 'all:\n\treboot\n' | make -f -`,
		`printf '%b' 'all:\n\treboot\n' | make -f -`,
		`echo -e 'all:\n\treboot' | make -f -`,
		`echo $'all:\n\treboot' | gmake -f /dev/stdin`,
		`printf '!reboot\nq\n' | ed -s f`,
		`printf '!\x72eboot\nq\n' | ed -s f`,
		`printf '!\162eboot\nq\n' | ed -s f`,
		`printf '!\u0072eboot\n' | ed -s f`,
		`printf '!\U00000072eboot\n' | ed -s f`,
		`echo -e '!\0162eboot\nq' | ed -s f`,
		`printf '%b\n' '!\0162eboot' | ed -s f`,
		`ed -s f <<< $'!\162eboot\nq'`,
		`x=$'!\x72eboot\nq'; ed -s f <<< "$x"`,
		`printf '1e reboot\n' | sed -f - f`,
		`printf '1e \x72eboot\n' | sed -f /dev/stdin f`,
		`printf 'shell reboot\nquit\n' | gdb -batch -x /dev/stdin`,
		`printf 'spawn reboot\nexpect eof\n' | expect -f -`,
		`printf '!reboot\nq\n' | ex -s f`,
		`printf 'w\n!poweroff\n' | ed f`,
		// printf's format filled in with its arguments
		`printf '!%s%s\n' re boot | ed -s f`,
		`printf 'all:\n\t%s%s\n' re boot | make -f -`,
		`printf '%s\n' '1e rebo''ot' | sed -f - f`,
		`printf 'shell %s%s\n' re boot | gdb -batch -x /dev/stdin`,
		`printf 'spawn %s%s\n' re boot | expect -f -`,
		`printf '!%s%s\n' re boot | dc`,
		`printf 'syscmd(%s%s)' re boot | m4`,
		`printf '!%s%s\n' re boot | vim -es f`,
		`printf '!reb%s\n' oot > /tmp/c; ed -s f < /tmp/c`,
		`sudo make -f - <<< $'all:\n\treboot'`,
		`printf '!%s%s\n' sys 'temctl poweroff' | ed -s f`,
		`printf '!%s%s\n' re boot | tee /dev/null | ed -s f`,
		`printf '%s%s\n' re boot | tee -a /tmp/log | sh`,
	))
	// Text that only looks like an escape, or a writer whose output no
	// command runs, keeps its tier.
	runExactHosts(t, p, []exactCase{
		{"printf to grep", `printf 'reboot\nq\n' | grep -c q`, TierRead},
		{"echo -e to wc", `echo -e 'a\tb\nreboot' | wc -l`, TierRead},
		{"xargs echo", `printf 'reb%s\n' oot | xargs`, TierRead},
		{"ed print", `printf '1p\nq\n' | ed -s f`, TierDestructive},
		{"make from stdin", `printf 'all:\n\techo hi\n' | make -f -`, TierDestructive},
		{"sed script", `printf 's/a/b/\n' | sed -f - f`, TierDestructive},
	})
}

// TestBlindSpotAssembledInput: input a shell or another command-running
// reader gets from a here-string or a printed line built from variables
// the script gives literal values (x=re; sh <<< "${x}boot") meets the
// deny list read with those values, as sh -c "${x}boot" does.
func TestBlindSpotAssembledInput(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`x=re; sh <<< "${x}boot"`,
		`x=re; bash <<< "$x"boot`,
		`x=re; echo "${x}boot" | sh`,
		`x=re; echo "$x""boot" | bash -s`,
		`x=re; printf "%sboot\n" "$x" | sh`,
		`x=re; printf '%s' "${x}boot" | sudo -s`,
		`x=re; ed -s f <<< "!${x}boot"`,
		`x=re; echo "!${x}boot" | ed -s f`,
		`x=re; at now <<< "${x}boot"`,
		`x=re; crontab - <<< "* * * * * ${x}boot"`,
		`x=re; su <<< "${x}boot"`,
		`x=re; sudo -s <<< "${x}boot"`,
		`for x in re; do sh <<< "${x}boot"; done`,
		`x=re; y=boot; sh <<< "$x$y"`,
		`x=poweroff; sh <<< "systemctl $x"`,
		`x=re; make -f - <<< "$(printf 'all:\n\t')${x}boot"`,
		`x=$'\x72e'; sh <<< "${x}boot"`,
		`x=re; gdb -batch -x /dev/stdin <<< "shell ${x}boot"`,
	))
	runExactHosts(t, p, []exactCase{
		{"grep", `x=reboot; grep -c "$x" <<< "$x scheduled"`, TierRead},
		{"wc", `x=reboot; echo "$x" | wc -c`, TierRead},
		{"shell echo", `x=hi; sh <<< "echo $x"`, TierDestructive},
	})
}

// TestBlindSpotWrittenThenRun: text the script writes to a file and then
// hands to a program that runs it (sh FILE, . FILE, make -f FILE, awk -f
// FILE), or pipes to a remote command over ssh, meets the deny list as
// that text, printf's format filled in.
func TestBlindSpotWrittenThenRun(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`printf '%s%s\n' re boot > /tmp/s; sh /tmp/s`,
		`printf '%s%s\n' re boot > /tmp/s; bash /tmp/s`,
		`printf '%s%s\n' re boot > /tmp/s; . /tmp/s`,
		`printf '%s%s\n' re boot > /tmp/s; source /tmp/s`,
		`printf 'BEGIN{system("%s%s")}' re boot > /tmp/a; awk -f /tmp/a`,
		`printf '%s%s\n' re boot > /tmp/s; sudo sh /tmp/s`,
		`printf '%s%s\n' re boot | ssh h sh`,
		`printf '%s%s\n' re boot | ssh h bash -s`,
		`x=re; echo "${x}boot" | ssh h sh`,
	))
	runExactHosts(t, p, []exactCase{
		{"written then read", `printf '%s%s\n' re boot > /tmp/s; cat /tmp/s`, TierMutate},
		{"ssh ls", `printf 'x\n' | ssh h cat`, TierBenign},
	})
}

// TestBlindSpotCodeSpellings: code a program runs spells a command the
// deny list refuses in ways its own grammar reads: GNU sed's replacement
// escapes before s///e runs it (\x72, \o162, \d114), string literals
// joined by juxtaposition or an operator ("re" "boot", "re"+"boot",
// "re"."boot", "re".."boot"), and a value handed in as NAME=VALUE (awk -v
// cmd=reboot 'BEGIN{system(cmd)}', C=reboot awk '…ENVIRON["C"]…').
func TestBlindSpotCodeSpellings(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`sed 's/x/\x72eboot/e' /etc/hosts`,
		`sed 's/x/\o162eboot/e' /etc/hosts`,
		`sed 's/x/\d114eboot/e' /etc/hosts`,
		`sed -n 's/.*/re\x62oot/ep' f`,
		`awk 'BEGIN{system("re" "boot")}'`,
		`python3 -c 'import os; os.system("re" + "boot")'`,
		`python3 -c "import os; os.system('re' 'boot')"`,
		`perl -e 'system("re"."boot")'`,
		`php -r 'system("re" . "boot");'`,
		`lua -e 'os.execute("re".."boot")'`,
		`node -e 'require("child_process").execSync("re"+"boot")'`,
		`awk -v cmd=reboot 'BEGIN{system(cmd)}'`,
		`awk -v cmd=$'\x72eboot' 'BEGIN{system(cmd)}'`,
		`awk 'BEGIN{system(c)}' c=reboot`,
		`perl -e 'system($ARGV[0])' -- --x=reboot`,
		`C=reboot awk 'BEGIN{system(ENVIRON["C"])}'`,
		`CMD=reboot python3 -c 'import os; os.system(os.environ["CMD"])'`,
		`export CMD=poweroff; perl -e 'system($ENV{CMD})'`,
		`env CMD=reboot ruby -e 'system(ENV["CMD"])'`,
	))
	runExactHosts(t, p, []exactCase{
		{"awk print", `awk '{print $1 " " $2}' /etc/hosts`, TierRead},
		{"sed", `sed 's/a/\x62/' /etc/hosts`, TierRead},
	})
}
