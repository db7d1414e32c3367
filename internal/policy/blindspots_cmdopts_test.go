package policy

import "testing"

// TestBlindSpotKnownRunOpts: options of programs the classifier knows
// whose value is a program they run (install --strip-program, aria2c's
// --on-download-* hooks, gpg's --photo-viewer and --agent-program) or the
// options of one (duplicity --ssh-options, which can carry
// -oProxyCommand). The value is classified as a command in every
// spelling the program's parser takes (=, next word, abbreviated): the
// deny list meets it, and the call is tier 3 since it runs a program.
func TestBlindSpotKnownRunOpts(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		"install --strip-program=/tmp/x -s a /usr/local/bin/a",
		"install -s --strip-program /tmp/x a b",
		"install -s --strip-prog=/tmp/x a b",
		"install -s --strip-=/tmp/x a b",
		"install -s --strip-program=llvm-strip a b",
		`install -s --strip-program="$S" a b`,
		"aria2c --on-download-complete=/tmp/x http://x",
		"aria2c --on-download-complete /tmp/x http://x",
		"aria2c --on-download-error=/home/u/x http://x",
		"aria2c --on-download-start=./x http://x",
		"aria2c --on-download-pause=/tmp/x http://x",
		"aria2c --on-download-stop=/tmp/x http://x",
		"aria2c --on-bt-download-complete=/tmp/x http://x",
		`aria2c --on-bt-download-complete="$H" http://x`,
		"aria2c --on-download-c=/tmp/x http://x",
		"aria2c -x4 http://x --on-download-complete=/tmp/x",
		"gpg --list-options show-photos --photo-viewer '/tmp/x %i' -k",
		"gpg --photo-viewer='/tmp/x %i' --list-keys",
		"gpg --photo-v '/tmp/x %i' --list-keys",
		"gpg --ph=/tmp/x -k",
		"gpg --agent-program=/tmp/x -k",
		"gpg --agent-prog /tmp/x --list-keys",
		"gpg --dirmngr-program /tmp/x --recv-keys 1",
		"gpg2 --keyboxd-program=/tmp/x -k",
		"gpgsm --agent-program=/tmp/x -k",
		"gpgsm --protect-tool-program=/tmp/x -k",
		"duplicity --ssh-options='-oProxyCommand=/tmp/x' collection-status sftp://h/x",
		"duplicity --ssh-o '-oProxyCommand=/tmp/x' collection-status sftp://h/x",
		"duplicity --ssh-options='-o ProxyCommand=/tmp/x' list-current-files sftp://h/x",
		"duplicity --rsync-options='-e /tmp/x' collection-status rsync://h/x",
		"duplicity --gpg-binary=/tmp/x collection-status file:///b",
		"duplicity --gpg-options='--photo-viewer=/tmp/x' collection-status file:///b",
		"duplicity --scp-command=/tmp/x full /srv scp://h/x",
		"nano --speller=/tmp/x f",
		"nano --sp /tmp/x f",
		"aria2c --conf-path=/tmp/x http://x",
		"aria2c --conf /tmp/x http://x",
		"rdiff-backup --remote-schema=/tmp/x backup a h::b",
		"rdiff-backup --remote-schema '/tmp/x {h}' backup a h::b",
		"rdiff-backup --remote-s '/tmp/x {h}' backup a h::b",
	),
		blindCase{"rdiff-backup rm", "rdiff-backup --remote-schema 'rm -rf / {h}' backup a h::b", TierDestructive, true},
		blindCase{"strip reboot", "install -s --strip-program reboot a b", TierDestructive, true},
		blindCase{"strip rm", "install -s --strip-program='rm -rf /' a b", TierDestructive, true},
		blindCase{"aria2c reboot", "aria2c --on-download-c=reboot http://x", TierDestructive, true},
		blindCase{"aria2c poweroff", "aria2c --on-download-complete poweroff http://x", TierDestructive, true},
		blindCase{"gpg viewer rm", "gpg --photo-viewer 'rm -rf /' -k", TierDestructive, true},
		blindCase{"gpg agent reboot", "gpg --agent-program=reboot -k", TierDestructive, true},
		blindCase{"duplicity proxy rm", `duplicity --ssh-options="-oProxyCommand='rm -rf /'" collection-status sftp://h/x`, TierDestructive, true},
	))
	runExactHosts(t, p, []exactCase{
		{"install", "install -m755 a /usr/local/bin/a", TierMutate},
		{"install -s", "install -s --strip a b", TierMutate},
		{"aria2c", "aria2c http://x", TierMutate},
		{"aria2c out", "aria2c -x4 --out=f http://x", TierMutate},
		{"gpg -k", "gpg -k", TierRead},
		{"gpg colons", "gpg --list-keys --with-colons", TierRead},
		{"gpg verify", "gpg --verify f.sig f", TierRead},
		{"duplicity", "duplicity collection-status sftp://h/x", TierMutate},
		{"nano", "nano --softwrap f", TierMutate},
		{"aria2c timeout", "aria2c --connect-timeout=5 http://x", TierMutate},
		{"aria2c conditional", "aria2c --conditional-get=true http://x", TierMutate},
		{"rdiff-backup", "rdiff-backup backup a h::b", TierMutate},
		{"duplicity identity", "duplicity --ssh-options='-oIdentityFile=/root/.ssh/k' collection-status sftp://h/x", TierMutate},
	})
}

