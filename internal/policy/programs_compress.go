package policy

import "strings"

// How a compressor reads its options, to tell whether it only writes to
// standard output, lists or tests (a read) or rewrites its operands in
// place. A flag is read as the program's own parser reads it: a letter
// that takes a value swallows the rest of its word or the next word
// (gzip -Sc a is suffix "c", gzip -S -c a is suffix "-c", and both
// replace a by a compressed copy); a long option that takes a value
// swallows the next word the same way; a long word that abbreviates both
// a flag and a valued option is taken as the valued one. A word computed
// at run time may be any option, so no flag after it counts. xz --files
// and zstd --filelist name files to compress in place without operands.

// compressFamily names the grammar each compressor's name uses.
var compressFamily = map[string]string{
	"gzip": "gzip", "gunzip": "gzip", "pigz": "gzip", "unpigz": "gzip",
	"bzip2": "bzip2", "bunzip2": "bzip2",
	"xz": "xz", "unxz": "xz", "lzma": "xz", "unlzma": "xz",
	"zstd": "zstd", "unzstd": "zstd", "zstdmt": "zstd",
	"lz4": "lz4", "unlz4": "lz4", "lz4c": "lz4",
	"brotli": "brotli", "unbrotli": "brotli",
}

// compressGrammar is one family's option facts.
type compressGrammar struct {
	reads     string   // letters of the flags that send output to standard output, list or test
	readLongs []string // their long names
	minAbbrev int      // the shortest abbreviation of a long name taken for it
	valueLong []string // long options that take a value in the next word
	fileLists []string // long options that name the files to work on
}

var compressGrammars = map[string]compressGrammar{
	// gzip and pigz: -S SUF and --suffix SUF; pigz's -b, -p, -I, -J too.
	"gzip": {reads: "clt", readLongs: []string{"--stdout", "--to-stdout", "--list", "--test"}, minAbbrev: 5,
		valueLong: []string{"--suffix", "--blocksize", "--processes", "--iterations", "--maxsplits", "--alias", "--comment"}},
	"bzip2": {reads: "ct", readLongs: []string{"--stdout", "--test"}, minAbbrev: 5},
	"xz": {reads: "clt", readLongs: []string{"--stdout", "--to-stdout", "--list", "--test"}, minAbbrev: 5,
		valueLong: []string{"--suffix", "--format", "--check", "--threads", "--memlimit", "--memlimit-compress",
			"--memlimit-decompress", "--memlimit-mt-decompress", "--memory", "--block-size", "--block-list",
			"--flush-timeout", "--filters", "--filters1", "--filters2", "--filters3", "--filters4", "--filters5",
			"--filters6", "--filters7", "--filters8", "--filters9"},
		fileLists: []string{"--files", "--files0"}},
	"zstd": {reads: "clt", readLongs: []string{"--stdout", "--list", "--test"}, minAbbrev: 5,
		valueLong: []string{"--output-dir-flat", "--output-dir-mirror", "--patch-from", "--trace", "--memory", "--size-hint",
			"--stream-size", "--target-compressed-block-size"},
		fileLists: []string{"--filelist"}},
	// lz4's -l is the legacy format, not a listing.
	"lz4":    {reads: "ct", readLongs: []string{"--stdout", "--to-stdout", "--list", "--test"}, minAbbrev: 5},
	"brotli": {reads: "ct", readLongs: []string{"--stdout", "--test"}, minAbbrev: 5, valueLong: []string{"--output", "--quality", "--lgwin", "--suffix", "--dictionary"}},
}

// compressReadsOnly reports whether c, a compressor, only reads: it
// writes to standard output, lists or tests, or it has no file to work
// on (standard input to standard output).
func compressReadsOnly(c *call) bool {
	g := compressGrammars[compressFamily[c.name]]
	valueShort := archiveValueShort[c.name]
	reads, files, unknown := false, false, false
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		switch {
		case !a.known:
			// Any option, or an operand.
			unknown, files = true, true
		case v == "--":
			if i+1 < len(c.args) {
				files = true
			}
			i = len(c.args)
		case v == "-":
			// Standard input, to standard output.
		case !strings.HasPrefix(v, "-"):
			files = true
		case strings.HasPrefix(v, "--"):
			name, _, eq := strings.Cut(v, "=")
			if abbreviates(name, g.fileLists, 4) {
				files = true
			}
			if abbreviates(name, g.valueLong, 3) {
				if !eq {
					i++
				}
				continue
			}
			if !unknown && abbreviates(name, g.readLongs, g.minAbbrev) {
				reads = true
			}
		default:
			for j := 1; j < len(v); j++ {
				if strings.IndexByte(valueShort, v[j]) >= 0 {
					if j+1 == len(v) {
						i++ // the value is the next word
					}
					break
				}
				if !unknown && strings.IndexByte(g.reads, v[j]) >= 0 {
					reads = true
				}
			}
		}
	}
	return reads || !files
}

// abbreviates reports whether name is one of longs or a prefix of one at
// least min bytes long, as getopt_long takes it.
func abbreviates(name string, longs []string, min int) bool {
	for _, l := range longs {
		if name == l || len(name) >= min && strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}
