package audit

import "testing"

// TestRedactLoginInput: a program whose input carries a login among other
// lines (SQL*Plus and RMAN's CONNECT user/password, psql's \password
// answers, telnet's login prompts) has that input read with its rules
// whether it comes as a here-document, a here-string or an echo or printf
// before a pipe; the rest of the script stays readable.
func TestRedactLoginInput(t *testing.T) {
	checkSpellings(t, []spelling{
		{"sqlplus /nolog <<EOF\nconnect scott/S3cr3tZ@orcl\nselect 1 from dual;\nEOF", []string{"S3cr3tZ"}, []string{"connect scott/", "@orcl\nselect 1 from dual;\nEOF"}},
		{"sqlplus -s /nolog <<'EOF'\nCONNECT scott/S3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"CONNECT scott/"}},
		{"sqlplus -S /nolog <<-EOF\n\tconn system/S3cr3tZ@//db:1521/orcl as sysdba\n\tEOF", []string{"S3cr3tZ"}, []string{"conn system/", "as sysdba"}},
		{"sqlplus /nolog <<< 'connect scott/S3cr3tZ@orcl'", []string{"S3cr3tZ"}, []string{"connect scott/"}},
		{"sqlplus -s /nolog <<< $'whenever sqlerror exit 1\\nconnect scott/S3cr3tZ\\nselect 1 from dual;'", []string{"S3cr3tZ"}, []string{"whenever sqlerror"}},
		{"echo 'connect scott/S3cr3tZ@orcl' | sqlplus /nolog", []string{"S3cr3tZ"}, []string{"connect scott/"}},
		{"printf 'conn scott/S3cr3tZ\\nselect 1 from dual;\\n' | sqlplus -s /nolog", []string{"S3cr3tZ"}, []string{"conn scott/", "select 1 from dual"}},
		{"cat <<EOF | sqlplus -s /nolog\nCONNECT scott/\"S3cr3tZ\"@orcl\nEOF", []string{"S3cr3tZ"}, []string{"CONNECT scott/"}},
		{"sudo -u oracle sqlplus /nolog <<EOF\nconnect scott/S3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"connect scott/"}},
		{"ssh db sqlplus -s /nolog <<EOF\nconnect scott/S3cr3tZ@orcl\nEOF", []string{"S3cr3tZ"}, []string{"connect scott/"}},
		{"sqlplus -s <<EOF\nscott/S3cr3tZ@orcl\nselect 1 from dual;\nEOF", []string{"S3cr3tZ"}, []string{"scott/", "select 1 from dual"}},
		{"rman <<EOF\nconnect target sys/S3cr3tZ@prod\nconnect catalog rc/Xy9pQ2w@rcat\nbackup database;\nEOF", []string{"S3cr3tZ", "Xy9pQ2w"}, []string{"connect target sys/", "connect catalog rc/", "backup database;"}},
		{"rman <<< 'CONNECT AUXILIARY sys/S3cr3tZ@aux'", []string{"S3cr3tZ"}, []string{"CONNECT AUXILIARY sys/"}},
		{"dgmgrl <<EOF\nconnect sys/S3cr3tZ@prim\nshow configuration\nEOF", []string{"S3cr3tZ"}, []string{"show configuration"}},
		{"psql -U postgres <<EOF\n\\password bob\nS3cr3tZ\nS3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"\\password bob"}},
		{"psql <<< $'\\\\password bob\\nS3cr3tZ\\nS3cr3tZ'", []string{"S3cr3tZ"}, []string{"password bob"}},
		{"printf '\\\\password app\\nS3cr3tZ\\nS3cr3tZ\\n' | psql -h db", []string{"S3cr3tZ"}, []string{"password app"}},
		{"sudo -u postgres psql <<'SQL'\n\\password\nS3cr3tZ\nS3cr3tZ\n\\q\nSQL", []string{"S3cr3tZ"}, []string{"\\q\nSQL"}},
		{"telnet h 23 <<EOF\nroot\nS3cr3tZ\nls\nEOF", []string{"S3cr3tZ"}, []string{"root\n", "ls\nEOF"}},
		{"telnet 10.0.0.1 <<< $'admin\\nS3cr3tZ\\nshow run'", []string{"S3cr3tZ"}, []string{"admin\\n", "show run"}},
		{"printf 'admin\\nS3cr3tZ\\nreboot\\n' | telnet sw1", []string{"S3cr3tZ"}, []string{"admin\\n", "reboot"}},
		{"cat <<EOF | telnet sw1\nadmin\nS3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"admin\n"}},
		// Benign: SQL without a login, a protocol session, \password's
		// neighbours.
		{"sqlplus -s / as sysdba <<EOF\nselect a/b from t;\nconnect / as sysdba\n@/tmp/x.sql\nEOF", nil, []string{"select a/b from t;\nconnect / as sysdba\n@/tmp/x.sql"}},
		{"sqlplus -s /nolog <<EOF\nconnect /@wallet_db\nEOF", nil, []string{"connect /@wallet_db"}},
		{"telnet h 80 <<EOF\nGET / HTTP/1.0\nHost: h\n\nEOF", nil, []string{"GET / HTTP/1.0\nHost: h"}},
		{"psql <<EOF\n\\dt\nselect 1;\nEOF", nil, []string{"\\dt\nselect 1;"}},
		{"cat <<EOF\nconnect scott/tiger\nEOF", nil, []string{"connect scott/tiger"}},
	})
}

// TestRedactQuotedSeparators: a ';', '|' or '&' inside a quoted string
// that is no shell's script (printf's text fed to a reader, smbclient's
// own -c commands) does not end the command, so the reader after the
// pipe, or the command's here-string, is still read with its rules; in a
// string a shell runs it still separates commands.
func TestRedactQuotedSeparators(t *testing.T) {
	checkSpellings(t, []spelling{
		{"printf 'conn scott/S3cr3tZ\\nselect 1 from dual;\\n' | sqlplus -s /nolog", []string{"S3cr3tZ"}, []string{"conn scott/", "select 1 from dual;"}},
		{"echo 'set echo off; connect scott/S3cr3tZ' | sqlplus -s /nolog", nil, []string{"set echo off;"}},
		{"printf 'x; y\\nbob:S3cr3tZ\\n' | chpasswd", []string{"S3cr3tZ"}, nil},
		{"echo 'a|b' && echo 'bob:S3cr3tZ' | chpasswd", []string{"S3cr3tZ"}, []string{"echo 'a|b' && echo"}},
		{"smbclient //h/s -U bob -c \"cd x; ls\" <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"-c \"cd x; ls\" <<< "}},
		{"smbclient //h/s -U bob -c 'cd x; get f' <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"-c 'cd x; get f' <<< "}},
		{"smbclient -U bob //h/s -c \"prompt off; mget *\" <<<'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"prompt off; mget *"}},
		{"rpcclient -U bob h -c 'enumdomusers; enumdomgroups' <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"enumdomusers; enumdomgroups"}},
		// A shell's script still separates its commands.
		{"sh -c 'echo hi; echo bob:S3cr3tZ | chpasswd'", []string{"S3cr3tZ"}, []string{"echo hi;"}},
		{"smbclient //h/s -c 'ls'; echo done <<< hi", nil, []string{"echo done <<< hi"}},
		// A lone apostrophe opens no string that hides a separator.
		{"echo it's done; echo bob:S3cr3tZ | chpasswd", []string{"S3cr3tZ"}, []string{"echo it's done;"}},
		{"echo it's done | echo bob:S3cr3tZ | chpasswd", []string{"S3cr3tZ"}, nil},
		{"echo it's done; echo 'bob:S3cr3tZ' | chpasswd", []string{"S3cr3tZ"}, nil},
		{"printf \"it's\\n\"; echo bob:S3cr3tZ | chpasswd", []string{"S3cr3tZ"}, nil},
	})
}
