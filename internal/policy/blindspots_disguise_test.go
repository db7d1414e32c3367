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
		`redis-cli EVAL "return redis.call('flushall')" 0`,
		`redis-cli fcall wipe 0`,
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
		// GET and CONFIG GET only read (everyday_fleetreads_test.go).
		{"redis get", `redis-cli GET foo`, TierRead},
		{"redis config get", `redis-cli CONFIG GET maxmemory`, TierRead},
		{"redis set", `redis-cli SET foo bar`, TierMutate},
		{"redis config resetstat", `redis-cli CONFIG RESETSTAT`, TierDestructive},
		{"clickhouse select", `clickhouse-client -q 'SELECT count() FROM system.tables'`, TierMutate},
	})
}

// TestBlindSpotCutOff: commands that take away the routes, addresses,
// login daemon, accounts or clock the operator depends on are destructive
// in every spelling, as "ip link set down" and "systemctl stop sshd" are;
// their everyday relatives stay mutations.
func TestBlindSpotCutOff(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, sameCases(TierDestructive, false,
		// routes, addresses, rules, interfaces
		`ip route flush table main`,
		`ip r f all`,
		`ip -4 route del default`,
		`ip route replace default via 192.0.2.99`,
		`ip r change default via 10.9.9.9 dev eth1`,
		`ip -6 route repl ::/0 via fe80::1 dev eth0`,
		`ip r d 0.0.0.0/0`,
		`ip -6 ro delete ::/0`,
		`ip addr flush dev eth0`,
		`ip a fl dev eth0`,
		`sudo ip address flush eth0`,
		`ip rule flush`,
		`ip rule del pref 0`,
		`ip ru del table main`,
		`ip route add blackhole default`,
		`ip r replace unreachable 0.0.0.0/0`,
		`ip link del br0`,
		`ip l d dev bond0`,
		`ip xfrm state flush`,
		`ip route "$x" table main`,
		`ip route fl${x:-} table main`,
		`f() { ip "$@"; }; f route flush table main`,
		`docker rm -$F web`,
		`route del default`,
		`route -n delete default`,
		`route flush`,
		`ifdown eth0`,
		`ifdown -a`,
		`busybox ifdown eth0`,
		`nmcli radio all off`,
		`nmcli r wifi off`,
		// the login daemon through other service managers
		`/etc/init.d/ssh stop`,
		`/etc/init.d/sshd stop`,
		`/etc//init.d/./networking stop`,
		`/etc/rc.d/init.d/sshd stop`,
		`cd /etc/init.d && ./ssh stop`,
		`cd /etc/init.d; sudo ./sshd stop`,
		`/usr/local/etc/rc.d/sshd onestop`,
		`invoke-rc.d ssh stop`,
		`rc-service sshd stop`,
		`sv down sshd`,
		`sv stop /etc/service/sshd`,
		`rcctl stop sshd`,
		`service ssh.service stop`,
		`service tailscaled stop`,
		// accounts
		`usermod -L root`,
		`usermod --lock alice`,
		`usermod -s /sbin/nologin root`,
		`usermod --shell=/bin/false alice`,
		`usermod -e 1 alice`,
		`usermod --expiredate 1970-01-02 root`,
		`usermod -p '!' root`,
		`usermod -G docker alice`,
		`usermod --groups=docker,video alice`,
		`passwd -l alice`,
		`passwd --lock alice`,
		`passwd -dq alice`,
		`chage -E 0 alice`,
		`chage -E0 root`,
		`chage --expiredate 2001-01-01 alice`,
		`gpasswd -d alice sudo`,
		`gpasswd --delete alice wheel`,
		`gpasswd -M bob admin`,
		`groupdel admins`,
		`delgroup admins`,
		`chsh -s /sbin/nologin root`,
		`chsh --shell=/bin/false alice`,
		`echo 'root:x' | chpasswd`,
		`echo 'alice:!' | chpasswd -e`,
		`chpasswd < users.txt`,
		// the clock
		`date -s '2001-01-01'`,
		`date --set='2001-01-01 00:00'`,
		`date 010101012001`,
		`busybox date -s 2001-01-01`,
		`timedatectl set-time '2001-01-01 00:00'`,
		`sudo timedatectl set-time 12:00`,
		`timedatectl -H db2 set-time 12:00`,
		`hwclock --hctosys`,
		`hwclock -s`,
		`hwclock --set --date '2001-01-01'`,
		// the whole host
		`swapoff -a`,
		`sudo swapoff --all`,
		`umount -a`,
		`umount -at nfs`,
		`exportfs -ua`,
		// root's processes, each named: the rest stay theirs
		`pkill -u root nginx`,
		`killall -u root sshd`,
		`pkill -u root -t pts/1`,
	), []exactCase{
		{"route add", `ip route add 10.1.0.0/16 via 10.0.0.1`, TierMutate},
		{"ip link computed iface", `ip link set "$IF" up`, TierMutate},
		{"route del other", `ip route del 10.1.0.0/16`, TierMutate},
		{"route add default", `ip route add default via 10.0.0.1`, TierMutate},
		{"route blackhole other", `ip route add blackhole 198.51.100.0/24`, TierMutate},
		{"rule del other", `ip rule del pref 100`, TierMutate},
		{"route flush cache", `ip route flush cache`, TierMutate},
		{"neigh flush", `ip neigh flush dev eth0`, TierMutate},
		{"addr add", `ip addr add 10.0.0.2/24 dev eth0`, TierMutate},
		{"route(8) add", `route add default gw 10.0.0.1`, TierMutate},
		{"init script restart", `/etc/init.d/nginx restart`, TierMutate},
		{"init script stop other", `/etc/init.d/nginx stop`, TierMutate},
		{"init script ssh restart", `/etc/init.d/ssh restart`, TierMutate},
		{"rc-service other", `rc-service nginx stop`, TierMutate},
		{"sv other", `sv restart nginx`, TierMutate},
		{"usermod group", `usermod -aG video alice`, TierMutate},
		{"usermod group appended long", `usermod --append --groups audio alice`, TierMutate},
		{"usermod shell", `usermod -s /bin/zsh alice`, TierMutate},
		{"usermod unexpire", `usermod -e '' alice`, TierMutate},
		{"chage max", `chage -M 90 alice`, TierMutate},
		{"chage no expiry", `chage -E -1 alice`, TierMutate},
		{"gpasswd add", `gpasswd -a alice video`, TierMutate},
		{"gpasswd delete other", `gpasswd -d alice docker`, TierMutate},
		{"passwd", `passwd alice`, TierMutate},
		{"chsh", `chsh -s /bin/zsh alice`, TierMutate},
		{"chpasswd user", `echo 'alice:s3cret' | chpasswd`, TierMutate},
		{"hwclock systohc", `hwclock --systohc`, TierMutate},
		{"timezone", `timedatectl set-timezone UTC`, TierMutate},
		{"swapoff one", `swapoff /swapfile`, TierMutate},
		{"umount one", `umount /mnt/usb`, TierMutate},
		{"pkill user", `pkill -u alice`, TierMutate},
		{"date read", `date -d yesterday +%F`, TierRead},
	})
}