// TestBlindSpotUnknownRunOpts: a program the classifier does not know
// whose option's name says its value is a program to run (--exec,
// --root-command, --pinentry-program, --hook-init, --rsh-command,
// -sshcmd, --root-shell=/path) runs that value: a program in a temporary
// or agent-writable directory, a shell or interpreter (given arguments
// the classifier does not see), a deny-listed one, or one computed at run
// time makes the call tier 3, as a command line in its arguments does.
func TestBlindSpotUnknownRunOpts(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"yt-dlp --exec /tmp/x url",
		"yt-dlp --exec=/tmp/x url",
		"yt-dlp --exec=reboot url",
		"yt-dlp --exec sh url",
		"yt-dlp --exec=python3.12 url",
		`yt-dlp --exec "$X" url`,
		"gpg-agent --pinentry-program /tmp/x --daemon",
		"gpg-agent --scdaemon-program=/tmp/x --daemon",
		"gpg-connect-agent --exec /tmp/x",
		"dpkg-buildpackage --root-command=/tmp/x",
		"dpkg-buildpackage --hook-init=/tmp/x",
		"dpkg-buildpackage --hook-buildinfo=/var/tmp/x",
		"dpkg-buildpackage --check-command=/dev/shm/x",
		`dpkg-buildpackage --sign-command="$S"`,
		"dpkg-architecture --command=/tmp/x",
		"prove --exec=/tmp/x t/",
		"scriptlive --command=/tmp/x log",
		"systemd-firstboot --root-shell=/tmp/x",
		"mt --rsh-command=/tmp/x -f h:/dev/st0 status",
		"mt-gnu --rsh-command /tmp/x -f h:/dev/st0 status",
		"unison -sshcmd /tmp/x a ssh://h/b",
		"rdiff-backup --remote-cmd=/tmp/x backup a h::b",
		"foo --post-exec=/tmp/x",
		"foo --diff-cmd=/tmp/x a b",
		"foo --SSH-COMMAND=/tmp/x",
		"foo --ssh_program=/tmp/x",
		"foo --editor=/tmp/x f",
		"foo --viewer /tmp/x f",
		"foo --helper=/tmp/x",
		"foo --rsh /tmp/x",
		"foo --login-shell=/tmp/x",
		"foo --on-exit-hook=/tmp/x",
		"wget2 --use-askpass=/tmp/x http://x",
		"foo --on-complete=/tmp/x",
		"foo --on-exit /tmp/x",
		"foo --on-success='rm -rf /'",
		"foo --wrapper=/tmp/x",
		"foo --test-runner=/tmp/x",
		"foo --interpreter=/tmp/x",
		"foo --interpreter=python3",
		"unison -copyprog /tmp/x a ssh://h/b",
		"unison -servercmd /tmp/x a ssh://h/b",
	))
	runExactHosts(t, p, []exactCase{
		{"yt-dlp", "yt-dlp -f best url", TierMutate},
		{"exec ls", "foo --exec=ls", TierMutate},
		{"editor vim", "foo --editor=vim f", TierMutate},
		{"root fakeroot", "dpkg-buildpackage --root-command=fakeroot -us -uc", TierMutate},
		{"rfakeroot", "dpkg-buildpackage -rfakeroot -us -uc", TierMutate},
		{"pinentry", "gpg-agent --pinentry-program=/usr/bin/pinentry-curses --daemon", TierMutate},
		{"exec-prefix", "nss-config --exec-prefix=/tmp/x", TierMutate},
		{"cmd timeout", "vgdb --cmd-time-out=5", TierMutate},
		{"command timeout", `foo --command-timeout "$X"`, TierMutate},
		{"no-pager", "foo --no-pager /tmp/x", TierMutate},
		{"shell dialect", "foo completion --shell zsh", TierMutate},
		{"progress", "foo --progress /tmp/x", TierMutate},
		{"progname", "memusage --progname=x ./a.out", TierMutate},
		{"on-busy-update", "watchexec --on-busy-update=restart -- make", TierMutate},
		{"on-error", "foo --on-error=ignore", TierMutate},
		{"dry-run", "foo --dry-run /tmp/x", TierMutate},
	})
}

