package policy

import "testing"

// TestBlindSpotCompressorValueFlags: a compressor's -c, -l or -t makes it
// a read only when its own parser reads that flag; a letter or long
// option that takes a value swallows it (gzip -Sc a and gzip -S -c a are
// suffix "c" and "-c", and replace a by a compressed copy), a word
// computed at run time may be such an option, and xz --files and zstd
// --filelist name files to rewrite without any operand.
func TestBlindSpotCompressorValueFlags(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"gzip -Sc a", "gzip -S -c a", "gzip --suffix -c a", "gzip --suf -c a", "gzip -qS -c a",
		"gunzip -S -t a-t", "gzip $opt -c a", "pigz -p -c a", "pigz -pc a", "unpigz -Sl a",
		"xz -S -c a", "xz -T -c a", "xz --threads -c a", "xz -Fc a", "xz --files=/tmp/l", "xz --files",
		"xz --files0=/tmp/l -k", "unxz --fil=/tmp/l", "lzma --suffix -t a",
		"zstd --filelist=/tmp/l", "zstd --filelist /tmp/l", "zstd --file=/tmp/l",
		"brotli -q -c a", "brotli --quality -c a", "lz4 -l a",
		"sudo gzip -S -c a", "/usr/bin/xz -S -c a", "env gzip -Sc a", "nice -n 5 xz -T -c a",
		"timeout 5 gzip --suffix -c a", "busybox gzip -S -c a", "command zstd --filelist=/tmp/l",
	))
	// The file a decompressor writes is its operand less the suffix -S
	// names, whatever text that is.
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"gzip -S -c /etc/passwd", "gunzip -S -c /etc/passwd-c", "gunzip --suffix=-x /etc/shadow-x",
	))
	runExactHosts(t, p, []exactCase{
		{"gzip -c", "gzip -c a", TierRead},
		{"gzip -S then -c", "gzip -S .x -c a", TierRead},
		{"gzip -cS", "gzip -cS .x a", TierRead},
		{"gzip --stdout", "gzip --std a", TierRead},
		{"gunzip -l", "gunzip --list a.gz", TierRead},
		{"gzip stdin", "gzip -dc -", TierRead},
		{"gzip -c after unknown", "gzip -c $x", TierRead},
		{"xz -T0 -dc", "xz -T0 -dc a.xz", TierRead},
		{"xz stdin with value", "xz -d -T 0", TierRead},
		{"xz --files -c", "xz -c --files=/tmp/l", TierRead},
		{"zstd -dc", "zstd -dc a.zst", TierRead},
		{"zstd -l", "zstd -l a.zst", TierRead},
		{"bzip2 -ck", "bzip2 -ck a", TierRead},
		{"lz4 -dc", "lz4 -dc a.lz4", TierRead},
		{"lz4 --list", "lz4 --list a.lz4", TierRead},
		{"brotli -dc", "brotli -dc a.br", TierRead},
	})
}

// TestBlindSpotXxdOutputSpellings: xxd tells an option by its first two
// characters ("-ps", "-postscript", "-pxyz" and "--ps" are all -p, "-rps"
// is -r) and its valued options take the rest of their word unless it
// spells their long name ("-c8", "-cols 8", "-seek 1"); its second
// operand is a file it writes (truncating, or patching with -r). An
// option read as taking a value that it does not take hid the output.
func TestBlindSpotXxdOutputSpellings(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"xxd -ps a /tmp/x", "xxd -pxyz a /tmp/x", "xxd --ps a /tmp/x", "xxd -rps a /tmp/x",
		"xxd -r -ps - /tmp/x", "xxd -postscript a /tmp/x", "xxd --plain a /tmp/x", "xxd -include a /tmp/x",
		"xxd -rp a /tmp/x", "xxd -bits a /tmp/x", "xxd -u a /tmp/x", "xxd -ebcdic a /tmp/x",
		"xxd -capitalize -i a /tmp/x", "xxd -cols 8 a /tmp/x", "xxd -c8 a /tmp/x", "xxd -skip 1 a /tmp/x",
		"xxd -s1 a /tmp/x", "xxd -Ralways a /tmp/x", "xxd -R always a /tmp/x", "xxd $o a /tmp/x", "xxd -s $n a /tmp/x",
		"busybox xxd -ps a /tmp/x", "/usr/bin/xxd -rps a /tmp/x", "env xxd --ps a /tmp/x",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false, "sudo xxd -ps a /etc/passwd", "xxd -rps a /etc/shadow"))
	runExactHosts(t, p, []exactCase{
		{"plain", "xxd a", TierRead},
		{"ps", "xxd -ps a", TierRead},
		{"revert to stdout", "xxd -r -p a", TierRead},
		{"seek", "xxd -s 1 a", TierRead},
		{"seek long", "xxd -seek 1 a", TierRead},
		{"len", "xxd -l 16 /etc/hosts", TierRead},
		{"stdout operand", "xxd -i a -", TierRead},
		{"cols and group", "xxd -cols 8 -groupsize 1 a", TierRead},
		{"cols attached", "xxd -c 8 -g 1 a", TierRead},
	})
}

