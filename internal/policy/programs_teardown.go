package policy

import (
	"slices"
	"strings"
)

// Programs that wipe disks, delete backups or tear down what many hosts
// depend on, yet which an open mode would run unasked if they fell to the
// unknown program's TierMutate: the BSD, macOS and bcachefs disk tools,
// the LVM resize that may shrink a volume, kopia's and duplicity's
// removals, terragrunt's destroy, the MinIO client and azcopy's deletes,
// and Synology's account and share deletes. Each names the reading forms
// too, so a listing is not refused where a deletion is.

// teardownProgram returns the classifier for the programs this file owns,
// or nil.
func teardownProgram(name string) func(*call) (Tier, string) {
	switch name {
	case "bcachefs", "gpart", "diskutil", "xfs_admin", "lvresize", "lvextend", "kopia", "duplicity",
		"terragrunt", "azcopy", "synouser", "synogroup", "synoshare", "synostgpool", "synostgvolume", "synospace",
		"pvesh", "pvesm", "pvecm", "gh", "glab", "rdiff-backup", "tarsnap", "proxmox-backup-client",
		"proxmox-backup-manager", "btrfstune", "swaplabel", "e2label", "fatlabel", "exfatlabel", "ntfslabel",
		"borgmatic", "ceph-volume", "ceph-disk", "cephadm", "stratis", "vdo", "drbdadm", "pcs", "kubeadm",
		"microk8s", "kind", "k3d", "minikube", "vagrant", "multipass", "argocd", "flux", "timeshift",
		"snapper", "btrbk", "syncoid", "sanoid":
		return teardownVerbs
	case "mc":
		return minioOrCommander
	case "synowebapi":
		return synoWebAPI
	case "rclone", "s3cmd", "gsutil", "gcloud", "az", "aws", "s5cmd", "b2":
		return objectStoreProgram
	}
	return nil
}

// verbRule is a program's reading and destroying leading words, in lower
// case (diskutil takes its verbs in any case); any other verb changes the
// host (TierMutate).
type verbRule struct {
	read, danger map[string]bool
	why          string          // what a danger verb does
	group        map[string]bool // read words that only read with a read word after them
}

