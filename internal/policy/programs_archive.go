package policy

import (
	"path"
	"strings"
)

// Where compressors and archivers write. archiveProgram tiers each by mode
// (listing and testing read, everything else writes), but the files they
// write are not always their operands as written: zstd -o and brotli -o
// name the output, even after -c; lz4 takes it as a second operand; a
// decompressor writes its operand less the suffix (bunzip2
// /etc/shadow.bz2 writes /etc/shadow), and with -N the name stored in the
// archive, beside it; 7z a, rar a, zip and ar r write the archive they are
// given; 7z -o, unrar's trailing directory, zstd --output-dir-*, tar -C
// and unzip -d name where members land; pv -o copies its input to a file.
// Each file goes through writeTarget (devices, kernel state, warden's
// state, sensitive files), and a directory members land in is
// TierDestructive when it is a system or sensitive directory, a home, or
// a directory under one whose files are run or trusted later (.ssh,
// .config, .gnupg): a member named authorized_keys or .bashrc lands
// there.

// archiveValueShort are the short options of each compressor and archiver
// that take a value in the next word.
var archiveValueShort = map[string]string{
	"zstd": "oD", "unzstd": "oD", "zstdmt": "oD", "brotli": "oqwSD", "unbrotli": "oqwSD",
	"gzip": "S", "gunzip": "S", "pigz": "bpSIJ", "unpigz": "bpSIJ",
	"xz": "SFCTM", "unxz": "SFCTM", "lzma": "SFCTM", "unlzma": "SFCTM",
	"zip": "bntPOZsx",
}

// decompressors only decompress, whatever their options.
var decompressors = set(`gunzip bunzip2 unxz unlzma unzstd unlz4 unpigz unbrotli`)

// archiveChecked adds to archiveProgram the files and directories
// compressors and archivers write that are not their operands as written.
func archiveChecked(c *call) (Tier, string) {
	t, why := archiveProgram(c)
	r := raiser{t, why}
	for _, f := range archiveOutputs(c) {
		if f.known && (f.val == "-" || safeSink(f.val)) {
			continue
		}
		r.raise(c.writeArg(f, c.name+" output"))
	}
	for _, d := range archiveDirs(c) {
		r.raise(c.extractDir(d, c.name))
	}
	if removesSource(c) {
		r.raise(TierMutate, c.name+" --rm: deletes the files it reads")
	}
	return r.t, r.why
}

// removesSource reports whether c is zstd, lz4 or brotli (or their cat
// names) given --rm (brotli's -j), which deletes each file it read once
// it is done; zstd before 1.5.5 and lz4 do so even when the output is
// standard output (zstd -dc --rm, zstdcat --rm).
func removesSource(c *call) bool {
	switch c.name {
	case "zstd", "unzstd", "zstdmt", "zstdcat", "lz4", "unlz4", "lz4c", "lz4cat":
		return c.flagSet(0, "--rm", len("--rm"))
	case "brotli", "unbrotli":
		return c.flagSet('j', "--rm", len("--rm"))
	}
	return false
}

