package audit

import "strings"

// Headers that web servers and proxies set by a directive, the name and
// the value as two words: nginx's proxy_set_header Authorization "Basic
// …", Apache's RequestHeader set X-Api-Key …, haproxy's http-request
// set-header, Caddy's header_up. No ':' or '=' follows the name, so the
// key rules leave the value.

// headerDirectives are the directives (the text right before the
// header's name) that set a request or response header.
var headerDirectives = [...]string{
	"proxy_set_header", "grpc_set_header", "add_header", "fastcgi_param", "uwsgi_param", "scgi_param",
	"RequestHeader set", "RequestHeader append", "RequestHeader add", "RequestHeader setifempty", "RequestHeader merge",
	"Header set", "Header always set", "Header add", "Header append", "Header always add",
	"set-header", "add-header", // haproxy's http-request set-header
	"header_up", "header_down", "header", "request_header", // Caddy
	"request_header_add", "reply_header_add", // squid
}

// headerDirective redacts the value of the header named by the word
// s[i:j] that a header directive sets, keeping an auth scheme, and
// returns where the pass resumes, or 0.
func (r *redactor) headerDirective(i, j int) int {
	s := r.s
	w := s[i:j]
	kind := secretKey(w)
	if kind == keyNone && !vendorKeyHeader(w) {
		return 0
	}
	b := i
	for b > 0 && (s[b-1] == ' ' || s[b-1] == '\t') {
		b--
	}
	if b == i {
		return 0
	}
	before := s[max(0, b-32):b]
	found := false
	for _, d := range headerDirectives {
		if strings.HasSuffix(before, d) && (len(before) == len(d) || !wordByte[before[len(before)-len(d)-1]]) {
			found = true
			break
		}
	}
	if !found {
		return 0
	}
	k := skipBlanks(s, j)
	if k >= len(s) {
		return 0
	}
	from, to := k, k
	if q := s[k]; q == '"' || q == '\'' {
		from = k + 1
		to = from
		for to < len(s) && s[to] != q && s[to] != '\n' {
			if s[to] == '\\' {
				to++
			}
			to++
		}
		to = min(to, len(s))
	} else {
		for to < len(s) && s[to] != ';' && s[to] != '\n' && s[to] != '\r' && s[to] != ' ' && s[to] != '\t' {
			to++
		}
	}
	if kind == keyAuth {
		// Keep the scheme: Basic, Bearer, Token.
		e := from
		for e < to && (s[e] >= 'A' && s[e] <= 'Z' || s[e] >= 'a' && s[e] <= 'z') {
			e++
		}
		if e > from && e < to && s[e] == ' ' {
			from = skipBlanks(s, e)
		}
	}
	if to <= from || s[from] == '$' {
		return 0 // none, or a variable: $http_authorization
	}
	return r.replace(from, to, Redacted)
}
