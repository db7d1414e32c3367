package policy

import "testing"

// TestBlindSpotPriorityLongPid: ionice, chrt and taskset act on running
// processes through --pid as well as -p, and ionice's --pid, --pgid and
// --uid take their id after "=" or in the next word. With the option
// spelled long and no command left after it, the wrapper reading saw
// nothing to run and took the call for a query: a readonly agent could
// raise or drop the I/O class of any process, the service's own or init.
func TestBlindSpotPriorityLongPid(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"ionice -c3 --pid=1",
		"ionice -c 3 --pid=1",
		"ionice --class=idle --pid=1",
		"ionice --class idle --pid 1",
		"ionice --class=3 --pid 1",
		"ionice -n 7 --pid=1",
		"ionice -n7 --pid=1 2 3",
		"ionice --classdata=7 --pid=1",
		"ionice --pid=1 -c3",
		"ionice --pi=1 -c3",
		"ionice -c3 --pgid=1",
		"ionice -c3 --pg=1",
		"ionice -c3 --uid=0",
		"ionice -c3 --uid 0",
		"ionice -c3 --u=0",
		"ionice -t -c1 -n0 --pid=1",
		"sudo ionice -c3 --pid=1",
		"/usr/bin/ionice -c3 --pid=1",
		"nice ionice -c3 --pid=1",
		"sh -c 'ionice -c3 --pid=1'",
		"env ionice --class=idle --pid=1",
		"chrt --fifo --pid 1 1",
		"chrt --all-tasks --rr --pid 5 1",
		"taskset --pid 0x1 1",
	))
	runExactHosts(t, p, []exactCase{
		{"ionice --pid=N", "ionice --pid=1234", TierRead},
		{"ionice --pid N", "ionice --pid 1234", TierRead},
		{"ionice -p N", "ionice -p 1234", TierRead},
		{"ionice --uid=N", "ionice --uid=1000", TierRead},
		{"ionice --pgid N", "ionice --pgid 1234", TierRead},
		{"chrt -p", "chrt -p 1234", TierRead},
		{"chrt --pid", "chrt --pid 1234", TierRead},
		{"taskset -p", "taskset -p 1234", TierRead},
		{"taskset --pid", "taskset --pid 1234", TierRead},
		{"prlimit --pid=N", "prlimit --pid=1234", TierRead},
		{"ionice runs a read", "ionice -c3 ls /", TierRead},
		{"chrt runs a read", "chrt -i 0 ls /", TierRead},
	})
}

// TestBlindSpotServiceOptionsOnly: service with options and no operand was
// read as --status-all, but FreeBSD's service -R restarts every enabled
// local service; only the listing options (-e, -l, -r, -v, Debian's
// --status-all) keep it a read.
func TestBlindSpotServiceOptionsOnly(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"service -R",
		"service -vR",
		"service -Rv",
		"service -v -R",
		"sudo service -R",
		"doas service -R",
		"/usr/sbin/service -R",
		"sh -c 'service -R'",
		"env service -R",
		"nohup service -R",
		"timeout 60 service -R",
		"echo | xargs service -R",
	))
	runExactHosts(t, p, []exactCase{
		{"-e", "service -e", TierRead},
		{"-l", "service -l", TierRead},
		{"-r", "service -r", TierRead},
		{"-vl", "service -vl", TierRead},
		{"--status-all", "service --status-all", TierRead},
		{"status", "service sshd status", TierRead},
		{"onestatus", "service sshd onestatus", TierRead},
		{"bare", "service", TierRead},
	})
}

// TestBlindSpotSarDailyFile: sar -o without a file name (last on the
// line, or before an option or the interval) appends to the system's
// daily activity file, /var/log/sa/saDD; only a named file was seen.
func TestBlindSpotSarDailyFile(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"sar -u 1 1 -o",
		"sar 1 1 -o",
		"sar -A 60 10 -o",
		"sar -n DEV 1 3 -o",
		"sar -o 1 1",
		"sar -o -u 1 1",
		"sudo sar 1 1 -o",
		"/usr/bin/sar -u 1 5 -o",
		"nice -n 19 sar 1 1 -o",
		"timeout 10 sar 1 5 -o",
		"sh -c 'sar 1 1 -o'",
		"env LC_ALL=C sar 1 1 -o",
	))
	runExactHosts(t, p, []exactCase{
		{"sar interval", "sar -u 1 3", TierRead},
		{"sar -f", "sar -f /var/log/sa/sa01", TierRead},
		{"sar -A", "sar -A", TierRead},
		{"sar -n DEV", "sar -n DEV 1 3", TierRead},
	})
}

