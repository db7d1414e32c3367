package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotJVMBuildPropertiesNamingCode: the JVM build tools take the
// code they run from system properties as well as from their project:
// maven's core extensions (maven.ext.class.path), its local repository
// (the plugins it runs), the directory whose .mvn holds extensions.xml,
// and its toolchains file (the JDK a plugin runs); gradle's daemon JDK;
// sbt's global base (plugins), boot directory (the launcher) and Ivy home,
// also as sbt's own options. Naming a temporary directory so, or a place
// known only at run time, runs what a tier 1 write put there: tier 3 as
// mvn -f /tmp/x/pom.xml is. The operator's places, and properties that
// name no code, keep the build's tier.
func TestBlindSpotJVMBuildPropertiesNamingCode(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/m2", "/dev/shm/q", "/tmp/x/../y", "$d", "/private/tmp/x"} {
		for _, f := range []string{"mvn -Dmaven.ext.class.path=%s/e.jar -v", "mvn -Dmaven.ext.class.path=%s/e.jar validate",
			"mvn -D maven.repo.local=%s package", "mvn -Dmaven.repo.local=%s dependency:tree", "mvnw -Dmaven.repo.local=%s -q verify",
			"mvn -Dmaven.multiModuleProjectDirectory=%s validate", "mvn -t %s/toolchains.xml compile", "mvn --toolchains %s/t.xml compile",
			"mvn -Djava.home=%s -v", "gradle -Dorg.gradle.java.home=%s help", "gradlew -Dorg.gradle.java.home=%s tasks",
			"gradle -Dgradle.user.home=%s build", "sbt -Dsbt.global.base=%s about", "sbt -Dsbt.boot.directory=%s compile",
			"sbt -Dsbt.ivy.home=%s update", "sbt --sbt-dir %s about", "sbt -sbt-dir %s about", "sbt --ivy %s about",
			"sbt -sbt-boot %s about", "sbt --java-home %s compile", "sudo mvn -Dmaven.repo.local=%s install",
			"timeout 99 sbt -Dsbt.global.base=%s test"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"maven", "mvn -DskipTests package", TierMutate},
		{"operator's repository", "mvn -Dmaven.repo.local=/srv/m2 package", TierMutate},
		{"output property", "mvn -DoutputDirectory=/tmp/out package", TierMutate},
		{"operator's JDK", "gradle -Dorg.gradle.java.home=/usr/lib/jvm/java-17 build", TierMutate},
		{"sbt", "sbt compile", TierMutate},
		{"sbt operator's base", "sbt -Dsbt.global.base=/srv/sbt compile", TierMutate},
		{"sbt memory", "sbt -J-Xmx2G -Dfoo=/tmp/x compile", TierMutate},
	})
}

// TestBlindSpotMavenSettingsFiles: a maven settings file (-s, -gs and
// their long names) sets localRepository, the directory whose plugins
// maven runs, so one under a temporary directory, relative to one, or
// known only at run time is -Dmaven.repo.local=/tmp/m2 again: tier 3.
// The operator's settings keep maven's tier 2.
func TestBlindSpotMavenSettingsFiles(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, f := range []string{"/tmp/x/s.xml", "/var/tmp/s.xml", "/dev/shm/s.xml", "/tmp/x/../s.xml", `"$S"`, "/private/tmp/s.xml"} {
		for _, c := range []string{"mvn -s %s validate", "mvn --settings %s dependency:tree", "mvn -gs %s -v",
			"mvn --global-settings %s package", "mvnw -s %s verify", "./mvnw -gs %s verify", "mvn -q -B -s %s validate",
			"sudo mvn -s %s install", "timeout 60 mvn -s %s validate", "env mvn -gs %s validate"} {
			cmds = append(cmds, strings.ReplaceAll(c, "%s", f))
		}
	}
	cmds = append(cmds, "mvn -s/tmp/x/s.xml validate", "mvn --settings=/tmp/x/s.xml validate", "cd /tmp/x && mvn -s s.xml validate",
		"mvn -s\"$S\" validate")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"operator's settings", "mvn -s /srv/app/settings.xml validate", TierMutate},
		{"user's settings", "mvn -s ~/.m2/settings.xml validate", TierMutate},
		{"global settings", "mvn -gs /etc/maven/settings.xml package", TierMutate},
		{"threads", "mvn -T 4 -Pprod package", TierMutate},
	})
}
