package policy

import "testing"

// Open mode runs tier 2 unasked, so a command that wipes a disk, deletes
// backups or buckets, or tears down infrastructure must be tier 3 however
// it is spelt; the listing, status and dry-run forms beside it must not
// be.

// TestBlindSpotDiskToolsDestroy: the BSD, macOS and bcachefs disk tools,
// xfs_admin and the label tools, and an lvresize that may shrink. Their
// forms that erase a disk (bcachefs format, gpart destroy, diskutil
// eraseDisk) are denied: TestBlindSpotDiskErasersAnyTool.
func TestBlindSpotDiskToolsDestroy(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"bcachefs device remove /dev/sdb",
		"bcachefs migrate -f /mnt",
		"bcachefs $sub /dev/sdb",
		"gpart delete -i 1 da0",
		"gpart resize -i 2 -s 1G da0",
		"diskutil partitionDisk disk2 GPT APFS x 100%",
		"diskutil apfs deleteContainer disk2",
		"xfs_admin -U generate /dev/sdb1",
		"xfs_admin -fU generate /dev/sdb1",
		"xfs_admin -L new /dev/sdb1",
		"xfs_admin -O bigtime=1 /dev/sdb1",
		"btrfstune -u /dev/sdb",
		"swaplabel -U 0b7e5a6c-1f9e-4e0e-9b0a-2c3d4e5f6a7b /dev/sda2",
		"e2label /dev/sda1 other",
		"xfs_admin $OPT /dev/sdb1",
		"swaplabel $X /dev/sda2",
		"lvresize -L 1G vg/lv",
		"lvresize -L -5G vg/lv",
		"lvresize -L-5G vg/lv",
		"lvresize -rL-5G vg/lv",
		"lvresize --size=1G vg/lv",
		"lvresize --si 1G vg/lv",
		"lvresize -l -10 vg/lv",
		"lvresize --extents 50%VG vg/lv",
		"lvm lvresize -L -1G vg/lv",
		"sudo lvresize -L 1G vg/lv",
		"mdadm --assemble --force /dev/md0 /dev/sda1 /dev/sdb1",
		"mdadm --assemble --fo /dev/md0 /dev/sda1",
		"mdadm -A --force --scan",
	))
	runExactHosts(t, p, []exactCase{
		{"bcachefs fs usage", "bcachefs fs usage /mnt", TierRead},
		{"bcachefs show-super", "bcachefs show-super /dev/sdb", TierRead},
		{"gpart show", "gpart show da0", TierRead},
		{"gpart list", "gpart list", TierRead},
		{"diskutil list", "diskutil list", TierRead},
		{"diskutil info", "diskutil info disk0", TierRead},
		{"diskutil apfs list", "diskutil apfs list", TierRead},
		{"xfs_admin -l", "xfs_admin -l /dev/sdb1", TierRead},
		{"xfs_admin -lu", "xfs_admin -lu /dev/sdb1", TierRead},
		{"e2label prints", "e2label /dev/sda1", TierRead},
		{"swaplabel prints", "swaplabel /dev/sda2", TierRead},
		{"gpart add", "gpart add -t freebsd-ufs da0", TierMutate},
		{"lvresize +", "lvresize -L +5G vg/lv", TierMutate},
		{"lvresize +%FREE", "lvresize -l +100%FREE vg/lv", TierMutate},
		{"lvresize --test", "lvresize -t -L 1G vg/lv", TierMutate},
		{"lvextend", "lvextend -L +5G vg/lv", TierMutate},
		{"lvm lvresize +", "lvm lvresize -L +1G vg/lv", TierMutate},
		{"mdadm assemble", "mdadm --assemble --scan", TierMutate},
	})
}

