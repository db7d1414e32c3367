package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// mayBeOption reports whether an argument can reach the program as an
// option: a known value beginning with '-', a glob that can match a file
// named like one, or a value computed at run time that can begin with '-'
// or split into several words (x='-o /etc/passwd'; sort $x). A computed
// word that starts with a literal other than '-' and has no unquoted
// expansion ("/var/log/$f", "http://$host/") is one operand, and so is a
// variable that provably holds an integer.
func (c *call) mayBeOption(a arg) bool {
	splits, dash := c.computedShape(a)
	return splits || dash
}

// computedShape reports whether an argument can become several words
// (splits) and whether one of them can begin with '-' (dash).
func (c *call) computedShape(a arg) (splits, dash bool) {
	if a.known {
		return false, strings.HasPrefix(a.val, "-") || a.glob && a.val != "" && strings.ContainsAny(a.val[:1], "*?[")
	}
	if splits, dash, ok := c.quickShape(a.val); ok {
		return splits, dash
	}
	w := c.e.wordOf(a.val)
	if w == nil || len(w.Parts) == 0 {
		return true, true
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if allElementsIn(p) {
				return true, true // "$@", "${a[@]}": a word per element
			}
		case *syntax.ParamExp:
			if !c.intParam(p) {
				return true, true // an unquoted expansion splits into fields
			}
		case *syntax.CmdSubst:
			if !numericOut(p, c.ctx.sc) {
				return true, true
			}
		default:
			return true, true
		}
	}
	return false, !c.safeLead(w.Parts[0])
}

// quickShape is computedShape for the common spellings, without parsing:
// $x, ${x}, "$x", "${x}" and a double-quoted word that starts with a
// plain character. ok is false for anything else.
func (c *call) quickShape(src string) (splits, dash, ok bool) {
	quoted := len(src) >= 2 && src[0] == '"' && src[len(src)-1] == '"'
	inner := src
	if quoted {
		inner = src[1 : len(src)-1]
		if strings.ContainsAny(inner, "\"\\`") {
			return false, false, false
		}
		if inner != "" && !strings.ContainsRune("$-", rune(inner[0])) {
			return false, false, true
		}
	}
	if n, ok := varRef(inner); ok && varRefWhole(inner) {
		if n == "@" {
			return true, true, true // "$@" is as many words as there are parameters
		}
		intVal := strings.Contains("#?$!", n) && len(n) == 1 || validName(n) && c.e.intName(c.ctx.sc, n)
		// Quoted, a variable that only holds words like /dev/sda stays
		// one operand; unquoted, IFS could still split it.
		opVal := quoted && validName(n) && c.e.opName(c.ctx.sc, n)
		return !quoted && !intVal, !intVal && !opVal, true
	}
	return false, false, false
}

// opValue reports whether a literal or glob assigned to a variable is one
// word that cannot begin with '-' however it expands: its first character
// is a letter, digit or one of "/._:%,=", so no glob, brace, tilde or
// extended-glob expansion can make it a name from the working directory
// that begins with '-'.
func opValue(v string) bool {
	if v == "" {
		return false
	}
	b := v[0]
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("/._:%,=", b) >= 0
}

// varRefWhole reports whether s is exactly $name or ${name}.
func varRefWhole(s string) bool {
	if strings.HasPrefix(s, "${") {
		return strings.IndexByte(s, '}') == len(s)-1
	}
	return strings.HasPrefix(s, "$")
}

// intParam reports whether a parameter expansion is a plain $x that
// provably holds an integer, which no field splitting turns into an option.
func (c *call) intParam(p *syntax.ParamExp) bool {
	if !simpleParam(p) {
		return false
	}
	switch n := p.Param.Value; n {
	case "#", "?", "$", "!":
		return true
	default:
		return c.e.intName(c.ctx.sc, n)
	}
}

