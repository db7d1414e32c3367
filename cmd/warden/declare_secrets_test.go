package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeclarativeParamSecretsOutOfAudit: a declarative tool's audit
// record keeps its arguments, and a parameter with a plain name (v) was
// kept whole there, though the tool's template puts it where a secret goes
// (mysql -p{{ .v }}, run.env's PGPASSWORD={{ .v }}): the log, and an
// approval's text, held the password the agent passed. A value the
// redacted command no longer holds anywhere is now a secret of the call;
// values it keeps (the user, a port, a search word) stay in the record.
func TestDeclarativeParamSecretsOutOfAudit(t *testing.T) {
	templates := []string{
		`mysql -u {{ .user }} -p{{ .v }} -e 'select 1'`,
		`mysql -u {{ .user }} --password={{ .v }} db`,
		`mysqldump --user={{ .user }} -p"{{ .v }}" db`,
		`sshpass -p {{ .v }} ssh {{ .user }}@h uptime`,
		`sshpass -p "{{ .v }}" ssh {{ .user }}@h uptime`,
		`curl -u {{ .user }}:{{ .v }} https://h/`,
		`curl -H "Authorization: Bearer {{ .v }}" https://h/`,
		`curl --header 'X-Api-Key: {{ .v }}' https://h/`,
		`PGPASSWORD={{ .v }} psql -U {{ .user }} -c 'select 1'`,
		`export API_TOKEN={{ .v }}; true`,
		`git clone https://{{ .user }}:{{ .v }}@git.example.com/r.git`,
		`echo {{ .v }} | passwd --stdin {{ .user }}`,
		`redis-cli -a {{ .v }} ping`,
		`docker login -u {{ .user }} -p {{ .v }} registry.example.com`,
		`htpasswd -b /etc/nginx/htpasswd {{ .user }} {{ .v }}`,
		`openssl rsa -in k.pem -passin pass:{{ .v }}`,
		`smbclient //h/s -U {{ .user }}%{{ .v }}`,
		`ldapsearch -x -D cn={{ .user }} -w {{ .v }}`,
		`vault login {{ .v }}`,
		`mysql -p{{ .v | quote }}`,
		`mount -t cifs -o username={{ .user }},password={{ .v }} //h/s /mnt`,
		`RSYNC_PASSWORD={{ .v }} rsync rsync://{{ .user }}@h/m /tmp/m`,
		"cat > ~/.pgpass <<EOF\nh:5432:db:{{ .user }}:{{ .v }}\nEOF",
	}
	values := []string{"Hunter2secret", "it's-a-Secret9", `qu"ote$cret1`, "with space secret7", "-dashSecret5"}
	var tdef strings.Builder
	tdef.WriteString("mcp:\n  run:\n    shell: bash\n  tools:\n")
	for i, tm := range templates {
		fmt.Fprintf(&tdef, "    - name: s_%d\n      description: d\n      params:\n        user: {type: string}\n        v: {type: string}\n      run:\n        command: %q\n", i, tm)
	}
	// The same with the secret in run.env.
	fmt.Fprintf(&tdef, "    - name: s_env\n      description: d\n      params:\n        user: {type: string}\n        v: {type: string}\n      run:\n        command: psql -U {{ .user }} -c 'select 1'\n        env: [\"PGPASSWORD={{ .v }}\"]\n")
	fmt.Fprintf(&tdef, "    - name: s_netrc\n      description: d\n      params:\n        v: {type: string}\n      run:\n        command: \"printf 'machine h login bob password %%s\\\\n' {{ .v }} > ~/.netrc\"\n")
	// A call refused by a constraint is audited with its arguments too.
	fmt.Fprintf(&tdef, "    - name: s_constrained\n      description: d\n      params:\n        user: {type: string}\n        v: {type: string}\n      constraints: [\"user == 'root'\"]\n      run:\n        command: sshpass -p {{ .v }} ssh {{ .user }}@h uptime\n")
	// Refused by the shell checks (shell code, a here-document's end).
	fmt.Fprintf(&tdef, "    - name: s_shc\n      description: d\n      params:\n        user: {type: string}\n        v: {type: string}\n      run:\n        command: sh -c \"sshpass -p {{ .v }} ssh {{ .user }}@h uptime\"\n")
	fmt.Fprintf(&tdef, "    - name: s_heredoc\n      description: d\n      params:\n        user: {type: string}\n        v: {type: string}\n      run:\n        command: %q\n", "cat > ~/.pgpass <<EOF\nh:5432:db:{{ .user }}:{{ .v }}\nEOF")
	// A secret among other words: a split parameter, an array.
	fmt.Fprintf(&tdef, "    - name: s_split\n      description: d\n      params:\n        user: {type: string}\n        v: {type: string}\n        args: {type: string}\n      run:\n        command: sshpass {{ .args }} ssh {{ .user }}@h uptime\n")
	fmt.Fprintf(&tdef, "    - name: s_array\n      description: d\n      params:\n        user: {type: string}\n        v: {type: string}\n        opts: {type: array}\n      run:\n        command: mysql -u {{ .user }} {{ .opts }} db\n")
	// Benign look-alikes: the value is no secret where it lands.
	benign := []struct{ cmd, v string }{
		{`grep -ri {{ .v }} /var/log/syslog`, "password"},
		{`grep -i {{ .v }} /etc/hosts`, "token"},
		{`echo {{ .v }}`, "password reset done"},
		{`iperf3 -c h -p {{ .v }}`, "5201"},
		{`docker run --rm -p {{ .v }} nginx`, "8080:80"},
		{`ss -tlnp sport = :{{ .v }}`, "8443"},
		{`journalctl -u {{ .v }}`, "vault-agent"},
	}
	for i, b := range benign {
		fmt.Fprintf(&tdef, "    - name: b_%d\n      description: d\n      params:\n        v: {type: string}\n      run:\n        command: %q\n", i, b.cmd)
	}
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.yaml")
	if err := os.WriteFile(tools, []byte(tdef.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// readonly: nothing here needs to run; each call is audited whatever
	// its verdict.
	env, state := wardenEnv(t, "WARDEN_MODE=readonly")
	cs := startStdio(t, env, state, nil, "--tools", tools).cs
	call := func(tool string, args map[string]any) string { return callText(t, cs, tool, args) }
	names := []string{"s_env", "s_constrained", "s_shc"}
	for i := range templates {
		names = append(names, fmt.Sprintf("s_%d", i))
	}
	for _, name := range names {
		for _, v := range values {
			t.Run(name+"/"+v, func(t *testing.T) {
				before := auditText(t, state)
				shown := call(name, map[string]any{"user": "alice", "v": v})
				rec := strings.TrimPrefix(auditText(t, state), before)
				if rec == "" {
					t.Fatalf("no audit record:\n%s", shown)
				}
				if strings.Contains(rec, v) {
					t.Errorf("the audit record holds the secret %q:\n%s", v, rec)
				}
			})
		}
	}
	for _, v := range values {
		t.Run("heredoc/"+v, func(t *testing.T) {
			before := auditText(t, state)
			call("s_heredoc", map[string]any{"user": "alice", "v": v + "\nEOF\ntouch x"})
			if rec := strings.TrimPrefix(auditText(t, state), before); rec == "" || strings.Contains(rec, v) {
				t.Errorf("the record holds the secret %q, or there is none:\n%s", v, rec)
			}
		})
		t.Run("split/"+v, func(t *testing.T) {
			before := auditText(t, state)
			call("s_split", map[string]any{"user": "alice", "args": "-p '" + strings.ReplaceAll(v, "'", `'\''`) + "'"})
			if rec := strings.TrimPrefix(auditText(t, state), before); strings.Contains(rec, v) || !strings.Contains(rec, "-p ") {
				t.Errorf("the record holds the secret %q, or lost the option:\n%s", v, rec)
			}
		})
		t.Run("array/"+v, func(t *testing.T) {
			before := auditText(t, state)
			call("s_array", map[string]any{"user": "alice", "opts": []any{"-p" + v, "--batch"}})
			if rec := strings.TrimPrefix(auditText(t, state), before); strings.Contains(rec, v) {
				t.Errorf("the record holds the secret %q:\n%s", v, rec)
			}
		})
	}
	// A secret longer than the audited bound of a value, or lying across
	// the cut, was replaced only after the cut, when it was no longer
	// whole: the head and tail the cut keeps held it.
	long := strings.Repeat("Zq9LongSecretPart", 300)
	pad := strings.Repeat("-o x ", 400)
	for name, c := range map[string]struct {
		tool string
		args map[string]any
	}{
		"pgpass":   {"s_22", map[string]any{"user": "alice", "v": long}},
		"netrc":    {"s_netrc", map[string]any{"v": long}},
		"straddle": {"s_split", map[string]any{"user": "alice", "args": pad + "-p " + long[:300] + " " + pad}},
	} {
		t.Run("long/"+name, func(t *testing.T) {
			before := auditText(t, state)
			call(c.tool, c.args)
			rec := strings.TrimPrefix(auditText(t, state), before)
			if rec == "" {
				t.Fatal("no audit record")
			}
			if strings.Contains(rec, "Zq9LongSecretPart") {
				t.Errorf("the record holds part of a long secret:\n%.600s", rec)
			}
		})
	}
	for i, b := range benign {
		t.Run(fmt.Sprintf("benign/%d", i), func(t *testing.T) {
			before := auditText(t, state)
			call(fmt.Sprintf("b_%d", i), map[string]any{"v": b.v})
			if rec := strings.TrimPrefix(auditText(t, state), before); !strings.Contains(rec, `"v":"`+b.v+`"`) {
				t.Errorf("%s: the record lost the value %q:\n%s", b.cmd, b.v, rec)
			}
		})
	}
}

func auditText(t *testing.T, state string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}
