package confine

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// enteredNamespaces are the namespaces of the target process a worker
// joins (host_namespace: pid1): its files, host name, IPC and network.
// The PID namespace is shared already (pid: host).
var enteredNamespaces = []struct {
	name string
	flag int
}{{"uts", unix.CLONE_NEWUTS}, {"ipc", unix.CLONE_NEWIPC}, {"net", unix.CLONE_NEWNET}, {"mnt", unix.CLONE_NEWNS}}

// enter moves the calling thread into pid's namespaces. The thread first
// stops sharing its root and working directory with the rest of warden
// (joining a mount namespace needs that), so only this thread, and the
// programs it starts, see the target's files.
func enter(pid int) error {
	fds := make([]int, 0, len(enteredNamespaces))
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	for _, ns := range enteredNamespaces {
		fd, err := unix.Open(fmt.Sprintf("/proc/%d/ns/%s", pid, ns.name), unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open pid %d's %s namespace: %w", pid, ns.name, err)
		}
		fds = append(fds, fd)
	}
	if err := unix.Unshare(unix.CLONE_FS); err != nil {
		return fmt.Errorf("unshare file-system attributes: %w", err)
	}
	for i, ns := range enteredNamespaces {
		if err := unix.Setns(fds[i], ns.flag); err != nil {
			return fmt.Errorf("enter pid %d's %s namespace: %w", pid, ns.name, err)
		}
	}
	return nil
}

// mount is one line of a mountinfo file: which part of which file system
// is mounted where.
type mount struct {
	dev   string // major:minor of the file system
	root  string // the directory of the file system mounted
	point string // where it is mounted
}

// mountInfo reads /proc/<pid>/mountinfo ("thread-self" for the mounts
// the calling thread sees).
func mountInfo(pid string) ([]mount, error) {
	f, err := os.Open("/proc/" + pid + "/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []mount
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		// 36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			continue
		}
		out = append(out, mount{dev: f[2], root: unescapeMount(f[3]), point: unescapeMount(f[4])})
	}
	return out, sc.Err()
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space, …).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hostPaths finds where warden's paths (in warden's own mount namespace)
// are in pid's: the same file system and directory, wherever pid's
// namespace mounts it, every place it does. A path on a file system pid's
// namespace does not mount is returned in missing: no path there reaches
// it (only /proc/<warden>/root does, which the rules do not cover).
func hostPaths(pid int, paths []string) (found, missing []string, err error) {
	ours, err := mountInfo("thread-self")
	if err != nil {
		return nil, nil, fmt.Errorf("warden's mounts: %w", err)
	}
	theirs, err := mountInfo(strconv.Itoa(pid))
	if err != nil {
		return nil, nil, fmt.Errorf("pid %d's mounts: %w", pid, err)
	}
	seen := map[string]bool{}
	for _, p := range paths {
		m, ok := mountOf(ours, p)
		if !ok {
			missing = append(missing, p)
			continue
		}
		rel := filepath.Join(m.root, strings.TrimPrefix(p, m.point))
		n := 0
		for _, t := range theirs {
			if t.dev != m.dev || !within(rel, t.root) {
				continue
			}
			hp := filepath.Join(t.point, strings.TrimPrefix(rel, t.root))
			n++
			if !seen[hp] {
				seen[hp] = true
				found = append(found, hp)
			}
		}
		if n == 0 {
			missing = append(missing, p)
		}
	}
	return found, missing, nil
}

// mountOf returns the mount p is on: the last-mounted of those with the
// longest mount point at or above p.
func mountOf(mounts []mount, p string) (mount, bool) {
	var best mount
	found := false
	for _, m := range mounts {
		if within(p, m.point) && (!found || len(m.point) >= len(best.point)) {
			best, found = m, true
		}
	}
	return best, found
}

// HostPaths returns where paths (in warden's own mount namespace) are in
// pid's namespaces, every place they are mounted there (a volume's
// directory on the host, /var/lib/docker/volumes/…/_data). Tools that read
// pid's files as warden itself (the file and snapshot tools in the
// container shape) refuse these as the kernel refuses them to programs.
// A path on a file system pid's namespaces do not mount has none.
func HostPaths(pid int, paths []string) ([]string, error) {
	found, _, err := hostPaths(pid, paths)
	return found, err
}

// hostPaths is hostPaths for c's target, logging what it leaves out. An
// error means the rules could not name warden's files there, so nothing
// may be started.
func (c *Confiner) hostPaths(paths []string) ([]string, error) {
	found, missing, err := hostPaths(c.enter, paths)
	if err != nil {
		return nil, fmt.Errorf("cannot find warden's files in pid %d's namespaces: %w", c.enter, err)
	}
	if len(missing) > 0 {
		c.log.Debug("warden's files on file systems the entered namespaces do not mount: no path there reaches them", "paths", missing)
	}
	for _, p := range found {
		if p == "/" {
			return nil, fmt.Errorf("warden's files are the root of pid %d's namespaces", c.enter)
		}
	}
	return found, nil
}

// lexical returns the absolute, cleaned, de-duplicated forms of paths
// without looking at any file system: for paths of namespaces warden has
// not joined.
func lexical(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		if p = filepath.Clean(p); !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
