package audit

import "testing"

// TestRedactConnectPositionals: a script's connection call given the
// password as a bare positional (connect('h', 'bob', pw)), by any module
// or language, loses it; the host, the user and calls whose arguments are
// no login (a socket's address, a port, a callback) stay.
func TestRedactConnectPositionals(t *testing.T) {
	checkCases(t, []spelling{
		{`python3 -c "import psycopg2; c = psycopg2.connect('db1', 'bob', 'S3cr3tZ')"`, []string{"S3cr3tZ"}, []string{"psycopg2.connect('db1', 'bob', '"}},
		{`python -c 'import ibm_db; ibm_db.connect("SAMPLE", "bob", "S3cr3tZ", "", "")'`, []string{"S3cr3tZ"}, []string{`ibm_db.connect("SAMPLE", "bob", "`}},
		{`python3 -c "import fdb; fdb.connect(dsn, 'sysdba', 'S3cr3tZ')"`, []string{"S3cr3tZ"}, []string{"fdb.connect(dsn, 'sysdba', '"}},
		{`python3 -c "conn = driver.connect(host, user, 'S3cr3tZ')"`, []string{"S3cr3tZ"}, []string{"driver.connect(host, user, '"}},
		{`python3 -c "import ldap3; ldap3.Connection(srv, 'cn=admin,dc=x', 'S3cr3tZ', auto_bind=True)"`, []string{"S3cr3tZ"}, []string{"ldap3.Connection(srv, 'cn=admin,dc=x', '", "auto_bind=True"}},
		{`python3 -c "import pysftp; pysftp.Connection('h', 'bob', None, 'S3cr3tZ')"`, []string{"S3cr3tZ"}, []string{"pysftp.Connection('h', 'bob', None, '"}},
		{`python3 -c "import redis; r = redis.Redis('h', 6379, 0, 'S3cr3tZ')"`, []string{"S3cr3tZ"}, []string{"redis.Redis('h', 6379, 0, '"}},
		{`python3 -c "import redis; r = redis.StrictRedis('h', 6379, 0, b'S3cr3tZ')"`, []string{"S3cr3tZ"}, []string{"redis.StrictRedis('h', 6379, 0, b'"}},
		{`php -r '$c = odbc_connect("DSN=x", "bob", "S3cr3tZ");'`, []string{"S3cr3tZ"}, []string{`odbc_connect("DSN=x", "bob", "`}},
		{`php -r 'mssql_connect("h", "sa", "S3cr3tZ");'`, []string{"S3cr3tZ"}, []string{`mssql_connect("h", "sa", "`}},
		{`php -r 'db2_pconnect("SAMPLE", "bob", "S3cr3tZ");'`, []string{"S3cr3tZ"}, []string{`db2_pconnect("SAMPLE", "bob", "`}},
		{`php -r '$c = oci_connect("scott", "S3cr3tZ", "//h/XE");'`, []string{"S3cr3tZ"}, []string{`oci_connect("scott", "`, `"//h/XE"`}},
		{`php -r '$l = mysqli_init(); mysqli_real_connect($l, "h", "bob", "S3cr3tZ", "db");'`, []string{"S3cr3tZ"}, []string{`mysqli_real_connect($l, "h", "bob", "`, `"db"`}},
		{`php -r '$m = imap_open("{h:993/imap/ssl}INBOX", "bob", "S3cr3tZ");'`, []string{"S3cr3tZ"}, []string{`"bob", "`}},
		{`ruby -e 'require "mysql"; Mysql.new("h", "bob", "S3cr3tZ")'`, []string{"S3cr3tZ"}, []string{`Mysql.new("h", "bob", "`}},
		{`ruby -e 'm = Mysql.real_connect("h", "bob", "S3cr3tZ", "db")'`, []string{"S3cr3tZ"}, []string{`Mysql.real_connect("h", "bob", "`}},
		{`ruby -e 'require "net/smtp"; Net::SMTP.start("h", 587, "me", "bob", "S3cr3tZ", :plain)'`, []string{"S3cr3tZ"}, []string{`Net::SMTP.start("h", 587, "me", "bob", "`, ":plain"}},
		{`ruby -e 'Net::POP3.start("h", 110, "bob", "S3cr3tZ") { |p| p.mails }'`, []string{"S3cr3tZ"}, []string{`Net::POP3.start("h", 110, "bob", "`}},
		{`node -e "client.bind('cn=admin,dc=example,dc=org', 'S3cr3tZ', cb)"`, []string{"S3cr3tZ"}, []string{"client.bind('cn=admin,dc=example,dc=org', '", "cb)"}},
		{`node -e "c.bind('bob@corp.example', 'S3cr3tZ', (e) => {})"`, []string{"S3cr3tZ"}, []string{"c.bind('bob@corp.example', '"}},
		{`go run x.go # l.Bind("uid=bob,ou=people", "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`l.Bind("uid=bob,ou=people", "`}},
		// No login here: everything stays.
		{`python3 -c "s.connect(('db1', 5432)); s.bind(('0.0.0.0', 8080))"`, nil, []string{"s.connect(('db1', 5432)); s.bind(('0.0.0.0', 8080))"}},
		{`python3 -c "c = psycopg2.connect('dbname=shop user=bob')"`, nil, []string{"psycopg2.connect('dbname=shop user=bob')"}},
		{`python3 -c "r = redis.Redis('h', 6379, 0)"`, nil, []string{"redis.Redis('h', 6379, 0)"}},
		{`php -r 'ssh2_connect("h", 22); ftp_connect("h", 21, 90);'`, nil, []string{`ssh2_connect("h", 22); ftp_connect("h", 21, 90);`}},
		{`node -e "const f = g.bind(this, 'label'); btn.connect('clicked', onClick)"`, nil, []string{"g.bind(this, 'label'); btn.connect('clicked', onClick)"}},
		{`python3 -c "c.connect(host, 22, user, key_filename='k')"`, nil, []string{"c.connect(host, 22, user, key_filename='k')"}},
	})
}
