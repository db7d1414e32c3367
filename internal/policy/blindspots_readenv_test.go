package policy

import "testing"

// Variables that make a read run or load code the command line does not
// show: git's test knob GIT_TEST_FSMONITOR is the fsmonitor hook git
// status and git diff run (tried with git 2.39), GIT_TEXTDOMAINDIR its
// message catalogs; FPATH and MODULE_PATH are zsh's fpath and module_path
// (FPATH=/tmp/x zsh -ic true runs /tmp/x/zsh-newuser-install, tried with
// zsh 5.9); tshark -D runs WIRESHARK_EXTCAP_DIR's programs and reads
// WIRESHARK_DATA_DIR's files; Ghostscript (identify a.pdf) finds
// gs_init.ps in GS_LIB; PyGObject programs load GI_TYPELIB_PATH's
// typelibs and the objects they name; guile loads its boot code from
// GUILE_LOAD_COMPILED_PATH; zgrep, bzgrep, xzgrep and zstdgrep run GREP
// (tried with gzip 1.12 and xz 5.4), zstdgrep ZCAT. Every way of setting
// them counts; a GREP naming grep stays a read.
func TestBlindReadEnv(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"GIT_TEST_FSMONITOR=/tmp/h git status",
		"GIT_TEST_FSMONITOR=/tmp/h git diff",
		"env GIT_TEST_FSMONITOR=/tmp/h git status --short",
		"export GIT_TEST_FSMONITOR=/tmp/h; git status",
		"declare -x GIT_TEST_FSMONITOR=/tmp/h; git diff --stat",
		"typeset -x GIT_TEST_FSMONITOR=/tmp/h\ngit status",
		"set -a; GIT_TEST_FSMONITOR=/tmp/h; git status",
		"sudo GIT_TEST_FSMONITOR=/tmp/h git -C /srv/repo status",
		"env -S 'GIT_TEST_FSMONITOR=/tmp/h git status'",
		"read GIT_TEST_FSMONITOR < /tmp/f; export GIT_TEST_FSMONITOR; git status",
		"GIT_TEST_FSMONITOR=\"$(cat /tmp/f)\" git status",
		"GIT_TEST_SPLIT_INDEX=1 git status",
		"GIT_TEXTDOMAINDIR=/tmp/x git status",
		"GIT_TEXTDOMAINDIR=/tmp/x LANGUAGE=de git log -1",
		"FPATH=/tmp/x zsh -ic ls",
		"FPATH=/tmp/x zsh -i -c 'echo hi'",
		"export FPATH=/tmp/x; zsh -ic true",
		"env FPATH=/tmp/x zsh -lic ls",
		"FPATH=/tmp/x ksh -c ls",
		"zsh -c 'FPATH=/tmp/x; autoload -U compinit; compinit'",
		"zsh -c 'MODULE_PATH=/tmp/m; echo $EPOCHSECONDS'",
		"WIRESHARK_EXTCAP_DIR=/tmp/x tshark -D",
		"env WIRESHARK_EXTCAP_DIR=/tmp/x tshark -r cap.pcap",
		"WIRESHARK_DATA_DIR=/tmp/x tshark -r cap.pcap",
		"export WIRESHARK_DATA_DIR=/tmp/x; tshark -r cap.pcap -q -z io,phs",
		"GS_LIB=/tmp/x identify a.pdf",
		"env GS_LIB=/tmp/x identify -verbose doc.pdf",
		"GI_TYPELIB_PATH=/tmp/x firewall-cmd --state",
		"export GI_TYPELIB_PATH=/tmp/x; firewall-cmd --list-all",
		"GUILE_LOAD_COMPILED_PATH=/tmp/x guile --version",
		"GUILE_SYSTEM_COMPILED_PATH=/tmp/x guile --version",
		"GREP=/tmp/x zgrep foo f.gz",
		"GREP='/tmp/x -q' zgrep -i foo f.gz",
		"GREP=/tmp/x bzgrep foo f.bz2",
		"GREP=/tmp/x xzgrep foo f.xz",
		"GREP=/tmp/x zstdgrep foo f.zst",
		"GREP=/tmp/x zegrep foo f.gz",
		"ZCAT=/tmp/x zstdgrep foo f.zst",
		"env GREP=/tmp/x zgrep foo f.gz",
		"export GREP=/tmp/x; zgrep foo f.gz",
		"GREP=$(cat /tmp/g) zgrep foo f.gz",
		"read -r GREP < /tmp/g; export GREP; zgrep foo f.gz",
		"cd /tmp/w && GREP=./g zgrep foo f.gz",
	))
	runExactHosts(t, p, []exactCase{
		{"git status", "git status", TierRead},
		{"git author", "GIT_AUTHOR_NAME=x git log -1", TierRead},
		{"zgrep", "zgrep foo f.gz", TierRead},
		{"GREP grep", "GREP=grep zgrep -i foo f.gz", TierRead},
		{"GREP grep -E", "GREP='grep -E' xzgrep foo f.xz", TierRead},
		{"GREP path", "env GREP=/usr/bin/grep bzgrep foo f.bz2", TierRead},
		{"tshark", "tshark -r cap.pcap", TierRead},
		{"identify", "identify a.pdf", TierRead},
		{"firewall-cmd", "firewall-cmd --state", TierRead},
		{"zsh", "zsh -c ls", TierRead},
		{"guile", "guile --version", TierRead},
	})
}
