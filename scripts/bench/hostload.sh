#!/bin/bash
# scripts/bench/hostload.sh OUT.tsv MATCH - host-side sampler for
# scripts/bench-vs-perftest.sh: every 0.5 s, the time, procs_running, the
# host's busy CPU ticks (all CPUs) and the busy ticks of the qemu whose
# command line contains MATCH (the lab guest), so that the report can tell
# for each run how much CPU the OTHER work on the machine took meanwhile
# (the machine is shared; the guest's vCPUs need both cores).
# Runs until killed.
out=$1 match=$2 qpid="" busy="" line=""
printf 'time\tprocs_running\tbusy_ticks\tqemu_ticks\tncpu\tqemu_pid\n' > "$out"
ncpu=$(getconf _NPROCESSORS_ONLN)
exec {sfd}<> <(:)
while :; do
    if [ -z "$qpid" ] || [ ! -d "/proc/$qpid" ]; then
        qpid=""
        for p in /proc/[0-9]*; do
            [ -r "$p/cmdline" ] || continue
            read -r line < "$p/comm" 2>/dev/null || continue
            [[ $line == qemu-system* ]] || continue
            line=$(tr '\0' ' ' < "$p/cmdline" 2>/dev/null)
            [[ $line == *"$match"* ]] && { qpid=${p#/proc/}; break; }
        done
    fi
    read -r _ u n s i w irq sirq st _ < /proc/stat
    busy=$((u + n + s + irq + sirq + st))
    pr=0
    while read -r k v; do [ "$k" = procs_running ] && pr=$v; done < /proc/stat
    q=0
    if [ -n "$qpid" ] && read -r line < "/proc/$qpid/stat" 2>/dev/null; then
        line=${line##*) }; read -r -a f <<< "$line"; q=$((f[11] + f[12]))
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$EPOCHREALTIME" "$pr" "$busy" "$q" "$ncpu" "${qpid:-0}" >> "$out"
    read -r -t 0.5 -u "$sfd" _ || true
done
