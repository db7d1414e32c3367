package policy

import "testing"

// TestBlindSpotCodeLoadingConfigs: servers and their configuration checks
// load code their configuration names (nginx load_module and Apache
// LoadModule as root, haproxy lua-load, unbound's python module, inline
// C in VCL, php.ini extensions, slapd and kamailio modules, gunicorn's
// Python configuration, openvpn and wg-quick up scripts, redis
// loadmodule, supervisord programs), so a configuration under a temporary
// directory, relative to one, or known only at run time is tier 3, as a
// build there is; the system's own configuration keeps its tier.
func TestBlindSpotCodeLoadingConfigs(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"nginx -t -c /tmp/nginx.conf", "nginx -c /tmp/x/nginx.conf", "nginx -tc /tmp/n.conf", `nginx -t -c "$c"`,
		"cd /tmp/x && nginx -t -c nginx.conf", "nginx -t -g 'load_module /tmp/x.so;'", `nginx -t -g "$g"`,
		"apachectl -t -f /tmp/x.conf", "httpd -t -f /dev/shm/x.conf", "apache2ctl -t -C 'LoadModule x /tmp/x.so'",
		"haproxy -c -f /tmp/x.cfg", "haproxy -c -f /etc/haproxy/../../tmp/x.cfg", "unbound-checkconf /tmp/x",
		"unbound-checkconf /var/tmp/u.conf", `unbound-checkconf "$f"`, "unbound -c /tmp/u.conf", "varnishd -C -f /tmp/x.vcl",
		"php-fpm -t -y /tmp/x", "php-fpm -t -c /tmp/php.ini", "lighttpd -tt -f /tmp/x", "slapd -T test -f /tmp/x",
		"slaptest -f /tmp/x", "slaptest -F /tmp/slapd.d", "kamailio -c -f /tmp/x", "proftpd -t -c /tmp/x",
		"gunicorn --check-config -c /tmp/x.py app:app", "cd /tmp/x && gunicorn -c conf.py app:app", "uwsgi --ini /tmp/x",
		"openvpn --config /tmp/x.ovpn", "wg-quick up /tmp/wg0.conf", `wg-quick up "$c"`, "redis-server /tmp/x.conf",
		"valkey-server /tmp/x.conf", "mosquitto -c /tmp/x", "supervisord -c /tmp/x -n", "named -c /tmp/named.conf",
		"sudo nginx -t -c /tmp/nginx.conf", "sudo -u www-data gunicorn -c /tmp/x.py app:app",
	))
	runExactHosts(t, p, []exactCase{
		{"nginx -t", "nginx -t", TierRead},
		{"nginx system -c", "nginx -t -c /etc/nginx/nginx.conf", TierMutate},
		{"nginx -g daemon", "nginx -g 'daemon off;' -t", TierMutate},
		{"apachectl -t", "apachectl -t", TierRead},
		{"httpd modules", "httpd -t -D DUMP_MODULES", TierRead},
		{"haproxy system", "haproxy -c -f /etc/haproxy/haproxy.cfg", TierRead},
		{"unbound-checkconf", "unbound-checkconf", TierRead},
		{"unbound-checkconf system", "unbound-checkconf /etc/unbound/unbound.conf", TierRead},
		{"wg-quick by name", "wg-quick up wg0", TierMutate},
		{"wg-quick strip", "wg-quick strip /tmp/wg0.conf", TierRead},
		{"redis system", "redis-server /etc/redis/redis.conf", TierMutate},
		{"gunicorn", "gunicorn app:app", TierMutate},
		{"openvpn system", "openvpn --config /etc/openvpn/client.conf", TierMutate},
	})
}
