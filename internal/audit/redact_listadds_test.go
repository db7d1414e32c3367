package audit

import "testing"

// TestRedactListAdditions: an argv list whose program is its first item,
// named in one statement, with the option and its value added in later
// ones (Ruby's <<, push, +=, concat; Python's append, extend, insert;
// JavaScript's push; Perl's push and qw(…); Ruby's %w[…]), and a list
// with no program whose option names a secret, added to by <<.
func TestRedactListAdditions(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"shovel", `ruby -e 'a = ["sshpass"]; a << "-p" << "` + pw + `"; system(*a)'`, []string{`a << "-p" << "`, "system(*a)"}},
		{"shovel", `ruby -e 'a = ["sshpass"]; a << "-p"; a << "` + pw + `"; system(*a)'`, []string{"system(*a)"}},
		{"shovel", "ruby -e 'a = [\"sshpass\"]\na << \"-p\"\na << \"" + pw + "\"\nsystem(*a)'", []string{"system(*a)"}},
		{"shovel", `ruby -e 'a = ["mysql"]; a << "-p` + pw + `"; system(*a)'`, []string{"system(*a)"}},
		{"shovel", `ruby -e 'a = ["curl"]; a << "-s" << "-u" << "bob:` + pw + `" << "https://h"; system(*a)'`, []string{`"bob:`, `<< "https://h"`}},
		{"shovel", `ruby -e "a = ['curl']; a << '-u' << 'bob:` + pw + `'; system(*a)"`, []string{"'bob:"}},
		{"shovel", `ruby -e 'a = ["curl", "-s"]; a << "--user" << "bob:` + pw + `" if x; system(*a)'`, []string{"if x"}},
		{"shovel", `ruby -e 'a = []; a << "--password" << "` + pw + `"; system("./app", *a)'`, []string{`system("./app", *a)`}},
		{"shovel", `ruby -e 'args = []; args << "--api-token"; args << "` + pw + `"'`, []string{`args << "--api-token"`}},
		{"push", `ruby -e 'a = ["curl"]; a.push("-u", "bob:` + pw + `"); system(*a)'`, []string{`"bob:`}},
		{"push", `ruby -e 'a = ["sshpass"]; a.push("-p").push("` + pw + `")'`, nil},
		{"push", `node -e 'const a = ["sshpass"]; a.push("-p", "` + pw + `"); spawn(a[0], a.slice(1))'`, []string{"spawn(a[0]"}},
		{"push", `node -e 'const a = ["sshpass"]; a.push("-p"); a.push("` + pw + `")'`, nil},
		{"push", `node -e "const a = ['mysql', '-u', 'root']; a.unshift('--password=` + pw + `')"`, nil},
		{"push", `perl -e 'my @c = ("sshpass"); push @c, "-p", "` + pw + `"; system @c'`, []string{"system @c"}},
		{"push", `perl -e 'my @c = ("mysql"); push(@c, "--password", "` + pw + `"); system @c'`, []string{"system @c"}},
		{"extend", `ruby -e 'a = ["sshpass"]; a += ["-p", "` + pw + `"]'`, nil},
		{"extend", `ruby -e 'a = ["sshpass"]; a.concat(["-p", "` + pw + `"])'`, nil},
		{"extend", `python3 -c 'a = ["sshpass"]; a += ["-p", "` + pw + `"]; subprocess.run(a)'`, []string{"subprocess.run(a)"}},
		{"extend", `python3 -c 'a = ["sshpass"]; a.extend(["-p", "` + pw + `"])'`, nil},
		{"extend", `python3 -c 'a = ["sshpass"]; a.extend(("-p", "` + pw + `"))'`, nil},
		{"extend", `python3 -c "a = ['curl', '-s']\na += ['-u', 'bob:` + pw + `']"`, []string{"'bob:"}},
		{"append", `python3 -c 'a = ["mysql"]; a.append("-p` + pw + `")'`, nil},
		{"append", "python3 -c 'a = [\"sshpass\"]\na.append(\"-p\")\na.append(\"" + pw + "\")'", nil},
		{"append", `python3 -c 'a = ["sshpass"]; a.insert(1, "-p"); a.insert(2, "` + pw + `")'`, nil},
		{"words", `ruby -e 'a = %w[sshpass -p ` + pw + ` ssh h]; system(*a)'`, []string{"ssh h]"}},
		{"words", `ruby -e 'a = %w(sshpass -p ` + pw + ` ssh h); system(*a)'`, []string{"ssh h)"}},
		{"words", `ruby -e 'system(*%W[curl -u bob:` + pw + ` https://h])'`, []string{"https://h]"}},
		{"words", `perl -e 'system(qw(sshpass -p ` + pw + ` ssh h))'`, []string{"ssh h)"}},
		{"words", `perl -e 'my @c = qw(mysql -uroot -p` + pw + `); system @c'`, []string{"system @c"}},
		{"ssh", `ssh db1 "perl -e 'push @c, qw(sshpass -p ` + pw + `)'"`, []string{"ssh db1"}},
		// Kept: the list's additions hold no secret.
		{"kept", `ruby -e 'a = ["curl"]; a << "-s" << "-o" << "out.html" << "https://h"; system(*a)'`, []string{`a << "-s" << "-o" << "out.html" << "https://h"`}},
		{"kept", `python3 -c 'cmd = ["mysql", "-u", "root"]; cmd += ["-e", "show databases"]; subprocess.run(cmd)'`, []string{`["-e", "show databases"]`}},
		{"kept", `node -e 'const a = ["ls"]; a.push("-la", "/tmp")'`, []string{`a.push("-la", "/tmp")`}},
		{"kept", `perl -e 'my @c = qw(rsync -a --delete); push @c, "src/", "dst/"; system @c'`, []string{`push @c, "src/", "dst/"`}},
		{"kept", `ruby -e 'a = %w[git log -n 5]; system(*a)'`, []string{"%w[git log -n 5]"}},
		{"kept", "cat << \"EOF\"\nhello\nEOF", []string{"hello"}},
	})
}