// TestBlindSpotWorkloadsAndBulkRemoval: taking a workload to nothing, a
// forced removal spelled as a flag cluster, and rm run once per file found
// or read are destructive like kubectl delete, docker rm -f and find
// -delete.
func TestBlindSpotWorkloadsAndBulkRemoval(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, sameCases(TierDestructive, false,
		`kubectl scale deploy web --replicas=0`,
		`kubectl -n prod scale --replicas 0 deploy/web`,
		`kubectl scale sts/db --replicas=00`,
		`kubectl apply --prune -f . -l app=web`,
		`kubectl apply -f dir/ --prune --all`,
		`kubectl taint nodes node1 key=v:NoExecute`,
		`docker rm -fv web`,
		`docker container rm -vf web`,
		`podman rm -af`,
		`docker rmi -f nginx`,
		`crictl rm -f abc`,
		`crictl rmp --force abc`,
		`find /srv -name '*.log' -execdir rm -- {} \;`,
		`find . -exec /bin/rm {} +`,
		`find /srv -mtime +30 -print0 | xargs -0 rm`,
		`ls | xargs rm`,
	), []exactCase{
		{"scale up", `kubectl scale deploy web --replicas=3`, TierMutate},
		{"apply", `kubectl apply -f x.yaml`, TierMutate},
		{"taint noschedule", `kubectl taint nodes node1 key=v:NoSchedule`, TierMutate},
		{"docker rm", `docker rm web`, TierMutate},
		{"docker stop", `docker stop web`, TierMutate},
		{"find exec grep", `find /srv -name '*.conf' -exec grep -l x {} +`, TierRead},
		{"xargs grep", `find . -name '*.go' | xargs grep -l TODO`, TierRead},
		{"xargs rm known", `echo a.tmp b.tmp | xargs rm`, TierMutate},
	})
}

