package policy

import "testing"

// TestBlindSpotKillInitAnyway: killing PID 1 or every process is denied
// however the processes are chosen: ids in every spelling kill's strtol
// takes, init by name (util-linux kill), pkill and killall -r patterns
// that match init's name or command line (or, inverted, do not), and ids
// looked up at run time by such a pattern, on the local host and an SSH
// host. Patterns that name one service, or are narrowed to a terminal or
// another user, keep their tier.
func TestBlindSpotKillInitAnyway(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"kill -9 -00001", "kill -9 -01", "kill -9 01", "kill -9 +1", "kill -9 ' 1'", "kill -s KILL -- -01",
		"kill -KILL -- +01", "sudo kill -9 0001", "/bin/kill -9 init", "/bin/kill -s TERM systemd", "env kill -INT systemd",
		"pkill -f ''", "pkill -9 -f /sbin/init", "pkill -9 sys", "pkill -9 d", "pkill -9 -x 'system.'",
		"pkill -INT -x 'sys.*'", "pkill --inverse nginx", "pkill --inv -9 nginx", "pkill -9 procd", "pkill -io sys",
		"pkill -KILL -u root .", "pkill -9 -f -- --system", "pkill -9 -f 'bin/'", "pkill -U 0 -f 'sbin'",
		"killall procd", "killall -9 /sbin/init", "killall -9 /lib/systemd/systemd", "killall -r '^s'",
		"killall -9 -r .", "killall -9 --regexp .", "killall -s INT -r sys", "killall -9 -e -r 'systemd'",
		"killall -I -r SYSTEMD", "killall -s KILL -o 1h -r .",
		"kill -9 $(pidof systemd)", "kill -9 $(pidof init)", "kill -9 $(pgrep -f .)", "kill -9 $(pgrep systemd)",
		"kill -9 `pgrep -v nothing`", "kill -TERM $(/usr/bin/pidof -s procd)",
		"sh -c 'pkill -9 -f .'", "busybox killall procd",
	))
	runExactHosts(t, p, []exactCase{
		{"kill a pid", "kill -9 1234", TierMutate},
		{"kill a group", "kill -9 -1234", TierMutate},
		{"kill own group", "kill -9 0", TierMutate},
		{"kill ten", "kill -HUP 10", TierMutate},
		{"pkill a service", "pkill nginx", TierMutate},
		{"pkill -f a script", "pkill -f 'python app.py'", TierMutate},
		{"pkill hup", "pkill -HUP nginx", TierMutate},
		{"pkill gunicorn", "pkill -9 -f gunicorn", TierMutate},
		{"pkill apache path", "pkill -f /usr/sbin/apache2", TierMutate},
		{"pkill exact", "pkill -x nginx", TierMutate},
		{"pkill a user's puma", "pkill -u deploy -f puma", TierMutate},
		{"pkill a user's all", "pkill -u www-data -f ''", TierMutate},
		{"pkill worker", "pkill -f 'nginx: worker'", TierMutate},
		{"pkill a tunnel", "pkill -f 'ssh -N -L'", TierMutate},
		{"pkill update", "pkill -f update", TierMutate},
		{"killall nginx", "killall nginx", TierMutate},
		{"killall hup", "killall -HUP nginx", TierMutate},
		{"killall php", "killall -9 php-fpm7.4", TierMutate},
		{"killall regex php", "killall -r 'php-fpm.*'", TierMutate},
		{"killall a user's", "killall -u www-data", TierMutate},
		{"kill pgrep nginx", "kill -9 $(pgrep nginx)", TierMutate},
		{"kill pidof nginx", "kill $(pidof nginx)", TierMutate},
		{"kill pid file", "kill -HUP $(cat /run/nginx.pid)", TierMutate},
		{"kill pgrep a user's", "kill $(pgrep -u www-data .)", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"pkill -9 -t pts/1 .", "pkill -n .", "pkill -u www-data .",
	))
}

// TestBlindSpotStopEveryService: stopping, killing or freezing the slices
// every service and login runs in, sysinit.target (which every service
// requires), or a pattern matching every service takes sshd and the
// network down with everything else, and is denied; one service, or a
// pattern naming a few, keeps its tier.
func TestBlindSpotStopEveryService(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"systemctl stop system.slice", "systemctl kill user.slice", "systemctl freeze system.slice",
		"systemctl stop sysinit.target", "systemctl stop '*'", "systemctl stop '*.service'",
		"systemctl kill --signal=9 '*.service'", "systemctl stop -- -.slice", "systemctl --no-block stop system.slice",
		"systemctl kill -s KILL system.slice/", "sudo systemctl stop '*.slice'", "systemctl stop 's*.slice'",
		"systemctl -H db2 stop system.slice",
	))
	runExactHosts(t, p, []exactCase{
		{"a pattern of a few", "systemctl stop 'nginx*'", TierMutate},
		{"one service", "systemctl stop nginx.service", TierMutate},
		{"php pools", "systemctl stop 'php*-fpm.service'", TierMutate},
		{"a user manager", "systemctl stop user@1000.service", TierMutate},
		{"the machines", "systemctl stop machine.slice", TierMutate},
		{"templated", "systemctl stop 'app@*.service'", TierMutate},
		{"status", "systemctl status system.slice", TierRead},
		{"system.service", "systemctl stop system", TierMutate},
	})
}

