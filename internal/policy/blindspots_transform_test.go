package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotTransformedLiterals: a path a transforming filter computes
// from literal text the command shows (a decoder, rev, tr, sed s///, cut,
// head, tail, paste -s, basename, dirname, cd DIR && pwd) is denied like
// the path itself, whether it reaches the reader through $(…), a variable
// or a pipe into xargs.
func TestBlindSpotTransformedLiterals(t *testing.T) {
	p := linkPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		// Decoders.
		`cat $(echo L3Zhci9saWIvd2FyZGVuL3Rva2Vu | base64 -d)`,
		`cat $(base64 -d <<< L3Zhci9saWIvd2FyZGVuL3Rva2Vu)`,
		`cat "$(base64 --decode <<< L3Zhci9saWIvd2FyZGVuL3Rva2Vu)"`,
		`cat $(printf L3Zhci9saWIvd2FyZGVuL3Rva2Vu | base64 -d)`,
		`cat $(/usr/bin/base64 -d <<< L3Zhci9saWIvd2FyZGVuL3Rva2Vu 2>/dev/null)`,
		`x=$(base64 -d <<< L3Zhci9saWIvd2FyZGVu); cat $x/token`,
		`x=L3Zhci9saWIvd2FyZGVuL3Rva2Vu; cat $(base64 -d <<< $x)`,
		`echo L3Zhci9saWIvd2FyZGVuL3Rva2Vu | base64 -d | xargs cat`,
		`base64 -d <<< L3Zhci9saWIvd2FyZGVuL3Rva2Vu | xargs cat`,
		`echo L3Zhci9saWIvd2FyZGVuL2F1ZGl0Lmpzb25s | base64 -d | xargs rm`,
		`cat $(base64 -d <<< L3Zhci9saWI=)/warden/token`,
		"cat $(base64 -d <<EOF\nL3Zhci9saWIvd2FyZGVuL3Rva2Vu\nEOF\n)",
		`cat $(base32 -d <<< F53GC4RPNRUWEL3XMFZGIZLOF52G623FNY======)`,
		`cat $(basenc --base64 -d <<< L3Zhci9saWIvd2FyZGVuL3Rva2Vu)`,
		`cat $(openssl base64 -d <<< L3Zhci9saWIvd2FyZGVuL3Rva2Vu)`,
		`cat $(openssl enc -base64 -d <<< L3Zhci9saWIvd2FyZGVuL3Rva2Vu)`,
		`cat $(xxd -r -p <<< 2f7661722f6c69622f77617264656e2f746f6b656e)`,
		`echo 2f7661722f6c69622f77617264656e2f746f6b656e | xxd -r -p | xargs cat`,
		// rev and tac.
		`x=$(rev <<< nekot/nedraw/bil/rav/); cat $x`,
		`cat $(echo nekot/nedraw/bil/rav/ | rev)`,
		`echo nekot/nedraw/bil/rav/ | rev | xargs cat`,
		// tr.
		`cat "$(tr b-z a-y <<< /wbs/mjc/xbsefo/uplfo)"`,
		`echo /VAR/LIB/WARDEN/TOKEN | tr A-Z a-z | xargs cat`,
		`cat $(tr '[:upper:]' '[:lower:]' <<< /VAR/LIB/WARDEN/TOKEN)`,
		`cat $(echo /vXar/lXib/wXarden/tXoken | tr -d X)`,
		`cat $(echo _var_lib_warden_token | tr _ /)`,
		`cat $(tr -s / <<< ///var///lib//warden/token)`,
		`cat $(printf '%s\n' var lib warden token | tr '\n' / | sed 's|^|/|; s|/$||')`,
		// sed.
		`echo /var/lib/xarden/token | sed s/x/w/ | xargs cat`,
		`cat $(sed 's/X/w/g' <<< /var/lib/Xarden/token)`,
		`cat $(sed -e 's/q/w/' -e 's/z/t/' <<< /var/lib/qarden/zoken)`,
		`cat $(sed 's|^|/var/lib/|' <<< warden/token)`,
		`cat $(sed -E 's/(.*)-(.*)/\2\/\1/' <<< warden/token-/var/lib)`,
		`cat $(sed 's/WARDEN/warden/I' <<< /var/lib/Warden/token)`,
		`cat $(sed y/XY/wt/ <<< /var/lib/Xarden/Yoken)`,
		// cut, head, tail, paste.
		`echo x/var/lib/warden/token | cut -c2- | xargs cat`,
		`cat $(cut -d: -f2 <<< a:/var/lib/warden/token:b)`,
		`cat $(echo /var/lib/warden/tokenXXXX | head -c 21)`,
		`cat $(echo XXX/var/lib/warden/token | tail -c 22)`,
		`cat $(printf '/etc/hosts\n/var/lib/warden/token\n' | tail -n 1)`,
		`cat $(printf 'var\nlib\nwarden\ntoken\n' | paste -sd/ | sed 's|^|/|')`,
		`echo /VAR/LIB/WARDEN/TOKEN | awk '{print tolower($0)}' | xargs cat`,
		// basename, dirname, cd && pwd.
		`cat /var/lib/$(basename /x/warden)/token`,
		`cat $(dirname /var/lib/warden/token/x)`,
		`cat $(cd /var/lib && pwd)/warden/token`,
		`cat "$(cd /var/lib/warden; pwd)/token"`,
		// Filters chained, and run as themselves.
		`cat $(echo TkVLT1QvTkVEUkFXL0JJTC9SQVYv | base64 -d | rev | tr A-Z a-z)`,
		`cat $(command base64 -d <<< L3Zhci9saWIvd2FyZGVuL3Rva2Vu)`,
		`cat $(env rev <<< nekot/nedraw/bil/rav/)`,
		// bash's case toggles, which the parser does not know.
		`p=/VAR/LIB/WARDEN/TOKEN; cat ${p~~}`,
		`p=/VAR/LIB/WARDEN/TOKEN; cat ${p~}`,
		`p=/vAR/lIB/wARDEN/tOKEN; cat ${p~~}`,
		`p=/VAR//LIB/WARDEN/AUDIT.JSONL; rm ${p~~}`,
	))
	runExactHosts(t, p, []exactCase{
		{"base64 decode", `echo aGVsbG8= | base64 -d`, TierRead},
		{"tr upper", `tr a-z A-Z <<< hi`, TierRead},
		{"rev", `rev <<< olleh`, TierRead},
		{"dirname of hosts", `cat $(dirname /etc/hosts)/hostname`, TierRead},
		{"decoded other file", `cat $(base64 -d <<< L2V0Yy9ob3N0cw==)`, TierRead},
		{"sed other file", `echo /etc/hostx | sed s/x/s/ | xargs cat`, TierRead},
		{"near miss", `cat $(sed s/x/y/ <<< /var/lib/xarden/token)`, TierRead},
		{"basename", `basename /var/log/syslog .log`, TierRead},
		{"cut fields", `cut -d: -f1 <<< root:x:0`, TierRead},
		{"cd pwd", `ls $(cd /var/log && pwd)`, TierRead},
		{"case toggle other", `p=/etc/hosts; echo ${p~~}`, TierDestructive},
	})
}

