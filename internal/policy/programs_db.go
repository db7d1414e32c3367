package policy

import "strings"

// Database and key-value store clients. A statement that drops, truncates
// or empties a table, a database or a key space destroys data a backup may
// not hold, so it is TierDestructive in every client that carries it (the
// SQL clients' -e/-c text and input, redis-cli's command, influx delete);
// other statements stay TierMutate. Clients whose command text is a
// program (mongosh's JavaScript can require child_process) are
// interpreters.

// sqlDestroys returns the keyword of a statement in the SQL text s that
// destroys data — DROP, TRUNCATE, SHUTDOWN, PURGE, or a DELETE or UPDATE
// without WHERE, which touches every row — or "". Quoted strings and
// comments are skipped; DROP anywhere (ALTER TABLE … DROP COLUMN) counts.
func sqlDestroys(s string) string {
	var verb string // the statement's first word
	where := false
	end := func() string {
		if (verb == "delete" || verb == "update") && !where {
			return strings.ToUpper(verb) + " without WHERE"
		}
		return ""
	}
	for i := 0; i < len(s); {
		b := s[i]
		switch {
		case b == '\'' || b == '"' || b == '`':
			j := strings.IndexByte(s[i+1:], b)
			if j < 0 {
				return end()
			}
			i += j + 2
		case b == '-' && strings.HasPrefix(s[i:], "--") || b == '#':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return end()
			}
			i += j
		case b == '/' && strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return end()
			}
			i += j + 4
		case b == ';':
			if k := end(); k != "" {
				return k
			}
			verb, where = "", false
			i++
		case sqlWordByte(b):
			j := i
			for j < len(s) && sqlWordByte(s[j]) {
				j++
			}
			w := strings.ToLower(s[i:j])
			i = j
			switch w {
			case "drop", "truncate", "shutdown", "purge":
				return strings.ToUpper(w)
			case "where":
				where = true
			}
			if verb == "" {
				verb = w
			}
		default:
			i++
		}
	}
	return end()
}

func sqlWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// dbClientProgram classifies database clients that have no shell escape
// the classifier knows of: their command text is read for statements that
// destroy data.
func dbClientProgram(c *call) (Tier, string) {
	if clientVersion(c) {
		return TierRead, c.name + " " + c.args[0].val
	}
	switch c.name {
	case "dropdb", "dropuser", "ldapdelete", "pg_dropcluster":
		if len(c.args) == 1 && c.args[0].known && (c.args[0].val == "--help" || c.args[0].val == "--version" || c.args[0].val == "-V") {
			return TierRead, c.name + " " + c.args[0].val
		}
		return TierDestructive, c.name + ": drops a database or role"
	case "mysqladmin", "mariadb-admin":
		for _, a := range c.args {
			if !a.known {
				c.e.opaque = true
				return TierDestructive, c.name + ": command computed at run time"
			}
			if mysqladminDestroys(strings.ToLower(a.val)) {
				return TierDestructive, c.name + " " + a.val + ": drops a database, stops the server or kills its connections"
			}
		}
		if mysqladminReads(c.args) {
			return TierRead, c.name + ": reports the server's status"
		}
		return TierMutate, c.name + ": administers the server"
	case "redis-cli", "valkey-cli", "keydb-cli":
		return redisCLI(c)
	case "mongosh", "mongo":
		return mongoShell(c)
	case "influx":
		for _, a := range c.args {
			if a.known && a.val == "delete" {
				return TierDestructive, "influx delete: deletes data, a bucket or an organisation"
			}
		}
		return c.queryTexts("influx", []string{"-execute", "--execute"}, nil, nil)
	case "clickhouse-client":
		return c.queryTexts(c.name, []string{"-q", "--query"}, []string{"--queries-file"}, []string{"outfile"})
	case "cqlsh":
		return c.queryTexts(c.name, []string{"-e", "--execute"}, []string{"-f", "--file"}, []string{"source", "copy", "capture"})
	}
	return TierMutate, c.name + ": changes the database"
}

