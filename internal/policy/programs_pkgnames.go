package policy

import (
	"path"
	"regexp"
	"strings"
)

// essentialPackage reports whether a package operand of a removal names an
// essential package in any spelling the package managers take: a version
// (apt's openssh-server=1:9.6p1, rpm's sudo-1.9), a release
// (openssh-server/jammy), an architecture (:amd64, .x86_64), a glob
// ('openssh-*', 'sudo*') or an apt regular expression (^openssh) that
// matches one, and any kernel image. A removal thereby takes the host's
// SSH, sudo, init, boot or the volumes root lives on, whichever spelling
// carried it.
func essentialPackage(o string) bool {
	if o == "" {
		return false
	}
	name := o
	if i := strings.IndexAny(name, "=/"); i > 0 {
		name = name[:i]
	}
	if i := strings.IndexByte(name, ':'); i > 0 {
		name = name[:i]
	}
	for _, arch := range []string{".x86_64", ".noarch", ".i686", ".aarch64", ".armv7hl", ".ppc64le", ".s390x"} {
		name = strings.TrimSuffix(name, arch)
	}
	if essentialPackages[name] || isKernelPackage(name) {
		return true
	}
	if strings.ContainsAny(name, "*?[") {
		for p := range essentialPackages {
			if ok, _ := path.Match(name, p); ok {
				return true
			}
		}
		ok, _ := path.Match(name, "linux-image-generic")
		return ok
	}
	if strings.ContainsAny(name, "^$.|()\\") {
		// apt takes a name with regular expression characters as one
		// (g++ and libstdc++6 are names, so + alone is not taken so).
		re, err := regexp.Compile(name)
		if err != nil {
			return false
		}
		for p := range essentialPackages {
			if re.MatchString(p) {
				return true
			}
		}
		return re.MatchString("linux-image-generic")
	}
	return false
}

// isKernelPackage reports whether name is a kernel image package.
func isKernelPackage(name string) bool {
	return strings.HasPrefix(name, "linux-image") || strings.HasPrefix(name, "kernel-core") || name == "linux" || name == "linux-lts"
}

// rpmEssential is essentialPackage for rpm and dnf operands, which may
// carry a version after the name (sudo-1.9.5p2-10.el9): a name that is an
// essential one followed by a dash and a digit counts.
func rpmEssential(o string) bool {
	if essentialPackage(o) {
		return true
	}
	for i := 0; i+1 < len(o); i++ {
		if o[i] == '-' && o[i+1] >= '0' && o[i+1] <= '9' && essentialPackages[o[:i]] {
			return true
		}
	}
	return false
}

// removalOperand returns the package an install operand removes, or "":
// apt-get install sudo- removes sudo, and zypper install takes !sudo,
// ~sudo and (after --) -sudo as removals.
func removalOperand(o string) string {
	switch {
	case len(o) < 2:
	case strings.HasSuffix(o, "-") && !strings.HasPrefix(o, "-"):
		return strings.TrimSuffix(o, "-")
	case o[0] == '!' || o[0] == '~' || o[0] == '-':
		return o[1:]
	}
	return ""
}

// essentialPackages break the system or cut access when removed.
var essentialPackages = set(`systemd libc6 glibc openssh-server openssh sudo apt dpkg coreutils bash
	util-linux login passwd base-files base-passwd init systemd-sysv linux-image-generic grub-pc
	grub-efi-amd64 grub2 kernel rpm dnf yum pacman apk-tools busybox python3 tailscale network-manager
	ifupdown netplan.io libpam-modules e2fsprogs mount dropbear ssh lvm2 mdadm cryptsetup
	cryptsetup-initramfs zfsutils-linux zfs iproute2 initramfs-tools dracut linux-generic shim-signed
	grub-efi-amd64-signed systemd-boot musl alpine-baselayout openrc libc procd netifd`)
