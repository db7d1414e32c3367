package policy

import "strings"

// What socat's addresses open besides the network. An address is
// TYPE:PARAMS,OPTIONS (two joined by "!!" read and write apart), and one
// with a "/" and no type is GOPEN of that path. OPEN, CREATE, GOPEN, PIPE
// and the listening UNIX types create or write the file they name, as do
// the link= and history= options and the -lf, -L, -W, -r and -R log, lock
// and dump files: each goes through writeTarget, so "socat -u FILE:x
// OPEN:/dev/sda" is denied like dd. The connecting UNIX and ABSTRACT
// types speak to a local service with the caller's credentials (the
// container engine's socket is root on the host): TierDestructive.

// socatFileTypes are the address types whose parameter is a file socat
// opens, creates or binds.
var socatFileTypes = set(`OPEN CREATE CREAT GOPEN FILE PIPE NAMEDPIPE UNIX-LISTEN UNIX-L UNIX-RECVFROM
	UNIX-RECV UNIX-DGRAM`)

// socatSocketTypes are the address types that connect to a local socket.
var socatSocketTypes = set(`UNIX-CONNECT UNIX-CLIENT UNIX-SENDTO UNIX LOCAL ABSTRACT-CONNECT
	ABSTRACT-CLIENT ABSTRACT-SENDTO ABSTRACT`)

// socatFileOpts are address options whose value is a file socat creates.
var socatFileOpts = set(`link history history-file`)

// socatValueOpts are socat's options that take the next word; those that
// name a file it writes are checked as writes.
var socatValueOpts = map[string]bool{"-lf": true, "-L": true, "-W": true, "-r": true, "-R": true,
	"-lp": false, "-t": false, "-T": false, "-b": false}

// socatAddresses classifies the files and local sockets socat's options
// and addresses reach.
func socatAddresses(c *call) (Tier, string) {
	var r raiser
	opts := true
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		if opts && strings.HasPrefix(v, "-") && v != "-" {
			if v == "--" {
				opts = false
			}
			if writes, ok := socatValueOpts[v]; ok && i+1 < len(c.args) {
				i++
				if writes {
					r.raise(c.writeArg(c.args[i], "socat "+v))
				}
			}
			continue
		}
		for _, addr := range strings.Split(v, "!!") {
			r.raise(c.socatAddress(arg{val: addr, known: a.known, glob: a.glob}))
		}
	}
	return r.t, r.why
}

// socatAddress classifies one address.
func (c *call) socatAddress(a arg) (Tier, string) {
	spec, opts, _ := strings.Cut(a.val, ",")
	typ, param, hasType := strings.Cut(spec, ":")
	file := func(p string) arg { return arg{val: p, known: a.known, glob: a.glob} }
	r := raiser{TierRead, ""}
	u := strings.ToUpper(typ)
	switch {
	case !hasType && strings.Contains(spec, "/"):
		r.raise(c.writeArg(file(spec), "socat GOPEN"))
	case hasType && socatFileTypes[u]:
		r.raise(c.writeArg(file(param), "socat "+u))
	case hasType && socatSocketTypes[u]:
		r.raise(TierDestructive, "socat "+u+": speaks to the local service at "+truncate(param, 64)+" with the caller's credentials")
	}
	if opts != "" {
		for _, o := range strings.Split(opts, ",") {
			k, val, ok := strings.Cut(o, "=")
			if ok && socatFileOpts[strings.ToLower(k)] {
				r.raise(c.writeArg(file(val), "socat "+k+"="))
			}
		}
	}
	return r.t, r.why
}