// queryTexts classifies a client whose statements come from the options
// textOpts or from its input: a statement sqlDestroys names or text
// holding one of marks (a client command that writes or reads a file) is
// TierDestructive, as are statements from a file (fileOpts) or input the
// classifier cannot see.
func (c *call) queryTexts(label string, textOpts, fileOpts, marks []string) (Tier, string) {
	for _, a := range c.args {
		if !a.known && strings.HasPrefix(a.val, "-") {
			c.e.opaque = true
			return TierDestructive, label + ": options computed at run time"
		}
	}
	if len(fileOpts) > 0 && len(abbrevOptVals(c.args, fileOpts)) > 0 {
		c.e.opaque = true
		return TierDestructive, label + ": reads statements from a file"
	}
	texts := abbrevOptVals(c.args, textOpts)
	if len(texts) == 0 {
		switch c.ctx.stdin.kind {
		case stdinUnknown:
			c.e.opaque = true
			return TierDestructive, label + " reads statements from input the classifier cannot see"
		case stdinText:
			texts = []arg{{val: c.ctx.stdin.text, known: true}}
		default:
			return TierMutate, label + ": interactive client"
		}
	}
	for _, t := range texts {
		if !t.known {
			c.e.opaque = true
			return TierDestructive, label + ": statements computed at run time"
		}
		if k := sqlDestroys(t.val); k != "" {
			return TierDestructive, label + ": " + k + " destroys data"
		}
		l := strings.ToLower(t.val)
		for _, m := range marks {
			if strings.Contains(l, m) {
				return TierDestructive, label + ": " + m + " reads or writes a file"
			}
		}
	}
	return TierMutate, label + ": statements may change the database"
}

// mysqladminDestroys reports whether w is, or is a prefix mysqladmin
// takes for (it accepts any unique prefix: mysqladmin proc stat), drop,
// shutdown or kill.
func mysqladminDestroys(w string) bool {
	return w != "" && strings.HasPrefix("kill", w) || len(w) >= 2 && (strings.HasPrefix("drop", w) || strings.HasPrefix("shutdown", w))
}

// mysqladminReadCmds are mysqladmin's commands that only report, and its
// options that change nothing (mysqladminFlags) or take a value
// (mysqladminVals; -p takes its value attached, or prompts).
var (
	mysqladminReadCmds = set(`status version processlist variables extended-status ping`)
	mysqladminFlags    = set(`-v --verbose -s --silent -r --relative -E --vertical -b --no-beep -C --compress --help -? -V --version`)
	mysqladminVals     = set(`-h --host -u --user -P --port -S --socket -i --sleep -c --count --protocol --connect-timeout`)
)

// mysqladminReads reports whether args are mysqladmin's read commands
// with only the options listed.
func mysqladminReads(args []arg) bool {
	n := 0
	for i := 0; i < len(args); i++ {
		v := args[i].val
		name, _, eq := strings.Cut(v, "=")
		switch {
		case !args[i].known:
			return false
		case v == "-p" || strings.HasPrefix(v, "-p") && !strings.HasPrefix(v, "--") || name == "--password":
		case mysqladminFlags[v]:
		case mysqladminVals[name] && strings.HasPrefix(name, "--") && eq:
		case mysqladminVals[name] && !eq:
			i++
		case len(v) > 2 && v[0] == '-' && v[1] != '-' && mysqladminVals[v[:2]]:
		case mysqladminReadCmds[strings.ToLower(v)]:
			n++
		default:
			return false
		}
	}
	return n > 0
}

// redisFlagOpts are redis-cli's options that take no value. Every other
// option takes one (-h, -n, -X TAG, --cursor, --top …) or makes
// redis-cli refuse to run, so the word after it is never the command.
var redisFlagOpts = set(`-x -e -c -2 -3 -4 -6 -v --version --help --raw --no-raw --quoted-input --csv --json
	--quoted-json --stat --latency --latency-history --latency-dist --replica --slave --bigkeys --memkeys
	--keystats --hotkeys --scan --ldb --ldb-sync-mode --verbose --no-auth-warning --askpass --tls --insecure`)

// redisDestroys are redis commands that empty, stop or reconfigure the
// server (CONFIG SET can point its dump file anywhere), or run a script
// or function that can, whatever follows;
// redisDestroysSub are those destructive only with one of the
// subcommands listed.
var redisDestroys = set(`flushall flushdb shutdown debug slaveof replicaof swapdb failover module migrate
	eval evalsha fcall`)

var redisDestroysSub = map[string]map[string]bool{
	"config":   set(`set rewrite resetstat`),
	"cluster":  set(`reset forget failover delslots delslotsrange flushslots setslot`),
	"acl":      set(`setuser deluser load`),
	"script":   set(`flush kill`),
	"function": set(`flush delete restore load kill`),
}

// redisReads are the redis commands that only read; redisReadsSub
// those that read with one of the subcommands listed. Writes (set, del,
// getdel, getex, getset, save and bgsave, which write a dump, client
// kill, config set …) are not among them.
var redisReads = set(`ping info get mget strlen getrange exists type ttl pttl expiretime pexpiretime dbsize
	scan sscan hscan zscan hget hmget hgetall hkeys hvals hlen hexists hstrlen llen lrange lindex scard smembers
	sismember smismember srandmember zcard zrange zrangebyscore zrevrange zscore zmscore zrank zrevrank zcount
	xlen xrange xrevrange echo time lastsave role randomkey`)