var verbRules = map[string]verbRule{
	// bcachefs format makes a new file system; device remove and
	// set-state drop a member, migrate rewrites a file system in place,
	// fsck repairs by rewriting, and the passphrase verbs change the key.
	"bcachefs": {set(`fs usage show-super list list_journal version help --help --version top`),
		set(`format mkfs migrate migrate-superblock fsck remove set-state set-passphrase remove-passphrase delete resize`),
		"formats, removes, resizes or rewrites a bcachefs device or its key", set(`fs`)},
	// gpart (FreeBSD's GEOM partitioning) destroys or rewrites tables.
	"gpart": {set(`show list status help backup`),
		set(`destroy delete resize create restore recover bootcode`),
		"destroys, deletes, resizes or rewrites a partition table", nil},
	// diskutil erases, zeroes, repartitions and deletes APFS containers.
	"diskutil": {set(`list info information activity listfilesystems verifyvolume verifydisk listcryptousers
		listsnapshots listvolumegroups apfs cs corestorage appleraid ar quiet`),
		set(`erasedisk erasevolume zerodisk randomdisk securerase secureerase reformat partitiondisk
		splitpartition mergepartitions resizevolume eraseoptical deletecontainer deletevolume
		erasevolume deletesnapshot resizecontainer deletevolumegroup delete deletevolume
		deletelvg deletelv deletepv removemember changepassphrase`),
		"erases, zeroes, repartitions or deletes a disk or volume", set(`apfs cs corestorage appleraid ar quiet`)},
	// kopia snapshot delete and blob/content/manifest delete drop backups.
	// kopia and duplicity write their caches and logs on every command,
	// so nothing of theirs is read-only.
	"kopia":      {nil, set(`delete rm remove`), "deletes snapshots or repository contents", nil},
	"duplicity":  {nil, nil, "removes backup sets", nil},
	"terragrunt": {nil, set(`destroy`), "destroys the managed infrastructure", nil},
	// azcopy remove deletes blobs or files.
	// azcopy writes its logs and job plans on every command.
	"azcopy": {nil, set(`remove rm`), "deletes blobs or files", nil},
	// Synology's account, group and share tools.
	"synouser":  {set(`--get --enum --help`), set(`--del`), "deletes a DSM user and its home", nil},
	"synogroup": {set(`--get --enum --help`), set(`--del`), "deletes a DSM group", nil},
	"synoshare": {set(`--get --enum --help --list`), set(`--del --delete`), "deletes a DSM shared folder and its data", nil},
	// Synology's storage pool and volume tools.
	"synostgpool":   {nil, set(`--delete --remove`), "deletes a storage pool and its volumes", nil},
	"synostgvolume": {nil, set(`--delete --remove`), "deletes a volume and its data", nil},
	"synospace":     {nil, set(`--delete --remove`), "deletes a storage space and its data", nil},
	// Proxmox: pvesh delete removes what its API path names (a guest, a
	// storage, a user); pvesm free deletes a volume, prune-backups old
	// backups; pvecm delnode drops a cluster member.
	"pvesh": {set(`get ls usage help`), set(`delete`), "deletes what the API path names", nil},
	"pvesm": {set(`status list path help scan extractconfig`), set(`free prune-backups`),
		"deletes a volume or backups", nil},
	"pvecm": {set(`status nodes help qdevice`), set(`delnode`), "removes a node from the cluster", nil},
	// gh and glab delete repositories, releases and more.
	"gh":   {nil, set(`delete`), "deletes a repository, release or other forge object", nil},
	"glab": {nil, set(`delete`), "deletes a repository, release or other forge object", nil},
	// rdiff-backup remove increments, tarsnap -d and --nuke, and the
	// Proxmox Backup tools' prune, forget and remove drop backups.
	"rdiff-backup": {nil, set(`remove`), "removes backup increments", nil},
	"tarsnap":      {nil, nil, "deletes archives", nil},
	"proxmox-backup-client": {set(`list status version help snapshot catalog task files dump log`), set(`prune forget delete`), "deletes backup snapshots",
		set(`snapshot catalog task`)},
	"proxmox-backup-manager": {set(`versions datastore task disk cert remote user acl subscription node sync-job verify-job prune-job
		list show log info get`), set(`remove delete prune`), "removes a datastore, its data or backups",
		set(`datastore task disk cert remote user acl subscription node sync-job verify-job prune-job`)},
	"borgmatic": {nil, set(`delete rdelete repo-delete`), "deletes archives or the repository", nil},
	"btrbk":     {nil, set(`prune clean`), "deletes snapshots and backups", nil},
	"snapper": {set(`list ls list-configs get-config status diff`), set(`delete rm remove rollback undochange delete-config`),
		"deletes snapshots or rolls the file system back", nil},
	// Storage stacks: ceph-volume zap wipes an OSD's disk, stratis and vdo
	// destroy pools and volumes, drbdadm invalidate discards the local
	// copy and wipe-md/create-md its metadata.
	"ceph-volume": {nil, set(`zap`), "wipes an OSD's disk", nil},
	"ceph-disk":   {nil, set(`zap destroy`), "wipes an OSD's disk", nil},
	"cephadm":     {nil, set(`rm-cluster rm-daemon zap-osds`), "removes the cluster or its daemons and data", nil},
	"stratis":     {nil, set(`destroy remove unbind`), "destroys a pool or file system", nil},
	"vdo":         {nil, set(`remove`), "removes a VDO volume", nil},
	"drbdadm": {set(`status dstate cstate role dump sh-resources sh-status`), set(`invalidate invalidate-remote wipe-md create-md down detach disconnect`),
		"discards a replica, its metadata or takes the resource down", nil},
	// Cluster tools: pcs stops or destroys the cluster; kubeadm reset and
	// microk8s reset wipe a node's cluster state; local cluster, VM and
	// GitOps tools delete what they manage.
	"pcs":       {set(`status`), set(`destroy delete remove stop kill`), "stops or destroys the cluster or its resources", nil},
	"kubeadm":   {set(`version certs config check-expiration print`), set(`reset`), "wipes the node's cluster state", set(`certs config`)},
	"microk8s":  {set(`status version config help`), set(`reset remove-node leave delete uninstall`), "wipes the node or deletes what it runs", nil},
	"kind":      {set(`get version help`), set(`delete`), "deletes a cluster", nil},
	"k3d":       {nil, set(`delete`), "deletes a cluster", nil},
	"minikube":  {set(`status version ip update-check help profile addons service config list view get`), set(`delete`), "deletes a cluster", set(`profile addons service config`)},
	"vagrant":   {set(`status global-status version ssh-config port help box plugin list`), set(`destroy`), "destroys a machine and its disks", set(`box plugin`)},
	"multipass": {set(`list ls info version find networks aliases help`), set(`delete purge`), "deletes instances", nil},
	"argocd":    {nil, set(`delete rm`), "deletes applications, clusters or projects", nil},
	"flux":      {set(`get logs version check tree stats events`), set(`uninstall delete`), "removes flux or what it deploys", nil},
	// These take their verb as an option.
	"timeshift": {nil, set(`--delete --delete-all --restore`), "deletes snapshots or restores the system over itself", nil},
	"syncoid":   {nil, set(`--force-delete --delete-target-snapshots`), "deletes the target's datasets or snapshots", nil},
	// sanoid --cron takes and prunes; pruning destroys the snapshots its
	// policy no longer keeps (--force-prune even held ones).
	"sanoid": {set(`--monitor-snapshots --monitor-health --monitor-capacity --version --help`),
		set(`--prune-snapshots --cron --force-prune`), "destroys the snapshots its retention policy no longer keeps", nil},
}

