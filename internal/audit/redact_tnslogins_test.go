package audit

import "testing"

// TestRedactTNSDescriptorLogins: an Oracle login whose database is a
// connect descriptor (user/password@(DESCRIPTION=…)) loses its password;
// the descriptor's '=' is no key=value separator before the login as
// userid='s is. Tried for each client, quoted and not, fed as a CONNECT
// line, and over ssh.
func TestRedactTNSDescriptorLogins(t *testing.T) {
	const pw = "Zq9Secret77"
	const desc = "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=db1)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=orcl)))"
	var cases []detourCase
	for _, c := range []detourCase{
		{"quoted", "sqlplus 'scott/" + pw + "@" + desc + "'", []string{"sqlplus 'scott/", "@" + desc}},
		{"quoted", "sqlplus -s \"scott/" + pw + "@" + desc + "\" @run.sql", []string{"@run.sql"}},
		{"part", "sqlplus scott/" + pw + "@'" + desc + "'", []string{"@'" + desc}},
		{"sysdba", "sqlplus 'sys/" + pw + "@\"" + desc + "\"' as sysdba", []string{"as sysdba"}},
		{"tools", "rman target 'sys/" + pw + "@" + desc + "'", []string{"rman target"}},
		{"tools", "expdp 'system/" + pw + "@" + desc + "' directory=d dumpfile=x.dmp", []string{"directory=d"}},
		{"tools", "dgmgrl 'sys/" + pw + "@" + desc + "'", []string{"dgmgrl"}},
		{"userid", "sqlldr userid='scott/" + pw + "@" + desc + "' control=x.ctl", []string{"control=x.ctl"}},
		{"connect", "echo 'connect scott/" + pw + "@" + desc + "' | sqlplus /nolog", []string{"sqlplus /nolog"}},
		{"connect", "sqlplus /nolog <<EOF\nconnect scott/" + pw + "@" + desc + "\nselect 1 from dual;\nEOF", []string{"select 1 from dual;"}},
	} {
		cases = append(cases, c, detourCase{c.class + "/ssh", `ssh h "` + escapeDouble(c.in) + `"`, []string{"ssh h"}})
	}
	cases = append(cases,
		// Kept: a descriptor with no login, and / as sysdba.
		detourCase{"kept", "tnsping '" + desc + "'", []string{desc}},
		detourCase{"kept", "sqlplus / as sysdba", []string{"sqlplus / as sysdba"}},
	)
	checkSubtests(t, pw, cases)
}
