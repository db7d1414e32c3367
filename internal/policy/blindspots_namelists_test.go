package policy

import "testing"

// TestBlindSpotNameLists: names the script hands a reader through a list
// (a file it wrote literal text to, a process substitution printing
// literal text, a here-string, a pipe from echo, a while read loop) are
// read as if given directly: a directory above warden's state handed to
// an archiver that recurses into the names it reads, to a recursive
// reader run by xargs or by a loop, is tier 3 like tar c /var/lib.
func TestBlindSpotNameLists(t *testing.T) {
	p := linkPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		// Archivers reading names from a list.
		"tar c -T <(echo /var/lib)",
		"tar c --files-from=<(echo /var/lib)",
		"tar -cf /tmp/x -T <(printf '%s\\n' /var/lib)",
		"tar c -T - <<< /var/lib",
		"echo /var/lib | tar c -T -",
		"printf '/var/lib\\n' | tar -cf /tmp/x --files-from=-",
		"tar c -T /dev/stdin <<< /var",
		"zip -r x -@ <<< /var/lib",
		"echo /var | zip -r /tmp/x -@",
		"echo /var/lib > /tmp/l; tar c -T /tmp/l",
		"printf '%s\\n' /var/lib > /tmp/l; tar c -T /tmp/l",
		"echo /var/lib >> /tmp/l; tar c -T /tmp/l",
		"cat > /tmp/l <<< /var/lib; tar c -T /tmp/l",
		"tee /tmp/l <<< /var/lib; tar c -T /tmp/l",
		"tar c -T /tmp/l; echo /var/lib > /tmp/l",
		"tar c -T <(cat <<< /var/lib)",
		// xargs reading names from a file or a process substitution.
		"xargs -a <(echo /var/lib) grep -r x",
		"xargs --arg-file=<(echo /var/lib) grep -r x",
		"echo /var/lib > /tmp/l; xargs -a /tmp/l grep -r x",
		"echo /var/lib > /tmp/l; xargs grep -r x < /tmp/l",
		"xargs grep -r x < <(echo /var/lib)",
		"xargs tar c < <(echo /var)",
		// Substitutions of a file the script wrote.
		"echo /var/lib > /tmp/l; grep -r x $(< /tmp/l)",
		"echo /var/lib > /tmp/l; grep -r x $(cat /tmp/l)",
		"echo /var/lib > /tmp/l; tar c \"$(< /tmp/l)\"",
		// Loops reading lines.
		"while read d; do grep -r x \"$d\"; done <<< /var/lib",
		"while read -r d; do tar c $d; done < <(echo /var/lib)",
		"echo /var/lib | while read d; do grep -r x $d; done",
		"printf '%s\\n' /tmp /var/lib | while read d; do grep -r x \"$d\"; done",
		"while read a b; do grep -r x $b; done <<< '1 /var/lib'",
		"while IFS=: read a b; do grep -r x $b; done <<< 'k:/var/lib'",
		"while read d; do grep -r x \"$d\"; done <<END\n/tmp\n/var/lib\nEND",
	))
	// Where warden's files are not this machine's, or are none of the
	// names, the lists stay what they are.
	runExact(t, p, []exactCase{
		{"cpio does not recurse", "echo /var | cpio -o > /tmp/x", TierMutate},
		{"zip without -r", "zip /tmp/x -@ <<< /var/lib", TierMutate},
		{"no recursion", "tar c --no-recursion -T - <<< /var/lib", TierMutate},
		{"other directory", "echo /srv/www > /tmp/l; tar c -T /tmp/l", TierMutate},
		{"loop elsewhere", "while read d; do grep -r x \"$d\"; done <<< /srv", TierRead},
		{"xargs elsewhere", "xargs -a <(echo /srv) grep -r x", TierRead},
	})
	plain := protectedPolicy(t)
	for _, c := range []string{"tar c -T <(echo /var/lib)", "while read d; do grep -r x \"$d\"; done <<< /var/lib"} {
		if v := p.Evaluate(Input{Command: c, Host: "db1"}); v.Tier == TierDestructive || v.Denied {
			t.Errorf("Evaluate(%q, host db1) = %s denied=%v: warden's files are not on that host", c, v.Tier, v.Denied)
		}
		if v := plain.Evaluate(Input{Command: c}); v.Tier == TierDestructive || v.Denied {
			t.Errorf("Evaluate(%q) without /var/lib/warden = %s denied=%v", c, v.Tier, v.Denied)
		}
	}
}

// TestBlindSpotWrittenListsPiped: a file the script wrote literal text to
// and then reads back through cat or < FILE into xargs, sh or a while-read
// loop gives them that text, as xargs -a FILE does: echo / > l; cat l |
// xargs rm -rf is rm -rf /.
func TestBlindSpotWrittenListsPiped(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`echo / > /tmp/l; cat /tmp/l | xargs rm -rf`,
		`printf '%s\n' /srv/a / > /tmp/l; cat /tmp/l | xargs -I{} rm -rf {}`,
		`echo / > /tmp/l; while read d; do rm -rf "$d"; done < /tmp/l`,
		`echo /usr > l; while read -r d; do rm -rf "$d"; done < l`,
		`echo / > /tmp/l; cat /tmp/l | while read d; do rm -rf "$d"; done`,
		`echo / > /tmp/l; head -n 5 < /tmp/l | xargs rm -rf`,
		`echo / > /tmp/l; read d < /tmp/l; rm -rf "$d"`,
		`echo /usr > /tmp/l; mapfile -t a < /tmp/l; rm -rf "${a[@]}"`,
	))
	runExactHosts(t, p, []exactCase{
		{"other list", `echo /srv/x > /tmp/l; cat /tmp/l | xargs rm -r`, TierDestructive},
		{"system file", `cat /etc/hosts | xargs echo`, TierRead},
	})
}