// TestBlindSpotRcloneRuns: what rclone runs (--password-command,
// --sftp-ssh, --metadata-mapper, a connection string's ssh=, the RCLONE_*
// variables) is classified as the command it is, and the hosts it reaches
// (connection strings, --sftp-host, restic's and borg's repository
// variables) meet the host rules.
func TestBlindSpotRcloneRuns(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"rclone --password-command 'reboot' ls remote:",
		"rclone ls remote: --password-command=reboot",
		"rclone --sftp-ssh 'ssh -o ProxyCommand=reboot x' ls remote:",
		"rclone --sftp-ssh=reboot lsd remote:",
		"rclone --metadata-mapper reboot copy a: b:",
		`rclone ls ':sftp,host=example.com,ssh="reboot":/x'`,
		"rclone ls 'myremote,ssh=reboot:/x'",
		"RCLONE_PASSWORD_COMMAND=reboot rclone ls r:",
		"env RCLONE_SFTP_SSH=reboot rclone ls r:",
		"export RCLONE_CONFIG_MYR_SSH=reboot; rclone ls myr:",
		"rclone ls ':sftp,host=169.254.169.254:/x'",
		"rclone ls --sftp-host 10.2.3.4 :sftp:/x",
		"RESTIC_REPOSITORY=sftp:user@169.254.169.254:/repo restic snapshots",
		"env RESTIC_REPOSITORY=sftp:host.internal:/repo restic snapshots",
		"export RESTIC_REPOSITORY=sftp://u@10.9.9.9/r; restic snapshots",
		"RESTIC_REPOSITORY=rest:http://169.254.169.254:8000/ restic snapshots",
		"BORG_REPO=ssh://u@10.1.2.3/./repo borg list",
		"export BORG_REPO=ssh://u@backup.internal:2222/./repo; borg list",
		"rclone config create x sftp ssh reboot",
		"rclone config create x sftp ssh=reboot",
		"rclone config update x ssh 'reboot now'",
		"rclone config create x sftp host 169.254.169.254",
		"rclone config create x sftp host=10.1.1.1 user=u",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"rclone --password-command \"$cmd\" ls remote:",
		"RCLONE_PASSWORD_COMMAND=$x rclone ls r:",
		"RESTIC_PASSWORD_COMMAND=$x restic snapshots",
		"BORG_RSH=$x borg list",
		"export BORG_PASSCOMMAND=\"$x\"; borg list",
		"RESTIC_REPOSITORY=$R restic snapshots",
		"BORG_REPO=\"$R\" borg list",
	))
	runExactHosts(t, p, []exactCase{
		{"restic over a permitted host", "RESTIC_REPOSITORY=sftp:u@backup.example.com:/r restic snapshots", TierBenign},
		{"borg over a permitted host", "BORG_REPO=ssh://u@backup.example.com/./repo borg list", TierBenign},
		{"restic local repo", "RESTIC_REPOSITORY=/srv/restic restic snapshots", TierRead},
		{"rclone password command that reads", "rclone --password-command 'pass show rclone' ls remote:", TierMutate},
		{"rclone listing", "rclone lsd remote:", TierMutate},
		{"rclone config create", "rclone config create x sftp host backup.example.com user u", TierMutate},
	})
}

