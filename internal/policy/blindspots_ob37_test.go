package policy

import "testing"

// TestBlindSpotOb37SshKeygenReads: ssh-keygen's modes that only print (-e
// exports a public key, -r prints an SSHFP record, -Y verify and its
// siblings check a signature) are reads; -Y sign, -p, key generation,
// -i (prints a private key) and -R stay above tier 0, in every spelling.
func TestBlindSpotOb37SshKeygenReads(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"export", "ssh-keygen -e -f key.pub", TierRead},
		{"export cluster", "ssh-keygen -ef key.pub", TierRead},
		{"export format", "ssh-keygen -e -m PKCS8 -f key.pub", TierRead},
		{"sshfp", "ssh-keygen -r host.example -f key.pub", TierRead},
		{"fingerprint", "ssh-keygen -l -f key.pub", TierRead},
		{"verify", "ssh-keygen -Y verify -f allowed -I me -n file -s sig < msg", TierRead},
		{"verify attached", "ssh-keygen -Yverify -f allowed -I me -n file -s sig < msg", TierRead},
		{"check-novalidate", "ssh-keygen -Y check-novalidate -n file -s sig < msg", TierRead},
		{"find-principals", "ssh-keygen -Y find-principals -s sig -f allowed", TierRead},
		{"match-principals", "ssh-keygen -Y match-principals -I me -f allowed", TierRead},
		{"sign then verify", "ssh-keygen -Y sign -Y verify -f allowed -I me -n file -s sig < msg", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"sign", "ssh-keygen -Y sign -f key -n file msg", TierMutate, false},
		{"sign attached", "ssh-keygen -Ysign -f key -n file msg", TierMutate, false},
		{"sign prefix", "ssh-keygen -Y signature -f key -n file msg", TierMutate, false},
		{"verify then sign", "ssh-keygen -Y verify -Y sign -f key -n file msg", TierMutate, false},
		{"computed op", `ssh-keygen -Y "$op" -f key -n file msg`, TierMutate, false},
		{"computed word", "ssh-keygen -Y verify -f a -I me -n file -s $x", TierMutate, false},
		{"unknown op", "ssh-keygen -Y frob -f key", TierMutate, false},
		{"export passphrase", "ssh-keygen -e -f key -p", TierMutate, false},
		{"export comment", "ssh-keygen -e -c -f key", TierMutate, false},
		{"import prints private", "ssh-keygen -i -f key", TierMutate, false},
		{"export import", "ssh-keygen -e -i -f key", TierMutate, false},
		{"sshfp generate", "ssh-keygen -r host -f k -t rsa", TierMutate, false},
		{"remove host", "ssh-keygen -R host", TierDestructive, false},
		{"verify provider", "ssh-keygen -Y verify -D /tmp/lib.so", TierDestructive, false},
		{"protected", "ssh-keygen -e -f /etc/warden/audit.key", TierDestructive, true},
		{"verify protected", "ssh-keygen -Y verify -f a -I me -n f -s /root/.local/state/warden/token", TierDestructive, true},
	})
}

