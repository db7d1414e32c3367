package audit

import "strings"

// Program options that carry credentials. A command line names the program
// before its options, so the redactor keeps the last program word it saw
// (until a ';', '|', '&' or newline) and reads its options by that
// program's rules: sshpass -p, curl -u user:pass, smbclient -U user%pass,
// openssl -passin pass:…, htpasswd -b's password positional, and so on. A word
// counts as a program when it stands alone (followed by a blank, a quote,
// a separator or the end), so /etc/docker/daemon.json names none.

// split says which part of an option's value is the secret.
type split uint8

const (
	whole        split = iota // the whole value
	afterColon                // user:password (curl -u), kept when there is no ':'
	colonOrWhole              // user:password, or a bare token (httpie -a with -A bearer)
	afterPercent              // user%password (Samba -U)
	afterComma                // user,password (lftp -u)
	afterEquals               // key=secret (kubectl --from-literal)
	passArg                   // openssl's pass:secret; env:, file:, fd: and stdin name no secret
	userinfo                  // [user:password@]host of a proxy without a scheme (curl -x)
	oracleLogin               // user/password[@db] (sqlplus, expdp userid=…)
	aclRule                   // a redis ACL rule: >password adds one, <password removes it
	domainLogin               // impacket's [domain/]user:password[@host]; without '@' only after a domain/
	userColon                 // user:password of a word that is no URL (bundle config HOST user:pw)
)

// option is one option whose value is secret.
type option struct {
	name  string // "-p", "--user", "-passin"
	split split
	// attachedOnly: the value is only ever attached (mysql -pSECRET,
	// 7z -pSECRET); a separate word is something else.
	attachedOnly bool
	// sub: the option means a password only after this subcommand
	// (docker login -p; docker run -p is a port).
	sub string
	// nth: the secret is the nth word after the option, not its value
	// (synouser --setpw USER PASSWORD: 1).
	nth int
	// afterKey: the option holds a secret only when an earlier argument
	// names one (occ config:system:set dbpassword --value PW).
	afterKey bool
	// optional: given alone, the option asks for the secret, so an
	// option after it is no value (mongo -p --authenticationDatabase
	// admin). Otherwise the value is required, and getopt takes the next
	// word whatever it starts with (sshpass -p -S3cret).
	optional bool
}

// positional is a positional argument that is secret, counted from the
// word after the subcommand words in after (none: after the program).
type positional struct {
	after []string
	index int
	// every: every positional without '=' (vault login TOKEN).
	every bool
	// split: which part of the positional is secret; whole by default.
	split split
	// and: a second secret positional after index (snmpd.conf's
	// createUser: authentication, then privacy passphrase); 0 for none.
	and int
	// notFirst: no secret when the first positional is one of these
	// (Samba's net user add …, not Windows' net user NAME PW).
	notFirst []string
	// afterUNC: positionals are counted from the word after a
	// \\server\share path (net use Z: \\h\s PW).
	afterUNC bool
	// port: a second positional of digits only is a port given apart
	// from its host, which moves the secret one word on (deluge-console
	// connect HOST PORT USER PASSWORD).
	port bool
	// pair: a word without '=' names the next word, its value (doppler
	// secrets set NAME VALUE), beside NAME=VALUE words.
	pair bool
	// mounts: the first positional, a path, must start with one of these
	// for the rest to be secret (vault write secret/x k=v).
	mounts []string
	// userFirst: with every, of exactly two positionals the first is a
	// user's name (Redis' AUTH bob pw; AUTH pw has the password alone).
	userFirst bool
}

