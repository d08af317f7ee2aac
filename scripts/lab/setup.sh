#!/bin/bash
# scripts/lab/setup.sh - prepare the Soft-RoCE lab (rxe + siw under QEMU).
#
# The host needs no RDMA at all: scripts/lab/run.sh boots Debian's own kernel
# (which ships rdma_rxe.ko) under qemu with this machine's / as the guest's
# root.  This script fetches and prepares everything that needs:
#
#   1. host packages (apt-get update + install, non-interactive, without
#      recommends): qemu, busybox-static, kmod, cpio, iproute2, rdma-core,
#      ibverbs-providers, ibverbs-utils, rdmacm-utils, perftest, make, xz-utils,
#      gcc, libc6-dev, libibverbs-dev, librdmacm-dev, libnuma-dev (to build rdmabench)
#      and linux-headers-<abi>-amd64 (for siw).  Skipped with --no-deps, and
#      skipped when everything is already installed.
#   2. linux-image-<abi>-amd64 .deb, fetched with "apt-get download" (nothing is
#      installed as a kernel; <abi> is resolved from "apt-cache depends
#      linux-image-amd64"), unpacked, depmod'ed.
#   3. an uncompressed vmlinux (booted through the PVH entry point: no
#      decompression under TCG, ~7 s faster per boot).
#   4. siw.ko (SoftiWARP): Debian's kernel is built without CONFIG_RDMA_SIW, so
#      it is compiled out of tree from linux-source-<ver> (the exact same
#      Debian version as the image, only drivers/infiniband/sw/siw unpacked)
#      against linux-headers-<abi>-amd64, and put in the unpacked tree's
#      updates/ folder.
#   5. a small initramfs (static busybox + the virtio/9p/overlay modules) whose
#      /init mounts the host's / read-only over 9p with a tmpfs overlay and
#      hands over to scripts/lab/guest-init.sh (copied in at each run).
#
# Usage: scripts/lab/setup.sh [--no-deps] [--force]
#   --no-deps   do not apt-get install anything (the kernel and linux-source
#               .debs are still fetched with apt-get download); fails if a
#               needed host package is missing
#   --force     rebuild vmlinux, initramfs and siw.ko even if cached
# Must run as root (apt-get, and the initramfs device nodes).
#
# Environment:
#   RDMABENCH_LAB_DIR   cache/work folder (default /var/tmp/rdmabench-lab);
#                       must not contain whitespace (it goes on the guest
#                       kernel command line).  About 700 MB.
#   RDMABENCH_LAB_KPKG  kernel package to use instead of the one
#                       linux-image-amd64 depends on (e.g. linux-image-6.1.0-57-amd64)
#
# Layout of $RDMABENCH_LAB_DIR:
#   current                     uname -r of the prepared kernel (written last)
#   pkg/                        downloaded .debs
#   k/<uname -r>/kroot/         unpacked kernel package (+ updates/siw.ko)
#   k/<uname -r>/vmlinux        uncompressed kernel (PVH)
#   k/<uname -r>/initramfs.cpio.gz
#   k/<uname -r>/siw/           siw source and build
#   runs/                       per-run folders of run.sh
#
# Idempotent: every step checks its output first; a second run with
# everything cached takes about a second.  Exit status 0 = ready.
set -Eeuo pipefail

LAB=${RDMABENCH_LAB_DIR:-/var/tmp/rdmabench-lab}
DEPS=1 FORCE=0
for a in "$@"; do
    case "$a" in
        --no-deps) DEPS=0 ;;
        --force) FORCE=1 ;;
        -h|--help) sed -n '2,/^set -Eeuo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "setup.sh: unknown argument '$a' (see --help)" >&2; exit 2 ;;
    esac
done

T0=$SECONDS
log() { echo "[lab-setup] $*" >&2; }
die() { echo "[lab-setup] ERROR: $*" >&2; exit 1; }
trap 'echo "[lab-setup] ERROR: command failed (line $LINENO): $BASH_COMMAND" >&2' ERR