// TestBlindSpotZipTestCommand: zip's parser takes a short option's value
// attached (-TTcmd), after "=" (-TT=cmd) and at the end of a cluster
// (-qTT cmd), as well as -TT cmd and --unzip-command; zip runs it through
// a shell to test the archive.
func TestBlindSpotZipTestCommand(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		"zip -T -TT/tmp/x a.zip f",
		"zip -T -TT=/tmp/x a.zip f",
		"zip -qTT /tmp/x -T a.zip f",
		"zip -qTT=/tmp/x -T a.zip f",
		`zip -TT="$C" -T a.zip f`,
		"zip -T --unzip-command=/tmp/x a.zip f",
		"zip -T --unzip-c=/tmp/x a.zip f",
	),
		blindCase{"= rm", "zip -T -TT='rm -rf /' a.zip f", TierDestructive, true},
		blindCase{"attached reboot", "zip -T -TTreboot a.zip f", TierDestructive, true},
	))
	runExactHosts(t, p, []exactCase{
		{"recursive", "zip -r a.zip dir", TierMutate},
		{"test", "zip -T a.zip f", TierMutate},
		{"quiet", "zip -qr a.zip dir", TierMutate},
	})
}

// TestBlindSpotProviderLibraries: ssh-add -s/-S has the agent load the
// PKCS#11 or security key provider library named, ssh-keygen -D and -w
// load it themselves: code of the caller's choosing, as ssh -I is, in
// every getopt spelling.
func TestBlindSpotProviderLibraries(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"ssh-add -S /tmp/x.so",
		"ssh-add -s /tmp/x.so",
		"ssh-add -s/usr/lib/x/opensc-pkcs11.so",
		"ssh-add -qS /tmp/x.so",
		"ssh-add -v -s /home/u/p.so",
		`ssh-add -s "$P"`,
		"ssh-keygen -D /tmp/x.so",
		"ssh-keygen -D/tmp/x.so",
		"ssh-keygen -qD /tmp/x.so",
		"ssh-keygen -w /tmp/x.so -t ed25519-sk",
		"ssh-keygen -t ed25519-sk -w/tmp/x.so -f k",
	))
	runExactHosts(t, p, []exactCase{
		{"list", "ssh-add -l", TierRead},
		{"list keys", "ssh-add -L", TierRead},
		{"add", "ssh-add ~/.ssh/id_ed25519", TierMutate},
		{"lifetime", "ssh-add -t 3600 k", TierMutate},
		{"remove provider", "ssh-add -e /usr/lib/opensc-pkcs11.so", TierMutate},
		{"fingerprint", "ssh-keygen -lf k.pub", TierRead},
		{"find host", "ssh-keygen -F h", TierRead},
		{"generate", "ssh-keygen -t ed25519 -f k -N ''", TierMutate},
	})
}

