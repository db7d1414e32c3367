package policy

import "testing"

// The classes below were found by replaying the argument-injection
// vectors SonarSource catalogues (github.com/SonarSource/
// argument-injection-vectors at f1e65351, _binaries/*) and the filter
// bypasses of PayloadsAllTheThings' "Command Injection" page (at
// f9fa5141) with /sbin/reboot and warden's own files as their targets.
// The cases are our own spellings of each class.

// TestBlindSpotUnknownPiecesJoined: a word built of several unknown pieces
// with literal text between them (${HOME:0:1}etc${HOME:0:1}warden…) was
// read as one component beginning with a variable's name, so nothing in
// it could name warden's state, and it was a plain read. An unknown piece
// may yield a slash, so the literal text around it may be a whole
// component.
func TestBlindSpotUnknownPiecesJoined(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`cat ${HOME:0:1}etc${HOME:0:1}warden${HOME:0:1}config.yaml`,
		`cat ${PWD::1}etc${PWD::1}warden${PWD::1}config.yaml`,
		`cat ${X}etc${X}warden${X}config.yaml`,
		`cat $(cat /tmp/s)etc$(cat /tmp/s)warden$(cat /tmp/s)config.yaml`,
		"cat `cat /tmp/s`etc`cat /tmp/s`warden`cat /tmp/s`config.yaml",
		`cat ${A}warden${B}`,
		`base64 ${S:0:1}root${S:0:1}.local${S:0:1}state${S:0:1}warden${S:0:1}token`,
		`tail -n1 ${H%root}root${H:0:1}.local${H:0:1}state${H:0:1}warden${H:0:1}audit.jsonl`,
	))
	// Substitutions whose output the classifier computes are resolved.
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`cat $(printf /)etc$(printf /)warden$(printf /)config.yaml`,
		"cat `echo /`etc`echo /`warden`echo /`config.yaml",
	))
	runExactHosts(t, p, tierCases(TierRead,
		`cat ${HOME:0:1}etc${HOME:0:1}hosts`,
		`echo ${a}b${c}`,
		`ls ${DIR}`,
		`cat ${X}etc/hosts`,
		`echo $token`,
	))
}

// TestBlindSpotOptionNamedLaunchers: an unknown program's option whose
// name says its value is a command put before or instead of its own
// (chromium's --gpu-launcher, --renderer-cmd-prefix) ran its value
// unread: open mode would run reboot as a tier 2 call.
func TestBlindSpotOptionNamedLaunchers(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`chromium --gpu-launcher=reboot`,
		`chromium --headless --gpu-launcher reboot`,
		`google-chrome --renderer-cmd-prefix=reboot`,
		`chromium --utility-cmd-prefix='/sbin/poweroff'`,
		`electron-app --GPU-LAUNCHER=halt`,
		`foo --command-prefix=reboot`,
		`foo --launcher=/sbin/reboot`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`foo --prefix=/usr`,
		`foo --exec-prefix=/usr`,
		`foo --launcher=xdg-open`,
	))
}

// TestBlindSpotSingleDashPlaceOptions: Go's flag package, Qt and X
// programs spell long options with one dash (-config, -plugindir,
// -platformpluginpath); an unknown program pointed by one at a temporary
// directory loads code a benign call may have written there.
func TestBlindSpotSingleDashPlaceOptions(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`qt5_app -platformpluginpath /tmp/x`,
		`qtapp -platformpluginpath=/tmp/x`,
		`goapp -config /tmp/x/c.yaml`,
		`goapp -config=/dev/shm/c.yaml`,
		`tool -plugindir /var/tmp/p`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`goapp -config /etc/goapp.yaml`,
		`qt5_app -platformpluginpath /usr/lib/qt/plugins`,
	))
}

// TestBlindSpotPsqlOutputClusters: psql's -o sends its output to a
// command when its value begins with |, and -L writes a log; attached
// (-o'|cmd') or at the end of a cluster of flags (-Ao|cmd) they were not
// read as -o.
func TestBlindSpotPsqlOutputClusters(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`psql -o'|reboot'`,
		`psql -Ao'|reboot'`,
		`psql -qAt -o '|reboot' -c 'select 1'`,
		`psql -Xo '|/sbin/reboot'`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`psql -L/tmp/x`,
		`psql -AL /tmp/x -c 'select 1'`,
		`psql -o /tmp/out -c 'select 1'`,
		`psql -qo/tmp/out`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`psql -At -c 'select 1'`,
		`psql -h db -U app`,
	))
}

// TestBlindSpotRepositoryCodeFiles: a repository's .git/config and hooks
// are code the next git command runs (core.fsmonitor on git status, a
// hook on commit), the operator's own included, as ~/.gitconfig is; a
// write to them, by any program's output option, was an ordinary write.
func TestBlindSpotRepositoryCodeFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`git blame --output=.git/config`,
		`git diff '--output=.git/config'`,
		`git log --output /srv/repo/.git/config`,
		`git diff --output=.git/hooks/post-checkout`,
		`echo '[core] fsmonitor = x' >> .git/config`,
		`cp /tmp/x .git/hooks/pre-commit`,
		`sed -i 's/a/b/' /srv/repo/.git/config`,
		`tee .git/hooks/post-merge < /dev/null`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`git diff --output=/srv/out.diff`,
		`echo x > /srv/repo/.gitignore`,
	))
}

