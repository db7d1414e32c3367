package policy

import (
	"path"
	"slices"
	"strings"
)

// Document, image and text converters. Each reads by default and writes
// where its options or operands say, which goes through writeTarget; and
// several run code the command line names or the input file is:
// exiftool evaluates Perl in -if conditions, in ${tag;expr} formats given
// to -p and in -config and -@ argument files; ImageMagick runs a command
// for a file name starting with "|", reads more names from @file, and
// treats MSL and MVG files as scripts and PostScript as a Ghostscript
// program; pandoc runs --filter programs, Lua filters and custom Lua
// readers and writers, a --pdf-engine and a --defaults file's filters;
// enscript runs its -I/--filter command through a shell.

// convertPrograms are the programs convertProgram classifies.
var convertPrograms = set(`exiftool convert magick mogrify montage composite compare identify conjure
	pdftotext pdftohtml pdftoppm pdftocairo pdfimages pdfseparate pdfunite pdfinfo pdffonts pdfdetach
	pandoc enscript dos2unix unix2dos mac2unix unix2mac`)

// convertProgram classifies the programs convertPrograms names.
func convertProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known && strings.HasPrefix(a.val, "-") {
			c.e.opaque = true
			return TierDestructive, c.name + ": options computed at run time"
		}
	}
	switch c.name {
	case "exiftool":
		return exiftoolProgram(c)
	case "pandoc":
		return pandocProgram(c)
	case "enscript":
		return enscriptProgram(c)
	case "dos2unix", "unix2dos", "mac2unix", "unix2mac":
		return dos2unixProgram(c)
	}
	if strings.HasPrefix(c.name, "pdf") {
		return popplerProgram(c)
	}
	return magickProgram(c)
}

// exiftoolWrites are exiftool options (lower case) that write files.
var exiftoolWrites = set(`-overwrite_original -overwrite_original_in_place -delete_original -delete_original!
	-restore_original -tagsfromfile -geotag -efile -efile! -w -w! -w+ -textout -textout! -textout+ -tagout -tagout!
	-srcfile`)

func exiftoolProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "exiftool: reads metadata"}
	for i, a := range c.args {
		l := strings.ToLower(a.val)
		next := arg{}
		if i+1 < len(c.args) {
			next = c.args[i+1]
		}
		switch {
		case l == "-if" || strings.HasPrefix(l, "-if") && len(l) > 3 && l[3] >= '0' && l[3] <= '9',
			l == "-config", l == "-@", l == "-stay_open", l == "-api" && strings.Contains(strings.ToLower(next.val), "filter"):
			c.e.opaque = true
			return TierDestructive, "exiftool " + a.val + ": evaluates Perl code or reads arguments from a file"
		case l == "-p" || l == "-printformat" || l == "-p-" || l == "-printformat-":
			if !next.known || strings.Contains(next.val, ";") || !strings.Contains(next.val, "$") {
				// ${tag;expr} runs expr; a format without $ is a file of them.
				c.e.opaque = true
				return TierDestructive, "exiftool -p: a format can evaluate Perl code"
			}
		case l == "-o" || l == "-out":
			if next.val != "-" {
				r.raise(c.writeArg(next, "exiftool -o"))
			}
		case exiftoolWrites[l] || strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "--") && strings.ContainsAny(l, "=<"):
			// -TAG=VALUE, -TAG<SRC, -all=: writes the files.
			r.raise(TierMutate, "exiftool "+truncate(a.val, 32)+": writes files")
		}
	}
	return r.t, r.why
}

// magickScriptCoders are ImageMagick coders whose input is a script or a
// program: MSL and MVG are ImageMagick's own, and PostScript is run by
// Ghostscript.
var magickScriptCoders = set(`msl mvg ps eps epsi epsf eps2 eps3 ept ai ps2 ps3 epdf`)

// magickReads are the ImageMagick tools and magick subcommands that only
// read their operands.
var magickReads = set(`identify`)

