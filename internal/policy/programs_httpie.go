package policy

import "strings"

// httpieValueOpts are the options of HTTPie and xh that take a separate
// value.
var httpieValueOpts = set(`-a --auth -A --auth-type -o --output -p --print -P --history-print
	-s --style --pretty --format-options --verify --cert --cert-key --cert-key-pass --proxy
	--timeout --max-redirects --default-scheme --ssl --ciphers --boundary --raw
	--response-charset --response-mime --session --session-read-only --resolve --interface
	--bearer --http-version --unix-socket`)

// httpieFlags are HTTPie's long options that take no value, whole names
// that win over the value options they begin (--form, --format-options).
var httpieFlags = set(`--json --form --multipart --ignore-stdin --offline --verbose --all --headers
	--body --meta --download --continue --quiet --stream --follow --check-status --path-as-is
	--chunked --compress --traceback --debug --ignore-netrc --help --version --manual --sorted
	--unsorted`)

// httpieTakesValue reports whether an HTTPie or xh option word takes the
// next word as its value. HTTPie's argparse takes any unambiguous prefix
// of a long option ("--ti 5" is --timeout 5), so a prefix of a value
// option counts; xh's clap rejects one, so reading it so costs nothing.
func httpieTakesValue(v string) bool {
	if httpieValueOpts[v] {
		return true
	}
	if len(v) < 4 || !strings.HasPrefix(v, "--") || strings.Contains(v, "=") || httpieFlags[v] {
		return false
	}
	for o := range httpieValueOpts {
		if strings.HasPrefix(o, v) {
			return true
		}
	}
	return false
}

// httpieRequest classifies the METHOD that HTTPie and xh take before the
// URL (http DELETE example.org/x), and --session, which saves cookies and
// headers to a file.
func httpieRequest(c *call) (Tier, string) {
	var ops []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a.known && (a.val == "--session" || strings.HasPrefix(a.val, "--session=")):
			return TierMutate, c.name + " --session: writes a session file"
		case a.known && httpieTakesValue(a.val):
			i++
		case a.known && strings.HasPrefix(a.val, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) < 2 {
		return TierRead, ""
	}
	// Items after the URL: a header item (Name:Value) may override the
	// method.
	for _, it := range ops[1:] {
		if m, ok := overriddenMethod(it.val); ok {
			if t, why := methodTier(c.name+" "+truncate(it.val, 64), m, it.known); t > TierRead {
				return t, why
			}
		}
	}
	m := ops[0]
	if !m.known {
		if c.mayBeOption(m) || !strings.Contains(m.val, "://") {
			return TierMutate, c.name + ": " + truncate(m.val, 64) + " is computed at run time and can be a request method"
		}
		return TierRead, ""
	}
	u := strings.ToUpper(m.val)
	if u == "" || strings.Trim(u, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" || u == "GET" || u == "HEAD" || u == "OPTIONS" {
		return TierRead, ""
	}
	if u == "DELETE" {
		return TierDestructive, c.name + " DELETE: deletes the resource, as kubectl delete would"
	}
	return TierMutate, c.name + " " + u + ": changes remote state"
}

// httpieBody classifies the body HTTPie and xh send without a METHOD or
// key=value item saying so; a body makes the request a POST: a file
// field (name@FILE, @FILE, the first separator of the item an "@"),
// --raw DATA, or their standard input when it is not a terminal and holds
// anything (a pipe, a file, a here-string), unless --ignore-stdin.
func httpieBody(c *call) (Tier, string) {
	var ops []arg
	ignore := false
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		switch {
		case !a.known:
			ops = append(ops, a)
		case v == "-I" || len(v) >= len("--ignore-s") && strings.HasPrefix("--ignore-stdin", v):
			ignore = true
		case longFlag(v, "--raw") && len(v) >= len("--raw"):
			return TierMutate, c.name + " --raw: sends a request body (a POST)"
		case httpieTakesValue(v):
			i++
		case strings.HasPrefix(v, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) > 1 && ops[0].known && strings.Trim(ops[0].val, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == "" {
		ops = ops[1:] // the METHOD, which httpieRequest judges
	}
	for _, it := range ops[min(len(ops), 1):] {
		if k := strings.IndexAny(it.val, ":=@"); it.known && k >= 0 && it.val[k] == '@' {
			return TierMutate, c.name + " " + truncate(it.val, 64) + ": uploads a file in the request body (a POST)"
		}
	}
	if !ignore && (c.ctx.stdin.kind == stdinUnknown || c.ctx.stdin.kind == stdinText && strings.TrimSpace(c.ctx.stdin.text) != "") {
		return TierMutate, c.name + ": sends its input as the request body (a POST)"
	}
	return TierRead, ""
}