// safeLead reports whether a word part begins with a literal character
// that is neither '-' nor one that globbing or brace expansion could turn
// into '-', or with a variable or a command substitution that provably
// holds a number (numericOut: $(id -u), $(wc -l < f)).
func (c *call) safeLead(p syntax.WordPart) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		return p.Value != "" && !strings.ContainsAny(p.Value[:1], "-*?[{\\")
	case *syntax.SglQuoted:
		return p.Value != "" && p.Value[0] != '-'
	case *syntax.ParamExp:
		return c.intParam(p)
	case *syntax.CmdSubst:
		return numericOut(p, c.ctx.sc)
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return false
		}
		switch q := p.Parts[0].(type) {
		case *syntax.Lit:
			return q.Value != "" && q.Value[0] != '-' && q.Value[0] != '\\'
		case *syntax.ParamExp:
			return c.intParam(q) || simpleParam(q) && validName(q.Param.Value) && c.e.opName(c.ctx.sc, q.Param.Value)
		case *syntax.CmdSubst:
			return numericOut(q, c.ctx.sc)
		}
	}
	return false
}

// agentGlob reports whether a is a pattern that can expand to a name
// the agent made: it starts with a glob character, so a name beginning
// with '-' can match (a file named --compress-program=sh makes sort *
// run sh on what it sorts), and the working directory is, or may be, one
// a benign call writes (a temporary directory, or one known only at run
// time). A pattern under a directory it names (/tmp/x/*, ./*) expands to
// names that begin with it.
func (c *call) agentGlob(a arg) bool {
	return a.known && a.glob && a.val != "" && strings.ContainsAny(a.val[:1], "*?[") && c.e.agentCwd() != ""
}

// computedOption returns the first argument of args, up to a "--", that a
// value computed at run time can turn into an option, and whether there is
// one.
func (c *call) computedOption(args []arg) (arg, bool) {
	for _, a := range args {
		if a.known && a.val == "--" {
			break
		}
		if !a.known && c.mayBeOption(a) {
			return a, true
		}
	}
	return arg{}, false
}

// optionGrammar is what computedArgs needs to know of a program whose
// handler reads literal options: the options that take the next argument
// as their value, which no computed value there turns into an option.
type optionGrammar struct {
	short    string          // short options with a value (-u UNIT)
	long     map[string]bool // long options with a separate value
	any      bool            // every option takes a value (openssl -in FILE)
	keywords map[string]bool // words whose next argument is a name (iw dev NAME)
	after    map[string]bool // once one of these words is seen, the rest are operands (ip … show)
	operands bool            // operands change state too (sysctl k=v): any computed word counts
	oldStyle bool            // a first word without a dash is a cluster of options (tar tf FILE)
	words    bool            // only a word that splits counts: the verbs are operands (ifconfig eth0 down), no option writes
	raw      bool            // an option destroys data (sgdisk --zap-all, hdparm --security-erase): a computed one is tier 3
}