// verbDryRuns are the options that make a danger verb of these programs
// only report what it would do.
var verbDryRuns = map[string][]string{
	"borgmatic": {"-n", "--dry-run"}, "btrbk": {"-n", "--dry-run"},
	"proxmox-backup-client": {"--dry-run"}, "proxmox-backup-manager": {"--dry-run"},
	"syncoid": {"--dryrun"}, "sanoid": {"--readonly"},
}

// leadWords returns c's first n words that are not options (the
// subcommand and the words after it), in lower case, and whether one of
// them is known only at run time.
func (c *call) leadWords(n int) ([]string, bool) {
	var out []string
	for _, a := range c.args {
		if len(out) >= n {
			break
		}
		if !a.known {
			return out, true
		}
		if strings.HasPrefix(a.val, "-") {
			continue
		}
		out = append(out, strings.ToLower(a.val))
	}
	return out, false
}

// teardownVerbs classifies the programs of verbRules, and the rules that
// look at options as well as verbs.
func teardownVerbs(c *call) (Tier, string) {
	vals := c.vals()
	switch c.name {
	case "xfs_admin", "btrfstune", "swaplabel", "e2label", "fatlabel", "exfatlabel", "ntfslabel":
		if !allKnown(c.args) {
			// An option known only at run time may be -U or -L.
			c.e.opaque = true
			return TierDestructive, c.name + ": options computed at run time"
		}
	}
	switch c.name {
	case "xfs_admin":
		return xfsAdmin(vals)
	case "lvresize", "lvextend":
		return lvResize(c.name, vals)
	case "btrfstune", "swaplabel", "e2label", "fatlabel", "exfatlabel", "ntfslabel":
		return fsLabel(c.name, vals)
	case "synostgpool", "synostgvolume", "synospace", "timeshift", "syncoid", "sanoid":
		// synospace --enum [-a] lists the storage spaces.
		if c.name == "synospace" && len(c.args) <= 2 && len(c.args) > 0 && c.args[0].known && c.args[0].val == "--enum" &&
			(len(c.args) == 1 || c.args[1].known && c.args[1].val == "-a") {
			return TierRead, "synospace --enum: lists storage spaces"
		}
		// Their verb is an option anywhere on the line.
		rule := verbRules[c.name]
		reads := len(c.args) > 0
		for _, a := range c.args {
			if !a.known {
				c.e.opaque = true
				return TierDestructive, c.name + ": verb computed at run time"
			}
			n, _, _ := strings.Cut(strings.ToLower(a.val), "=")
			if (rule.danger[n] || perlOptionNames(c.name, n, rule.danger)) && !verbDryRun(c) {
				return TierDestructive, c.name + " " + truncate(n, 32) + ": " + rule.why
			}
			reads = reads && rule.read[n]
		}
		if reads {
			return TierRead, c.name + ": reports"
		}
		return TierMutate, c.name + ": changes storage or snapshots"
	case "synouser", "synogroup", "synoshare":
		// These take their verb as the first option.
		rule := verbRules[c.name]
		if len(c.args) == 0 || !c.args[0].known {
			if len(c.args) > 0 {
				c.e.opaque = true
				return TierDestructive, c.name + ": verb computed at run time"
			}
			return TierRead, c.name
		}
		switch v := strings.ToLower(c.args[0].val); {
		case rule.danger[v]:
			return TierDestructive, c.name + " " + v + ": " + rule.why
		case rule.read[v]:
			return TierRead, c.name + " " + v + ": reports"
		}
		return TierMutate, c.name + ": changes DSM accounts or shares"
	}
	if c.name == "microk8s" && len(c.args) > 0 && c.args[0].known && (c.args[0].val == "kubectl" || c.args[0].val == "helm" || c.args[0].val == "ctr") {
		// microk8s kubectl, helm and ctr are those programs with the
		// cluster's own configuration, as k3s's are.
		c.run(c.args)
		return TierRead, "microk8s " + c.args[0].val
	}
	rule := verbRules[c.name]
	words, opaque := c.leadWords(4)
	if opaque && c.name == "pvesh" && len(words) > 0 && (words[0] == "get" || words[0] == "ls" || words[0] == "usage") {
		// pvesh get /nodes/$(hostname)/…: a read whatever the path; its
		// options print differently, and extra operands are refused.
		return TierRead, "pvesh " + words[0] + ": reports (the path is computed at run time)"
	}
	if opaque {
		c.e.opaque = true
		return TierDestructive, c.name + ": subcommand computed at run time"
	}
	for _, w := range words {
		if rule.danger[w] && !verbDryRun(c) {
			return TierDestructive, c.name + " " + truncate(w, 32) + ": " + rule.why
		}
	}
	switch c.name {
	case "kopia":
		// expire and gc only report what they would delete until
		// --delete (kingpin takes --delete=true too).
		for _, v := range vals {
			if v == "--delete" || strings.HasPrefix(v, "--delete=") && !falseValue(strings.TrimPrefix(v, "--delete=")) {
				return TierDestructive, "kopia --delete: deletes expired snapshots or unreferenced blobs"
			}
		}
	case "duplicity":
		// The remove verbs and cleanup list what they would delete until
		// --force; restore --force overwrites the target. argparse takes
		// --force abbreviated.
		if len(words) > 0 && (strings.HasPrefix(words[0], "remove-") || words[0] == "cleanup" || words[0] == "restore") &&
			hasFlag(vals, 0, "--force") {
			return TierDestructive, "duplicity " + truncate(words[0], 32) + " --force: deletes backup sets or overwrites the target"
		}
	case "terragrunt":
		// terragrunt passes terraform's -destroy through (run-all apply
		// -destroy, run -- apply -destroy).
		if destroyFlag(vals) {
			return TierDestructive, "terragrunt -destroy: destroys the managed infrastructure"
		}
	case "azcopy":
		if len(words) > 0 && words[0] == "sync" && deleteDestination(vals) {
			return TierDestructive, "azcopy sync --delete-destination: deletes at the destination what the source lacks"
		}
	case "rdiff-backup":
		if hasFlag(vals, 0, "--remove-older-than") {
			return TierDestructive, "rdiff-backup --remove-older-than: removes backup increments"
		}
	case "tarsnap":
		// -d deletes the archives -f names; --nuke deletes them all.
		if hasFlag(vals, 'd', "--nuke") {
			return TierDestructive, "tarsnap -d: deletes archives"
		}
	case "gh", "glab":
		// gh api -X DELETE (or --method) sends a deleting request.
		if len(words) > 0 && words[0] == "api" {
			for _, m := range c.optVals(c.args, "-X", "--method") {
				if !m.known || strings.EqualFold(m.val, "DELETE") {
					return TierDestructive, c.name + " api -X DELETE: deletes what the API path names"
				}
			}
		}
	case "pvesh":
		// create on a guest's or node's status path stops, resets or
		// reboots it (pvesh create /nodes/N/qemu/ID/status/stop).
		if len(words) > 1 && words[0] == "create" && pveStops(words[1]) {
			return TierDestructive, "pvesh create " + truncate(words[1], 64) + ": stops, resets or reboots a guest or node"
		}
	}
	if len(words) == 0 && len(vals) == 0 {
		return TierMutate, c.name
	}
	if len(words) > 0 && rule.read[words[0]] && (!rule.group[words[0]] || len(words) > 1 && rule.read[words[1]]) {
		return TierRead, c.name + " " + words[0] + ": reports"
	}
	// Until now these were unknown programs, whose arguments are tried as
	// a command they may run (microk8s kubectl …, salt-like runners);
	// knowing their deleting verbs does not make the rest readable.
	if !c.ctx.inArgs {
		if at, awhy := c.argCommand(); at > TierMutate {
			return at, awhy
		}
	}
	return TierMutate, c.name + ": changes the system"
}