// TestBlindSpotDBusPowerAnyService: a power change asked over D-Bus is
// denied whichever method, service and client carry it: logind's newer
// methods (Sleep, *WithFlags, ScheduleShutdown), starting any power or
// run-level unit by name or object path, stopping every service's slice,
// ConsoleKit, UPower, the desktop session managers and KDE's logout with
// a shutdown type. The method is read where each client puts it, so
// reads of the same names (CanPowerOff, a property, introspection) and
// calls that pass them as data (Inhibit, CancelScheduledShutdown) are not.
func TestBlindSpotDBusPowerAnyService(t *testing.T) {
	p := testPolicy(t)
	const lm = "org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager"
	const sm = "org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager"
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"busctl call "+lm+" Sleep t 0", "busctl --system call "+lm+" RebootWithFlags t 0",
		"busctl call "+lm+" SuspendThenHibernateWithFlags t 0", "busctl call "+lm+" ScheduleShutdown st poweroff 0",
		"busctl call "+sm+" StartUnit ss final.target replace", "busctl call "+sm+" StartUnit ss shutdown.target replace",
		"busctl call "+sm+" StartUnit ss umount.target replace", "busctl call "+sm+" StartUnitReplace sss a.service sleep.target replace",
		"busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/sleep_2etarget org.freedesktop.systemd1.Unit Start s replace",
		"busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/final_2etarget org.freedesktop.systemd1.Unit Start s replace",
		"busctl call "+sm+" StopUnit ss system.slice replace",
		"busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/system_2eslice org.freedesktop.systemd1.Unit Stop s replace",
		"busctl call org.freedesktop.ConsoleKit /org/freedesktop/ConsoleKit/Manager org.freedesktop.ConsoleKit.Manager Stop",
		"dbus-send --system --print-reply --dest=org.freedesktop.ConsoleKit /org/freedesktop/ConsoleKit/Manager org.freedesktop.ConsoleKit.Manager.Restart",
		"dbus-send --system --dest=org.freedesktop.UPower /org/freedesktop/UPower org.freedesktop.UPower.Suspend",
		"dbus-send --system --dest=org.freedesktop.UPower /org/freedesktop/UPower org.freedesktop.UPower.Hibernate",
		"dbus-send --session --dest=org.gnome.SessionManager /org/gnome/SessionManager org.gnome.SessionManager.RequestShutdown",
		"gdbus call --session --dest org.gnome.SessionManager --object-path /org/gnome/SessionManager --method org.gnome.SessionManager.Reboot",
		"dbus-send --session --dest=org.freedesktop.PowerManagement /org/freedesktop/PowerManagement org.freedesktop.PowerManagement.Suspend",
		"dbus-send --session --dest=org.kde.ksmserver /KSMServer org.kde.KSMServerInterface.logout int32:0 int32:2 int32:2",
		"qdbus org.kde.ksmserver /KSMServer logout 0 1 2", "qdbus org.kde.Shutdown /Shutdown logoutAndShutdown",
		"gdbus call --system --dest=org.freedesktop.login1 --object-path=/org/freedesktop/login1 --method=org.freedesktop.login1.Manager.Suspend true",
		"gdbus call -y -d org.freedesktop.login1 -o /org/freedesktop/login1 -m org.freedesktop.login1.Manager.Sleep 0",
		"dbus-send --system --print-reply --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.StartUnit string:\"halt.target\" string:\"replace\"",
		"qdbus --system org.freedesktop.login1 /org/freedesktop/login1 PowerOff true",
		"qdbus --address unix:path=/run/dbus/system_bus_socket org.freedesktop.login1 /org/freedesktop/login1 Reboot true",
		"sh -c \"busctl call "+lm+" Sleep t 0\"",
	))
	runExactHosts(t, p, []exactCase{
		{"can reboot", "busctl call " + lm + " CanReboot", TierMutate},
		{"can power off property", "busctl get-property " + lm + " CanPowerOff", TierRead},
		{"inhibit", "busctl call " + lm + " Inhibit ssss shutdown:sleep me why block", TierMutate},
		{"cancel", "busctl call " + lm + " CancelScheduledShutdown", TierMutate},
		{"dry run", "busctl call " + lm + " ScheduleShutdown st dry-poweroff 0", TierMutate},
		{"start nginx", "busctl call " + sm + " StartUnit ss nginx.service replace", TierMutate},
		{"get unit", "busctl call " + sm + " GetUnit s reboot.target", TierMutate},
		{"introspect", "busctl introspect org.freedesktop.login1 /org/freedesktop/login1", TierRead},
		{"gdbus introspect", "gdbus introspect --system --dest org.freedesktop.login1 --object-path /org/freedesktop/login1", TierRead},
		{"properties get", "dbus-send --system --print-reply --dest=org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.DBus.Properties.Get string:org.freedesktop.login1.Manager string:CanPowerOff", TierMutate},
		{"status", "busctl status", TierRead},
		{"tree", "busctl tree org.freedesktop.login1", TierRead},
		{"qdbus list", "qdbus --system org.freedesktop.login1 /org/freedesktop/login1", TierRead},
		{"ksmserver logout only", "qdbus org.kde.ksmserver /KSMServer logout 0 0 0", TierMutate},
	})
}

// TestBlindSpotPowerFilesAnyWay: the power files (/proc/sysrq-trigger,
// /sys/power/state) are denied whichever program writes them (sponge, an
// editor, any program that changes the system and names one) and through
// a process's root directory (/proc/1/root/…, /proc/self/root/…,
// /proc/$$/root/…, /proc/PID/task/TID/root/…), which is the host's, as
// is a block device reached that way. Reads of them, and other files
// reached through a process's root, keep their tier.
func TestBlindSpotPowerFilesAnyWay(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"echo b | sponge /proc/sysrq-trigger", "echo b | sponge -a /proc/sysrq-trigger", "echo mem | sponge /sys/power/state",
		"echo b | tee /proc/1/root/proc/sysrq-trigger", "echo b > /proc/1/root/proc/sysrq-trigger",
		"echo b > /proc/self/root/proc/sysrq-trigger", "echo b > /proc/$$/root/proc/sysrq-trigger",
		"echo b > /proc/1/task/1/root/proc/sysrq-trigger", "echo mem > /proc/1/root/sys/power/state",
		"echo b > /proc/self/root/proc/1/root/proc/sysrq-trigger", "echo o >> /proc/thread-self/root/proc/./sysrq-trigger",
		"echo b | dd of=/proc/self/root/proc/sysrq-trigger", "cp /tmp/b /proc/1/root/proc/sysrq-trigger",
		"python3 -c 'open(\"/proc/1/root/proc/sysrq-trigger\",\"w\").write(\"b\")'",
		"vim /proc/sysrq-trigger", "ed /proc/sysrq-trigger", "nano /sys/power/state",
		"install -m 200 /tmp/b /proc/self/root/proc/sysrq-trigger", "dd if=/dev/zero of=/proc/1/root/dev/sda",
		"echo b > /proc/*/root/proc/sysrq-trigger", "cd /proc/1/root/proc && echo b > sysrq-trigger",
		"sh -c 'echo c > /proc/self/root/proc/sysrq-trigger'", "sponge /dev/sda",
		"frobnicate -w /proc/sysrq-trigger", "frobnicate --out=/proc/1/root/sys/power/state",
	))
	runExactHosts(t, p, []exactCase{
		{"sponge a file", "echo x | sponge out.txt", TierMutate},
		{"sponge in place", "sort f | sponge f", TierMutate},
		{"sponge to stdout", "echo x | sponge", TierRead},
		{"list it", "ls -l /proc/sysrq-trigger", TierRead},
		{"stat it through a root", "stat /proc/1/root/proc/sysrq-trigger", TierRead},
		{"read the switch", "cat /proc/sys/kernel/sysrq", TierRead},
		{"list a root", "ls /proc/1/root/", TierRead},
		{"read through a root", "cat /proc/1/root/etc/os-release", TierRead},
		{"write through a root", "echo 1 > /proc/1/root/tmp/x", TierDestructive},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false, "echo x > /proc/1/root/etc/passwd"))
}