// TestBlindSpotObjectStoreDeletes: bucket deletes, and the sync modes
// that delete at the destination what the source lacks.
func TestBlindSpotObjectStoreDeletes(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"rclone purge remote:bucket",
		"rclone sync /src remote:dst",
		"rclone bisync a: b:",
		"rclone rc operations/purge fs=r: remote=x",
		"rclone sync a: b: --exclude --dry-run",
		"rclone sync a: b: --dry-run=false",
		"sudo -u backup nice rclone delete remote:b",
		"sh -c 'rclone sync a b:c'",
		"echo r:b | xargs rclone purge",
		"aws s3 rm --recursive s3://bucket/",
		"aws s3 sync --delete . s3://bucket/",
		"mc rm -r --force myminio/bucket",
		"mc rm --recursive --force myminio/bucket",
		"mc rb --force myminio/bucket",
		"mc mirror --remove src myminio/dst",
		"s3cmd del -r s3://b",
		"s3cmd sync --delete-removed . s3://b",
		"s3cmd sync --delete-rem . s3://b",
		"s3cmd get --delete-after-fetch s3://b/x .",
		"gsutil -m rm -r gs://b",
		"gsutil -m rsync -rd . gs://b",
		"gsutil rsync -r -d . gs://b",
		"gcloud storage rsync --delete-unmatched-destination-objects -r . gs://b",
		"az storage blob delete-batch -s c",
		"az storage blob sync -c c -s . --delete-destination true",
		"az storage blob sync -c c -s . --delete-destination=true",
		"azcopy sync . https://x.blob.core.windows.net/c --delete-destination=true",
		"azcopy rm https://x.blob.core.windows.net/c --recursive",
		"s5cmd rm 's3://b/*'",
		"s5cmd sync --delete . s3://b/",
		"b2 rm --recursive b2://b",
		"b2 delete-bucket b",
		"b2 sync --delete . b2://b",
	))
	runExactHosts(t, p, []exactCase{
		{"rclone --dry-run", "rclone sync --dry-run /src remote:dst", TierMutate},
		{"rclone -n", "rclone -n sync /src remote:dst", TierMutate},
		{"rclone rc stats", "rclone rc core/stats", TierMutate},
		{"aws --dryrun", "aws s3 rm --recursive --dryrun s3://b", TierMutate},
		{"aws sync", "aws s3 sync . s3://bucket/", TierMutate},
		{"gsutil rsync", "gsutil rsync -r . gs://b", TierMutate},
		{"s3cmd sync", "s3cmd sync . s3://b", TierMutate},
		{"az sync without deletes", "az storage blob sync -c c -s . --delete-destination false", TierMutate},
		{"mc ls", "mc ls myminio", TierMutate},
		{"mc mirror", "mc mirror src myminio/dst", TierMutate},
		{"midnight commander", "mc /etc /tmp", TierMutate},
		{"azcopy copy", "azcopy copy a https://x.blob.core.windows.net/c", TierMutate},
	})
}

// TestBlindSpotBackupDeletes: removals of backups by the backup tools
// that were unknown programs, and borg 2's repository delete.
func TestBlindSpotBackupDeletes(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"kopia snapshot delete k1 --delete",
		"kopia snapshot expire --delete",
		"kopia snapshot expire --delete=true",
		"kopia blob gc --delete=yes",
		"kopia --config-file=/etc/kopia.config content delete abc",
		"duplicity remove-all-but-n-full 1 --force file:///b",
		"duplicity remove-older-than 1D --forc file:///b",
		"duplicity remove-all-inc-of-but-n-full 2 --force file:///b",
		"duplicity cleanup --force file:///b",
		"rdiff-backup --remove-older-than 1D /b",
		"rdiff-backup remove increments --older-than 1D /b",
		"tarsnap -d -f arch",
		"tarsnap --nuke",
		"proxmox-backup-client prune host/x --keep-last 1",
		"proxmox-backup-client snapshot forget host/x/2024",
		"proxmox-backup-manager datastore remove ds --destroy-data",
		"borg rdelete",
		"borg repo-delete",
	))
	runExactHosts(t, p, []exactCase{
		{"kopia expire dry run", "kopia snapshot expire", TierMutate},
		{"kopia list", "kopia snapshot list", TierMutate},
		{"duplicity remove listing", "duplicity remove-older-than 1D file:///b", TierMutate},
		{"duplicity status", "duplicity collection-status file:///b", TierMutate},
		{"tarsnap list", "tarsnap --list-archives", TierMutate},
		{"pbs prune dry run", "proxmox-backup-client prune host/x --keep-last 1 --dry-run", TierMutate},
		{"pbs snapshot list", "proxmox-backup-client snapshot list", TierRead},
		{"rdiff-backup list", "rdiff-backup --list-increments /b", TierMutate},
	})
}