// TestBlindSpotGitDiscards: git commands that rewrite remote history or
// throw away uncommitted work are destructive however their options are
// spelled — abbreviated, clustered, or set through -c — as git push -f and
// git checkout -- . are.
func TestBlindSpotGitDiscards(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, sameCases(TierDestructive, false,
		`git push --force-w origin main`,
		`git push --force-with origin main`,
		`git push --mir origin`,
		`git push --del origin v1`,
		`git push --forc origin main`,
		`git -c remote.origin.push=+refs/heads/*:refs/heads/* push`,
		`git -c remote.origin.mirror=true push origin`,
		`git branch -df main`,
		`git branch -fd main`,
		`git branch --delete -f main`,
		`git restore --staged --worktree .`,
		`git restore -S -W src`,
		`git restore --worktree --staged --source=HEAD~3 .`,
		`git checkout HEAD .`,
		`git checkout main~2 src/app.go`,
		`git checkout -qf main`,
		`git switch -fq main`,
		`git rm -f notes.txt`,
		`git rm -rf src`,
		`git rm --force -r .`,
		`git worktree remove -f ../wt`,
		`git worktree remove --force ../wt`,
		`git submodule deinit -f --all`,
		`git submodule update --force --recursive`,
	), []exactCase{
		{"push", `git push origin main`, TierMutate},
		{"push tags", `git push --follow-tags origin main`, TierMutate},
		{"branch delete merged", `git branch -d feature`, TierMutate},
		{"branch upstream", `git branch -u origin/main`, TierMutate},
		{"restore staged", `git restore --staged .`, TierMutate},
		{"restore S", `git restore -S src/app.go`, TierMutate},
		{"checkout branch", `git checkout main`, TierMutate},
		{"checkout new branch", `git checkout -b feature origin/main`, TierMutate},
		{"rm cached", `git rm -r --cached .`, TierMutate},
		{"rm", `git rm old.txt`, TierMutate},
		{"worktree remove", `git worktree remove ../wt`, TierMutate},
		{"submodule update", `git submodule update --init --recursive`, TierMutate},
	})
}

