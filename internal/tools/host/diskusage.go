package host

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/relay"
)

// DiskUsage is disk_usage's result.
type DiskUsage struct {
	Filesystems []Filesystem `json:"filesystems"`
	// NotAnswering are the mounts df could not measure in time: a hard
	// NFS mount whose server is gone, a FUSE daemon that stopped.
	NotAnswering []Mount `json:"not_answering,omitempty" jsonschema:"Mounts that did not answer within the wait (a gone NFS server, a stopped FUSE daemon); the other file systems are measured one by one."`
	Probes       []Probe `json:"probes"`
}

// Mount is one mount of /proc/self/mountinfo.
type Mount struct {
	Source string `json:"source"`
	Type   string `json:"type"`
	Mount  string `json:"mount"`
}

var (
	dfArgv     = []string{"df", "-PkT"}
	dfiArgv    = []string{"df", "-Pi"}
	mountsArgv = []string{"cat", "/proc/self/mountinfo"}
	// dfMountArgv stands, for the policy and the audit log, for the df
	// of each mount that disk_usage runs when df of all of them does not
	// finish.
	dfMountArgv = []string{"df", "-PkT", "--", "$mount"}
)

const (
	// maxMountLooks is how many mounts are measured at once.
	maxMountLooks = 4
	// maxDFWait bounds each df of disk_usage: a df of healthy mounts
	// takes well under a second.
	maxDFWait = 10 * time.Second
)

func (d *Deps) planDiskUsage(ctx context.Context, _ *relay.Call, a *HostArg) (*relay.Plan, error) {
	return d.read(ctx, a.Host, [][]string{dfArgv, dfiArgv, mountsArgv, dfMountArgv}, func(ctx context.Context, t *hosts.Host) *relay.Outcome {
		// df exits 1 when one mount (a stale NFS, a FUSE of another user)
		// cannot be read but still prints the rest. One mount that does
		// not answer at all holds df up, and with it every other: past
		// the wait each mount is measured on its own.
		wait := min(d.Wait, d.Timeout, maxDFWait)
		o := d.execWithin(ctx, t, dfArgv, wait, 1)
		res := DiskUsage{Filesystems: []Filesystem{}, Probes: []Probe{o.probe()}}
		dfi := dfiArgv
		switch {
		case o.timedOut:
			var why string
			if res.Filesystems, res.NotAnswering, why = d.eachMount(ctx, t, wait, &res.Probes); why != "" {
				return &relay.Outcome{Status: relay.StatusError, Reason: o.why + "; " + why, Result: res}
			}
			if len(res.Filesystems) == 0 {
				return &relay.Outcome{Status: relay.StatusError, Reason: o.why + "; no mount answered", Result: res}
			}
			// df -Pi of every mount would wait as long: only those that answered.
			dfi = []string{"df", "-Pi", "--"}
			for _, f := range res.Filesystems {
				dfi = append(dfi, f.Mount)
			}
		case !o.ok():
			return &relay.Outcome{Status: relay.StatusError, Reason: o.why, Result: res}
		default:
			res.Filesystems = parseDF(o.stdout)
		}
		oi := d.execWithin(ctx, t, dfi, wait, 1)
		res.Probes = append(res.Probes, oi.probe())
		if oi.ok() {
			in := parseDFInodes(oi.stdout)
			for i := range res.Filesystems {
				f := &res.Filesystems[i]
				if u, ok := in[f.Mount]; ok && u.total > 0 {
					f.Inodes, f.InodesUsed, f.InodesFree = u.total, u.used, u.free
					f.InodeUsePct = round1(float64(u.used) * 100 / float64(u.total))
				}
			}
		}
		if len(res.Filesystems) == 0 {
			return &relay.Outcome{Status: relay.StatusError, Reason: "df printed no file systems", Result: res}
		}
		return &relay.Outcome{Result: res}
	})
}

// eachMount measures every mount df shows by default, each with a df of
// its own bounded by wait, a few at a time; it returns what answered and
// the mounts that did not, or why the mounts could not be listed.
func (d *Deps) eachMount(ctx context.Context, t *hosts.Host, wait time.Duration, probes *[]Probe) ([]Filesystem, []Mount, string) {
	o := d.execWithin(ctx, t, mountsArgv, wait)
	*probes = append(*probes, o.probe())
	if !o.ok() {
		return nil, nil, "the mounts could not be listed: " + o.why
	}
	mounts := parseMounts(o.stdout)
	outs := make([]out, len(mounts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxMountLooks)
	for i, m := range mounts {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			outs[i] = d.execWithin(ctx, t, []string{"df", "-PkT", "--", m.Mount}, wait, 1)
		})
	}
	wg.Wait()
	var fss []Filesystem
	var hung []Mount
	for i, o := range outs {
		if o.timedOut {
			hung = append(hung, mounts[i])
			*probes = append(*probes, o.probe())
			continue
		}
		for _, f := range parseDF(o.stdout) {
			// As df shows them: file systems with blocks.
			if f.SizeBytes > 0 {
				fss = append(fss, f)
			}
		}
	}
	return fss, hung, ""
}

// pseudoFS are the file system types df leaves out without looking at
// them: they hold no files of anyone's, and asking an automounter's mount
// would mount it.
var pseudoFS = []string{
	"autofs", "proc", "sysfs", "devpts", "debugfs", "tracefs", "securityfs", "cgroup", "cgroup2",
	"pstore", "bpf", "configfs", "fusectl", "mqueue", "rpc_pipefs", "binfmt_misc", "hugetlbfs",
	"efivarfs", "nsfs", "selinuxfs", "devfs", "kernfs", "none", "ignore",
}

// parseMounts reads /proc/self/mountinfo, whose fields escape a space,
// tab, line break or backslash in octal, and keeps the mounts df shows by
// default: no pseudo file systems, of two at one mount point the later
// (the one on top), and each device once, at its shortest mount point, as
// df does with bind mounts.
func parseMounts(s string) []Mount {
	type mount struct {
		m   Mount
		dev string
	}
	var all []mount
	top := map[string]int{} // mount point → index in all of its last mount
	for l := range strings.SplitSeq(s, "\n") {
		head, tail, ok := strings.Cut(l, " - ")
		f, g := strings.Fields(head), strings.Fields(tail)
		if !ok || len(f) < 5 || len(g) < 2 || slices.Contains(pseudoFS, g[0]) {
			continue
		}
		m := Mount{Source: unescapeMount(g[1]), Type: g[0], Mount: unescapeMount(f[4])}
		top[m.Mount] = len(all)
		all = append(all, mount{m, f[2]})
	}
	var out []Mount
	at := map[string]int{} // device → index in out
	for i, a := range all {
		if top[a.m.Mount] != i {
			continue
		}
		if j, seen := at[a.dev]; seen {
			if len(a.m.Mount) < len(out[j].Mount) {
				out[j] = a.m
			}
			continue
		}
		at[a.dev] = len(out)
		out = append(out, a.m)
	}
	return out
}

func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