// TestBlindSpotDiskErasersAnyTool: erasing a disk, its partition table or
// a flash partition is denied whichever tool does it, as mkfs, wipefs and
// dd of=/dev/sda are; reads, dry runs and single-partition edits keep
// their tiers.
func TestBlindSpotDiskErasersAnyTool(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"sg_format --format /dev/sda", "sg_format -F /dev/sg0", "sg_format -vF /dev/sda", "sg_format --form --size=4096 /dev/sda",
		"sg_sanitize --crypto /dev/sda", "sg_sanitize -B /dev/sda", "sg_sanitize --overwrite --pattern=p /dev/sda", "sg_sanitize -Q -O /dev/sda",
		"sg_write_same --lba=0 --num=0 /dev/sda", "sg_write_same -U --lba=0 --num=0 /dev/sg1", "sg_unmap --lba=0 --num=100 /dev/sda",
		"sg_dd if=/dev/zero of=/dev/sda", "sgp_dd if=/dev/zero of=/dev/sdb", "ddpt if=/dev/zero of=/dev/sda",
		"scrub /dev/sda", "scrub -p dod /dev/nvme0n1", "wipe -f /dev/sda",
		"nwipe --autonuke", "nwipe --autonuke --method=zero", "nwipe --autopoweroff /dev/sdb",
		"badblocks -w /dev/sda", "badblocks -wsv /dev/sda", "badblocks -b 4096 -w /dev/sda",
		"sfdisk --delete /dev/sda", "sfdisk --del /dev/nvme0n1",
		"mkudffs /dev/sda", "jfs_mkfs /dev/sda", "newfs /dev/ada0p2", "newfs_msdos /dev/da0s1", "make-bcache -B /dev/sda",
		"bcachefs format /dev/sda", "ubiformat /dev/mtd0", "flash_erase /dev/mtd0 0 0", "flash_eraseall /dev/mtd0",
		"mtd erase firmware", "mtd -r erase rootfs_data", "firstboot -y", "jffs2reset -y", "ubus call rpc-sys factory",
		"nvme delete-ns /dev/nvme0 -n 1", "nvme write-zeroes /dev/nvme0n1 -s 0 -c 65535",
		"nvme dsm /dev/nvme0n1 --ad -s 0 -b 10", "nvme dsm /dev/nvme0n1 -d -s 0 -b 10",
		"parted /dev/sda mkl gpt", "parted /dev/sda -s mkla gpt", "parted /dev/sda MKLABEL gpt",
		"parted /dev/sda 'mklabel gpt'", "parted -s /dev/sda mkt msdos",
		"bcachefs format --encrypted /dev/sdb /dev/sdc", "sudo bcachefs format /dev/sdb", "bcachefs mkfs /dev/sdb",
		"gpart destroy -F da0", "diskutil eraseDisk APFS X disk2", "diskutil erasedisk APFS X disk2",
		"diskutil eraseVolume APFS X disk2s1", "diskutil zeroDisk disk2", "diskutil secureErase 0 disk2",
		"diskutil quiet eraseVolume APFS X disk2s1", "nice timeout 60 diskutil randomDisk disk2",
		"sudo sh -c 'sg_format --format /dev/sda'", "busybox sh -c 'firstboot -y && reboot'",
		"newfs /dev/ada0p1", "mkudffs /dev/sda1", "sg_unmap --lba 0 --num 1000 /dev/sda",
		"sfdisk -l --delete /dev/sda", "sfdisk --list --delete /dev/sda",
	))
	runExactHosts(t, p, []exactCase{
		{"ddpt to an image", "ddpt if=/dev/zero of=/tmp/img bs=512 count=1", TierMutate},
		{"badblocks read test", "badblocks -sv /dev/sda", TierRead},
		{"badblocks list to a file", "badblocks -o /tmp/wlist /dev/sda", TierMutate},
		{"badblocks in place", "badblocks -n /dev/sda", TierMutate},
		{"sfdisk dump", "sfdisk -d /dev/sda", TierRead},
		{"sfdisk list", "sfdisk -l", TierRead},
		{"bcachefs usage", "bcachefs fs usage /", TierRead},
		{"nvme list", "nvme list", TierRead},
		{"nvme namespace", "nvme id-ns /dev/nvme0n1", TierRead},
		{"parted print", "parted /dev/sda print", TierRead},
		{"parted list", "parted -l", TierRead},
		{"wipefs lists", "wipefs /dev/sda", TierRead},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"sg_format -F -d /dev/sda", "sg_format /dev/sg0", "sfdisk --delete /dev/sda 1", "parted /dev/sda rm 1",
		"parted /dev/sda mkpart primary 0% 100%", "nvme dsm /dev/nvme0n1 -n 1 -a 1 -s 0 -b 10",
		"mtd write /tmp/fw firmware", "nwipe",
	))
}

// TestBlindSpotBMCPowerAnyClient: a BMC or appliance asked to power the
// machine off or restart it is denied through every client, as ipmitool
// power off and racadm serveraction powerdown are: FreeIPMI, ipmiutil,
// redfishtool, ilorest, racadm's other names, Synology's synoshutdown,
// OpenWrt's rpc-sys reboot; power-on and status keep their tiers.
func TestBlindSpotBMCPowerAnyClient(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"ipmi-power --off", "ipmi-power -h bmc -u admin -p pw --off", "ipmi-power -f", "ipmi-power --cycle",
		"ipmi-power -r", "ipmi-power --soft", "ipmi-power -h bmc --of",
		"ipmi-chassis --chassis-control=POWER-DOWN", "ipmi-chassis --chassis-control hard-reset",
		"ipmiutil power -d", "ipmiutil power -r -N bmc -U admin -P pw", "ipmiutil reset -c", "ipmiutil reset -D",
		"redfishtool -r bmc -u u -p p Systems reset", "redfishtool -r bmc Systems reset ForceOff",
		"ilorest reboot", "ilorest reboot ForceOff",
		"idracadm7 serveraction powerdown", "idracadm serveraction powercycle",
		"synoshutdown -s", "synoshutdown -r", "synoshutdown -p",
		"ubus call rpc-sys reboot", "midclt call system.poweroff",
	))
	runExactHosts(t, p, []exactCase{
		{"ipmi-power status", "ipmi-power --stat", TierMutate},
		{"ipmi-power on", "ipmi-power --on", TierMutate},
		{"ipmi-chassis status", "ipmi-chassis --get-status", TierMutate},
		{"ipmiutil up", "ipmiutil power -u", TierMutate},
		{"ipmiutil health", "ipmiutil health", TierMutate},
		{"redfish on", "redfishtool -r bmc Systems reset On", TierMutate},
		{"redfish get", "redfishtool -r bmc Systems get", TierMutate},
		{"ilorest list", "ilorest list", TierMutate},
		{"racadm status", "racadm serveraction powerstatus", TierRead},
		{"rpc-sys packages", "ubus call rpc-sys packagelist", TierMutate},
		{"midclt info", "midclt call system.info", TierRead},
	})
}