type program struct {
	opts []option
	// cluster: short options combine, the value attached or next
	// (curl -sSu user:pass, ldapsearch -xw secret).
	cluster bool
	// flags: when set, the letters of the options without a value that
	// may come before the secret option in a cluster (mysql -Bp…, zip
	// -rP …); any other letter takes the rest of the word as its value
	// (mysql -hexample.com), which ends the cluster.
	flags string
	// noAttach: single-dash long options (openssl -key) mean a short
	// option's letter followed by more letters is another option.
	noAttach bool
	// configSub: "secret-named-key value" pairs are set after this
	// subcommand (git config user.password x), or any of several
	// separated by blanks; "*" means always.
	configSub string
	// slash: options are spelled /name:value (xfreerdp /p:secret).
	slash bool
	// cmdOnly: the name is a program only as a command's first word
	// (set, which is also a subcommand of many programs).
	cmdOnly bool
	pos     []positional
	// valued: options whose value is the next word, which the look-ahead
	// for secret positionals skips (smbclient -W DOM //nas/share SECRET).
	valued []string
	// winOpts: /name and /name:value words are options, not positionals
	// (net user /add bob PW).
	winOpts bool
	// htpasswd: with -b the password is a positional, the third (file
	// user password) or, with -n, the second.
	htpasswd bool
	// query: name==value is a query parameter (httpie), not a comparison.
	query bool
	// prompt: options, given without a value, that make the program ask
	// for a password, which it reads on its input when it has no
	// terminal, as under warden (mysql -p, psql -W): its input is secret.
	prompt []string
	// userSep: a user= or username= key of its options holds
	// user<userSep>password (mount.cifs -o username=bob%pw).
	userSep byte
	// dsn: a key p= of its DSNs (h=db,u=root,p=secret) is the password
	// (Percona Toolkit).
	dsn bool
	// keyed: the option naming a setting's key and the one giving its
	// value, apart (reg add /v Password /d …; redact_keyed.go).
	keyed *keyedOpts
	// abbrev: a long option may be cut to a prefix and spelled in any
	// case (curl before 8.6: --proxy-us, --USER; MySQL's clients:
	// --pas=…). A prefix another option shares is refused by the
	// program, so reading it as the secret one hides nothing needed.
	abbrev bool
	// goFlags: the program reads its options with Go's flag package,
	// where -name and --name are one option (consul, nomad).
	goFlags bool
}

