package policy

import "testing"

// TestBlindSpotReaderOptions: options of otherwise read-only programs that
// write a file of the caller's choosing are checked as writes, and those
// that run a program classify it; the reads stay tier 0.
func TestBlindSpotReaderOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"pidstat -e", "pidstat -e reboot", TierDestructive, true},
		{"pidstat -d -e", "pidstat -d -e touch /srv/x", TierMutate, false},
		{"pidstat -e nothing", "pidstat -e", TierMutate, false},
		{"ausearch --checkpoint", "ausearch --checkpoint /tmp/x -m avc", TierMutate, false},
		{"ausearch --checkpoint=", "ausearch --checkpoint=/tmp/x", TierMutate, false},
		{"blkid -c", "blkid -c /tmp/x", TierMutate, false},
		{"blkid -c attached", "blkid -c/tmp/x", TierMutate, false},
		{"blkid --cache-file=", "blkid --cache-file=/tmp/x", TierMutate, false},
		{"blkid -c device", "blkid -c /dev/sda", TierDestructive, true},
		{"ss -D", "ss -D /tmp/x", TierMutate, false},
		{"ss --diag=", "ss --diag=/tmp/x", TierMutate, false},
		{"ss --di", "ss --di /tmp/x", TierMutate, false},
		{"ss -tD cluster", "ss -tD/tmp/x", TierMutate, false},
		{"tar -t --index-file", "tar -tvf x.tar --index-file=/tmp/o", TierMutate, false},
		{"tar -t --ind", "tar -tf x.tar --ind /tmp/o", TierMutate, false},
		{"tar -t --volno-file", "tar -tf x.tar --volno-file=/tmp/o", TierMutate, false},
		{"tar -d --index-file", "tar -df x.tar --index-file /tmp/o", TierMutate, false},
		{"tar --index-file device", "tar -tf x.tar --index-file=/dev/sda", TierDestructive, true},
	})
	runExact(t, p, []exactCase{
		{"pidstat", "pidstat 1 5", TierRead},
		{"pidstat -e ls", "pidstat -d -e ls -l", TierRead},
		{"ausearch", "ausearch -m avc --start today", TierRead},
		{"blkid", "blkid /dev/sda1", TierRead},
		{"blkid -c /dev/null", "blkid -c /dev/null", TierRead},
		{"ss", "ss -tlnp", TierRead},
		{"tar -t", "tar -tvf x.tar", TierRead},
		{"tar t", "tar tf x.tar", TierRead},
	})
}
