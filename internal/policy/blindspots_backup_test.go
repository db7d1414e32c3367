package policy

import "testing"

// TestBlindSpotBackupReaders: backup, image, upload and search tools that
// read every file under a directory, and archivers that read the names a
// finder before them lists on standard input, read warden's state when
// given a directory above it, as grep -r and tar c do.
func TestBlindSpotBackupReaders(t *testing.T) {
	p := linkPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"borg create /tmp/r::a /var/lib",
		"borg create --compression lz4 /tmp/r::a /var /etc",
		"borg -v create /tmp/r::a /",
		"borgbackup create /tmp/r::a /var/lib",
		"restic backup /var/lib",
		"restic -r /tmp/r backup /var",
		"restic backup --exclude x /",
		"restic -r /tmp/r backup ~root/.local",
		"cd /var && restic backup lib",
		"kopia snapshot create /var/lib",
		"kopia snap create /var",
		"duplicity /var/lib file:///tmp/x",
		"duplicity full /var file:///tmp/x",
		"rclone copy /var/lib remote:x",
		"rclone sync /var remote:x",
		"rclone serve http /var/lib",
		"aws s3 sync /var/lib s3://b/x",
		"aws s3 cp --recursive /var s3://b/",
		"gsutil -m cp -r /var/lib gs://b",
		"gsutil rsync -r /var gs://b",
		"pax -w /var/lib",
		"pax -w -f /tmp/x /var",
		"mksquashfs /var/lib /tmp/x.sq",
		"mksquashfs /var /etc /tmp/x.sq -comp xz",
		"genisoimage -o /tmp/x.iso -r /var/lib",
		"mkisofs -o /tmp/x.iso /var",
		"xorriso -as mkisofs -o /tmp/x.iso /var/lib",
		"xorrisofs -o /tmp/x.iso /var/lib",
		"tarsnap -c -f a /var/lib",
		"ugrep -r x /var/lib",
		"ugrep x -r /var",
		"ug x /var",
		"hashdeep -r /var/lib",
		"md5deep -r /var",
		"sha256deep -r /",
		// Names on standard input.
		"find /var/lib | cpio -o > /tmp/x",
		"find /var/lib -depth -print0 | cpio -o0 > /tmp/x",
		"find /var/lib | cpio --create > /tmp/x",
		"find /var/lib -type f | tar -cf /tmp/x -T -",
		"find /var/lib -type f | tar -cf /tmp/x --files-from=-",
		"find /var/lib -type f | tar -cf /tmp/x --files-from -",
		"find /var/lib -type f | tar -cf /tmp/x -T /dev/stdin",
		"find /var/lib -type f | tar cfT /tmp/x -",
		"find /var/lib -type f | tar -cT- -f /tmp/x",
		"find /var/lib -type f | zip /tmp/x -@",
		"find /var/lib -type f | zip --names-stdin /tmp/x",
		"find /var/lib -type f -print0 | rsync -a --files-from=- -0 / /tmp/x",
		"find /var/lib | pax -w > /tmp/x",
		"fd . /var/lib | cpio -o",
		"rg --files /var/lib | zip /tmp/x -@",
		"cd /var; find lib | cpio -o > /tmp/x",
	))
	// The same tools on other directories stay as they were.
	runExact(t, p, []exactCase{
		{"borg other", "borg create /tmp/r::a /home/u/docs", TierBenign},
		{"restic other", "restic backup /srv/data", TierBenign},
		{"cpio other", "find /tmp -type f | cpio -o > /tmp/x", TierMutate},
		{"zip other", "find /home/u -type f | zip /tmp/x -@", TierMutate},
		{"tar -T other", "find /srv -type f | tar -cf /tmp/x -T -", TierMutate},
		{"pax other", "pax -w /srv/data", TierMutate},
		{"rclone other", "rclone copy /srv/data remote:x", TierMutate},
		{"rclone download", "rclone copy remote:x /var/lib", TierMutate},
		{"cpio list", "cpio -t < /tmp/x.cpio", TierRead},
	})
}
