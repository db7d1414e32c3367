package policy

import "testing"

// runBothHosts runs cases locally and on an SSH host, where the classifier
// is the only defence: open mode runs tier 2 unasked there.
func runBothHosts(t *testing.T, p *Policy, cases []blindCase, exact []exactCase) {
	t.Helper()
	for _, host := range []string{"", "db1"} {
		for _, tc := range cases {
			got := p.Evaluate(Input{Command: tc.cmd, Host: host})
			if got.Tier < tc.min || got.Denied != tc.deny {
				t.Errorf("host %q: Evaluate(%q) = %s denied=%v (%s); want at least %s denied=%v", host, tc.cmd, got.Tier, got.Denied, got.Reason, tc.min, tc.deny)
			}
		}
		for _, tc := range exact {
			got := p.Evaluate(Input{Command: tc.cmd, Host: host})
			if got.Tier != tc.tier || got.Denied {
				t.Errorf("host %q: Evaluate(%q) = %s denied=%v (%s); want %s", host, tc.cmd, got.Tier, got.Denied, got.Reason, tc.tier)
			}
		}
	}
}

// TestBlindSpotDatabaseDestroy: statements that drop, truncate or empty a
// database are destructive in every client and every way of handing them
// over; ordinary statements stay mutations.
func TestBlindSpotDatabaseDestroy(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, sameCases(TierDestructive, false,
		`mysql -e 'DROP DATABASE prod'`,
		`mysql --execute='drop table users' prod`,
		`mariadb -uroot prod -e "TRUNCATE TABLE orders"`,
		`mysql prod <<< 'DELETE FROM users'`,
		`echo 'alter table t drop column c' | mysql prod`,
		`psql -c 'DROP DATABASE prod'`,
		`sudo -u postgres psql -d prod --command="TRUNCATE users"`,
		`printf 'BEGIN; DELETE FROM users; COMMIT;\n' | psql prod`,
		`psql prod -c "UPDATE users SET admin = false"`,
		`sqlite3 /var/lib/app.db 'DROP TABLE users'`,
		`sqlite3 app.db "delete from sessions"`,
		`dropdb prod`,
		`sudo -u postgres dropuser alice`,
		`mysqladmin -f drop prod`,
		`mariadb-admin shutdown`,
		`redis-cli FLUSHALL`,
		`redis-cli -h cache1 -n 2 flushdb async`,
		`valkey-cli CONFIG SET dir /etc`,
		`echo flushall | redis-cli`,
		`timeout 5 redis-cli shutdown nosave`,
		`redis-cli < cmds.txt`,
		`mongosh --eval 'db.dropDatabase()'`,
		`mongo prod --eval="db.users.drop()"`,
		`clickhouse-client -q 'DROP TABLE events'`,
		`clickhouse-client --query="truncate table events"`,
		`cqlsh -e 'DROP KEYSPACE prod'`,
		`influx -execute 'DROP DATABASE telegraf'`,
		`influx bucket delete -n metrics`,
		`ssh db2 "psql -c 'DROP TABLE users'"`,
	), []exactCase{
		{"mysql select", `mysql -e 'SELECT * FROM users WHERE note = "drop"'`, TierMutate},
		{"psql delete where", `psql -c "DELETE FROM sessions WHERE expires < now()"`, TierMutate},
		{"sqlite update where", `sqlite3 app.db "UPDATE t SET a=1 WHERE id=2"`, TierMutate},
		{"redis get", `redis-cli GET foo`, TierMutate},
		{"redis config get", `redis-cli CONFIG GET maxmemory`, TierMutate},
		{"clickhouse select", `clickhouse-client -q 'SELECT count() FROM system.tables'`, TierMutate},
	})
}