// TestBlindSpotJVMLauncherOptions: the JDK's tools pass -J<option> to the
// JVM that runs them (GTFOArgs' javac -J…): an agent, a native agent or
// a command run on error was not read, so javac, jar or keytool loaded
// /tmp's code as a tier 2 call.
func TestBlindSpotJVMLauncherOptions(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`javac -J-javaagent:/tmp/a.jar x.java`,
		`jar -J-javaagent:/tmp/a.jar tf x.jar`,
		`keytool -J-agentpath:/tmp/a.so -list`,
		`javadoc -J-agentlib:x x`,
		`jconsole -J@/tmp/opts`,
		`scalac -J-Xbootclasspath/a:/tmp/x x.scala`,
		`jps -J-Djava.system.class.loader=X`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`javac -J-XX:OnError=reboot x.java`,
		`keytool -J-XX:OnOutOfMemoryError=/sbin/poweroff -list`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`javac -J-Xmx1g x.java`,
		`javac -J-Dfile.encoding=UTF-8 x.java`,
		`keytool -list -keystore k`,
	))
}

// TestBlindSpotPatchTargets: a patch names the files it writes (GTFOBins'
// git apply --unsafe-paths --directory /). Applied at / or a system
// directory, or with git's unsafe paths, those are the system's files,
// which the classifier cannot see in the patch.
func TestBlindSpotPatchTargets(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`git apply --unsafe-paths --directory / x.patch`,
		`git apply --unsafe-paths x.patch`,
		`patch -d / -p1 < x.patch`,
		`patch -d/ -p1 -i x.patch`,
		`patch --directory=/etc -p1 < x.patch`,
		`patch -p1 -d /root < x.patch`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`git apply x.patch`,
		`patch -p1 < x.patch`,
		`patch -d /srv/repo -p1 < x.patch`,
	))
}

// TestBlindSpotConfigurationAppliers: puppet and chef-apply apply, as
// root, code given on their command line (GTFOBins' puppet apply -e
// 'file { … }'), and puppet resource sets a resource from its words; as
// unknown programs they were tier 2, which open mode runs unasked. Inline
// code is tier 3, an exec resource's command is classified, a file
// resource writes its file; the host's own manifest stays a change.
func TestBlindSpotConfigurationAppliers(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`puppet apply -e 'file { "/etc/cron.d/x": content => "DATA" }'`,
		`puppet apply --execute 'user { "root": ensure => absent }'`,
		`puppet apply --execute='exec { "x": command => "/tmp/x" }'`,
		`chef-apply -e 'file "/etc/cron.d/x"'`,
		`chef-apply --execute 'execute "x"'`,
		`puppet resource file /etc/cron.d/x content=DATA`,
		`puppet resource file /root/.ssh/authorized_keys ensure=file content=k`,
		`puppet resource exec x command=/tmp/x`,
		`puppet resource cron x command=/tmp/x minute=1`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`puppet resource exec x command='/sbin/reboot'`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`puppet apply /etc/puppet/site.pp`,
		`puppet agent -t`,
		`puppet resource file /srv/app/x content=DATA`,
		`puppet resource service nginx ensure=running`,
		`chef-apply /etc/chef/x.rb`,
	))
	runExactHosts(t, p, tierCases(TierRead,
		`puppet resource user root`,
		`puppet facts show`,
		`puppet module list`,
	))
}

// TestBlindSpotSharedLibrariesGiven: GTFOBins' library-load snippets give
// a program a shared library in its own spelling (ffmpeg's -af
// ladspa=file=X.so, sox's ladspa effect) or through a plugin directory
// variable (LADSPA_PATH, LV2_PATH). A library under a temporary directory
// is code a benign call may have written: an unknown program given one
// is tier 3, and so is setting such a variable.
func TestBlindSpotSharedLibrariesGiven(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`ffmpeg -f lavfi -i anullsrc -af ladspa=file=/tmp/lib.so /tmp/tf.wav`,
		`sox in.wav out.wav ladspa /tmp/x/lib.so`,
		`foo /dev/shm/lib.so.1`,
		`foo --module=/var/tmp/m.dylib`,
		`foo x:/tmp/a.so`,
		`cd /tmp && foo ./lib.so`,
		`LADSPA_PATH=/tmp ffmpeg -i x y`,
		`LV2_PATH=/tmp/p ardour`,
		`GTK_PATH=/tmp gedit`,
		`GDK_PIXBUF_MODULE_FILE=/tmp/loaders.cache eog x.png`,
		`FOO_MODULE_FILE=/tmp/m foo`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`ffmpeg -i x -af ladspa=file=/usr/lib/ladspa/amp.so y`,
		`foo /srv/app/lib.so`,
		`foo /tmp/notes.solution`,
	))
}
