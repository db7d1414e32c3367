package session

import (
	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/shellword"
)

// shownArgv returns argv as warden shows and keeps it outside the process:
// in Info (the session lists of the console and the admin socket), the
// recording's header and the log line of the start. A session's command
// is typed by the agent like run_command's (session_start's command, as
// sh -c's argument), and the audit record of the start redacts it, so
// these must too: each argument is redacted by itself and with the
// secrets found in the whole command line, which reads an option by the
// program before it (mysql, -pS3cret).
func shownArgv(argv []string) []string {
	sec := audit.Secrets(nil).With(audit.SecretsIn(shellword.Join(argv))...)
	shown := make([]string, len(argv))
	for i, a := range argv {
		shown[i] = sec.Redact(a)
	}
	return shown
}
