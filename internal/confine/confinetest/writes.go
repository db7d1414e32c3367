// Package confinetest holds the confinement suite's cases, so that every
// runner that confines programs is held to the same ones: warden's own
// (package confine) and its agent's on a remote host (package agenthost).
package confinetest

// Write is one way to change the file system. Its script writes under
// the directory $T, which holds a file "existing" and a directory "sub".
type Write struct {
	Name   string
	Script string
}

// Writes are ways to change the file system that a classifier reading the
// command line might take for reads; the kernel must refuse each at the
// Read, Temp and Inspect levels.
func Writes() []Write {
	return []Write{
		{"create by redirect", `echo x > $T/new`},
		{"append", `echo x >> $T/existing`},
		{"truncate by redirect", `: > $T/existing`},
		{"truncate", `truncate -s 0 $T/existing`},
		{"rename", `mv $T/existing $T/moved`},
		{"hard link", `ln $T/existing $T/hardlink`},
		{"symlink", `ln -s /etc/passwd $T/symlink`},
		{"remove", `rm -f $T/existing`},
		{"mkdir", `mkdir $T/newdir`},
		{"rmdir", `rmdir $T/sub`},
		{"fifo", `mkfifo $T/fifo`},
		{"socket file", `python3 -c 'import os,socket; socket.socket(socket.AF_UNIX).bind(os.environ["T"]+"/sock")'`},
		{"preallocate", `fallocate -l 1M $T/existing`},
		{"touch new", `touch $T/touched`},
		{"touch times", `touch -d 2001-01-01 $T/existing`},
		{"chmod", `chmod 0777 $T/existing`},
		{"chown", `chown "$(id -u):$(id -g)" $T/existing && chmod g+w $T/existing`},
		{"file flags", `chattr +d $T/existing`},
		{"extended attribute", `python3 -c 'import os; os.setxattr(os.environ["T"]+"/existing","user.warden",b"x")'`},
		{"cp", `cp /etc/passwd $T/copied`},
		{"dd", `dd if=/dev/zero of=$T/existing bs=1 count=1 conv=notrunc`},
		{"tee", `echo x | tee $T/teed`},
		{"sed in place", `sed -i s/original/changed/ $T/existing`},
		{"tar extract", `tar -C /etc -cf - passwd | tar -C $T -xf -`},
		{"python", `python3 -c 'import os; open(os.environ["T"]+"/py","w").write("x")'`},
		{"through /proc/self/root", `echo x > /proc/self/root$T/viaproc`},
		// Temporary directories are writable at Temp: a name made there
		// must not reach a file elsewhere.
		{"through a temporary symlink", `l=/tmp/warden-wl$$; ln -s $T/existing $l; echo x >> $l; rm -f $l`},
		{"through a temporary hard link", `l=/tmp/warden-wh$$; ln $T/existing $l && echo x >> $l; rm -f $l`},
		{"rename into a temporary directory", `l=/tmp/warden-wm$$; mv $T/existing $l; rm -f $l`},
		{"through a duplicated descriptor", `exec 3>>$T/existing; echo x >&3`},
		{"script from a descriptor", `printf 'echo x > $T/fromfd\n' | sh /dev/stdin`},
		{"arithmetic substitution", `x='a[$(echo x > $T/arith)]'; bash -c 'echo $(( x ))' 2>/dev/null; bash -c "y='$x'; echo \$(( y ))"`},
		{"background survivor", `(sleep 0.2; echo x > $T/late) & wait`},
	}
}

// Metadata reports the writes only a read-only mount holds at Temp:
// Landlock does not cover a file's mode, owner, times, flags and extended
// attributes.
func Metadata(name string) bool {
	return name == "touch times" || name == "chmod" || name == "chown" || name == "file flags" || name == "extended attribute"
}

// AcrossMounts reports the writes that reach the target through a hard
// link made in /tmp. With a mount namespace the target's directory lies
// in one pinned above warden's own paths, a mount of its own, so even an
// approved link fails as across file systems: the control cannot land.
func AcrossMounts(name string) bool {
	return name == "through a temporary hard link"
}