// TestBlindSpotLockOut: firewall rules that drop SSH or every packet, the
// removal of what lets SSH in, sshd taken out of the boot sequence, and
// traffic shaping that loses every packet lock the operator out like a
// default-drop policy does.
func TestBlindSpotLockOut(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, sameCases(TierDestructive, false,
		`iptables -I INPUT -j DROP`,
		`iptables -A INPUT -j REJECT`,
		`iptables -t filter -I INPUT 1 -j DROP`,
		`iptables -w -I INPUT -j DROP`,
		`iptables -I INPUT -j $T`,
		`ufw $V 22`,
		`iptables -w 5 -A INPUT -i eth0 -j REJECT --reject-with tcp-reset`,
		`iptables -A INPUT -p tcp --dport 20:30 -j DROP`,
		`firewall-cmd --remove-service ssh`,
		`firewall-cmd --remove-port 22/tcp`,
		`firewall-cmd --direct --add-rule ipv4 filter INPUT 0 -j DROP`,
		`iptables -I INPUT -p tcp --dport 22 -j DROP`,
		`ip6tables -A INPUT -p tcp -m multiport --dports 80,22 -j REJECT`,
		`iptables --insert INPUT --protocol tcp --dport ssh --jump DROP`,
		`nft add rule inet filter input drop`,
		`nft add rule inet filter input counter drop`,
		`nft 'add rule inet filter input tcp dport 22 drop'`,
		`nft add rule inet filter input tcp dport { 80, 22 } reject`,
		`nft add chain inet filter input '{ type filter hook input priority 0; policy drop; }'`,
		`ufw deny ssh`,
		`ufw deny 22/tcp`,
		`ufw reject from any to any port 22`,
		`ufw insert 1 deny 22`,
		`ufw delete allow OpenSSH`,
		`ufw --force enable`,
		`firewall-cmd --remove-port=22/tcp`,
		`firewall-cmd --permanent --set-target=DROP`,
		`firewall-cmd --add-rich-rule='rule service name=ssh reject'`,
		`chkconfig sshd off`,
		`chkconfig --del sshd`,
		`update-rc.d -f ssh remove`,
		`update-rc.d ssh disable`,
		`rc-update del sshd default`,
		`systemctl stop dbus.socket`,
		`systemctl disable --now systemd-networkd.socket`,
		`tc qdisc add dev eth0 root netem loss 100%`,
		`tc qdisc change dev eth0 root netem loss random 50%`,
		`tc filter add dev eth0 parent ffff: u32 match u32 0 0 action drop`,
		`rfkill block all`,
		`ip link set eth0 netns ns1`,
	), []exactCase{
		{"iptables allow ssh", `iptables -A INPUT -p tcp --dport 22 -j ACCEPT`, TierMutate},
		{"iptables drop other port", `iptables -A INPUT -p tcp --dport 23 -j DROP`, TierMutate},
		{"iptables drop source", `iptables -I INPUT -s 203.0.113.7 -j DROP`, TierMutate},
		{"iptables drop computed source", `iptables -I INPUT -s "$IP" -j DROP`, TierMutate},
		{"iptables drop range", `iptables -A INPUT -p tcp --dport 8000:8100 -j DROP`, TierMutate},
		{"iptables drop invalid", `iptables -w -A INPUT -m conntrack --ctstate INVALID -j DROP`, TierMutate},
		{"firewall-cmd direct accept", `firewall-cmd --direct --add-rule ipv4 filter INPUT 0 -p tcp --dport 22 -j ACCEPT`, TierMutate},
		{"nft drop other", `nft add rule inet filter input tcp dport 23 drop`, TierMutate},
		{"nft accept ssh", `nft add rule inet filter input tcp dport 22 accept`, TierMutate},
		{"ufw allow ssh", `ufw allow ssh`, TierMutate},
		{"ufw deny other", `ufw deny 23`, TierMutate},
		{"ufw deny from", `ufw deny from 203.0.113.7`, TierMutate},
		{"firewall-cmd add", `firewall-cmd --add-service=http`, TierMutate},
		{"firewall-cmd remove other", `firewall-cmd --remove-port=8080/tcp`, TierMutate},
		{"chkconfig other", `chkconfig nginx off`, TierMutate},
		{"update-rc.d enable", `update-rc.d ssh enable`, TierMutate},
		{"tc delay", `tc qdisc add dev eth0 root netem delay 100ms`, TierMutate},
		{"rfkill list", `rfkill list`, TierRead},
		{"rfkill unblock", `rfkill unblock wifi`, TierMutate},
	})
}