// TestBlindSpotSystemTreeAnyTool: the root tree or a system directory
// removed is denied whichever tool removes it: mv with the directory as a
// source after -t, rsync --delete into it (or --remove-source-files from
// it), and find -delete or -exec rm whose tests leave everything found
// (-mindepth, -type f, -name '*', -user root, -xdev). Narrowed finds,
// other destinations and a whole system cloned onto /mnt keep their
// tiers; a dry run removes nothing.
func TestBlindSpotSystemTreeAnyTool(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"mv -t /tmp /usr", "mv --target-directory=/tmp /etc", "mv --target-directory /tmp /etc", "mv -t /tmp /var/lib",
		"mv -vt /tmp /boot", "mv -t/tmp /lib", "mv --target=/tmp /bin", "sudo mv -t /root/old /home",
		"rsync -a --delete /tmp/empty/ /", "rsync -a --delete /tmp/empty/ /usr/", "rsync -a --delete-before /tmp/empty/ /etc",
		"rsync -a --del /tmp/empty/ /", "rsync -r --delete-after /tmp/e/ /var/lib/", "rsync -aH --delete /tmp/empty/ root@db2:/",
		"rsync -a --delete --exclude x /tmp/e/ /", "rsync -a --delete --exclude=x /tmp/e/ //", "rsync -a --delete-during /tmp/e/ /boot/",
		"rsync -a --remove-source-files /usr/ /tmp/x", "rsync -a --remove-source-files /etc /tmp/x",
		"find / -mindepth 1 -delete", "find /etc -type f -delete", "find /usr -xdev -type f -delete", "find / -name '*' -delete",
		"find / -user root -delete", "find / -mindepth 1 -maxdepth 1 -exec rm -rf {} +", "find / -mindepth 1 -maxdepth 1 -exec rm -r {} \\;",
		"find /usr -type f -exec rm {} +", "find /etc -type f -exec shred -u {} \\;", "find /home -mindepth 1 -delete",
		"find /var/lib -regex '.*' -delete", "find /boot -type f -exec sudo rm -f {} +",
		"find /srv -type f -exec rm {} +", "find /srv -exec sudo rm {} +",
	))
	runExactHosts(t, p, []exactCase{
		{"mv into a dir", "mv -t /srv/old /srv/app/x", TierMutate},
		{"mv plain", "mv x y", TierMutate},
		{"mv -t many", "mv -t /tmp a b c", TierMutate},
		{"mv onto usr", "mv /tmp/a /usr", TierMutate},
		{"rsync dry run", "rsync -a --delete -n /tmp/empty/ /", TierRead},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"rsync -a --delete /tmp/empty/ /var/www/", "rsync -a --delete /srv/app/ /srv/app2/", "rsync -aAXH --delete / /mnt/",
		"rsync -aAXH --delete --exclude=/proc / /mnt/newroot/", "rsync -a --delete ./site/ web:/var/www/site/",
		"rsync -a --delete /tmp/empty/ db2:", "rsync -a --delete src/ rsync://host/module/",
		"rsync -a --remove-source-files /var/spool/x/ /tmp/y",
		"find / -type f -name core -delete", "find /var/log -name '*.gz' -mtime +30 -delete", "find /tmp -type f -delete",
		"find /var/log -type f -mtime +7 -delete", "find /etc -name '*.dpkg-old' -delete", "find / -xdev -name '*.pyc' -delete",
		"find /home -user alice -delete", "find /etc -type f -name '*.bak' -exec rm {} +", "find /srv/app -type f -delete",
	))
}

// TestBlindSpotRuntimeAndFirmware: what every program needs to start and
// what the firmware needs to boot are denied when taken away whichever
// way: the dynamic loader or the C library removed, unlinked, shredded,
// truncated or moved away; every file of a program, library, boot or
// configuration directory (or of /, whose /bin and /lib are links on
// merged systems) removed with a pattern; the EFI variables removed. A
// BMC asked over Redfish to reset the machine is denied like ipmitool
// power off. Removing one system program is tier 3, as moving it is; a
// system directory's own mode or owner is tier 3; other patterns and
// power-on requests keep their tiers.
func TestBlindSpotRuntimeAndFirmware(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"rm /lib64/ld-linux-x86-64.so.2", "rm -f /lib/x86_64-linux-gnu/libc.so.6", "unlink /lib64/ld-linux-x86-64.so.2",
		"mv /lib64/ld-linux-x86-64.so.2 /tmp/", "rm /usr/lib/x86_64-linux-gnu/libc.so.6", "rm /lib/ld-musl-x86_64.so.1",
		"shred -u /lib/x86_64-linux-gnu/libc.so.6", "truncate -s 0 /usr/lib64/ld-linux-x86-64.so.2",
		"rm /lib/x86_64-linux-gnu/libc.so.*", "rm -f /lib/aarch64-linux-gnu/ld-linux-aarch64.so.1", "mv -t /root /lib/ld-linux.so.2",
		"rm -f /usr/bin/*", "rm -f /*", "rm /etc/*", "rm -f /lib/x86_64-linux-gnu/*", "rm /boot/*", "rm -f /sbin/.*",
		"rm /sys/firmware/efi/efivars/*", "rm -rf /sys/firmware/efi/efivars/", "rm -rf /sys/firmware/efi/efivars/*",
		"chattr -i /sys/firmware/efi/efivars/*; rm /sys/firmware/efi/efivars/*",
		"curl -X POST https://bmc/redfish/v1/Systems/1/Actions/ComputerSystem.Reset -d '{\"ResetType\":\"ForceOff\"}'",
		"curl -k -u root:pw -H 'Content-Type: application/json' -d '{\"ResetType\": \"GracefulRestart\"}' https://10.0.0.5/redfish/v1/Systems/System.Embedded.1/Actions/ComputerSystem.Reset",
		"wget --post-data='{\"ResetType\":\"ForceOff\"}' https://bmc/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
		"http POST https://bmc/redfish/v1/Systems/1/Actions/ComputerSystem.Reset ResetType=ForceOff",
		"redfishtool -r bmc raw POST /redfish/v1/Systems/1/Actions/ComputerSystem.Reset '{\"ResetType\":\"PowerCycle\"}'",
	))
	runExactHosts(t, p, []exactCase{
		{"a local tool", "rm /usr/local/bin/mytool", TierMutate},
		{"old logs", "rm /var/log/*.gz", TierMutate},
		{"every log file", "rm /var/log/*", TierMutate},
		{"temporary files", "rm /tmp/*", TierMutate},
		{"one efi dump", "rm /sys/firmware/efi/efivars/dump-*", TierMutate},
		{"dpkg leftovers", "rm /etc/*.dpkg-old", TierMutate},
		{"redfish read", "curl https://bmc/redfish/v1/Systems/1", TierBenign},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"rm /bin/sh", "rm /sbin/init", "rm /usr/bin/bash", "unlink /usr/sbin/sshd", "rm /usr/lib/x86_64-linux-gnu/libfoo.so.1",
		"rm /usr/lib/python3/*", "rm /lib/modules/6.1.0/*", "chmod 000 /usr/bin", "chmod 700 /usr", "chmod 0 /lib",
		"curl -X POST https://bmc/redfish/v1/Systems/1/Actions/ComputerSystem.Reset -d '{\"ResetType\":\"On\"}'",
		"curl -d@reset.json https://bmc/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
		"curl -X POST -d \"$BODY\" https://bmc/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
		"chmod a-x /usr/bin", "chown nobody /usr", "chgrp -h staff /etc", "apk del musl", "opkg remove procd",
	))
}