func magickProgram(c *call) (Tier, string) {
	if c.name == "conjure" {
		c.e.opaque = true
		return TierDestructive, "conjure: runs MSL scripts"
	}
	name, args := c.name, c.args
	if name == "magick" && len(args) > 0 && !strings.HasPrefix(args[0].val, "-") && (magickReads[args[0].val] || args[0].val == "mogrify" || args[0].val == "montage" || args[0].val == "composite" || args[0].val == "compare" || args[0].val == "convert") {
		name, args = args[0].val, args[1:]
	}
	var ops []arg
	r := raiser{TierRead, name + ": reads images"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		l := strings.ToLower(v)
		switch {
		case l == "-script" || l == "-write" || l == "+write":
			if l == "-script" {
				c.e.opaque = true
				return TierDestructive, name + " -script: runs a Magick script"
			}
			if i+1 < len(args) {
				i++
				r.raise(c.magickOutput(args[i]))
			}
			continue
		case strings.HasPrefix(v, "-") && v != "-" || strings.HasPrefix(v, "+"):
			continue // "-" alone is standard input or output
		}
		if t, why := c.magickName(a, name); t > TierRead {
			r.raise(t, why)
		}
		ops = append(ops, a)
	}
	inputs := ops
	if !magickReads[name] && name != "mogrify" && len(ops) >= 2 {
		inputs = ops[:len(ops)-1] // the last is the output, read below
	}
	for _, a := range inputs {
		if why := c.magickInputAgent(a); why != "" {
			c.e.opaque = true
			return TierDestructive, name + " " + truncate(a.val, 32) + ": ImageMagick picks the coder by the file's content " +
				"(MVG and MSL are scripts, SVG and PostScript programs), and " + why
		}
	}
	switch {
	case magickReads[name]:
	case name == "mogrify":
		r.raise(TierMutate, "mogrify: rewrites images in place")
		for _, d := range c.optVals(args, "-path") {
			r.raise(c.writeArg(d, "mogrify -path"))
		}
	case len(ops) >= 2:
		r.raise(c.magickOutput(ops[len(ops)-1]))
	}
	return r.t, r.why
}

// magickName classifies an image name: "|cmd" runs cmd, @file reads more
// names, and a script coder (by prefix or extension) runs a script.
func (c *call) magickName(a arg, name string) (Tier, string) {
	v := a.val
	switch {
	case !a.known && strings.ContainsAny(v, "|@"):
		c.e.opaque = true
		return TierDestructive, name + ": image name computed at run time"
	case !a.known && !magickPathLead(v) || c.agentGlob(a):
		// "$f", $(ls), xargs' {} and * where a benign call made the
		// names can be |CMD, @FILE or msl:FILE: only a literal path
		// start (/srv/$f, ./$f) rules those out.
		c.e.opaque = true
		return TierDestructive, name + ": image name " + truncate(v, 32) + " is computed at run time and can be |CMD, @FILE or a script"
	case strings.HasPrefix(v, "|"):
		c.shell(v[1:], name+" pipe", nil, false)
		c.e.opaque = true
		return TierDestructive, name + " " + truncate(v, 32) + ": runs a command for the image"
	case strings.HasPrefix(v, "@"):
		c.e.opaque = true
		return TierDestructive, name + " " + truncate(v, 32) + ": reads image names, which can run commands, from a file"
	}
	coder, rest, hasCoder := strings.Cut(v, ":")
	switch lc := strings.ToLower(coder); {
	case hasCoder && lc == "ephemeral":
		// ephemeral:FILE deletes FILE once it is read.
		t, why, deny := c.e.writeTarget(arg{val: strings.SplitN(rest, "[", 2)[0], known: a.known, glob: a.glob})
		if deny != "" {
			c.e.deny(name + " ephemeral: " + deny)
		}
		return maxTier(t, TierBenign), name + " " + truncate(v, 32) + ": deletes the file it reads: " + why
	case hasCoder && (lc == "x" || lc == "screenshot"):
		return TierMutate, name + " " + truncate(v, 32) + ": captures the screen of an X display"
	}
	ext := strings.TrimPrefix(path.Ext(strings.SplitN(v, "[", 2)[0]), ".")
	if hasCoder && magickScriptCoders[strings.ToLower(coder)] || magickScriptCoders[strings.ToLower(ext)] {
		c.e.opaque = true
		return TierDestructive, name + " " + truncate(v, 32) + ": the image is a script (MSL, MVG) or a Ghostscript program"
	}
	return TierRead, ""
}

