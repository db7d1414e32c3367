package policy

import (
	"path"
	"strings"
)

// Workloads that are the host's root: cluster pods, LXD and Incus
// containers, Proxmox guests and libvirt domains given the host.
//
// Cluster workloads that are the node's root: a pod given the host's
// process or IPC namespace, its file system or privileged mode runs as
// root on the node it lands on, so kubectl run asking for one is
// TierDestructive as docker run --privileged is, and so is a manifest
// (kubectl apply/create/replace, helm install/upgrade) the agent could
// have written, which codeSources reads as it reads a build's code, or
// one fetched from the network. A manifest of the operator's
// (/srv/k8s/app.yaml) keeps TierMutate.

// podHostMarkers are what in a pod's spec gives it the node.
var podHostMarkers = []string{"privileged", "hostpid", "hostipc", "hostpath", "hostnetwork", "sys_admin"}

// kubeHostControl says why a kubectl call may run a workload that is
// root on a node, or returns "".
func kubeHostControl(c *call, ops []string) string {
	if len(ops) == 0 {
		return ""
	}
	switch {
	case c.name == "kubectl" && ops[0] == "run":
		for _, a := range c.args {
			v := strings.ToLower(a.val)
			if a.known && (v == "--privileged" || v == "--privileged=true") {
				return "kubectl run --privileged: the pod is root on its node"
			}
		}
		for _, o := range c.optVals(c.args, "--overrides") {
			if !o.known {
				return "kubectl run --overrides computed at run time can make the pod root on its node"
			}
			l := strings.ToLower(o.val)
			for _, m := range podHostMarkers {
				if strings.Contains(l, m) {
					return "kubectl run --overrides " + m + ": the pod is root on its node"
				}
			}
		}
	case c.name == "kubectl" && (ops[0] == "apply" || ops[0] == "create" || ops[0] == "replace"):
		// Files the agent could have written are codeSources'; one
		// fetched from the network is anyone's.
		for _, f := range c.optVals(c.args, "-f", "--filename", "-k", "--kustomize") {
			if strings.HasPrefix(f.val, "http://") || strings.HasPrefix(f.val, "https://") {
				return "kubectl " + ops[0] + ": its manifest " + truncate(f.val, 64) + " is fetched from the network, and a manifest can run a pod that is root on its node"
			}
		}
	}
	return ""
}

// lxdHostControl says why an lxc or incus command makes an instance root
// on the host, or returns "": security.privileged (the container's root
// is the host's), raw.lxc or raw.apparmor (any LXC key, any profile), or
// a disk device whose source is the host's root or /etc.
func lxdHostControl(c *call) string {
	vals := c.vals()
	for i, v := range vals {
		l := strings.ToLower(v)
		key, val, eq := strings.Cut(l, "=")
		if !eq && i+1 < len(vals) {
			val = strings.ToLower(vals[i+1])
		}
		switch {
		case key == "security.privileged" && (val == "true" || val == "1" || val == "yes"):
			return c.name + " security.privileged: the container's root is the host's"
		case key == "raw.lxc" || key == "raw.apparmor" || key == "raw.seccomp" || key == "raw.qemu":
			return c.name + " " + key + ": raw configuration can give the instance the host"
		case key == "source" && eq && (val == "/" || strings.TrimRight(val, "/") == "/etc" || strings.TrimRight(val, "/") == "/root"):
			return c.name + " disk source=" + val + ": hands the host's files to the instance"
		}
	}
	return ""
}

// guestHandover says why a Proxmox or libvirt command hands the host to a
// guest, or returns "": a hook script Proxmox runs as root on the host at
// each start and stop (qm/pct --hookscript), a host block device as a
// VM's disk (qm set -scsi1 /dev/sda, virsh attach-disk VM /dev/sda) or a
// container's device, the host's root, /etc or /root as a container's
// mount point (pct set -mp0 /,mp=/host), and a domain or device
// definition the agent could have written (virsh define /tmp/x.xml: its
// qemu:commandline runs anything as root).
func guestHandover(c *call, first string, ops []string) string {
	switch c.name {
	case "qm", "pct":
		if first != "set" && first != "create" && first != "restore" {
			return ""
		}
		for i, a := range c.args {
			name := strings.TrimLeft(a.val, "-")
			if !a.known || !strings.HasPrefix(a.val, "-") {
				continue
			}
			name, val, eq := strings.Cut(name, "=")
			mp := strings.HasPrefix(name, "mp") && allDigits(name[2:])
			risky := name == "hookscript" || guestDiskOpt(name) || mp
			if !eq && i+1 < len(c.args) {
				val = c.args[i+1].val
				if !c.args[i+1].known && risky {
					return c.name + " " + first + " --" + name + ": a value computed at run time can hand the host to the guest"
				}
			}
			src, _, _ := strings.Cut(val, ",")
			switch {
			case name == "hookscript":
				return c.name + " --hookscript: a script Proxmox runs as root on the host at every start and stop"
			case guestDiskOpt(name) && strings.HasPrefix(src, "/dev/"):
				return c.name + " --" + name + " " + truncate(src, 64) + ": hands a host block device to the guest"
			case mp && hostRootDir(src):
				return c.name + " --" + name + " " + truncate(src, 64) + ": mounts the host's " + src + " into the container"
			}
		}
	case "virsh":
		switch first {
		case "attach-disk":
			if len(ops) > 2 && strings.HasPrefix(ops[2], "/dev/") {
				return "virsh attach-disk " + truncate(ops[2], 64) + ": hands a host block device to the guest"
			}
		case "define", "create", "attach-device", "update-device", "net-define", "pool-define":
			at := 1 // the definition; attach-device and update-device name the domain first
			if first == "attach-device" || first == "update-device" {
				at = 2
			}
			if len(ops) > at {
				if why := codePathAgent(arg{val: ops[at], known: true}); why != "" {
					return "virsh " + first + ": its definition " + why + ", and a definition can run anything as root on the host"
				}
			}
		}
	}
	return ""
}

// guestDiskOpt reports whether a qm or pct option names a guest's disk
// or device: scsiN, sataN, virtioN, ideN, efidisk0, tpmstate0, rootfs,
// devN.
func guestDiskOpt(name string) bool {
	for _, p := range []string{"scsi", "sata", "virtio", "ide", "efidisk", "tpmstate", "dev", "unused"} {
		if rest, ok := strings.CutPrefix(name, p); ok && allDigits(rest) {
			return true
		}
	}
	return name == "rootfs"
}

// hostRootDir reports whether a mount point's source is the host's root,
// /etc or /root (or a directory above them).
func hostRootDir(src string) bool {
	switch strings.TrimRight(path.Clean(src), "/") {
	case "", "/etc", "/root":
		return strings.HasPrefix(src, "/")
	}
	return false
}