// computedGrammars are the programs with argument handlers whose options
// write, run or change state, where the handler only sees literal
// options: journalctl --vacuum-size, dmesg -C, sysctl x=1, ip addr add,
// tcpdump -w, openssl -out, ethtool -E, smartctl -s, iptables -F,
// dpkg -i, rpm -e, rg --pre, fd -x, tree -o, ss -K ….
var computedGrammars = map[string]optionGrammar{
	"journalctl": {short: "utpnbSUoDMHgFIT", long: set(`--unit --user-unit --since --until --priority
		--lines --boot --output --directory --file --machine --host --grep --identifier --field
		--facility --namespace --root --image --cursor --after-cursor --output-fields --invocation`)},
	"dmesg":     {short: "flsF", long: set(`--facility --level --buffer-size --file --time-format`)},
	"sysctl":    {operands: true},
	"ip":        {keywords: set(`dev`), after: set(`show list ls lst get help`)},
	"iw":        {keywords: set(`dev phy`), after: set(`info link scan station survey`)},
	"tcpdump":   {short: "icsCGEFMrVyTBjQ", long: set(`--interface --count --snapshot-length --time-stamp-type --direction`)},
	"tshark":    {short: "icsfYRreoTdE", long: set(`--interface --count`)},
	"dumpcap":   {short: "icsf", long: set(`--interface`)},
	"openssl":   {any: true},
	"ethtool":   {any: true},
	"gpg":       {any: true},
	"gpg2":      {any: true},
	"lshw":      {any: true},
	"smartctl":  {short: "dTbrlnq", long: set(`--device --tolerance --badsum --report --log --nocheck --quietmode`)},
	"dpkg":      {short: "lLsSpc", long: set(`--list --listfiles --status --search --print-avail --contents --info`)},
	"rpm":       {short: "qf", long: set(`--query --file --queryformat --qf`)},
	"iptables":  {short: "tLS", long: set(`--table --list --list-rules`)},
	"ip6tables": {short: "tLS", long: set(`--table --list --list-rules`)},
	"tree":      {short: "LPIH", long: set(`--filelimit --charset --timefmt`)},
	"rg": {short: "egtTmABCjM", long: set(`--regexp --glob --type --type-not --max-count --after-context
		--before-context --context --threads --max-columns`)},
	"fd":         {short: "etdEcj", long: set(`--extension --type --max-depth --exclude --color --threads`)},
	"fdfind":     {short: "etdEcj", long: set(`--extension --type --max-depth --exclude --color --threads`)},
	"bat":        {short: "lrHpm", long: set(`--language --line-range --highlight-line --style --map-syntax --theme`)},
	"batcat":     {short: "lrHpm", long: set(`--language --line-range --highlight-line --style --map-syntax --theme`)},
	"ss":         {short: "fAF", long: set(`--family --query`)},
	"file":       {short: "mfFP", long: set(`--magic-file --files-from --separator`)},
	"sar":        {short: "fnuIPq"},
	"sdiff":      {short: "wI"},
	"dmidecode":  {short: "tsH", long: set(`--type --string --handle`)},
	"zstdcat":    {},
	"sensors":    {short: "c"},
	"lastlog":    {short: "tbu", long: set(`--time --before --user`)},
	"nvme":       {},
	"mdadm":      {},
	"cryptsetup": {},
	"hwclock":    {},
	"ssh-keygen": {short: "flFtbCEO"},
	// sort $x with x='-o /etc/passwd'; uniq a $x names an output file.
	// GNU sed takes options after its script: sed -n p $x with x='-i'
	// edits in place, with x='-e 1e\ CMD' runs CMD.
	"sort":    {short: "kStT"},
	"sed":     {short: "efl", long: set(`--expression --file --line-length`)},
	"gsed":    {short: "efl", long: set(`--expression --file --line-length`)},
	"uniq":    {short: "fsw"},
	"shuf":    {short: "inR"},
	"iconv":   {short: "ft"},
	"xxd":     {short: "cglsn"},
	"xmllint": {},
	"yq":      {},
	"wget": {short: "aABDeiIloOPQRtTUwX", long: set(`--header --user --password --post-data --post-file
		--body-data --body-file --method --output-document --output-file --append-output --execute
		--input-file --directory-prefix --tries --timeout --wait --user-agent --quota --level --accept
		--reject --domains --include-directories --exclude-directories --base --http-user
		--http-password --referer --load-cookies --save-cookies --ca-certificate --certificate
		--private-key --bind-address --limit-rate --config`)},
	// tar -tf a.tar $x with x=--checkpoint-action=exec=sh, or -I PROG;
	// cpio -t $x with x=--rsh-command=PROG: listing runs them too.
	"tar":    {short: "fCTXbgKLNVHIF", oldStyle: true},
	"gtar":   {short: "fCTXbgKLNVHIF", oldStyle: true},
	"bsdtar": {short: "fCTXbsIH", oldStyle: true},
	"cpio":   {short: "EFHIMORCD"},
	// Read-only programs with an option that runs a program or writes:
	// diff3 $x with x=--diff-program=sh, colordiff --difftprogram=, ag and
	// ack --pager, pidstat -e, procs --load-config, ausearch --checkpoint.
	"diff3":     {short: "L", long: set(`--label`)},
	"colordiff": {short: "CUDFILxXSW", long: set(`--label --ignore-matching-lines --exclude --exclude-from`)},
	"ag":        {short: "ABCGgmpW", long: set(`--after --before --context --file-search-regex --max-count --path-to-ignore --ignore --depth`)},
	"ack":       {short: "ABCmg", long: set(`--after-context --before-context --context --max-count --type --ignore-dir --ignore-file`)},
	"pidstat":   {short: "CGpT"},
	"procs":     {short: "is", long: set(`--insert --sorta --sortd --color --theme`)},
	"ausearch":  {any: true},
	// git log $x with x=--output=/etc/passwd, or --ext-diff.
	"git": {short: "nCmbuSOABc", long: set(`--git-dir --work-tree --namespace --super-prefix --config-env`)},
	// A verb computed at run time can change the service manager or the
	// firmware.
	"systemd-analyze": {operands: true},
	"vcgencmd":        {operands: true},
	// Readers with an option that writes: blkid -c saves its cache
	// there, BSD base64 -o, lz4cat --rm deletes what it read, logger -f
	// copies a file into the log and -n sends to a server.
	"blkid": {short: "cosStLUHOnu", long: set(`--cache-file --output --match-tag --match-token --label --uuid
		--hint --offset --size --match-types --usages`)},
	"base64": {short: "wbio", long: set(`--wrap --input --output`)},
	"lz4cat": {},
	"logger": {short: "fpStnPu", long: set(`--file --priority --size --tag --server --port --socket --sd-id
		--sd-param --msgid`)},
	// Programs whose read forms sit beside options that change the
	// system: arp -d and -s, losetup -D, blockdev --setro, a qdbus
	// method call, ifconfig IFACE down.
	"arp":       {short: "HiAp", long: set(`--device --protocol`)},
	"losetup":   {short: "ojOb", long: set(`--offset --associated --output --sector-size --sizelimit`)},
	"blockdev":  {},
	"qdbus":     {operands: true},
	"qdbus-qt5": {operands: true},
	"qdbus-qt6": {operands: true},
	"qdbus6":    {operands: true},
	"ifconfig":  {words: true, raw: true},
	// Listings beside an option or command that changes something: nft
	// joins its words into one line and a computed word can hold "; flush
	// ruleset"; dnf/yum --refresh, apk -U, zypper repos -e FILE, pkg
	// check -B and audit -F, xl dmesg -c and tailscale status --web.
	// The verbs in after take no option that acts.
	"nft":       {operands: true},
	"dnf":       {short: "cdex"},
	"yum":       {short: "cdex"},
	"apk":       {short: "Xp"},
	"zypper":    {after: set(`search se info if`)},
	"pkg":       {after: set(`info query rquery search which version stats`)},
	"xl":        {after: set(`list info vcpu-list uptime network-list block-list pci-list vm-list cpupool-list`)},
	"tailscale": {after: set(`ping whois ip netcheck version licenses`)},
	// zstd -dc $x with x='-o /etc/passwd f.zst' or '--rm f.zst'.
	"zstd":     {short: "oD"},
	"unzstd":   {short: "oD"},
	"zstdmt":   {short: "oD"},
	"lz4":      {},
	"unlz4":    {},
	"brotli":   {short: "oqwSD"},
	"unbrotli": {short: "oqwSD"},
	// Disk tools whose read forms sit beside options the deny list
	// refuses: a computed option may be one, so it is tier 3.
	"sgdisk":  {short: "i", raw: true},
	"hdparm":  {raw: true},
	"tune2fs": {raw: true},
}

