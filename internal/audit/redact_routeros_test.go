package audit

import "testing"

// runSpellingCases is checkSpellings with a subtest per spelling, so a
// revert can be counted case by case.
func runSpellingCases(t *testing.T, tests []spelling) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			checkSpellings(t, []spelling{tt})
		})
	}
}

// TestRedactRouterOSCommunities: RouterOS names an SNMP community by its
// string, the agent's password, so name= (cut to any prefix, as RouterOS
// takes it) and the unnamed argument that picks communities by name are
// redacted in the community menu, however the menu is spelled or sent;
// the other arguments and the commands stay.
func TestRedactRouterOSCommunities(t *testing.T) {
	runSpellingCases(t, []spelling{
		{"/snmp community set [find] name=S3cr3tZ", []string{"S3cr3tZ"}, []string{"/snmp community set [find] name="}},
		{"/snmp community add name=S3cr3tZ addresses=10.0.0.0/8", []string{"S3cr3tZ"}, []string{"addresses=10.0.0.0/8", "/snmp community add name="}},
		{"/snmp community set 0 name=S3cr3tZ", []string{"S3cr3tZ"}, []string{"set 0 name="}},
		{"/snmp community set [find default=yes] name=S3cr3tZ", []string{"S3cr3tZ"}, []string{"[find default=yes] name="}},
		{"/snmp/community/add name=S3cr3tZ security=authorized", []string{"S3cr3tZ"}, []string{"/snmp/community/add name=", "security=authorized"}},
		{"/snmp comm set 0 na=S3cr3tZ", []string{"S3cr3tZ"}, []string{"/snmp comm set 0 na="}},
		{"/sn c a n=\"S3 cr3tZ\" addresses=1.2.3.0/24", []string{"cr3tZ"}, []string{"addresses=1.2.3.0/24"}},
		{"/snmp community set OldS3cr3t addresses=0.0.0.0/0", []string{"OldS3cr3t"}, []string{"addresses=0.0.0.0/0"}},
		{"/snmp community set [find name=OldS3cr3t] name=S3cr3tZ", []string{"OldS3cr3t", "S3cr3tZ"}, []string{"[find name="}},
		{"/snmp community set numbers=OldS3cr3t name=S3cr3tZ", []string{"OldS3cr3t", "S3cr3tZ"}, []string{"numbers="}},
		{"/snmp community remove OldS3cr3t", []string{"OldS3cr3t"}, []string{"/snmp community remove"}},
		{"/snmp community print where name=S3cr3tZ", []string{"S3cr3tZ"}, []string{"print where name="}},
		{"/snmp\ncommunity add name=S3cr3tZ", []string{"S3cr3tZ"}, []string{"community add name="}},
		{"ssh admin@r1 '/snmp community set [find] name=S3cr3tZ'", []string{"S3cr3tZ"}, []string{"ssh admin@r1 '/snmp community set [find] name="}},
		{"ssh admin@r1 \"/snmp community add name=S3cr3tZ addresses=10.0.0.0/8\"", []string{"S3cr3tZ"}, []string{"addresses=10.0.0.0/8\""}},
		{"ssh admin@r1 /snmp community add name=S3cr3tZ", []string{"S3cr3tZ"}, []string{"ssh admin@r1 /snmp community add name="}},
		{"/snmp community set 0 name=S3cr3tZ; /ip address print", []string{"S3cr3tZ"}, []string{"; /ip address print"}},
		// A script's loop, a menu given alone before its command (/export
		// writes one command a line, lines continued with \), and a
		// [ find … ] with blanks.
		{"ssh admin@r1 ':foreach c in=[/snmp community find] do={/snmp community set $c name=S3cr3tZ}'", []string{"S3cr3tZ"}, []string{"do={/snmp community set $c name="}},
		{"ssh admin@r1 '/snmp community; set 0 name=S3cr3tZ'", []string{"S3cr3tZ"}, []string{"set 0 name="}},
		{"/snmp community\nset [ find default=yes ] name=S3cr3tZ addresses=10.0.0.0/8\nadd addresses=192.168.0.0/16 name=S3cr3tY \\\n    security=authorized\n/ip address\nadd address=10.0.0.1/24 interface=ether1 comment=name=kept",
			[]string{"S3cr3tZ", "S3cr3tY"}, []string{"[ find default=yes ] name=", "addresses=192.168.0.0/16 name=", "security=authorized", "comment=name=kept"}},
		{"/snmp community set [ find name=OldS3cr3t ] name=S3cr3tZ", []string{"OldS3cr3t", "S3cr3tZ"}, []string{"set [ find name="}},
		{"/snmp community set [find] name=S3cr3tZ\n/ip service set ssh port=22", []string{"S3cr3tZ"}, []string{"/ip service set ssh port=22"}},
		// Stays: numbers and ids, the menu's other commands, and
		// words that only look alike.
		{"/snmp community set *1 addresses=10.0.0.0/8", nil, []string{"/snmp community set *1 addresses=10.0.0.0/8"}},
		{"/snmp community set 0,1 read-access=yes", nil, []string{"/snmp community set 0,1 read-access=yes"}},
		{"/snmp community print detail", nil, []string{"/snmp community print detail"}},
		{"/snmp community export file=snmp-backup", nil, []string{"/snmp community export file=snmp-backup"}},
		{"echo community name=kept", nil, []string{"echo community name=kept"}},
		{"ls /srv/snmp/community name=kept", nil, []string{"ls /srv/snmp/community name=kept"}},
		{"/ppp secret add name=bob password=S3cr3tZ", []string{"S3cr3tZ"}, []string{"add name=bob password="}},
	})
}
