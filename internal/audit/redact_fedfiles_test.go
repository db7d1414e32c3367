package audit

import "testing"

// TestRedactFedPasswordFiles: a literal written into a plain file that a
// program reading a secret on its input is then given as that input, by
// '<' or through cat in its pipeline (echo bob:… > /tmp/u; chpasswd <
// /tmp/u), is a secret, as for a password-file option.
func TestRedactFedPasswordFiles(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, write := range []string{
		"echo bob:" + pw + " > /tmp/u",
		"printf 'bob:" + pw + "\\n' > /tmp/u",
		"echo 'bob:" + pw + "' >> /tmp/u",
		"cat > /tmp/u <<EOF\nbob:" + pw + "\nEOF\n",
		"echo bob:" + pw + " | tee /tmp/u >/dev/null",
	} {
		for _, read := range []string{
			"chpasswd < /tmp/u", "sudo chpasswd < /tmp/u", "cat /tmp/u | chpasswd", "cat /tmp/u | sudo chpasswd -e",
			"newusers < /tmp/u", "docker login -u bob --password-stdin r.io < /tmp/u", "cat /tmp/u | kinit bob",
		} {
			sep := "; "
			if write[len(write)-1] == '\n' {
				sep = ""
			}
			in := write + sep + read
			cases = append(cases, detourCase{"local", in, []string{read}}, detourCase{"ssh", `ssh h "` + escapeDouble(in) + `"`, []string{"ssh h"}})
		}
	}
	cases = append(cases,
		// Kept: files fed to programs that read no secret, and files
		// no reader is given.
		detourCase{"kept", "echo hello > /tmp/x; sort < /tmp/x", []string{"echo hello > /tmp/x"}},
		detourCase{"kept", "echo hello > /tmp/x; cat /tmp/x | wc -l", []string{"echo hello > /tmp/x"}},
		detourCase{"kept", "echo hello > /tmp/x; chpasswd < /tmp/y", []string{"echo hello > /tmp/x"}},
	)
	checkSubtests(t, pw, cases)
}

// TestRedactFilteredPasswordFiles: a filter that passes a file's lines on
// (paste, head, tail, sort, sed, awk, cut, …) feeds a reader what was
// written into the file, as cat does.
func TestRedactFilteredPasswordFiles(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, write := range []string{
		"echo bob:" + pw + " > /tmp/u",
		"printf 'bob:%s\\n' " + pw + " > /tmp/u",
		"cat > /tmp/u <<EOF\nbob:" + pw + "\nEOF",
	} {
		for _, read := range []string{
			"head -n 1 /tmp/u | chpasswd", "tail -1 /tmp/u | sudo chpasswd", "sort -u /tmp/u | chpasswd",
			"sed 's/ //g' /tmp/u | chpasswd", "awk '{print}' /tmp/u | chpasswd", "paste -d: /tmp/names /tmp/u | chpasswd",
			"cut -d' ' -f1 /tmp/u | passwd --stdin bob", "tac /tmp/u | chpasswd", "uniq /tmp/u | chpasswd",
		} {
			in := write + "\n" + read
			cases = append(cases, detourCase{"local", in, []string{read}}, detourCase{"ssh", `ssh h "` + escapeDouble(in) + `"`, []string{"ssh h"}})
		}
	}
	cases = append(cases,
		detourCase{"kept", "echo hello > /tmp/x; head -1 /tmp/x | wc -c", []string{"echo hello > /tmp/x"}},
		detourCase{"kept", "echo hello > /tmp/x; sort /tmp/y | chpasswd", []string{"echo hello > /tmp/x"}},
	)
	checkSubtests(t, pw, cases)
}
