package policy

import "strings"

// opensslBuiltinProviders are the providers openssl carries or installs
// itself; any other -provider value names a module file to load.
var opensslBuiltinProviders = set(`default legacy fips base null`)

// opensslOuts are the options that name a file openssl writes. -signer
// is one only when verifying (smime and cms write the signers'
// certificates there) and is checked apart.
var opensslOuts = []string{"out", "keyout", "writerand", "sess_out", "certout", "certsout", "signature", "rand_out",
	"keylogfile", "msgfile", "reqout", "respout", "outdir", "CAserial",
	// cmp's: the certificates it is sent, the raw messages, and the
	// root CA update (genm) files.
	"chainout", "extracertsout", "cacertsout", "rspout", "reqout_only", "crlout",
	"newwithnew", "newwithold", "oldwithnew"}

// opensslProgram classifies openssl: loading engines, provider modules or
// a config file (whose openssl_conf section loads modules) runs code the
// command does not show; options that name an output file are checked as
// writes; subcommands that keep state (ca, srp, ts -reply, rehash), make a
// key file (req making a key without -keyout writes the config's
// default_keyfile) or serve (s_server, ocsp -port) are at least tier 2.
// openssl 3 takes "--opt" for "-opt", so both are read.
func opensslProgram(c *call, vals, ops []string) (Tier, string) {
	if len(vals) == 0 {
		// No command: openssl reads its commands from standard input.
		return c.commandPrompt()
	}
	opt := func(v string) string {
		if strings.HasPrefix(v, "--") {
			v = v[1:]
		}
		name, _, _ := strings.Cut(v, "=")
		return name
	}
	has := func(name string) bool {
		for _, v := range vals {
			if opt(v) == name {
				return true
			}
		}
		return false
	}
	// The TLS clients' peers and proxies are held to the host rules.
	for k, v := range vals {
		switch opt(v) {
		case "-connect", "-host", "-proxy":
			if _, val, ok := strings.Cut(v, "="); ok {
				c.checkHost(val)
			} else if k+1 < len(vals) {
				c.checkHost(vals[k+1])
			}
		}
	}
	if len(ops) > 1 && (ops[0] == "s_client" || ops[0] == "s_time") {
		c.checkHost(ops[1]) // openssl 3: s_client HOST:PORT
	}
	for _, v := range vals {
		if v == "engine" || opt(v) == "-engine" || opt(v) == "-ssl_client_engine" || opt(v) == "-provider-path" {
			return TierDestructive, "openssl " + v + ": loads a shared library"
		}
		if opt(v) == "-config" {
			return TierDestructive, "openssl " + v + ": loads the modules its config file names"
		}
	}
	for _, p := range opensslVals(c.args, "provider") {
		if !p.known || !opensslBuiltinProviders[p.val] {
			c.e.opaque = true
			return TierDestructive, "openssl -provider " + truncate(p.val, 64) + ": loads a shared library"
		}
	}
	files := opensslVals(c.args, opensslOuts...)
	if has("-verify") {
		files = append(files, opensslVals(c.args, "signer")...)
	}
	if len(files) > 0 {
		r := raiser{TierMutate, "openssl: writes a file"}
		for _, f := range files {
			r.raise(c.writeArg(f, "openssl output"))
		}
		return r.t, r.why
	}
	sub := ""
	if len(ops) > 0 {
		sub = ops[0]
	}
	switch {
	case sub == "ca" || sub == "genrsa" || sub == "genpkey" || sub == "srp" || sub == "rehash" || sub == "c_rehash":
		return TierMutate, "openssl " + sub + ": writes keys or state"
	case sub == "ts" && has("-reply"):
		return TierMutate, "openssl ts -reply: updates the serial file its config names"
	case has("-CAcreateserial"):
		return TierMutate, "openssl -CAcreateserial: writes a serial file"
	case sub == "req" && (has("-newkey") || has("-new") && !has("-key")):
		return TierMutate, "openssl req: writes the new key to the config's default_keyfile"
	case sub == "s_server":
		return TierMutate, "openssl s_server: serves on a network port"
	case (sub == "ocsp" || sub == "cmp") && has("-port"):
		// cmp -port is its mock CA server.
		return TierMutate, "openssl " + sub + " -port: serves on a network port"
	case sub == "s_client" && (c.ctx.stdin.kind == stdinUnknown || c.ctx.stdin.kind == stdinText && strings.TrimSpace(c.ctx.stdin.text) != ""):
		// Its input goes to the server, as nc's does (a Redis or SMTP
		// command, an HTTP request).
		return TierMutate, "openssl s_client: sends its input to the server"
	}
	return TierRead, "openssl"
}

// opensslVals returns the values of the named options as openssl reads
// them: one or two dashes, the value next or after "=" (-out=f).
func opensslVals(args []arg, names ...string) []arg {
	var out []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a.val, "-") {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a.val, "-"), "-"), "=")
		for _, n := range names {
			if name != n {
				continue
			}
			switch {
			case eq:
				out = append(out, arg{val: val, known: a.known, glob: a.glob})
			case i+1 < len(args):
				i++
				out = append(out, args[i])
			}
			break
		}
	}
	return out
}
