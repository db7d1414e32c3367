package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotWrapperRoots: chroot, sudo -R, unshare -R, nsenter --root
// and start-stop-daemon --chroot run their command from the root they
// name, so chroot /tmp/x ls runs the ls a tier 1 write put in
// /tmp/x/usr/bin, as root; and unshare --wd, nsenter --wd, daemonize -c
// and start-stop-daemon --chdir run it in the directory they name, as
// env -C does, so git status there reads that directory's .git/config.
func TestBlindSpotWrapperRoots(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/tmp", "$d", "\"$(mktemp -d)\"", "/tmp/x/../y", "/private/tmp/x"} {
		for _, f := range []string{"chroot %s ls", "chroot %s /bin/true", "chroot --userspec=1:1 %s id", "chroot -- %s cat /etc/os-release",
			"sudo chroot %s ls", "sudo -R %s ls", "sudo -R%s ls", "sudo --chroot=%s ls", "sudo --chroot %s ls", "sudo --chr=%s ls",
			"sudo -nR %s ls", "sudo -u root -R %s id", "unshare -R %s ls", "unshare -R%s ls", "unshare --root=%s ls", "unshare --root %s ls",
			"unshare -m -R %s ls", "start-stop-daemon --start --chroot %s --exec /usr/bin/ls", "start-stop-daemon -S -r %s -x /bin/ls",
			"unshare --wd=%s git status", "unshare -w %s git log -p", "unshare -w%s python3 -m json.tool f", "daemonize -c %s /usr/bin/git status",
			"start-stop-daemon --start --chdir %s --exec /usr/bin/git -- status", "start-stop-daemon -S -d %s -x /usr/bin/git -- log -p",
			"timeout 9 chroot %s ls", "chpst -/ %s ls", "chpst -u nobody -/ %s id", "chpst -C %s git status"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
		if !strings.Contains(d, "\"") && !strings.HasPrefix(d, "$") {
			cmds = append(cmds, "nsenter --root="+d+" ls", "nsenter -r"+d+" ls", "nsenter --wd="+d+" git status", "nsenter -w"+d+" git status")
		}
	}
	cmds = append(cmds, "cd /tmp/x && chroot . ls", "cd /tmp/x && sudo -R . ls", "cd / && chroot tmp/x ls", "cd /tmp && unshare -R x ls")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"chroot a jail", "chroot /srv/jail ls", TierMutate},
		{"chroot a mounted system", "chroot /mnt apt list --installed", TierMutate},
		{"sudo -R a jail", "sudo -R /srv/jail ls", TierRead},
		{"sudo", "sudo ls /root", TierRead},
		{"sudo -u", "sudo -u bob ls", TierRead},
		{"unshare", "unshare -m ls", TierMutate},
		{"unshare --wd elsewhere", "unshare --wd /srv/app git status", TierMutate},
		{"nsenter a container", "nsenter -t 1 -m -u ls", TierMutate},
		{"start-stop-daemon elsewhere", "start-stop-daemon --start --chdir /srv/app --exec /usr/bin/git -- status", TierMutate},
		{"chpst an operator's root", "chpst -/ /srv/x ls", TierMutate},
	})
}

