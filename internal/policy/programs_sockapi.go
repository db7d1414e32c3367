package policy

import "strings"

// A web client told to reach its server over a Unix socket (curl
// --unix-socket /var/run/docker.sock, xh --unix-socket) speaks to a local
// daemon's API with the daemon's privileges, not the caller's: dockerd's
// and podman's are root's, so a request that creates or starts a
// container, or execs in one, is root on the host, and some reads return
// any file of a container or the host (/containers/ID/archive, /export,
// /images/ID/get) or a secret (/configs/ID, /swarm/unlockkey). The class
// is treated as the daemons' own clients are: a request that sends
// anything (a method other than GET, HEAD or OPTIONS, a body) is tier 3,
// as socat UNIX-CONNECT is; a GET of an endpoint docker ps, inspect and
// logs read stays the client's tier; any other GET, or one whose path is
// computed, is tier 2.

// sockRequest is what a web client's words say about a request over a
// Unix socket.
type sockRequest struct {
	socket string // the socket's path; "" when the request does not use one
	method arg    // an explicit method (-X), if any
	data   string // an option that sends data, which -G puts in the query
	upload string // an option that sends a body whatever -G says (-T, -F)
	get    bool   // -G: the data goes in the query
	target *arg   // --request-target: the path sent, whatever the URL says
	urls   []arg
}

// note records what curl's option name (a long name in full, or "-X")
// with its value says about the request.
func (q *sockRequest) note(name string, val arg, hasVal bool) {
	switch name {
	case "--unix-socket", "--abstract-unix-socket":
		q.socket = "''"
		if hasVal && val.val != "" {
			q.socket = val.val
		}
	case "-X", "--request":
		if hasVal {
			q.method = val
		}
	case "--request-target":
		if hasVal {
			q.target = &val
		}
	case "-G", "--get":
		q.get = true
	case "-d", "--data", "--data-ascii", "--data-binary", "--data-raw", "--data-urlencode":
		q.data = name
	case "-T", "--upload-file", "-F", "--form", "--form-string", "--json":
		q.upload = name // curl PUTs or POSTs these, -G or not
	}
}

// daemonRequest classifies q, a request over the Unix socket q.socket.
func (c *call) daemonRequest(q sockRequest) (Tier, string) {
	sock := truncate(q.socket, 64)
	m := strings.ToUpper(q.method.val)
	switch {
	case q.method.val != "" && !q.method.known:
		return TierDestructive, c.name + " over the socket " + sock + ": a request method computed at run time asks the daemon behind it to act with its privileges"
	case m != "" && m != "GET" && m != "HEAD" && m != "OPTIONS":
		return TierDestructive, c.name + " -X " + truncate(m, 16) + " over the socket " + sock + ": asks the daemon behind it to act with its privileges (dockerd's are root's)"
	case q.upload != "" || q.data != "" && !q.get:
		return TierDestructive, c.name + " " + q.upload + q.data + " over the socket " + sock + ": a request with a body asks the daemon behind it to act with its privileges (dockerd's are root's)"
	}
	paths := q.urls
	if q.target != nil {
		paths = []arg{*q.target}
	}
	if len(paths) == 0 {
		return TierMutate, c.name + " over the socket " + sock + ": a request whose path the classifier cannot see"
	}
	for _, u := range paths {
		if !u.known {
			return TierMutate, c.name + " over the socket " + sock + ": a path computed at run time may read files or secrets through the daemon"
		}
		if p := urlPath(u.val); !daemonReadPath(p) {
			return TierMutate, c.name + " GET " + truncate(p, 64) + " over the socket " + sock + ": may return files or secrets the daemon holds (a container's files, configs, keys)"
		}
	}
	return TierRead, ""
}