// TestBlindSpotOb37RsyncNoTransfer: a local rsync with -n (every file
// system call a no-op) or --list-only with a lone source prints and
// writes nothing; a real copy, a daemon, a "--no-" option,
// a computed word and log or batch files keep their tiers.
func TestBlindSpotOb37RsyncNoTransfer(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"list-only", "rsync --list-only /srv/", TierRead},
		{"list-only recursive", "rsync -r --list-only /srv/", TierRead},
		{"dry-run", "rsync --dry-run -av /src/ /dst/", TierRead},
		{"-n", "rsync -n -av /src/ /dst/", TierRead},
		{"cluster", "rsync -avn /src/ /dst/", TierRead},
		{"itemize", "rsync -ain --exclude=.git /src/ /dst/", TierRead},
		{"value then -n", "rsync -a --exclude .git -n /src/ /dst/", TierRead},
		// Under -n, --delete reports what it would remove; a remote side
		// is reached as ssh HOST reaches it (blindspots_fp38_test.go).
		{"dry delete", "rsync -an --delete /src/ /dst/", TierRead},
		{"dry-run remote", "rsync -n -av /src/ host:/dst/", TierBenign},
	})
	runBlindHosts(t, p, []blindCase{
		{"copy", "rsync -av /src/ /dst/", TierMutate, false},
		{"list-only with destination", "rsync --list-only /src/ /dst/", TierMutate, false},
		{"remote option", "rsync -n -M--log-file=/etc/x /a /b", TierMutate, false},
		{"remote option long", "rsync -n --remote-option=--log-file=/etc/x /a /b", TierMutate, false},
		{"no-dry-run", "rsync -n --no-dry-run /a /b", TierMutate, false},
		{"daemon", "rsync -n --daemon", TierMutate, false},
		{"computed", "rsync -n $x /a /b", TierMutate, false},
		{"log file", "rsync -n --log-file=/tmp/l /a /b", TierMutate, false},
		{"batch", "rsync -n --only-write-batch=/tmp/b /a /b", TierMutate, false},
		{"rsh", "rsync -n -e 'touch /tmp/p' /a /b", TierMutate, false},
		{"rsync-path", "rsync -n --rsync-path='touch /tmp/p' /a /b", TierMutate, false},
		{"protected", "rsync -n /etc/warden/audit.key /tmp/x", TierDestructive, true},
		// -n as another option's value is no dry run.
		{"exclude value", "rsync -a --exclude -n /src/ /dst/", TierMutate, false},
		{"filter value", "rsync -a --filter -n /src/ /dst/", TierMutate, false},
		{"abbreviated value", "rsync -a --excl -n /src/ /dst/", TierMutate, false},
		{"short value", "rsync -a -f -n /src/ /dst/", TierMutate, false},
		{"cluster value", "rsync -af -n /src/ /dst/", TierMutate, false},
		{"modify-window value", "rsync -a -@ -n /src/ /dst/", TierMutate, false},
		{"operand", "rsync -a -- -n /dst/", TierMutate, false},
		{"dry-run prefix", "rsync -a --dry /src/ /dst/", TierMutate, false},
		{"list protected", "rsync --list-only /root/.local/state/warden/", TierDestructive, true},
	})
}

// TestBlindSpotOb37GitTraceStderr: GIT_TRACE*=1 (or true, 0, false, 2)
// names no file — git writes to standard error or not at all — so a read
// stays tier 0 in every way of setting it; a path, a socket, another
// descriptor or a value known only at run time is still a write.
func TestBlindSpotOb37GitTraceStderr(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"1", "GIT_TRACE=1 git status", TierRead},
		{"true", "GIT_TRACE=TRUE git log -1", TierRead},
		{"off", "GIT_TRACE=0 git status", TierRead},
		{"trace2", "GIT_TRACE2_PERF=1 git status", TierRead},
		{"packet", "GIT_TRACE_PACKET=true git log", TierRead},
		{"export", "export GIT_TRACE=1; git status", TierRead},
		{"env", "env GIT_TRACE=1 git status", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"path", "GIT_TRACE=/tmp/x git status", TierMutate, false},
		{"sensitive", "GIT_TRACE=/etc/passwd git status", TierDestructive, false},
		{"fd", "GIT_TRACE=3 git status", TierMutate, false},
		{"socket", "GIT_TRACE2_EVENT=af_unix:/tmp/s git status", TierMutate, false},
		{"computed", "GIT_TRACE=$x git status", TierMutate, false},
		{"export path", "export GIT_TRACE=/tmp/x; git status", TierMutate, false},
		{"env path", "env GIT_TRACE2=/tmp/x git status", TierMutate, false},
		{"protected", "GIT_TRACE=/root/.local/state/warden/audit.jsonl git status", TierDestructive, true},
	})
}