var (
	registryLogin = &program{opts: []option{{name: "-p", sub: "login"}, {name: "--password", sub: "login"}}}
	// podman and buildah pull, push, run and from with --creds
	// user[:password], as skopeo does; alone, the name asks for it.
	podmanLike = &program{opts: []option{{name: "-p", sub: "login"}, {name: "--password", sub: "login"}, {name: "--creds", split: afterColon}}}
	mysqlLike  = &program{opts: []option{{name: "-p", attachedOnly: true}}, prompt: []string{"-p", "--password"}, cluster: true, flags: mysqlFlags, abbrev: true}
	// mysqlFlags are the MySQL clients' short options without a value.
	mysqlFlags   = "BCEfGHiLnNqrstvVwX#"
	postgresLike = &program{prompt: []string{"-W", "--password"}}
	// createuser -P asks for the new role's password, twice.
	createUser = &program{prompt: []string{"-W", "--password", "-P", "--pwprompt"}}
	// salt '*' user.chpass bob PW, salt-call --local shadow.set_password bob PW.
	saltLike = &program{pos: []positional{{after: []string{"user.chpass"}, index: 1}, {after: []string{"shadow.set_password"}, index: 1}}}
	// 7z a -p, rar a -p: without a value the password is asked for.
	archiver  = &program{opts: []option{{name: "-p", attachedOnly: true}}, prompt: []string{"-p"}}
	mongoLike = &program{opts: []option{{name: "-p", optional: true}}}
	redisLike = &program{opts: []option{{name: "-a"}}, configSub: "*", pos: []positional{
		{after: []string{"AUTH"}, every: true, userFirst: true}, {after: []string{"auth"}, every: true, userFirst: true},
		{after: []string{"SETUSER"}, every: true, split: aclRule}, {after: []string{"setuser"}, every: true, split: aclRule},
	}}
	oracleLike = &program{pos: []positional{{every: true, split: oracleLogin}}}
	ldapLike   = &program{cluster: true, opts: []option{{name: "-w"}}}
	sambaLike  = &program{cluster: true, flags: sambaFlags, opts: []option{{name: "-U", split: afterPercent}, {name: "--user", split: afterPercent}}}
	// sambaFlags are the options without a value common to Samba's
	// tools, which popt lets stand before -U in one word (-NU bob%pw).
	sambaFlags = "NPeCkV"
	curlLike   = &program{cluster: true, abbrev: true, opts: []option{
		{name: "-u", split: afterColon}, {name: "--user", split: afterColon},
		{name: "-U", split: afterColon}, {name: "--proxy-user", split: afterColon},
		{name: "-E", split: afterColon}, {name: "--cert", split: afterColon}, {name: "--proxy-cert", split: afterColon},
		{name: "--oauth2-bearer"}, {name: "-b"}, {name: "--cookie"},
		{name: "-x", split: userinfo}, {name: "--proxy", split: userinfo}, {name: "--preproxy", split: userinfo},
		{name: "--socks4", split: userinfo}, {name: "--socks4a", split: userinfo},
		{name: "--socks5", split: userinfo}, {name: "--socks5-hostname", split: userinfo},
	}}
	httpie = &program{cluster: true, query: true, opts: []option{
		{name: "-a", split: colonOrWhole}, {name: "--auth", split: colonOrWhole}, {name: "--proxy-auth", split: colonOrWhole},
		{name: "--bearer"},
	}}
	// SNMPv3's -3m/-3x master keys and -3k/-3K/-3M/-3X localized keys are
	// the passwords' hashes, as good as them.
	snmpLike = &program{opts: []option{{name: "-c"}, {name: "-A"}, {name: "-X"},
		{name: "-3m"}, {name: "-3x"}, {name: "-3k"}, {name: "-3K"}, {name: "-3M"}, {name: "-3X"}}}
	// vault login TOKEN, operator unseal KEY, unwrap TOKEN, token lookup
	// TOKEN; kv put and patch store the value of every key=value.
	vaultLike = &program{opts: []option{{name: "-id", sub: "token"}}, pos: []positional{
		{after: []string{"login"}, every: true}, {after: []string{"unseal"}, every: true},
		{after: []string{"unwrap"}, every: true},
		// token lookup, renew and revoke take the token itself.
		{after: []string{"token", "lookup"}, index: 0}, {after: []string{"token", "renew"}, index: 0},
		{after: []string{"token", "revoke"}, index: 0},
		{after: []string{"kv", "put"}, every: true, split: afterEquals}, {after: []string{"kv", "patch"}, every: true, split: afterEquals},
		// vault write to a KV or cubbyhole mount stores every value;
		// elsewhere (pki/issue, sys/policy) values are settings.
		{after: []string{"write"}, every: true, split: afterEquals, mounts: []string{"secret/", "kv/", "kv-v2/", "kvv2/", "cubbyhole/", "secrets/"}},
	}}
	ipmiLike = &program{opts: []option{{name: "-p"}, {name: "-k"}}}
	rarLike  = &program{opts: []option{{name: "-p", attachedOnly: true}, {name: "-hp", attachedOnly: true}}, prompt: []string{"-p", "-hp"}}
	// bundle config [set] [--global|--local] HOST user:pw, Bundler's
	// credentials for a gem source.
	bundler = &program{pos: []positional{{after: []string{"config"}, every: true, split: userColon}}}
	// youtube-dl and its forks, gallery-dl: -p is --password.
	ytdl = &program{opts: []option{{name: "-p"}, {name: "--password"}, {name: "--video-password"}, {name: "--ap-password"}}}
	// mc, the MinIO client, as packages name it too (mcli, minio-client).
	minioClient = &program{pos: []positional{
		{after: []string{"alias", "set"}, index: 3}, {after: []string{"host", "add"}, index: 3},
		{after: []string{"user", "add"}, index: 2},
	}}
	zkCli     = &program{configSub: "create set", pos: []positional{{after: []string{"digest"}, index: 0, split: afterColon}}}
	httpBasic = &program{configSub: "config", pos: []positional{{after: []string{"http-basic.*"}, index: 1}}}
	freerdp   = &program{slash: true, opts: []option{{name: "/p:"}, {name: "/gp:"}, {name: "/pth:"}}}
	// Windows' directory tools: -p is the binding user's password,
	// -pwd the password set.
	dsTool = &program{noAttach: true, opts: []option{{name: "-p"}, {name: "-pwd"}}}
	// impacket: [domain/]user:password[@target] (GetADUsers.py and the
	// other LDAP and Kerberos scripts take no target), -hashes LM:NT,
	// and the hashes and passwords its scripts set or forge with.
	impacket = &program{opts: []option{
		{name: "-hashes"}, {name: "-aesKey"}, {name: "-nthash"}, {name: "-newhashes"}, {name: "-oldhashes"},
		{name: "-newpass"}, {name: "-oldpass"}, {name: "-computer-pass"}, {name: "-new-pass"},
	}, pos: []positional{{every: true, split: domainLogin}}}
	// noRules ends the previous program's context: sshpass -p x ssh -p 22.
	noRules = &program{}
	// unknownProgram is a program the table does not name, run with a
	// login subcommand (loginNext): its -p is the password (cf login -u
	// u -p PW, bosh login -p PW), as for every registry and cloud CLI
	// the table names.
	unknownProgram = &program{opts: []option{
		{name: "-p", sub: "login"}, {name: "-p", sub: "logon"}, {name: "-p", sub: "signin"}, {name: "-p", sub: "sign-in"},
	}}
)

