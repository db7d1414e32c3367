package policy

import (
	"fmt"
	"path"
	"strings"
)

// Forwards and tunnels. A forwarding spec names the host its connections
// are relayed to inside a longer word — ssh -L [BIND:]PORT:HOST:HOSTPORT
// (or PORT/HOST/HOSTPORT, or [HOST] for IPv6), -o LocalForward="PORT
// HOST:HOSTPORT", PermitRemoteOpen HOST:PORT, socat's
// TCP:[HOST]:PORT,bind=…, chisel's R:PORT:HOST:PORT, gost's
// tcp://:PORT/HOST:PORT — and a connection made there reaches the host as
// curl's request would. Each field of the spec meets the host rules.

// forwarders are the programs whose every word may be a forwarding spec
// or the host they tunnel through, the other ssh clients (dropbear's
// dbclient, PuTTY's plink, Eternal Terminal, Teleport's tsh) among them.
var forwarders = set(`sshuttle chisel gost websocat redir rinetd cloudflared frpc bore ngrok rathole
	proxytunnel microsocks 3proxy tcpproxy simpleproxy balance pen stone socket sslh iodine ptunnel
	ptunnel-ng udp2raw kcptun ssf wstunnel stunnel stunnel4 dbclient plink putty et lsh tsh`)

// forwardDenied returns the rule denying a host a forwarding spec names:
// each field between spaces, commas, '=', '/', '@' and quotes, and each
// colon-separated piece of one that is not an IPv6 address, with
// bracketed addresses read whole.
func (p *Policy) forwardDenied(v string) (string, bool) {
	if len(p.denyHosts) == 0 {
		return "", false
	}
	for rest := v; rest != ""; {
		f := rest
		if i := strings.IndexAny(rest, " \t\n,=/@;'\""); i >= 0 {
			f, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		for {
			i := strings.IndexByte(f, '[')
			j := strings.IndexByte(f, ']')
			if i < 0 || j < i {
				break
			}
			if r, ok := p.hostDenied(f[i+1 : j]); ok {
				return r, true
			}
			f = f[:i] + ":" + f[j+1:]
		}
		if f == "" {
			continue
		}
		if r, ok := p.hostDenied(f); ok {
			return r, true
		}
		pieces := strings.Split(f, ":")
		for k, piece := range pieces {
			// Between a field and a port (8080:0:80, TCP:0:22) a bare
			// "0" is the host: the unspecified address.
			dest := k > 0 && k+1 < len(pieces) && portWord(pieces[k+1])
			if r, ok := p.hostDeniedAs(piece, dest); ok {
				return r, true
			}
		}
	}
	return "", false
}

// forwardSpec denies a forwarding spec naming a host the rules deny.
func (c *call) forwardSpec(what, v string) {
	if r, ok := c.e.p.forwardDenied(v); ok {
		c.e.deny(fmt.Sprintf("%s: %s %q reaches a host denied by host rule %q", c.name, what, truncate(v, 96), r))
	}
}

// forwarderWords applies the host rules to every word of a tunnel or
// relay program: a word known only at run time may be where it relays
// to.
func (e *eval) forwarderWords(args []arg) {
	if len(e.p.denyHosts) == 0 || len(args) < 2 {
		return
	}
	name := path.Base(args[0].val)
	if tunnelConfigs[name] {
		e.tunnelEndpoints(name, args[1:])
		return
	}
	if !forwarders[name] {
		return
	}
	for _, a := range args[1:] {
		if !a.known {
			e.opaque = true
			e.note(TierDestructive, false, "%s: %s is known only at run time and may be where it relays to, which the host rules cannot check", name, truncate(a.val, 64))
			return
		}
		v := a.val
		r, ok := e.p.forwardDenied(v)
		if !ok && len(v) > 2 && v[0] == '-' && v[1] != '-' {
			r, ok = e.p.forwardDenied(v[2:]) // -rHOST, -L:8080/HOST:80
		}
		if ok {
			e.deny(fmt.Sprintf("%s: %q relays to a host denied by host rule %q", name, truncate(a.val, 96), r))
			return
		}
	}
}

// inetFiles denies a gawk network special file
// (/inet[46]/tcp|udp/LPORT/HOST/RPORT) in program text whose host the
// rules deny: reading or writing it connects there. Only the file's own
// text is read, so a program that merely matches the address in its
// input (awk '$1 == "169.254.169.254"') keeps its tier.
func (c *call) inetFiles(text string) {
	if len(c.e.p.denyHosts) == 0 {
		return
	}
	for rest := text; ; {
		i := strings.Index(rest, "/inet")
		if i < 0 {
			return
		}
		rest = rest[i:]
		f := rest
		if j := strings.IndexAny(rest, " \t\n\"';)|&"); j >= 0 {
			f = rest[:j]
		}
		c.forwardSpec("network file", f)
		rest = rest[len("/inet"):]
	}
}

// tunnelConfigs are the programs that set a tunnel's far end: wg's peer
// endpoint, ip's tunnel and vxlan/geneve remote, l2tp's peer_ip. Every
// packet sent into the tunnel then goes to that host.
var tunnelConfigs = set(`wg ip`)

// tunnelEndpoints denies a tunnel endpoint naming a denied host.
func (e *eval) tunnelEndpoints(name string, args []arg) {
	for i := 0; i+1 < len(args); i++ {
		switch args[i].val {
		case "endpoint", "remote", "peer_ip":
		default:
			continue
		}
		if v := args[i+1]; v.known {
			if r, ok := e.p.forwardDenied(v.val); ok {
				e.deny(fmt.Sprintf("%s: tunnel %s %q is denied by host rule %q", name, args[i].val, truncate(v.val, 96), r))
				return
			}
		}
	}
}
