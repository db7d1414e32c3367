package policy

import (
	"fmt"
	"path"
	"strings"
)

// Clients' server options. A URL in any word meets the host rules
// (urlWords), but most clients also take a bare HOST[:PORT] in an option
// (consul -http-addr=169.254.169.254:8500, docker -H 10.0.0.1:2375, psql
// -h, redis-cli -h169.254.169.254, curl --proxy=HOST:PORT): each such
// value meets them as the client's environment variable does
// (endpointVars).

// hostOptFamilies lists, per client, its options whose value is a server
// it connects to. Go flag programs take one or two dashes; the getopt
// ones also take "-hHOST" and abbreviated long names (--ho=).
var hostOptFamilies = []struct {
	names string
	opts  []string
}{
	{`consul`, []string{"-http-addr", "--http-addr", "-grpc-addr", "--grpc-addr"}},
	{`nomad vault bao`, []string{"-address", "--address", "-agent-address", "--agent-address"}},
	{`etcdctl`, []string{"--endpoints"}},
	{`kubectl oc`, []string{"-s", "--server"}},
	{`helm`, []string{"--kube-apiserver"}},
	{`docker podman nerdctl`, []string{"-H", "--host", "--url"}},
	{`redis-cli valkey-cli keydb-cli`, []string{"-h"}},
	{`psql pg_dump pg_dumpall pg_restore pg_isready pg_basebackup pg_receivewal createdb dropdb createuser dropuser
		vacuumdb reindexdb clusterdb pgbench`, []string{"-h", "--host"}},
	{`mysql mariadb mysqldump mariadb-dump mysqladmin mariadb-admin mysqlshow mysqlcheck mysqlimport mysqlpump
		mysqlbinlog mysqlslap`, []string{"-h", "--host"}},
	{`mongosh mongo mongodump mongorestore mongoexport mongoimport mongostat mongotop`, []string{"-h", "--host"}},
	{`influx`, []string{"-host", "--host"}},
	{`clickhouse-client`, []string{"-h", "--host"}},
	{`ldapsearch ldapmodify ldapadd ldapdelete ldapwhoami ldappasswd`, []string{"-h"}},
	{`mosquitto_pub mosquitto_sub`, []string{"-h", "--host"}},
	{`rabbitmqadmin`, []string{"-H", "--host"}},
	{`curl`, []string{"-x", "--proxy", "--preproxy", "--socks4", "--socks4a", "--socks5", "--socks5-hostname", "--connect-to", "--resolve"}},
	{`wget`, []string{"--proxy"}},
	{`nc netcat ncat`, []string{"-x", "--proxy"}},
}

var hostOpts = func() map[string][]string {
	m := map[string][]string{}
	for _, f := range hostOptFamilies {
		for _, n := range strings.Fields(f.names) {
			m[n] = f.opts
		}
	}
	return m
}()

// hostOptVals returns the values of opts in args: "-o V", "-o=V", a
// short option's "-oV", and a long option's unique abbreviation.
func hostOptVals(args []arg, opts []string) []arg {
	var out []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.known && a.val == "--" {
			break
		}
		if !strings.HasPrefix(a.val, "-") {
			continue
		}
		name, val, eq := strings.Cut(a.val, "=")
		for _, o := range opts {
			switch {
			case name == o || strings.HasPrefix(o, "--") && len(name) > 3 && longFlag(name, o):
				if eq {
					out = append(out, arg{val: val, known: a.known})
				} else if i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
			case len(o) == 2 && !strings.HasPrefix(a.val, "--") && strings.HasPrefix(a.val, o) && len(a.val) > 2:
				out = append(out, arg{val: a.val[2:], known: a.known})
			default:
				continue
			}
			break
		}
	}
	return out
}

// serverWords returns the places a client's server value can name a
// host: each of a list's members (etcd's a:2379,b:2379, MongoDB's
// rs0/a:27017,b:27017, curl's --resolve HOST:PORT:ADDR) and each
// colon-separated piece of one that is not a URL or a bracketed address.
func serverWords(v string) []string {
	var out []string
	for _, m := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		out = append(out, m)
		if strings.Contains(m, "://") {
			continue
		}
		for rest := m; ; {
			i := strings.IndexByte(rest, '[')
			j := strings.IndexByte(rest[i+1:], ']')
			if i < 0 || j < 0 {
				break
			}
			out = append(out, rest[i+1:i+1+j])
			rest = rest[i+2+j:]
		}
		for _, s := range strings.Split(m, "/") {
			out = append(out, s)
			if !strings.Contains(s, "[") && strings.Count(s, ":") < 3 {
				out = append(out, strings.Split(s, ":")...)
			}
		}
	}
	return out
}