// unreadableArgs is the verdict on a program whose handler reads its
// options and meets one computed at run time: it could be any option, so
// the call cannot be seen into.
func (c *call) unreadableArgs() (Tier, string) {
	c.e.opaque = true
	return TierDestructive, c.name + ": arguments computed at run time"
}

// computedArgs raises a call whose handler saw only literal options when
// an argument computed at run time can be one of them.
func (c *call) computedArgs() (Tier, string) {
	g, ok := computedGrammars[c.name]
	if !ok {
		return TierRead, ""
	}
	args := c.args
	operands := false
	for i, a := range args {
		planted := c.agentGlob(a)
		if a.known && !planted {
			if a.val == "--" || g.after[a.val] {
				operands = operands || g.after[a.val]
				if a.val == "--" {
					break
				}
			}
			continue
		}
		if operands {
			continue
		}
		splits, dash := true, true // a pattern's names are words of their own
		if !planted {
			splits, dash = c.computedShape(a)
		}
		if g.words {
			dash = false
		}
		if !splits && !g.operands && (!dash || c.valuePosition(g, args, i)) {
			continue
		}
		if g.raw {
			c.e.opaque = true
			return TierDestructive, c.name + ": " + truncate(a.val, 64) + " is computed at run time and can become an option or verb that destroys data or cuts access"
		}
		return TierMutate, c.name + ": " + truncate(a.val, 64) + " is computed at run time and can become an option that writes, runs or changes state"
	}
	return TierRead, ""
}

