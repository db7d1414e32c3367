package policy

import "testing"

// TestBlindSpotArchiveOutputs: the files compressors and archivers write
// that are not their operands as written (zstd -o even after -c, lz4's
// output operand, a decompressor's name less the suffix, the archive 7z,
// rar, zip and ar rewrite, pv -o) are checked as writes, so a device is
// denied and a sensitive file is tier 3; members extracted into a system
// directory, a home or its .ssh are tier 3. Listing, testing and
// decompressing to standard output stay tier 0.
func TestBlindSpotArchiveOutputs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"zstd -dco device", "zstd -dco /dev/sda x.zst", TierDestructive, true},
		{"zstd -c -o device", "zstd -d -c x.zst -o /dev/sdb", TierDestructive, true},
		{"zstd -o attached", "zstd -d x.zst -o/dev/sda", TierDestructive, true},
		{"unzstd -o", "unzstd x.zst -o /dev/nvme0n1", TierDestructive, true},
		{"zstd -o sensitive", "zstd -d x.zst -o /etc/sudoers", TierDestructive, false},
		{"zstd --output-dir-mirror", "zstd -d x.zst --output-dir-mirror /etc", TierDestructive, false},
		{"lz4 output operand", "lz4 -d x.lz4 /dev/sda", TierDestructive, true},
		{"lz4 -df output", "lz4 -df x.lz4 /dev/vda", TierDestructive, true},
		{"lz4 compress output", "lz4 x /dev/sda", TierDestructive, true},
		{"unlz4 output", "unlz4 x.lz4 /dev/sda", TierDestructive, true},
		{"lz4 sensitive", "lz4 -d x.lz4 /root/.ssh/authorized_keys", TierDestructive, false},
		{"brotli -o", "brotli -d x.br -o /etc/sudoers", TierDestructive, false},
		{"brotli --output=", "brotli -d x.br --output=/dev/sda", TierDestructive, true},
		{"bunzip2 suffix", "bzip2 -d /etc/shadow.bz2", TierDestructive, false},
		{"gunzip suffix", "gunzip /etc/sudoers.gz", TierDestructive, false},
		{"unxz suffix", "unxz -f /root/.ssh/authorized_keys.xz", TierDestructive, false},
		{"zstd -d suffix", "zstd -d --force /etc/crontab.zst", TierDestructive, false},
		{"gunzip -N", "gunzip -N /etc/cron.d/x.gz", TierDestructive, false},
		{"gunzip -N system dir", "gunzip -N /etc/x.gz", TierDestructive, false},
		{"7z -o system dir", "7z x a.7z -o/etc", TierDestructive, false},
		{"7z -o ssh", "7z x a.7z -o/root/.ssh", TierDestructive, false},
		{"7z -o device", "7z e a.7z -o/dev/sda", TierDestructive, true},
		{"7z a device", "7z a /dev/sda f", TierDestructive, true},
		{"7za u sensitive", "7za u /etc/sudoers f", TierDestructive, false},
		{"rar a device", "rar a /dev/sda f", TierDestructive, true},
		{"unrar x dest", "unrar x a.rar /etc/", TierDestructive, false},
		{"unrar e ssh", "unrar e a.rar /root/.ssh/", TierDestructive, false},
		{"unrar -op", "unrar x -op/etc/cron.d a.rar", TierDestructive, false},
		{"zip device", "zip /dev/sda f", TierDestructive, true},
		{"zip -r device", "zip -qr /dev/sdb d", TierDestructive, true},
		{"pv -o device", "pv x -o /dev/sda", TierDestructive, true},
		{"pv --output sensitive", "pv --output /etc/sudoers x", TierDestructive, false},
		{"ar r device", "ar r /dev/sda x.o", TierDestructive, true},
		{"ar rcs sensitive", "ar rcs /etc/ld.so.preload x.o", TierDestructive, false},
		{"ar rb relpos", "ar rb x.o /dev/sda y.o", TierDestructive, true},
		{"ar --plugin", "ar --plugin /tmp/x.so t lib.a", TierDestructive, false},
		{"ar @file", "ar @/tmp/opts", TierDestructive, false},
		{"ar x --output", "ar x --output=/etc lib.a", TierDestructive, false},
		{"ar x", "ar x lib.a", TierMutate, false},
		{"tar -C ssh", "tar -xf x.tar -C /root/.ssh", TierDestructive, false},
		{"tar -C ~/.ssh", "tar -xf x.tar -C ~/.ssh", TierDestructive, false},
		{"tar --directory home", "tar -xzf x.tgz --directory=/home/bob", TierDestructive, false},
		{"tar -C .config", "tar xf x.tar -C /home/bob/.config", TierDestructive, false},
		{"unzip -d ssh", "unzip -d /root/.ssh x.zip", TierDestructive, false},
		{"unzip -d home", "unzip -o x.zip -d /home/alice", TierDestructive, false},
		{"unzip -d device", "unzip x.zip -d /proc/sys/kernel", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"zstd -dc", "zstd -dc x.zst", TierRead},
		{"zstd -l", "zstd -l x.zst", TierRead},
		{"zstd -t", "zstd -t x.zst", TierRead},
		{"zstd -o -", "zstd -dc x.zst -o -", TierRead},
		{"gunzip -c", "gunzip -c x.gz", TierRead},
		{"gzip -dc", "gzip -dc x.gz", TierRead},
		{"gunzip -t", "gunzip -t x.gz", TierRead},
		{"bunzip2 -c", "bunzip2 -c x.bz2", TierRead},
		{"xz -dc", "xz -dc x.xz", TierRead},
		{"lz4 -dc", "lz4 -dc x.lz4", TierRead},
		{"brotli -dc", "brotli -dc x.br", TierRead},
		{"pigz -dc", "pigz -dc x.gz", TierRead},
		{"unzip -l", "unzip -l x.zip", TierRead},
		{"7z l", "7z l a.7z", TierRead},
		{"7z t", "7z t a.7z", TierRead},
		{"unrar l", "unrar l a.rar", TierRead},
		{"ar t", "ar t lib.a", TierRead},
		{"ar tv", "ar tv lib.a", TierRead},
		{"ar -t", "ar -t lib.a", TierRead},
		{"ar p", "ar p lib.a x.o", TierRead},
		{"ar --version", "ar --version", TierRead},
		{"zcat", "zcat x.gz", TierRead},
		{"tar -t", "tar -tzf x.tgz", TierRead},
		{"gzip", "gzip x.log", TierMutate},
		{"gunzip", "gunzip x.gz", TierMutate},
		{"unzip -d here", "unzip -d out x.zip", TierMutate},
		{"tar -C tmp", "tar -xf x.tar -C /tmp/o", TierMutate},
		{"tar -C project", "tar -xf x.tar -C /home/bob/src", TierMutate},
		{"7z x -o", "7z x a.7z -oout", TierMutate},
		{"unrar x dir", "unrar x a.rar out/", TierMutate},
		{"ar rcs", "ar rcs lib.a x.o", TierMutate},
		{"lz4 -d out", "lz4 -d x.lz4 out", TierMutate},
		{"zip -r", "zip -r x.zip d", TierMutate},
		{"pv reads its file to its output", "pv x", TierRead},
	})
}

