#!/bin/bash
# tests/lab/selftest.sh - checks the lab itself with stock tools: both RDMA
# devices are up, and perftest's ib_write_bw over rdma_cm (-R) works on each,
# with rdma_cm picking the device from the address the client connects to
# (198.18.0.1 -> rxe0, 198.18.1.1 -> siw0).  Also a worked example of
# tests/lab/harness.sh.
#
# Usage (on the host):  scripts/lab/run.sh tests/lab/selftest.sh
# Last line: "lab: N passed, N failed, N skipped"; exit status 1 if any failed.
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

if [ "${LAB_GUEST:-}" != 1 ]; then
    lab_skip selftest "not in the lab guest: run scripts/lab/run.sh $0"
    lab_summary
fi

# every device that should exist is listed and ACTIVE
devre=
for p in rxe siw; do
    if lab_have $p; then dev=LAB_${p^^}_DEV; devre+="hca_id:[[:space:]]+${!dev}.*"; fi
done
lab_case ibv_devinfo -e "${devre}PORT_ACTIVE" -n 'PORT_DOWN' ibv_devinfo

# bytes sent by rxe0 (hw counter), to tell which device carried a test
rxe_pkts() {
    RXE_PKTS=0
    { read -r RXE_PKTS < "/sys/class/infiniband/${LAB_RXE_DEV:-rxe0}/ports/1/hw_counters/sent_pkts"; } 2>/dev/null
}

# perftest: 64 KiB x 100 is ~0.2 s of TCG time.  Its server is not listening
# at once, and its client gives up at the first refusal: --retry.
BW=(ib_write_bw -R -F --report_gbits -s 65536 -n 100)
for p in rxe siw; do
    if ! lab_have $p; then lab_skip "write_bw_$p" "no ${p}0 in this guest"; continue; fi
    ipvar=LAB_${p^^}_IP; ip=${!ipvar}
    rxe_pkts; before=$RXE_PKTS
    lab_pair "write_bw_$p" --retry 30 -t 60 -e 'BW average' -E 'BW average' \
        "${BW[@]}" -- "${BW[@]}" "$ip"
    rxe_pkts; sent=$((RXE_PKTS - before))
    # which device did rdma_cm pick?  perftest prints the GIDs in decimal:
    # rxe's is the RoCE v2 GID ::ffff:198.18.0.1, siw's is made from its MAC.
    gid='GID: 00:00:00:00:00:00:00:00:00:00:255:255:198:18:00:01'
    if [ $p = rxe ]; then
        lab_assert "write_bw_rxe.used_rxe0" "$gid" "$LAB_CLIENT_OUT"
        [ "$sent" -gt 0 ] && lab_pass "write_bw_rxe.rxe0_counters" "$sent packets" \
                          || lab_fail "write_bw_rxe.rxe0_counters" "rxe0 sent_pkts did not move"
    else
        lab_assert_not "write_bw_siw.used_siw0" "255:255:198:18" "$LAB_CLIENT_OUT"
        [ "$sent" = 0 ] && lab_pass "write_bw_siw.rxe0_idle" \
                        || lab_fail "write_bw_siw.rxe0_idle" "rxe0 sent $sent packets during the siw test"
    fi
done

lab_summary
