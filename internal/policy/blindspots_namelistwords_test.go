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

// TestBlindSpotFiles0Lists: sort --files0-from prints the lines of every
// file its list names (wc and du count them), find -files0-from takes its
// starting points from one, and 7z and rar add the names of an @LIST
// file: a list that names warden's state, NUL-separated as these (and tar
// --null -T) read it, is denied as the name on the command line is, and
// a finder's output piped to sort --files0-from=- reads every file it
// lists, as xargs cat does.
func TestBlindSpotFiles0Lists(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"printf '/etc/warden/config.yaml\\0' | sort --files0-from=-",
		"printf '/etc/warden/%s\\0' config.yaml | sort --files0-from=-",
		"printf '/etc/warden/%s\\0' config.yaml | sort --files0-from -",
		"printf '/etc/warden/%s\\0' config.yaml | sort --files0=-",
		"printf '/etc/warden/%s\\0' config.yaml > /tmp/l; sort --files0-from=/tmp/l",
		"printf '/etc/%s/audit.key\\0' warden | sort -u --files0-from=-",
		"printf '/etc/warden/%s\\0' config.yaml | du --files0-from=-",
		"printf '/etc/%s/config.yaml\\0' warden | wc --files0-from=-",
		"printf '/etc/warden/%s\\0' config.yaml | find -files0-from - -exec cat {} +",
		"printf '/etc/warden/%s\\0' config.yaml | tar --null -cf /tmp/x.tar -T -",
		"printf '/etc/warden/%s\\0' audit.key > /tmp/l; tar --null -cf /tmp/x.tar -T /tmp/l",
		"printf '/etc/warden/%s\\n' config.yaml > /tmp/l; 7z a /tmp/x.7z @/tmp/l",
		"printf '/root/.local/state/%s/token\\n' warden > /tmp/l; 7za a /tmp/x.7z @/tmp/l",
		"printf '/etc/warden/%s\\n' config.yaml > /tmp/l; rar a /tmp/x.rar @/tmp/l",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"find /etc -type f -print0 | sort --files0-from=-",
		"find /root -print0 | sort --files0-from -",
		"printf '/etc/%s\\n' warden > /tmp/l; 7z a /tmp/x.7z @/tmp/l",
	))
	runExactHosts(t, p, []exactCase{
		{"sort of other files", "printf '/srv/%s\\0' a | sort --files0-from=-", TierRead},
		{"sort a file", "sort -u /etc/hosts", TierRead},
		{"find names sorted", "find /etc -type f | sort", TierRead},
		{"finder elsewhere", "find /srv -name '*.txt' -print0 | sort --files0-from=-", TierRead},
		{"7z of other names", "printf '/srv/%s\\n' a > /tmp/l; 7z a /tmp/x.7z @/tmp/l", TierMutate},
	})
}
