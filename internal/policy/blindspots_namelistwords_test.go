package policy

import "testing"

// TestBlindSpotNameListsAreWords: an archiver that reads the names of
// the files it takes from its input or a list (cpio -o and -p, afio -o,
// pax -w, zip -@, tar -T and --files-from, rsync --files-from) reads
// each file named there as surely as one named on its command line, so
// a name of warden's state in a here-string, a here-document, the output
// of printf or a file the script wrote is denied as the word would be:
// cpio -o <<< …/token puts the token in an archive on standard output.
// rsync takes the names under its source directory.
func TestBlindSpotNameListsAreWords(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"cpio -o <<< /root/.local/state/warden/token",
		"cpio -o > /tmp/x.cpio <<< /etc/warden/audit.key",
		"cpio -o -H newc <<EOF\n/etc/warden/config.yaml\nEOF",
		"cpio --create --format=newc <<< /root/.local/state/warden/audit.jsonl",
		"cpio -ov <<< '/etc/hosts\n/etc/warden/config.yaml'",
		"cpio -p /tmp/out <<< /etc/warden/config.yaml",
		"cpio -pdm /tmp/out <<EOF\n/root/.local/state/warden/token\nEOF",
		"afio -o /tmp/x <<< /etc/warden/config.yaml",
		"pax -w <<< /etc/warden/config.yaml",
		"pax -w -f /tmp/x.pax <<< /root/.local/state/warden/token",
		"zip /tmp/x.zip -@ <<< /etc/warden/config.yaml",
		"zip --names-stdin /tmp/x.zip <<< /etc/warden/audit.key",
		"tar -cf /tmp/x.tar -T - <<< /etc/warden/config.yaml",
		"tar -cf /tmp/x.tar -T - <<< /root/.local/state/warden",
		"tar -c -T /dev/stdin <<< /etc/warden/audit.key",
		"tar -cf - --files-from=- <<< /etc/warden/config.yaml",
		"tar -cf - --files-from - <<EOF\n/root/.local/state/warden/token\nEOF",
		"bsdtar -cf /tmp/x.tar -T - <<< /etc/warden/config.yaml",
		"rsync --files-from=- / /tmp/x <<< /etc/warden/config.yaml",
		"rsync -a --files-from=- / /tmp/x <<< etc/warden/config.yaml",
		"rsync --files-from=- /root /tmp/x <<< .local/state/warden/token",
		"printf '/etc/warden/%s\\n' config.yaml > /tmp/l; tar -cf x -T /tmp/l",
		"printf '/etc/warden/%s\\n' config.yaml | cpio -o",
		"printf '%s/%s\\n' /root/.local/state/warden token | zip /tmp/x.zip -@",
		"printf '/etc/%s/audit.key\\n' warden | pax -w",
		"printf '/etc/warden/%s\\n' config.yaml | tar -cf /tmp/x.tar -T -",
	))
	runExactHosts(t, p, []exactCase{
		{"cpio of other files", "cpio -o <<< /etc/hosts", TierMutate},
		{"tar list of other files", "tar -czf - -T - <<< /etc/hosts", TierMutate},
		{"find into cpio", "find /srv/app -type f | cpio -o > /tmp/x.cpio", TierMutate},
		{"printf of other names", "printf '/srv/%s\\n' a b | cpio -o", TierMutate},
	})
}