// TestBlindSpotIPMIPower: ipmitool reads its words by prefix, so every
// spelling of a power verb (down, offline, diag, acpi, powerx off) is
// denied like power off, and so is the raw chassis control request with a
// power-changing byte in any number base; other raw requests, I2C,
// commands from a file or input and firmware upgrades are tier 3; the
// BMC's readings stay tier 0.
func TestBlindSpotIPMIPower(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"power down", "ipmitool chassis power down", TierDestructive, true},
		{"top-level power down", "ipmitool power down", TierDestructive, true},
		{"power offline", "ipmitool chassis power offline", TierDestructive, true},
		{"power diag", "ipmitool chassis power diag", TierDestructive, true},
		{"power acpi", "ipmitool chassis power acpi", TierDestructive, true},
		{"power Soft", "ipmitool chassis power Soft", TierDestructive, true},
		{"powerx off", "ipmitool chassis powerx off", TierDestructive, true},
		{"remote power cycle", "ipmitool -I lanplus -H bmc -U u -P p power cycle", TierDestructive, true},
		{"raw power down", "ipmitool raw 0x00 0x02 0x00", TierDestructive, true},
		{"raw decimal reset", "ipmitool raw 0 2 3", TierDestructive, true},
		{"raw octal cycle", "ipmitool raw 00 02 02", TierDestructive, true},
		{"raw soft", "ipmitool -H bmc raw 0x0 0x2 0x05", TierDestructive, true},
		{"raw diag", "ipmitool raw 0x00 0x02 0x04", TierDestructive, true},
		{"raw other", "ipmitool raw 0x30 0x70 0x66 0x01 0x00 0x64", TierDestructive, false},
		{"raw power up", "ipmitool raw 0x00 0x02 0x01", TierDestructive, false},
		{"i2c", "ipmitool i2c bus=0 0x50 0x10", TierDestructive, false},
		{"exec", "ipmitool exec /tmp/cmds", TierDestructive, false},
		{"shell", "ipmitool shell", TierDestructive, false},
		{"hpm upgrade", "ipmitool hpm upgrade fw.img", TierDestructive, false},
		{"fru write", "ipmitool fru write 0 x.bin", TierDestructive, false},
		{"power on", "ipmitool chassis power on", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"power status", "ipmitool chassis power status", TierRead},
		{"top-level power status", "ipmitool power status", TierRead},
		{"sdr list", "ipmitool sdr list", TierRead},
		{"sel list", "ipmitool sel list", TierRead},
		{"fru print", "ipmitool fru print", TierRead},
		{"dcmi power reading", "ipmitool dcmi power reading", TierRead},
		{"lan print", "ipmitool lan print 1", TierRead},
	})
}

