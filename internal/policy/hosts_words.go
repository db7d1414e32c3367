package policy

import (
	"fmt"
	"path"
	"strings"
)

// Destinations outside the network programs' own arguments: a URL in any
// word of any program that may fetch it (a browser, a package manager's
// index or registry option, a container image source, apt's
// Acquire::http::Proxy=…), a container image named by its registry host,
// and the proxy variables every HTTP client honours. Each is checked
// against the host deny rules like curl's URL.

// textOnly are programs whose words are text or patterns, never a place
// they connect to: grep -r http://10.0.0.1 /var/log fetches nothing.
var textOnly = set(`echo printf grep egrep fgrep zgrep rg ag ack sed awk gawk mawk logger test [ jq yq cut tr sort uniq wc head tail cat less more`)

// urlWords denies a word that is or holds a URL whose host a deny rule
// names.
func (e *eval) urlWords(args []arg) {
	if len(e.p.denyHosts) == 0 || len(args) == 0 {
		return
	}
	name := path.Base(args[0].val)
	if textOnly[name] {
		return
	}
	bare := schemeless[name]
	for i, a := range args[1:] {
		v := a.val
		if a.known && e.proxyWord(name, v, args[1+i+1:]) {
			return
		}
		if bare && a.known && !strings.HasPrefix(v, "-") && !strings.Contains(v, "://") {
			if r, ok := e.p.hostDenied("http://" + v); ok {
				e.deny(fmt.Sprintf("%s: %q (http://%s) names a host denied by host rule %q", name, truncate(v, 96), truncate(v, 96), r))
				return
			}
		}
		if !strings.Contains(v, "://") && (strings.Contains(v, ":/") || strings.Contains(v, `:\`) || webScheme(v)) {
			// http:/h, http:\\h and http:h are http://h to lenient
			// parsers.
			if r, ok := e.p.hostDenied(v); ok {
				e.deny(fmt.Sprintf("%s: %q names a host denied by host rule %q", name, truncate(a.val, 96), r))
				return
			}
		}
		for {
			i := strings.Index(v, "://")
			if i < 0 {
				break
			}
			v = v[i+3:]
			if r, ok := e.p.hostDenied("x://" + v); ok {
				e.deny(fmt.Sprintf("%s: %q names a host denied by host rule %q", name, truncate(a.val, 96), r))
				return
			}
		}
	}
	if imageVerbs[name] {
		e.imageRefs(name, args[1:])
	}
}

// proxyWord denies a proxy a program's word names, and reports whether
// it did: an option whose name says proxy (--proxy, --https-proxy,
// --all-proxy=) with its value attached or next, and a setting whose key
// ends in proxy (apt's Acquire::http::Proxy=, dnf's --setopt=proxy=,
// docker's -e HTTPS_PROXY= and --build-arg HTTP_PROXY=, svn's
// http-proxy-host=, 'Acquire::https::Proxy "…";'): every request then
// goes through that host. A no-proxy list names hosts not proxied.
func (e *eval) proxyWord(name, v string, next []arg) bool {
	i := indexProxy(v)
	if i < 0 {
		return false
	}
	rest := v[i+len("proxy"):]
	if r, ok := e.p.forwardDenied(rest); ok {
		e.deny(fmt.Sprintf("%s: %q sends requests through a proxy denied by host rule %q", name, truncate(v, 96), r))
		return true
	}
	if (rest == "" || strings.HasPrefix(v, "-") && !strings.Contains(v, "=")) && len(next) > 0 && next[0].known {
		// --proxy HOST, and KEY VALUE settings: npm config set proxy
		// HOST, yarn config set httpsProxy HOST.
		if r, ok := e.p.forwardDenied(next[0].val); ok {
			e.deny(fmt.Sprintf("%s: %s %q sends requests through a proxy denied by host rule %q", name, v, truncate(next[0].val, 96), r))
			return true
		}
	}
	return false
}

// indexProxy returns where "proxy", in any case, first appears in v not
// as part of no-proxy, no_proxy or noproxy, or -1. It does not
// allocate: it runs on every word of most programs.
func indexProxy(v string) int {
	for i := 0; i+5 <= len(v); i++ {
		if v[i] != 'p' && v[i] != 'P' || !strings.EqualFold(v[i:i+5], "proxy") {
			continue
		}
		if j := i - 1; j >= 0 && (v[j] == '-' || v[j] == '_') {
			j--
			if j >= 1 && strings.EqualFold(v[j-1:j+1], "no") {
				continue
			}
		} else if i >= 2 && strings.EqualFold(v[i-2:i], "no") {
			continue
		}
		return i
	}
	return -1
}

// webScheme reports whether v begins with a web scheme's colon, which
// lenient parsers read as that scheme's "://" (http:169.254.169.254).
func webScheme(v string) bool {
	s, _, ok := strings.Cut(v, ":")
	if !ok || len(s) > 5 {
		return false
	}
	switch strings.ToLower(s) {
	case "http", "https", "ftp", "ftps", "ws", "wss":
		return true
	}
	return false
}

// schemeless are the programs other than netProgram's web clients that
// take a URL without its scheme as http's (lynx 169.254.169.254).
var schemeless = set(`lynx w3m links links2 elinks browsh curlie wget2 xhs httpie`)

// imageVerbs are the container tools whose operands name images.
var imageVerbs = set(`docker podman nerdctl crictl ctr buildah`)

// imageRefs checks the registry host of operands that are image
// references (10.0.0.1:5000/app, registry.internal/app:1): the first
// component, when it holds a dot or a colon or is localhost.
func (e *eval) imageRefs(name string, args []arg) {
	for _, a := range args {
		v := a.val
		if !a.known || strings.HasPrefix(v, "-") || !strings.Contains(v, "/") {
			continue
		}
		host, _, _ := strings.Cut(v, "/")
		if !strings.ContainsAny(host, ".:") && host != "localhost" {
			continue
		}
		if r, ok := e.p.hostDenied(host); ok {
			e.deny(fmt.Sprintf("%s: image %q comes from a registry denied by host rule %q", name, truncate(v, 96), r))
			return
		}
	}
}

// proxyVarName reports whether a variable names a proxy every request
// then goes to: the *_proxy variables of HTTP, FTP, rsync and SOCKS
// clients in any case (Python's urllib lowercases every name it reads,
// so Https_Proxy counts; npm_config_proxy and PIP_PROXY are their kin),
// and the SOCKS libraries' SOCKS_SERVER. no_proxy names hosts not to
// proxy.
func proxyVarName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "socks_server", "socks4_server", "socks5_server":
		return true
	}
	return strings.HasSuffix(n, "_proxy") && !strings.HasSuffix(n, "no_proxy")
}

// endpointVars are the variables clients take the server they talk to
// from, as -address, --endpoints or -H would name it: VAULT_ADDR=… vault
// status reaches that host as surely as vault status -address=… does.
// Lists (ETCDCTL_ENDPOINTS, PGHOST) are split at commas.
var endpointVars = set(`VAULT_ADDR BAO_ADDR VAULT_AGENT_ADDR NOMAD_ADDR CONSUL_HTTP_ADDR CONSUL_GRPC_ADDR
	ETCDCTL_ENDPOINTS DOCKER_HOST CONTAINER_HOST PGHOST MYSQL_HOST INFLUX_HOST INFLUX_URL OLLAMA_HOST
	KUBERNETES_SERVICE_HOST AWS_ENDPOINT_URL TF_HTTP_ADDRESS ALERTMANAGER_URL LDAPURI LDAPHOST`)

// endpointVar reports whether a variable names the server a client
// talks to.
func endpointVar(name string) bool {
	return endpointVars[name] || strings.HasPrefix(name, "AWS_ENDPOINT_URL_") || strings.HasPrefix(name, "MC_HOST_")
}

// unknownProxyVar raises a proxy or server variable set to a value known
// only at run time (http_proxy=$p, read https_proxy, export
// ALL_PROXY=$(cat f)) to tier 3 when host rules are set: every request
// then goes to a host no rule can check, as with curl -x "$p".
func (e *eval) unknownProxyVar(name string, ctx cctx, where string) {
	if len(e.p.denyHosts) == 0 || !proxyVarName(name) && !endpointVar(name) && !resolverVars[name] {
		return
	}
	e.opaque = true
	e.note(TierDestructive, ctx.covered, "%s sets %s to a value known only at run time: a proxy or server the host rules cannot check", where, name)
}

// resolverVars change where the C library's resolver sends a name:
// LOCALDOMAIN's search domains are appended to short names (curl http://x/
// asks for x.169.254.169.254.nip.io), and HOSTALIASES names a file
// mapping a name to another.
var resolverVars = set(`LOCALDOMAIN HOSTALIASES`)

// resolverVar denies a search domain, or a known alias file's target,
// that names a host the rules deny.
func (e *eval) resolverVar(name, val string, ctx cctx) {
	if len(e.p.denyHosts) == 0 || !resolverVars[name] || val == "" {
		return
	}
	texts := []string{val}
	if name == "HOSTALIASES" {
		texts = ctx.sc.fileTexts(val)
	}
	for _, t := range texts {
		if r, ok := e.p.forwardDenied(t); ok {
			e.deny(fmt.Sprintf("%s=%s: the resolver then reaches a host denied by host rule %q", name, truncate(val, 64), r))
			return
		}
	}
}

// proxyVar denies a proxy variable, a client's server variable, git's
// configuration carried in the environment (GIT_CONFIG_PARAMETERS,
// GIT_CONFIG_VALUE_n: an http.proxy there), or any variable holding a
// URL (PIP_INDEX_URL, GOPROXY, npm_config_registry) or a proxy setting
// (JAVA_TOOL_OPTIONS=-Dhttps.proxyHost=H), set to a host a deny rule
// names.
func (e *eval) proxyVar(name, val string) {
	if val == "" || len(e.p.denyHosts) == 0 {
		return
	}
	if endpointVar(name) {
		for _, h := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' }) {
			if r, ok := e.p.hostDenied(h); ok {
				e.deny(fmt.Sprintf("%s=%s: the client reaches a server denied by host rule %q", name, truncate(val, 64), r))
				return
			}
		}
		return
	}
	if proxyVarName(name) || name == "GIT_CONFIG_PARAMETERS" || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
		if r, ok := e.p.forwardDenied(val); ok {
			e.deny(fmt.Sprintf("%s=%s: every request goes through a proxy denied by host rule %q", name, truncate(val, 64), r))
		}
		return
	}
	if i := indexProxy(val); i >= 0 {
		// JAVA_TOOL_OPTIONS=-Dhttps.proxyHost=H, MAVEN_OPTS, a
		// variable holding a proxy setting.
		if r, ok := e.p.forwardDenied(val[i+len("proxy"):]); ok {
			e.deny(fmt.Sprintf("%s=%s: sets a proxy denied by host rule %q", name, truncate(val, 64), r))
			return
		}
	}
	for v := val; ; {
		i := strings.Index(v, "://")
		if i < 0 {
			return
		}
		v = v[i+3:]
		if r, ok := e.p.hostDenied("x://" + v); ok {
			e.deny(fmt.Sprintf("%s=%s: names a URL whose host is denied by host rule %q", name, truncate(val, 64), r))
			return
		}
	}
}