// TestBlindSpotSshArgsValues: values that are the arguments of an ssh a
// program starts (restic -o sftp.args, hg's -e before the subcommand)
// carry -oProxyCommand=… and the program: classified as such.
func TestBlindSpotSshArgsValues(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		"restic -o sftp.args='-oProxyCommand=/tmp/x' -r sftp:h:/r snapshots",
		"restic -o sftp.args='-o ProxyCommand=/tmp/x' -r sftp:h:/r snapshots",
		"restic --option=sftp.args='-oProxyCommand=/tmp/x' -r sftp:h:/r snapshots",
		"restic -r sftp:h:/r snapshots -o 'sftp.args=-oLocalCommand=/tmp/x -oPermitLocalCommand=yes'",
		"hg -e /tmp/x pull",
		"hg -e /tmp/x push",
		"hg --ssh /tmp/x pull",
		"hg --remotecmd /tmp/x -e ssh pull",
	),
		blindCase{"restic proxy rm", `restic -o sftp.args="-oProxyCommand='rm -rf /'" -r sftp:h:/r snapshots`, TierDestructive, true},
		blindCase{"hg -e rm", "hg -e 'rm -rf /' pull", TierDestructive, true},
	))
	runExactHosts(t, p, []exactCase{
		// As ssh -i /root/k h is: -o takes its value, snapshots reads.
		{"restic identity", "restic -o sftp.args='-i /root/k' -r sftp:h:/r snapshots", TierBenign},
		{"restic snapshots", "restic -r sftp:h:/r snapshots", TierBenign},
		{"hg status", "hg status", TierMutate},
	})
}

// TestBlindSpotPipeOutputs: an unknown program's output named as a pipe
// (Ghostscript's -sOutputFile=%pipe%cmd and -o '|cmd') runs cmd.
func TestBlindSpotPipeOutputs(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"gs -sOutputFile='%pipe%rm -rf /' -sDEVICE=pdfwrite f.ps",
		"gs -sOutputFile=%pipe%/tmp/x -sDEVICE=pdfwrite f.ps",
		"gs -sOutputFile=%PIPE%/tmp/x f.ps",
		"gs -o '|/tmp/x' f.ps",
		"gs -o '| sh' f.ps",
		"gs -sOutputFile='|reboot' f.ps",
		"gs -dBATCH -sOutputFile='|/tmp/x -q' f.ps",
		"gsnd -o '|/tmp/x' f.ps",
	))
	runExactHosts(t, p, []exactCase{
		{"pdfwrite", "gs -q -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -sOutputFile=out.pdf in.ps", TierMutate},
		{"bar in word", "foo 'a|b'", TierMutate},
		{"bar value", "foo --sep='|' x", TierMutate},
	})
}

// TestBlindSpotRunEnvNames: a variable named by convention for the
// program or library a program runs or loads (SSH_SK_PROVIDER,
// PINENTRY_PROGRAM, CONFIG_SHELL, FOO_HOOK, FOO_HELPER, FOO_VIEWER,
// FOO_EXEC, FOO_PROG), set before a command or exported, is tier 3 as
// FOO_COMMAND and FOO_EDITOR are.
func TestBlindSpotRunEnvNames(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"SSH_SK_PROVIDER=/tmp/x.so ssh-keygen -t ed25519-sk",
		"SSH_SK_PROVIDER=/tmp/x.so ssh-add -K",
		"export SSH_SK_PROVIDER=/tmp/x.so; ssh -i k h",
		"PINENTRY_PROGRAM=/tmp/x gpg -k",
		"CONFIG_SHELL=/tmp/x ./configure",
		"FOO_HOOK=/tmp/x foo",
		"GIT_ANNEX_HELPER=/tmp/x git annex get f",
		"PDF_VIEWER=/tmp/x foo f.pdf",
		"RUNNER_EXEC=/tmp/x foo",
		"DIFF_PROG=/tmp/x foo a b",
		"env SSH_SK_PROVIDER=/tmp/x.so ssh-keygen -t ed25519-sk",
	))
	runExactHosts(t, p, []exactCase{
		{"lang", "LANG=C ls", TierRead},
		{"tz", "TZ=UTC date", TierRead},
		{"frontend", "DEBIAN_FRONTEND=noninteractive apt-get install -y x", TierMutate},
		{"columns", "COLUMNS=200 ps aux", TierRead},
	})
}