// TestBlindSpotDeniedLater: a denied command written into a file root
// runs later (a cron table, rc.local, a profile script, a unit) meets the
// deny list as crontab's input and at's do, whichever writer puts it
// there (a redirection, tee or sponge fed literal text, a here-document);
// other jobs and settings written there keep tier 3.
func TestBlindSpotDeniedLater(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"echo '* * * * * root reboot' > /etc/cron.d/x", "echo '@reboot root /sbin/reboot' >> /etc/crontab",
		"printf '*/1 * * * * root /sbin/poweroff\\n' | tee /etc/cron.d/p", "echo 'reboot' >> /etc/rc.local",
		"echo 'shutdown -h now' > /etc/profile.d/x.sh", "cat > /etc/cron.d/y <<'EOF'\n* * * * * root systemctl poweroff\nEOF",
		"tee -a /etc/crontab <<< '* * * * * root echo b > /proc/sysrq-trigger'",
		"printf '[Service]\\nExecStart=/sbin/reboot\\n' > /etc/systemd/system/x.service",
		"echo 'ExecStart=/usr/bin/rm -rf /' >> /etc/systemd/system/y.service",
		"echo '* * * * * root kill -9 -1' | sponge /etc/cron.d/k", "echo 'mkfs.ext4 /dev/sda1' >> /root/.bashrc",
		"echo '*/5 * * * * pkill -f .' > /var/spool/cron/crontabs/root",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"echo '0 3 * * * root /usr/local/bin/backup.sh' > /etc/cron.d/backup",
		"echo '0 3 * * * root apt-get update' | tee /etc/cron.d/apt", "echo 'export EDITOR=vim' >> ~/.bashrc",
		"echo '[Service]' > /etc/systemd/system/x.service", "cat > /etc/cron.d/z <<'EOF'\n0 4 * * * root logrotate /etc/logrotate.conf\nEOF",
	))
}

// TestBlindSpotKillPipedIds: ids of init or of every process handed to
// kill through a pipe (xargs kill, a while read loop) or a substitution
// are denied like kill -1, read from the program that lists them (pgrep's
// pattern, pidof's names, ps -e/-A/ax with no narrowing option) through
// stages that pass every line on; a list filtered by grep, awk's pattern
// or a narrowed ps keeps its tier.
func TestBlindSpotKillPipedIds(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"pgrep -f . | xargs kill -9", "pgrep . | xargs -r kill", "ps -eo pid | xargs kill -9", "ps -e -o pid= | xargs sudo kill -9",
		"ps ax -o pid= | xargs kill", "pidof systemd | xargs kill -INT", "pgrep -f . | while read p; do kill -9 $p; done",
		"kill -9 $(ps -eo pid=)", "kill -9 $(ps -A -o pid=)", "kill $(ps ax -o pid=)",
		"ps aux | awk '{print $2}' | xargs kill -9", "ps -e | tail -n +2 | awk '{ print $1 }' | xargs kill",
		"pgrep -v nginx | xargs /bin/kill", "ps -A | cut -c1-5 | sort -n | xargs kill -KILL",
	))
	runExactHosts(t, p, []exactCase{
		{"pgrep a service", "pgrep nginx | xargs kill", TierMutate},
		{"pgrep a user's", "pgrep -u www-data . | xargs kill", TierMutate},
		{"ps a command", "ps -C nginx -o pid= | xargs kill", TierMutate},
		{"grep filtered", "ps -eo pid,cmd | grep nginx | awk '{print $1}' | xargs kill", TierMutate},
		{"ps aux grep", "ps aux | grep nginx | awk '{print $2}' | xargs kill -9", TierMutate},
		{"awk pattern", "ps aux | awk '/nginx/ {print $2}' | xargs kill", TierMutate},
		{"ps a command subst", "kill $(ps -C nginx -o pid=)", TierMutate},
		{"listed only", "pgrep -f . | xargs echo", TierRead},
		{"ps -ef", "ps -ef", TierRead},
	})
}

// TestBlindSpotOtherSystemsDisks: the disks of the BSD, macOS and
// appliance hosts warden serves (FreeBSD's and TrueNAS CORE's ada, da,
// nvd, vtbd; OpenBSD's wd and sd; macOS's disk and rdisk; Synology's
// synoboot) are block devices to the deny list as Linux's are, for every
// writer; reading them and naming them to a read keep their tiers.
func TestBlindSpotOtherSystemsDisks(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"dd if=/dev/zero of=/dev/ada0", "dd if=/dev/zero of=/dev/da0", "dd if=/dev/zero of=/dev/nvd0", "dd if=/dev/zero of=/dev/nda1",
		"dd if=/dev/zero of=/dev/vtbd0", "dd if=/dev/zero of=/dev/mfid0", "dd if=/dev/zero of=/dev/rdisk2", "dd if=/dev/zero of=/dev/disk2",
		"dd if=/dev/zero of=/dev/synoboot", "dd if=/dev/zero of=/dev/wd0c", "dd if=/dev/zero of=/dev/rsd0c", "dd if=/dev/zero of=/dev/zram0",
		"cat /dev/zero > /dev/ada0", "shred -n 1 /dev/ada0", "blkdiscard /dev/ada0", "wipefs -a /dev/da0",
		"cp /dev/zero /dev/ada0p2", "dd if=/dev/zero of=/dev/ada*", "echo x | sponge /dev/nvd0",
	))
	runExactHosts(t, p, []exactCase{
		{"read a bsd disk", "dd if=/dev/ada0 of=/dev/null bs=1M count=10", TierRead},
		{"list", "ls -l /dev/ada0 /dev/da0", TierRead},
	})
}

// TestBlindSpotInterpreterForkBombs: a fork bomb written in an
// interpreter's payload (a loop that never ends and forks on every pass)
// is denied as the shell's :(){ :|:& };: is, in perl, python, ruby and
// node spellings and in a script; a bounded fork or one that waits keeps
// the payload's tier.
func TestBlindSpotInterpreterForkBombs(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"perl -e 'fork while 1'", "perl -e 'fork while fork'", "perl -e 'fork() while (1)'", "perl -e 'while(1){fork}'",
		"perl -e 'for(;;){fork}'", "python3 -c 'import os; while True: os.fork()'", "python3 -c \"import os\nwhile True:\n    os.fork()\"",
		"ruby -e 'loop { fork }'", "ruby -e 'loop do fork end'", "ruby -e 'fork while true'", "perl -e 'fork until 0'",
		"node -e 'for(;;){require(\"child_process\").fork(__filename)}'", "sudo perl -e 'POSIX::fork while 1'",
		"echo 'fork while 1' | perl", "perl <<< 'while (1) { fork; }'",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"perl -e 'my $pid = fork(); if ($pid == 0) { exec \"ls\" } waitpid($pid,0)'",
		"python3 -c 'import os; pid = os.fork(); print(pid)'",
		"perl -e 'for my $i (1..4) { fork or do { work(); exit } } wait for 1..4'",
		"ruby -e '3.times { fork { puts 1 } }; Process.waitall'",
	))
}

