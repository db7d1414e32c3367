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
	for _, a := range args[1:] {
		v := a.val
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

// proxyVars are the variables HTTP, FTP and rsync clients take a proxy
// from: every request then goes to that host.
var proxyVars = set(`http_proxy https_proxy ftp_proxy all_proxy HTTP_PROXY HTTPS_PROXY FTP_PROXY ALL_PROXY RSYNC_PROXY`)

// proxyVar denies a proxy variable set to a host a deny rule names.
func (e *eval) proxyVar(name, val string) {
	if !proxyVars[name] || val == "" {
		return
	}
	if r, ok := e.p.hostDenied(val); ok {
		e.deny(fmt.Sprintf("%s=%s: every request goes through a proxy denied by host rule %q", name, truncate(val, 64), r))
	}
}