// TestBlindSpotLshwDatabase: lshw -dump FILE is two settings, OUTFILE=FILE
// and the output:db switch, and -enable output:db turns on the second
// alone: lshw then writes its SQLite database to whatever $OUTFILE names.
func TestBlindSpotLshwDatabase(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"OUTFILE=/etc/x lshw -enable output:db",
		"lshw -enable output:db",
		"lshw -short -enable OUTPUT:DB",
		"lshw -enable Output:Db -quiet",
		"export OUTFILE=/root/x; lshw -enable output:db",
		"env OUTFILE=/root/x lshw -enable output:db",
		"sudo OUTFILE=/root/x lshw -enable output:db",
		"sh -c 'lshw -enable output:db'",
		`lshw -enable "$M"`,
	))
	runExactHosts(t, p, []exactCase{
		{"lshw -short", "lshw -short", TierRead},
		{"lshw -enable probe", "lshw -enable dmi -class disk", TierRead},
		{"lshw -disable", "lshw -disable usb -json", TierRead},
	})
}

// TestBlindSpotPreprocessorDriver: cpp is GCC's driver run with -E, so it
// runs cc1 from wherever -B, --prefix (also abbreviated, --prefi DIR),
// COMPILER_PATH or GCC_EXEC_PREFIX point, and writes its make rules to
// -MF's file with the name attached (-MF/etc/x) and to the file
// DEPENDENCIES_OUTPUT or SUNPRO_DEPENDENCIES name.
func TestBlindSpotPreprocessorDriver(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"cpp -B/tmp/b/ a.c",
		"cpp -Bb a.c",
		"cpp -B /tmp/b/ a.c",
		"cpp --prefix=/tmp/b/ a.c",
		"cpp --prefix /tmp/b/ a.c",
		"cpp --prefi /tmp/b/ a.c",
		"cpp --pref /tmp/b/ a.c",
		"cpp-12 -B/tmp/b/ a.c",
		"cpp -P -B/tmp/b/ -dM /dev/null",
		"COMPILER_PATH=/tmp/b cpp a.c",
		"GCC_EXEC_PREFIX=/tmp/b/ cpp a.c",
		"env COMPILER_PATH=/tmp/b cpp a.c",
		"export GCC_EXEC_PREFIX=/tmp/b/; cpp -dM /dev/null",
		"sudo COMPILER_PATH=/tmp/b cpp a.c",
		"sh -c 'cpp -B/tmp/b a.c'",
		"echo a.c | xargs cpp -B/tmp/b",
		"gcc --prefix=/tmp/b/ -E a.c",
		"COMPILER_PATH=/tmp/b gcc -E a.c",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"cpp -MF/etc/x -M a.c",
		"cpp -MFx -M a.c",
		"cpp -M -MF/root/x a.c",
		"cpp -MD -MF/tmp/x a.c",
		"cpp -MM -MT t -MF/etc/x a.c",
		"cpp-12 -MF/etc/x -M a.c",
		"sudo cpp -MF/etc/x -M a.c",
		"DEPENDENCIES_OUTPUT=/etc/x cpp a.c",
		"SUNPRO_DEPENDENCIES='/etc/x t' cpp a.c",
		"env DEPENDENCIES_OUTPUT=/etc/x cpp a.c",
		"export DEPENDENCIES_OUTPUT=/etc/x; cpp a.c",
	))
	runExactHosts(t, p, []exactCase{
		{"cpp", "cpp a.c", TierRead},
		{"cpp -dM", "cpp -dM /dev/null", TierRead},
		{"cpp -M", "cpp -M a.c", TierRead},
		{"cpp -MM -MT", "cpp -MM -MT t a.c", TierRead},
		{"cpp -I", "cpp -P -I/usr/include a.c", TierRead},
		{"cpp -print-search-dirs", "cpp -print-search-dirs", TierRead},
		{"objdump -M", "objdump -Mintel -d /bin/ls", TierRead},
	})
}

