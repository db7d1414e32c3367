#!/bin/bash
# Captures what this VM cannot show itself (it has no NVMe and its kernel no
# md RAID: /proc/mdstat does not exist) inside a QEMU guest that boots
# Debian 12's own kernel and runs Debian 12's own smartctl and mdadm:
#
#   - smartctl -j -H -A -i -- /dev/nvme0 (warden's SMART probe) against
#     QEMU's emulated NVMe controller, healthy and with its
#     smart_critical_warning property set (the controller then reports the
#     warning bits in its SMART / health log, as a failing drive does);
#   - cat /proc/mdstat of Linux md arrays laid out as Synology DSM lays
#     them out on a 5-disk 8-bay box (md0 system and md1 swap: raid1 with
#     0.90 superblocks and a slot per bay, [8/5]; md2: the data pool, raid5
#     over partition 5 of each disk), healthy, degraded (one disk failing:
#     (F) in md0 and md2, removed from md1) and rebuilding (the disk added
#     back, md2 recovering with its progress line), and a plain Linux pair
#     (a raid1 with a bitmap beside a raid5 recovering).
#
# Usage, as root on Debian 12 (amd64), from internal/tools/host:
#
#   testdata/capture/qemu-guest.sh HOSTTESTDATA PACKSTESTDATA
#   (i.e. testdata/capture/qemu-guest.sh testdata ../packs/testdata)
#
# Nothing is installed on the machine. It needs what scripts/test installs
# (busybox-static, smartmontools: the guest runs this machine's
# /usr/sbin/smartctl and busybox; gzip; BusyBox makes the cpio archive),
# and Debian's archive for `apt-get download` (run apt-get update first):
# qemu-system-x86, qemu-system-common and the libraries they need that the
# machine lacks, qemu-system-data and seabios (firmware), fdisk (sfdisk,
# to partition the disk images), mdadm and the kernel package
# linux-image-amd64 depends on are fetched and unpacked under /tmp with
# dpkg -x. A qemu-system-x86_64 already on PATH is used instead of the
# unpacked one. The guest runs under QEMU's TCG (about 15 s a boot).
#
# The guest is an initramfs: BusyBox as /bin/sh, smartctl and mdadm with
# the shared libraries ldd names, the kernel modules they need (from the
# kernel package, loaded with BusyBox modprobe), and an /init that makes
# the state, runs the commands with warden's probe environment (PATH,
# HOME, LANG=C.UTF-8, TERM=dumb) and stdout going to a file, and writes
# the files as a tar archive onto a small raw virtio disk, which the host
# unpacks. So the bytes are the programs' own, not a serial console's.
# Run by hand, not by CI.
set -euo pipefail

usage="usage: $0 HOSTTESTDATA PACKSTESTDATA"
hostout=$(cd "${1:?$usage}" && pwd)
packsout=$(cd "${2:?$usage}" && pwd)
W=$(mktemp -d /tmp/warden-capture.XXXXXX)
# KEEP=1 keeps it (the guests' consoles are $W/console-*.log).
trap '[ -n "${KEEP:-}" ] && echo "kept $W" >&2 || rm -rf -- "$W"' EXIT
cd "$W"

# --- fetch and unpack ---------------------------------------------------
kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
pkgs=(mdadm fdisk "$kpkg" qemu-system-data seabios)
QEMU=$(command -v qemu-system-x86_64 || true)
if [ -z "$QEMU" ]; then
	# qemu-system-x86 and the libraries of its Depends that a machine set
	# up by scripts/test does not have.
	pkgs+=(qemu-system-x86 qemu-system-common libcapstone4 libfdt1 libpmem1 librdmacm1 libibverbs1 libslirp0
		libvdeplug2 liburing2 libfuse3-3 libaio1 libndctl6 libdaxctl1 libnl-3-200 libnl-route-3-200)