// programShape holds, per first two bytes of a program name, the lengths
// the names with them come in (bit n for length n, every bit from a
// family's prefix length up), and programThird their third bytes (bit
// c&63), so that almost every word is rejected by two table look-ups
// before any map look-up.
var programShape, programThird = func() (t [256][256]uint32, third [256][256]uint64) {
	for name := range programs {
		t[name[0]][name[1]] |= 1 << len(name)
		if len(name) > 2 {
			third[name[0]][name[1]] |= 1 << (name[2] & 63)
		}
	}
	for _, f := range programFamilies {
		t[f.prefix[0]][f.prefix[1]] |= ^uint32(0) << len(f.prefix)
		if len(f.prefix) > 2 {
			third[f.prefix[0]][f.prefix[1]] |= 1 << (f.prefix[2] & 63)
		} else {
			third[f.prefix[0]][f.prefix[1]] = ^uint64(0)
		}
	}
	return t, third
}()

// familyStart marks the first two bytes of programFamilies' prefixes, so
// a name that passes mayBeProgram but is in no family (compose, beside
// coercer and composer) costs one map look-up.
var familyStart = func() (t [256][256]bool) {
	for _, f := range programFamilies {
		t[f.prefix[0]][f.prefix[1]] = true
	}
	return t
}()

// mayBeProgram reports whether w has the shape of a program name.
func mayBeProgram(w string) bool {
	return len(w) >= 2 && len(w) < 32 && programShape[w[0]][w[1]]&(1<<len(w)) != 0 &&
		(len(w) == 2 || programThird[w[0]][w[1]]&(1<<(w[2]&63)) != 0)
}

// lookupProgram returns the rules of the program named w, or nil.
func lookupProgram(w string) *program {
	if !mayBeProgram(w) {
		return nil
	}
	if p := programs[w]; p != nil {
		return p
	}
	if !familyStart[w[0]][w[1]] {
		return nil
	}
	for _, f := range programFamilies {
		if strings.HasPrefix(w, f.prefix) {
			return f.p
		}
	}
	return nil
}

// standsAlone reports whether the word ending at j is followed by what ends
// a shell word, so it can be a program name or a subcommand.
func standsAlone(s string, j int) bool {
	if j >= len(s) {
		return true
	}
	switch s[j] {
	case ' ', '\t', '\n', '\r', '"', '\'', ';', '|', '&', ')', '`':
		return true
	}
	return false
}

// startsWord reports whether s[i] begins a shell word.
func startsWord(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch c := s[i-1]; c {
	case ' ', '\t', '\n', '"', '\'', '(', '`', ';', '|', '&':
		return true
	default:
		// A terminal's control keys typed into a session (Enter as
		// '\r', Ctrl-U, Ctrl-C) end what came before.
		return c < ' '
	}
}