// verbDryRun reports whether c's options ask for a dry run (verbDryRuns),
// with every argument known.
func verbDryRun(c *call) bool {
	if !allKnown(c.args) {
		return false
	}
	for _, v := range c.vals() {
		if slices.Contains(verbDryRuns[c.name], v) {
			return true
		}
	}
	return false
}

// perlOptionNames reports whether opt names one of names in the way
// Perl's Getopt::Long reads it for sanoid and syncoid: with one dash or
// two, and as any prefix of the name (--prune for --prune-snapshots). An
// ambiguous prefix is an error there; here it counts as the name.
func perlOptionNames(program, opt string, names map[string]bool) bool {
	if program != "sanoid" && program != "syncoid" || !strings.HasPrefix(opt, "-") {
		return false
	}
	bare := strings.TrimPrefix(strings.TrimPrefix(opt, "-"), "-")
	if len(bare) < 2 {
		return false
	}
	for n := range names {
		if strings.HasPrefix(strings.TrimLeft(n, "-"), bare) {
			return true
		}
	}
	return false
}

// pveStops reports whether a Proxmox API path is a guest's stopping
// status action or a node's status, whose create reboots or shuts it down.
func pveStops(p string) bool {
	p = strings.TrimSuffix(p, "/")
	for _, s := range []string{"stop", "shutdown", "reset", "reboot", "suspend", "hibernate"} {
		if strings.HasSuffix(p, "/status/"+s) {
			return true
		}
	}
	return strings.HasPrefix(strings.TrimPrefix(p, "/"), "nodes/") && strings.Count(strings.Trim(p, "/"), "/") == 2 && strings.HasSuffix(p, "/status")
}