// TestRedactHeredocArgvItems: a script fed as a here-document (python3 -
// <<'EOF', ruby <<EOF, ssh h node <<EOF) has no shell quotes in its body,
// so its argv lists' items are read by the script's quotes, as they are
// in python3 -c '…'.
func TestRedactHeredocArgvItems(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"list", "python3 - <<'EOF'\nimport subprocess\nsubprocess.run([\"sshpass\", \"-p\", \"" + pw + "\", \"ssh\", \"h\"])\nEOF", []string{`"ssh", "h"`}},
		{"list", "python3 - <<'EOF'\nsubprocess.run([\"curl\", \"-u\", \"bob:" + pw + "\", \"https://h\"])\nEOF", []string{`"bob:`, `"https://h"`}},
		{"list", "python3 <<EOF\nsubprocess.check_call(['mysql', '--password', '" + pw + "', '-e', 'select 1'])\nEOF", []string{"'select 1'"}},
		{"list", "node <<'JS'\nrequire('child_process').execFileSync('sshpass', ['-p', '" + pw + "', 'ssh', 'h'])\nJS", []string{"'ssh', 'h'"}},
		{"list", "ssh db1 python3 - <<'EOF'\nsubprocess.run([\"./app\", \"--api-token\", \"" + pw + "\"])\nEOF", []string{"--api-token"}},
		{"list", "ssh db1 'python3 -' <<'EOF'\nsubprocess.run([\"sshpass\", \"-p\", \"" + pw + "\"])\nEOF", nil},
		{"adds", "python3 - <<'EOF'\na = [\"sshpass\"]\na.append(\"-p\")\na.append(\"" + pw + "\")\nEOF", []string{`a.append("-p")`}},
		{"adds", "ruby <<'EOF'\na = [\"sshpass\"]\na << \"-p\" << \"" + pw + "\"\nsystem(*a)\nEOF", []string{`a << "-p" << "`, "system(*a)"}},
		{"adds", "ruby <<'EOF'\na = [\"sshpass\"]\na.push(\"-p\", \"" + pw + "\")\nEOF", []string{`a.push("-p", "`}},
		{"adds", "ssh db1 ruby <<'EOF'\na = [\"sshpass\"]\na << \"-p\" << \"" + pw + "\"\nsystem(*a)\nEOF", []string{"ssh db1 ruby", "system(*a)"}},
		{"adds", "ssh db1 python3 - <<'EOF'\na = ['sshpass']\na.append('-p')\na.append('" + pw + "')\nEOF", []string{"a.append('-p')"}},
		// Kept: no item is a secret.
		{"kept", "python3 - <<'EOF'\nsubprocess.run([\"rsync\", \"-a\", \"--delete\", \"src/\", \"dst/\"])\nEOF", []string{`"--delete", "src/", "dst/"`}},
		{"kept", "ruby <<'EOF'\na = [\"curl\"]\na << \"-s\" << \"-o\" << \"out\"\nEOF", []string{`a << "-s" << "-o" << "out"`}},
	})
}