// TestBlindSpotArIndexModifier: ar's s modifier writes the archive's
// symbol index with any operation, so ar ts and ar ps rewrite the archive
// they list or print.
func TestBlindSpotArIndexModifier(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"ar ts /tmp/x.a", "ar tvs /tmp/x.a", "ar -ts /tmp/x.a", "ar ps /tmp/x.a", "ar tsv /tmp/x.a",
		"sudo ar ts /tmp/x.a", "/usr/bin/ar ts /tmp/x.a",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false, "ar ts /usr/lib/x86_64-linux-gnu/libc.a"))
	runExactHosts(t, p, []exactCase{
		{"list", "ar t /tmp/x.a", TierRead},
		{"list verbose", "ar tv /tmp/x.a", TierRead},
		{"print", "ar p /tmp/x.a", TierRead},
		{"list O", "ar tO /tmp/x.a", TierRead},
	})
}

// TestBlindSpotTeeOperandFiles: after "--" every word tee is given is a
// file it writes, and GNU tee writes a file named "-".
func TestBlindSpotTeeOperandFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"tee -- -a", "echo x | tee -- -p", "tee -", "tee -a -", "sponge -- -a", "sudo tee -- -i",
	))
	runExactHosts(t, p, []exactCase{
		{"no file", "tee", TierRead},
		{"append no file", "tee -a", TierRead},
		{"output-error", "tee --output-error=warn", TierRead},
		{"piped", "echo x | tee -p", TierRead},
	})
}

// TestBlindSpotTsharkProgramPreferences: tshark -o sets preferences of
// dissectors and capture programs, and some name a program it runs: the
// Snort dissector runs snort.binary (its snort.config loads modules) once
// snort.alerts_source asks for a running Snort, and extcap.IFACE.ARG is
// an argument of an extcap capture program (sshdump's proxycommand and
// remote capture command). A preference computed at run time may be one.
func TestBlindSpotTsharkProgramPreferences(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"tshark -r a.pcap -o snort.binary:/tmp/e -o snort.alerts_source:from-running-snort",
		"tshark -r a.pcap -o 'snort.binary:/tmp/e'", "tshark -r a.pcap -osnort.binary:/tmp/e",
		"tshark -nr a.pcap -o Snort.config:/tmp/c", "tshark -o snort.alerts_source:from-running-snort -r a.pcap",
		"tshark -i sshdump -o extcap.sshdump.proxycommand:/tmp/e",
		"tshark -i sshdump -o extcap.sshdump.remotecapturecommand:id",
		"sudo tshark -r a.pcap -o snort.binary:/tmp/e", "env tshark -o snort.binary:/tmp/e -r a.pcap",
		"tshark -o \"$PREF\" -r a.pcap",
	))
	runExactHosts(t, p, []exactCase{
		{"read", "tshark -r a.pcap", TierRead},
		{"keylog read", "tshark -o tls.keylog_file:/srv/keys -r a.pcap", TierRead},
		{"analysis pref", "tshark -r a.pcap -o tcp.analyze_sequence_numbers:FALSE", TierRead},
		{"snort-like name elsewhere", "tshark -r a.pcap -Y snort", TierRead},
	})
}

// TestBlindSpotPandocLogFile: pandoc --log=FILE writes its messages to
// FILE, in every spelling GetOpt takes.
func TestBlindSpotPandocLogFile(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"pandoc a --log=/tmp/l", "pandoc --log /tmp/l a", "sudo pandoc --log=/tmp/l a", "env pandoc a --log /tmp/l",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false, "pandoc a --log=/etc/cron.d/x", "pandoc --log /root/.bashrc a"))
	runExactHosts(t, p, []exactCase{
		{"to stdout", "pandoc a", TierRead},
		{"output dash", "pandoc a -o -", TierRead},
		{"standalone", "pandoc -s -t html a", TierRead},
	})
}