// fsLabel classifies the tools that relabel a file system or give it a
// new UUID: fstab, crypttab and the boot loader find it by these, so a
// change is TierDestructive, as tune2fs's is. Given only the device,
// e2label and the other label tools print the label; swaplabel prints
// without -L or -U; btrfstune always changes.
func fsLabel(name string, vals []string) (Tier, string) {
	ops := operands(vals)
	switch name {
	case "swaplabel":
		if !hasFlag(vals, 'L', "--label") && !hasFlag(vals, 'U', "--uuid") {
			return TierRead, "swaplabel: prints the label and UUID"
		}
	case "e2label", "fatlabel", "exfatlabel", "ntfslabel":
		// fatlabel -r (--reset) removes the label, or with -i gives a new
		// serial, with no NEW operand; ntfslabel's --new-half-serial sets
		// half a serial as --new-serial sets one.
		if len(ops) <= 1 && !hasFlag(vals, 'i', "--volume-serial") && !hasFlag(vals, 0, "--volume-id") &&
			!hasFlag(vals, 'r', "--reset") && !hasFlag(vals, 0, "--new-serial") && !hasFlag(vals, 0, "--new-half-serial") {
			return TierRead, name + ": prints the label"
		}
	}
	return TierDestructive, name + ": changes a file system's label, UUID or features"
}