// hasSub reports whether the current program's arguments so far include
// the subcommand word.
func (r *redactor) hasSub(word string) bool {
	for _, w := range r.subs[:r.nsubs] {
		if w == word {
			return true
		}
	}
	return false
}

// keyArgument reports whether an argument of the current program so far
// names a secret (mail_smtppassword, password).
func (r *redactor) keyArgument() bool {
	for _, w := range r.subs[:r.nsubs] {
		if flagSecretName(w) {
			return true
		}
	}
	return false
}

// subsEndWith reports whether the last subcommand words are after.
func (r *redactor) subsEndWith(after []string) bool {
	if len(after) > r.nsubs {
		return false
	}
	got := r.subs[r.nsubs-len(after) : r.nsubs]
	for k := range after {
		if !subMatch(after[k], got[k]) {
			return false
		}
	}
	return true
}

// subMatch reports whether the argument w is the subcommand word want, or
// starts with it when want ends in '*' (http-basic.* for http-basic.repo).
func subMatch(want, w string) bool {
	if p, ok := strings.CutSuffix(want, "*"); ok {
		return strings.HasPrefix(w, p)
	}
	return w == want
}

// echoedLine reports whether the word at i starts a command of the script
// an echo or printf writes (echo 'set -x API_TOKEN …' >> config.fish,
// printf 'x\nset -x …' | fish): it follows the text's opening quote, a
// line end, written or as printf's \n or \r escape, a separator (';',
// '|', '&', '(', '{') or a keyword that starts a command (fish's and, or,
// not, begin, else; sh's then, do), past blanks and \t escapes. It looks
// back over the blanks before one word, so the pass stays linear.
func (r *redactor) echoedLine(i int) bool {
	s, from := r.s, r.stdin.echoAt
	if from < 0 || i <= from {
		return false
	}
	k := i
	for k > from+1 {
		if s[k-1] == ' ' || s[k-1] == '\t' {
			k--
		} else if k-2 > from && s[k-2] == '\\' && s[k-1] == 't' {
			k -= 2
		} else {
			break
		}
	}
	switch s[k-1] {
	case '\'', '"', '\n', ';', '|', '&', '(', '{':
		return true
	case 'n', 'r':
		if k-2 > from && s[k-2] == '\\' {
			return true
		}
	}
	if k == i {
		return false
	}
	w := k
	for w > from+1 && w > k-6 && s[w-1] >= 'a' && s[w-1] <= 'z' {
		w--
	}
	switch s[w:k] {
	case "and", "or", "not", "begin", "else", "then", "do":
		return r.echoedLine(w)
	}
	return false
}

// escapedStart reports whether the byte at i is the letter of a \n, \r or
// \t escape in the text an echo or printf writes, followed by a word:
// the word starts there, not at the escape's letter.
func (r *redactor) escapedStart(i int) bool {
	s := r.s
	return r.stdin.echoAt >= 0 && i > r.stdin.echoAt+1 && s[i-1] == '\\' && s[i-2] != '\\' &&
		i+1 < len(s) && wordByte[s[i+1]]
}

// positionalAfter reports whether a positional rule of p starts after
// the subcommand word w.
func (p *program) positionalAfter(w string) bool {
	for _, ps := range p.pos {
		if len(ps.after) > 0 && subMatch(ps.after[len(ps.after)-1], w) {
			return true
		}
	}
	return false
}

// enterProgram starts the context of program p, whose name ends at j.
func (r *redactor) enterProgram(p *program, j int) {
	r.prog, r.nsubs, r.htN = p, 0, false
	r.holdFeed(p)
	if p.keyed != nil {
		r.keyedLook(j, p.keyed)
	}
	for _, ps := range p.pos {
		if len(ps.after) == 0 {
			r.lookAhead(j, ps, false)
		}
	}
}