// archiveOutputs returns the files c writes other than its operands.
func archiveOutputs(c *call) []arg {
	ops := optionOperands(c.args, archiveValueShort[c.name], "")
	var out []arg
	switch c.name {
	case "zstd", "unzstd", "zstdmt":
		out = c.optVals(c.args, "-o")
	case "brotli", "unbrotli":
		out = c.optVals(c.args, "-o", "--output")
	case "lz4", "unlz4", "lz4c":
		// lz4 IN OUT; -m (--multiple) takes every operand as an input.
		if len(ops) >= 2 && !c.flagSet('m', "--multiple", 3) {
			return []arg{ops[1]}
		}
	case "7z", "7za", "7zr", "rar":
		// 7z a ARCHIVE FILES, rar a ARCHIVE FILES: every command but
		// listing, testing and extracting rewrites the archive.
		if len(ops) >= 2 && !archiveReads(ops[0].val) && !archiveExtracts(ops[0].val) {
			return []arg{ops[1]}
		}
		return nil
	case "zip":
		out = c.optVals(c.args, "-O", "--output-file")
		if len(ops) > 0 {
			out = append(out, ops[0])
		}
		return out
	case "unzip":
		return nil // unzip -d is a directory: archiveDirs
	}
	if len(out) > 0 || !decompressing(c) || compressReadsOnly(c) {
		return out
	}
	// -S SUF (--suffix) names the suffix a decompressor strips, any
	// text at all (gunzip -S -c /etc/passwd-c writes /etc/passwd).
	sufs := c.optVals(c.args, "-S", "--suffix")
	for _, op := range ops {
		if ext := path.Ext(op.val); ext != "" && ext != op.val {
			out = append(out, arg{val: strings.TrimSuffix(op.val, ext), known: op.known, glob: op.glob})
		}
		for _, s := range sufs {
			if s.known && s.val != "" && strings.HasSuffix(op.val, s.val) && s.val != op.val {
				out = append(out, arg{val: strings.TrimSuffix(op.val, s.val), known: op.known, glob: op.glob})
			}
		}
	}
	return out
}

// archiveDirs returns the directories c's members or outputs land in.
func archiveDirs(c *call) []arg {
	var out []arg
	switch c.name {
	case "7z", "7za", "7zr":
		for _, a := range c.args {
			if len(a.val) > 2 && (strings.HasPrefix(a.val, "-o") || strings.HasPrefix(a.val, "-O")) {
				out = append(out, arg{val: a.val[2:], known: a.known, glob: a.glob})
			}
		}
	case "rar", "unrar":
		// rar x ARCHIVE [FILES] DIR/: a last operand ending in a
		// separator is where members land; so is -opDIR.
		ops := optionOperands(c.args, "", "")
		if len(ops) >= 3 && archiveExtracts(ops[0].val) && strings.HasSuffix(ops[len(ops)-1].val, "/") {
			out = append(out, ops[len(ops)-1])
		}
		for _, a := range c.args {
			if len(a.val) > 3 && strings.HasPrefix(a.val, "-op") {
				out = append(out, arg{val: a.val[3:], known: a.known, glob: a.glob})
			}
		}
	case "zstd", "unzstd", "zstdmt":
		out = c.optVals(c.args, "--output-dir-flat", "--output-dir-mirror")
	case "gzip", "gunzip", "pigz", "unpigz":
		// -N restores the name stored in the archive, beside it.
		if decompressing(c) && c.flagSet('N', "--name", 4) && !compressReadsOnly(c) {
			for _, op := range optionOperands(c.args, archiveValueShort[c.name], "") {
				out = append(out, arg{val: path.Dir(op.val), known: op.known, glob: op.glob})
			}
		}
	}
	return out
}

// decompressing reports whether c decompresses.
func decompressing(c *call) bool {
	return decompressors[c.name] || c.flagSet('d', "--decompress", 4) || c.flagSet(0, "--uncompress", 4)
}

// archiveReads reports whether cmd is a 7z or rar command that lists,
// tests or prints.
func archiveReads(cmd string) bool {
	switch strings.ToLower(cmd) {
	case "l", "t", "i", "h", "lt", "v", "lb", "vt", "vb", "p":
		return true
	}
	return false
}

// archiveExtracts reports whether cmd is a 7z or rar extracting command.
func archiveExtracts(cmd string) bool {
	switch strings.ToLower(cmd) {
	case "x", "e":
		return true
	}
	return false
}

// extractDir classifies a directory a program writes members or outputs
// into.
func (c *call) extractDir(d arg, what string) (Tier, string) {
	l := strings.ToLower(d.val)
	if d.known && (criticalPath(d.val) || sensitivePath(l) || trustedDir(l)) {
		return TierDestructive, what + ": extracts into system directory " + d.val
	}
	return c.writeArg(d, what+" destination")
}

