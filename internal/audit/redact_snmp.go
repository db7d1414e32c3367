package audit

// snmpd.conf's directives that name a community or a user's passphrases,
// which are the agent's passwords: written with echo … >> snmpd.conf,
// a here-document or net-snmp-config, they are secret as the -c, -A and
// -X options of the snmp* commands are (snmpLike).

// snmpdDirective returns the secret positionals after the snmpd.conf
// directive w: rocommunity COMMUNITY [SOURCE …], trap2sink HOST
// [COMMUNITY …], com2sec SECNAME SOURCE COMMUNITY, createUser USER
// PROTO AUTHPASS [PROTO PRIVPASS].
func snmpdDirective(w string) (positional, bool) {
	switch w {
	case "rocommunity", "rwcommunity", "rocommunity6", "rwcommunity6", "trapcommunity":
		return positional{index: 0}, true
	case "trapsink", "trap2sink", "informsink":
		return positional{index: 1}, true
	case "com2sec", "com2sec6":
		return positional{index: 2}, true
	case "createUser":
		return positional{index: 2, and: 4}, true
	}
	return positional{}, false
}

// directiveStart reports whether the word at i starts a line of a
// configuration text: at the start of s or of a line, or of a quoted
// string (echo 'rocommunity …'), blanks before it aside. An argument
// (grep rocommunity /etc/snmp/snmpd.conf) does not.
func directiveStart(s string, i int) bool {
	k := i - 1
	for k >= 0 && (s[k] == ' ' || s[k] == '\t') {
		k--
	}
	return k < 0 || s[k] == '\n' || s[k] == '\'' || s[k] == '"'
}
