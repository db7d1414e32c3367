package packs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/warden-mcp/warden/internal/sshd"
)

// fakeDSM turns a dropbear + BusyBox server into the repo's NAS test host:
// a Synology DSM box whose programs answer from the outputs in testdata
// (captured here or published, and the few hand-written DSM files in
// testdata/handwritten/dsm-host, as testdata/README.md says). Every fake
// logs its invocation to the returned file, which is how tests show what
// reached the NAS and what never did.
//
// DSM's own paths (/etc/synoinfo.conf, /etc.defaults/VERSION,
// /usr/syno/…, /proc/mdstat, /proc/mounts) are served by cat and ls
// wrappers from the staged files; any other path is BusyBox's.
func fakeDSM(t *testing.T, srv *sshd.Server) string {
	t.Helper()
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	farm := filepath.Join(srv.Dir, "bin")
	logf := filepath.Join(srv.Dir, "calls.log")
	if err := os.WriteFile(logf, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(logf, 0o666); err != nil {
		t.Fatal(err)
	}
	host := filepath.Join(td, "handwritten", "dsm-host")
	// DSM's /bin/sh is bash and its env is coreutils', not BusyBox's,
	// whose applets (cat, ls) would run in-process instead of the fakes.
	for name, from := range map[string]string{"sh": "/bin/bash", "env": "/usr/bin/env"} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Skipf("the NAS test host needs %s: %v", from, err)
		}
		os.Remove(filepath.Join(farm, name))
		if err := os.WriteFile(filepath.Join(farm, name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fake := func(name, body string) {
		p := filepath.Join(farm, name)
		os.Remove(p) // a BusyBox applet link of that name
		s := "#!/usr/bin/busybox sh\necho \"" + name + " $*\" >> " + logf + "\n" + body + "\n"
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fake("cat", `case "$1" in
/proc/mdstat) exec /usr/bin/busybox sed '1{/^#fixture:/d}' `+td+`/qemu-dsm-mdstat-degraded.txt ;;
/proc/mounts) exec /usr/bin/busybox cat `+td+`/proc-mounts-volume1.txt ;;
/etc.defaults/VERSION) exec /usr/bin/busybox cat `+td+`/solidcitizen-smart-dsm-7.3.2-VERSION ;;
/etc/synoinfo.conf|/etc/ddns.conf|/etc.defaults/*|/usr/syno/*) exec /usr/bin/busybox cat "`+host+`$1" ;;
esac
exec /usr/bin/busybox cat "$@"`)
	fake("ls", `case "$1" in
/usr/syno/*) [ -e "`+host+`$1" ] && exec /usr/bin/busybox ls "`+host+`$1" ;;
esac
exec /usr/bin/busybox ls "$@"`)
	// As systemctl is-active: the word, and a non-zero exit when inactive.
	fake("synosystemctl", `case "$1 $2" in
"get-active-status nginx") echo active ;;
"get-enable-status nginx") echo enabled ;;
"get-active-status smbd") echo inactive; exit 3 ;;
"get-enable-status smbd") echo disabled; exit 1 ;;
"get-active-status synorelayd") echo active ;;
"restart "*) exit 0 ;;
*) echo "Unit $2 not found."; exit 4 ;;
esac`)
	// synoupgrade's answer and exit status, and synopkg's list with one
	// package to update, as usethedata/system_utils captured them.
	fake("synoupgrade", `[ "$1" = --check ] && { /usr/bin/busybox cat `+td+`/systemutils-synoupgrade-check.stdout; exit 255; }; exit 1`)
	fake("synopkg", `[ "$1" = checkupdateall ] && exec /usr/bin/busybox cat `+td+`/systemutils-synopkg-checkupdateall.json; exit 1`)
	fake("vgs", `exec /usr/bin/busybox cat `+td+`/lvm-vgs.json`)
	fake("lvs", `exec /usr/bin/busybox cat `+td+`/lvm-lvs.json`)
	fake("btrfs", `case "$1 $2 $3" in
"filesystem show ") exec /usr/bin/busybox cat `+td+`/btrfs-fi-show.txt ;;
"filesystem usage -b") exec /usr/bin/busybox cat `+td+`/btrfs-fi-usage-b.txt ;;
"device stats /volume1") exec /usr/bin/busybox cat `+td+`/btrfs-dev-stats.txt ;;
esac
exit 1`)
	fake("upnpc", `/usr/bin/busybox cat `+td+`/upnpc-l-no-igd.stdout; /usr/bin/busybox cat `+td+`/upnpc-l-no-igd.stderr >&2; exit 1`)
	fake("synodsdefault", "exit 0")
	return logf
}