// trustedDir reports whether a directory (lower case) is a home or one
// under a home whose files are run or trusted later.
func trustedDir(l string) bool {
	c := path.Clean(strings.TrimRight(l, "/"))
	switch path.Base(c) {
	case ".ssh", ".config", ".gnupg", ".local", "autostart":
		return true
	}
	dir := path.Dir(c)
	return dir == "/home" || dir == "/users" || dir == "/var/home" ||
		strings.HasPrefix(c, "~") && !strings.Contains(c, "/") || c == "$home" || c == "${home}"
}

// arProgram classifies ar: t and p list and print members; x extracts
// them (into --output's directory, if given); every other operation
// rewrites the archive, which comes after the key and the member or count
// the a, b, i and N modifiers take. --plugin loads a shared object and
// @FILE reads more options from a file.
func arProgram(c *call) (Tier, string) {
	key, keyKnown := "", true
	var ops, dirs []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		name, val, eq := strings.Cut(v, "=")
		switch {
		case strings.HasPrefix(v, "@"):
			c.e.opaque = true
			return TierDestructive, "ar " + truncate(v, 64) + ": reads options from a file"
		case len(name) >= 4 && strings.HasPrefix("--plugin", name):
			c.e.opaque = true
			return TierDestructive, "ar --plugin: loads a shared object"
		case len(name) >= 4 && strings.HasPrefix("--output", name):
			if !eq && i+1 < len(c.args) {
				i++
				dirs = append(dirs, c.args[i])
			} else {
				dirs = append(dirs, arg{val: val, known: a.known, glob: a.glob})
			}
		case len(name) >= 4 && strings.HasPrefix("--target", name):
			if !eq {
				i++
			}
		case strings.HasPrefix(v, "--"):
		case key == "" && len(ops) == 0:
			key, keyKnown = strings.TrimPrefix(v, "-"), a.known
		default:
			ops = append(ops, a)
		}
	}
	if key == "" {
		return TierRead, "ar"
	}
	if !keyKnown {
		c.e.opaque = true
		return TierDestructive, "ar: operation computed at run time"
	}
	op := key[:0]
	if i := strings.IndexAny(key, "dmpqrstx"); i >= 0 {
		op = key[i : i+1]
	}
	switch op {
	case "t", "p":
		// The s modifier writes the archive's symbol index whatever the
		// operation: GNU ar ts rewrites the archive it lists.
		if !strings.Contains(key, "s") {
			return TierRead, "ar " + op + ": lists or prints members"
		}
	case "x":
		r := raiser{TierMutate, "ar x: extracts members"}
		if c.ctx.root {
			// ar restores a member's stored mode (ar rcU stores it),
			// setuid included: checked as root for GNU and busybox ar.
			r.raise(TierDestructive, "ar x as root: extracts with the members' modes kept, which can create setuid root files")
		}
		for _, d := range dirs {
			r.raise(c.extractDir(d, "ar x"))
		}
		return r.t, r.why
	}
	skip := 0
	if strings.ContainsAny(key, "abi") {
		skip++
	}
	if strings.Contains(key, "N") {
		skip++
	}
	if skip < len(ops) {
		return c.writeArg(ops[skip], "ar archive")
	}
	return TierMutate, "ar: changes an archive"
}

// pvRead are pv's options that only shape its display and pace; -o,
// -U (--store-and-forward) and -P write files, -R changes another pv, -d
// watches another process's files.
var pvRead = optSpec{flags: "pteIrab8TnqcWl0fCESYKkgXhv", valueShort: "AFDsiwHNLBZm",
	longFlags: set(`--progress --timer --eta --fineta --rate --average-rate --bytes --bits --buffer-percent
		--numeric --quiet --cursor --wait --line-mode --null --force --no-splice --skip-errors --stop-at-size
		--sync --direct-io --si --gauge --discard --help --version`),
	longVals: set(`--last-written --format --delay-start --size --interval --width --height --name --rate-limit
		--buffer-size --error-skip-block --average-rate-window`)}

// pvProgram: pv -o copies its input to a file.
func pvProgram(c *call) (Tier, string) {
	if _, _, ok := c.readOpts(pvRead); ok {
		return TierRead, "pv: copies its files or input to its output"
	}
	r := raiser{TierMutate, "pv: changes the system"}
	for _, f := range c.optVals(c.args, "-o", "--output") {
		r.raise(c.writeArg(f, "pv -o"))
	}
	return r.t, r.why
}