[ "$(id -u)" = 0 ] || die "must run as root (apt-get install/download, mknod); try: sudo $0 $*"
case "$LAB" in
    *[[:space:]]*|"") die "RDMABENCH_LAB_DIR='$LAB' must be a path without whitespace" ;;
esac
mkdir -p "$LAB" "$LAB/pkg" "$LAB/runs"
LAB=$(cd "$LAB" && pwd -P)

# One setup at a time (run.sh only reads what a finished setup left).
exec 9>"$LAB/.setup.lock"
flock -w 1800 9 || die "another setup.sh holds $LAB/.setup.lock for 30 min"

export DEBIAN_FRONTEND=noninteractive
APT_UPDATED=0
apt_update() {
    [ "$APT_UPDATED" = 1 ] && return 0
    log "apt-get update"
    apt-get update -qq >&2 || die "apt-get update failed (network? /etc/apt/sources.list?)"
    APT_UPDATED=1
}

# ---------------------------------------------------------------- kernel ABI
resolve_kpkg() {
    apt-cache depends linux-image-amd64 2>/dev/null \
        | awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'
}
KPKG=${RDMABENCH_LAB_KPKG:-}
if [ -z "$KPKG" ]; then
    KPKG=$(resolve_kpkg)
    if [ -z "$KPKG" ] && [ "$DEPS" = 1 ]; then apt_update; KPKG=$(resolve_kpkg); fi
    [ -n "$KPKG" ] || die "cannot resolve linux-image-amd64 to a kernel package: run 'apt-get update' (or set RDMABENCH_LAB_KPKG)"
fi
KVER=${KPKG#linux-image-}                  # e.g. 6.1.0-57-amd64 (= guest uname -r)
SRCVER=${KVER%%.0-*}                       # 6.1
log "kernel $KPKG (guest uname -r $KVER)"
K=$LAB/k/$KVER
mkdir -p "$K"

# ---------------------------------------------------------------- host packages
HOST_PKGS="qemu-system-x86 busybox-static kmod cpio iproute2 rdma-core ibverbs-providers
 ibverbs-utils rdmacm-utils perftest make xz-utils linux-headers-$KVER
 gcc libc6-dev libibverbs-dev librdmacm-dev libnuma-dev
 libcap2-bin python3-jsonschema libxml2-utils yamllint
 python3-matplotlib chromium
 clang libclang-rt-14-dev valgrind time tcpdump strace
 dpkg-dev debhelper lintian
 groff-base man-db zsh
 prometheus prometheus-pushgateway prometheus-node-exporter tmux
 podman crun conmon containernetworking-plugins mmdebstrap python3-yaml
 openmpi-bin openssh-server openssh-client slurmd slurmctld slurm-client munge"
missing=()
for p in $HOST_PKGS; do
    st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$st" = installed ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$DEPS" = 1 ] || die "host packages missing: ${missing[*]} (run without --no-deps, or apt-get install them)"
    apt_update
    log "apt-get install ${missing[*]}"
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 \
        || die "apt-get install ${missing[*]} failed"
fi
# node and npm (the Kubernetes manifest checks): Debian's, unless a node
# that brings its own npm (e.g. nodesource's nodejs) is there already -
# Debian's npm package conflicts with that one
if ! command -v npm >/dev/null; then
    [ "$DEPS" = 1 ] || die "npm missing (run without --no-deps, or apt-get install nodejs npm)"
    apt_update
    log "apt-get install nodejs npm"
    apt-get install -y -qq --no-install-recommends nodejs npm >&2 \
        || die "apt-get install nodejs npm failed"
fi
for c in qemu-system-x86_64 busybox depmod modprobe cpio gzip xz dpkg-deb make; do
    command -v "$c" >/dev/null || die "'$c' not found after installing host packages"