// magickInputAgent says why an image ImageMagick reads may be a file a
// benign call wrote, or returns "": a name under a temporary directory or
// relative to a working directory the input makes one. Whatever its name
// says, ImageMagick reads a file that starts "push graphic-context" as
// MVG, whose image primitives open further names (|cmd, msl:, ephemeral:)
// — the ImageTragick files were named exploit.png. A coder prefix
// (png:/tmp/x) names the file after it; other names stay reads.
func (c *call) magickInputAgent(a arg) string {
	v := a.val
	if !a.known {
		// "/tmp/x/$f": the literal start names the directory.
		v = strings.TrimLeft(v, `"'`)
		if i := strings.IndexAny(v, "$`\"'"); i >= 0 {
			v = v[:i]
		}
		if i := strings.LastIndexByte(v, '/'); i > 0 && agentPath(v[:i]) != "" {
			return truncate(a.val, 32) + " is under " + truncate(v[:i], 32) + ", a temporary directory"
		}
		return "" // the rest of a computed name is magickName's
	}
	if coder, rest, ok := strings.Cut(v, ":"); ok && len(coder) > 1 && !strings.Contains(coder, "/") {
		if strings.EqualFold(coder, "fd") && rest != "0" {
			return "fd:" + truncate(rest, 8) + " is a descriptor, whatever file it holds"
		}
		v = rest
		if v == "0" && strings.EqualFold(coder, "fd") {
			v = "-"
		}
	}
	v, _, _ = strings.Cut(v, "[") // a.png[0] is a frame of a.png
	if v == "-" || v == "/dev/stdin" {
		return c.magickStdinAgent()
	}
	if v == "" || strings.HasPrefix(v, "-") {
		return ""
	}
	if a.glob && isPattern(v) {
		// *.png matches names in its directory; /t?p/x/* a directory
		// that may be a temporary one.
		if d := path.Dir(v); isPattern(d) {
			return c.fileDirAgent(arg{val: d + "/x", known: true, glob: true})
		}
	}
	if strings.HasPrefix(v, "/") {
		if why := agentPath(v); why != "" {
			return truncate(v, 32) + " " + why
		}
		return ""
	}
	return c.fileDirAgent(arg{val: v, known: true})
}

// magickStdinAgent says why the image ImageMagick reads on standard input
// may be a script, or returns "": a pipe or file the classifier cannot see
// (curl … | identify -, < /tmp/x/a.png), or known text that holds MVG,
// MSL, SVG or PostScript. The terminal is a person's.
func (c *call) magickStdinAgent() string {
	switch c.ctx.stdin.kind {
	case stdinUnknown:
		return "its standard input is a stream the classifier cannot see"
	case stdinText:
		t := strings.ToLower(c.ctx.stdin.text)
		for _, m := range []string{"graphic-context", "viewbox", "<svg", "<image", "%!", "<?xml"} {
			if strings.Contains(t, m) {
				return "its standard input holds a script (" + m + ")"
			}
		}
	}
	return ""
}

// magickPathLead reports whether the source of a word computed at run
// time starts with a literal "/", "." or "~": a path, which ImageMagick
// reads as a file whatever follows, never as a pipe, a list or a coder.
func magickPathLead(src string) bool {
	s := strings.TrimLeft(src, `"'`)
	return s != "" && strings.IndexByte("/.~", s[0]) >= 0
}

