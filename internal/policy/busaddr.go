package policy

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/warden-mcp/warden/internal/shellword"
)

// D-Bus addresses. libdbus and sd-bus (systemctl, loginctl, hostnamectl,
// busctl and the other systemd clients) take the bus they talk to from
// DBUS_SYSTEM_BUS_ADDRESS, DBUS_SESSION_BUS_ADDRESS or
// DBUS_STARTER_ADDRESS, or from a client's --address, and an address is a
// ';'-separated list of transports tried in turn: "unixexec:path=PROG"
// runs PROG and speaks D-Bus over its standard streams, "autolaunch:"
// starts dbus-launch, "tcp:host=H" and "nonce-tcp:host=H" connect to H.
// So DBUS_SYSTEM_BUS_ADDRESS=unixexec:path=/tmp/x systemctl status runs
// /tmp/x, however read-only the command after it.

// busAddressVars are the variables the D-Bus libraries read an address from.
var busAddressVars = set(`DBUS_SYSTEM_BUS_ADDRESS DBUS_SESSION_BUS_ADDRESS DBUS_STARTER_ADDRESS`)

// busAddress classifies a D-Bus address and returns the tcp hosts it
// names and the command lines its unixexec: transports run, unescaped as
// the libraries unescape them (%31 is "1").
func busAddress(addr string) (Tier, string, []string, []string) {
	r := raiser{TierRead, ""}
	var hosts, runs []string
	for _, tr := range strings.Split(addr, ";") {
		method, params, _ := strings.Cut(strings.TrimSpace(tr), ":")
		switch strings.ToLower(method) {
		case "":
		case "unix", "x-machine-unix", "launchd", "systemd":
		case "tcp", "nonce-tcp":
			for _, p := range strings.Split(params, ",") {
				if k, v, ok := strings.Cut(p, "="); ok && k == "host" {
					if u, err := url.PathUnescape(v); err == nil {
						v = u
					}
					hosts = append(hosts, v)
				}
			}
		case "unixexec":
			r.raise(TierDestructive, "a unixexec: bus address runs the program it names")
			if line := unixexecLine(params); line != "" {
				runs = append(runs, line)
			}
		case "autolaunch":
			r.raise(TierMutate, "an autolaunch: bus address starts a bus daemon")
		default:
			r.raise(TierMutate, "bus address transport "+truncate(method, 32)+" is not one the classifier knows")
		}
	}
	return r.t, r.why, hosts, runs
}

// unixexecLine returns the command line a unixexec: transport runs: its
// path= program with the argv1=, argv2=, … arguments in their order
// (argv0= is only the name the program is shown), or "" without a path.
func unixexecLine(params string) string {
	var prog string
	type argN struct {
		n int
		v string
	}
	var args []argN
	for _, p := range strings.Split(params, ",") {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		if k == "path" {
			prog = v
		} else if n, err := strconv.Atoi(strings.TrimPrefix(k, "argv")); err == nil && strings.HasPrefix(k, "argv") && n > 0 {
			args = append(args, argN{n, v})
		}
	}
	if prog == "" {
		return ""
	}
	slices.SortStableFunc(args, func(a, b argN) int { return a.n - b.n })
	argv := []string{prog}
	for _, a := range args {
		argv = append(argv, a.v)
	}
	return shellword.Join(argv)
}

// busAddressVar classifies setting one of busAddressVars for the commands
// after it. A value known only at run time may be a unixexec: address.
func (e *eval) busAddressVar(name, val string, known bool, ctx cctx, where string) {
	if !busAddressVars[name] {
		return
	}
	if !known {
		e.note(TierMutate, ctx.covered, "%s sets %s to a value known only at run time: a bus address can name a program to run", where, name)
		return
	}
	t, why, hosts, runs := busAddress(val)
	for _, h := range hosts {
		if r, ok := e.p.hostDenied(h); ok {
			e.deny(fmt.Sprintf("%s=%s: the bus address names a host denied by host rule %q", name, truncate(val, 64), r))
		}
	}
	e.runsDenied(runs, ctx, where+" sets "+name+": the unixexec: bus address")
	if t > TierRead {
		e.note(t, ctx.covered, "%s sets %s=%s: %s", where, name, truncate(val, 64), why)
	}
}

// dbusProgram classifies a D-Bus client by what it asks (dbusCall;
// dbus-monitor only watches) and by the bus its --address (gdbus's -a
// too) reaches.
func dbusProgram(c *call) (Tier, string) {
	t, why := TierRead, "dbus-monitor: watches the bus"
	if c.name != "dbus-monitor" {
		t, why = dbusCall(c)
	}
	if bt, bwhy := c.busAddressOpt(); bt > t {
		return bt, bwhy
	}
	return t, why
}

// busAddressOpt classifies a D-Bus client's --address.
func (c *call) busAddressOpt() (Tier, string) {
	names := []string{"--address"}
	if c.name == "gdbus" {
		names = append(names, "-a")
	}
	r := raiser{TierRead, ""}
	for _, a := range c.optVals(c.args, names...) {
		if !a.known {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" --address: a bus address known only at run time can name a program to run")
			continue
		}
		t, why, hosts, runs := busAddress(a.val)
		for _, h := range hosts {
			c.checkHost(h)
		}
		c.e.runsDenied(runs, c.ctx, c.name+" --address: the unixexec: bus address")
		if t > TierRead {
			r.raise(t, c.name+" --address: "+why)
		}
	}
	return r.t, r.why
}
