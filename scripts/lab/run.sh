#!/bin/bash
# scripts/lab/run.sh - run one command in a QEMU guest that has real RDMA
# devices (Soft-RoCE rxe0 and SoftiWARP siw0), on a host with no RDMA at all.
#
# Usage: scripts/lab/run.sh [CMD [ARG...]]
#   Boots one guest (Debian's kernel, prepared by scripts/lab/setup.sh) whose
#   root is this machine's / (read-only over 9p, tmpfs overlay: writes are
#   allowed but vanish at power-off), creates the RDMA devices, then runs CMD
#   as root with the host's current directory as its cwd, stdin /dev/null and
#   "ulimit -l unlimited".  CMD is looked up as the shell would (PATH, or a
#   path relative to the cwd); a file that exists but is not executable is
#   run with bash.  Default CMD: "rdma link show" (shows the devices).
#   The command's stdout and stderr come back on run.sh's stdout and stderr
#   (streamed live; no kernel messages), and run.sh exits with its status.
#
# In the guest (one netns, no NIC, nothing reaches the host's network):
#   rxe0 (Soft-RoCE, RoCE v2) on dummy netdev rxe_if, 198.18.0.1/24
#   siw0 (SoftiWARP, iWARP)   on dummy netdev siw_if, 198.18.1.1/24
#   rdma_cm resolves 198.18.0.1 to rxe0 and 198.18.1.1 to siw0, so a client
#   picks the provider by the address it connects to.  Exported to CMD:
#     LAB_GUEST=1  LAB_DEVICES="rxe0 siw0" (those that came up)
#     LAB_RXE_DEV=rxe0 LAB_RXE_IP=198.18.0.1 LAB_RXE_NETDEV=rxe_if
#     LAB_RXE_GID=1    (RoCE v2 GID index of LAB_RXE_IP: perftest -x, pingpong -g)
#     LAB_SIW_DEV=siw0 LAB_SIW_IP=198.18.1.1 LAB_SIW_NETDEV=siw_if
#     LAB_MGMT_IP=198.18.3.1 LAB_MGMT_NETDEV=mgmt_if (dummy, no RDMA device)
#     LAB_SERVER_NAME=rdmabench-server (/etc/hosts: LAB_MGMT_IP)
#     (a provider that failed to come up leaves its LAB_<P>_* unset, with a
#     warning on stderr; tests should skip it)
#     LAB_OUT  a folder writable in the guest AND visible on the host at the
#              same path (logs, results); see RDMABENCH_LAB_OUT
#     LAB_SMP  guest CPUs;  LAB_NUMA_NODES  NUMA nodes the guest kernel sees
#     LAB_RUN  the run folder (internal)
#   plus, from the host: PATH (with /usr/sbin:/sbin appended if missing),
#   LANG, LC_ALL, TZ, every RDMABENCH_* variable, and the variables named in
#   RDMABENCH_LAB_PASS_ENV.  HOME=/root, TERM=dumb.
#
# Environment (host):
#   RDMABENCH_LAB_DIR      cache made by setup.sh (default /var/tmp/rdmabench-lab)
#   RDMABENCH_LAB_TIMEOUT  seconds for the whole run, boot included (default
#                          600); past it qemu is killed and run.sh exits 124
#   RDMABENCH_LAB_BOOT_TIMEOUT  seconds for the guest to reach its init
#                          (default 90); past it the guest is killed and booted
#                          once more (a stuck boot was seen ~1 in 45 under TCG)
#   RDMABENCH_LAB_SMP      guest CPUs (default 2)
#   RDMABENCH_LAB_MEM      guest memory (default 2G)
#   RDMABENCH_LAB_NUMA     NUMA nodes in the guest: 1 (default) or 2; with 2,
#                          the CPUs and the memory are split in halves (node 0
#                          gets CPUs 0..SMP/2-1, node 1 the rest; SMP >= 2),
#                          for tests of NUMA placement (tests/lab/cases/numa.sh)
#   RDMABENCH_LAB_ACCEL    auto (default: kvm if /dev/kvm can boot the kernel,
#                          probed once and cached in $RDMABENCH_LAB_DIR/kvm-usable),
#                          kvm or tcg
#   RDMABENCH_LAB_PROVIDERS  which devices to create: "rxe siw" (default), "rxe",
#                          "siw" or "none"
#   RDMABENCH_LAB_MTU      MTU of the dummy netdevs (default 1500 -> RoCE MTU
#                          1024; 9000 -> 4096, about 2x faster under TCG)
#   RDMABENCH_LAB_OUT      host folder shown writable at the same path in the
#                          guest as LAB_OUT (created; default: RUN/out, kept
#                          only when the command fails)
#   RDMABENCH_LAB_PASS_ENV extra variable names to pass to the guest
#   RDMABENCH_LAB_QUIET    1 = no [lab] progress lines on stderr (errors stay)
#   RDMABENCH_LAB_CONSOLE  1 = echo the guest console (kernel log) to stderr
#   RDMABENCH_LAB_DEBUG    1 = full kernel log on the console, implies CONSOLE=1
#   RDMABENCH_LAB_KEEP     1 = keep the run folder ($RDMABENCH_LAB_DIR/runs/run.*:
#                          console.log, qemu.log, stdout, stderr, rc) even on success
#   Internal, set by run-pair.sh: RDMABENCH_LAB_ROLE (server|client),
#   RDMABENCH_LAB_NET (dgram:LOCAL.sock:REMOTE.sock: one virtio NIC, eth0,
#   linked to the other guest by qemu "-netdev dgram" over unix sockets),
#   RDMABENCH_LAB_MAC.  Set by run-group.sh: RDMABENCH_LAB_NET=mcast:GROUP:PORT0:PORT1
#   (two virtio NICs, eth0 and eth1, each on a qemu "-netdev socket,mcast"
#   hub bound to 127.0.0.1 that all the group's guests share),
#   RDMABENCH_LAB_NODE (this guest's number, 1..N), RDMABENCH_LAB_NODES (N).
#
# Exit status: the command's own, or
#   77   the lab cannot run here: no qemu-system-x86_64, or setup.sh not run
#   124  RDMABENCH_LAB_TIMEOUT expired (qemu killed)
#   125  the lab itself failed: qemu error, guest did not boot twice, guest
#        died without reporting a status (the run folder is kept; see messages)
#   2    bad usage/environment value
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
LAB=${RDMABENCH_LAB_DIR:-/var/tmp/rdmabench-lab}
TIMEOUT=${RDMABENCH_LAB_TIMEOUT:-600}
BOOT_TIMEOUT=${RDMABENCH_LAB_BOOT_TIMEOUT:-90}
SMP=${RDMABENCH_LAB_SMP:-2}
MEM=${RDMABENCH_LAB_MEM:-2G}
NUMA=${RDMABENCH_LAB_NUMA:-1}
ACCEL=${RDMABENCH_LAB_ACCEL:-auto}
PROVIDERS=${RDMABENCH_LAB_PROVIDERS:-rxe siw}
MTU=${RDMABENCH_LAB_MTU:-1500}
QUIET=${RDMABENCH_LAB_QUIET:-0}
DEBUG=${RDMABENCH_LAB_DEBUG:-0}
CONSOLE=${RDMABENCH_LAB_CONSOLE:-$DEBUG}
KEEP=${RDMABENCH_LAB_KEEP:-0}
ROLE=${RDMABENCH_LAB_ROLE:-}
NET=${RDMABENCH_LAB_NET:-none}