done
BUSYBOX=/bin/busybox
[ -x "$BUSYBOX" ] && ! ldd "$BUSYBOX" >/dev/null 2>&1 || die "$BUSYBOX is not a static busybox (install busybox-static)"

# ---------------------------------------------------------------- .deb download
# fetch PKG[=VER] into $LAB/pkg unless its .deb is there already; prints its path
candidate() { apt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }'; }
deb_path() {
    local g
    for g in "$LAB/pkg/$1_${2//:/%3a}_"*.deb; do [ -s "$g" ] && { echo "$g"; return 0; }; done
    return 0
}
fetch_deb() {
    local spec=$1 name=${1%%=*} ver f
    ver=${spec#*=}; [ "$ver" != "$spec" ] || ver=$(candidate "$name")
    f=$(deb_path "$name" "$ver")
    if [ -z "$ver" ] || [ -z "$f" ]; then
        log "apt-get download $spec"
        if ! (cd "$LAB/pkg" && apt-get download -q -o APT::Sandbox::User=root "$spec" >&2); then
            [ "$DEPS" = 1 ] || die "apt-get download $spec failed (stale apt lists? run apt-get update)"
            apt_update
            (cd "$LAB/pkg" && apt-get download -q -o APT::Sandbox::User=root "$spec" >&2) \
                || die "apt-get download $spec failed: is that version still in the archive?"
        fi
        ver=${spec#*=}; [ "$ver" != "$spec" ] || ver=$(candidate "$name")
        f=$(deb_path "$name" "$ver")
    fi
    [ -n "$f" ] || die "cannot find the .deb of $spec in $LAB/pkg after apt-get download"
    echo "$f"
}

# ---------------------------------------------------------------- kernel tree
if [ ! -f "$K/kroot/.complete" ] || [ ! -f "$K/kroot/boot/vmlinuz-$KVER" ]; then
    IMGDEB=$(fetch_deb "$KPKG")
    log "unpacking $(basename "$IMGDEB")"
    rm -rf "$K/kroot" "$K/kroot.tmp"
    dpkg-deb -x "$IMGDEB" "$K/kroot.tmp"
    [ -f "$K/kroot.tmp/boot/vmlinuz-$KVER" ] || die "$IMGDEB has no boot/vmlinuz-$KVER"
    depmod -b "$K/kroot.tmp" "$KVER"
    dpkg-deb -f "$IMGDEB" Version > "$K/kroot.tmp/.complete"
    mv "$K/kroot.tmp" "$K/kroot"
fi
IMGVER=$(cat "$K/kroot/.complete")
MODDIR=$K/kroot/lib/modules/$KVER
log "kernel tree $K/kroot (Debian version $IMGVER)"

# ---------------------------------------------------------------- vmlinux
# The bzImage holds an xz stream; xz stops at its end and complains about the
# trailing data (exit 1), so the result is checked for the ELF magic instead.
if [ "$FORCE" = 1 ] || [ ! -s "$K/vmlinux" ]; then
    bz=$K/kroot/boot/vmlinuz-$KVER
    off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" | head -1 | cut -d: -f1 || true)
    [ -n "$off" ] || die "no xz stream in $bz (kernel not xz-compressed?)"
    { tail -c +$((off + 1)) "$bz" | xz -dc; } > "$K/vmlinux.tmp" 2>/dev/null || true
    [ "$(head -c 4 "$K/vmlinux.tmp" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ] \
        || die "unpacking vmlinux from $bz failed (no ELF header)"
    mv "$K/vmlinux.tmp" "$K/vmlinux"
    log "vmlinux: $K/vmlinux ($(du -h "$K/vmlinux" | cut -f1))"
fi

# ---------------------------------------------------------------- siw.ko
SIWKO=$MODDIR/updates/siw.ko
if [ "$FORCE" = 1 ] || [ ! -f "$SIWKO" ] || [ "$(modinfo -F vermagic "$SIWKO" 2>/dev/null | cut -d' ' -f1)" != "$KVER" ]; then
    HDR=/usr/src/linux-headers-$KVER
    [ -f "$HDR/Makefile" ] || die "$HDR missing (apt-get install linux-headers-$KVER)"
    if [ ! -f "$K/siw/src/Makefile" ]; then
        SRCDEB=$(fetch_deb "linux-source-$SRCVER=$IMGVER")
        log "unpacking drivers/infiniband/sw/siw from $(basename "$SRCDEB")"
        rm -rf "$K/siw"
        mkdir -p "$K/siw/x"
        dpkg-deb --fsys-tarfile "$SRCDEB" \
            | tar -x -C "$K/siw/x" "./usr/src/linux-source-$SRCVER.tar.xz"
        tar -xJf "$K/siw/x/usr/src/linux-source-$SRCVER.tar.xz" -C "$K/siw/x" \
            "linux-source-$SRCVER/drivers/infiniband/sw/siw"
        mv "$K/siw/x/linux-source-$SRCVER/drivers/infiniband/sw/siw" "$K/siw/src"
        rm -rf "$K/siw/x"
        rm -f "$SRCDEB"        # 139 MB; only the siw folder is ever needed
    fi
    log "building siw.ko against $HDR"
    make -s -C "$HDR" M="$K/siw/src" CONFIG_RDMA_SIW=m -j"$(nproc)" modules >&2 \
        || die "building siw.ko failed (see the compiler output above)"
    [ "$(modinfo -F vermagic "$K/siw/src/siw.ko" | cut -d' ' -f1)" = "$KVER" ] \
        || die "siw.ko vermagic '$(modinfo -F vermagic "$K/siw/src/siw.ko")' does not match $KVER"
    mkdir -p "$MODDIR/updates"
    cp "$K/siw/src/siw.ko" "$SIWKO.tmp" && mv "$SIWKO.tmp" "$SIWKO"
    depmod -b "$K/kroot" "$KVER"
    log "siw.ko installed in $MODDIR/updates (depends: $(modinfo -F depends "$SIWKO"))"
fi
for m in rdma_rxe siw rdma_ucm ib_uverbs dummy virtio_net; do
    modprobe -d "$K/kroot" -S "$KVER" --show-depends "$m" >/dev/null 2>&1 \
        || die "module $m not found in $K/kroot"
done

# ---------------------------------------------------------------- initramfs
# Stage 1 (busybox, PID 1): load the modules needed to reach the host's /
# (virtio-pci + 9p) and to make it writable (overlay on tmpfs), mount it and
# the run folder, then switch_root to stage 2 = bash running
# $RUN/guest-init.sh (a copy of scripts/lab/guest-init.sh made by run.sh).
BOOT_MODS="virtio_pci 9pnet_virtio 9p overlay"
mapfile -t KOS < <(for m in $BOOT_MODS; do
        modprobe -d "$K/kroot" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
    done | awk '!seen[$0]++')
[ ${#KOS[@]} -gt 0 ] || die "cannot resolve the boot modules ($BOOT_MODS)"

INIT=$(cat <<'EOF'
#!/bin/sh
# rdmabench lab, stage 1 (initramfs /init, busybox)
/bin/busybox --install -s /bin
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
fatal() {
    echo "lab-stage1: FATAL: $*"
    echo "LAB-EXIT-STATUS: 254"
    echo o > /proc/sysrq-trigger; sleep 10; poweroff -f
}
for m in $(cat /modules.order); do insmod /lib/modules/$m || fatal "insmod $m"; done
arg() { sed -n "s/.*\blab\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
RUN=$(arg run) KROOT=$(arg kroot) KVER=$(cat /kernel-version)
[ -n "$RUN" ] && [ -n "$KROOT" ] || fatal "lab.run= / lab.kroot= missing on the kernel command line"
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose hostroot /mnt/lower \
    || fatal "mount of the host's / (9p tag hostroot) failed"
mount -t tmpfs -o mode=755,size=75% tmpfs /mnt/rw
mkdir -p /mnt/rw/upper /mnt/rw/work
mount -t overlay overlay -o lowerdir=/mnt/lower,upperdir=/mnt/rw/upper,workdir=/mnt/rw/work /newroot \
    || fatal "overlay mount failed"
N=/newroot
mkdir -p $N/lib/modules/$KVER $N$RUN
mount --bind /mnt/lower$KROOT/lib/modules/$KVER $N/lib/modules/$KVER \
    || fatal "bind of $KROOT/lib/modules/$KVER failed"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 run $N$RUN || fatal "mount of the run folder failed"
if grep -q 'lab\.out=1' /proc/cmdline; then
    read -r OUT < $N$RUN/outdir
    mkdir -p "$N$OUT" && mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 out "$N$OUT" \
        || fatal "mount of the output folder $OUT failed"
fi
mkdir -p $N/proc $N/sys $N/dev $N/run $N/tmp
echo "lab-stage1: root ready at $(cut -d' ' -f1 /proc/uptime)s"
mount --move /proc $N/proc; mount --move /sys $N/sys; mount --move /dev $N/dev
mkdir -p $N/dev/pts $N/dev/shm
ln -sf /proc/self/fd $N/dev/fd; ln -sf /proc/self/fd/0 $N/dev/stdin
ln -sf /proc/self/fd/1 $N/dev/stdout; ln -sf /proc/self/fd/2 $N/dev/stderr
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $N/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $N/dev/shm
mount -t tmpfs -o mode=755 tmpfs $N/run
[ -x $N/bin/bash ] || fatal "no /bin/bash on the host's /"
exec switch_root $N /bin/bash $RUN/guest-init.sh
fatal "switch_root failed"
EOF
)
STAMP=$( { echo "$INIT"; sha256sum < "${BASH_SOURCE[0]}"; printf '%s\n' "${KOS[@]}"; sha256sum "$BUSYBOX"; echo "$KVER"; } | sha256sum | cut -c1-16)
if [ "$FORCE" = 1 ] || [ ! -s "$K/initramfs.cpio.gz" ] || [ "$(cat "$K/initramfs.stamp" 2>/dev/null)" != "$STAMP" ]; then
    IR=$K/initramfs.d
    rm -rf "$IR"
    mkdir -p "$IR"/{bin,dev,proc,sys,mnt/lower,mnt/rw,newroot,lib/modules}
    : > "$IR/modules.order"
    for ko in "${KOS[@]}"; do
        cp "$ko" "$IR/lib/modules/"
        basename "$ko" >> "$IR/modules.order"
    done
    cp "$BUSYBOX" "$IR/bin/busybox"
    ln -s busybox "$IR/bin/sh"
    mknod -m 600 "$IR/dev/console" c 5 1
    mknod -m 666 "$IR/dev/null" c 1 3
    echo "$KVER" > "$IR/kernel-version"
    printf '%s\n' "$INIT" > "$IR/init"
    chmod 755 "$IR/init"
    (cd "$IR" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet --reproducible) \
        | gzip -1 > "$K/initramfs.cpio.gz.tmp"
    mv "$K/initramfs.cpio.gz.tmp" "$K/initramfs.cpio.gz"
    echo "$STAMP" > "$K/initramfs.stamp"
    rm -rf "$IR"
    log "initramfs: $K/initramfs.cpio.gz ($(du -h "$K/initramfs.cpio.gz" | cut -f1); modules: $(printf '%s ' "${KOS[@]##*/}"))"
fi

echo "$KVER" > "$LAB/current.tmp" && mv "$LAB/current.tmp" "$LAB/current"
log "ready in $((SECONDS - T0)) s: $LAB (kernel $KVER); try: scripts/lab/run.sh ibv_devinfo"
