package policy

import (
	"fmt"
	"strings"
)

// The JDK's tools (javac, jar, javadoc, keytool, jcmd, jconsole, scalac's
// and many launchers built the same way) pass -J<option> to the JVM that
// runs them: -J-javaagent:/tmp/a.jar loads an agent, -J-XX:OnError=CMD
// runs a command, -J@FILE reads more options from a file. Whatever the
// program's name, such an option is read as the JVM's.

// jvmShowOpts are JVM options that only size or describe the JVM.
var jvmShowOpts = []string{"-Xmx", "-Xms", "-Xss", "-Xmn", "-XX:MaxRAM", "-XX:InitialRAM", "-XX:MaxMetaspaceSize",
	"-XX:+UseSerialGC", "-XX:+UseG1GC", "-XX:+UseParallelGC", "-XX:ActiveProcessorCount", "-Duser.language",
	"-Duser.country", "-Duser.timezone", "-Dfile.encoding", "-Dsun.jnu.encoding", "-Djava.awt.headless",
	"-Dstdout.encoding", "-Dstderr.encoding", "-version", "-showversion", "-verbose", "-Xshare:"}

// jvmOptions returns tier 3 and why when an argument passes the JVM an
// option that is not only sizing or describing it; the option meets the
// deny rules as java's own would.
func (c *call) jvmOptions() (Tier, string) {
	for _, a := range c.args {
		v := a.val
		if len(v) < 4 || !strings.HasPrefix(v, "-J") || v[2] != '-' && v[2] != '@' {
			continue
		}
		opt := v[2:]
		if a.known && hasAnyPrefix(opt, jvmShowOpts) {
			continue
		}
		argv := []arg{{val: "java", known: true}, {val: opt, known: a.known, glob: a.glob}}
		if why := c.e.deniedAside(c.ctx, opt, func(sub *eval, sctx cctx) { sub.simple(argv, sctx, "") }); why != "" {
			c.e.deny(fmt.Sprintf("%s %s: the JVM it runs in is given %s (%s)", c.name, truncate(v, 64), truncate(opt, 64), why))
			return TierDestructive, "denied: " + why
		}
		c.e.opaque = true
		return TierDestructive, fmt.Sprintf("%s %s: gives the JVM it runs in an option that can load code or run a command", c.name, truncate(v, 64))
	}
	return TierRead, ""
}