// magickOutput classifies the image ImageMagick writes: "-" and the
// info: and null: coders print or discard, "|cmd" runs cmd.
func (c *call) magickOutput(a arg) (Tier, string) {
	v := a.val
	l := strings.ToLower(v)
	switch {
	case a.known && (v == "-" || strings.HasSuffix(l, ":-") || strings.HasPrefix(l, "info:") || strings.HasPrefix(l, "null:")):
		return TierRead, ""
	case strings.HasPrefix(l, "print:"):
		return TierMutate, "image output " + truncate(v, 32) + ": prints the image through the print delegate (lpr)"
	case strings.HasPrefix(v, "|"):
		c.shell(v[1:], "image pipe", nil, false)
		c.e.opaque = true
		return TierDestructive, "image output " + truncate(v, 32) + ": runs a command"
	}
	if coder, rest, ok := strings.Cut(v, ":"); ok && len(coder) > 1 && !strings.Contains(coder, "/") {
		a = arg{val: rest, known: a.known, glob: a.glob} // png:out.png writes out.png
	}
	return c.writeArg(a, "image output")
}

// popplerValueOpts are the poppler tools' options that take the next word.
var popplerValueOpts = set(`-f -l -r -rx -ry -x -y -W -H -opw -upw -enc -eol -scale-to -scale-to-x
	-scale-to-y -sz -jpegopt -tiffcompression -zoom -wbt -fmt -save -savefile -o -nodrm -antialias
	-thinlinemode -paper -paperw -paperh -level -firstpage -lastpage -i`)

// popplerProgram: pdfinfo and pdffonts read; pdftotext IN [OUT] writes
// OUT (IN's name with .txt when missing, nothing for "-"); pdftohtml,
// pdftoppm, pdftocairo, pdfimages and pdfseparate write under their
// second operand; pdfunite writes its last; pdfdetach writes with -save,
// -saveall or -o.
func popplerProgram(c *call) (Tier, string) {
	var ops []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if strings.HasPrefix(a.val, "-") && a.val != "-" {
			if popplerValueOpts[a.val] {
				i++
			}
			continue
		}
		ops = append(ops, a)
	}
	r := raiser{TierRead, c.name + ": reads documents"}
	switch c.name {
	case "pdfinfo", "pdffonts":
	case "pdfimages":
		if !slices.Contains(c.vals(), "-list") {
			r.raise(TierMutate, "pdfimages: writes the images")
		}
		if len(ops) >= 2 {
			r.raise(c.writeArg(ops[1], "pdfimages output"))
		}
	case "pdfdetach":
		for _, a := range c.args {
			if a.val == "-save" || a.val == "-saveall" || a.val == "-savefile" {
				r.raise(TierMutate, "pdfdetach "+a.val+": writes the attachments")
			}
		}
		for _, f := range exactOptVals(c.args, "-o") {
			r.raise(c.writeArg(f, "pdfdetach -o"))
		}
	case "pdfunite":
		if len(ops) > 0 {
			r.raise(c.writeArg(ops[len(ops)-1], "pdfunite output"))
		}
	default:
		switch {
		case len(ops) >= 2 && ops[1].val == "-" && ops[1].known:
		case len(ops) >= 2:
			r.raise(c.writeArg(ops[1], c.name+" output"))
		case len(ops) == 1 && c.name == "pdftotext":
			out := strings.TrimSuffix(ops[0].val, path.Ext(ops[0].val)) + ".txt"
			r.raise(c.writeArg(arg{val: out, known: ops[0].known, glob: ops[0].glob}, "pdftotext output"))
		default:
			r.raise(TierMutate, c.name+": writes files")
		}
	}
	return r.t, r.why
}

// pandocLong resolves a pandoc long option: GetOpt takes any unambiguous
// prefix (--lua for --lua-filter, --filt for --filter).
func pandocLong(name string) string {
	for _, o := range []struct{ long, min string }{{"--lua-filter", "--lua"}, {"--filter", "--filt"},
		{"--pdf-engine", "--pdf-engine"}, {"--defaults", "--defaults"}, {"--output", "--ou"},
		{"--extract-media", "--extr"}, {"--from", "--fro"}, {"--to", "--to"}, {"--read", "--rea"},
		{"--write", "--wr"}, {"--data-dir", "--data"}, {"--log", "--log"}} {
		if strings.HasPrefix(name, o.min) && strings.HasPrefix(o.long, name) {
			return o.long
		}
	}
	return name
}

