# SPDX-License-Identifier: BSD-2-Clause
# scripts/lab/guest-group.sh - sourced by guest-init.sh (PID 1) in a guest of
# a group (scripts/lab/run-group.sh: LAB_NODE=K of LAB_NODES=N). Not for
# direct use.
#
# Makes this guest "node-K" of a small fabric:
#   rail 0: rxe0 on eth0, 198.18.4.K/24   (node-K in /etc/hosts)
#   rail 1: rxe1 on eth1, 198.18.5.K/24   (node-K-r1 in /etc/hosts)
# each eth on a qemu multicast hub that all N guests share (two separate
# L2 links, nothing leaves the host's loopback); host name node-K; sshd
# (the host's /etc/ssh host keys, root logs in with the group's key) for
# mpirun's rsh agent. The group folder LAB_GROUP (LAB_OUT/.lab-group, made
# by run-group.sh: id_ed25519, authorized_keys) gets "ready.K" once sshd
# runs; node-1 waits (RDMABENCH_LAB_GROUP_WAIT s, default 240) for every
# node's before its command starts.
# Exports: LAB_NODE LAB_NODES LAB_HOSTS (node-[1-N]) LAB_GROUP LAB_DEVICES
#   LAB_RXE_DEV/_IP/_NETDEV (rail 0), LAB_RAIL1_DEV/_IP/_NETDEV (rail 1),
#   OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1 and OMPI_MCA_oob_tcp_if_include
#   (mpirun's daemons talk over rail 0).
# Uses guest-init.sh's nap, note, warn (bash builtins where it can).
# shellcheck shell=bash

LAB_GROUP=$LAB_OUT/.lab-group
modprobe -a virtio_net rdma_rxe || warn "modprobe virtio_net rdma_rxe failed"
for ((i = 0; i < 100; i++)); do
    [ -e /sys/class/net/eth0 ] && [ -e /sys/class/net/eth1 ] && break
    nap 0.05
done
gcmds="link set eth0 mtu $LAB_MTU up"$'\n'"addr add 198.18.4.$LAB_NODE/24 dev eth0"$'\n'
gcmds+="link set eth1 mtu $LAB_MTU up"$'\n'"addr add 198.18.5.$LAB_NODE/24 dev eth1"$'\n'
ip -b - <<< "$gcmds" || warn "ip -b failed: $gcmds"
rdma --force -b - <<< $'link add rxe0 type rxe netdev eth0\nlink add rxe1 type rxe netdev eth1\n' ||
    warn "rdma link add rxe0/rxe1 failed"
LAB_DEVICES=
for dev in rxe0 rxe1; do
    st=
    for ((i = 0; i < 100; i++)); do
        { read -r st < /sys/class/infiniband/$dev/ports/1/state; } 2>/dev/null || st=
        [ "$st" = "4: ACTIVE" ] && break
        nap 0.05
    done
    if [ "$st" = "4: ACTIVE" ]; then LAB_DEVICES+="${LAB_DEVICES:+ }$dev"
    else warn "$dev port state '${st:-missing}'"; fi
done
echo "node-$LAB_NODE" > /proc/sys/kernel/hostname
for ((i = 1; i <= LAB_NODES; i++)); do
    printf '198.18.4.%d node-%d\n198.18.5.%d node-%d-r1\n' "$i" "$i" "$i" "$i"
done >> /etc/hosts

# sshd for mpirun's rsh agent: root with the group's key, no PAM, no DNS
mkdir -p /run/sshd /root/.ssh
printf 'Host *\n  IdentityFile %s/id_ed25519\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n  BatchMode yes\n' \
    "$LAB_GROUP" > /root/.ssh/config
/usr/sbin/sshd -o PermitRootLogin=prohibit-password -o UsePAM=no -o UseDNS=no \
    -o StrictModes=no -o "AuthorizedKeysFile=$LAB_GROUP/authorized_keys" ||
    warn "sshd did not start"
: > "$LAB_GROUP/ready.$LAB_NODE"
if [ "$LAB_NODE" = 1 ]; then
    for ((i = 2, t = 0; i <= LAB_NODES && t < ${RDMABENCH_LAB_GROUP_WAIT:-240} * 5; t++)); do
        if [ -e "$LAB_GROUP/ready.$i" ]; then i=$((i + 1)); else nap 0.2; fi
    done
    [ "$i" -gt "$LAB_NODES" ] || warn "node-$i not ready after ${RDMABENCH_LAB_GROUP_WAIT:-240} s"
fi
export LAB_NODE LAB_NODES LAB_HOSTS="node-[1-$LAB_NODES]" LAB_GROUP
export LAB_RXE_DEV=rxe0 LAB_RXE_IP=198.18.4.$LAB_NODE LAB_RXE_NETDEV=eth0
export LAB_RAIL1_DEV=rxe1 LAB_RAIL1_IP=198.18.5.$LAB_NODE LAB_RAIL1_NETDEV=eth1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_oob_tcp_if_include=198.18.4.0/24
up; note "node-$LAB_NODE of $LAB_NODES: ${LAB_DEVICES:-no devices}, sshd (up $UP)"