START=$SECONDS
say()  { [ "$QUIET" = 1 ] || echo "[lab${ROLE:+ $ROLE}] $*" >&2; }
err()  { echo "[lab${ROLE:+ $ROLE}] ERROR: $*" >&2; }
usage_err() { err "$*"; exit 2; }
skip() { echo "[lab] SKIP: $*" >&2; exit 77; }

for v in TIMEOUT BOOT_TIMEOUT SMP MTU; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || usage_err "RDMABENCH_LAB_$v='${!v}' must be a positive integer"
done
[[ $MEM =~ ^[1-9][0-9]*[MG]?$ ]] || usage_err "RDMABENCH_LAB_MEM='$MEM' must look like 2G or 1024M"
case "$NUMA" in
    1) ;;
    2) [ "$SMP" -ge 2 ] || usage_err "RDMABENCH_LAB_NUMA=2 needs RDMABENCH_LAB_SMP >= 2 (one CPU per node at least)" ;;
    *) usage_err "RDMABENCH_LAB_NUMA='$NUMA' must be 1 or 2" ;;
esac
case "$ACCEL" in auto|kvm|tcg) ;; *) usage_err "RDMABENCH_LAB_ACCEL='$ACCEL' must be auto, kvm or tcg" ;; esac
case "$ROLE" in ""|server|client) ;; *) usage_err "RDMABENCH_LAB_ROLE='$ROLE' must be server or client" ;; esac
case "$NET" in
    none) ;;
    dgram:*:*) [ -n "$ROLE" ] || usage_err "RDMABENCH_LAB_NET=dgram needs RDMABENCH_LAB_ROLE" ;;
    mcast:*:*:*) [[ ${RDMABENCH_LAB_NODE:-} =~ ^[1-9][0-9]?$ ]] ||
        usage_err "RDMABENCH_LAB_NET=mcast needs RDMABENCH_LAB_NODE (1..99)" ;;
    *) usage_err "RDMABENCH_LAB_NET='$NET' must be none, dgram:LOCAL.sock:REMOTE.sock or mcast:GROUP:PORT0:PORT1" ;;