// TestBlindSpotClientRunForms: more spellings of a program a client
// runs: mysql's \P (pager) and \T (tee), case-sensitive; rclone's
// backend options and connection-string parameters named *-command
// (--webdav-bearer-token-command, bearer_token_command=); RSH and RMT,
// which dump and restore run for a remote tape; cryptsetup's token
// plugin directory.
func TestBlindSpotClientRunForms(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		`mysql -e '\P /tmp/x'`,
		`mysql -e '\T /etc/x'`,
		`mariadb -e 'select 1; \P /tmp/x'`,
		"rclone lsd r: --webdav-bearer-token-command=/tmp/x",
		"rclone lsd r: --webdav-bearer-token-command '/tmp/x'",
		"rclone lsd ':webdav,bearer_token_command=/tmp/x:'",
		`rclone lsd ":webdav,url='https://h',bearer_token_command='/tmp/x':"`,
		"rclone lsd 'r,bearer_token_command=/tmp/x:'",
		"RSH=/tmp/x dump -0f h:/dev/st0 /",
		"RSH=/tmp/x restore -tf h:/dev/st0",
		"RMT=/tmp/x tar -cf h:/dev/st0 d",
		"export RSH=/tmp/x; dump -0f h:/dev/st0 /",
		"cryptsetup open --external-tokens-path=/tmp /dev/sdb1 x",
		"cryptsetup open --external-tokens-path /tmp /dev/sdb1 x",
		"cryptsetup open --ext=/tmp /dev/sdb1 x",
	),
		blindCase{"mysql P rm", `mysql -e '\P rm -rf /'`, TierDestructive, true},
		blindCase{"rclone token rm", "rclone lsd r: --webdav-bearer-token-command='rm -rf /'", TierDestructive, true},
		blindCase{"rclone server rm", "rclone lsd r: --sftp-server-command='rm -rf /'", TierDestructive, true},
		blindCase{"RSH rm", "RSH='rm -rf /' dump -0f h:/dev/st0 /", TierDestructive, true},
	))
	runExactHosts(t, p, []exactCase{
		{"psql t", `psql -c '\t' -c 'select 1'`, TierMutate},
		{"psql P", `psql -c '\P'`, TierMutate},
		{"mysql select", "mysql -e 'select 1'", TierMutate},
		{"rclone lsd", "rclone lsd r:", TierMutate},
		{"cryptsetup open", "cryptsetup open /dev/sdb1 x", TierMutate},
	})
}