// TestBlindSpotPartedFix: a parted print or -l was a read whatever its
// options, but -f/--fix in script mode answers Fix to every question the
// print raises (a GPT whose backup header is not at the disk's end, after
// a disk grew, is rewritten), and ---pretend-input-tty reads the answers
// from standard input; getopt_long takes both abbreviated and anywhere.
func TestBlindSpotPartedFix(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"parted -s -f /dev/sda print",
		"parted -sf /dev/sda print",
		"parted -fs /dev/sda p",
		"parted --script --fix /dev/sda print",
		"parted --fi -s /dev/sda print",
		"parted --f --s /dev/sda unit s print",
		"parted /dev/sda print -f -s",
		"parted -s -f -l",
		"parted -lsf",
		"parted -l --fix --script",
		"parted -m -s -f /dev/sda unit MiB print",
		"parted ---pretend-input-tty /dev/sda print",
		"printf 'Fix\\n' | parted ---pretend-input-tty /dev/sda print",
		"parted ---p /dev/sda print",
		"sudo parted -s -f /dev/sda print",
		"/sbin/parted -sf /dev/sda print",
		"sh -c 'parted -s --fix /dev/nvme0n1 print'",
		"parted -al /dev/sda rm 1",
		`parted "$O" /dev/sda print`,
	))
	runExactHosts(t, p, []exactCase{
		{"print", "parted /dev/sda print", TierRead},
		{"script print", "parted -s /dev/sda print", TierRead},
		{"machine units", "parted -m -s /dev/sda unit s print", TierRead},
		{"json", "parted --json /dev/sda print", TierRead},
		{"script after device", "parted /dev/sda -s print", TierRead},
		{"-l", "parted -l", TierRead},
		{"-lm", "parted -lm", TierRead},
		{"--list", "parted --list", TierRead},
		{"-a with -l", "parted -a optimal -l", TierRead},
		{"--help", "parted --help", TierRead},
	})
}

// TestBlindSpotLosetupListAttach: losetup's listing options (-l, -O,
// --raw, --json) only shape what is shown, and with a device and a file
// after them losetup attaches the file (util-linux: no action given and
// two operands is A_CREATE): only the listing options with at most one
// operand read.
func TestBlindSpotLosetupListAttach(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"losetup -l /dev/loop0 /x.img",
		"losetup --list /dev/loop0 /x.img",
		"losetup -l -P /dev/loop0 /srv/disk.img",
		"losetup -l -o 0 /dev/loop0 /x.img",
		"losetup -O NAME /dev/loop0 /x.img",
		"losetup --output=NAME,BACK-FILE /dev/loop7 /x.img",
		"losetup --raw /dev/loop0 /x.img",
		"losetup -J /dev/loop0 /x.img",
		"losetup -ln /dev/loop0 /x.img",
		"sudo losetup -l /dev/loop0 /x.img",
		"/sbin/losetup -l /dev/loop0 /x.img",
		"sh -c 'losetup --list /dev/loop0 /x.img'",
		"busybox losetup -l /dev/loop0 /x.img",
	))
	runExactHosts(t, p, []exactCase{
		{"bare", "losetup", TierRead},
		{"-a", "losetup -a", TierRead},
		{"-l", "losetup -l", TierRead},
		{"-la", "losetup -la", TierRead},
		{"one device", "losetup /dev/loop0", TierRead},
		{"-l device", "losetup -l /dev/loop0", TierRead},
		{"-j", "losetup -j /srv/disk.img", TierRead},
		{"--associated=", "losetup --associated=/srv/disk.img", TierRead},
		{"columns", "losetup -l -n -O NAME,BACK-FILE", TierRead},
		{"json", "losetup --json", TierRead},
	})
}

// TestBlindSpotFsckPassedOptions: fsck hands every option after "--" to
// the checker as it is, and the checker may take the last of -n and a
// repairing option (dosfsck does: -n then -a, -r or -w repairs), so only
// -n, -f and -v there keep fsck -n a check.
func TestBlindSpotFsckPassedOptions(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"fsck -n /dev/sdb1 -- -a",
		"fsck -n -t vfat /dev/sdb1 -- -a",
		"fsck -n -- -a /dev/sdb1",
		"fsck -n /dev/sdb1 -- -y",
		"fsck -n /dev/sdb1 -- -p",
		"fsck -n /dev/sdb1 -- -r",
		"fsck -n /dev/sdb1 -- -w",
		"fsck -n /dev/sdb1 -- -n -a",
		"fsck -n /dev/sdb1 -- -na",
		"fsck -n -t vfat /dev/sdb1 -- -V -a",
		"sudo fsck -n /dev/sdb1 -- -a",
		"/sbin/fsck -n /dev/sdb1 -- -a",
		"sh -c 'fsck -n /dev/sdb1 -- -a'",
	))
	runExactHosts(t, p, []exactCase{
		{"-n", "fsck -n /dev/sdb1", TierRead},
		{"-N", "fsck -N /dev/sdb1", TierRead},
		{"-n -t", "fsck -n -t ext4 /dev/sdb1", TierRead},
		{"-n -- -f", "fsck -n /dev/sdb1 -- -f", TierRead},
		{"-n -- -nfv", "fsck -n /dev/sdb1 -- -nfv", TierRead},
	})
}