// argument records a plain word of the current program's arguments and
// starts the look-ahead of the positional rules it triggers.
func (r *redactor) argument(i, j int) {
	w := r.s[i:j]
	if r.nsubs == len(r.subs) {
		// Keep the first word and the last ones: git config …,
		// ipmitool -H h -U u user set password.
		copy(r.subs[1:], r.subs[2:])
		r.nsubs--
	}
	r.subs[r.nsubs] = w
	r.nsubs++
	for _, ps := range r.prog.pos {
		if len(ps.after) > 0 && subMatch(ps.after[len(ps.after)-1], w) && r.subsEndWith(ps.after) {
			r.lookAhead(j, ps, false)
		}
	}
}

// option redacts the value of the current program's option starting the
// word s[i:j], returning where scanning resumes, or 0 when the word is no
// such option.
func (r *redactor) option(i, j int) int {
	s, p := r.s, r.prog
	w := s[i:j]
	if p.htpasswd {
		if len(w) > 1 && w[1] != '-' {
			if strings.IndexByte(w, 'n') > 0 {
				r.htN = true
			}
			if strings.IndexByte(w, 'b') > 0 {
				k := j
				if c := w[len(w)-1]; c == 'C' || c == 'r' {
					// -bnBC 10: the cost or rounds come first.
					k = shellWordEnd(s, skipBlanks(s, j))
				}
				r.lookAhead(k, positional{}, true)
			}
		}
		return 0
	}
	if p.goFlags && len(w) > 3 && w[1] == '-' && w[2] != '-' {
		i, w = i+1, w[1:] // consul --encrypt=…: Go's flag package takes one dash or two
	}
	for _, o := range p.opts {
		if o.sub != "" && !r.hasSub(o.sub) || o.afterKey && !r.keyArgument() {
			continue
		}
		if o.nth > 0 && w == o.name {
			r.lookAhead(j, positional{index: o.nth}, false)
			return j
		}
		k := -1
		switch {
		case w == o.name && j < len(s) && s[j] == '=':
			k = j + 1 // --user=bob:pw, -p=secret
		case j < len(s) && s[j] == ':' && len(o.name) == len(w)+1 && o.name[len(w)] == ':' && strings.HasPrefix(o.name, w):
			k = j + 1 // winrs -p:secret
		case w == o.name && len(o.name) == 2 && !p.noAttach && (startsQuote(s, j) || expansionAt(s, j) || escapeAt(s, j) || joinsWord(s, j)):
			k = j // -p'SECRET', -p$PASS, -p\ SECRET, -p!SECRET
		case w == o.name && !o.attachedOnly:
			if k = skipBlanks(s, j); k == j || k >= len(s) || s[k] == '-' && !dashValue(s, k, o) {
				k = -1
			}
		case len(o.name) == 2 && len(w) > 2 && !p.noAttach && strings.HasPrefix(w, o.name):
			k = i + 2 // -pSECRET
		case o.attachedOnly && len(w) > len(o.name) && strings.HasPrefix(w, o.name):
			k = i + len(o.name) // rar -hpSECRET
		}
		if k >= 0 {
			// An option read by its program's rule is no key for the
			// generic ones, even when its value holds no secret
			// (openssl -passin env:VAR).
			return max(r.optionValue(k, o.split), j)
		}
	}
	if p.abbrev && len(w) > 4 && w[1] == '-' {
		if end := r.abbreviated(i, j); end > 0 {
			return end
		}
	}
	if !p.cluster || len(w) < 3 || w[1] == '-' {
		return 0
	}
	// -sSLu user:pass, -xwsecret: the first letter that is a known
	// option takes the rest of the word, or the next word.
	for x := 1; x < len(w); x++ {
		for _, o := range p.opts {
			if len(o.name) != 2 || o.name[1] != w[x] || (o.sub != "" && !r.hasSub(o.sub)) {
				continue
			}
			k := i + x + 1
			if x == len(w)-1 && !startsQuote(s, j) && !expansionAt(s, j) && !escapeAt(s, j) && !joinsWord(s, j) {
				if o.attachedOnly {
					return 0 // mysql -Bp asks for the password
				}
				if k = skipBlanks(s, j); k == j || k >= len(s) {
					return 0
				}
			}
			return max(r.optionValue(k, o.split), j)
		}
		if p.flags != "" && strings.IndexByte(p.flags, w[x]) < 0 {
			if x == 1 && isAlnum(w[1]) {
				// -Password: is sshpass's -P with the prompt it waits
				// for attached, no key named Password.
				return j
			}
			return 0
		}
	}
	return 0
}

