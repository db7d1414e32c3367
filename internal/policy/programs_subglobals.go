package policy

import "strings"

// Clients of a daemon or an API whose own parser refuses an option it
// does not know: cobra and pflag (docker, podman, nerdctl, kubectl, helm,
// lxc, incus, restic) and Go's flag package as urfave/cli uses it
// (crictl, ctr). Their tables list the global options that take no
// value; every other option word without "=" is read as taking the next
// word, as cobra's own command search reads it (an option it cannot name
// as a boolean skips a word). A value option the tables do not list then
// cannot pass its value off as the reading verb (podman --out ps rm X,
// crictl --profile-cpu ps rm X, helm --content-cache list uninstall X,
// restic --http-user-agent snapshots forget X); a word that is no option
// of the program makes it fail, so reading it so costs only a refused
// typo. The same reading holds between the words of a two-word
// subcommand, where cobra also takes the persistent global options
// (kubectl rollout -n status restart X is rollout restart in namespace
// "status").

// clientGlobals is how one such client's global options are read.
type clientGlobals struct {
	goFlag bool            // Go's flag package: -name is --name, no clusters
	flags  map[string]bool // the options that take no value
}

// containerGlobalFlags are docker's, podman's and nerdctl's global
// options that take no value, in one table as dockerTable is.
var containerGlobalFlags = clientGlobals{flags: set(`-D --debug --tls --tlsverify -v --version -h --help
	-r --remote --syslog --transient-store --noout --trace --debug-full --experimental --insecure-registry
	--kube-hide-dupe`)}

// strictGlobals are the clients read so, by program name.
var strictGlobals = map[string]clientGlobals{
	"docker":  containerGlobalFlags,
	"podman":  containerGlobalFlags,
	"nerdctl": containerGlobalFlags,
	"kubectl": {flags: set(`-h --help --version --insecure-skip-tls-verify --match-server-version --warnings-as-errors
		--disable-compression --alsologtostderr --logtostderr --one-output --skip-headers --skip-log-headers --add-dir-header`)},
	"helm":  {flags: set(`-h --help --debug --kube-insecure-skip-tls-verify`)},
	"lxc":   {flags: set(`-h --help --version --all --debug --verbose -v --quiet -q --force-local --sub-commands`)},
	"incus": {flags: set(`-h --help --version --all --debug --verbose -v --quiet -q --force-local --sub-commands`)},
	"restic": {flags: set(`-h --help -q --quiet -v --verbose --json --no-cache --no-lock --cleanup-cache --insecure-tls
		--insecure-no-password --no-extra-verify`)},
	"crictl": {goFlag: true, flags: set(`D debug enable-tracing h help v version`)},
	"ctr":    {goFlag: true, flags: set(`debug h help v version`)},
}

// takesNext reports whether the option word v takes the next word as its
// value, reading an option g does not list as one that does.
func (g clientGlobals) takesNext(v string) bool {
	if len(v) < 2 || v[0] != '-' || v == "--" {
		return false
	}
	if g.goFlag {
		name := strings.TrimPrefix(strings.TrimPrefix(v, "-"), "-")
		return !strings.Contains(name, "=") && !g.flags[name]
	}
	if strings.HasPrefix(v, "--") {
		return !strings.Contains(v, "=") && !g.flags[v]
	}
	// pflag's cluster: the first letter that is not a boolean takes the
	// rest of the word, or the next word when it ends the cluster.
	for j := 1; j < len(v); j++ {
		if !g.flags["-"+v[j:j+1]] {
			return j == len(v)-1
		}
	}
	return false
}

// secondWord returns the word after a subcommand's first word in rest
// (rest[0] is the first word) as a strict client reads it: the global
// options between them and their values skipped.
func (g clientGlobals) secondWord(rest []string) string {
	for i := 1; i < len(rest); i++ {
		v := rest[i]
		switch {
		case v == "--":
			if i+1 < len(rest) {
				return rest[i+1]
			}
			return ""
		case len(v) < 2 || v[0] != '-':
			return v
		case g.takesNext(v):
			i++
		}
	}
	return ""
}

// operands returns the words of rest that are no option or option value,
// as a strict client reads them.
func (g clientGlobals) operands(rest []string) []string {
	var out []string
	for i := 0; i < len(rest); i++ {
		switch v := rest[i]; {
		case v == "--":
			return append(out, rest[i+1:]...)
		case len(v) < 2 || v[0] != '-':
			out = append(out, v)
		case g.takesNext(v):
			i++
		}
	}
	return out
}
