#!/bin/bash
# scripts/lab/guest-init.sh - stage 2 of the lab guest (PID 1, runs as root).
#
# Not for direct use: scripts/lab/run.sh copies it into the run folder, and the
# initramfs's /init (from setup.sh) switch_roots into the host's / (read-only
# over 9p, tmpfs overlay) and execs "/bin/bash RUN/guest-init.sh".  The run
# folder RUN is the host's folder at the same path, writable; run.sh left in it:
#   config        bash: LAB_ARGV (command), LAB_CWD, LAB_PROVIDERS, LAB_MTU,
#                 LAB_QUIET, LAB_OUT, LAB_SMP, LAB_ROLE (run-pair.sh only),
#                 LAB_NUMA (nodes asked for)
#   env           bash: "declare -x" lines of the host variables passed through
# and reads back:
#   booted        created as soon as this script starts (boot watchdog)
#   stdout stderr the command's output (appended; run.sh streams them)
#   rc            the command's exit status
# The console (ttyS0 -> RUN/console.log) gets the progress lines and
# "LAB-EXIT-STATUS: N".
#
# Under TCG each fork+exec costs ~0.15 s, so this script uses bash builtins
# wherever it can: one modprobe, one ip and one rdma call set up both devices.

RUN=${BASH_SOURCE[0]%/*}
exec </dev/null
: > "$RUN/booted"
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8
unset SHLVL OLDPWD

UP=
up() { read -r UP _ < /proc/uptime; UP=${UP}s; }   # sets UP (no fork)
# sleep without fork/exec: read with a timeout on a pipe nobody writes to
exec {SLEEPFD}<> <(:)
nap() { read -r -t "$1" -u "$SLEEPFD" _ || true; }

poweroff_now() {
    echo o > /proc/sysrq-trigger
    nap 30
    exit 1                    # PID 1 exits -> panic=-1 -> qemu -no-reboot exits
}
finish() {                    # finish RC
    echo "$1" > "$RUN/rc"
    up; echo "lab-guest: command exit status $1 (up $UP)"
    echo "LAB-EXIT-STATUS: $1"
    poweroff_now
}

up; echo "lab-guest: stage 2 at $UP"
# shellcheck source=/dev/null
source "$RUN/config" || { echo "lab-guest: cannot read $RUN/config"; finish 125; }
echo lab > /proc/sys/kernel/hostname
# RDMA hosts run with unlimited locked memory; siw checks RLIMIT_MEMLOCK even
# for root (kernel default 8 MiB) and fails big registrations without this.
ulimit -l unlimited
ulimit -c 0

note() {                      # progress line: console, and stderr unless quiet
    echo "lab-guest: $*"
    [ "${LAB_QUIET:-0}" = 1 ] || echo "[lab-guest${LAB_ROLE:+ $LAB_ROLE}] $*" >> "$RUN/stderr"
}
warn() { echo "lab-guest: WARNING: $*"; echo "[lab-guest${LAB_ROLE:+ $LAB_ROLE}] WARNING: $*" >> "$RUN/stderr"; }

# ------------------------------------------------------------ RDMA devices
# One guest: rxe0 on dummy rxe_if 198.18.0.1/24, siw0 on dummy siw_if
# 198.18.1.1/24.  Pair (LAB_ROLE set, run-pair.sh): one device, on the
# virtio NIC eth0 whose only peer is the other guest, 198.18.2.1 (server) /
# 198.18.2.2 (client).  198.18.0.0/15 is the RFC 2544 benchmarking range; the
# addresses exist only in the guests.
declare -A IP=([rxe]=198.18.0.1 [siw]=198.18.1.1) NETDEV=()
want=()
for p in $LAB_PROVIDERS; do
    case "$p" in rxe|siw) want+=("$p") ;; none) ;; *) warn "unknown provider '$p' in RDMABENCH_LAB_PROVIDERS (rxe, siw, none)" ;; esac
done
mods=(ib_uverbs rdma_ucm)
if [ -n "${LAB_ROLE:-}" ]; then
    LAB_SERVER_IP=198.18.2.1 LAB_CLIENT_IP=198.18.2.2
    if [ "$LAB_ROLE" = server ]; then LAB_MY_IP=$LAB_SERVER_IP LAB_PEER_IP=$LAB_CLIENT_IP
    else LAB_MY_IP=$LAB_CLIENT_IP LAB_PEER_IP=$LAB_SERVER_IP; fi
    export LAB_ROLE LAB_SERVER_IP LAB_CLIENT_IP LAB_MY_IP LAB_PEER_IP
    want=("${want[@]:0:1}")
    for p in "${want[@]}"; do IP[$p]=$LAB_MY_IP NETDEV[$p]=eth0; done
    mods+=(virtio_net)
else
    for p in "${want[@]}"; do NETDEV[$p]=${p}_if; done
    mods+=(dummy)               # also mgmt_if, below
fi
for p in "${want[@]}"; do [ "$p" = rxe ] && mods+=(rdma_rxe) || mods+=(siw); done
modprobe -a "${mods[@]}" || warn "modprobe -a ${mods[*]} failed"

ipcmds="link set lo up"$'\n'
rdmacmds=
have=()
if [ -n "${LAB_ROLE:-}" ]; then        # no udev: wait for the NIC to appear
    for ((i = 0; i < 100; i++)); do [ -e /sys/class/net/eth0 ] && break; nap 0.05; done
    [ -e /sys/class/net/eth0 ] || warn "no eth0 (virtio_net) after 5 s"
    ipcmds+="link set eth0 mtu $LAB_MTU up"$'\n'"addr add $LAB_MY_IP/24 dev eth0"$'\n'
fi
for p in "${want[@]}"; do
    m=$p; [ "$p" = rxe ] && m=rdma_rxe
    if [ ! -d /sys/module/$m ]; then
        warn "module $m did not load: no ${p}0 (re-run scripts/lab/setup.sh?)"; continue
    fi
    have+=("$p")
    nd=${NETDEV[$p]}
    if [ "$nd" != eth0 ]; then
        ipcmds+="link add $nd type dummy"$'\n'"link set $nd mtu $LAB_MTU up"$'\n'
        ipcmds+="addr add ${IP[$p]}/24 dev $nd"$'\n'
    fi
    rdmacmds+="link add ${p}0 type $p netdev $nd"$'\n'
done
# One guest: a management interface with no RDMA device (dummy mgmt_if,
# 198.18.3.1/24) and a hostname for it in /etc/hosts (the overlay's), so
# that a server can be named as scripts name it: by hostname, by a
# non-RDMA IP, by localhost.
if [ -z "${LAB_ROLE:-}" ] && [ -z "${LAB_NODE:-}" ]; then
    ipcmds+="link add mgmt_if type dummy"$'\n'"link set mgmt_if up"$'\n'
    ipcmds+="addr add 198.18.3.1/24 dev mgmt_if"$'\n'
    echo "198.18.3.1 rdmabench-server" >> /etc/hosts
    export LAB_MGMT_IP=198.18.3.1 LAB_MGMT_NETDEV=mgmt_if LAB_SERVER_NAME=rdmabench-server
fi
ip -b - <<< "$ipcmds" || warn "ip -b failed: $ipcmds"
[ -n "$rdmacmds" ] && { rdma --force -b - <<< "$rdmacmds" || warn "rdma link add failed"; }

# wait (bounded) for the ports to be ACTIVE; export what came up
LAB_DEVICES=
for p in "${have[@]}"; do
    dev=${p}0 st=
    for ((i = 0; i < 100; i++)); do
        { read -r st < /sys/class/infiniband/$dev/ports/1/state; } 2>/dev/null || st=
        [ "$st" = "4: ACTIVE" ] && break
        nap 0.05
    done
    if [ "$st" != "4: ACTIVE" ]; then warn "$dev port state '${st:-missing}' after 5 s"; continue; fi
    P=${p^^}
    export LAB_${P}_DEV=$dev LAB_${P}_IP=${IP[$p]} LAB_${P}_NETDEV=${NETDEV[$p]}
    LAB_DEVICES+="${LAB_DEVICES:+ }$dev"
done
# RoCE v2 GID index of LAB_RXE_IP on rxe0 (perftest -x, ibv_rc_pingpong -g)
if [ -n "${LAB_RXE_DEV:-}" ]; then
    printf -v want_gid '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${LAB_RXE_IP//./ }
    for f in /sys/class/infiniband/rxe0/ports/1/gids/*; do
        { read -r g < "$f"; } 2>/dev/null || continue
        [ "$g" = "$want_gid" ] || continue
        { read -r t < "/sys/class/infiniband/rxe0/ports/1/gid_attrs/types/${f##*/}"; } 2>/dev/null || t=
        if [[ $t == *v2* ]]; then export LAB_RXE_GID=${f##*/}; break; fi
    done
fi
# a guest of a group (run-group.sh): node-K, two rails on eth0/eth1, sshd
if [ -n "${LAB_NODE:-}" ]; then
    # shellcheck source=scripts/lab/guest-group.sh
    source "$RUN/guest-group.sh"
fi
# The clock: run.sh's tsc=reliable keeps the TSC (the watchdog would drop
# it at once: TCG's TSCs look unsynchronized) and so any calibration
# stands. On a loaded host (CI: three boots on two cores) a guest took one
# 7x off: its clock ran 7x fast, munge refused its credentials, every
# timeout in it fired early. The kernel's refined calibration (HPET, 1 s)
# says so by its absence ("Refined TSC" is printed only within 1 % of the
# first): then the HPET, which QEMU runs on the host's clock.
cs=/sys/devices/system/clocksource/clocksource0
for ((i = 0; i < 100; i++)); do
    { read -r cur < "$cs/current_clocksource"; } 2>/dev/null || break
    [ "$cur" = tsc-early ] || break
    nap 0.1
done
if [ "${cur:-}" = tsc ] && ! dmesg | grep -q 'Refined TSC clocksource calibration'; then
    echo hpet > "$cs/current_clocksource" &&
        warn "the TSC's calibration was not confirmed by the kernel's refined one: clock source hpet"
fi
# NUMA nodes the kernel sees (RDMABENCH_LAB_NUMA=2 gives two)
nodes=(/sys/devices/system/node/node[0-9]*)
LAB_NUMA_NODES=${#nodes[@]}
[ -e "${nodes[0]}" ] || LAB_NUMA_NODES=1
[ "$LAB_NUMA_NODES" = "${LAB_NUMA:-1}" ] ||
    warn "asked for ${LAB_NUMA:-1} NUMA node(s), the kernel sees $LAB_NUMA_NODES"
export LAB_DEVICES LAB_GUEST=1 LAB_OUT LAB_RUN=$RUN LAB_SMP LAB_NUMA_NODES
up; note "devices: ${LAB_DEVICES:-none}, NUMA nodes: $LAB_NUMA_NODES (up $UP)"

# ------------------------------------------------------------ the command
# host variables passed through (PATH, RDMABENCH_*, ...): top level, so that
# the export lines stay global
source "$RUN/env" || warn "cannot read $RUN/env"
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH=$PATH:/usr/sbin:/sbin ;; esac
if ! cd "$LAB_CWD" 2>/dev/null; then
    echo "[lab-guest] cannot cd to $LAB_CWD in the guest" >> "$RUN/stderr"; finish 125
fi
up; echo "lab-guest: running ${LAB_ARGV[*]} (up $UP)"
( exec "${LAB_ARGV[@]}" ) >> "$RUN/stdout" 2>> "$RUN/stderr"
finish $?
