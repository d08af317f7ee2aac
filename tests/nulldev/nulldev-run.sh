#!/bin/bash
# tests/nulldev/nulldev-run.sh [-b BUILD] CMD [ARG...] - run CMD with the null
# device (docs/nulldev.md) as its only verbs device, nulldev0, without
# touching the host's /sys, /etc or /dev:
#  - a private sysfs tree (libibverbs' SYSFS_PATH) under $NULLDEV_SYS (made
#    if missing; default $TMPDIR/nulldev-$UID): the uverbs0 entry, the
#    device's node, port 1's GID 0 (::ffff:127.0.0.1, RoCE v2, on lo) and
#    the registry directory through which two processes find each other's
#    regions and QPs: processes meant to talk share one $NULLDEV_SYS;
#  - the provider, BUILD/tests/nulldev/libnulldev-rdmav34.so, by
#    RDMAV_DRIVERS (the host's /etc/libibverbs.d is read as ever);
#  - /dev/infiniband/uverbs0, which libibverbs opens before it calls the
#    provider: /dev/null bound there in a private mount namespace
#    (unshare -m; unshare -rm when not root), over a tmpfs copy of /dev.
# Exit status: CMD's; 77 when the namespace cannot be made (a skip).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
B=build
if [ "${1:-}" = -b ]; then B=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: nulldev-run.sh [-b BUILD] CMD [ARG...]" >&2; exit 2; }
case $B in /*) ;; *) B=$here/$B ;; esac
so=$B/tests/nulldev/libnulldev-rdmav34.so
[ -f "$so" ] || { echo "nulldev-run: $so is missing: run make nulldev B=${B#"$here"/}" >&2; exit 2; }
S=${NULLDEV_SYS:-${TMPDIR:-/tmp}/nulldev-$(id -u)}

# the sysfs tree libibverbs 44 reads (init.c, sysfs.c, cmd_device.c)
mksys() {
	local u=$S/class/infiniband_verbs/uverbs0 d=$S/class/infiniband/nulldev0
	mkdir -p "$u" "$d/ports/1/gids" "$d/ports/1/gid_attrs/types" \
		"$d/ports/1/gid_attrs/ndevs" "$d/nulldev" "$S/dev" || return 1
	echo 6 > "$S/class/infiniband_verbs/abi_version"
	echo nulldev0 > "$u/ibdev"
	echo 1 > "$u/abi_version"
	echo 1:3 > "$u/dev" # /dev/null's numbers: what uverbs0 is bound to
	echo "1: CA" > "$d/node_type"
	echo 0200:0000:0000:0001 > "$d/node_guid"
	echo 0000:0000:0000:0000:0000:ffff:7f00:0001 > "$d/ports/1/gids/0"
	echo "RoCE v2" > "$d/ports/1/gid_attrs/types/0"
	echo lo > "$d/ports/1/gid_attrs/ndevs/0"
	echo Ethernet > "$d/ports/1/link_layer"
	echo "4: ACTIVE" > "$d/ports/1/state"
	echo "100 Gb/sec (4X EDR)" > "$d/ports/1/rate"
}
mksys || { echo "nulldev-run: cannot make the sysfs tree in $S" >&2; exit 2; }

# in the namespace: /dev becomes an overlay of itself whose upper layer (a
# tmpfs) adds infiniband/uverbs0, a bind of /dev/null; the mounts under
# /dev (pts, shm, mqueue) are bound back on top
inner='set -e
d=$NULLDEV_SYS/dev
mount -t tmpfs nulldev-dev "$d"
mkdir "$d/old" "$d/u" "$d/w" "$d/u/infiniband"
: > "$d/u/infiniband/uverbs0"
mount --rbind /dev "$d/old"
subs=$(findmnt -rn -o TARGET | grep "^/dev/" | grep -v "^/dev/infiniband" || true)
mount -t overlay nulldev-dev -o "lowerdir=/dev,upperdir=$d/u,workdir=$d/w" /dev
for m in $subs; do mount --rbind "$d/old${m#/dev}" "$m"; done
mount --bind /dev/null /dev/infiniband/uverbs0
set +e
exec "$@"'
us=(unshare -m --propagation private)
[ "$(id -u)" = 0 ] || us=(unshare -rm --propagation private)
"${us[@]}" true 2>/dev/null || {
	echo "nulldev-run: cannot make a mount namespace (${us[*]}): skipped" >&2
	exit 77
}
# libibverbs asks the kernel's RDMA netlink first and reads SYSFS_PATH only
# when that fails: on a kernel with RDMA, hide the netlink (preload/nonl.c)
nonl=$B/tests/nulldev/libnulldev-nonl.so
[ -f "$nonl" ] || { echo "nulldev-run: $nonl is missing: run make nulldev B=${B#"$here"/}" >&2; exit 2; }
export LD_PRELOAD=$nonl${LD_PRELOAD:+:$LD_PRELOAD}
# a sanitizer build's ASan wants to be first; the shim only wraps socket()
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export NULLDEV_SYS=$S SYSFS_PATH=$S RDMAV_DRIVERS=${so%-rdmav34.so}
exec "${us[@]}" bash -c "$inner" nulldev-run "$@"
