package policy

import "testing"

// TestBlindSpotRedisOptionValues: redis-cli takes a value after every
// option but its flags (-X TAG, --cursor N, --top N, --keystats-samples
// N), and refuses an option it does not know, so the word after one is
// never the command; -X is not -x.
func TestBlindSpotRedisOptionValues(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"redis-cli -X get set get b",
		"redis-cli -X ping set ping v",
		"redis-cli --cursor get set a b",
		"redis-cli --top get set a b",
		"redis-cli --keystats-samples get del a",
		"redis-cli --some-new-option info set a b",
		"redis-cli -t get expire a 1",
		"valkey-cli -X get set get b",
		"keydb-cli --cursor info incr a",
		"redis-cli -h db1 -X get set get b",
		"sudo redis-cli --cursor get set a b",
		"sh -c 'redis-cli -X get set get b'",
		"redis-cli -X get set get b <<< v",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"redis-cli --top get flushall",
		"redis-cli -X info config set dir /tmp",
	))
	runExactHosts(t, p, []exactCase{
		{"get", "redis-cli GET a", TierRead},
		{"-n get", "redis-cli -n 2 get a", TierRead},
		{"--raw get", "redis-cli --raw get a", TierRead},
		{"-c --no-auth-warning", "redis-cli -c --no-auth-warning -a secret info", TierRead},
		{"--tls", "redis-cli --tls --insecure -p 6380 ping", TierRead},
		{"-3 --json", "redis-cli -3 --json hgetall h", TierRead},
		{"-x", "redis-cli -e --csv dbsize", TierRead},
		{"-u", "redis-cli -u redis://localhost:6379/0 ttl a", TierRead},
		{"config get", "redis-cli config get maxmemory", TierRead},
	})
}