// TestBlindSpotBorgRuns: borg runs commands of its own: with-lock REPO
// CMD, create --content-from-command/--paths-from-command with the
// command after the archive, and export-tar's and import-tar's
// --tar-filter. Each is classified as the command it is.
func TestBlindSpotBorgRuns(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		"borg with-lock r /tmp/x",
		"borg with-lock --lock-wait 5 r /tmp/x",
		"borg --lock-wait=5 with-lock ssh://h/r /tmp/x",
		"borg create --content-from-command r::a -- /tmp/x",
		"borg create --paths-from-command r::a -- /tmp/x",
		"borg create --content-from-command r::a /tmp/x",
		"borg create --stats --content-from-command --stdin-name db.sql r::a -- sh -c '/tmp/x db'",
		"borg create --con r::a -- /tmp/x",
		"borg export-tar --tar-filter=/tmp/x r::a out.tar",
		"borg export-tar --tar-filter /tmp/x r::a out.tar",
		"borg import-tar --tar-filter=/tmp/x r::a in.tar",
		"borg export-tar --tar-f=/tmp/x r::a out.tar",
	),
		blindCase{"with-lock rm", "borg with-lock r rm -rf /", TierDestructive, true},
		blindCase{"with-lock reboot", "borg with-lock r reboot", TierDestructive, true},
		blindCase{"content rm", "borg create --content-from-command r::a -- rm -rf /", TierDestructive, true},
		blindCase{"paths rm", "borg create --paths-from-command r::a -- rm -rf /", TierDestructive, true},
		blindCase{"filter rm", "borg export-tar --tar-filter='rm -rf /' r::a out.tar", TierDestructive, true},
	))
	runExactHosts(t, p, []exactCase{
		{"create", "borg create --stats r::a /srv", TierMutate},
		{"with-lock rsync", "borg with-lock r rsync -a /srv /backup", TierMutate},
		{"content pg_dump", "borg create --content-from-command r::a -- pg_dump db", TierMutate},
		{"list", "borg list r", TierRead},
		{"export-tar", "borg export-tar r::a out.tar", TierMutate},
	})
}

// TestBlindSpotBackupStoredCommands: restic backup --stdin-from-command
// runs its operands, and kopia's policy actions
// (--before-folder-action, --after-snapshot-root-action, …) store a
// command every later snapshot runs: classified as the commands they are.
func TestBlindSpotBackupStoredCommands(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		"restic backup --stdin-from-command -- /tmp/x",
		"restic -r r backup --stdin-from-command /tmp/x",
		"restic -r r backup --stdin-from-command --stdin-filename db.sql -- /tmp/x --all",
		"restic -r sftp:h:/r backup --stdin-from-command -- sh -c '/tmp/x'",
		"kopia policy set --before-folder-action=/tmp/x /srv",
		"kopia policy set --after-folder-action /tmp/x /srv",
		"kopia policy set /srv --after-snapshot-root-action '/tmp/x'",
		"kopia policy set --before-snapshot-root-action=/usr/local/bin/notify /srv",
	),
		blindCase{"restic rm", "restic -r r backup --stdin-from-command -- rm -rf /", TierDestructive, true},
		blindCase{"restic reboot", "restic -r r backup --stdin-filename x --stdin-from-command -- reboot", TierDestructive, true},
		blindCase{"kopia rm", "kopia policy set --before-snapshot-root-action='rm -rf /' /srv", TierDestructive, true},
	))
	runExactHosts(t, p, []exactCase{
		{"restic pg_dump", "restic -r r backup --stdin-from-command --stdin-filename db.sql -- pg_dump db", TierMutate},
		{"restic backup", "restic -r r backup /srv", TierMutate},
		{"kopia snapshot", "kopia snapshot create /srv", TierMutate},
		{"kopia compression", "kopia policy set --compression=zstd /srv", TierMutate},
	})
}

// TestBlindSpotConfigSetPrograms: a CLI's config set that stores a
// program its later runs start (gh/glab editor, pager, browser; a
// kubeconfig user's exec credential plugin; aws credential_process)
// names what runs later: one under a temporary directory or known only
// at run time is tier 3, as npm config set script-shell is.
func TestBlindSpotConfigSetPrograms(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"gh config set editor /tmp/x",
		"gh config set pager /tmp/x",
		"gh config set browser /var/tmp/x",
		"gh config set -h github.com editor /tmp/x",
		"glab config set editor /tmp/x",
		"kubectl config set-credentials u --exec-command=/tmp/x",
		"kubectl config set-credentials u --exec-command /tmp/x --exec-api-version=client.authentication.k8s.io/v1",
		"kubectl config set users.u.exec.command /tmp/x",
		`kubectl config set users.u.exec.command "$P"`,
		"aws configure set credential_process /tmp/x",
		"aws configure set profile.p.credential_process '/tmp/x --a'",
		"aws --profile p configure set credential_process /tmp/x",
	))
	runExactHosts(t, p, []exactCase{
		{"gh protocol", "gh config set git_protocol ssh", TierMutate},
		{"gh vim", "gh config set editor vim", TierMutate},
		{"kubectl gke plugin", "kubectl config set-credentials u --exec-command=gke-gcloud-auth-plugin", TierMutate},
		{"kubectl context", "kubectl config set-context c --user=u", TierMutate},
		{"aws region", "aws configure set region us-east-1", TierMutate},
		{"aws vault", "aws configure set credential_process 'aws-vault export p'", TierMutate},
	})
}