// falseValue reports whether v spells a boolean false.
func falseValue(v string) bool {
	switch strings.ToLower(v) {
	case "false", "0", "no", "f", "n", "off":
		return true
	}
	return false
}

// destroyFlag reports whether vals hold terraform's -destroy, in either
// dash form and with a value that is not false (the Go flag package takes
// -destroy, --destroy and -destroy=true alike).
func destroyFlag(vals []string) bool {
	for _, v := range vals {
		name, val, eq := strings.Cut(v, "=")
		if (name == "-destroy" || name == "--destroy") && (!eq || !falseValue(val)) {
			return true
		}
	}
	return false
}

// deleteDestination reports whether az's or azcopy's
// --delete-destination is set to anything but false: true deletes, and
// prompt deletes on an answer no one is there to give.
func deleteDestination(vals []string) bool {
	for i, v := range vals {
		name, val, eq := strings.Cut(v, "=")
		if name != "--delete-destination" {
			continue
		}
		if !eq {
			if i+1 >= len(vals) {
				return true
			}
			val = vals[i+1]
		}
		if !falseValue(val) {
			return true
		}
	}
	return false
}

// xfsAdmin classifies xfs_admin, which prints the label and UUID with -l
// and -u and changes everything else: -U gives the file system a new
// UUID (fstab and the boot loader lose it, as with tune2fs -U), -L
// relabels, -O and -j upgrade features in place. As tune2fs is, any
// change is TierDestructive.
func xfsAdmin(vals []string) (Tier, string) {
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" {
			break
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'l', 'u', 'V', 'f':
			case 'r':
				if j == len(v)-1 {
					i++ // -r names the realtime device
				}
				j = len(v)
			default:
				return TierDestructive, "xfs_admin " + truncate(v, 32) + ": changes the file system's UUID, label or features"
			}
		}
	}
	return TierRead, "xfs_admin: prints the label or UUID"
}

