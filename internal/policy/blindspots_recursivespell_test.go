package policy

import "testing"

// TestBlindSpotRecursiveReaderSpellings: a recursive read of a directory
// above warden's state reads its token and audit key, however the
// recursion is spelled: grep's long options in any abbreviation
// getopt_long takes and -d/--directories with its value in the next word
// or abbreviated as argmatch takes it; git grep with -C or --untracked,
// and git diff between directories, which git compares file by file
// outside a repository or with --no-index; a compressor told to recurse,
// which reads every file to standard output with -c (zcat -rf passes
// plain files through unchanged); colordiff -r, which is diff -r.
func TestBlindSpotRecursiveReaderSpellings(t *testing.T) {
	p := protectedPolicy(t)
	cases := sameCases(TierDestructive, false,
		"grep --directories recurse token /etc",
		"grep --dir=recurse x /etc",
		"grep --direc=rec x /root/.local",
		"grep --directories=recu x /",
		"grep -d rec x /etc",
		"grep -drec x /etc",
		"grep -Hd recurse x /root",
		"grep --recur x /etc",
		"grep --recu secret /root",
		"grep --rec x /root/.local/state",
		"grep --deref x /etc",
		"grep --dereference-rec x /etc",
		"grep --regex=x -r /etc",
		"grep -r --regexp=x /etc",
		"grep -r --reg x /etc",
		"grep -r --inc '*.yaml' x /etc",
		"grep -r --exclude-d .git x /etc",
		"grep -r -A 3 x /etc",
		"egrep --recursi x /etc",
		"command grep --dir recurse x /etc",
		"sudo grep --recur x /root",
		"gzip -rc /etc",
		"gzip --rec --stdout /etc | gunzip",
		"gzip -r -c -- /root/.local",
		"zcat -rf /etc",
		"gzip -dcfr /root/.local",
		"gunzip -rcf /etc",
		"pigz -rc /etc",
		"zstd -r -c /etc",
		"zstd -rc -19 /root",
		"zstdcat -rf /etc",
		"lz4 -r -c /etc",
		"lz4cat -r /root/.local/state",
		"git -C /etc grep --no-index x",
		"git --no-pager -C /etc grep --no-index -e x",
		"git -C / grep --no-index x etc",
		"git -C /tmp grep --no-index x ../etc",
		"git -C /root -C .local grep --no-index x",
		"git -c color.ui=never -C /root grep --no-index x",
		"git --work-tree=/root grep --untracked x",
		"git --work-tree /etc grep --untracked -e x",
		"git grep --untracked x /etc",
		"git grep --untr x /root",
		"git diff /etc /tmp/x",
		"git diff --stat /etc /tmp/x",
		"git diff -- /root /tmp/x",
		"git -C /etc diff --no-index . /tmp/x",
		"git diff --no-index /root/.local /dev/null",
		"cd /tmp; git diff --no-index ../etc x",
		"colordiff -r /etc /tmp/x",
		"colordiff --recursive /root /tmp/x",
	)
	runBlind(t, p, cases)
	runExact(t, p, []exactCase{
		{"grep one file", "grep x /etc/hosts", TierRead},
		{"grep -r elsewhere", "grep --recur x /var/log", TierRead},
		{"grep -d skip", "grep -d skip x /etc", TierRead},
		{"grep --dir=read", "grep --dir=read x /etc/hosts", TierRead},
		{"grep ambiguous abbreviation", "grep --d=recurse x /etc", TierRead},
		{"grep include", "grep --include=*.c -r foo src", TierRead},
		{"gzip to stdout", "gzip -c /etc/hosts", TierRead},
		{"gzip -rc elsewhere", "gzip -rc /var/log", TierRead},
		{"zcat", "zcat /var/log/syslog.1.gz", TierRead},
		{"zstdcat", "zstdcat /var/log/x.zst", TierRead},
		{"git diff revisions", "git diff main..feature", TierRead},
		{"git diff pathspec", "git diff HEAD~1 -- src/", TierRead},
		{"git diff two files", "git diff --no-index a.txt b.txt", TierRead},
		{"git grep", "git grep -n x", TierRead},
		{"git grep untracked here", "git grep --untracked x", TierRead},
		{"git -C grep elsewhere", "git -C /srv/app grep --no-index x", TierRead},
		{"colordiff files", "colordiff a b", TierRead},
	})
}