// TestBlindSpotMountHelperPrograms: mount -t fuse.sshfs (or fuse with
// 'sshfs#h:') hands its -o options to the FUSE helper, and mount.fuse,
// mount.fuse3 and mount.fuse.TYPE are that helper: an ssh_command (or
// ProxyCommand, extpass …) among them runs a program, as sshfs -o does.
func TestBlindSpotMountHelperPrograms(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"mount -t fuse.sshfs -o ssh_command=/tmp/x h: /mnt",
		"mount -t fuse.sshfs h: /mnt -o ssh_command='rm -rf /'",
		"mount -t fuse 'sshfs#h:' /mnt -o ssh_command=/tmp/x",
		"mount -o ssh_command=/tmp/x -t fuse.sshfs h: /mnt",
		"mount --options=reconnect,ssh_command=/tmp/x -t fuse.sshfs h: /mnt",
		"mount -oreconnect,ssh_command=/tmp/x -t fuse.sshfs h: /mnt",
		"mount -t fuse.sshfs -o ProxyCommand=/tmp/x h: /mnt",
		"mount -t fuse.gocryptfs -o extpass=/tmp/x /c /mnt",
		`mount -o "$O" -t fuse.sshfs h: /mnt`,
		"mount.fuse 'sshfs#h:' /mnt -o ssh_command=/tmp/x",
		"mount.fuse3 'sshfs#h:' /mnt -o ssh_command=/tmp/x",
		"mount.fuse.sshfs h: /mnt -o ssh_command=/tmp/x",
	))
	runExactHosts(t, p, []exactCase{
		{"helper reconnect", "mount.fuse.sshfs h: /mnt -o reconnect", TierMutate},
		{"identity", "mount -t fuse.sshfs -o reconnect,IdentityFile=/root/k h: /mnt", TierMutate},
		{"ro", "mount -o ro,noatime /dev/sdb1 /mnt", TierMutate},
		{"nfs", "mount -t nfs h:/x /mnt", TierMutate},
	})
}

// TestBlindSpotRsyncDaemonExec: an rsync daemon runs the programs its
// configuration's pre-xfer exec and post-xfer exec name, from the file
// --config names or set with --dparam (-M in daemon mode).
func TestBlindSpotRsyncDaemonExec(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		"rsync --daemon --config=/tmp/x",
		"rsync --daemon --config /tmp/x",
		"rsync --daemon -M 'post-xfer exec=/tmp/x'",
		"rsync --daemon -M'pre-xfer exec=/tmp/x'",
		"rsync --daemon --dparam='post-xfer exec=/tmp/x'",
		"rsync --no-detach --daemon --dparam 'pre-xfer exec=/tmp/x'",
	),
		blindCase{"dparam rm", "rsync --daemon --dparam='pre-xfer exec=rm -rf /'", TierDestructive, true},
		blindCase{"M reboot", "rsync --daemon -M 'post-xfer exec=reboot'", TierDestructive, true},
	))
	runExactHosts(t, p, []exactCase{
		{"remote option", "rsync -a -M--fake-super src h:dst", TierMutate},
		{"copy", "rsync -av src h:dst", TierMutate},
	})
}

