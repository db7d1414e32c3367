package audit

import (
	"strings"
	"testing"
)

// TestRedactBearerNames: a variable or key whose name carries no
// credential word still holds one when it names a web session's id, an
// object store's secret key, a connection string or a one-time code;
// APP_SESSION, APP_SESSION_ID, PHPSESSID, AWS_SK, DB_CONN and MFA_CODE kept
// their values in an assignment, export, env, a JSON key and a cookie.
// A terminal's or desktop's session name, a bare session id, a connection
// count and an exit code stay.
func TestRedactBearerNames(t *testing.T) {
	const pw = "Zq9vTr7mK"
	names := []string{
		"SESSION", "APP_SESSION", "web-session", "WEB_SESSION_ID", "appSessionId", "APPSESSIONID",
		"PHPSESSID", "JSESSIONID", "APP_SESSION_ID", "AWS_SK", "MINIO_SK", "OSS_AK_SK", "DB_CONN",
		"DATABASE_CONNECTION", "db_connstr", "MFA_CODE", "verification_code", "TOTP_CODE", "recoveryCode",
	}
	var cases []detourCase
	for _, n := range names {
		for _, form := range []string{"%n=%s cmd", "export %n='%s'", "env %n=%s cmd", `{"%n": "%s"}`, "docker run -e %n=%s img"} {
			in := strings.NewReplacer("%n", n, "%s", pw).Replace(form)
			cases = append(cases, detourCase{n, in, []string{n}})
		}
	}
	checkSubtests(t, pw, cases)
	for _, in := range []string{
		"DESKTOP_SESSION=ubuntu XDG_SESSION_ID=3 TMUX_SESSION=main cmd",
		"MAX_CONN=100 DB_MAX_CONN=20 HTTP_CONNECTION=keep-alive POOL_CONN=4 cmd",
		"DB_CONN_TIMEOUT=5 SESSION_TIMEOUT=30 ERROR_CODE=5 EXIT_CODE=1 COUNTRY_CODE=de cmd",
		"TASK=build DISK=sda MASK=022 cmd",
		"dbus-send --session --dest=org.x /o org.x.M",
		// A bare session id names a session: warden's own session_id is
		// in every record of a terminal session, and its recording's name.
		`{"session_id": "1c04332be54c8620221898bbd0e0aa06", "data": "ls"}`,
		"SESSION_ID=3 sessionId=4 SESSIONID=5 cmd",
	} {
		t.Run("kept/"+in, func(t *testing.T) {
			if got := Redact(in); got != in {
				t.Errorf("Redact(%q) = %q", in, got)
			}
		})
	}
}