// TestBlindSpotDisguisedDestroyers: the same destroyers reached through
// compose's exec and run, clustered client options, abbreviated service
// manager actions, storage and cloud clients, and the tools that delete
// logs or volumes or jump the clock.
func TestBlindSpotDisguisedDestroyers(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, sameCases(TierDestructive, false,
		`docker compose exec db psql -c 'DROP TABLE users'`,
		`docker-compose exec -T db mysql -e 'DROP DATABASE prod'`,
		`docker compose -f prod.yml exec -u postgres db dropdb app`,
		`docker compose run --rm app rm -rf /data`,
		`docker compose run --entrypoint 'dropdb prod' app`,
		`docker compose run --entrypoint=dropdb app prod`,
		`crictl rmi --prune`,
		`podman compose exec cache redis-cli flushall`,
		`docker compose exec web sh -c 'rm -rf ./cache'`,
		`mysql -sse 'DROP DATABASE prod'`,
		`mysql -vve 'drop database prod'`,
		`mysql -Bse"truncate table t"`,
		`psql -Atc 'DROP TABLE users'`,
		`psql -qAtc"DELETE FROM users"`,
		`psql -Xqf /tmp/x.sql`,
		`mysql --exec='DROP DATABASE prod'`,
		`mariadb --exe "truncate t"`,
		`psql --comm='DROP TABLE t'`,
		`psql --com 'DROP TABLE t'`,
		`psql --fi=/tmp/x.sql`,
		`clickhouse-client --que 'DROP TABLE t'`,
		`cqlsh --exec 'DROP KEYSPACE k'`,
		`sv d sshd`,
		`sv -w 5 down ssh`,
		`sv x sshd`,
		`s6-svc -d /run/service/sshd`,
		`s6-rc -d change sshd`,
		`launchctl bootout system/com.openssh.sshd`,
		`launchctl unload /System/Library/LaunchDaemons/ssh.plist`,
		`ceph osd purge osd.3 --yes-i-really-mean-it`,
		`ceph osd pool rm p p --yes-i-really-really-mean-it`,
		`rbd rm pool/img`,
		`gluster volume delete gv0`,
		`gluster --mode=script volume stop gv0`,
		`rclone purge remote:bucket`,
		`rclone sync /empty remote:bucket`,
		`etcdctl del --prefix /`,
		`consul kv delete -recurse app/`,
		`vault kv destroy -versions=1 secret/app`,
		`nomad job stop -purge web`,
		`pulumi destroy --yes`,
		`aws s3 rb s3://bucket --force`,
		`aws ec2 terminate-instances --instance-ids i-1`,
		`gcloud compute instances delete vm1 -q`,
		`az vm delete -n vm1 -y`,
		`docker service rm web`,
		`docker stack rm web`,
		`podman pod rm -f web`,
		`journalctl --vacuum-time=1s`,
		`journalctl --vacuum-s=1K`,
		`rsync -a --remove-sent-files x/ y/`,
		`wipe -rf /srv`,
		`srm -r /srv`,
		`chronyc settime 2001-01-01`,
		`pw lock alice`,
		`pw userdel alice`,
		`usermod -r -G sudo alice`,
		`usermod -G '' alice`,
		`lvchange -an vg/lv`,
		`vgchange -a n vg`,
		`lvconvert --merge vg/snap`,
	), []exactCase{
		{"compose exec read", `docker compose exec db psql -c 'SELECT 1'`, TierMutate},
		{"compose ps", `docker compose ps`, TierRead},
		{"mysql select cluster", `mysql -sse 'SELECT 1'`, TierMutate},
		{"psql select cluster", `psql -Atc 'SELECT 1'`, TierMutate},
		{"sv up", `sv up sshd`, TierMutate},
		{"sv down other", `sv down nginx`, TierMutate},
		{"ceph osd out", `ceph osd out 3`, TierMutate},
		{"rclone copy", `rclone copy /srv remote:backup`, TierMutate},
		{"aws s3 ls", `aws s3 ls s3://bucket`, TierMutate},
		{"journalctl rotate", `journalctl --rotate`, TierMutate},
		{"lvchange ay", `lvchange -ay vg/lv`, TierMutate},
		{"usermod append", `usermod -aG video alice`, TierMutate},
	})
}

// TestBlindSpotAPIsAndInput: an HTTP DELETE removes what kubectl delete or
// rm would, and the message brokers' and directories' deleting commands
// are destructive; text sent to a server through openssl s_client can
// change it, as through nc.
func TestBlindSpotAPIsAndInput(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, append(sameCases(TierDestructive, false,
		`curl -X DELETE http://localhost:9200/_all`,
		`curl -sXDELETE localhost:9200/logs-*`,
		`curl --request delete http://localhost:9200/index`,
		`curl --unix-socket /var/run/docker.sock -X DELETE 'http://localhost/containers/web?force=1'`,
		`wget --method=DELETE http://localhost:9200/_all`,
		`wget --method DELETE -qO- http://localhost:9200/_all`,
		`http DELETE localhost:9200/_all`,
		`xh delete localhost:9200/_all`,
		`rabbitmqctl delete_queue q`,
		`rabbitmqctl purge_queue q`,
		`rabbitmqctl force_reset`,
		`kafka-topics.sh --bootstrap-server h:9092 --delete --topic t`,
		`zkCli.sh -server h:2181 deleteall /app`,
		`ldapdelete -x -D cn=admin uid=alice,dc=x`,
		`pg_dropcluster 15 main --stop`,
	), sameCases(TierMutate, false,
		`openssl s_client -connect localhost:6380 <<< FLUSHALL`,
		`printf 'QUIT\r\n' | openssl s_client -quiet -connect mail:465`,
		`cat req.txt | openssl s_client -connect api:443`,
	)...), []exactCase{
		{"curl get", `curl -s http://localhost:9200/_cat/indices`, TierBenign},
		{"curl post", `curl -X POST http://localhost:9200/_refresh`, TierMutate},
		{"s_client probe", `echo | openssl s_client -showcerts -connect localhost:8443`, TierRead},
		{"s_client devnull", `openssl s_client -connect example.com:443 </dev/null`, TierRead},
		{"rabbitmq list", `rabbitmqctl list_queues`, TierMutate},
	})
}

