package policy

import "strings"

// methodOverrides are the request headers by which web frameworks and API
// gateways (Google's APIs, ASP.NET, Symfony, Express's method-override)
// take a request as another method: a GET carrying one that says DELETE
// deletes, as curl -X DELETE does.
var methodOverrides = set(`x-http-method-override x-http-method x-method-override`)

// overriddenMethod returns the method a request header ("Name: value")
// overrides the request's with, upper case, and whether it names one. h
// may be a word's text as written, quotes and all, when its value is
// known only at run time ("X-HTTP-Method-Override: $M").
func overriddenMethod(h string) (string, bool) {
	name, val, ok := strings.Cut(h, ":")
	if !ok || !methodOverrides[strings.ToLower(strings.TrimLeft(strings.TrimSpace(name), `$"'`))] {
		return "", false
	}
	return strings.ToUpper(strings.TrimSpace(val)), true
}

// methodTier is the tier of a request by method m, which prog spells as
// how: GET, HEAD and OPTIONS read; DELETE deletes; any other method, or
// one known only at run time (known false), changes remote state.
func methodTier(how, m string, known bool) (Tier, string) {
	switch {
	case !known:
		return TierMutate, how + ": request method computed at run time"
	case m == "GET" || m == "HEAD" || m == "OPTIONS":
		return TierRead, ""
	case m == "DELETE":
		return TierDestructive, how + ": deletes the resource, as kubectl delete would"
	}
	return TierMutate, how + ": changes remote state"
}