// TestFilterOutUnknown: options and forms filterOut does not implement
// leave the output unknown rather than guessed.
func TestFilterOutUnknown(t *testing.T) {
	for _, vals := range [][]string{
		{"tr", "-c", "a", "b"}, {"tr", "[a*3]", "x"}, {"sed", "-n", "s/a/b/p"},
		{"sed", "s/a/b/w /tmp/x"}, {"sed", "s/a/b/e"}, {"sed", `s/a/\U&/`}, {"sed", "1d"},
		{"sed", `s/a\{2\}/b/`}, {"sed", `s/\(a\)\1/b/`}, {"sed", "s/a/b/", "/etc/passwd"},
		{"cut", "--complement", "-c1"}, {"head", "-c", "1K"}, {"base64"}, {"xxd", "-r"},
		{"awk", "{print}"}, {"rev", "/etc/passwd"}, {"paste", "-d/"}, {"dirname", "-z", "x"},
	} {
		if out, ok := filterOut(vals, "abc\n", true); ok {
			t.Errorf("filterOut(%q) = %q, want unknown", vals, out)
		}
	}
}

// TestFilterBounds: a filter computes over at most maxFilterText bytes,
// in and out, and a pipeline over at most maxFilterStages stages; past
// either the value is unknown, as for a filter not implemented. Within
// them the same path is computed and denied. (A pipe into xargs is
// computed stage by stage, each stage bounded by the text.)
func TestFilterBounds(t *testing.T) {
	big := strings.Repeat("a", maxFilterText)
	if _, ok := filterOut([]string{"rev"}, big+"\n", true); ok {
		t.Errorf("rev of %d bytes was computed", len(big)+1)
	}
	if _, ok := filterOut([]string{"sed", "s/a/aa/g"}, big[:maxFilterText/2+1]+"\n", true); ok {
		t.Error("sed output past the bound was computed")
	}
	if out, ok := filterOut([]string{"rev"}, big[:10]+"\n", true); !ok || out != big[:10]+"\n" {
		t.Errorf("rev within the bound = %q, %v", out, ok)
	}
	p := linkPolicy(t)
	// Commands in $(…): echo, then rev n times.
	subst := func(n int) string {
		return `cat $(echo nekot/nedraw/bil/rav/` + strings.Repeat(" | rev", n) + `)`
	}
	const commands = (maxFilterStages + 1) / 2
	if v := p.Evaluate(Input{Command: subst(commands - 1)}); !v.Denied {
		t.Errorf("%d commands: %+v, want denied", commands, v)
	}
	if v := p.Evaluate(Input{Command: subst(commands + 1)}); v.Denied {
		t.Errorf("%d commands were computed past the bound: %+v", commands+2, v)
	}
}
