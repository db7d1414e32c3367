package audit

import "testing"

// TestRedactGroupRedirections: a here-document, here-string or file
// redirected to a group or compound command ({ …; }, while …; done, if
// …; fi, for …; done) is the input of the commands inside it, so it is a
// secret when one of them reads one there, as for ( … ) <<EOF.
func TestRedactGroupRedirections(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, body := range []string{"chpasswd", "sudo chpasswd -e", "passwd --stdin bob", "docker login -u bob --password-stdin r.io"} {
		for _, c := range []string{
			"{ " + body + "; } <<EOF\nbob:" + pw + "\nEOF",
			"{ echo start; " + body + "; } <<< bob:" + pw,
			"{\n  " + body + "\n} <<'EOF'\nbob:" + pw + "\nEOF",
			"if true; then " + body + "; fi <<EOF\nbob:" + pw + "\nEOF",
			"while read -r l; do echo \"$l\" | " + body + "; done <<EOF\nbob:" + pw + "\nEOF",
			"for u in a; do " + body + "; done <<< bob:" + pw,
			"until false; do " + body + "; break; done <<< 'bob:" + pw + "'",
			"case x in x) " + body + ";; esac <<EOF\nbob:" + pw + "\nEOF",
		} {
			cases = append(cases, detourCase{"local", c, []string{body}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	cases = append(cases,
		// Kept: groups whose commands read no secret, and a secret
		// reader's group followed by another command.
		detourCase{"kept", "{ cat; } <<EOF > /tmp/notes\nhello world\nEOF", []string{"hello world"}},
		detourCase{"kept", "while read -r h; do ping -c1 \"$h\"; done <<EOF\ndb1\ndb2\nEOF", []string{"db1\ndb2"}},
		detourCase{"kept", "{ echo a | chpasswd; }; cat <<< 'just text'", []string{"just text"}},
		detourCase{"kept", "if true; then chpasswd < /dev/null; fi; wc -l <<< 'line one'", []string{"line one"}},
	)
	checkSubtests(t, pw, cases)
}