// TestBlindSpotKillEveryOtherWay: every process killed through the other
// tools that pick processes (fuser -k of / or, with -m, a system file
// system; skill naming init; lsof / handed to kill), a privileged or
// host-pid container running a denied command, and the sleep switch
// /sys/power/autosleep are denied; fuser -k of one file or mount keeps
// tier 2, of the SSH port tier 3.
func TestBlindSpotKillEveryOtherWay(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"fuser -k /", "fuser -km /", "fuser -k -m /", "fuser -kmv /usr", "fuser -k -9 -m /", "fuser --kill --mount //",
		"sudo fuser -k -SIGKILL /", "lsof -t / | xargs kill -9", "kill -9 $(lsof -t /)",
		"skill -KILL systemd", "skill -9 init", "skill -KILL -c systemd", "skill -p 1",
		"echo mem > /sys/power/autosleep", "echo mem | tee /sys/power/autosleep", "echo mem > /proc/1/root/sys/power/autosleep",
		"cd /sys/power && echo mem > autosleep",
		"docker run --privileged --pid=host alpine reboot", "docker run --rm --privileged --pid=host alpine nsenter -t 1 -m -u -n -i reboot",
		"docker run --rm --privileged --pid=host alpine kill -9 -1", "podman run --pid=host --privileged fedora systemctl poweroff",
	))
	runExactHosts(t, p, []exactCase{
		{"fuser one file", "fuser -k /mnt/usb/file", TierMutate},
		{"fuser a usb mount", "fuser -km /mnt/usb", TierMutate},
		{"fuser lists", "fuser -vm /", TierRead},
		{"fuser ssh", "fuser -k 22/tcp", TierDestructive},
		{"fuser a port", "fuser -k 8080/tcp", TierMutate},
	})
}

// TestBlindSpotPartitionKeystrokes: a new empty partition table typed into
// fdisk or gdisk from known input (o or g, then w; gdisk's expert zap x,
// z) is denied as parted mklabel and sgdisk --zap-all are, and mtools'
// mformat onto a disk as mkfs.vfat is; other edits keep tier 3 and
// mformat onto an image file keeps its tier.
func TestBlindSpotPartitionKeystrokes(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"printf 'o\\nw\\n' | fdisk /dev/sda", "printf 'g\\nw\\n' | fdisk /dev/nvme0n1", "echo -e \"o\\nn\\np\\n1\\n\\n\\nw\" | fdisk /dev/sdb",
		"printf 'o\\ny\\nw\\ny\\n' | gdisk /dev/sda", "printf 'x\\nz\\ny\\ny\\n' | gdisk /dev/sda", "fdisk /dev/sda <<< $'o\\nw'",
		"fdisk /dev/sda <<'EOF'\ng\nw\nEOF", "sudo fdisk -w always /dev/sdb <<< $'o\\nw'",
		"mformat -i /dev/sdb ::", "mformat -i/dev/sdc1 -F ::",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"printf 'n\\np\\n1\\n\\n\\nw\\n' | fdisk /dev/sdb", "printf 'p\\nq\\n' | fdisk /dev/sda", "printf 'd\\n1\\nw\\n' | fdisk /dev/sda",
	))
	runExactHosts(t, p, []exactCase{
		{"fdisk list", "fdisk -l /dev/sda", TierRead},
	})
}

// TestBlindSpotRootAccountAnyWay: the root account taken away is denied
// whichever tool does it, as userdel root is: libuser's luserdel,
// FreeBSD's pw userdel root, and renaming root or giving it another uid
// (usermod -l/-u, pw usermod -l/-u), after which no account is the
// superuser by name or by id. Other changes to root, and renames of other
// accounts, keep their tiers.
func TestBlindSpotRootAccountAnyWay(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"luserdel root", "pw userdel root", "pw userdel -n root -r", "usermod -l toor root", "usermod --login=toor root",
		"usermod -ltoor root", "usermod -u 1000 -o root", "usermod --uid 1000 --non-unique root", "sudo usermod --log toor root",
		"pw usermod root -l toor", "pw usermod -n root -u 1001",
	))
	runExactHosts(t, p, []exactCase{
		{"root's shell", "usermod -s /bin/bash root", TierMutate},
		{"rename another", "usermod -l bob alice", TierMutate},
		{"pw shell", "pw usermod root -s /bin/sh", TierMutate},
	})
}

// TestBlindSpotFleetPower: what ssh HOST reboot is denied for is denied
// through the tools that run a command on many hosts (pdsh, clush, pssh,
// parallel-ssh, dsh, salt's cmd.run) and through their own power
// functions (salt's system.reboot, ansible's reboot and shutdown modules
// in every spelling argparse takes), including inside an interpreter's
// payload; their other commands keep their tiers.
func TestBlindSpotFleetPower(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"ansible all -m reboot", "ansible all -m ansible.builtin.reboot -b", "ansible web --module-name=shutdown",
		"ansible all -mreboot", "ansible all --mod reboot", "salt '*' system.reboot", "salt -G 'os:Debian' system.poweroff",
		"salt '*' cmd.run 'reboot'", "salt '*' cmd.run 'kill -9 -1'", "salt-ssh '*' system.halt",
		"pdsh -w db[1-9] reboot", "pdsh -w db[1-9] 'sudo reboot'", "clush -a reboot", "clush -w node[1-4] -b 'systemctl poweroff'",
		"parallel-ssh -h hosts reboot", "pssh -h hosts -i 'rm -rf /'", "dsh -a -- reboot",
		"python3 -c 'import os; os.system(\"ansible all -m reboot\")'",
	))
	runExactHosts(t, p, []exactCase{
		{"ansible ping", "ansible all -m ping", TierBenign},
	})
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"salt '*' test.ping", "salt '*' cmd.run 'uptime'", "pdsh -w db[1-9] uptime", "clush -a uptime", "pssh -h hosts -i 'df -h'",
	))
}

