package policy

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/warden-mcp/warden/internal/shellword"
)

// libvirt connection URIs. A URI's transport and parameters can run
// programs on this host: the ext transport (qemu+ext://) runs the program
// its command= parameter names, and the ssh transport runs command= in
// place of ssh and netcat= on the far host. libvirt unescapes parameter
// names and values (comm%61nd=). LIBVIRT_DEFAULT_URI and
// VIRSH_DEFAULT_CONNECT_URI are a URI for every libvirt client that is not
// given one, and LIBVIRT_LOG_OUTPUTS can name a file the client logs to.

// libvirtURIVars are the variables libvirt clients read a URI from.
var libvirtURIVars = set(`LIBVIRT_DEFAULT_URI VIRSH_DEFAULT_CONNECT_URI`)

// libvirtURI classifies what a libvirt connection URI runs, and returns
// the programs its command= parameters name, which run on this host.
func libvirtURI(u string) (Tier, string, []string) {
	scheme, rest, _ := strings.Cut(u, "://")
	_, query, _ := strings.Cut(rest, "?")
	var runs []string
	r := raiser{TierRead, ""}
	if _, transport, ok := strings.Cut(strings.ToLower(scheme), "+"); ok && transport == "ext" {
		r.raise(TierDestructive, "libvirt URI "+truncate(u, 64)+": the ext transport runs the command= program")
	}
	for _, kv := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
		k, v, _ := strings.Cut(kv, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		switch strings.ToLower(k) {
		case "command", "netcat":
			r.raise(TierDestructive, "libvirt URI "+truncate(u, 64)+": "+k+"= names a program the connection runs")
			if uv, err := url.QueryUnescape(v); err == nil && strings.EqualFold(k, "command") && uv != "" {
				runs = append(runs, shellword.Quote(uv))
			}
		}
	}
	return r.t, r.why, runs
}

// libvirtVar classifies setting a libvirt variable for the commands after
// it: a URI as libvirtURI does, its host by the host rules, and a log
// output that is a file as a write.
func (e *eval) libvirtVar(name, val string, known bool, ctx cctx, where string) {
	switch {
	case libvirtURIVars[name]:
		if !known {
			e.note(TierDestructive, ctx.covered, "%s sets %s to a value known only at run time: a libvirt URI can name a program to run", where, name)
			return
		}
		if r, denied := e.p.hostDenied(val); denied && strings.Contains(val, "://") {
			e.deny(fmt.Sprintf("%s=%s: the URI names a host denied by host rule %q", name, truncate(val, 64), r))
		}
		t, why, runs := libvirtURI(val)
		if t > TierRead {
			e.note(t, ctx.covered, "%s sets %s: %s", where, name, why)
		}
		e.runsDenied(runs, ctx, where+" sets "+name+": the libvirt URI")
	case name == "LIBVIRT_LOG_OUTPUTS":
		if !known || strings.Contains(val, "file:") {
			e.note(TierMutate, ctx.covered, "%s sets LIBVIRT_LOG_OUTPUTS: libvirt clients log to the file it names", where)
		}
	}
}
