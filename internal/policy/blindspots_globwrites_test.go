package policy

import "testing"

// TestBlindSpotGlobWriteTargets: bash expands a pattern in a redirection's
// target when it matches one file, and a program's operand is what its
// pattern matches, so a pattern that can name the SysRq trigger or a
// block device is denied as the plain name is, and one that can name
// kernel state, a device or a sensitive file is tier 3. After nocaseglob
// — however it is turned on: shopt (clustered too), bash -O, zsh's -o, +o,
// --no-case-glob, setopt, unsetopt or set — a pattern's components match
// either case, for the watchdog too.
func TestBlindSpotGlobWriteTargets(t *testing.T) {
	p := testPolicy(t)
	denied := []string{
		"echo b > /p?oc/sysrq-trigge?",
		"echo b > /proc/sysrq-trigge?",
		"echo c > /pro[c]/sysrq-trigger",
		"echo b > /p*/sysrq-trigger",
		"echo o > /proc/sysrq-*",
		"echo b > /proc/*-trigger",
		"echo b >> /proc/sysrq-trig*",
		"echo b >| /pr?c/sysrq-trigger",
		"exec 3>/pro?/sysrq-trigger",
		"echo b | tee /p?oc/sysrq-trigger",
		"echo b | sudo tee -a /proc/sysrq-trigge?",
		"echo b | dd of=/proc/sysrq-trigge?",
		"sh -c 'echo b > /p?oc/sysrq-trigger'",
		"shopt -s nocaseglob; echo b > /P?OC/SYSRQ-TRIGGE?",
		"shopt -s nocaseglob; echo b > /pro?/SYSRQ-*",
		"shopt -qs nocaseglob; echo b > /P?OC/SYSRQ-TRIGGE?",
		"bash -O nocaseglob -c 'echo b > /P?OC/SYSRQ-TRIGGE?'",
		"zsh -o nocaseglob -c 'echo b > /P?OC/SYSRQ-TRIGGE?'",
		"shopt -s nocaseglob; dd if=/dev/zero of=/D?V/S?A",
		"shopt -s nocaseglob; dd if=/dev/zero of=/DE?/NVME0N?",
		"bash -O nocaseglob -c 'dd if=/dev/zero of=/D?V/S?A'",
		// The watchdog, whose every opening is denied.
		"shopt -s nocaseglob; cat /D?V/WATCHDO?",
		"shopt -qs nocaseglob; head -c1 /D?V/WATCHDOG?",
		"shopt -s -q nocaseglob; cat /[D]EV/[W]ATCHDOG",
		"shopt -s nocaseglob; for f in /D?V/W*; do cat $f; done",
		"bash -O nocaseglob -c 'cat /D?V/WATCHDO?'",
		"sudo bash -O nocaseglob -c 'cat /D?V/WATCHDO?'",
		"zsh -o nocaseglob -c 'cat /D?V/WATCHDO?'",
		"zsh -o NO_CASE_GLOB -c 'cat /D?V/WATCHDO?'",
		"zsh +o caseglob -c 'cat /D?V/WATCHDO?'",
		"zsh +o Case_Glob -c 'cat /D?V/WATCHDO?'",
		"zsh --no-case-glob -c 'cat /D?V/WATCHDO?'",
		"zsh -c 'set +o caseglob; cat /D?V/WATCHDO?'",
		"zsh -c 'setopt nocaseglob; cat /D?V/WATCHDO?'",
		"zsh -c 'setopt NO_CASE_GLOB; cat /D?V/WATCHDO?'",
		"zsh -c 'unsetopt CASE_GLOB; cat /D?V/WATCHDO?'",
	}
	runBlind(t, p, sameCases(TierDestructive, true, denied...))

	// A tilde word climbing out of a home of any depth, an extended
	// pattern and a globstar are the names they reach.
	runBlind(t, p, sameCases(TierDestructive, true,
		"echo b > ~root/../proc/sysrq-trigger",
		"echo b > ~/../proc/sysrq-trigger",
		"echo b > ~/../../proc/sysrq-trigger",
		"echo b > ~/../../../../proc/sysrq-trigger",
		"echo b > ~bob/../../proc/sysrq-trigger",
		"echo b | tee ~/../../proc/sysrq-trigger",
		"cp x ~root/../proc/sysrq-trigger",
		"dd if=/dev/zero of=~root/../dev/sda",
		"dd if=/dev/zero of=~/../../dev/nvme0n1",
		"shopt -s extglob; echo b > /proc/@(sysrq-trigger)",
		"shopt -s extglob; echo b > /proc/sysrq-trigge@(r)",
		"shopt -s extglob; echo b > /proc/+(sysrq-trigger)",
		"shopt -s extglob; echo b > /proc/?(x|sysrq-trigger)",
		"shopt -s globstar; echo b > /proc/**/sysrq-trigger",
		"shopt -s globstar; echo b > /**/sysrq-trigger",
	))

	runBlind(t, p, sameCases(TierDestructive, false,
		"echo 1 > /pro?/sys/kernel/sysrq",
		"echo 0 > /proc/sys/kernel/randomize_va_spac?",
		"echo x > /s?s/class/leds/x/brightness",
		"echo x > /etc/shado?",
		"echo x > /et?/passw?",
		"echo x >> /etc/sudoer?",
		"echo x | tee /etc/ld.so.preloa?",
		"shopt -s nocaseglob; echo x > /E?C/SHADO?",
		"shopt -s nocaseglob; echo 1 > /P?OC/SYS/KERNEL/SYSRQ",
		"echo x > ~root/../etc/shadow",
		"echo x > ~/../../etc/sudoers",
	))

	runExact(t, p, []exactCase{
		{"temp pattern", "echo x > /tmp/fo?", TierMutate},
		{"home file", "echo x > ~/notes.txt", TierMutate},
		{"within home", "echo x > ~/a/../b.txt", TierMutate},
		{"log pattern", "echo x >> /var/log/app*.log", TierMutate},
		{"case kept without nocaseglob", "cat /D?V/WATCHDO?", TierRead},
		{"literal component", "shopt -s nocaseglob; cat /D?V/WATCHDOG", TierRead},
		{"nocaseglob listing", "shopt -s nocaseglob; ls /etc/*.CONF", TierRead},
		{"glob read", "cat /proc/sys/kernel/*", TierRead},
		{"sysrq read", "cat /proc/sys/kernel/sysr?", TierRead},
	})
}
