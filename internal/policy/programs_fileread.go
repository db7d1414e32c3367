package policy

import "strings"

// Readers of media files and packages whose other forms write: ffprobe
// (which writes with -o and -report), dpkg-deb (whose listings read and
// whose extracting and building actions write a tree or an archive) and
// patch --dry-run.

// ffprobeFlags are ffprobe's options without a value that only change
// what it prints; ffprobeValued take a value, which is not an input.
var ffprobeFlags = set(`hide_banner show_format show_streams show_packets show_frames show_error show_data
	show_private_data private noprivate show_programs show_chapters show_stream_groups show_pixel_formats
	show_versions show_program_version show_library_versions count_frames count_packets pretty unit prefix
	byte_binary_prefix sexagesimal bitexact sections h help version formats codecs decoders encoders demuxers
	muxers protocols filters pix_fmts layouts sample_fmts colors bsfs buildconf L hwaccels find_stream_info
	devices dispositions nostdin`)
var ffprobeValued = set(`v loglevel show_entries show_data_hash show_log select_streams read_intervals of
	print_format output_format i f analyzeduration probesize fflags threads show_optional_fields
	rtsp_transport timeout rw_timeout stimeout user_agent headers protocol_whitelist fpsprobesize skip_frame`)

// ffprobeProgram classifies ffprobe: it reads its inputs and prints, but
// -o names a file it writes, -report writes a report file into the
// working directory, and -f lavfi builds a filter graph, whose filters
// can write files. An option it does not list leaves it at TierMutate.
func ffprobeProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "ffprobe: reports"}
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			if c.mayBeOption(a) {
				r.raise(TierMutate, "ffprobe: option computed at run time")
			}
			continue
		}
		if !strings.HasPrefix(a.val, "-") || a.val == "-" {
			continue
		}
		name := strings.TrimPrefix(a.val, "-")
		switch {
		case name == "o":
			if i+1 < len(c.args) {
				i++
				r.raise(c.writeArg(c.args[i], "ffprobe -o"))
			}
		case name == "report":
			r.raise(TierMutate, "ffprobe -report: writes a report file")
		case ffprobeValued[name]:
			if i+1 < len(c.args) {
				i++
				if name == "f" && !(c.args[i].known && !strings.EqualFold(c.args[i].val, "lavfi")) {
					r.raise(TierMutate, "ffprobe -f lavfi: a filter graph can write files")
				}
			}
		case ffprobeFlags[name]:
		default:
			r.raise(TierMutate, "ffprobe "+truncate(a.val, 32)+": an option not known to only read")
		}
	}
	return r.t, r.why
}

// dpkgDebLong are dpkg-deb's long options: its actions by the letter of
// their short form, and the options taking a value ("=").
var dpkgDebLong = map[string]string{"--build": "b", "--contents": "c", "--info": "I", "--show": "W",
	"--field": "f", "--control": "e", "--extract": "x", "--vextract": "X", "--raw-extract": "R",
	"--ctrl-tarfile": "t", "--fsys-tarfile": "T", "--help": "h", "--version": "V",
	"--showformat": "=", "--compress-type": "=", "--compress-level": "=", "--compress-strategy": "=",
	"--deb-format": "=", "--threads-max": "=", "--debug": "=", "--root-owner-group": "", "--nocheck": "",
	"--verbose": "", "--uniform-compression": ""}

// dpkgDebProgram classifies dpkg-deb by its action: the listings (-c, -I,
// -W, -f and the tar streams to standard output) read; -x, -X and -R
// extract a package's tree into a directory and -e its control files
// (into DEBIAN by default); -b writes the archive (DIR.deb by default).
// dpkg reads long options spelled in full only.
func dpkgDebProgram(c *call) (Tier, string) {
	action := ""
	var ops []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			ops = append(ops, a) // an action here conflicts with one given
			continue
		}
		v := a.val
		switch {
		case v == "--":
			ops = append(ops, c.args[i+1:]...)
			i = len(c.args)
		case strings.HasPrefix(v, "--"):
			name, _, eq := strings.Cut(v, "=")
			k, ok := dpkgDebLong[name]
			switch {
			case !ok:
				return TierMutate, "dpkg-deb " + truncate(name, 32) + ": an option not known to only read"
			case k == "=":
				if !eq {
					i++
				}
			case len(k) == 1:
				action = k
			}
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				b := v[j]
				if strings.IndexByte("ZzSD", b) >= 0 {
					if j == len(v)-1 && b != 'D' {
						i++
					}
					break
				}
				if strings.IndexByte("bcIWfexXRhv", b) < 0 {
					return TierMutate, "dpkg-deb -" + string(b) + ": an option not known to only read"
				}
				action = string(b)
			}
		default:
			ops = append(ops, a)
		}
	}
	if action == "" {
		for _, o := range ops {
			if !o.known && c.mayBeOption(o) {
				return c.computed("action")
			}
		}
	}
	switch action {
	case "c", "I", "W", "f", "t", "T", "h", "V", "v", "":
		return TierRead, "dpkg-deb: reports"
	case "x", "X", "R":
		if c.ctx.root {
			// tar as root under it: a package's setuid members stay so.
			return TierDestructive, "dpkg-deb as root: extracts with the package's modes and owners kept, which can create setuid root files"
		}
		if len(ops) < 2 {
			return TierMutate, "dpkg-deb: extracts a package"
		}
		return c.extractDir(ops[1], "dpkg-deb extract")
	case "e":
		d := arg{val: "DEBIAN", known: true}
		if len(ops) > 1 {
			d = ops[1]
		}
		return c.extractDir(d, "dpkg-deb --control")
	case "b":
		if len(ops) == 0 {
			return TierMutate, "dpkg-deb --build"
		}
		out := arg{val: strings.TrimRight(ops[0].val, "/") + ".deb", known: ops[0].known}
		if len(ops) > 1 {
			out = ops[1]
		}
		return c.writeArg(out, "dpkg-deb --build output")
	}
	return TierMutate, "dpkg-deb: changes the system"
}

// patchDryRun reports whether c is patch --dry-run with only options
// that choose the patch and how it is matched: patch then prints what it
// would do and writes nothing (it does not even start ed for an ed-style
// patch). -o, -r, the backup options, --merge and -g (which checks files
// out of RCS or Perforce) are left out, as are abbreviations.
func patchDryRun(c *call) bool {
	_, seen, ok := c.readOpts(optSpec{flags: "RNflstuncEv",
		valueShort: "pdiF",
		longFlags: set(`--dry-run --reverse --forward --force --ignore-whitespace --silent --quiet --batch --unified
			--context --normal --ed --verbose --posix --binary --follow-symlinks --remove-empty-files
			--no-backup-if-mismatch`),
		longVals: set(`--strip --directory --input --fuzz --quoting-style --read-only`)})
	return ok && strings.Contains(seen, "--dry-run")
}