// paxProgram: pax lists with neither -r nor -w, extracts with -r (and with
// -p e or -p p keeps modes, setuid bits included, as cpio -i does),
// writes the -f archive with -w, and copies with -rw into its last
// operand.
func paxProgram(c *call) (Tier, string) {
	read, write, keep := false, false, false
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].val
		if v == "--" {
			break
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			f := v[j]
			read = read || f == 'r'
			write = write || f == 'w'
			if strings.IndexByte("fspobxTUGEB", f) < 0 {
				continue
			}
			val := v[j+1:]
			if val == "" && i+1 < len(c.args) {
				i++
				val = c.args[i].val
			}
			keep = keep || f == 'p' && strings.ContainsAny(val, "ep")
			break
		}
	}
	r := raiser{TierRead, "pax: lists an archive"}
	switch {
	case read && keep:
		return TierDestructive, "pax -r -p: extracts with modes kept, which can create setuid files"
	case read && write:
		r.raise(TierMutate, "pax -rw: copies files")
		if ops := optionOperands(c.args, "fspobxTUGEB", ""); len(ops) > 0 {
			r.raise(c.extractDir(ops[len(ops)-1], "pax"))
		}
	case read:
		r.raise(TierMutate, "pax -r: extracts files")
	case write:
		r.raise(TierMutate, "pax -w: writes an archive")
		for _, f := range c.optVals(c.args, "-f") {
			r.raise(c.writeArg(f, "pax archive"))
		}
	}
	return r.t, r.why
}

// unsquashfsProgram: unsquashfs lists with -l, -ll, -lls, -lc, -llc,
// -stat or -s; otherwise it extracts, restoring every file's mode with
// its setuid bits, into -d's directory.
// -pf (-pseudo-file) writes a pseudo file of the whole file system
// wherever it names, listing or not ("-" is standard output).
func unsquashfsProgram(c *call) (Tier, string) {
	var pseudo raiser
	for _, f := range exactOptVals(c.args, "-pf", "-pseudo-file") {
		if !f.known || f.val != "-" {
			pseudo.raise(c.writeArg(f, "unsquashfs -pf pseudo file"))
		}
	}
	for _, a := range c.args {
		switch a.val {
		case "-l", "-ls", "-ll", "-lls", "-lc", "-llc", "-linfo", "-stat", "-s", "-info", "-v", "-version", "-h", "-help":
			if a.val != "-info" && a.val != "-linfo" {
				if pseudo.t > TierRead {
					return pseudo.t, pseudo.why
				}
				return TierRead, "unsquashfs " + a.val + ": lists"
			}
		}
	}
	r := raiser{TierDestructive, "unsquashfs: extracts with modes kept, which can create setuid files"}
	r.raise(pseudo.t, pseudo.why)
	for _, d := range c.optVals(c.args, "-d", "-dest") {
		r.raise(c.extractDir(d, "unsquashfs"))
	}
	return r.t, r.why
}