// TestBlindSpotPagerAbbrev: programs whose parsers take a prefix of a long
// option (ag, ack, the MySQL and MariaDB clients) run the pager --pag or
// --page names, and mysql's --te, --plugin-d and --default-a are --tee,
// --plugin-dir and --default-auth: the pager is classified and the others
// are tier 3. Other options stay as they were.
func TestBlindSpotPagerAbbrev(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"ag --pag=", "ag --pag=reboot x", TierDestructive, true},
		{"ag --page next word", "ag --page reboot x", TierDestructive, true},
		{"ag --pag writes", "ag --pag='touch /etc/x' x", TierMutate, false},
		{"ack --pag=", "ack --pag=reboot x", TierDestructive, true},
		{"ack-grep --page=", "ack-grep --page='rm -rf /' x", TierDestructive, true},
		{"mysql --pag=", "mysql --pag=reboot", TierDestructive, true},
		{"mariadb --page", "mariadb --page 'sh -c id'", TierDestructive, false},
		{"mysql --te=", "mysql --te=/tmp/x -e 'select 1'", TierDestructive, false},
		{"mariadb --plugin-d=", "mariadb --plugin-d=/tmp -e 'select 1'", TierDestructive, false},
		{"mysql --default-a=", "mysql --default-a=x -e 'select 1'", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"ag", "ag pattern src", TierRead},
		{"ag --passthrough", "ag --passthrough x", TierRead},
		{"ack", "ack pattern", TierRead},
		{"mysql --table", "mysql --table -e 'select 1'", TierMutate},
		{"mysql --password", "mysql --password=x -e 'select 1'", TierMutate},
	})
}

// TestBlindSpotSetuidExtractors: pax -r with -p e/-p p and unsquashfs
// (which always restores modes) extract setuid files, tier 3 as cpio -i
// is; pax -w's archive is checked as a write; listing stays tier 0.
func TestBlindSpotSetuidExtractors(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"pax -r -p e", "pax -r -p e < x.pax", TierDestructive, false},
		{"pax -rpe", "pax -rpe -f x.pax", TierDestructive, false},
		{"pax -r -pp", "pax -r -pp -f x.pax", TierDestructive, false},
		{"pax -wf device", "pax -wf /dev/sda .", TierDestructive, true},
		{"pax -rw system dir", "pax -rw src /etc", TierDestructive, false},
		{"pax -r", "pax -r < x.pax", TierMutate, false},
		{"unsquashfs", "unsquashfs x.sqsh", TierDestructive, false},
		{"unsquashfs -d", "unsquashfs -d /tmp/out x.sqsh", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"pax list", "pax -v -f x.pax", TierRead},
		{"pax stdin list", "pax < x.pax", TierRead},
		{"unsquashfs -l", "unsquashfs -l x.sqsh", TierRead},
		{"unsquashfs -stat", "unsquashfs -stat x.sqsh", TierRead},
	})
}

// TestBlindSpotDumpOutputs: database and cluster dumps write where their
// options say (pg_dump -f, mysqldump -r, mongodump --archive, mongoexport
// --out, etcdctl and consul snapshot save), checked as writes, and into
// the directories pg_basebackup -D, mysqldump --tab and mongodump --out
// name, checked as extraction directories; pg_dump's server meets the
// host rules.
func TestBlindSpotDumpOutputs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"pg_dump -f device", "pg_dump -f /dev/sda db", TierDestructive, true},
		{"pg_dump --file= sensitive", "pg_dump --file=/etc/sudoers db", TierDestructive, false},
		{"pg_dumpall -f", "pg_dumpall -f /dev/sda", TierDestructive, true},
		{"mysqldump -r", "mysqldump -r /dev/sda db", TierDestructive, true},
		{"mysqldump --result-file=", "mysqldump --result-file=/dev/sdb db", TierDestructive, true},
		{"mariadb-dump --tab", "mariadb-dump --tab=/etc db", TierDestructive, false},
		{"mongodump --archive", "mongodump --archive=/dev/sda", TierDestructive, true},
		{"mongodump --out", "mongodump --out /etc", TierDestructive, false},
		{"mongoexport --out", "mongoexport --out=/dev/sda", TierDestructive, true},
		{"pg_basebackup -D", "pg_basebackup -D /etc", TierDestructive, false},
		{"etcdctl snapshot save", "etcdctl snapshot save /dev/sda", TierDestructive, true},
		{"consul snapshot save", "consul snapshot save /dev/sda", TierDestructive, true},
		{"pg_dump denied host", "pg_dump -h 169.254.169.254 db", TierDestructive, true},
	})
	runExact(t, p, []exactCase{
		{"pg_dump", "pg_dump db", TierMutate},
		{"pg_dump -f file", "pg_dump -Fc -f x.dump db", TierMutate},
		{"mysqldump", "mysqldump -uroot db", TierMutate},
		{"etcdctl snapshot save file", "etcdctl snapshot save /tmp/snap.db", TierMutate},
	})
}