// hostOptWords applies the host rules to a client's server options, to
// libpq's connection strings' host= and hostaddr=, and to mongosh's first
// operand (HOST[:PORT]/DB). A server computed at run
// time is one the rules cannot check.
func (e *eval) hostOptWords(args []arg) (Tier, string) {
	if len(e.p.denyHosts) == 0 || len(args) < 2 {
		return TierRead, ""
	}
	name := path.Base(args[0].val)
	if !textOnly[name] {
		e.serverOpts(name, args[1:])
	}
	opts, ok := hostOpts[name]
	if !ok {
		return TierRead, ""
	}
	vals := hostOptVals(args[1:], opts)
	if opts[len(opts)-1] == "--host" && strings.HasPrefix(name, "p") {
		// libpq's connection strings: "host=H hostaddr=A dbname=D".
		for _, a := range args[1:] {
			for _, kv := range strings.Fields(a.val) {
				if k, v, ok := strings.Cut(kv, "="); ok && a.known && (k == "host" || k == "hostaddr") {
					vals = append(vals, arg{val: strings.Trim(v, "'"), known: true})
				}
			}
		}
	}
	if name == "mongosh" || name == "mongo" {
		for _, a := range args[1:] {
			if a.known && !strings.HasPrefix(a.val, "-") && !strings.HasSuffix(a.val, ".js") {
				vals = append(vals, a)
				break
			}
		}
	}
	for _, v := range vals {
		if !v.known {
			e.opaque = true
			return TierDestructive, name + ": server computed at run time, which host rules cannot check"
		}
		// The whole value is a server (-h 0 is the unspecified
		// address); its pieces may be ports.
		for i, w := range append([]string{v.val}, serverWords(v.val)...) {
			if r, ok := e.p.hostDeniedAs(w, i == 0); ok {
				e.deny(fmt.Sprintf("%s: server %q is denied by host rule %q", name, truncate(v.val, 96), r))
				return TierDestructive, ""
			}
		}
	}
	return TierRead, ""
}

// serverOptNames are the long options by which clients the table above
// does not list name the server they talk to (kafka's
// --bootstrap-server, boundary's --addr, a gRPC tool's --target), the
// DNS server a container or client asks (--dns), and the address a
// container's --add-host maps a name to: a known value naming a denied
// host is denied. --destination is not
// among them: it is a firewall's match (iptables --destination H -j
// DROP), which protects the host.
var serverOptNames = set(`--host --hostname --server --servers --address --addr --endpoint --endpoints
	--endpoint-url --url --connect --target --remote --peer --broker --brokers --bootstrap-server
	--master --controller --upstream --backend --dns --dns-server --dns-servers --nameserver --add-host`)

// serverOpts applies the host rules to the server options of any
// program that is not a text tool, those of the table's clients too.
func (e *eval) serverOpts(name string, args []arg) {
	for i, a := range args {
		if !a.known || len(a.val) < 3 || a.val[0] != '-' || a.val[1] != '-' {
			continue
		}
		opt, val, eq := strings.Cut(a.val, "=")
		if !serverOptNames[opt] {
			continue
		}
		if !eq {
			if i+1 >= len(args) || !args[i+1].known {
				continue
			}
			val = args[i+1].val
		}
		if opt == "--add-host" {
			// NAME:ADDRESS or NAME=ADDRESS: the name is defined, the
			// address is where it then goes (a protective
			// metadata.google.internal:127.0.0.1 names no denied host).
			if i := strings.IndexAny(val, ":="); i >= 0 {
				val = val[i+1:]
			}
		}
		if r, ok := e.p.forwardDenied(val); ok {
			e.deny(fmt.Sprintf("%s: %s %q names a server denied by host rule %q", name, opt, truncate(val, 96), r))
			return
		}
	}
}