var redisReadsSub = map[string]map[string]bool{
	"config":  set(`get`),
	"client":  set(`list info getname id`),
	"slowlog": set(`get len`),
	"cluster": set(`info nodes slots shards myid`),
	"memory":  set(`usage stats doctor`),
	"latency": set(`latest history doctor`),
	"xinfo":   set(`stream groups consumers`),
	"object":  set(`encoding freq idletime refcount`),
	"command": set(`count info docs`),
	"acl":     set(`whoami cat`),
}

// redisCLI classifies redis-cli: the command comes from its operands or,
// with none, from its input, one per line.
func redisCLI(c *call) (Tier, string) {
	var words []string
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := strings.ToLower(a.val)
		if a.known && strings.HasPrefix(v, "-") && len(words) == 0 {
			switch {
			case v == "--pipe" || v == "--eval" || v == "--cluster" || v == "--rdb" || v == "--functions-rdb":
				c.e.opaque = true
				return TierDestructive, c.name + " " + v + ": sends commands the classifier cannot see or writes a file"
			case !redisFlagOpts[a.val]:
				// A value option (its letters' case counts: -X TAG
				// is not -x), or one redis-cli refuses: either way the
				// next word is not the command.
				i++
			}
			continue
		}
		if !a.known && (len(words) == 0 || len(words) == 1 && redisDestroysSub[words[0]] != nil) {
			c.e.opaque = true
			return TierDestructive, c.name + ": command computed at run time"
		}
		words = append(words, v)
	}
	if len(words) > 0 {
		if k := redisCommand(words); k != "" {
			return TierDestructive, c.name + " " + k + ": empties, stops or reconfigures the server"
		}
		if redisReads[words[0]] || len(words) > 1 && redisReadsSub[words[0]][words[1]] {
			return TierRead, c.name + " " + words[0] + ": reads"
		}
		if words[0] == "keys" {
			return TierBenign, c.name + " keys: walks every key, blocking the server while it does (scan does not)"
		}
		return TierMutate, c.name + ": commands may change the data"
	}
	switch c.ctx.stdin.kind {
	case stdinUnknown:
		c.e.opaque = true
		return TierDestructive, c.name + " reads commands from input the classifier cannot see"
	case stdinText:
		for _, line := range strings.Split(strings.ToLower(c.ctx.stdin.text), "\n") {
			if k := redisCommand(strings.Fields(line)); k != "" {
				return TierDestructive, c.name + " " + k + ": empties, stops or reconfigures the server"
			}
		}
	}
	return TierMutate, c.name + ": commands may change the data"
}

// redisCommand returns the destructive command words hold, or "".
func redisCommand(words []string) string {
	if len(words) == 0 {
		return ""
	}
	if redisDestroys[words[0]] {
		return words[0]
	}
	if subs := redisDestroysSub[words[0]]; subs != nil && len(words) > 1 && subs[words[1]] {
		return words[0] + " " + words[1]
	}
	return ""
}

// mongoShell classifies mongosh and the legacy mongo shell: their
// scripts are JavaScript that can run programs (require("child_process"),
// runProgram), so a script given by --eval, a file or input is an
// interpreter payload.
func mongoShell(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known {
			c.e.opaque = true
			return TierDestructive, c.name + ": arguments computed at run time"
		}
		if longFlag(a.val, "--eval") || a.val == "-e" || longFlag(a.val, "--file") || a.val == "-f" || strings.HasSuffix(a.val, ".js") {
			c.e.opaque = true
			return TierDestructive, c.name + " " + truncate(a.val, 32) + ": runs JavaScript, which can run programs"
		}
	}
	if c.ctx.stdin.kind != stdinNone {
		c.e.opaque = true
		return TierDestructive, c.name + ": runs JavaScript from its input, which can run programs"
	}
	return TierMutate, c.name + ": interactive shell that can change the database"
}

// queryClusterLetters are, per client, its command and file options'
// letters (two bytes, 0 for none) and then its other options that take
// a value.
var queryClusterLetters = map[string]string{
	"mysql":   "e\x00uhPDSOo",
	"mariadb": "e\x00uhPDSOo",
	"psql":    "cfdhpUvPTFoLR",
}

