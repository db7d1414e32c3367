package policy

import "testing"

// TestBlindSpotJoinedPieces: a path the script builds at run time from
// pieces it states is denied like the path itself: the fields read
// splits a line into (with the default IFS, one assigned before read or
// anywhere in the script), the elements "${a[*]}" and "$*" join with
// IFS's first character, elements counted from the end or sliced, and
// the arguments a call of the script's own function gives its body.
func TestBlindSpotJoinedPieces(t *testing.T) {
	p := linkPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		// read splitting a line into several names.
		`read a b <<< "/var/lib warden"; cat $a/$b/token`,
		`read -r a b <<< "/var/lib warden"; cat "$a/$b/token"`,
		`read a b c <<< "/var lib warden"; cat $a/$b/$c/token`,
		`read a b <<< "  /var/lib   warden  "; cat $a/$b/token`,
		`read a b <<< "/var/lib warden token"; cat $a/${b// //}`,
		`IFS=/ read -r a b c <<< "var/lib/warden"; cat /$a/$b/$c/token`,
		`IFS=/ read a b c d <<< "/var/lib/warden"; cat /$b/$c/$d/token`,
		`IFS=: read a b <<< "/var/lib:warden"; cat $a/$b/token`,
		`IFS=, read -r a b <<< "/var/lib , warden"; cat $a/$b/token`,
		`IFS=:; read a b <<< "/var/lib:warden"; cat $a/$b/token`,
		"read a b <<END\n/var/lib warden\nEND\ncat $a/$b/token",
		`read -s a b <<< "/var/lib warden"; cat $a/$b/token`,
		`read -a arr <<< "/var/lib warden"; cat ${arr[0]}/${arr[1]}/token`,
		`read -ra arr <<< "/var/lib warden"; cat "${arr[0]}/${arr[1]}/token"`,
		`IFS=/ read -ra arr <<< "var/lib/warden"; cat /${arr[0]}/${arr[1]}/${arr[2]}/token`,
		`read -a arr <<< "/var/lib warden"; cat ${arr[-2]}/${arr[-1]}/token`,
		// Joins with IFS's first character.
		`x=(var lib warden); IFS=/; cat "/${x[*]}/token"`,
		`IFS=/; x=(var lib warden); cat "/${x[*]}/token"`,
		`x=(var lib warden); IFS=/; y="${x[*]}"; cat /$y/token`,
		`x=(/var/lib warden token); IFS=/; cat "${x[*]}"`,
		`IFS=/x; x=(var lib warden); cat "/${x[*]}/token"`,
		`x=(/var/lib/ warden/ token); IFS=; cat "${x[*]}"`,
		`set -- /var/lib warden; IFS=/; cat "$*/token"`,
		`set -- var lib warden; IFS=/; p="/$*"; cat $p/token`,
		`f() { IFS=/; cat "$*/token"; }; f /var/lib warden`,
		// Elements counted from the end, and slices.
		`x=(/var/lib warden); cat ${x[-2]}/${x[-1]}/token`,
		`x=(a /var/lib warden); cat "${x[-2]}/${x[-1]}/token"`,
		`arr=(/var/lib warden); cat ${arr[@]:0:1}/warden/token`,
		`arr=(x /var/lib); cat "${arr[*]:1}/warden/token"`,
		// Arguments of the script's own functions.
		`f() { cat $1/warden/token; }; f /var/lib`,
		`f() { local d=$1; cat $d/warden/token; }; f /var/lib`,
		`f() { local d; d=$1; cat "$d/warden/token"; }; f /var/lib`,
		`f() { cat "$1/$2/token"; }; f /var/lib warden`,
		`f() { cat "$2/token"; }; f x /var/lib/warden`,
		`function f { cat $1/warden/token; }; f /var/lib`,
		`function f() { cat ${1}/warden/token; }; f "/var/lib"`,
		`f() { g "$1/warden"; }; g() { cat "$1/token"; }; f /var/lib`,
		`x=/var/lib; f() { cat $1/warden/token; }; f $x`,
		`x=/var; f() { cat $1/warden/token; }; f $x/lib`,
		`f() { d=$1/warden; cat $d/token; }; f /var/lib`,
		`f() { cat "$@"; }; f /var/lib/warden/token`,
		`f() { for x in "$@"; do cat $x/warden/token; done; }; f /var/lib`,
	))
	runExactHosts(t, p, []exactCase{
		{"read two names", `read a b <<< "foo bar"; echo "$a $b"`, TierRead},
		{"IFS read", `IFS=: read -r user rest <<< "root:x:0"; echo "$user"`, TierRead},
		{"function arg", `f() { ls -l "$1"; }; f /var/lib`, TierRead},
		{"function two args", `f() { grep -c "$1" "$2"; }; f root /etc/passwd`, TierRead},
		{"last element", `x=(/etc/hosts /etc/passwd); cat "${x[-1]}"`, TierRead},
	})
}