// TestBlindSpotSystemPrograms: replacing, moving away or disabling a
// system program or library, creating the nologin file, and mounting over
// or read-only remounting a system directory break the host or its logins
// as writing /etc/passwd does; /usr/local and ordinary mounts stay tier 2.
func TestBlindSpotSystemPrograms(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, sameCases(TierDestructive, false,
		`cp x /usr/sbin/sshd`,
		`cp -f /tmp/ls /bin/ls`,
		`install -m755 x /usr/bin/sudo`,
		`install x /usr/lib/x86_64-linux-gnu/`,
		`mv x /usr/sbin/sshd`,
		`mv /usr/bin/sudo /tmp/`,
		`mv /bin/bash /root/`,
		`tee /usr/bin/ls < x`,
		`dd if=x of=/lib/x86_64-linux-gnu/libc.so.6`,
		`cat x > /usr/libexec/sudo/sudoers.so`,
		`ln -sf /bin/false /usr/sbin/sshd`,
		`ln -sf /tmp/x.so /lib/x86_64-linux-gnu/libc.so.6`,
		`ln -s -t /usr/bin /tmp/sudo`,
		`chmod -x /usr/bin/sudo`,
		`chmod 000 /usr/bin/ssh`,
		`chown nobody /usr/bin/sudo`,
		`touch /etc/nologin`,
		`echo maintenance > /run/nologin`,
		`mount -o remount,ro /`,
		`mount -o ro,remount /var`,
		`mount --bind /tmp /etc`,
		`mount -t tmpfs none /home`,
	), []exactCase{
		{"usr local install", `install -m755 tool /usr/local/bin/tool`, TierMutate},
		{"usr local link", `ln -s /usr/bin/python3 /usr/local/bin/python`, TierMutate},
		{"nginx site link", `ln -sf /etc/nginx/sites-available/x /etc/nginx/sites-enabled/`, TierMutate},
		{"copy from usr bin", `cp /usr/bin/ls /tmp/`, TierMutate},
		{"chmod local", `chmod +x /usr/local/bin/tool`, TierMutate},
		{"mount mnt", `mount /dev/sdb1 /mnt`, TierMutate},
		{"remount rw", `mount -o remount,rw /`, TierMutate},
		{"bind srv", `mount --bind /srv/a /srv/b`, TierMutate},
	})
}

// TestBlindSpotKillEveryRootProcess: pkill or killall given root's
// processes or init's children and no pattern signal every one of them,
// as kill -1 does: init, sshd and every service. They were tier 3; they
// are spellings of kill -1 and denied. A pattern, a terminal or another
// user keeps them to what they name.
func TestBlindSpotKillEveryRootProcess(t *testing.T) {
	p := testPolicy(t)
	runBothHosts(t, p, sameCases(TierDestructive, true,
		`pkill -u root`,
		`pkill -9 -U 0`,
		`pkill --euid=root`,
		`pkill --uid root`,
		`pkill -HUP -u root,alice`,
		`killall -u root`,
		`killall --user root`,
		`killall -s KILL -u root`,
		`pkill -P 1`,
		`pkill --parent=1`,
		`sudo pkill -9 -u root`,
		`sh -c 'pkill -u 0'`,
	), []exactCase{
		{"other user", `pkill -u www-data`, TierMutate},
		{"pgrep", `pgrep -u root`, TierRead},
	})
}
