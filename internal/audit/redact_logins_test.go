package audit

import "testing"

// TestRedactSambaPasswordPositional: smbclient's second positional is the
// password wherever its options put it, the options that take a value
// (-U bob, -W DOM, -c 'ls', --port 445) being skipped; without a second
// positional nothing is redacted.
func TestRedactSambaPasswordPositional(t *testing.T) {
	checkSpellings(t, []spelling{
		{"smbclient //nas/share -U bob -W DOM S3cr3tZ", []string{"S3cr3tZ"}, []string{"//nas/share -U bob -W DOM"}},
		{"smbclient //nas/share -W DOM -U bob 'S3cr3tZ' -c ls", []string{"S3cr3tZ"}, []string{"-W DOM -U bob", "-c ls"}},
		{"smbclient -W DOM -p 445 //nas/share S3cr3tZ -U bob", []string{"S3cr3tZ"}, []string{"-p 445 //nas/share"}},
		{"smbclient --workgroup DOM --user bob '\\\\nas\\share' S3cr3tZ", []string{"S3cr3tZ"}, []string{"--user bob"}},
		{"smbclient -m SMB3 -c 'get a' //nas/share \"S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"-c 'get a' //nas/share"}},
		{"smbclient -N -g //nas/share -U bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"-N -g //nas/share -U bob"}},
		{"/usr/bin/smbclient //nas/share -U bob -I 10.0.0.5 S3cr3tZ", []string{"S3cr3tZ"}, []string{"-I 10.0.0.5"}},
		{"sh -c 'smbclient //nas/share -U bob -W DOM S3cr3tZ -c ls'", []string{"S3cr3tZ"}, []string{"-W DOM", "-c ls"}},
		// No password positional: the option values stay.
		{"smbclient //nas/share -U bob -W DOM -c 'ls; get report.pdf'", nil, []string{"smbclient //nas/share -U bob -W DOM -c 'ls; get report.pdf'"}},
		{"smbclient -L nas -U bob -W DOM -N", nil, []string{"smbclient -L nas -U bob -W DOM -N"}},
		{"smbclient //nas/share -A authfile -D docs -c ls", nil, []string{"smbclient //nas/share -A authfile -D docs -c ls"}},
	})
}

// TestRedactFTPLogins: FTP clients read their commands, and without -n
// the answers to their login prompts, on their input, so what a command
// feeds them (here-documents, here-strings, echo and printf) is a secret;
// lftp's user command in its -e or -c script takes the password as its
// second argument.
func TestRedactFTPLogins(t *testing.T) {
	checkSpellings(t, []spelling{
		{"ftp -n h <<< 'user bob S3cr3tZ'", []string{"S3cr3tZ"}, []string{"ftp -n h <<<"}},
		{"ftp -n h <<<\"user bob S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"ftp -n h"}},
		{"ftp -n h <<EOF\nuser bob S3cr3tZ\nls\nbye\nEOF\necho done", []string{"S3cr3tZ"}, []string{"ftp -n h <<EOF", "EOF\necho done"}},
		{"ftp -inv h <<'END'\nuser bob S3cr3tZ\nget f\nEND", []string{"S3cr3tZ"}, []string{"ftp -inv h"}},
		{"ftp h <<EOF\nbob\nS3cr3tZ\nls\nEOF", []string{"S3cr3tZ"}, []string{"ftp h <<EOF"}},
		{"ftp -n <<-EOF\n\topen h\n\tuser bob S3cr3tZ\n\tEOF", []string{"S3cr3tZ"}, []string{"ftp -n <<-EOF"}},
		{"printf 'open h\\nuser bob S3cr3tZ\\nls\\n' | ftp -n", []string{"S3cr3tZ"}, []string{"| ftp -n"}},
		{"echo 'user bob S3cr3tZ' | tnftp -n h && ls", []string{"S3cr3tZ"}, []string{"tnftp -n h && ls"}},
		{"lftp h <<EOF\nopen -u bob,S3cr3tZ h\nmirror a\nEOF", []string{"S3cr3tZ"}, []string{"lftp h <<EOF"}},
		{"lftp h -e 'user bob S3cr3tZ; ls; bye'", []string{"S3cr3tZ"}, []string{"user bob ", "; ls; bye"}},
		{"lftp -c 'user bob \"S3cr3tZ\"; open h; mirror a'", []string{"S3cr3tZ"}, []string{"; open h; mirror a"}},
		{"lftp -u bob,S3cr3tZ h", []string{"S3cr3tZ"}, []string{"-u bob,"}},
		// Input fed to other programs, and ftp itself, stay.
		{"echo 'user bob logged in' | grep user", nil, []string{"echo 'user bob logged in' | grep user"}},
		{"ftp -n h", nil, []string{"ftp -n h"}},
		{"lftp -e 'mirror a; bye' h", nil, []string{"lftp -e 'mirror a; bye' h"}},
	})
}