// abbreviated reads the word s[i:j] as the long option of the program's
// that it shortens or spells in another case, and returns where scanning
// resumes, or 0.
func (r *redactor) abbreviated(i, j int) int {
	s, w := r.s, r.s[i:j]
	opts := r.prog.opts
	for _, p := range r.prog.prompt {
		// A prompting option takes its value only attached (mysql
		// --pas=…); spelled whole, the generic rules read it.
		if len(p) > 2 && p[1] == '-' {
			opts = append(opts[:len(opts):len(opts)], option{name: p, attachedOnly: true})
		}
	}
	for _, o := range opts {
		if len(o.name) < len(w) || o.name == w || o.name[1] != '-' || !hasPrefixFold(o.name, w) || o.sub != "" && !r.hasSub(o.sub) {
			continue
		}
		k := -1
		switch {
		case j < len(s) && s[j] == '=':
			k = j + 1
		case !o.attachedOnly:
			if k = skipBlanks(s, j); k == j || k >= len(s) || s[k] == '-' && !dashValue(s, k, o) {
				k = -1
			}
		}
		if k >= 0 {
			return max(r.optionValue(k, o.split), j)
		}
	}
	return 0
}

// dashValue reports whether the word at k, which starts with '-', is the
// value of o, an option whose value is required: a single-dash word
// (sshpass -p -S3cret) is, as getopt reads it; a long option or a lone
// '-' after it is taken for a mistake, not a password.
func dashValue(s string, k int, o option) bool {
	return !o.optional && k+1 < len(s) && s[k+1] != '-' && s[k+1] != ' ' && s[k+1] != '\t' && s[k+1] != '\n'
}

// optionValue redacts the secret part of the value starting at k.
func (r *redactor) optionValue(k int, how split) int {
	start, end := r.valueWord(k, false)
	return r.splitValue(start, end, how)
}

// splitValue redacts the secret part of the value s[start:end].
func (r *redactor) splitValue(start, end int, how split) int {
	s := r.s
	if end <= start {
		return 0
	}
	v := s[start:end]
	if lockMarker(strings.Trim(v, `'"`)) {
		return 0 // usermod -p '!' bob: a locked account's marker, no password
	}
	from := start
	switch how {
	case afterColon, colonOrWhole, afterPercent, afterComma, afterEquals:
		if x := strings.IndexByte(v, separator(how)); x > 0 && x == len(v)-1 && how == afterColon {
			// curl -u TOKEN: (an API key as the user, the password
			// empty): the user is the secret.
			end = start + x
		} else if x >= 0 {
			from = start + x + 1
		} else if how != colonOrWhole {
			return 0
		}
	case userinfo:
		at := strings.LastIndexByte(v, '@')
		if at < 0 || strings.Contains(v, "://") {
			return 0 // no credentials, or a URL the URL rule reads
		}
		colon := strings.IndexByte(v[:at], ':')
		if colon < 0 {
			return 0
		}
		from, end = start+colon+1, start+at
	case oracleLogin:
		from, end = oracleSecret(s, start, end)
	case passArg:
		switch {
		case strings.HasPrefix(v, "pass:"):
			from = start + len("pass:")
		case strings.HasPrefix(v, "env:"), strings.HasPrefix(v, "file:"), strings.HasPrefix(v, "fd:"), v == "stdin":
			return 0
		}
	}
	if from >= end {
		return 0
	}
	return r.replace(from, end, Redacted)
}

