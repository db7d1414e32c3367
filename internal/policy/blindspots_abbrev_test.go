package policy

import "testing"

// TestBlindSpotAbbreviatedFlags: getopt_long takes any unambiguous prefix
// of a long option, so a flag that makes a read-only program write or
// change state counts in every abbreviation, and with its value attached.
// The read-only forms stay tier 0.
func TestBlindSpotAbbreviatedFlags(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"file --comp", "file --comp -m /tmp/magic", TierMutate, false},
		{"date --se=", "date --se=2020-01-01", TierMutate, false},
		{"dmesg --cl", "dmesg --cl", TierMutate, false},
		{"dmesg --read-c", "dmesg --read-c", TierMutate, false},
		{"dmesg --console-of", "dmesg --console-of", TierMutate, false},
		{"dmesg --console-l=", "dmesg --console-l=1", TierMutate, false},
		{"journalctl --vac=", "journalctl --vac=1M", TierMutate, false},
		{"journalctl --rot", "journalctl --rot", TierMutate, false},
		{"journalctl --fl", "journalctl --fl", TierMutate, false},
		{"journalctl --setup", "journalctl --setup", TierMutate, false},
		{"journalctl --update", "journalctl --update", TierMutate, false},
		{"journalctl --rel", "journalctl --rel", TierMutate, false},
		{"journalctl --cursor-file", "journalctl --cursor-file=/tmp/c -u nginx", TierMutate, false},
		{"journalctl --cursor-f", "journalctl --cursor-f /tmp/c", TierMutate, false},
		{"journalctl --cursor-file device", "journalctl --cursor-file /dev/sda", TierDestructive, true},
		{"sysctl -p attached", "sysctl -p/tmp/x.conf", TierMutate, false},
		{"sysctl -qp", "sysctl -qp /tmp/x.conf", TierMutate, false},
		{"sysctl --lo", "sysctl --lo /tmp/x.conf", TierMutate, false},
		{"hostname --bo", "hostname --bo", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"file", "file /etc/hosts", TierRead},
		{"file -m", "file -m /tmp/magic /etc/hosts", TierRead},
		{"date", "date +%s", TierRead},
		{"date -d", "date --da=yesterday +%F", TierRead},
		{"dmesg", "dmesg -T --level=err", TierRead},
		{"dmesg --color", "dmesg --color=never", TierRead},
		{"journalctl", "journalctl -u nginx --since today --no-pager", TierRead},
		{"journalctl --rev", "journalctl --rev -n 20", TierRead},
		{"journalctl --fo", "journalctl --fo -n 5", TierRead},
		{"sysctl -a", "sysctl -a", TierRead},
		{"sysctl -n", "sysctl -n kernel.hostname", TierRead},
		{"swapon --show", "swapon --show", TierRead},
	})
}

// TestBlindSpotIPVerbOrder: ip link takes set (and add, change, replace,
// delete) before show, so "ip l s" sets; xfrm, mptcp, sr and ioam name a
// part before their verb; xfrm's deleteall, delall, allocspi and
// setdefault change state.
func TestBlindSpotIPVerbOrder(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"ip l s eth0 up", "ip link s eth0 up", "ip -n ns l s x up",
		"ip xfrm state deleteall", "ip xfrm state delall", "ip x s deleteall", "ip xfrm state deletea",
		"ip xfrm state d", "ip xfrm policy setdefault in block",
		"ip xfrm state allocspi src 192.0.2.1 dst 192.0.2.2 proto esp",
		"ip mptcp endpoint a 192.0.2.1", "ip ioam namespace a 1", "ip netns s x 1", "ip mptcp limits s subflow 1",
		"ip sr tunsrc s 2001:db8::1",
	))
	runExact(t, p, []exactCase{
		{"ip l sh", "ip l sh", TierRead},
		{"ip l l", "ip l l", TierRead},
		{"ip r s", "ip r s", TierRead},
		{"ip a s", "ip a s", TierRead},
		{"ip xfrm state s", "ip xfrm state s", TierRead},
		{"ip xfrm state count", "ip xfrm state count", TierRead},
		{"ip mptcp endpoint show", "ip mptcp endpoint show", TierRead},
		{"ip sr tunsrc show", "ip sr tunsrc show", TierRead},
	})
}

// TestWholeLongNamesAreNoAbbreviation: getopt takes a program's own long
// option, spelled whole, as itself even where it is a prefix of a longer
// one; journalctl --cursor=C reads from a cursor (--cursor-file writes
// one) and tar --checkpoint=N prints progress (--checkpoint-action runs a
// program). Abbreviations of the longer name keep its tier.
func TestWholeLongNamesAreNoAbbreviation(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"journalctl --cursor=", "journalctl --cursor='s=0a1b;i=2' -n 20", TierRead},
		{"journalctl --cursor", "journalctl --cursor 's=0a1b;i=2' -u nginx", TierRead},
		{"sudo journalctl --cursor", "sudo journalctl --no-pager --cursor=s=0a", TierRead},
		{"tar --checkpoint=", "tar --checkpoint=1000 -tzf backup.tar.gz", TierRead},
		{"tar --checkpoint", "tar --checkpoint -tf backup.tar", TierRead},
		{"journalctl --cursor-file", "journalctl --cursor-file=/tmp/c", TierMutate},
		{"journalctl --cursor-fi", "journalctl --cursor-fi /tmp/c", TierMutate},
		{"tar --checkpoint-action", "tar --checkpoint-action=exec=/tmp/x -tf a.tar", TierDestructive},
		{"tar --checkpoint-a", "tar --checkpoint-a=exec=/tmp/x -tf a.tar", TierDestructive},
	})
}