// TestBlindSpotWirelessScan: OpenWrt's iwinfo DEV scan scans as iw DEV
// scan does, sending probes and taking the radio off its channel for a
// while, and is tier 1 as that is (refused in readonly mode); its other
// commands only report.
func TestBlindSpotWirelessScan(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierBenign, false,
		"iwinfo wlan0 scan",
		"iwinfo phy0-ap0 scan",
		"iwinfo radio0 scan",
		"/usr/bin/iwinfo wlan0 scan",
		"sh -c 'iwinfo wlan0 scan'",
		"for i in wlan0 wlan1; do iwinfo $i scan; done",
		"iw dev wlan0 scan",
	))
	runExactHosts(t, p, []exactCase{
		{"iwinfo", "iwinfo", TierRead},
		{"info", "iwinfo wlan0 info", TierRead},
		{"assoclist", "iwinfo wlan0 assoclist", TierRead},
		{"freqlist", "iwinfo wlan0 freqlist", TierRead},
		{"phyname", "iwinfo nl80211 phyname radio0", TierRead},
		{"iw scan dump", "iw dev wlan0 scan dump", TierRead},
	})
}

// TestBlindSpotCounterDaemon: nstat -d SECS and ifstat -d SECS (--scan)
// fork a daemon that samples the kernel's counters until it is killed,
// and later runs read from it: a process that outlives the call.
func TestBlindSpotCounterDaemon(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"nstat -d 1",
		"nstat -d1",
		"nstat -ad 1",
		"nstat --scan 60",
		"nstat --scan=60",
		"nstat --sc 60",
		"nstat -t 60 -d 10",
		"ifstat -d 1",
		"ifstat --scan=5",
		"ifstat -ed 5",
		"sudo nstat -d 1",
		"sh -c 'ifstat -d 10'",
	))
	runExactHosts(t, p, []exactCase{
		{"nstat", "nstat", TierRead},
		{"nstat -az", "nstat -az", TierRead},
		{"nstat -j", "nstat -j", TierRead},
		{"nstat -s", "nstat -s", TierRead},
		{"ifstat", "ifstat", TierRead},
		{"ifstat -x", "ifstat -x cpu_hits", TierRead},
		{"ifstat -e", "ifstat -e", TierRead},
	})
}

// TestDateISOFormats: date -I takes its format attached (-Iseconds, and
// argmatch's abbreviations, -Is), so the cluster ends at I and holds no
// -s: these print the time and are tier 0, while a -s beside them still
// sets the clock.
func TestDateISOFormats(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"-Iseconds", "date -Iseconds", TierRead},
		{"-Is", "date -Is", TierRead},
		{"-u -Iseconds", "date -u -Iseconds", TierRead},
		{"-uIs", "date -uIs", TierRead},
		{"-Ins", "date -Ins", TierRead},
		{"-I", "date -I", TierRead},
		{"substituted", "echo \"$(date -Iseconds) backup done\"", TierRead},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"date -I -s 2020-01-01",
		"date -Is -s 2020-01-01",
		"date -uIseconds -s 2020-01-01",
		"date -us 2020-01-01",
		"date -sI",
		"date -Iseconds 010100002020",
	))
}

// TestBlindSpotLabelResets: the label tools print given only a device,
// but fatlabel -r (--reset) removes the label, or with -i draws a new
// serial, without a NEW operand, and ntfslabel --new-half-serial writes
// half a new serial as --new-serial writes one; fstab and the boot
// loader may find the file system by either.
func TestBlindSpotLabelResets(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"fatlabel -r /dev/sdb1",
		"fatlabel --reset /dev/sdb1",
		"fatlabel --res /dev/sdb1",
		"fatlabel -ir /dev/sdb1",
		"fatlabel -i -r /dev/sdb1",
		"fatlabel --volume-id --reset /dev/sdb1",
		"fatlabel -r -c 850 /dev/sdb1",
		"ntfslabel --new-half-serial /dev/sdb1",
		"ntfslabel --new-half-serial=1234 /dev/sdb1",
		"ntfslabel --new-h /dev/sdb1",
		"ntfslabel -f --new-half-serial /dev/sdb1",
		"sudo fatlabel -r /dev/sdb1",
		"/sbin/fatlabel -r /dev/mmcblk0p1",
		"sh -c 'fatlabel --reset /dev/sdb1'",
	))
	runExactHosts(t, p, []exactCase{
		{"fatlabel", "fatlabel /dev/sdb1", TierRead},
		{"ntfslabel", "ntfslabel /dev/sdb1", TierRead},
		{"ntfslabel -v", "ntfslabel -v /dev/sdb1", TierRead},
		{"exfatlabel", "exfatlabel /dev/sdb1", TierRead},
		{"e2label", "e2label /dev/sda1", TierRead},
		{"swaplabel", "swaplabel /swapfile", TierRead},
	})
}
