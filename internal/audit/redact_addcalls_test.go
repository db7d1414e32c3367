package audit

import "testing"

// TestRedactArgvAddCalls: an argv list built one item per statement
// (cmd.add("--password"); cmd.add("…"), args.push, argv.append) is read as
// the list it builds: the item after a secret option goes, by the named
// program's rules too, and other items stay.
func TestRedactArgvAddCalls(t *testing.T) {
	checkCases(t, []spelling{
		{`List<String> cmd = new ArrayList<>(); cmd.add("mysql"); cmd.add("--password"); cmd.add("S3cr3tZ");`, []string{"S3cr3tZ"}, []string{`cmd.add("--password"); cmd.add("`}},
		{"cmd.add(\"--password\");\ncmd.add(\"S3cr3tZ\");", []string{"S3cr3tZ"}, []string{"cmd.add(\"--password\");\ncmd.add(\""}},
		{"cmd.add(\"--password\");\n    cmd.add(\"S3cr3tZ\");", []string{"S3cr3tZ"}, []string{"    cmd.add(\""}},
		{`args.push("--password"); args.push("S3cr3tZ");`, []string{"S3cr3tZ"}, []string{`args.push("`}},
		{"args.push('--token');\nargs.push('S3cr3tZ');", []string{"S3cr3tZ"}, []string{"args.push('"}},
		{"argv.append(\"--token\")\nargv.append(\"S3cr3tZ\")", []string{"S3cr3tZ"}, []string{"argv.append(\""}},
		{`cmd.add("sshpass"); cmd.add("-p"); cmd.add("S3cr3tZ"); cmd.add("ssh");`, []string{"S3cr3tZ"}, []string{`cmd.add("-p"); cmd.add("`, `cmd.add("ssh");`}},
		{`cmd.add("curl"); cmd.add("-u"); cmd.add("bob:S3cr3tZ");`, []string{"S3cr3tZ"}, []string{`cmd.add("bob:`}},
		{`pb.command().add("--password"); pb.command().add("S3cr3tZ");`, []string{"S3cr3tZ"}, []string{`pb.command().add("`}},
		{`c.Add("--client-secret"); c.Add("S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`c.Add("`}},
		{"python3 -c 'a=[]; a.append(\"--password\"); a.append(\"S3cr3tZ\"); run(a)'", []string{"S3cr3tZ"}, []string{"a.append(\""}},
		{`python3 -c 'Command::new("x").arg("--password").arg("S3cr3tZ")'`, []string{"S3cr3tZ"}, []string{`.arg("--password").arg("`}},
		{`node -e 'args.push("--password"); args.push("S3cr3tZ")'`, []string{"S3cr3tZ"}, []string{`args.push("`}},
		// Kept: other options' values, and a following statement that
		// adds no item.
		{`cmd.add("ssh"); cmd.add("-p"); cmd.add("2222");`, nil, []string{`cmd.add("ssh"); cmd.add("-p"); cmd.add("2222");`}},
		{`cmd.add("--verbose"); cmd.add("host");`, nil, []string{`cmd.add("--verbose"); cmd.add("host");`}},
		{`cmd.add("--password"); log("S3cr3tZ");`, nil, []string{`log("S3cr3tZ")`}},
	})
}