// TestBlindSpotSandboxRoots: sandboxes that build their command's root
// from host paths run what a tier 1 write left when a temporary directory
// becomes the root or a system directory in it: bwrap --ro-bind /tmp/x /
// runs /tmp/x/bin/ls, --ro-bind /tmp/x /usr or an overlay layer from
// there replaces the programs, --symlink puts one in their place; proot
// -r, -R and -b, firejail --chroot and arch-chroot likewise; proot -w
// starts its program in the directory it names, as env -C does.
func TestBlindSpotSandboxRoots(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/private/tmp/x", "/tmp/x/../y"} {
		for _, f := range []string{"bwrap --ro-bind %s / /bin/ls", "bwrap --bind %s / ls", "bwrap --ro-bind / / --ro-bind %s /usr ls",
			"bwrap --ro-bind / / --ro-bind %s/bin /usr/bin id", "bwrap --ro-bind / / --ro-bind %s/etc /etc ls", "bwrap --ro-bind / / --ro-bind-try %s /lib64 ls",
			"bwrap --dev-bind / / --bind %s /usr/local/bin ls", "bwrap --ro-bind / / --tmpfs /usr/local/bin --symlink %s/e /usr/local/bin/ls ls",
			"bwrap --overlay-src %s --tmp-overlay /usr ls", "proot -r %s ls", "proot -R %s ls", "proot --rootfs=%s ls", "proot -b %s:/usr ls",
			"proot -b %s/bin:/bin id", "firejail --chroot=%s ls", "arch-chroot %s ls", "sudo arch-chroot %s pacman -Q",
			"proot -w %s git status", "proot --cwd=%s git log -p", "proot --pwd %s cargo -V"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"bwrap over the host's root", "bwrap --ro-bind / / ls", TierRead},
		{"bwrap an operator's root", "bwrap --ro-bind /srv/root / /bin/ls", TierRead},
		{"bwrap a temporary work dir", "bwrap --ro-bind / / --bind /tmp/x /tmp/x ls", TierMutate},
		{"bwrap a temporary data dir read-only", "bwrap --ro-bind / / --ro-bind /tmp/x /data ls", TierRead},
		{"proot bind of data", "proot -b /tmp/x/data:/data ls", TierMutate},
		{"arch-chroot an operator's mount", "arch-chroot /mnt ls", TierMutate},
		{"firejail an operator's chroot", "firejail --chroot=/srv/c ls", TierMutate},
	})
}

// TestBlindSpotCmakeToolWrappers: cmake -E chdir DIR CMD runs CMD in DIR,
// as env -C does, and cmake -E env NAME=VALUE CMD sets CMD's environment,
// as env does: both were read for the command alone.
func TestBlindSpotCmakeToolWrappers(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/c", "/dev/shm/q", "$d", "\"$(mktemp -d)\""} {
		for _, f := range []string{"cmake -E chdir %s git status", "cmake -E chdir %s git log -p", "cmake -E chdir %s cargo -V",
			"cmake -E chdir %s python3 -m json.tool f", "cmake -E chdir %s ansible-inventory --list", "sudo cmake -E chdir %s git status"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "cmake -E env LD_PRELOAD=/tmp/x.so ls", "cmake -E env PATH=/tmp/x:/usr/bin ls", "cmake -E env GIT_DIR=/tmp/x/.git git log",
		"cmake -E env RUSTUP_TOOLCHAIN=/tmp/x cargo -V", "cmake -E env --modify=PATH=path_list_prepend:/tmp/x ls",
		"cmake -E env --unset=HOME LD_PRELOAD=/tmp/x.so ls", "cmake -E env PYTHONPATH=/tmp/x python3 -c 1")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"chdir elsewhere", "cmake -E chdir /srv/app git status", TierRead},
		{"a plain variable", "cmake -E env FOO=1 git status", TierRead},
		{"a locale", "cmake -E env LANG=C ls", TierRead},
	})
}

// TestWrapperRootsAcrossPieces: the roots a wrapper names in one piece
// of a script past pieceMin are where the files a later piece names are
// looked for too, as in one walk: an opaque call's /job.sh is also
// ROOT/job.sh.
func TestWrapperRootsAcrossPieces(t *testing.T) {
	d, p := lastingDir(t, "roots-pieces-")
	writeUnder(t, d, "r/job.sh", "#!/bin/sh\nreboot\n")
	pad := strings.Repeat("echo padding the call between the chroot and the run\n", 2*pieceMin/53)
	wantDenied(t, p, "", []string{"chroot " + d + "/r true\n" + pad + "read -r x; eval \"$x\" /job.sh\n"})
}
