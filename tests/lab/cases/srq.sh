# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/srq.sh - sourced by tests/lab/all.sh in the lab guest:
# --use-srq on ib_send_bw and ib_send_lat (issue 26). On rxe: ours against
# our server with two QPs sharing one SRQ per side (the header says so),
# then perftest's own pair with --use-srq in the same guest, and both
# bandwidth figures side by side. Iterations are scaled for TCG.
# shellcheck shell=bash

SRQ_ON="Using SRQ +: ON: one shared receive queue for the 2 QP"
SRQ_BW_ROW="[[:space:]]65536 +400 +$NUM"
SRQ_LAT_ROW="[[:space:]]2 +50([[:space:]]+$NUM){7}"
SRQ_ROW="[[:space:]][0-9]+ +[0-9]+ +$NUM"

if lab_have rxe; then
	# the client's --use-srq travels: the server builds its SRQ too
	lab_pair srq.ours.ib_send_bw.rxe -t 60 -e "$SRQ_BW_ROW" -e "$SRQ_ON" \
		-E "Using SRQ +: ON" \
		"$B/ib_send_bw" -p 18661 -- \
		"$B/ib_send_bw" -p 18661 --use-srq -q 2 -n 200 "$LAB_RXE_IP"
	lab_pair srq.ours.ib_send_lat.rxe -t 60 -e "$SRQ_LAT_ROW" \
		-e "Using SRQ +: ON" \
		"$B/ib_send_lat" -p 18662 --use-srq -- \
		"$B/ib_send_lat" -p 18662 --use-srq -n 50 "$LAB_RXE_IP"
	# perftest's pair on rxe ends now and then with "Unable to read to
	# socket" after its row (its own sync, not the SRQ): retried
	srq_pt=(-d "$LAB_RXE_DEV" -x "$LAB_RXE_GID" --use-srq -q 2 -n 200)
	lab_pair srq.perftest.ib_send_bw.rxe --retries 2 -t 60 --delay 2 \
		-e "$SRQ_ROW" -e "Using SRQ +: ON" \
		ib_send_bw "${srq_pt[@]}" -p 18663 -- \
		ib_send_bw "${srq_pt[@]}" -p 18663 "$LAB_RXE_IP"
	if lab_wants srq.side_by_side.ib_send_bw.rxe; then
		ours=$(awk '$1 == 65536 && $2 == 400 { print $4 }' \
			"$LAB_LOGDIR/srq.ours.ib_send_bw.rxe.client.log")
		theirs=$(awk '$1 == 65536 && $2 == 400 { print $4 }' \
			"$LAB_LOGDIR/srq.perftest.ib_send_bw.rxe.client.log")
		if [ -n "$ours" ] && [ -n "$theirs" ]; then
			lab_pass srq.side_by_side.ib_send_bw.rxe \
				"65536 B, -q 2 -n 200 (400 messages), one SRQ: ours $ours MiB/s, perftest $theirs MB/s"
		else
			lab_fail srq.side_by_side.ib_send_bw.rxe \
				"no row: ours '$ours', perftest's '$theirs'"
		fi
	fi
	# a message of either QP lands in either QP's slot: --validate
	# cannot tell its pattern, so the pair is refused before it starts
	lab_case srq.validate_refused -r 2 \
		-e 'use-srq with --validate and -q 2 or more' \
		"$B/ib_send_bw" --use-srq --validate -q 2 localhost
fi