// clusterOption finds, in a short-option cluster v, the first of the
// letters opts before any letter in values (which takes the rest of the
// word as its value). It returns the letter and the rest of the word
// after it, which is the option's value when not empty.
func clusterOption(v, opts, values string) (byte, string, bool) {
	for j := 1; j < len(v); j++ {
		b := v[j]
		if b != 0 && strings.IndexByte(opts, b) >= 0 {
			return b, v[j+1:], true
		}
		if strings.IndexByte(values, b) >= 0 {
			return 0, "", false
		}
	}
	return 0, "", false
}

// infraPrograms manage storage clusters, object stores, key-value stores
// and clouds: a deleting verb among their first words removes a pool, a
// volume, a bucket's contents or an instance that many hosts depend on.
var infraPrograms = set(`ceph rbd rados radosgw-admin gluster rclone etcdctl consul vault nomad pulumi aws gcloud
	gsutil az s3cmd doctl hcloud openstack linode-cli exo scw oci rabbitmqctl kafka-topics kafka-topics.sh
	kafka-consumer-groups kafka-consumer-groups.sh zkCli.sh zkCli`)

// infraDestroys are the verbs that remove or empty; infraStops take a
// whole service down (nomad job stop, gluster volume stop).
var infraDestroys = set(`delete del rm rb remove purge destroy rmdir rmdirs deletefile cleanup dedupe
	terminate stop-purge zap wipe erase unset deleteall rmr reset force_reset rmpool rmsnap`)

// infraProgram classifies infraPrograms by their first four words.
func infraProgram(c *call) (Tier, string) {
	if f, ok := snapshotSave(c); ok {
		if t, why := c.writeArg(f, c.name+" snapshot save"); t > TierMutate {
			return t, why
		}
	}
	if c.name == "ceph" && cephRead(c) {
		return TierRead, "ceph: reports the cluster's state"
	}
	if c.name == "rbd" && rbdRead(c) {
		return TierRead, "rbd: lists or describes images"
	}
	if infraRead(c) {
		return TierRead, c.name + ": reports the cluster's state"
	}
	n := 0
	for _, a := range c.args {
		if n >= 4 {
			break
		}
		v := strings.ToLower(a.val)
		if !a.known {
			if n == 0 {
				c.e.opaque = true
				return TierDestructive, c.name + ": subcommand computed at run time"
			}
			continue
		}
		if strings.HasPrefix(v, "-") {
			if v == "-purge" || v == "--purge" || v == "--delete" || v == "--reset-offsets" {
				return TierDestructive, c.name + " " + v + ": removes a job and its history, or deletes what the source lacks"
			}
			continue
		}
		n++
		switch {
		case infraDestroys[v], strings.HasPrefix(v, "delete-"), strings.HasPrefix(v, "delete_"), strings.HasPrefix(v, "purge_"), strings.HasPrefix(v, "terminate-"), strings.HasPrefix(v, "remove-"),
			strings.HasPrefix(v, "deregister-"), strings.HasPrefix(v, "purge-"), strings.HasSuffix(v, "-delete"), strings.HasSuffix(v, "-destroy"),
			c.name == "rclone" && v == "sync",
			(c.name == "nomad" || c.name == "gluster") && v == "stop",
			c.name == "vault" && v == "disable":
			return TierDestructive, c.name + " " + v + ": removes or takes down shared storage, data or infrastructure"
		}
	}
	return TierMutate, c.name + ": changes shared infrastructure"
}

// abbrevOptVals returns the values of the options names, long ones also
// given as any prefix the clients' parsers take (--que for --query,
// --exec for --execute), the value after "=" or in the next word.
func abbrevOptVals(args []arg, names []string) []arg {
	var out []arg
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if !args[i].known || !strings.HasPrefix(v, "-") {
			continue
		}
		name, val, eq := strings.Cut(v, "=")
		for _, n := range names {
			if name != n && !(strings.HasPrefix(n, "--") && longFlag(name, n)) {
				continue
			}
			switch {
			case eq:
				out = append(out, arg{val: val, known: true})
			case i+1 < len(args):
				i++
				out = append(out, args[i])
			}
			break
		}
	}
	return out
}

// clientVersion reports whether c is a database client asked only for its
// version or help (mysql -V, psql --version, redis-cli -v), which connects
// to nothing.
func clientVersion(c *call) bool {
	if len(c.args) != 1 || !c.args[0].known {
		return false
	}
	switch v := c.args[0].val; v {
	case "--version", "--help", "-version":
		return true
	case "-V":
		return c.name != "redis-cli" && c.name != "valkey-cli" && c.name != "keydb-cli"
	case "-v":
		return c.name == "redis-cli" || c.name == "valkey-cli" || c.name == "keydb-cli"
	}
	return false
}