fi
mkdir debs root
(cd debs && apt-get download -q "${pkgs[@]}" >/dev/null 2>&1) || (cd debs && apt-get download "${pkgs[@]}")
for d in debs/*.deb; do dpkg -x "$d" root; done
if [ -z "$QEMU" ]; then
	QEMU=$W/root/usr/bin/qemu-system-x86_64
	export LD_LIBRARY_PATH=$W/root/usr/lib/x86_64-linux-gnu:$W/root/lib/x86_64-linux-gnu
	export QEMU_MODULE_DIR=$W/root/usr/lib/x86_64-linux-gnu/qemu # TCG is a module
fi
K=$(ls root/lib/modules)
busybox depmod -b root "$K"
qemu_version=$("$QEMU" --version | head -1)
kernel_deb="$kpkg $(dpkg-deb -f debs/"$kpkg"_*.deb Version)"
mdadm_deb=$(dpkg-deb -f debs/mdadm_*.deb Version)
smart_deb=$(dpkg-query -W -f '${Version}' smartmontools)

# --- the initramfs -------------------------------------------------------
I=$W/initramfs
mkdir -p "$I"/{bin,sbin,proc,sys,dev,run,tmp,out,etc,lib/modules/"$K"}
cp /usr/bin/busybox "$I/bin/busybox"
for a in $(busybox --list); do [ -e "$I/bin/$a" ] || ln -s busybox "$I/bin/$a"; done
cp /usr/sbin/smartctl "$I/sbin/smartctl"
cp root/sbin/mdadm "$I/sbin/mdadm"
for b in /usr/sbin/smartctl root/sbin/mdadm; do
	for l in $(ldd "$b" | grep -o '/[^ ]*'); do
		mkdir -p "$I$(dirname "$l")"
		cp -L "$l" "$I$l"
	done
done
cp root/lib/modules/"$K"/modules.dep root/lib/modules/"$K"/modules.alias "$I/lib/modules/$K/"
for m in nvme virtio_pci virtio_blk crc32c_generic md-mod raid1 raid456; do
	for f in $(grep -E "(^|/)$m\.ko:" root/lib/modules/"$K"/modules.dep | tr -d :); do
		mkdir -p "$I/lib/modules/$K/$(dirname "$f")"
		cp "root/lib/modules/$K/$f" "$I/lib/modules/$K/$f"
	done
done
cat >"$I/init" <<'EOF'
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# crc32c first: raid456 needs libcrc32c, which needs the crc32c algorithm.
for m in nvme virtio_pci virtio_blk crc32c_generic md-mod raid1 raid456; do modprobe $m; done
mode= out=
for a in $(cat /proc/cmdline); do
	case $a in warden.mode=*) mode=${a#*=} ;; warden.out=*) out=${a#*=} ;; esac
done
for _ in $(seq 50); do [ -b /dev/$out ] && break; sleep 0.1; done
sleep 1
# probe runs a command as warden does: its probe environment, stdout to
# OUT.stdout, stderr to OUT.stderr, exit code to OUT.rc.
probe() {
	o=$1; shift
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb "$@" >/out/$o.stdout 2>/out/$o.stderr
	echo $? >/out/$o.rc
}
wait_idle() {
	for _ in $(seq 600); do grep -qE 'resync|recovery' /proc/mdstat || return 0; sleep 0.2; done
}
{
	echo "uname_r=$(uname -r)"
	echo "proc_version=$(cat /proc/version)"
	echo "smartctl=$(smartctl --version | head -1)"
	echo "mdadm=$(mdadm --version 2>&1)"
} >/out/versions
case $mode in
nvme-*)
	probe smartctl smartctl -j -H -A -i -- /dev/nvme0
	;;
dsm)
	# 5 disks in an 8-bay box: md0 (system) and md1 (swap) raid1 with
	# 0.90 superblocks and a slot per bay, md2 (data) raid5 over the
	# disks' partition 5.
	mdadm --create /dev/md0 --run --metadata=0.90 --level=1 --raid-devices=8 \
		/dev/vda1 /dev/vdb1 /dev/vdc1 /dev/vdd1 /dev/vde1 missing missing missing
	mdadm --create /dev/md1 --run --metadata=0.90 --level=1 --raid-devices=8 \
		/dev/vda2 /dev/vdb2 /dev/vdc2 /dev/vdd2 /dev/vde2 missing missing missing
	mdadm --create /dev/md2 --run --metadata=1.2 --level=5 --chunk=64 --raid-devices=5 \
		/dev/vda5 /dev/vdb5 /dev/vdc5 /dev/vdd5 /dev/vde5
	sleep 1
	wait_idle
	probe mdstat-healthy cat /proc/mdstat
	# the third disk fails: its md2 and md0 members are marked faulty,
	# its md1 member failed and removed.
	mdadm /dev/md2 --fail /dev/vdc5
	mdadm /dev/md0 --fail /dev/vdc1
	mdadm /dev/md1 --fail /dev/vdc2 --remove /dev/vdc2
	sleep 1
	probe mdstat-degraded cat /proc/mdstat
	# the disk is replaced: added back to md0 and md1 (they recover at
	# full speed), then to md2, whose recovery is throttled so the
	# capture catches its progress line.
	mdadm /dev/md0 --remove /dev/vdc1
	mdadm /dev/md2 --remove /dev/vdc5
	mdadm --zero-superblock /dev/vdc1 /dev/vdc2 /dev/vdc5
	mdadm /dev/md0 --add /dev/vdc1
	mdadm /dev/md1 --add /dev/vdc2
	sleep 1
	wait_idle
	echo 500 >/proc/sys/dev/raid/speed_limit_min
	echo 1000 >/proc/sys/dev/raid/speed_limit_max
	mdadm /dev/md2 --add /dev/vdc5
	sleep 5
	probe mdstat-rebuilding cat /proc/mdstat
	;;
plain)
	# a Linux server: a raid1 with a bitmap and a raid5 whose third disk
	# was replaced and is recovering.
	mdadm --create /dev/md0 --run --level=1 --bitmap=internal --raid-devices=2 /dev/vda1 /dev/vde1
	mdadm --create /dev/md1 --run --level=5 --raid-devices=3 /dev/vdb1 /dev/vdc1 /dev/vdd1
	sleep 1
	wait_idle
	mdadm /dev/md1 --fail /dev/vdd1 --remove /dev/vdd1
	mdadm --zero-superblock /dev/vdd1
	echo 500 >/proc/sys/dev/raid/speed_limit_min
	echo 1000 >/proc/sys/dev/raid/speed_limit_max
	mdadm /dev/md1 --add /dev/vdd1
	sleep 5
	probe mdstat-plain cat /proc/mdstat
	;;
esac
cat /proc/mdstat >/out/final-mdstat 2>&1
tar cf /dev/$out -C /out .
sync
poweroff -f
EOF
chmod +x "$I/init"
(cd "$I" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >initrd.gz

# --- boots -----------------------------------------------------------------
# TCG, not KVM: on this machine (itself a VM) a KVM guest printed nothing
# and never got to /init.
accel=(-accel tcg -cpu max)
# boot MODE OUTDISK QEMU-DEVICE-ARGS...: runs the guest, unpacks what it
# wrote into $W/MODE.
boot() {
	local mode=$1 out=$2
	shift 2
	truncate -s 4M "out-$mode.img"
	"$QEMU" "${accel[@]}" -m 1024 -smp 2 -nodefaults -display none -no-reboot \
		-L root/usr/share/qemu -L root/usr/share/seabios \
		-serial "file:console-$mode.log" \
		-kernel root/boot/vmlinuz-"$K" -initrd initrd.gz \
		-append "console=ttyS0 quiet panic=-1 warden.mode=$mode warden.out=$out" \
		"$@" -drive file="out-$mode.img",if=virtio,format=raw
	mkdir "$mode"
	tar xf "out-$mode.img" -C "$mode" 2>/dev/null || true
	if [ ! -s "$mode/versions" ]; then
		echo "the $mode guest wrote nothing; its console:" >&2
		tail -40 "console-$mode.log" >&2
		exit 1
	fi
}
# disks N LAYOUT: N 128 MiB raw images with an MBR partition table.
disks() {
	local n=$1 layout=$2 i
	args=()
	for i in $(seq "$n"); do
		truncate -s 128M "d$i.img"
		"$W/root/sbin/sfdisk" -q "d$i.img" <<<"$layout"
		args+=(-drive file="d$i.img",if=virtio,format=raw)
	done
}

# NVMe: the controller's smart_critical_warning bits (0x01 available spare
# below threshold, 0x04 NVM subsystem reliability degraded, 0x08 media
# placed in read-only mode).
for w in 0 1 4 8; do
	rm -f nvme.img && truncate -s 1G nvme.img
	boot "nvme-$w" vda -drive file=nvme.img,if=none,id=nv0,format=raw \
		-device nvme,serial=WARDEN0001,drive=nv0,smart_critical_warning=$w
done
# DSM: p1 system, p2 swap, p5 (a logical partition in p3) data.
disks 5 $'label: dos\nsize=32MiB, type=fd\nsize=16MiB, type=fd\ntype=5\nsize=64MiB, type=fd'
boot dsm vdf "${args[@]}"
rm -f d*.img
disks 5 $'label: dos\nsize=64MiB, type=fd'
boot plain vdf "${args[@]}"

# --- the fixtures -----------------------------------------------------------
for f in nvme-{0,1,4,8}/smartctl dsm/mdstat-{healthy,degraded,rebuilding} plain/mdstat-plain; do
	if [ ! -e "$f.rc" ]; then
		echo "$f: the guest did not run it; its console:" >&2
		tail -40 "console-${f%%/*}.log" >&2
		exit 1
	fi
done
v() { sed -n "s/^$2=//p" "$1/versions"; }
today=$(date -u +%F)
guest() {
	printf 'captured here on %s in a QEMU guest (%s, %s) booting Debian 12'"'"'s kernel (%s, uname -r %s) from an initramfs, by testdata/capture/qemu-guest.sh' \
		"$today" "$qemu_version" TCG "$kernel_deb" "$(v "$1" uname_r)"
}
for w in 0 1 4 8; do
	d=nvme-$w
	name=smartctl-nvme-warning-$w
	[ "$w" = 0 ] && name=smartctl-nvme-healthy
	{
		printf '#fixture: smartctl -j -H -A -i -- /dev/nvme0 (%s, smartmontools %s); %s: QEMU'"'"'s emulated NVMe controller (-device nvme,serial=WARDEN0001,smart_critical_warning=%s) on a 1 GiB raw image; exit %s, stdout (stderr: %s bytes)\n' \
			"$(v "$d" smartctl)" "$smart_deb" "$(guest "$d")" "$w" "$(cat "$d/smartctl.rc")" "$(stat -c %s "$d/smartctl.stderr")"
		cat "$d/smartctl.stdout"
	} >"$hostout/$name.captured.txt"
done
declare -A state=(
	[healthy]='healthy: after mdadm --create, the initial resync and recovery finished'
	[degraded]='degraded: the third disk failing, mdadm --fail of vdc5 in md2 and of vdc1 in md0 (shown (F)), vdc2 failed and removed from md1'
	[rebuilding]='rebuilding: after the degraded state, vdc1 and vdc5 removed, the three partitions of vdc zeroed and added back; md0 and md1 recovered, md2 recovering, throttled with /proc/sys/dev/raid/speed_limit_max=1000, 5 s after the add'
)
for s in healthy degraded rebuilding; do
	{
		printf '#fixture: cat /proc/mdstat; %s, mdadm %s (%s): Synology DSM'"'"'s md layout (not DSM itself) on five 128 MiB virtio disks vda-vde, MBR partitions 1, 2 and 5 (logical): md0 and md1 raid1 --metadata=0.90 --raid-devices=8 on partitions 1 and 2 with three slots missing, md2 raid5 --metadata=1.2 --chunk=64 on partition 5; %s; exit %s\n' \
			"$(guest dsm)" "$mdadm_deb" "$(v dsm mdadm | head -1)" "${state[$s]}" "$(cat "dsm/mdstat-$s.rc")"
		cat "dsm/mdstat-$s.stdout"
	} >"$packsout/qemu-dsm-mdstat-$s.txt"
done
{
	printf '#fixture: cat /proc/mdstat; %s, mdadm %s (%s): md0 raid1 --bitmap=internal of vda1 and vde1, md1 raid5 of vdb1 vdc1 vdd1 with vdd1 failed, removed, zeroed and added back, recovering (throttled with /proc/sys/dev/raid/speed_limit_max=1000), 5 s after the add; exit %s\n' \
		"$(guest plain)" "$mdadm_deb" "$(v plain mdadm | head -1)" "$(cat plain/mdstat-plain.rc)"
	cat plain/mdstat-plain.stdout
} >"$hostout/mdstat.captured.txt"
for d in nvme-0 nvme-1 nvme-4 nvme-8 dsm plain; do
	for e in "$d"/*.stderr; do [ -s "$e" ] && { echo "== $e" >&2; cat "$e" >&2; }; done
done