esac

# ------------------------------------------------------------ can the lab run?
QEMU=$(command -v qemu-system-x86_64) || skip "qemu-system-x86_64 not installed (run scripts/lab/setup.sh as root)"
KVER=$(cat "$LAB/current" 2>/dev/null) || skip "no lab kernel in $LAB (run scripts/lab/setup.sh as root, or set RDMABENCH_LAB_DIR)"
K=$LAB/k/$KVER
KERNEL=$K/vmlinux
[ -s "$KERNEL" ] || KERNEL=$K/kroot/boot/vmlinuz-$KVER
for f in "$KERNEL" "$K/initramfs.cpio.gz" "$K/kroot/lib/modules/$KVER/modules.dep"; do
    [ -s "$f" ] || skip "$f missing (re-run scripts/lab/setup.sh)"
done
[ -r /dev/kvm ] || [ "$ACCEL" != kvm ] || usage_err "RDMABENCH_LAB_ACCEL=kvm but /dev/kvm is not usable"

# ------------------------------------------------------------ the command
[ $# -gt 0 ] || set -- rdma link show
if [[ $1 != */* ]] && [ -f "$1" ] && [ ! -x "$1" ] && ! type -P "$1" >/dev/null; then
    set -- bash "$@"          # "run.sh script.sh" in the cwd
elif [[ $1 == */* ]] && [ -f "$1" ] && [ ! -x "$1" ]; then
    set -- bash "$@"          # a guest script that is not executable
fi
CWD=$(pwd -P)

# ------------------------------------------------------------ run folder
mkdir -p "$LAB/runs" || usage_err "cannot create $LAB/runs"
# folders of runs older than 3 days are dropped (failed runs are kept)
find "$LAB/runs" -mindepth 1 -maxdepth 1 -name 'run.*' -mmin +4320 -exec rm -rf {} + 2>/dev/null
RUN=$(mktemp -d "$LAB/runs/run.XXXXXX") || usage_err "cannot create a run folder in $LAB/runs"
chmod 755 "$RUN"
OUT=${RDMABENCH_LAB_OUT:-$RUN/out}
mkdir -p "$OUT" || usage_err "cannot create RDMABENCH_LAB_OUT=$OUT"
OUT=$(cd "$OUT" && pwd -P)

cp "$HERE/guest-init.sh" "$HERE/guest-group.sh" "$RUN/"
: > "$RUN/stdout"; : > "$RUN/stderr"
{
    printf 'LAB_CWD=%q\n' "$CWD"
    LAB_ARGV=("$@"); declare -p LAB_ARGV
    printf 'LAB_PROVIDERS=%q\nLAB_MTU=%q\nLAB_QUIET=%q\nLAB_OUT=%q\nLAB_SMP=%q\nLAB_ROLE=%q\nLAB_NUMA=%q\n' \
        "$PROVIDERS" "$MTU" "$QUIET" "$OUT" "$SMP" "$ROLE" "$NUMA"
    printf 'LAB_NODE=%q\nLAB_NODES=%q\n' "${RDMABENCH_LAB_NODE:-}" "${RDMABENCH_LAB_NODES:-}"
} > "$RUN/config"
{
    for v in PATH LANG LC_ALL TZ ${RDMABENCH_LAB_PASS_ENV:-} $(compgen -v RDMABENCH_); do
        [[ $v =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || continue
        [ -n "${!v+set}" ] && printf 'export %s=%q\n' "$v" "${!v}"
    done
} > "$RUN/env"
[ -z "${RDMABENCH_LAB_OUT:-}" ] || printf '%s\n' "$OUT" > "$RUN/outdir"

# ------------------------------------------------------------ accelerator
kvm_usable() {
    [ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
    # A stock kernel may not run on every KVM (e.g. a nested paravirtual one
    # that aborts with "failed to set MSR" or crawls): boot to a missing init
    # and expect the panic within 20 s. Cached per host kernel + guest kernel.
    local cache=$LAB/kvm-usable key t
    key="$(uname -r) $KVER"
    if [ "$(head -1 "$cache" 2>/dev/null)" != "$key" ]; then
        say "probing KVM (once)"
        t=$(mktemp -d)
        timeout -k 2 20 "$QEMU" -accel kvm -cpu host -M pc -m 512M -smp 1 -nodefaults -no-reboot \
            -display none -serial "file:$t/con" -kernel "$KERNEL" \
            -append "console=ttyS0 panic=-1 rdinit=/nonexistent init=/nonexistent" >"$t/err" 2>&1
        { echo "$key"
          if grep -q 'Kernel panic' "$t/con" 2>/dev/null; then echo yes; else echo no; cat "$t/err"; fi
        } > "$cache.tmp" && mv "$cache.tmp" "$cache"
        rm -rf "$t"
    fi
    [ "$(sed -n 2p "$cache")" = yes ]
}
if [ "$ACCEL" = auto ]; then
    if kvm_usable; then ACCEL=kvm; else ACCEL=tcg; fi
fi
if [ "$ACCEL" = kvm ]; then ACCEL_ARGS=(-accel kvm -cpu host)
else ACCEL_ARGS=(-accel 'tcg,thread=multi,tb-size=256' -cpu max); fi

# ------------------------------------------------------------ qemu
if [ "$DEBUG" = 1 ]; then LOGLVL=loglevel=7; else LOGLVL="loglevel=4"; fi
APPEND="console=ttyS0 panic=-1 $LOGLVL mitigations=off nokaslr tsc=reliable"
APPEND+=" lab.run=$RUN lab.kroot=$K/kroot"
virtfs() { printf 'local,path=%s,mount_tag=%s,security_model=none,multidevs=remap%s' "${1//,/,,}" "$2" "${3:-}"; }
QARGS=("${ACCEL_ARGS[@]}" -M pc -smp "$SMP" -m "$MEM" -nodefaults -no-user-config -no-reboot
       -display none -serial "file:$RUN/console.log"
       -kernel "$KERNEL" -initrd "$K/initramfs.cpio.gz"
       -virtfs "$(virtfs / hostroot ,readonly=on)"
       -virtfs "$(virtfs "$RUN" run)")
if [ "$NUMA" = 2 ]; then
    # two nodes, each with half the CPUs and half the memory (in MiB)
    case "$MEM" in *G) mib=$((${MEM%G} * 1024)) ;; *M) mib=${MEM%M} ;; *) mib=$MEM ;; esac  # qemu: bare = MiB
    half=$((SMP / 2))
    QARGS+=(-object "memory-backend-ram,id=mem0,size=$((mib / 2))M"
            -object "memory-backend-ram,id=mem1,size=$((mib - mib / 2))M"
            -numa "node,nodeid=0,cpus=0-$((half - 1)),memdev=mem0"
            -numa "node,nodeid=1,cpus=$half-$((SMP - 1)),memdev=mem1")
fi
if [ -n "${RDMABENCH_LAB_OUT:-}" ]; then
    QARGS+=(-virtfs "$(virtfs "$OUT" out)")
    APPEND+=" lab.out=1"
fi
if [[ $NET == mcast:* ]]; then
    # two L2 links (rails) shared by every guest of the group: qemu's
    # multicast "hub" sockets, bound to 127.0.0.1 (nothing leaves loopback)
    IFS=: read -r -a mc <<< "$NET"          # mcast GROUP PORT0 PORT1
    for r in 0 1; do
        QARGS+=(-netdev "socket,id=n$r,mcast=${mc[1]}:${mc[r + 2]},localaddr=127.0.0.1"
                -device "virtio-net-pci,netdev=n$r,mac=52:54:00:4c:4$r:$(printf %02x "$RDMABENCH_LAB_NODE")")
    done
elif [ "$NET" != none ]; then
    # point-to-point Ethernet to the other guest over two unix datagram
    # sockets: no IP traffic on the host at all
    L=${NET#dgram:}; R=${L#*:}; L=${L%%:*}
    QARGS+=(-netdev "dgram,id=n0,local.type=unix,local.path=${L//,/,,},remote.type=unix,remote.path=${R//,/,,}"
            -device "virtio-net-pci,netdev=n0,mac=${RDMABENCH_LAB_MAC:-52:54:00:4c:41:$((RANDOM % 90 + 10))}")
else
    QARGS+=(-nic none)
fi

# sleep without forking (the host is busy emulating)
exec {SLEEPFD}<> <(:)
nap() { read -r -t "$1" -u "$SLEEPFD" _ || true; }

QPID='' PIDS=()
kill_qemu() {                 # SIG: qemu (by its pidfile) and its timeout(1) wrapper
    local q=
    [ -s "$RUN/qemu.pid" ] && read -r q < "$RUN/qemu.pid"
    [ -n "$q" ] && kill "-$1" "$q" 2>/dev/null
    [ -n "$QPID" ] && kill "-$1" "$QPID" 2>/dev/null
}
cleanup_children() {
    local p
    kill_qemu TERM
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
}
trap 'err "interrupted: stopping qemu"; cleanup_children; exit 130' INT
trap 'err "terminated: stopping qemu"; cleanup_children; exit 143' TERM HUP
trap 'cleanup_children; exit 141' PIPE      # e.g. "run.sh ... | head"

stop_qemu() {                 # TERM, then KILL after 5 s
    kill_qemu TERM
    for ((i = 0; i < 25; i++)); do kill -0 "$QPID" 2>/dev/null || return 0; nap 0.2; done
    kill_qemu KILL
}

say "booting $KVER (accel=$ACCEL smp=$SMP mem=$MEM numa=$NUMA providers='$PROVIDERS') for: $*"
DEADLINE=$((START + TIMEOUT))
STATE=   # booted | timeout | noboot | exited
for attempt in 1 2; do
    : > "$RUN/console.log"; rm -f "$RUN/booted" "$RUN/rc"
    [[ $NET != dgram:* ]] || rm -f "$L"      # qemu binds the local socket itself
    # timeout(1): a backstop should this script die without stopping qemu
    rm -f "$RUN/qemu.pid"
    timeout -k 5 $((TIMEOUT + 60)) "$QEMU" "${QARGS[@]}" -append "$APPEND" -pidfile "$RUN/qemu.pid" \
        </dev/null >"$RUN/qemu.log" 2>&1 &
    QPID=$!
    PIDS=()
    # stream the command's output as the guest writes it (tail stops after
    # qemu has exited and it has read everything)
    tail -c +1 -s 0.2 -f --pid="$QPID" "$RUN/stdout" & PIDS+=($!)
    tail -c +1 -s 0.2 -f --pid="$QPID" "$RUN/stderr" >&2 & PIDS+=($!)
    if [ "$CONSOLE" = 1 ]; then
        tail -c +1 -s 0.2 -f --pid="$QPID" "$RUN/console.log" | sed -u 's/\r$//; s/^/[console] /' >&2 &
        PIDS+=($!)
    fi
    t0=$SECONDS STATE=
    while kill -0 "$QPID" 2>/dev/null; do
        if [ -z "$STATE" ] && [ -e "$RUN/booted" ]; then
            STATE=booted; say "guest up after $((SECONDS - t0)) s"
        fi
        if [ $SECONDS -ge $DEADLINE ]; then STATE=timeout; stop_qemu; break; fi
        if [ -z "$STATE" ] && [ $((SECONDS - t0)) -ge "$BOOT_TIMEOUT" ]; then
            STATE=noboot; stop_qemu; break
        fi
        nap 0.2
    done
    wait "$QPID"; QRC=$?
    QPID=
    wait "${PIDS[@]}" 2>/dev/null
    [ -z "$STATE" ] && [ -e "$RUN/booted" ] && STATE=booted
    [ "$STATE" = noboot ] || [ -z "$STATE" ] || break
    # no sign of the guest's init: show why, boot once more
    if [ "$STATE" = noboot ]; then err "guest did not boot within ${BOOT_TIMEOUT}s (attempt $attempt, RDMABENCH_LAB_BOOT_TIMEOUT)"
    else err "qemu exited (status $QRC) before the guest booted (attempt $attempt)"; fi
    sed 's/^/[qemu] /' "$RUN/qemu.log" >&2
    tail -n 15 "$RUN/console.log" | tr -d '\r' | sed 's/^/[console] /' >&2
    cp "$RUN/console.log" "$RUN/console.attempt$attempt.log"
    [ "$attempt" = 1 ] && [ $SECONDS -lt $DEADLINE ] && { : > "$RUN/stdout"; : > "$RUN/stderr"; continue; }
    err "giving up: the guest never booted (run folder kept: $RUN)"
    exit 125
done

WALL=$((SECONDS - START))
RC=
[ -s "$RUN/rc" ] && read -r RC < "$RUN/rc"
if [ "$STATE" = timeout ]; then
    err "TIMEOUT: '$*' still running after ${TIMEOUT}s (RDMABENCH_LAB_TIMEOUT); qemu killed (run folder kept: $RUN)"
    tail -n 5 "$RUN/console.log" | tr -d '\r' | sed 's/^/[console] /' >&2
    exit 124
fi
if ! [[ $RC =~ ^[0-9]+$ ]]; then
    err "the guest ended (qemu status $QRC) without reporting the command's exit status (run folder kept: $RUN)"
    sed 's/^/[qemu] /' "$RUN/qemu.log" >&2
    tail -n 25 "$RUN/console.log" | tr -d '\r' | sed 's/^/[console] /' >&2
    exit 125
fi
say "exit status $RC after ${WALL} s"
if [ "$KEEP" = 1 ] || { [ "$RC" != 0 ] && [ "$RC" != 77 ] && [ -z "${RDMABENCH_LAB_OUT:-}" ]; }; then
    say "run folder kept: $RUN"
else
    rm -rf "$RUN"
fi
exit "$RC"