// TestBlindSpotCutOffSpellings: two tier-3 cut-offs in spellings that
// fell to tier 2: a read-only remount of / with -r in a cluster or as
// its own option (mount -ro remount /, -r -o remount, --read-only), and
// sshd killed by ids looked up at run time (kill $(pidof sshd)). They
// stay approvable; a remount read-write and other services keep tier 2.
func TestBlindSpotCutOffSpellings(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"mount -ro remount /", "mount -r -o remount /", "mount -o remount -r /", "mount --read-only -o remount /",
		"mount -t ext4 -o ro,remount /dev/sda1 /", "sudo mount -rvo remount /usr",
		"kill -9 `pidof sshd`", "kill $(pidof sshd)", "kill -9 $(pgrep dropbear)", "kill -TERM $(pidof systemd-journald)",
	))
	runExactHosts(t, p, []exactCase{
		{"remount rw", "mount -o remount,rw /", TierMutate},
		{"remount w cluster", "mount -wo remount /", TierMutate},
		{"ro usb", "mount -r /dev/sdb1 /mnt/usb", TierMutate},
		{"kill nginx", "kill $(pidof nginx)", TierMutate},
	})
}

// TestBlindSpotFindExecEveryFile: find running a per-file command on
// every file under a system directory (no test narrows what is found) is
// the command run recursively there: chmod, chown, chgrp, chattr and
// setfacl meet their -R denials, truncate emptying every program,
// library or configuration file is denied; and fallocate punching or
// zeroing a block device is denied as blkdiscard is. Narrowed finds,
// other directories, logs emptied and fallocate on files keep their tiers.
func TestBlindSpotFindExecEveryFile(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"find / -type f -exec chmod 000 {} +", "find /usr -exec chown nobody {} +", "find /etc -type f -exec chmod 777 {} \\;",
		"find / -mindepth 1 -exec chmod -R 000 {} +", "find /usr/bin -type f -exec truncate -s 0 {} +",
		"find /etc -type f -exec sudo truncate --size=0 {} \\;", "find /lib -xdev -exec chgrp -h nogroup {} +",
		"find /usr -type f -exec setfacl -m u:nobody:--- {} +", "find /boot -type f -exec chattr +i {} \\;",
		"fallocate -p -o 0 -l 1G /dev/sda", "fallocate --zero-range -l 1G /dev/nvme0n1", "fallocate -z -l 100M /dev/sda",
		"fallocate -d /dev/sda", "sudo fallocate --punch-hole --offset 0 --length 1G /dev/mapper/vg-root",
	))
	runExactHosts(t, p, []exactCase{
		{"an app's files", "find /srv/app -type f -exec chmod 644 {} +", TierMutate},
		{"a file", "fallocate -l 1G /tmp/swapfile", TierMutate},
		{"punch a file", "fallocate -p -o 0 -l 1M /srv/data/f", TierMutate},
		{"empty the logs", "find /var/log -type f -exec truncate -s 0 {} +", TierMutate},
		{"narrowed", "find /etc -name '*.conf' -exec chmod 644 {} +", TierMutate},
	})
}

// TestBlindSpotNoPreserveRootAbbreviated: rm takes --no-preserve-root by
// any unique prefix, and each is denied as the full spelling is, whatever
// the path.
func TestBlindSpotNoPreserveRootAbbreviated(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"rm -rf --no-preserve $X", "rm -rf --no-pres \"$DIR\"", "rm --no-p -r -f $T", "sudo rm -rf --no-preserve-roo $1",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false, "rm -rf --preserve-root $X"))
}

// TestBlindSpotInterpreterAPIs: the deny list's outcomes reached through
// an interpreter's library instead of a program — a system tree removed
// (shutil.rmtree, perl's rmtree, FileUtils.rm_rf, fs.rmSync), PID 1 or
// every process signalled (os.kill(-1, 9), perl's kill 9, -1,
// Process.kill, process.kill), a block device opened for writing, libc's
// reboot called through ctypes — are denied in payloads; the same calls on
// other paths, pids and modes keep the payload's tier 3.
func TestBlindSpotInterpreterAPIs(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"python3 -c 'open(\"/dev/sda\",\"wb\").write(b\"\\0\"*1048576)'", "python3 -c \"f=open('/dev/nvme0n1','r+b'); f.write(bytes(4096))\"",
		"python3 -c 'import os; fd=os.open(\"/dev/sda\", os.O_WRONLY); os.write(fd, b\"x\"*512)'",
		"perl -e 'open F, \"+</dev/sda\"; print F \"x\"'", "ruby -e 'File.open(\"/dev/sda\",\"wb\"){|f| f.write(\"\\0\"*512)}'",
		"node -e 'require(\"fs\").writeFileSync(\"/dev/sda\", Buffer.alloc(512))'",
		"python3 -c 'import ctypes; ctypes.CDLL(None).reboot(0x4321fedc)'", "python3 -c 'import ctypes; libc = ctypes.CDLL(\"libc.so.6\"); libc.reboot(0xcdef0123)'",
		"python3 -c 'import os; os.kill(1, 9)'", "python3 -c 'import os; os.kill(-1, 9)'", "perl -e 'kill 9, -1'", "perl -e 'kill \"KILL\", -1'",
		"python3 -c 'import os,signal; os.kill(-1, signal.SIGKILL)'", "perl -e 'kill(\"TERM\", 1)'", "ruby -e 'Process.kill(:KILL, -1)'",
		"node -e 'process.kill(-1, \"SIGKILL\")'",
		"python3 -c 'import shutil; shutil.rmtree(\"/\")'", "python3 -c 'import shutil; shutil.rmtree(\"/usr\")'",
		"perl -MFile::Path -e 'rmtree(\"/etc\")'", "ruby -e 'require \"fileutils\"; FileUtils.rm_rf(\"/\")'",
		"node -e 'require(\"fs\").rmSync(\"/\", {recursive: true, force: true})'", "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('/var/lib')\nEOF",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"python3 -c 'print(open(\"/dev/sda\",\"rb\").read(512))'", "python3 -c 'import shutil; shutil.rmtree(\"/srv/app/cache\")'",
		"python3 -c 'import os; os.kill(1234, 9)'", "perl -e 'kill 9, $pid'", "python3 -c 'import os; os.kill(15, 1)'",
		"ruby -e 'Process.kill(\"HUP\", 1234)'", "node -e 'process.kill(process.pid)'", "python3 -c 'f=open(\"/dev/null\",\"w\")'",
		"python3 -c 'open(\"/tmp/x\",\"w\").write(\"1\")'",
	))
}

// TestBlindSpotApplianceHostPower: the appliances' own ways of powering
// the host off are denied as reboot is: a Proxmox node's reboot or
// shutdown through pvesh, TrueNAS SCALE's cli -c 'system reboot'; and
// Synology's synosystemctl stop sshd is tier 3 as systemctl stop sshd is.
// Guests' power, other node commands and other services keep their tiers.
func TestBlindSpotApplianceHostPower(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"pvesh create /nodes/pve1/status -command reboot", "pvesh create /nodes/localhost/status --command shutdown",
		"pvesh create /nodes/pve1/status --command=reboot", "sudo pvesh create nodes/pve1/status -command shutdown",
		"pvesh create /nodes/pve/status --command reboot",
		"cli -c 'system reboot'", "cli -m csv -c \"system shutdown\"", "cli --command 'system poweroff'",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"pvesh create /nodes/pve1/qemu/100/status/reboot", "pvesh create /nodes/pve1/status -command wakeonlan",
		"synosystemctl stop sshd", "synosystemctl disable sshd",
	))
	runExactHosts(t, p, []exactCase{
		{"pvesh get", "pvesh get /nodes/pve1/status", TierRead},
		{"cli info", "cli -c 'system info'", TierMutate},
		{"stop nginx", "synosystemctl stop nginx", TierMutate},
		{"restart sshd", "synosystemctl restart sshd", TierMutate},
	})
}

