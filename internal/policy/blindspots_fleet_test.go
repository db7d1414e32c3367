package policy

import "testing"

// TestBlindSpotFleetTools: reads of NAS, router and fleet tools whose
// options or environment write, run code, reach a host the rules cannot
// check or stop the host, and spellings that were refused wrongly.
func TestBlindSpotFleetTools(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		// systemd-analyze --generators runs the system's generators;
		// --image loop-mounts an image.
		{"analyze --generators=yes", "systemd-analyze --generators=yes verify x.service", TierMutate, false},
		{"analyze verify --generators", "systemd-analyze verify --generators x.service", TierMutate, false},
		{"analyze --image", "systemd-analyze --image=/tmp/x.raw verify x.service", TierMutate, false},
		{"analyze --ima abbrev", "systemd-analyze --ima=/tmp/x.raw security", TierMutate, false},
		// default.target and graphical.target are the system target.
		{"stop default.target", "systemctl stop default.target", TierDestructive, false},
		{"stop graphical.target", "systemctl stop graphical.target", TierDestructive, false},
		{"mask default.target", "systemctl mask default.target", TierDestructive, false},
		{"--no-block stop default.target", "systemctl --no-block stop default.target", TierDestructive, false},
		// Package managers' work directories.
		{"opkg --tmp-dir=", "opkg --tmp-dir=/etc list", TierMutate, false},
		{"opkg -t attached", "opkg -t/etc list", TierMutate, false},
		{"opkg --cache=", "opkg --cache=/etc list-installed", TierMutate, false},
		{"opkg --tmp-dir device", "opkg --tmp-dir=/dev/sda list", TierDestructive, true},
		{"opkg --conf", "opkg --conf /tmp/x list", TierMutate, false},
		{"opkg --verify-program", "opkg --verify-program=/tmp/x list", TierDestructive, false},
		{"apk --cache-dir=", "apk --cache-dir=/etc info", TierMutate, false},
		{"yum --downloaddir=", "yum --downloaddir=/etc list", TierMutate, false},
		{"zypper --cache-dir=", "zypper --cache-dir=/etc se x", TierMutate, false},
		{"RESTIC_CACHE_DIR", "RESTIC_CACHE_DIR=/etc restic snapshots", TierMutate, false},
		{"BORG_CACHE_DIR", "BORG_CACHE_DIR=/etc borg list /repo", TierMutate, false},
		{"BORG_SECURITY_DIR", "BORG_SECURITY_DIR=/root/x borg info /repo", TierMutate, false},
		// psql's meta-commands that write a file: a device is refused.
		{"psql \\s device", `psql -c '\s /dev/sda'`, TierDestructive, true},
		{"psql \\s file", `psql -c '\s /tmp/x'`, TierDestructive, false},
		{"psql \\o device", `psql -c '\o /dev/sda'`, TierDestructive, true},
		{"psql \\w device", `psql -c '\w /dev/sda'`, TierDestructive, true},
		{"psql \\copy to device", `psql -c '\copy t TO /dev/sda'`, TierDestructive, true},
		{"psql \\g device", `psql -c 'select 1 \g /dev/sda'`, TierDestructive, true},
		// Text browsers and lnav running what a file or setting says.
		{"lynx -cmd_script=", "lynx -cmd_script=/tmp/x http://a", TierDestructive, false},
		{"lynx -cmd_script next", "lynx -cmd_script /tmp/x http://a", TierDestructive, false},
		{"lnav -c :sh", "lnav -c ':sh reboot' /var/log/syslog", TierDestructive, true},
		{"lnav -c :sh touch", "lnav -c ':sh touch /tmp/x' x", TierDestructive, false},
		{"lnav -f", "lnav -f /tmp/cmds x", TierDestructive, false},
		{"lnav -w device", "lnav -w /dev/sda x", TierDestructive, true},
		{"elinks -eval", "elinks -eval 'set protocol.user.mailto.unix = \"x\"' -dump mailto:a", TierDestructive, false},
		{"w3m -o cgi_bin", "w3m -o cgi_bin=/tmp -dump file:/cgi-bin/x", TierDestructive, false},
		// Variables holding a program's default options.
		{"UNZIP", "UNZIP=-o unzip -l x.zip", TierDestructive, false},
		{"UNZIPOPT", "UNZIPOPT='-d /etc' unzip -l x.zip", TierDestructive, false},
		{"BZIP2", "BZIP2=-f bzip2 -t x.bz2", TierDestructive, false},
		{"BZIP", "BZIP=/etc/passwd bzip2 -t x.bz2", TierDestructive, false},
		{"PIGZ", "PIGZ=-f pigz -l x.gz", TierDestructive, false},
		{"CLOUDSDK_CONFIG", "CLOUDSDK_CONFIG=/tmp/c gcloud compute instances list", TierDestructive, false},
		{"AZURE_CONFIG_DIR", "AZURE_CONFIG_DIR=/tmp/c az vm list", TierDestructive, false},
		{"RCLONE_CONFIG", "RCLONE_CONFIG=/tmp/x rclone lsd x:", TierDestructive, false},
		// A client's server in the environment meets the host rules.
		{"VAULT_ADDR", "VAULT_ADDR=http://169.254.169.254 vault status", TierDestructive, true},
		{"NOMAD_ADDR", "NOMAD_ADDR=http://169.254.169.254:4646 nomad status", TierDestructive, true},
		{"CONSUL_HTTP_ADDR", "CONSUL_HTTP_ADDR=169.254.169.254:8500 consul members", TierDestructive, true},
		{"ETCDCTL_ENDPOINTS list", "ETCDCTL_ENDPOINTS=a:2379,169.254.169.254:2379 etcdctl get x", TierDestructive, true},
		{"PGHOST", "PGHOST=169.254.169.254 psql -c 'select 1'", TierDestructive, true},
		{"DOCKER_HOST denied", "DOCKER_HOST=tcp://169.254.169.254:2375 docker ps", TierDestructive, true},
		{"export VAULT_ADDR", "export VAULT_ADDR=http://169.254.169.254; vault status", TierDestructive, true},
		// strace tampering with the traced program.
		{"strace -e inject", "strace -e inject=all:error=EIO ls", TierMutate, false},
		{"strace -einject", "strace -einject=write:retval=0 ls", TierMutate, false},
		{"strace --inject", "strace --inject=all:error=EIO ls", TierMutate, false},
		{"strace -e fault", "strace -e fault=openat ls", TierMutate, false},
		{"strace --fault", "strace --fault=openat ls", TierMutate, false},
		{"strace -e kill", "strace -e kill=write ls", TierMutate, false},
		{"strace -e poke_enter", "strace -e poke_enter=@arg1=0 ls", TierDestructive, false},
		{"strace --poke-exit", "strace --poke-exit=x ls", TierDestructive, false},
		// Hosts read from a file escape the host rules.
		{"mtr -F", "mtr -F /tmp/hosts", TierMutate, false},
		{"mtr -rF", "mtr -rF /tmp/hosts", TierMutate, false},
		{"mtr --filename=", "mtr --filename=/tmp/hosts", TierMutate, false},
		{"dig -f", "dig -f /tmp/names", TierMutate, false},
		{"dig -f attached", "dig +short -f/tmp/names", TierMutate, false},
		// certbot without a subcommand is certbot run.
		{"certbot bare", "certbot", TierMutate, false},
		{"certbot --nginx", "certbot --nginx", TierMutate, false},
		{"certbot -d", "certbot --standalone -d x.example", TierMutate, false},
		// borg compact frees what delete and prune left: no way back.
		{"borg compact", "borg compact /repo", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"curl -w @-", "curl -w @- http://a", TierMutate},
		{"curl -d @-", "curl -d @- http://a", TierMutate},
		{"valgrind --vgdb=yes", "valgrind --vgdb=yes ls", TierRead},
		{"valgrind --vgdb=no", "valgrind --vgdb=no ls", TierRead},
		{"ssh-keygen -lf", "ssh-keygen -lf x.pub", TierRead},
		{"ssh-keygen -lvf", "ssh-keygen -lvf x.pub", TierRead},
		{"ssh-keygen -E md5 -lf", "ssh-keygen -E md5 -lf x.pub", TierRead},
		{"ssh-keygen -yf", "ssh-keygen -yf key", TierRead},
		{"ssh-keygen -fl writes", "ssh-keygen -fl x.pub", TierMutate},
		{"systemd-analyze verify", "systemd-analyze verify x.service", TierRead},
		{"systemd-analyze --generators=no", "systemd-analyze verify --generators=no x.service", TierRead},
		{"opkg list", "opkg list", TierRead},
		{"certbot certificates", "certbot certificates", TierRead},
		{"certbot --version", "certbot --version", TierRead},
		{"mtr -r", "mtr -r 1.1.1.1", TierRead},
		{"strace -e trace", "strace -e trace=open ls", TierRead},
		{"RESTIC_CACHE_DIR tmp", "RESTIC_CACHE_DIR=/tmp/c restic snapshots", TierRead},
		{"VAULT_ADDR allowed", "VAULT_ADDR=https://vault.example.com vault status", TierRead},
		{"psql \\set", `psql -c '\set x 1'`, TierMutate},
	})
}
