package policy

import (
	"fmt"
	"net/netip"
	"strings"
)

// A web client's URL names its host in more ways than the one host rules
// read as written:
//
//   - without a scheme: curl, wget and the HTTP clients take
//     "169.254.169.254/latest" for http://169.254.169.254/latest;
//   - as a curl glob: curl expands "{a,b}" sets and "[1-9]" ranges in a
//     URL itself (unless -g), so "http://169.254.169.{254}/" reaches the
//     address the rules deny, and no rule can read a host it makes;
//   - computed at run time without a scheme (curl "$h", wget $h/x): the
//     host is the value's, which no rule can check.

// webClients are the clients netProgram reads that take URLs, with or
// without a scheme.
var webClients = set(`curl wget http https xh`)

// webHostOpts are the options whose value is a destination, so a value
// computed at run time is one too.
var webHostOpts = set(`--url -x --proxy --preproxy --socks4 --socks4a --socks5 --socks5-hostname --doh-url
	--connect-to --resolve --dns-servers`)

// curlGrammar is curl's options that take a value, as curl --help all
// lists them, so a computed word after one is its value, not a URL.
var curlGrammar = optionGrammar{short: "AbcCdDeEFhHKmoPQrtTuUwxXyYz", long: set(`--abstract-unix-socket --alt-svc
	--aws-sigv4 --cacert --capath --cert --cert-type --ciphers --config --connect-timeout --connect-to
	--continue-at --cookie --cookie-jar --create-file-mode --crlfile --curves --data --data-ascii
	--data-binary --data-raw --data-urlencode --delegation --dns-interface --dns-ipv4-addr --dns-ipv6-addr
	--dns-servers --doh-url --dump-header --egd-file --engine --etag-compare --etag-save
	--expect100-timeout --form --form-string --ftp-account --ftp-alternative-to-user --ftp-method
	--ftp-port --ftp-ssl-ccc-mode --happy-eyeballs-timeout-ms --header --hostpubmd5 --hostpubsha256
	--hsts --interface --json --keepalive-time --key --key-type --krb --libcurl --limit-rate --local-port
	--login-options --mail-auth --mail-from --mail-rcpt --max-filesize --max-redirs --max-time
	--netrc-file --noproxy --oauth2-bearer --output --output-dir --parallel-max --pass --pinnedpubkey
	--proto --proto-default --proto-redir --proxy --preproxy --proxy-cacert --proxy-capath --proxy-cert
	--proxy-cert-type --proxy-ciphers --proxy-crlfile --proxy-header --proxy-key --proxy-key-type
	--proxy-pass --proxy-pinnedpubkey --proxy-service-name --proxy-tls13-ciphers --proxy-tlsauthtype
	--proxy-tlspassword --proxy-tlsuser --proxy-user --pubkey --quote --random-file --range --rate
	--referer --request --request-target --resolve --retry --retry-delay --retry-max-time --sasl-authzid
	--service-name --socks4 --socks4a --socks5 --socks5-gssapi-service --socks5-hostname --speed-limit
	--speed-time --stderr --telnet-option --tftp-blksize --time-cond --tls-max --tls13-ciphers
	--tlsauthtype --tlspassword --tlsuser --trace --trace-ascii --unix-socket --upload-file --url
	--url-query --user --user-agent --write-out`)}

// webHosts applies the host rules to args[i], a word of web client c that
// is not an option: as a URL without a scheme, as a curl glob, and as a
// destination computed at run time. It returns the tier it raises to.
func (c *call) webHosts(i int, globs bool) (Tier, string) {
	a := c.args[i]
	if len(c.e.p.denyHosts) == 0 {
		return TierRead, ""
	}
	v := a.val
	if !strings.Contains(v, "://") {
		// Any word: this can only deny more.
		if r, ok := c.e.p.hostDenied("http://" + v); ok {
			c.e.deny(fmt.Sprintf("%s: destination %q (http://%s) is denied by host rule %q", c.name, truncate(v, 96), truncate(v, 96), r))
		}
	}
	g := curlGrammar
	if c.name != "curl" {
		g = computedGrammars[c.name]
	}
	if c.valuePosition(g, c.args, i) && !webHostOpts[c.args[i-1].val] {
		return TierRead, "" // an option's value: a header, JSON data, a file
	}
	if t, why := c.curlGlobbed(v, globs); t > TierRead {
		return t, why
	}
	host := urlHost(v)
	if a.known || strings.Contains(v, "://") || !strings.ContainsAny(host, "$`") {
		return TierRead, ""
	}
	c.e.opaque = true
	return TierDestructive, c.name + ": " + truncate(v, 64) + ": destination computed at run time, which host rules cannot check"
}

// curlGlobbed is tier 3 when curl, globbing (globs), would expand the host
// of URL v itself.
func (c *call) curlGlobbed(v string, globs bool) (Tier, string) {
	if !globs || !curlGlob(urlHost(v)) {
		return TierRead, ""
	}
	c.e.opaque = true
	return TierDestructive, c.name + ": " + truncate(v, 64) + ": curl expands {…} and […] in the host itself, which host rules cannot check (-g turns that off)"
}

// urlHost returns the part of URL v (with or without a scheme) before its
// path, query or fragment.
func urlHost(v string) string {
	if i := strings.Index(v, "://"); i >= 0 {
		v = v[i+3:]
	}
	if j := strings.IndexAny(v, "/?#"); j >= 0 {
		v = v[:j]
	}
	return v
}

// curlGlob reports whether curl would expand host as a glob: it holds a
// brace or a bracket that is not an IPv6 address's ([::1], [::1]:8080).
func curlGlob(host string) bool {
	if strings.HasPrefix(host, "[") {
		if j := strings.IndexByte(host, ']'); j > 0 {
			if _, err := netip.ParseAddr(strings.SplitN(host[1:j], "%", 2)[0]); err == nil {
				host = host[j+1:]
			}
		}
	}
	return strings.ContainsAny(host, "{}[]")
}

// globOff reports whether curl's URL globbing is off (-g, --globoff).
func globOff(args []arg) bool {
	for _, a := range args {
		if a.known && (a.val == "-g" || a.val == "--globoff") {
			return true
		}
	}
	return false
}