// TestBlindSpotGpgConfigFiles: gpg's --options FILE and --homedir DIR
// (whose gpg.conf and gpg-agent.conf it reads) can set the photo viewer
// and the agent, dirmngr and pinentry programs: one under a temporary
// directory or known only at run time is tier 3, as GNUPGHOME is.
func TestBlindSpotGpgConfigFiles(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"gpg --options /tmp/x -k",
		"gpg --options=/tmp/x --list-keys",
		"gpg --opt=/tmp/x -k",
		"gpg --homedir /tmp/h -k",
		"gpg --homedir=/dev/shm/h --list-keys",
		`gpg --homedir "$H" -k`,
		"gpg2 --homedir /var/tmp/h --verify f.sig f",
		"gpgsm --options /tmp/x -k",
		"gpg-agent --homedir /tmp/h --daemon",
	))
	runExactHosts(t, p, []exactCase{
		{"root home", "gpg --homedir /root/.gnupg -k", TierMutate},
		{"no options", "gpg --no-options -k", TierMutate},
		{"list", "gpg -k", TierRead},
	})
}

// TestBlindSpotSftpBatchInput: sftp -b - reads its batch from the input,
// whose !cmd lines run local shell commands: classified as ftp's input
// is, so the deny list meets them.
func TestBlindSpotSftpBatchInput(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"here-string rm", "sftp -b - h <<< '!rm -rf /'", TierDestructive, true},
		{"piped reboot", "echo '!reboot' | sftp -b - h", TierDestructive, true},
		{"attached", "echo '!reboot' | sftp -b- h", TierDestructive, true},
		{"second line", "printf 'get f\\n! rm -rf /\\n' | sftp -b - h", TierDestructive, true},
		{"tmp program", "printf 'get f\\n!/tmp/x\\n' | sftp -b - h", TierDestructive, false},
		{"batch file", "sftp -b /tmp/x h", TierDestructive, false},
		{"plain batch", "echo 'get f' | sftp -b - h", TierDestructive, false},
	})
}

// TestBlindSpotHookOptions: hooks and scripts programs run on events:
// certbot's --pre/--post/--deploy/--renew/--manual-*-hook, fio's
// --exec_prerun/--exec_postrun, mosh --client, openvpn's --up, --down,
// --route-up, --client-connect, … scripts; in programs known by name
// only, or not at all, an option named for a script or mail delivery
// agent (--script, fetchmail --mda) or for a command to run.
func TestBlindSpotHookOptions(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		"certbot renew --deploy-hook /tmp/x",
		"certbot renew --deploy-h=/tmp/x",
		"certbot renew --pre-hook=/tmp/x",
		"certbot renew --post-hook '/tmp/x --quiet'",
		"certbot renew --renew-hook=/tmp/x",
		"certbot certonly --manual --manual-auth-hook /tmp/x -d x",
		"certbot certonly --manual --manual-cleanup-hook=/tmp/x -d x",
		"fio --exec_prerun=/tmp/x j.fio",
		"fio --name=x --exec_postrun=/tmp/x",
		"mosh --client=/tmp/x h",
		"openvpn --config c.ovpn --up /tmp/x --script-security 2",
		"openvpn --client-connect /tmp/x --config s.conf",
		"openvpn --config c.ovpn --down=/tmp/x",
		"openvpn --config s.conf --auth-user-pass-verify '/tmp/x' via-file",
		"openvpn --config c.ovpn --route-up /tmp/x",
		"fetchmail --mda /tmp/x",
		"foo --script /tmp/x.lua",
		"atop --run-command=/tmp/x",
		"bmon --exec /tmp/x",
	),
		blindCase{"certbot rm", "certbot renew --post-hook='rm -rf /'", TierDestructive, true},
		blindCase{"fio rm", "fio --name=x --exec_postrun='rm -rf /'", TierDestructive, true},
		blindCase{"openvpn rm", "openvpn --config c.ovpn --route-up='rm -rf /' --script-security 2", TierDestructive, true},
	))
	runExactHosts(t, p, []exactCase{
		{"certbot renew", "certbot renew", TierMutate},
		{"openvpn", "openvpn --config c.ovpn", TierMutate},
		{"script name", "foo --script=build", TierMutate},
		{"show-script", "pgbench --show-script=tpcb-like", TierMutate},
	})
}