// TestRedactListAdditionsMore: more ways to add to a list its first
// item named the program of (Ruby's %w[] added with += or concat, a.<<(),
// index assignment, Perl's splice and list reassignment, Python's slice
// assignment and [*a, …], JavaScript's [...a, …] and splice), items after
// a comma in a script's string read as items (Open3.capture2("sshpass",
// "-p", "…", "ssh", "h") keeps "ssh", "h"), and a list named by %w[…]
// alone.
func TestRedactListAdditionsMore(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"words", `ruby -e 'a = ["sshpass"]; a += %w[-p ` + pw + `]'`, nil},
		{"words", `ruby -e 'a = ["sshpass"]; a.concat(%w[-p ` + pw + `])'`, nil},
		{"words", `ruby -e 'a = %w[sshpass]; a << "-p" << "` + pw + `"'`, []string{`a << "-p" << "`}},
		{"words", `ruby -e 'a = %w[curl -s]; a << "-u" << "bob:` + pw + `"'`, []string{`"bob:`}},
		{"words", `perl -e 'my @c = qw(sshpass); push @c, qw(-p ` + pw + `)'`, nil},
		{"method", `ruby -e 'a = ["sshpass"]; a.<<("-p").<<("` + pw + `")'`, nil},
		{"index", `ruby -e 'a = ["sshpass"]; a[1..] = ["-p", "` + pw + `"]'`, []string{`["-p", "`}},
		{"index", `ruby -e 'a = ["sshpass"]; a[1] = "-p"; a[2] = "` + pw + `"'`, nil},
		{"index", `python3 -c 'a = ["sshpass"]; a[1:1] = ["-p", "` + pw + `"]'`, []string{`["-p", "`}},
		{"reassign", `perl -e 'my @c = ("sshpass"); @c = (@c, "-p", "` + pw + `"); system @c'`, []string{"system @c"}},
		{"reassign", `python3 -c 'a = ["sshpass"]; a = [*a, "-p", "` + pw + `"]'`, []string{`[*a, "-p", "`}},
		{"reassign", `node -e 'let a = ["sshpass"]; a = [...a, "-p", "` + pw + `"]'`, []string{`[...a, "-p", "`}},
		{"splice", `perl -e 'my @c = ("sshpass"); splice(@c, 1, 0, "-p", "` + pw + `")'`, nil},
		{"splice", `node -e 'let a = ["sshpass"]; a.splice(1, 0, "-p", "` + pw + `")'`, nil},
		{"after-item", `perl -e 'my @c = ("sshpass"); unshift @c, "sudo"; push @c, ("-p", "` + pw + `")'`, nil},
		{"items", `ruby -e 'Open3.capture2("sshpass", "-p", "` + pw + `", "ssh", "h")'`, []string{`"ssh", "h")`}},
		{"items", `perl -e 'open(my $fh, "-|", "sshpass", "-p", "` + pw + `", "ssh", "h")'`, []string{`"ssh", "h")`}},
		{"items", `ruby -e 'IO.popen(["curl", "-s", "-u", "bob:` + pw + `", "https://h"]).read'`, []string{`"https://h"]`}},
		// Kept: comparisons and lists with no secret.
		{"kept", `ruby -e 'a = ["sshpass"]; puts a[1] == "-p"'`, []string{`a[1] == "-p"`}},
		{"kept", `python3 -c 'a = ["ssh"]; a[1:1] = ["-p", "2222"]'`, []string{`["-p", "2222"]`}},
		{"kept", `ruby -e 'a = %w[git log]; a += %w[-n 5]'`, []string{"%w[-n 5]"}},
		{"kept", `node -e 'let a = ["ls"]; a = [...a, "-la"]'`, []string{`"-la"`}},
	})
}