// valuePosition reports whether args[i] is the value of the known option
// before it.
func (c *call) valuePosition(g optionGrammar, args []arg, i int) bool {
	if g.oldStyle && i > 0 && args[0].known && !strings.HasPrefix(args[0].val, "-") {
		// tar tvfC a.tar DIR: the value letters of the first word take
		// the words after it, in order.
		n := 0
		for _, f := range []byte(args[0].val) {
			if strings.IndexByte(g.short, f) >= 0 {
				n++
			}
		}
		if i <= n {
			return true
		}
	}
	if i == 0 || !args[i-1].known {
		return false
	}
	p := args[i-1].val
	if g.keywords[p] {
		return true
	}
	if !strings.HasPrefix(p, "-") {
		return false
	}
	return g.any || g.long[p] || len(p) >= 2 && p[1] != '-' && strings.IndexByte(g.short, p[len(p)-1]) >= 0
}

// assignsAside reports whether n may assign a variable other than through
// an assignment, a for loop or a builtin that names it, all of which the
// facts record: arithmetic ((( )), $(( )), let, [[ -eq ]], a C-style for)
// assigns numbers, "-1" included, and so does a subscript or an
// indirection (${a[i]}, ${!x}, ${s:off}, a[i]=, [[ -v a[i] ]], unset
// 'a[i]', read 'a[i]'), whatever variable the expression names.
func assignsAside(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause:
		return true
	case *syntax.ForClause:
		_, c := n.Loop.(*syntax.CStyleLoop)
		return c
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
			return true
		}
	case *syntax.UnaryTest:
		return n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar
	case *syntax.ParamExp:
		return n.Excl || n.Index != nil || n.Slice != nil || n.Exp != nil && n.Exp.Op == syntax.OtherParamOps
	case *syntax.Assign:
		return n.Index != nil
	case *syntax.DeclClause:
		return strings.ContainsAny(declFlags(n), "in")
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			return false
		}
		name, ok := litValue(n.Args[0])
		if !ok {
			return true
		}
		args := n.Args[1:]
		switch name {
		case "test", "[":
			// Only -v and -R evaluate their operand; an operator computed
			// at run time may be one of them.
			lead := true
			for _, w := range args {
				v, ok := litValue(w)
				if ok && (v == "-v" || v == "-R") || !ok && lead {
					return true
				}
				lead = ok && (v == "!" || v == "(" || v == "-a" || v == "-o")
			}
		case "printf":
			if len(args) > 0 {
				v, ok := litValue(args[0])
				return !ok || strings.HasPrefix(v, "-v")
			}
		case "unset", "read", "mapfile", "readarray", "getopts", "wait", "declare",
			"typeset", "local", "export", "readonly", "command", "builtin":
			for _, w := range args {
				if v, ok := litValue(w); !ok || strings.ContainsRune(v, '[') {
					return true
				}
			}
		}
	}
	return false
}

// allElementsIn reports whether a double-quoted string expands a list a
// word per element: "$@", "${a[@]}", "x${a[@]}y".
func allElementsIn(dq *syntax.DblQuoted) bool {
	for _, q := range dq.Parts {
		p, ok := q.(*syntax.ParamExp)
		if !ok || p.Param == nil || p.Excl || p.Length {
			continue
		}
		if p.Param.Value == "@" {
			return true
		}
		if iw, ok := p.Index.(*syntax.Word); ok {
			if v, _ := litValue(iw); v == "@" {
				return true
			}
		}
	}
	return false
}

// denyComputed classifies rm given a word computed at run time that can
// become several words, or an option beside another word: A="-rf /";
// rm $A, rm "$o" /, rm "$@". Such a word can make it rm -rf, which the
// deny list cannot check, so the call is tier 3 as rm -rf is. Words after
// "--" are operands, and xargs' and find's {} are read where they come
// from.
func (c *call) denyComputed() (Tier, string) {
	if c.name != "rm" {
		return TierRead, ""
	}
	for _, a := range c.args {
		if a.known {
			if a.val == "--" {
				break
			}
			continue
		}
		if a == unknownArg {
			continue
		}
		if splits, dash := c.computedShape(a); splits || dash && len(c.args) > 1 {
			return TierDestructive, "rm: " + truncate(a.val, 64) + " is computed at run time and can become -r and the operands it removes"
		}
	}
	return TierRead, ""
}
