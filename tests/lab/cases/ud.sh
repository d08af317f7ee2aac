# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/ud.sh - sourced by tests/lab/all.sh in the lab guest:
# -c UD on ib_send_bw and ib_send_lat (issue 26). On rxe: ours against
# our server at 2 B .. the MTU (-a stops at the MTU, saying so on stderr
# in perftest's words), then perftest's own pair at the MTU in the same
# guest; a last case records both figures at the MTU side by side. siw
# (iWARP) has no UD QPs: the run is refused, naming why. Iterations are
# scaled for TCG (bandwidth -n 100, latency -n 20: a few seconds each).
# shellcheck shell=bash

UD_BW_ROW="[[:space:]]2 +100 +$NUM"
UD_LAT_ROW="[[:space:]]2 +20([[:space:]]+$NUM){7}"
UD_CLAMP=" Max msg size in UD is MTU [0-9]+"
UD_CONN="Connection type +: UD"
UD_ROW="[[:space:]][0-9]+ +[0-9]+ +$NUM"

# ud_last_row LOG COL: "SIZE FIGURE" of LOG's last result row (COL: the
# figure's field: 4, BW average; 6, t_avg)
ud_last_row() {
	awk -v c="$2" '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9.]+$/ \
		{ r = $1 " " $c } END { print r }' "$1"
}

# ud_side_by_side NAME TOOL COL UNIT: both figures of TOOL's last row
# (the MTU), ours and perftest's, from the two pairs' client logs
ud_side_by_side() {
	local ours theirs
	lab_wants "$1" || return 0
	ours=$(ud_last_row "$LAB_LOGDIR/ud.ours.$2.rxe.client.log" "$3")
	theirs=$(ud_last_row "$LAB_LOGDIR/ud.perftest.$2.rxe.client.log" "$3")
	if [ -z "$ours" ] || [ -z "$theirs" ]; then
		lab_fail "$1" "no row: ours '$ours', perftest's '$theirs'"
		return
	fi
	lab_pass "$1" "at ${ours%% *} B: ours ${ours#* } $4, perftest ${theirs#* } $4"
}

if lab_have rxe; then
	# -R is taken, and changes nothing: UD's QPs go over TCP either way
	lab_pair ud.ours.ib_send_bw.rxe -t 60 -e "$UD_BW_ROW" -e "$UD_CONN" \
		-e "$UD_CLAMP" -e "Changes nothing +: -R with -c UD" \
		-E "$UD_CONN" \
		"$B/ib_send_bw" -p 18651 -c UD -- \
		"$B/ib_send_bw" -p 18651 -c UD -R -a -n 100 "$LAB_RXE_IP"
	lab_pair ud.ours.ib_send_lat.rxe -t 60 -e "$UD_LAT_ROW" -e "$UD_CONN" \
		-e "$UD_CLAMP" \
		"$B/ib_send_lat" -p 18652 -c UD -- \
		"$B/ib_send_lat" -p 18652 -c UD -a -n 20 "$LAB_RXE_IP"
	# perftest's own pair (/usr/bin) at the MTU (its default 64 KiB
	# becomes the MTU under UD, as ours): the test flags on both sides (perftest's server does
	# not take them from the client), its server needs a second to
	# listen, its client does not retry
	ud_pt=(-d "$LAB_RXE_DEV" -x "$LAB_RXE_GID" -c UD)
	lab_pair ud.perftest.ib_send_bw.rxe -t 60 --delay 2 \
		-e "$UD_ROW" -e "$UD_CONN" \
		ib_send_bw "${ud_pt[@]}" -n 100 -p 18653 -- \
		ib_send_bw "${ud_pt[@]}" -n 100 -p 18653 "$LAB_RXE_IP"
	lab_pair ud.perftest.ib_send_lat.rxe -t 60 --delay 2 \
		-e "$UD_ROW" -e "$UD_CONN" \
		ib_send_lat "${ud_pt[@]}" -n 20 -p 18654 -- \
		ib_send_lat "${ud_pt[@]}" -n 20 -p 18654 "$LAB_RXE_IP"
	ud_side_by_side ud.side_by_side.ib_send_bw.rxe ib_send_bw 4 MB/s
	ud_side_by_side ud.side_by_side.ib_send_lat.rxe ib_send_lat 6 "us (t_avg)"
	# UD is never acknowledged: a server serves it only when started
	# with -c UD, as perftest's
	lab_pair ud.refused_by_rc_server -t 30 -r 2 -R 2 \
		-e 'UD \(-c UD\): this server takes RC only; start it with -c UD' \
		"$B/ib_send_bw" -p 18655 -- \
		"$B/ib_send_bw" -p 18655 -c UD "$LAB_RXE_IP" -n 100
fi
if lab_have siw; then
	lab_case ud.siw_refused -r 2 \
		-e '-c UD: siw0 is iWARP, whose QPs connect through rdma_cm: iWARP has no UD QPs' \
		"$B/ib_send_bw" -c UD -d "$LAB_SIW_DEV" localhost
else
	lab_skip ud.siw_refused "no siw0 came up in this guest"
fi
