package audit

import "testing"

// TestRedactPgpassLinesAnywhere: a PostgreSQL password file line
// (host:port:db:user:password) loses its password wherever it is
// written, though the file is not named like a password file; times,
// addresses and port maps keep every field.
func TestRedactPgpassLinesAnywhere(t *testing.T) {
	checkCases(t, []spelling{
		{"db.example.com:5432:app:bob:S3cr3tZ\n", []string{"S3cr3tZ"}, []string{"db.example.com:5432:app:bob:"}},
		{"*:*:*:bob:S3cr3tZ", []string{"S3cr3tZ"}, []string{"*:*:*:bob:"}},
		{"localhost:5432:*:postgres:S3cr3tZ", []string{"S3cr3tZ"}, []string{"localhost:5432:*:postgres:"}},
		{"10.0.0.5:6432:*:app_user:S3cr3tZ\n10.0.0.6:6432:*:app_user:Oth3rPw\n", []string{"S3cr3tZ", "Oth3rPw"}, []string{"10.0.0.6:6432:*:app_user:"}},
		{"# primary\nh:5432:d:u:S3cr3tZ\n", []string{"S3cr3tZ"}, []string{"# primary", "h:5432:d:u:"}},
		{`h:5432:d:u:p\:S3cr3tZ`, []string{"S3cr3tZ"}, []string{"h:5432:d:u:"}},
		{`h\:x:5432:d:u:S3cr3tZ`, []string{"S3cr3tZ"}, []string{"5432:d:u:"}},
		{"echo 'localhost:5432:*:postgres:S3cr3tZ' > /tmp/p; PGPASSFILE=/tmp/p psql", []string{"S3cr3tZ"}, []string{"PGPASSFILE=/tmp/p psql"}},
		{"echo localhost:5432:app:bob:S3cr3tZ >> /srv/app/db.cfg", []string{"S3cr3tZ"}, []string{">> /srv/app/db.cfg"}},
		{`printf '%s\n' "pg1:5432:*:bob:S3cr3tZ" > creds && chmod 600 creds`, []string{"S3cr3tZ"}, []string{"&& chmod 600 creds"}},
		{"cat > /tmp/p <<EOF\npg:5432:shop:bob:S3cr3tZ\nEOF\n", []string{"S3cr3tZ"}, []string{"pg:5432:shop:bob:", "EOF"}},
		{`ssh h "echo '*:*:*:replicator:S3cr3tZ' > /var/lib/postgresql/pw"`, []string{"S3cr3tZ"}, []string{"/var/lib/postgresql/pw"}},
		{`{"content":"db:5432:app:bob:S3cr3tZ"}`, []string{"S3cr3tZ"}, []string{`"content":"db:5432:app:bob:`}},
		// Not pgpass lines: every field stays.
		{"date -d 2024-01-01T10:20:30 && docker run -p 127.0.0.1:8080:80 nginx", nil, []string{"10:20:30", "127.0.0.1:8080:80"}},
		{"ssh -L 127.0.0.1:5432:db.internal:5432 bastion", nil, []string{"127.0.0.1:5432:db.internal:5432"}},
		{"ping6 fe80:0000:0000:0000:0202:b3ff:fe1e:8329", nil, []string{"fe80:0000:0000:0000:0202:b3ff:fe1e:8329"}},
		{"ip addr add 2001:db8:0:1::5/64 dev eth0", nil, []string{"2001:db8:0:1::5/64"}},
		{"ip link set eth0 address 02:42:ac:11:00:02", nil, []string{"02:42:ac:11:00:02"}},
		{"grep bob /etc/passwd # bob:x:1000:1000:Bob:/home/bob:/bin/bash", nil, []string{"bob:x:1000:1000:Bob:/home/bob:/bin/bash"}},
		{"perl -e 'use A::B::C::D'", nil, []string{"A::B::C::D"}},
		{"echo a:b:c:d:e", nil, []string{"a:b:c:d:e"}},
	})
}
