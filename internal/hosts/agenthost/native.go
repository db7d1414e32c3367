package agenthost

import (
	"context"
	"path"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/runner"
)

// nativeFiles are the files warden's typed probes print with cat that
// the agent reads itself on the far side instead of starting cat there:
// the host-wide files of /proc the host tools parse, and the files that
// name the system. Nothing else is read this way, whatever a probe asks.
var nativeFiles = map[string]bool{
	"/proc/uptime": true, "/proc/meminfo": true, "/proc/cpuinfo": true, "/proc/stat": true,
	"/proc/diskstats": true, "/proc/loadavg": true, "/proc/mdstat": true, "/proc/version": true,
	"/proc/filesystems": true, "/proc/partitions": true, "/proc/swaps": true, "/proc/cmdline": true,
	"/proc/vmstat":    true,
	"/etc/os-release": true, "/usr/lib/os-release": true, "/etc/hostname": true,
	"/etc/openwrt_release": true, "/etc/openwrt_version": true, "/etc/debian_version": true,
}

// nativeFile is the file argv only prints, if the agent may read it.
func nativeFile(argv []string) (string, bool) {
	if len(argv) != 2 || argv[0] != "cat" || !nativeFiles[argv[1]] {
		return "", false
	}
	return argv[1], true
}

// maxHops bounds the symlinks followed to a native file (/etc/os-release
// is one to ../usr/lib/os-release).
const maxHops = 4

// readNative answers a probe that prints p with the file's bytes, read on
// the far side through the agent's file operations, as `cat p` would
// print them. ok is false when the read did not give the whole file (it
// is missing, unreadable, not a regular file, or larger than the
// request's output cap): the caller then runs the probe as a command, so
// every answer other than the file's bytes is the command's own.
func readNative(ctx context.Context, fsys hostfs.FS, p string, req runner.Request) (runner.Result, bool) {
	start := time.Now()
	limit := req.MaxBytes
	if limit <= 0 {
		limit = runner.DefaultMaxBytes
	}
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	for hops := 0; hops <= maxHops; hops++ {
		info, err := fsys.Lstat(ctx, p)
		if err != nil {
			return runner.Result{}, false
		}
		if info.Type == hostfs.TypeSymlink {
			target, err := fsys.Readlink(ctx, p)
			if err != nil || target == "" {
				return runner.Result{}, false
			}
			if !strings.HasPrefix(target, "/") {
				target = path.Join(path.Dir(p), target)
			}
			p = path.Clean(target)
			continue
		}
		data, _, err := fsys.ReadAt(ctx, p, 0, limit+1)
		if err != nil || len(data) > limit {
			return runner.Result{}, false
		}
		return runner.Result{Stdout: data, TotalBytes: int64(len(data)), Duration: time.Since(start)}, true
	}
	return runner.Result{}, false
}
