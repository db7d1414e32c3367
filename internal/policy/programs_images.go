package policy

// The systemd tools' --image=PATH attaches the image to a loop device and
// mounts it to read what is inside, even for a listing (systemctl
// --image=x.img list-unit-files, coredumpctl --image list,
// systemd-tmpfiles --image --cat-config): the mount is a change to the
// host, of a file system the agent may have written, so the form is
// tier 2 as journalctl's and systemd-analyze's are.

// imageMount returns tier 2 and why when c names an image to mount with
// --image, in any spelling getopt_long takes, and TierRead otherwise.
func imageMount(c *call) (Tier, string) {
	if len(c.optVals(c.args, "--image")) > 0 {
		return TierMutate, c.name + " --image: mounts a disk image"
	}
	return TierRead, ""
}
