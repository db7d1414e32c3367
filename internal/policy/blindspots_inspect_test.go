package policy

import "testing"

// TestInspectReadForms: the read-only forms of storage, network and
// appliance tools (bridge/tc show, brctl show, exportfs -v, showmount,
// smbstatus, testparm, multipath -ll, iscsiadm listings, conntrack -L,
// OpenWrt's logread, fw4 print and swconfig show, Unraid's mdcmd status,
// sshd -T, TrueNAS's midclt query calls, k3s kubectl/crictl, crictl,
// pip3, nc -z, iw reg get, resolvectl dns with at most a link) are tier 0
// (nc -z tier 1, like a request); every other form stays at least
// tier 2, and host rules still apply.
func TestInspectReadForms(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"bridge link", "bridge link", TierRead},
		{"bridge vlan show", "bridge vlan show", TierRead},
		{"bridge -d link show dev eth0", "bridge -d link show dev eth0", TierRead},
		{"bridge fdb", "bridge fdb", TierRead},
		{"bridge monitor", "bridge monitor", TierRead},
		{"tc qdisc show", "tc qdisc show", TierRead},
		{"tc -s qdisc show dev eth0", "tc -s qdisc show dev eth0", TierRead},
		{"tc class show dev eth0", "tc class show dev eth0", TierRead},
		{"tc filter get dev eth0 parent 1: handle 1", "tc filter get dev eth0 parent 1: handle 1", TierRead},
		{"brctl show", "brctl show", TierRead},
		{"brctl showmacs br0", "brctl showmacs br0", TierRead},
		{"exportfs -v", "exportfs -v", TierRead},
		{"exportfs -s", "exportfs -s", TierRead},
		{"showmount -e localhost", "showmount -e localhost", TierRead},
		{"showmount -a", "showmount -a", TierRead},
		{"smbstatus", "smbstatus", TierRead},
		{"smbstatus -b", "smbstatus -b", TierRead},
		{"testparm -s", "testparm -s", TierRead},
		{"testparm -s /etc/samba/smb.conf", "testparm -s /etc/samba/smb.conf", TierRead},
		{"multipath -ll", "multipath -ll", TierRead},
		{"multipath -l", "multipath -l", TierRead},
		{"multipath -v3 -ll", "multipath -v3 -ll", TierRead},
		{"iscsiadm -m session", "iscsiadm -m session", TierRead},
		{"iscsiadm -m session -P 3", "iscsiadm -m session -P 3", TierRead},
		{"iscsiadm -m node", "iscsiadm -m node", TierRead},
		{"conntrack -L", "conntrack -L", TierRead},
		{"conntrack -L -p tcp --dport 443", "conntrack -L -p tcp --dport 443", TierRead},
		{"conntrack -C", "conntrack -C", TierRead},
		{"conntrack -S", "conntrack -S", TierRead},
		{"logread", "logread", TierRead},
		{"logread -e dnsmasq", "logread -e dnsmasq", TierRead},
		{"logread -f", "logread -f", TierRead},
		{"fw4 print", "fw4 print", TierRead},
		{"fw4 check", "fw4 check", TierRead},
		{"fw4 -q print", "fw4 -q print", TierRead},
		{"swconfig list", "swconfig list", TierRead},
		{"swconfig dev switch0 show", "swconfig dev switch0 show", TierRead},
		{"swconfig dev switch0 port 1 show", "swconfig dev switch0 port 1 show", TierRead},
		{"swconfig dev switch0 get enable_vlan", "swconfig dev switch0 get enable_vlan", TierRead},
		{"mdcmd status", "mdcmd status", TierRead},
		{"sshd -T", "sshd -T", TierRead},
		{"sshd -t", "sshd -t", TierRead},
		{"sshd -T -C user=root", "sshd -T -C user=root", TierRead},
		{"midclt call system.info", "midclt call system.info", TierRead},
		{"midclt call pool.query", "midclt call pool.query", TierRead},
		{"midclt call pool.query '[[\"name\",\"=\",\"tank\"]]'", "midclt call pool.query '[[\"name\",\"=\",\"tank\"]]'", TierRead},
		{"midclt ping", "midclt ping", TierRead},
		{"k3s kubectl get nodes", "k3s kubectl get nodes", TierRead},
		{"k3s crictl ps", "k3s crictl ps", TierRead},
		{"k3s check-config", "k3s check-config", TierRead},
		{"crictl ps", "crictl ps", TierRead},
		{"crictl pods", "crictl pods", TierRead},
		{"pip3 show requests", "pip3 show requests", TierRead},
		{"dpkg-query -W -f='${Package}\\n'", "dpkg-query -W -f='${Package}\\n'", TierRead},
		{"modinfo e1000e", "modinfo e1000e", TierRead},
		{"upower -d", "upower -d", TierRead},
		{"edac-util -v", "edac-util -v", TierRead},
		{"nc -zv 192.168.1.1 22", "nc -zv 192.168.1.1 22", TierBenign},
		{"nc -z -w 2 localhost 5432", "nc -z -w 2 localhost 5432", TierBenign},
		{"nc -zvw2 host 20-25", "nc -zvw2 host 20-25", TierBenign},
		{"iw reg get", "iw reg get", TierRead},
		{"iw phy phy0 reg get", "iw phy phy0 reg get", TierRead},
		{"resolvectl dns", "resolvectl dns", TierRead},
		{"resolvectl dns eth0", "resolvectl dns eth0", TierRead},
	})
	runBlind(t, p, []blindCase{
		{"bridge link set dev eth0 cost 4", "bridge link set dev eth0 cost 4", TierMutate, false},
		{"bridge fdb add 00:11:22:33:44:55 dev eth0", "bridge fdb add 00:11:22:33:44:55 dev eth0", TierMutate, false},
		{"bridge -b /tmp/cmds", "bridge -b /tmp/cmds", TierMutate, false},
		{"bridge vlan del vid 5 dev eth0", "bridge vlan del vid 5 dev eth0", TierMutate, false},
		{"tc qdisc add dev eth0 root netem delay 100ms", "tc qdisc add dev eth0 root netem delay 100ms", TierMutate, false},
		{"tc qdisc del dev eth0 root", "tc qdisc del dev eth0 root", TierMutate, false},
		{"tc -b /tmp/x", "tc -b /tmp/x", TierMutate, false},
		{"tc exec bpf graft m:globals/jmp_map key 0 obj x.o", "tc exec bpf graft m:globals/jmp_map key 0 obj x.o", TierMutate, false},
		{"tc actions flush action gact", "tc actions flush action gact", TierMutate, false},
		{"tc q s", "tc q s", TierMutate, false},
		{"brctl addbr br1", "brctl addbr br1", TierMutate, false},
		{"brctl delif br0 eth0", "brctl delif br0 eth0", TierMutate, false},
		{"exportfs -ra", "exportfs -ra", TierMutate, false},
		{"exportfs -u host:/srv", "exportfs -u host:/srv", TierMutate, false},
		{"exportfs host:/srv", "exportfs host:/srv", TierMutate, false},
		{"showmount -e 169.254.169.254", "showmount -e 169.254.169.254", TierDestructive, true},
		{"smbstatus -l /etc", "smbstatus -l /etc", TierMutate, false},
		{"smbstatus --option='log file=/etc/x'", "smbstatus --option='log file=/etc/x'", TierMutate, false},
		{"testparm -l /etc/x", "testparm -l /etc/x", TierMutate, false},
		{"multipath", "multipath", TierMutate, false},
		{"multipath -F", "multipath -F", TierMutate, false},
		{"multipath -f mpatha", "multipath -f mpatha", TierMutate, false},
		{"iscsiadm -m node -T iqn.x -p 1.2.3.4 --login", "iscsiadm -m node -T iqn.x -p 1.2.3.4 --login", TierMutate, false},
		{"iscsiadm -m node -o delete", "iscsiadm -m node -o delete", TierMutate, false},
		{"iscsiadm -m discovery -t st -p 1.2.3.4", "iscsiadm -m discovery -t st -p 1.2.3.4", TierMutate, false},
		{"iscsiadm -m session -u", "iscsiadm -m session -u", TierMutate, false},
		{"iscsiadm -m fw -l", "iscsiadm -m fw -l", TierMutate, false},
		{"conntrack -D -p tcp", "conntrack -D -p tcp", TierMutate, false},
		{"conntrack -F", "conntrack -F", TierMutate, false},
		{"conntrack -L -z", "conntrack -L -z", TierMutate, false},
		{"conntrack -U -m 1", "conntrack -U -m 1", TierMutate, false},
		{"conntrack -R /tmp/x", "conntrack -R /tmp/x", TierMutate, false},
		{"logread -F /etc/x", "logread -F /etc/x", TierMutate, false},
		{"logread -p /etc/x", "logread -p /etc/x", TierMutate, false},
		{"logread -r 1.2.3.4 514", "logread -r 1.2.3.4 514", TierMutate, false},
		{"fw4 restart", "fw4 restart", TierMutate, false},
		{"fw4 flush", "fw4 flush", TierMutate, false},
		{"swconfig dev switch0 set reset 1", "swconfig dev switch0 set reset 1", TierMutate, false},
		{"swconfig dev switch0 load network", "swconfig dev switch0 load network", TierMutate, false},
		{"mdcmd stop", "mdcmd stop", TierMutate, false},
		{"mdcmd set spindown 1", "mdcmd set spindown 1", TierMutate, false},
		{"sshd -T -E /etc/x", "sshd -T -E /etc/x", TierMutate, false},
		{"sshd", "sshd", TierMutate, false},
		{"sshd -D", "sshd -D", TierMutate, false},
		{"sshd -d", "sshd -d", TierMutate, false},
		{"midclt call system.reboot", "midclt call system.reboot", TierDestructive, true}, // denied like reboot
		{"midclt call pool.dataset.delete tank/x", "midclt call pool.dataset.delete tank/x", TierMutate, false},
		{"midclt call query", "midclt call query", TierMutate, false},
		{"midclt -u ws://x/websocket call system.info", "midclt -u ws://x/websocket call system.info", TierMutate, false},
		{"k3s kubectl delete ns prod", "k3s kubectl delete ns prod", TierDestructive, false},
		{"k3s server", "k3s server", TierMutate, false},
		{"k3s ctr images ls", "k3s ctr images ls", TierMutate, false},
		{"crictl rm x", "crictl rm x", TierMutate, false},
		{"crictl exec -it x sh", "crictl exec -it x sh", TierMutate, false},
		{"crictl rmi --prune", "crictl rmi --prune", TierMutate, false},
		{"pip3 install x", "pip3 install x", TierMutate, false},
		{"pip3 --log /etc/x list", "pip3 --log /etc/x list", TierMutate, false},
		{"nc -zv 169.254.169.254 80", "nc -zv 169.254.169.254 80", TierDestructive, true},
		{"nc -zu 192.168.1.1 53", "nc -zu 192.168.1.1 53", TierMutate, false},
		{"nc -zl 1234", "nc -zl 1234", TierMutate, false},
		{"nc -z -e /bin/sh x 1", "nc -z -e /bin/sh x 1", TierDestructive, false},
		{"nc 192.168.1.1 22", "nc 192.168.1.1 22", TierMutate, false},
		{"iw reg set US", "iw reg set US", TierMutate, false},
		{"resolvectl dns eth0 1.1.1.1", "resolvectl dns eth0 1.1.1.1", TierMutate, false},
		{"resolvectl domain eth0 example.com", "resolvectl domain eth0 example.com", TierMutate, false},
	})
}

