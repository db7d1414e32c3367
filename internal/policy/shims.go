package policy

// Version managers install the programs of a language as shims or
// proxies that pick the binary they run from a file in the working
// directory or one above it: rustup's rust-toolchain.toml may name a
// toolchain by path (path = "/tmp/x/tc" makes cargo --version run
// /tmp/x/tc/bin/cargo), asdf's and mise's .tool-versions take path:DIR
// for any tool, pyenv before 2.3.3 followed a .python-version out of its
// versions (CVE-2022-35861), and the dotnet host resolves its SDK from
// global.json's paths. The classifier cannot know how a program was
// installed, so these programs, run where the working directory is a
// temporary one or known only at run time, are taken as such shims: a
// version query there runs what a tier 1 write put in the directory, on a
// plain SSH host unconfined. Elsewhere (cargo build in /srv/app) they keep
// their tier.

// shimPrograms are the programs version managers commonly shim, and the
// file naming the version they run.
var shimPrograms = map[string]string{
	"cargo": "rust-toolchain.toml", "rustc": "rust-toolchain.toml", "rustdoc": "rust-toolchain.toml",
	"rustfmt": "rust-toolchain.toml", "cargo-fmt": "rust-toolchain.toml", "cargo-clippy": "rust-toolchain.toml",
	"clippy-driver": "rust-toolchain.toml", "rust-analyzer": "rust-toolchain.toml", "rust-gdb": "rust-toolchain.toml",
	"rust-lldb": "rust-toolchain.toml", "rls": "rust-toolchain.toml", "cargo-miri": "rust-toolchain.toml", "rustup": "rust-toolchain.toml",
	"dotnet": "global.json",
	"python": ".python-version", "python2": ".python-version", "python3": ".python-version", "pip": ".python-version",
	"pip2": ".python-version", "pip3": ".python-version", "pydoc": ".python-version", "pydoc3": ".python-version",
	"idle": ".python-version", "idle3": ".python-version",
	"ruby": ".ruby-version", "gem": ".ruby-version", "irb": ".ruby-version", "erb": ".ruby-version", "ri": ".ruby-version",
	"rdoc": ".ruby-version",
	"node": ".node-version", "nodejs": ".node-version", "npm": ".node-version", "npx": ".node-version", "corepack": ".node-version",
	"go": ".go-version", "gofmt": ".go-version",
	"java": ".java-version", "javac": ".java-version", "jar": ".java-version", "jshell": ".java-version", "javadoc": ".java-version",
	"terraform": ".terraform-version",
	// Runtimes asdf and mise commonly manage (Erlang and Elixir are
	// rarely installed otherwise), phpenv and plenv.
	"erl": ".tool-versions", "erlc": ".tool-versions", "escript": ".tool-versions", "elixir": ".tool-versions",
	"elixirc": ".tool-versions", "iex": ".tool-versions", "deno": ".tool-versions", "bun": ".tool-versions",
	"kotlin": ".tool-versions", "kotlinc": ".tool-versions", "scala": ".tool-versions", "julia": ".tool-versions",
	"lua": ".tool-versions", "php": ".php-version", "perl": ".perl-version",
}

// shimFile returns the file naming the version the shim c.name runs, for
// versioned names too (pip3.12, python3.11).
func shimFile(name string) (string, bool) {
	if f, ok := shimPrograms[name]; ok {
		return f, true
	}
	if n := len(name); n == 0 || !versionByte(name[n-1]) {
		return "", false
	}
	t := name
	for len(t) > 0 && versionByte(t[len(t)-1]) {
		t = t[:len(t)-1]
	}
	f, ok := shimPrograms[t]
	return f, ok
}

// shimCode raises the tier t of call c to tier 3 when c may be a version
// manager's shim run in a directory the agent may have written.
func (c *call) shimCode(t Tier, why string) (Tier, string) {
	if t >= TierDestructive || c.e.paths == nil {
		return t, why
	}
	file, ok := shimFile(c.name)
	if !ok {
		return t, why
	}
	if where := c.e.agentCwdOf(true); where != "" {
		c.e.opaque = true
		if file != ".tool-versions" {
			file += " or .tool-versions"
		}
		return TierDestructive, c.name + " may be a version manager's shim, which runs the toolchain its directory's " +
			file + " names, and " + where
	}
	return t, why
}