// archiveProgram classifies archivers and compressors.
func archiveProgram(c *call) (Tier, string) {
	vals := c.vals()
	ops := operands(vals)
	switch c.name {
	case "zip":
		for _, v := range append(c.optVals(c.args, "-TT", "--unzip-command"), zipTestCommand(c.args)...) {
			c.shellArg(v, "zip -TT command")
			c.e.opaque = true
			return TierDestructive, "zip -TT: runs a program"
		}
		return TierMutate, "zip: writes an archive"
	case "unzip":
		for _, v := range vals {
			switch v {
			case "-l", "-v", "-t", "-Z", "-p", "-c", "-z", "-lv", "-tq":
				return TierRead, "unzip: lists or tests"
			}
		}
		return TierMutate, "unzip: extracts files"
	case "7z", "7za", "7zr", "rar", "unrar":
		if len(ops) > 0 && (ops[0] == "l" || ops[0] == "t" || ops[0] == "i" || ops[0] == "h" || ops[0] == "lt" || ops[0] == "v" || ops[0] == "lb") {
			// rar's -ilog[FILE] logs errors to FILE, -log[=FILE] the
			// names it handles, whatever the command.
			for _, v := range vals {
				if c.name != "7z" && c.name != "7za" && c.name != "7zr" && (strings.HasPrefix(v, "-ilog") || strings.HasPrefix(v, "-log")) {
					return TierMutate, c.name + " " + truncate(v, 64) + ": writes a log file"
				}
			}
			return TierRead, c.name + ": lists or tests"
		}
		return TierMutate, c.name + ": writes files"
	case "zstd", "unzstd":
		// --trace FILE logs tracing to FILE, in every mode.
		if fs := c.optVals(c.args, "--trace"); len(fs) > 0 {
			var r raiser
			for _, f := range fs {
				r.raise(c.writeArg(f, "zstd --trace"))
			}
			return r.t, r.why
		}
	}
	if compressReadsOnly(c) {
		return TierRead, c.name + ": to standard output"
	}
	return TierMutate, c.name + ": compresses or decompresses files in place"
}

// tarProgram classifies tar: options that run programs are TierDestructive.
func tarProgram(c *call) (Tier, string) {
	vals := c.vals()
	mode := ""
	for k, v := range vals {
		long, _, _ := longName(v, tarLongOpts)
		lv := strings.ToLower(v)
		for _, bad := range []string{"--checkpoint-action", "--to-command", "--use-compress-program", "--rsh-command", "--info-script", "--new-volume-script", "--rmt-command"} {
			if strings.HasPrefix(lv, bad) || long == bad {
				prog := ""
				if _, val, ok := strings.Cut(v, "="); ok {
					prog = strings.TrimPrefix(val, "exec=")
				} else if k+1 < len(vals) {
					prog = vals[k+1]
				}
				if prog != "" {
					c.shell(prog, "tar "+bad+" command", nil, false)
				}
				c.e.opaque = true
				return TierDestructive, "tar " + bad + ": runs a program"
			}
		}
		if long == "--remove-files" || long == "--recursive-unlink" || long == "--unlink-first" {
			return TierDestructive, "tar " + long + ": removes files"
		}
		cluster := ""
		switch {
		case k == 0 && !strings.HasPrefix(v, "-"):
			cluster = v // old-style bundled flags: tar xzf a.tgz
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			cluster = v[1:]
		}
		if strings.ContainsAny(cluster, "IF") {
			if k+1 < len(vals) {
				c.shell(vals[k+1], "tar -I command", nil, false)
			}
			c.e.opaque = true
			return TierDestructive, "tar -I/-F: runs a program"
		}
		for _, m := range "ctxrudA" {
			if strings.ContainsRune(cluster, m) && mode == "" {
				mode = string(m)
			}
		}
		switch long {
		case "--create", "--append", "--update", "--concatenate", "--catenate":
			mode = "c"
		case "--extract", "--get":
			mode = "x"
		case "--delete":
			mode = "r"
		case "--list":
			mode = "t"
		case "--diff", "--compare":
			mode = "d"
		}
	}
	switch mode {
	case "t", "d":
		return TierRead, "tar: lists an archive"
	case "x":
		for _, d := range c.optVals(c.args, "-C", "--directory") {
			if isRoot(d.val) {
				return TierDestructive, "tar: extracts over the root file system"
			}
		}
		return TierMutate, "tar: extracts files"
	}
	// The archive it writes is checked like a redirection's target:
	// "tar -cf /dev/sda" is "tar -c > /dev/sda".
	r := raiser{TierMutate, "tar: writes an archive"}
	for _, f := range tarArchives(c) {
		if f.known && f.val == "-" {
			continue
		}
		t, why, deny := c.e.writeTarget(f)
		if deny != "" {
			c.e.deny("tar: " + deny)
		}
		if t >= TierDestructive {
			r.raise(t, "tar: "+why)
		}
	}
	return r.t, r.why
}
