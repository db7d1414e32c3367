package policy

import (
	"path"
	"strings"
)

// A container that controls the host runs its command on the host: its
// words meet the deny list as a payload's do.

// hostControlRuns has the deny list read what a privileged or host-pid
// container runs: reboot there reboots the host, kill -9 -1 kills the
// host's processes. What a container given the host's root or a system
// directory runs is read with the mount's target named by its source:
// -v /:/host alpine rm -rf /host is rm -rf / on the host.
func hostControlRuns(e *eval, rest []string) {
	for _, spec := range containerMounts(rest) {
		src, dst := bindSource(spec), bindTarget(spec)
		if !strings.HasPrefix(dst, "/") || len(dst) < 2 || !criticalPath(src) && !isRoot(src) {
			continue
		}
		e.scanText(mapMountTarget(strings.Join(rest, " "), dst, src))
		if e.denied {
			return
		}
	}
	for k, r := range rest {
		lr, next := strings.ToLower(r), ""
		if k+1 < len(rest) {
			next = strings.ToLower(rest[k+1])
		}
		if lr == "--privileged" || lr == "--privileged=true" || strings.HasPrefix(lr, "--pid") && hostNamespace(lr, next) {
			e.scanText(strings.Join(rest[k+1:], " "))
			return
		}
	}
}

// mapMountTarget rewrites the paths under dst in text (a container's
// command: rm -rf /host/usr, sh -c 'rm -rf /host/*') to the host paths
// under src they name.
func mapMountTarget(text, dst, src string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, dst)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		end := i + len(dst)
		before := i == 0 || strings.IndexByte(" '\"=", text[i-1]) >= 0
		after := end == len(text) || strings.IndexByte("/ '\";", text[end]) >= 0
		b.WriteString(text[:i])
		if before && after {
			rest := text[end:]
			j := strings.IndexAny(rest, " '\";")
			if j < 0 {
				j = len(rest)
			}
			b.WriteString(path.Join(src, rest[:j]))
			text = rest[j:]
			continue
		}
		b.WriteString(dst)
		text = text[end:]
	}
}