// lvResize classifies lvresize and lvextend. lvextend only grows; lvresize
// shrinks with a size of -N, and with a bare size smaller than the
// volume's, which the command line does not show, so only +N is known to
// grow. The file system on a shrunk volume loses what lay past the new
// end. LVM's getopt_long takes long options abbreviated and short ones
// clustered; -t (--test) changes nothing.
func lvResize(name string, vals []string) (Tier, string) {
	if name == "lvextend" {
		return TierMutate, "lvextend: grows a logical volume"
	}
	var sizes []string
	test := false
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" {
			break
		}
		if strings.HasPrefix(v, "--") {
			n, val, eq := strings.Cut(v, "=")
			if longFlag(n, "--test") {
				test = true
			}
			if longFlag(n, "--size") || longFlag(n, "--extents") {
				if !eq && i+1 < len(vals) {
					i++
					val = vals[i]
				}
				sizes = append(sizes, val)
			}
			continue
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			b := v[j]
			if b == 't' {
				test = true
			}
			if !strings.ContainsRune("LliIA", rune(b)) {
				continue
			}
			val := v[j+1:]
			if val == "" && i+1 < len(vals) {
				i++
				val = vals[i]
			}
			if b == 'L' || b == 'l' {
				sizes = append(sizes, val)
			}
			break
		}
	}
	if test {
		return TierMutate, "lvresize --test: changes nothing"
	}
	for _, s := range sizes {
		if !strings.HasPrefix(s, "+") {
			return TierDestructive, "lvresize " + truncate(s, 32) + ": may shrink the volume and cut off its file system"
		}
	}
	return TierMutate, "lvresize: grows a logical volume"
}

// synoWebAPI classifies synowebapi, which calls any DSM web API method
// (--exec api=SYNO.Core.User method=delete): a method that deletes,
// formats, resets or powers off is TierDestructive, any other TierMutate.
func synoWebAPI(c *call) (Tier, string) {
	if synoWebAPIRead(c) {
		return TierRead, "synowebapi: calls a DSM API method that reads"
	}
	for _, a := range c.args {
		if !a.known {
			c.e.opaque = true
			return TierDestructive, "synowebapi: call computed at run time"
		}
		k, v, ok := strings.Cut(a.val, "=")
		if !ok || strings.ToLower(k) != "method" {
			continue
		}
		v = strings.ToLower(v)
		for _, s := range []string{"delete", "remove", "format", "erase", "uninstall", "reset", "destroy", "clear", "shutdown", "reboot", "wipe", "purge"} {
			if strings.Contains(v, s) {
				return TierDestructive, "synowebapi method=" + truncate(v, 32) + ": deletes, wipes, resets or powers off"
			}
		}
	}
	return TierMutate, "synowebapi: calls a DSM API method"
}

// minioOrCommander classifies mc, which is both Midnight Commander (an
// interactive file manager taking directories) and the MinIO client
// (mc rm -r --force alias/bucket empties a bucket). A first word the
// MinIO client knows is read as its command: its deleting verbs as
// infraProgram's, and mirror --remove, which deletes at the target what
// the source lacks.
func minioOrCommander(c *call) (Tier, string) {
	words, opaque := c.leadWords(4)
	if opaque && c.name == "pvesh" && len(words) > 0 && (words[0] == "get" || words[0] == "ls" || words[0] == "usage") {
		// pvesh get /nodes/$(hostname)/…: a read whatever the path; its
		// options print differently, and extra operands are refused.
		return TierRead, "pvesh " + words[0] + ": reports (the path is computed at run time)"
	}
	if opaque {
		c.e.opaque = true
		return TierDestructive, "mc: command computed at run time"
	}
	if len(words) > 0 && minioCommands[words[0]] {
		if words[0] == "mirror" && hasFlag(c.vals(), 0, "--remove") {
			return TierDestructive, "mc mirror --remove: deletes at the target what the source lacks"
		}
		if words[0] == "ilm" && slices.ContainsFunc(words[1:], func(w string) bool { return w == "add" || w == "import" || w == "edit" }) {
			return TierDestructive, "mc ilm: sets a bucket's lifecycle rules, whose expiry deletes objects"
		}
		return infraProgram(c)
	}
	return TierMutate, "mc: interactive program that can run commands or signal processes"
}

// minioCommands are the MinIO client's commands.
var minioCommands = set(`alias ls mb rb cp mv rm mirror cat head pipe find sql stat tree du diff
	retention legalhold encrypt event watch undo anonymous tag ilm version replicate admin idp
	license support ping ready od batch quota share cors get put ready`)
