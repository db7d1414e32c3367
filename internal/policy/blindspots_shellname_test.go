package policy

import "testing"

// TestBlindSpotPayloadShellName: in sh -c TEXT with no words after it,
// $0 is the shell's own name as it was run, so $0 -c CMD, "$0" -s and a
// pipe into $0 run that shell on CMD: what it runs meets the deny list.
// Words after the text still give $0 and the rest.
func TestBlindSpotPayloadShellName(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"sh -c '$0 -c reboot'",
		`bash -c '"$0" -c "rm -rf /"'`,
		"bash -c '${0} -c reboot'",
		"bash -c 'exec $0 -c reboot'",
		`dash -c '"$0" -c "mkfs.ext4 /dev/sda"'`,
		"zsh -c '$0 -c reboot'",
		"/bin/sh -c '$0 -c reboot'",
		"busybox sh -c '$0 -c reboot'",
		"env sh -c '$0 -c reboot'",
		"sudo sh -c '$0 -c poweroff'",
		`sh -c 'echo hi; $0 -c "rm -rf /"'`,
		"sh -c 'f() { $0 -c reboot; }; f'",
		"echo reboot | sh -c '$0'",
		"sh -c '$0 -s' <<< reboot",
	))
	runExactHosts(t, p, []exactCase{
		{"prints its name", "sh -c 'echo $0'", TierRead},
		{"a word after the text", "sh -c 'ls \"$0\"' /etc", TierRead},
	})
}

// TestBlindSpotLastWordParam: $_ is the last word of the command before,
// so : /; rm -rf $_ removes / and test -d /usr && rm -rf "$_" removes
// /usr: the word's literal value is one $_ may have, as an assignment's
// is one a variable may have.
func TestBlindSpotLastWordParam(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		": /; rm -rf $_",
		`echo /usr; rm -rf "$_"`,
		"test -d /usr && rm -rf $_",
		"ls -d /etc && rm -rf ${_}",
		"true /usr/bin; rm -rf \"$_\"/*",
		": /dev/sda; dd if=/dev/zero of=$_",
		": /dev/sda\nmkfs.ext4 $_",
		"stat /boot >/dev/null; rm -r -f -- \"${_}\"",
	))
	runExactHosts(t, p, []exactCase{
		{"cd into what mkdir made", "mkdir -p /tmp/x && cd $_", TierBenign},
		{"list what was checked", "test -d /var/log && ls $_", TierRead},
	})
}