// urlPath returns the path of a URL, or of a request target, without its
// query or fragment: "/" when it has none.
func urlPath(u string) string {
	if k := strings.Index(u, "://"); k >= 0 {
		u = u[k+3:]
		j := strings.IndexByte(u, '/')
		if j < 0 {
			return "/"
		}
		u = u[j:]
	} else if j := strings.IndexByte(u, '/'); j > 0 {
		u = u[j:] // host/path, curl's default scheme
	}
	if j := strings.IndexAny(u, "?#"); j >= 0 {
		u = u[:j]
	}
	if u == "" {
		return "/"
	}
	return u
}

// daemonReads are the endpoints of the Docker and Podman APIs that list
// or describe objects, as docker ps, images, inspect, logs, top, stats
// and info do; "*" is one path segment, an object's name or ID.
var daemonReads = set(`/_ping /version /info /events /system/df /containers/json
	/images/json /networks /volumes /pods/json /containers/*/json /containers/*/top
	/containers/*/stats /containers/*/logs /containers/*/changes /containers/*/exists
	/images/*/json /images/*/history /networks/* /volumes/* /pods/*/json`)

// daemonReadPath reports whether p, a request path, is one daemonReads
// lists, after an API version (/v1.43, /v4.0.0) and podman's /libpod.
// Anything a name cannot hold (an escape, a glob, an empty or dot
// segment, which a router may resolve elsewhere) is not.
func daemonReadPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "%{}[]\\*") {
		return false
	}
	segs := strings.Split(strings.TrimSuffix(p[1:], "/"), "/")
	for _, s := range segs {
		if s == "" || s == "." || s == ".." {
			return false
		}
	}
	if v := segs[0]; len(segs) > 1 && len(v) > 1 && v[0] == 'v' && strings.Trim(v[1:], "0123456789.") == "" {
		segs = segs[1:]
	}
	if len(segs) > 1 && segs[0] == "libpod" {
		segs = segs[1:]
	}
	switch {
	case len(segs) >= 3 && segs[0] == "images":
		// An image's name may hold slashes: /images/library/nginx/json.
		segs = []string{"images", "*", segs[len(segs)-1]}
	case len(segs) == 3, len(segs) == 2 && (segs[0] == "networks" || segs[0] == "volumes"):
		segs[1] = "*"
	}
	return daemonReads["/"+strings.Join(segs, "/")]
}

// httpieSocket classifies HTTPie's and xh's request over a Unix socket
// (xh --unix-socket PATH, HTTPie's http+unix://%2Fvar%2Frun%2Fdocker.sock/
// URLs): METHOD URL ITEM…, where a field item (a=b, a:=1, a@file) sends
// a body and header (A:b) and query (a==b) items do not.
func (c *call) httpieSocket() (Tier, string) {
	var q sockRequest
	var ops []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		switch {
		case !a.known:
			ops = append(ops, a)
		case v == "--unix-socket" && i+1 < len(c.args):
			q.socket = c.args[i+1].val
			i++
		case strings.HasPrefix(v, "--unix-socket="):
			q.socket = v[len("--unix-socket="):]
		case httpieTakesValue(v):
			i++
		case strings.HasPrefix(v, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) > 0 && !strings.Contains(ops[0].val, "://") && strings.ToUpper(ops[0].val) == ops[0].val && ops[0].val != "" {
		q.method, ops = ops[0], ops[1:]
	}
	if len(ops) == 0 {
		return TierRead, ""
	}
	q.urls = ops[:1]
	if u := ops[0].val; strings.HasPrefix(strings.ToLower(u), "http+unix://") || strings.HasPrefix(strings.ToLower(u), "https+unix://") {
		q.socket, _, _ = strings.Cut(u[strings.Index(u, "://")+3:], "/")
	}
	if q.socket == "" {
		return TierRead, ""
	}
	for _, it := range ops[1:] {
		v := it.val
		k := strings.IndexAny(v, ":=@")
		switch {
		case !it.known:
			q.upload = truncate(v, 32)
		case k < 0, v[k] == ':' && !strings.HasPrefix(v[k:], ":="), strings.HasPrefix(v[k:], "=="):
		default:
			q.upload = truncate(v, 32) // a field: HTTPie POSTs it
		}
	}
	return c.daemonRequest(q)
}
