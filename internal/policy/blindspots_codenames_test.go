package policy

import "testing"

// TestCodeNamesNotCommands: a program run by its interpreter has its text
// scanned raw for deny-list commands. Ruby's def shutdown, Perl's sub
// reboot {, and the socket call shutdown(fd, how) of C, Perl and PHP (a
// method of that name in Java or JavaScript too) were read as the
// command, which denied the programs in every mode. A command the code
// runs is still denied.
func TestCodeNamesNotCommands(t *testing.T) {
	d, p := lastingDir(t, "code-names-")
	write := func(name, text string) string { return writeUnder(t, d, name, text) }
	wantNotDenied(t, p, []string{
		"ruby " + write("srv.rb", "class Server\n  def shutdown\n    @sock.close\n  end\n  def halt; stop; end\nend\n"),
		"perl " + write("srv.pl", "sub reboot {\n  warn 'no';\n}\nshutdown($sock, 1);\nshutdown(SOCK, 2) or die;\n"),
		"php " + write("srv.php", "<?php\nsocket_shutdown($s, 2);\nshutdown($s);\n"),
		"node " + write("srv.js", "class S {\n  async shutdown() {\n    await this.close();\n  }\n}\n"),
	})
	wantDenied(t, p, "", []string{
		"ruby " + write("bad.rb", "def stop\n  system('shutdown -h now')\nend\n"),
		"perl " + write("bad.pl", "sub x { system 'reboot' }\nx();\n"),
		"node " + write("bad.js", "require('child_process').execSync('shutdown -r now')\n"),
		"python3 " + write("bad.py", "import os\nos.system('shutdown now')\n"),
		"ruby -e 'def x; end; system(\"halt\")'",
		"shutdown -h now",
	})
}