// oracleSecret returns the password span of user/password[@db] in
// s[start:end], after a key= (userid=scott/tiger); empty when there is
// none (/ as sysdba, a path).
func oracleSecret(s string, start, end int) (int, int) {
	v := s[start:end]
	// userid=scott/tiger: a key before the login; an '=' after the '/'
	// is the connect descriptor's (scott/tiger@(DESCRIPTION=…)).
	if eq := strings.IndexByte(v, '='); eq >= 0 && (strings.IndexByte(v, '/') < 0 || eq < strings.IndexByte(v, '/')) {
		start += eq + 1
		v = v[eq+1:]
	}
	slash := strings.IndexByte(v, '/')
	if slash <= 0 {
		return end, end
	}
	from := start + slash + 1
	if at := strings.IndexByte(v[slash:], '@'); at >= 0 {
		end = start + slash + at
	}
	return from, end
}

// separator is the byte between the user (or key) and the secret.
func separator(how split) byte {
	switch how {
	case afterPercent:
		return '%'
	case afterComma:
		return ','
	case afterEquals:
		return '='
	}
	return ':'
}

// valueSpan returns the value starting at k without its quotes; unquoted,
// it runs to the end of the shell word (commas included: lftp -u a,b).
func valueSpan(s string, k int) (start, end int) {
	switch {
	case k >= len(s):
		return k, k
	case strings.HasPrefix(s[k:], `'\''`):
		// A quote of the shell inside sh -c '…': the value runs to the
		// next one.
		if e := strings.Index(s[k+4:], `'\''`); e >= 0 {
			return k + 4, k + 4 + e
		}
		return k + 4, len(s)
	case escapedQuote(s, k) > 0:
		q := escapedQuote(s, k)
		return k + q, quotedEnd(s, k+q, s[k:k+q])
	case strings.HasPrefix(s[k:], "$'"):
		// $'pw\npw', read where bash's quotes are not tracked (a
		// here-document's body).
		e := ansiEnd(s, k+2)
		if e > k+2 && s[e-1] == '\'' {
			e--
		}
		return k + 2, e
	case s[k] == '"' || s[k] == '\'':
		return k + 1, quotedEnd(s, k+1, s[k:k+1])
	}
	for end = k; end < len(s); end++ {
		switch s[end] {
		case ' ', '\t', '\n', '\r', ';', '|', '&', '<', '>', '"', '\'', '`':
			return k, end
		}
	}
	return k, end
}

// takesValue reports whether the option tok takes the next word as its
// value by p's rules.
func (p *program) takesValue(tok string) bool {
	if p.flags != "" && len(tok) > 2 && tok[0] == '-' && tok[1] != '-' && strings.Trim(tok[1:len(tok)-1], p.flags) == "" {
		tok = "-" + tok[len(tok)-1:] // smbclient -NU bob%pw: -U's value
	}
	for _, v := range p.valued {
		if v == tok {
			return true
		}
	}
	return false
}

// lockMarker reports whether a password value is only the marker of a
// locked or passwordless account in shadow's password field (!, !!, *,
// !*): nothing to hide, and the audit line should say the account was
// locked.
func lockMarker(v string) bool {
	return v != "" && len(v) <= 3 && strings.Trim(v, "!*") == ""
}

// unlistedLogin enters unknownProgram when the word s[i:j] is a command
// the table does not name, run with a login subcommand (cf login -u u
// -p PW).
func (r *redactor) unlistedLogin(i, j int) bool {
	if r.stdin.cmdAt != i || !loginNext(r.s, j) || !standsAlone(r.s, j) || lookupProgram(r.s[i:j]) != nil {
		return false
	}
	r.enterProgram(unknownProgram, j)
	return true
}

// loginNext reports whether the words after j start with a login
// subcommand, alone or after auth (fly auth login), taking options.
func loginNext(s string, j int) bool {
	for range 2 {
		k := skipBlanks(s, j)
		if k == j {
			return false
		}
		j = k
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] == '-') {
			j++
		}
		if !standsAlone(s, j) {
			return false
		}
		switch s[k:j] {
		case "login", "logon", "signin", "sign-in":
			// Not a protocol's LOGIN user pw line, which another rule
			// reads.
			return wordsLeft(s, j) != 2 || s[skipBlanks(s, j)] == '-'
		case "auth":
		default:
			return false
		}
	}
	return false
}