// TestBlindSpotInfraTeardown: destroy in the spellings terraform's flag
// package and terragrunt take, three-word lxc deletes, Proxmox's API and
// cluster tools, forge deletes, compose volumes.
func TestBlindSpotInfraTeardown(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"terraform apply -destroy=true",
		"terraform apply --destroy",
		"terraform -chdir=infra apply -destroy -auto-approve",
		"terragrunt destroy",
		"terragrunt run-all destroy",
		"terragrunt run --all -- apply -destroy",
		"lxc storage volume delete pool vol",
		"incus storage volume delete pool vol",
		"lxc config device remove c eth0",
		"pvesh delete /nodes/pve/qemu/100",
		"pvesh create /nodes/pve/qemu/100/status/stop",
		"pvesm free local:100/vm-100-disk-0.qcow2",
		"pvecm delnode pve2",
		"gh repo delete o/r --yes",
		"gh release delete v1",
		"gh api -X DELETE repos/o/r",
		"gh api --method=DELETE repos/o/r",
		"glab repo delete o/r",
		"docker-compose down --volumes",
		"docker-compose down -v",
	))
	runExactHosts(t, p, []exactCase{
		{"terraform -destroy=false", "terraform apply -destroy=false", TierMutate},
		{"terraform plan -destroy", "terraform plan -destroy", TierMutate},
		{"terragrunt plan", "terragrunt plan", TierMutate},
		{"lxc storage volume list", "lxc storage volume list pool", TierMutate},
		{"lxc remote remove", "lxc remote remove x", TierMutate},
		{"pvesh get", "pvesh get /nodes", TierRead},
		{"pvesh snapshot", "pvesh create /nodes/pve/qemu/100/snapshot --snapname x", TierMutate},
		{"pvesm status", "pvesm status", TierRead},
		{"pvecm status", "pvecm status", TierRead},
		{"gh api GET", "gh api repos/o/r", TierMutate},
		{"docker-compose down", "docker-compose down", TierMutate},
	})
}

// TestBlindSpotApplianceDeletes: NAS and router deletes, and package
// removals the command line does not name.
func TestBlindSpotApplianceDeletes(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"synouser --del bob",
		"synogroup --del staff",
		"synoshare --del y share",
		"synostgpool --delete 1",
		"synostgvolume --delete /volume1",
		"synopkg uninstall Foo",
		"uci delete network.lan",
		"uci delete dropbear.@dropbear[0]",
		"uci -q delete firewall",
		"uci import network",
		"apt autoremove --purge",
		"apt-get autoremove --purge -y",
		"apt-get autopurge",
		"sudo apt-get -y autoremove --purge",
	))
	runExactHosts(t, p, []exactCase{
		{"synouser --get", "synouser --get bob", TierRead},
		{"synoshare --enum", "synoshare --enum ALL", TierRead},
		{"synopkg list", "synopkg list", TierRead},
		{"uci delete option", "uci delete network.lan.dns", TierMutate},
		{"uci show", "uci show network", TierRead},
		{"apt autoremove", "apt autoremove", TierMutate},
	})
}