// pandocProgram: pandoc writes -o's file, --log's and --extract-media's directory
// and runs filters, Lua readers and writers, a PDF engine and the filters
// of a --defaults or --data-dir.
func pandocProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "pandoc: converts to standard output"}
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].val
		name, val, eq := strings.Cut(v, "=")
		short := ""
		switch {
		case strings.HasPrefix(v, "--"):
			name = pandocLong(name)
		case len(v) >= 2 && v[0] == '-' && strings.IndexByte("oFLdftwrD", v[1]) >= 0:
			name, short, val, eq = "", v[:2], v[2:], len(v) > 2
		default:
			continue
		}
		value := func() arg {
			if eq {
				return arg{val: val, known: c.args[i].known}
			}
			if i+1 < len(c.args) {
				i++
				return c.args[i]
			}
			return arg{}
		}
		switch {
		case name == "--lua-filter" || short == "-L" || name == "--defaults" || short == "-d" || name == "--data-dir":
			value()
			c.e.opaque = true
			return TierDestructive, "pandoc " + name + short + ": runs Lua filters or filters a file names"
		case name == "--filter" || short == "-F" || name == "--pdf-engine":
			p := value()
			if !p.known {
				c.e.opaque = true
				return TierDestructive, "pandoc " + name + short + ": program computed at run time"
			}
			c.run([]arg{p, unknownArg})
			r.raise(TierMutate, "pandoc "+name+short+": runs "+truncate(p.val, 64))
		case name == "--from" || name == "--to" || name == "--read" || name == "--write" || short == "-f" || short == "-t" || short == "-r" || short == "-w":
			if f := value(); strings.HasSuffix(strings.ToLower(f.val), ".lua") || !f.known {
				c.e.opaque = true
				return TierDestructive, "pandoc " + name + short + " " + truncate(f.val, 64) + ": a custom Lua reader or writer"
			}
		case name == "--output" || short == "-o":
			if f := value(); f.val != "-" {
				r.raise(c.writeArg(f, "pandoc -o"))
			}
		case name == "--extract-media":
			r.raise(c.writeArg(value(), "pandoc --extract-media"))
		case name == "--log":
			// --log=FILE writes its messages to FILE as JSON.
			r.raise(c.writeArg(value(), "pandoc --log"))
		}
	}
	return r.t, r.why
}

// enscriptProgram: enscript prints (to the spooler) unless -o/-p names a
// file ("-" for standard output), and runs its -I/--filter command
// through a shell for each input.
func enscriptProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "enscript: sends output to the printer"}
	outs := c.optVals(c.args, "-o", "-p", "--output")
	for _, f := range outs {
		if f.known && f.val == "-" {
			r = raiser{TierRead, "enscript: to standard output"}
		}
	}
	for _, f := range outs {
		if !f.known || f.val != "-" {
			r.raise(c.writeArg(f, "enscript -o"))
		}
	}
	for _, f := range c.optVals(c.args, "-I", "--filter") {
		r.raise(c.shellArg(f, "enscript input filter"))
		r.raise(TierMutate, "enscript --filter: runs "+truncate(f.val, 64))
	}
	return r.t, r.why
}

// dos2unixProgram: dos2unix converts in place; -n/--newfile IN OUT pairs
// write OUT; -i/--info only reports.
func dos2unixProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": converts files in place"}
	vals := c.vals()
	if hasFlag(vals, 'i', "--info") || len(operands(vals)) == 0 {
		r = raiser{TierRead, c.name + ": reports or filters"}
	}
	newfile := false
	pair := 0
	for _, a := range c.args {
		v := a.val
		switch {
		case v == "-n" || v == "--newfile":
			newfile, pair = true, 0
		case v == "-o" || v == "--oldfile":
			newfile = false
		case strings.HasPrefix(v, "-") && v != "-":
		case newfile:
			pair++
			if pair%2 == 0 {
				r.raise(c.writeArg(a, c.name+" -n"))
			}
		}
	}
	return r.t, r.why
}
