package policy

import "testing"

// TestComputedOperandVariables: a quoted variable whose every value in the
// script is a literal or glob beginning with a letter, digit or one of
// "/._:%,=" ("for d in /dev/sd?; do smartctl -H "$d"; done") stays one
// operand, like "/var/log/$f". Any other way the script can give it a
// value keeps it computed: a value or glob item that can begin with '-',
// read, printf -v, select, a use before the assignment, an assignment in
// a function, and arithmetic, subscripts or indirection anywhere in the
// script, which can assign any variable a number such as -1.
func TestComputedOperandVariables(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"glob loop", `for d in /dev/sd?; do smartctl -H "$d"; done`, TierRead},
		{"literal loop", `for d in /dev/sda /dev/sdb; do smartctl -a "$d"; done`, TierRead},
		{"braced", `for d in /dev/sda; do smartctl -a "${d}"; done`, TierRead},
		{"with a suffix", `d=/dev/sda; smartctl -H "$d/x"`, TierRead},
		{"with [ -b ]", `for d in /dev/nvme?n1; do [ -b "$d" ] && nvme smart-log "$d"; done`, TierRead},
		{"names", `for i in eth0 eth1; do ethtool -S "$i"; done`, TierRead},
		{"assigned first", "dev=/dev/sda\nsmartctl -x \"$dev\" | head", TierRead},
		{"in a substitution", `for disk in /dev/sd[a-z]; do t=$(smartctl -A "$disk" | awk '{print $10}'); echo "$disk $t"; done`, TierRead},
		// A loop's literal items are its variable's exact values
		// (loops_exact.go): unquoted, one without blanks or glob
		// characters is one word, since no shell takes IFS from the
		// environment and nothing in the script changes it.
		{"unquoted literal loop", `for d in /dev/sda /dev/sdb; do smartctl -H $d; done`, TierRead},
		// A pattern ending in its only one-character wildcard: every
		// field of a name it matches begins with its prefix (oneLastChar).
		{"unquoted glob loop", `for d in /dev/sd?; do smartctl -H $d; done`, TierRead},
	})
	runBlind(t, p, sameCases(TierMutate, false,
		`IFS=/; for d in /dev/sda /dev/sdb; do smartctl -H $d; done`,
		`for d in "/dev/sda -s on"; do smartctl -H $d; done`,
		`for d in /dev/sd*; do smartctl -H $d; done`,
		`for d in /dev/sda -o; do smartctl -H "$d"; done`,
		`for d in /dev/sda *; do smartctl -H "$d"; done`,
		`for d in /dev/sda ~-; do smartctl -H "$d"; done`,
		`for d in /dev/sda $(cat f); do smartctl -H "$d"; done`,
		`for d in /dev/sda; do smartctl -H "$d"; d=$1; done`,
		`for d; do smartctl -H "$d"; done`,
		`smartctl -H "$d"; d=/dev/sda`,
		`d=/dev/sda; read d; smartctl -H "$d"`,
		`d=/dev/sda; printf -v d '%s' -x; smartctl -H "$d"`,
		`d=/dev/sda; select d in -x; do :; done; smartctl -H "$d"`,
		`d=/dev/sda; d+=" -s on"; smartctl -H "$d"`,
		`d=/dev/sda; : ${d:=-x}; smartctl -H "$d"`,
		`f() { local d=-x; }; d=/dev/sda; f; smartctl -H "$d"`,
		`for _ in /dev/sda; do smartctl -H "$_"; done`,
		`d=/dev/sda; (( d = -1 )); smartctl -H "$d"`,
		`d=/dev/sda; let d=-1; smartctl -H "$d"`,
		`d=/dev/sda; echo $(( d = -1 )); smartctl -H "$d"`,
		`d=/dev/sda; echo "$(( d = -1 ))"; smartctl -H "$d"`,
		`d=/dev/sda; x[d=-1]=1; smartctl -H "$d"`,
		`d=/dev/sda; echo ${x[d=-1]}; smartctl -H "$d"`,
		`d=/dev/sda; echo ${s:d=-1}; smartctl -H "$d"`,
		`d=/dev/sda; declare a[d=-1]=x; smartctl -H "$d"`,
		`d=/dev/sda; for ((d=-1;;)); do break; done; smartctl -H "$d"`,
		`d=/dev/sda; [[ d=-1 -eq 0 ]]; smartctl -H "$d"`,
		`d=/dev/sda; [ -v 'a[d=-1]' ]; smartctl -H "$d"`,
		`d=/dev/sda; unset 'a[d=-1]'; smartctl -H "$d"`,
		`d=/dev/sda; command read 'a[d=-1]'; smartctl -H "$d"`,
		`d=/dev/sda; declare -i n; n='d=-1'; smartctl -H "$d"`,
		`d=/dev/sda; eval 'd=-x'; smartctl -H "$d"`,
		`d=/dev/sda; declare -n r=d; smartctl -H "$d"`,
		`d=/dev/sda; trap 'd=-x' DEBUG; smartctl -H "$d"`,
	))
}