// TestBlindSpotStorageAndClusterTeardown: snapshot and backup tools,
// storage stacks and cluster tools that were unknown programs; a program
// that was unknown still has its arguments tried as a command it runs.
func TestBlindSpotStorageAndClusterTeardown(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"borgmatic delete --archive x",
		"borgmatic rdelete",
		"borgmatic borg delete ::x",
		"btrbk prune",
		"btrbk clean",
		"snapper delete 1-100",
		"snapper -c root rollback",
		"timeshift --delete-all",
		"timeshift --restore",
		"syncoid --force-delete pool/a pool/b",
		"syncoid --delete-target-snapshots pool/a pool/b",
		"ceph-volume lvm zap --destroy /dev/sdb",
		"cephadm rm-cluster --force --zap-osds --fsid x",
		"stratis pool destroy p",
		"stratis filesystem destroy p fs",
		"vdo remove --name=v",
		"drbdadm invalidate r0",
		"drbdadm wipe-md r0",
		"pcs cluster destroy",
		"pcs cluster stop --all",
		"pcs resource delete r",
		"kubeadm reset -f",
		"k3s etcd-snapshot delete on-demand-1",
		"k3s etcd-snapshot prune --snapshot-retention 0",
		"k3s $sub",
		"microk8s reset",
		"microk8s kubectl delete ns prod",
		"microk8s kubectl exec pod -- rm -rf /data",
		"kind delete cluster",
		"k3d cluster delete x",
		"minikube delete --all --purge",
		"vagrant destroy -f",
		"multipass delete --purge vm",
		"argocd app delete x",
		"flux uninstall",
	))
	runExactHosts(t, p, []exactCase{
		{"btrbk dry run", "btrbk -n prune", TierMutate},
		{"borgmatic dry run", "borgmatic delete --archive x --dry-run", TierMutate},
		{"borgmatic list", "borgmatic list", TierMutate},
		{"snapper list", "snapper list", TierRead},
		{"drbdadm status", "drbdadm status", TierRead},
		{"pcs status", "pcs status", TierRead},
		{"stratis pool list", "stratis pool list", TierMutate},
		{"timeshift list", "timeshift --list", TierMutate},
		{"microk8s status", "microk8s status", TierRead},
		{"k3s etcd-snapshot save", "k3s etcd-snapshot save", TierMutate},
		{"k3s check-config", "k3s check-config", TierRead},
	})
}

// TestBlindSpotDangerAfterUnlistedOption: a global option the subcommand
// table does not list takes the next word as its value, so the deleting
// subcommand after it must still count; a reading one after it stays as
// it was (tier 2, since the first word is not known) unless the table
// knows the option or the program reads every unlisted option so.
func TestBlindSpotDangerAfterUnlistedOption(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"borg --remote-path /usr/bin/borg delete ::a",
		"borg --lock-wait 5 delete ::a",
		"borg --rsh 'ssh -i k' prune --keep-daily 1",
		"restic --password-command 'pass x' forget --prune --keep-last 1",
		"restic -o sftp.command='ssh x' forget --keep-last 1",
		"restic --limit-upload 100 prune",
		"restic --cacert /x prune",
		"kubectl --request-timeout 5 delete ns prod",
		"kubectl --v 5 delete ns prod",
		"sudo borg --lock-wait 5 delete ::a",
	))
	runExactHosts(t, p, []exactCase{
		// borg's table lists --lock-wait, and restic and kubectl read
		// every unlisted option as taking a value (programs_subglobals.go),
		// so these verbs are known to be the reading ones.
		{"borg list after value", "borg --lock-wait 5 list", TierRead},
		{"restic snapshots after value", "restic --limit-upload 100 snapshots", TierRead},
		{"kubectl get after value", "kubectl --log-flush-frequency 5 get pods", TierRead},
		{"operand named like a verb", "borg list --last 5 delete", TierRead},
	})
}