// TestSubcommandSpellings: nmcli objects by any prefix (dev, d, con) and
// its global options with the values they take (-t and -p take none, so
// "nmcli -t connection delete" is still the delete), docker compose's own
// options before its subcommand (-f FILE, -p NAME, --env-file), and rpm's
// -i after query mode (-qi is --info) are read as the programs read them;
// compose down -v and rm -v, which remove the project's volumes, are
// tier 3 however the options are spelled.
func TestSubcommandSpellings(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"nmcli dev show", "nmcli dev show", TierRead},
		{"nmcli d show", "nmcli d show", TierRead},
		{"nmcli dev status", "nmcli dev status", TierRead},
		{"nmcli -t -f", "nmcli -t -f NAME,DEVICE con show --active", TierRead},
		{"nmcli -f all", "nmcli -f all dev show eth0", TierRead},
		{"compose -f ps", "docker compose -f /opt/stack/docker-compose.yml ps", TierRead},
		{"compose --file logs", "docker compose --file x.yml logs --tail 50", TierRead},
		{"compose -p --env-file ps", "docker compose -p proj --env-file .env ps", TierRead},
		{"rpm -qi", "rpm -qi openssl", TierRead},
		{"rpm -qip", "rpm -qip foo.rpm", TierRead},
		{"rpm -q -i", "rpm -q -i openssl", TierRead},
	})
	runBlind(t, p, []blindCase{
		{"nmcli -t delete", "nmcli -t connection delete foo", TierDestructive, false},
		{"nmcli --ask delete", "nmcli --ask connection delete foo", TierDestructive, false},
		{"nmcli -p down", "nmcli -p c down foo", TierDestructive, false},
		{"nmcli n off", "nmcli n off", TierDestructive, false},
		{"nmcli g hostname", "nmcli g hostname evil", TierMutate, false},
		{"compose -f config -o", "docker compose -f x.yml config -o /etc/x", TierMutate, false},
		{"compose -f exec", "docker compose -f x.yml exec web sh", TierMutate, false},
		{"compose -f run", "docker compose -f x.yml run web id", TierMutate, false},
		{"compose -f down", "docker compose -f x.yml down", TierMutate, false},
		{"compose down -v", "docker compose down -v", TierDestructive, false},
		{"compose -f down -v", "docker compose -f x.yml down -v", TierDestructive, false},
		{"compose down --volumes", "docker compose down --volumes", TierDestructive, false},
		{"compose rm -fv", "docker compose rm -fv", TierDestructive, false},
		{"podman compose down -v", "podman compose down -v", TierDestructive, false},
		{"rpm -iq", "rpm -iq foo.rpm", TierMutate, false},
		{"rpm -i", "rpm -i foo.rpm", TierMutate, false},
		{"rpm -ivh", "rpm -ivh foo.rpm", TierMutate, false},
		{"rpm -qe", "rpm -qe foo", TierMutate, false},
		{"rpm -qU", "rpm -qU foo.rpm", TierMutate, false},
	})
}

// TestPrintAndListForms: declare -p prints variables (with -p bash ignores
// the other attribute options given with names), nmcli device wifi list
// lists (a rescan is tier 1), arc_summary and arcstat report (arcstat -o
// writes).
func TestPrintAndListForms(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"declare -p PATH", "declare -p PATH", TierRead},
		{"typeset -p", "typeset -p HOME PATH", TierRead},
		{"declare -px", "declare -px PATH", TierRead},
		{"wifi list", "nmcli dev wifi list", TierRead},
		{"wifi list rescan", "nmcli dev wifi list --rescan yes", TierBenign},
		{"arc_summary", "arc_summary", TierRead},
		{"arcstat", "arcstat 1 3", TierRead},
	})
	runBlind(t, p, []blindCase{
		{"declare PATH", "declare PATH", TierDestructive, false},
		{"local PATH", "f() { local PATH; ls; }", TierDestructive, false},
		{"declare -p assignment", "declare -p PATH=/tmp", TierDestructive, false},
		{"wifi connect", "nmcli dev wifi connect x", TierMutate, false},
		{"arcstat -o", "arcstat -o /etc/x 1", TierMutate, false},
	})
}