// TestBlindSpotTarAbsoluteNames: tar -P keeps the leading "/" of member
// names, so the archive, not the command line, says where each file
// lands (/etc/cron.d, /root/.ssh): as destructive as extracting over /.
func TestBlindSpotTarAbsoluteNames(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"tar -xPf x.tar",
		"tar -xf x.tar -P",
		"tar xPf x.tar",
		"tar -x -P -f x.tar -C /tmp/o",
		"tar --absolute-names -xf x.tar",
		"tar -xzf x.tgz --absolute-n",
		"tar --extract --file=x.tar --abs",
		"bsdtar -xPf x.tar",
	))
	runExactHosts(t, p, []exactCase{
		{"tar -x", "tar -xf x.tar", TierMutate},
		{"tar -c -P", "tar -cPf /tmp/x.tar /srv/app", TierMutate},
		{"tar -t -P", "tar -tPf x.tar", TierRead},
	})
}

// TestBlindSpotSQLFileStatements: SQL that makes the server or the client
// write or read a file it names (sqlite's VACUUM INTO and ATTACH, which
// creates the file, PostgreSQL's server-side COPY), in any case and with
// comments or line breaks between its words, is tier 3 like the client
// commands that write files (.output, \o).
func TestBlindSpotSQLFileStatements(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`sqlite3 db "vacuum into '/dev/sda'"`,
		`sqlite3 db "VACUUM INTO '/etc/x.db'"`,
		`sqlite3 db "vacuum main into '/root/.ssh/x'"`,
		"sqlite3 db \"vacuum/**/into '/tmp/x'\"",
		"sqlite3 db $'vacuum\\n  into \\'/tmp/x\\''",
		`sqlite3 db "attach '/etc/cron.d/x' as x; create table x.t(a)"`,
		`sqlite3 db "ATTACH DATABASE '/tmp/x' AS x"`,
		`echo "attach database '/tmp/x' as y;" | sqlite3 db`,
		`psql -c "copy t to '/tmp/x'"`,
		`psql -c "COPY (select 1) TO E'/tmp/x'"`,
		`psql -c "copy t from '/etc/passwd'"`,
		`psql -c "copy t -- c
to '/tmp/x'"`,
		`psql -c 'copy t to $$/tmp/x$$'`,
		`sqlite3 db "attach partitions.db as p"`,
		`sqlite3 db "attach partition as p"`,
	))
	runExactHosts(t, p, []exactCase{
		{"vacuum", `sqlite3 db "vacuum"`, TierMutate},
		{"select", `sqlite3 db "select * from t"`, TierMutate},
		{"copy to stdout", `psql -c "copy t to stdout"`, TierMutate},
		{"copy from stdin", `psql -c "copy t from stdin"`, TierMutate},
		{"attach partition", `psql -c "alter table t attach partition p for values in (1)"`, TierMutate},
		{"attach default partition", `psql -c "ALTER TABLE t ATTACH PARTITION s.p DEFAULT"`, TierMutate},
		{"detach", `psql -c "alter table t detach partition p"`, TierMutate},
		{"copy word", `psql -c "select copy_count from t"`, TierMutate},
	})
}

// TestBlindSpotGradleInitScripts: gradle runs an init script from outside
// the build before it (-I, --init-script, or any in GRADLE_USER_HOME's
// init.d): tier 3, as cmake -P and make --eval are; running the build
// itself stays tier 2.
func TestBlindSpotGradleInitScripts(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"gradle -I /tmp/init.gradle tasks",
		"gradle -I/tmp/init.gradle tasks",
		"gradle --init-script /tmp/x tasks",
		"gradle --init-script=/tmp/x tasks",
		"gradle --init-s /tmp/x tasks",
		"./gradlew -I /tmp/x tasks",
		"GRADLE_USER_HOME=/tmp/g gradle tasks",
		"gradle $opt tasks",
		"gradle -$x tasks",
		`gradle "--i$x" /tmp/x tasks`,
		"gradle build -Pversion=$v",
	))
	runExactHosts(t, p, []exactCase{
		{"tasks", "gradle tasks", TierMutate},
		{"wrapper tasks", "./gradlew tasks --all", TierMutate},
		{"include build", "gradle --include-build ../lib build", TierMutate},
		{"known property", "gradle build -Pversion=1.2", TierMutate},
	})
}