// TestBlindSpotPowerNoops: the power programs' forms that leave the power
// state alone are not denied — over-blocking them stops an operator
// cancelling a pending shutdown: shutdown -c (when the cancel is the last
// action given), --show; reboot, poweroff and
// halt -w (the wtmp record only); kexec -l, -p, -u and -S without -e
// (kdump's setup loads a kernel without booting it); help. Every form
// that still changes the power state stays denied, and so does shutdown
// -k, a kexec reboot to dinit's shutdown.
func TestBlindSpotPowerNoops(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"shutdown -c", "shutdown --cancel", "shutdown --show", "shutdown --help",
		"shutdown -r now -c", "reboot -w", "reboot --wtmp-only", "poweroff -w", "halt --wtmp-only", "reboot --help",
		"kexec -l /tmp/vmlinuz --reuse-cmdline", "kexec -u", "kexec -S", "kexec --help", "sudo shutdown -c",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"shutdown -h now", "shutdown -r +5", "shutdown now", "shutdown -P now", "shutdown -c -r now", "shutdown --cancel --reboot now",
		"reboot -f", "reboot", "poweroff -f", "kexec -e", "kexec -l /boot/vmlinuz -e", "kexec /boot/vmlinuz",
		"kexec --load /tmp/vmlinuz && kexec --exec", "sudo shutdown -rc now -r", "shutdown -k now", "shutdown -k -r now",
	))
}

// TestBlindSpotPipedTreeRemoval: a system directory's entries listed (ls
// /usr, find / with no narrowing test) and handed to xargs rm are removed
// as rm -rf /usr would remove them, and are denied; a narrowed find, other
// directories and a listing handed to a reader keep their tiers.
func TestBlindSpotPipedTreeRemoval(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"ls / | xargs rm -rf", "ls /usr | xargs sudo rm -r", "ls -A /etc | xargs rm -rf", "find / -print0 | xargs -0 rm -rf",
		"find /usr -type f | xargs rm -f", "find /etc -mindepth 1 -print | xargs rm", "find / | sort | xargs rm -rf",
		"ls /var/lib | xargs -n1 rm -rf", "find -L /boot | xargs rm", "find /srv | xargs -n1 sudo rm",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"ls /tmp | xargs rm -rf", "find /srv/app -name '*.pyc' | xargs rm", "find / -name core -type f | xargs rm -f",
		"find /var/log -mtime +30 -print0 | xargs -0 rm -f",
	))
	runExactHosts(t, p, []exactCase{
		{"find to grep", "find /etc/nginx -name '*.conf' | xargs grep -l server_name", TierRead},
	})
}

// TestBlindSpotBMCBootAndReset: the BMC told to boot the machine from
// another device next (a PXE installer may wipe its disks) or reset
// itself is tier 3, as efibootmgr is, in ipmitool's prefix spellings;
// the chassis identify light and reads keep their tiers.
func TestBlindSpotBMCBootAndReset(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"ipmitool chassis bootdev pxe options=persistent", "ipmitool -I lanplus -H bmc -U u -P p chassis bootdev pxe",
		"ipmitool chass bootd disk", "ipmitool mc reset cold", "ipmitool mc reset warm",
	))
	runExactHosts(t, p, []exactCase{
		{"identify", "ipmitool chassis identify 10", TierMutate},
		{"status", "ipmitool chassis status", TierRead},
	})
}

// TestBlindSpotContainerHostRoot: a container given the host's root or a
// system directory runs its command on the host's files, so the command
// is read with the mount's target named by its source (-v /:/host rm -rf
// /host is rm -rf /) on every host, as the privileged container's is;
// other binds and reads keep their tiers.
func TestBlindSpotContainerHostRoot(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"docker run --rm -v /:/host alpine rm -rf /host", "docker run --rm -v /:/host alpine sh -c 'rm -rf /host/*'",
		"docker run --rm -v /usr:/u alpine rm -rf /u", "docker run --rm --mount type=bind,source=/,target=/h alpine rm -rf /h/etc",
		"docker run --rm -v /:/host alpine chroot /host reboot", "docker run --rm -v /dev:/dev alpine dd if=/dev/zero of=/dev/sda",
		"podman run --rm -v /etc:/mnt/etc fedora rm -rf /mnt/etc", "docker run -v /:/h alpine shred /h/dev/sda",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"docker run --rm -v /var/log:/logs alpine ls /logs", "docker run --rm -v /etc:/e:ro alpine cat /e/os-release",
	))
	runExactHosts(t, p, []exactCase{
		{"an app's data", "docker run --rm -v /srv/data:/data alpine rm -rf /data", TierMutate},
	})
}

// TestBlindSpotPipedTreeChange: a system directory's entries handed to
// xargs chmod, chown, chgrp, chattr or setfacl are changed as the
// command's -R would change them there, and meet that denial; narrowed
// finds and other directories keep their tiers.
func TestBlindSpotPipedTreeChange(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"find /usr | xargs chmod 000", "find / -type f -print0 | xargs -0 chown nobody", "ls / | xargs chmod -R 000",
		"ls /etc | xargs chattr +i", "find /boot | sort | xargs sudo chgrp -h nogroup", "find /usr -mindepth 1 | xargs setfacl -m u:nobody:---",
	))
	runExactHosts(t, p, []exactCase{
		{"an app", "find /srv/app -type f | xargs chmod 644", TierMutate},
		{"tmp", "ls /tmp | xargs chmod 777", TierMutate},
		{"www", "find /var/www -type f | xargs chown www-data", TierMutate},
	})
}

// TestKillZeroAsksOnly: signal 0 sends nothing; kill -0 1 only asks
// whether PID 1 exists and keeps tier 0. A signal option beside it (kill
// -0 -9 1, -0 -s KILL) or a negative id keeps the denial.
func TestKillZeroAsksOnly(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"dash zero", `kill -0 1`, TierRead},
		{"-s 0", `kill -s 0 1`, TierRead},
		{"other process", `kill -0 1 1234`, TierRead},
		{"after --", `kill -0 -- 1`, TierRead},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`kill -0 -9 1`,
		`kill -0 -s 9 1`,
		`kill -s 0 -KILL 1`,
		`kill -0 -- -1`,
		`kill -9 1`,
	))
}