// TestBlindSpotEssentialPackageSpellings: a removal of an essential
// package counts in every spelling the package managers take (version,
// release, architecture, glob, apt regex, install's pkg- and zypper's
// !pkg), while removing or installing an ordinary package, or one whose
// name merely holds regex characters, stays tier 2.
func TestBlindSpotEssentialPackageSpellings(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"apt purge 'openssh-*'",
		"apt purge '^openssh'",
		"apt remove openssh-server=1:9.6p1",
		"apt remove openssh-server/jammy",
		"apt install openssh-server-",
		"sudo apt-get -y install sudo-",
		"zypper in '!openssh'",
		"zypper install -- -openssh",
		"yum remove openssh-server.x86_64",
		"yum remove sudo-1.9.5p2-10.el9",
		"rpm -e sudo-1.9.5p2-10.el9.x86_64",
		"dpkg -P openssh-server:amd64",
		"pacman -R linux",
		"apt purge ssh",
		"apt purge lvm2",
		"apt purge cryptsetup",
		"synowebapi --exec api=SYNO.Core.User method=delete name=bob",
		"synowebapi --exec api=SYNO.Core.System method=shutdown",
	))
	runExactHosts(t, p, []exactCase{
		{"g++", "apt remove g++", TierMutate},
		{"libstdc++6", "apt remove libstdc++6", TierMutate},
		{"dotted name", "apt remove python3.12-venv", TierMutate},
		{"ordinary purge", "apt purge nginx", TierMutate},
		{"ordinary glob", "apt remove 'nginx*'", TierMutate},
		{"ordinary pkg-", "apt-get install nginx-", TierMutate},
		{"install", "apt-get install -y build-essential", TierMutate},
		{"synowebapi list", "synowebapi --exec api=SYNO.Core.User method=list", TierRead},
		{"synowebapi set", "synowebapi --exec api=SYNO.Core.User method=set name=bob", TierMutate},
	})
}

// TestBlindSpotExpiryAndPruning: commands that delete later, through a
// retention or lifecycle rule the store or the tool then applies, are as
// destructive as the delete itself: sanoid's pruning in any spelling
// Getopt::Long takes, syncoid's deleting options abbreviated, and a
// bucket's expiry rules set through each object-store client.
func TestBlindSpotExpiryAndPruning(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"sanoid --prune-snapshots",
		"sanoid --cron",
		"sanoid --cron --verbose",
		"sanoid -cron",
		"sanoid --prune",
		"sanoid --prune-snap --configdir=/etc/sanoid",
		"sanoid --force-prune",
		"sanoid --force-p",
		"sanoid --CRON",
		"sanoid --cr",
		"syncoid --force-d pool/a pool/b",
		"syncoid -force-delete pool/a pool/b",
		"syncoid --delete-target pool/a pool/b",
		"aws s3api put-bucket-lifecycle-configuration --bucket b --lifecycle-configuration file://l.json",
		"aws --region eu-west-1 --profile p s3api put-bucket-lifecycle --bucket b",
		"s3cmd setlifecycle l.xml s3://b",
		"s3cmd expire s3://b --expiry-days=1",
		"gsutil lifecycle set l.json gs://b",
		"gcloud storage buckets update gs://b --lifecycle-file=l.json",
		"gcloud storage buckets update gs://b --lifecycle-f l.json",
		"az storage account management-policy create --account-name a --policy @p.json -g r",
		"az storage account management-policy update --account-name a -g r --set x=1",
		"b2 bucket update --lifecycle-rule '{\"daysFromHidingToDeleting\":1}' b allPrivate",
		"b2 update-bucket --lifecycleRules '[]' b allPrivate",
		"rclone backend lifecycle b2:bucket -o daysFromHidingToDeleting=1",
		"mc ilm rule add --expire-days 1 local/b",
		"mc ilm import local/b",
		"mc ilm add --expiry-days 1 local/b",
	))
	runExactHosts(t, p, []exactCase{
		{"sanoid monitor", "sanoid --monitor-snapshots", TierRead},
		{"sanoid health", "sanoid --monitor-health", TierRead},
		{"sanoid take", "sanoid --take-snapshots", TierMutate},
		{"sanoid readonly cron", "sanoid --cron --readonly", TierMutate},
		{"syncoid dry run", "syncoid --force-delete --dryrun pool/a pool/b", TierMutate},
		{"syncoid plain", "syncoid pool/a pool/b", TierMutate},
		{"aws lifecycle read", "aws s3api get-bucket-lifecycle-configuration --bucket b", TierMutate},
		{"mc ilm list", "mc ilm rule ls local/b", TierMutate},
	})
}
