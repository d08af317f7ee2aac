# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/rnr.sh - sourced by tests/lab/all.sh in the lab guest:
# a send test never makes its sender wait for receives (issue 13, item 9).
# ib_send_bw at 2 B, 64 B and 4 KiB, with the default depths, -t 512 and
# -q 4: rxe's port counters of receiver-not-ready NAKs (send_rnr_err: NAKs
# sent, rcvd_rnr_err: NAKs received, retry_rnr_exceeded_err) must not move.
# Retransmissions (a packet lost in the emulator, not the receiver's doing)
# are shown beside them, not failed on.
# shellcheck shell=bash

RNR_CTRS=(send_rnr_err rcvd_rnr_err retry_rnr_exceeded_err)
RNR_SHOWN=(duplicate_request out_of_seq_request rcvd_seq_err
	completer_retry_err retry_exceeded_err)

# _rnr_read DEV ARRAY: ARRAY[name]=value for every counter above
# shellcheck disable=SC2034 # "into" is a nameref: the caller's array
_rnr_read() {
	local -n into=$2
	local c v
	for c in "${RNR_CTRS[@]}" "${RNR_SHOWN[@]}"; do
		v=0
		read -r v < "/sys/class/infiniband/$1/ports/1/hw_counters/$c" 2>/dev/null
		into["$c"]=$v
	done
}

# rnr_pair DEV IP PORT ARGS...: one ib_send_bw pair; prints each counter's
# change, then "rnr: none" when no RNR counter moved
rnr_pair() {
	local dev=$1 ip=$2 port=$3 pid rc c moved=0
	local -A before after
	shift 3
	_rnr_read "$dev" before
	timeout 60 "$B/ib_send_bw" -p "$port" > "$LAB_LOGDIR/rnr.$port.server.log" 2>&1 &
	pid=$!
	timeout 60 "$B/ib_send_bw" -p "$port" "$ip" "$@"
	rc=$?
	wait "$pid" || rc=1
	_rnr_read "$dev" after
	for c in "${RNR_CTRS[@]}" "${RNR_SHOWN[@]}"; do
		echo "rnr: $c +$((after[$c] - before[$c]))"
	done
	for c in "${RNR_CTRS[@]}"; do
		((after[$c] != before[$c])) && moved=1
	done
	((moved)) || echo "rnr: none"
	return "$rc"
}

if ! lab_have rxe; then
	lab_skip rnr "no rxe0 came up in this guest"
elif [ ! -r "/sys/class/infiniband/$LAB_RXE_DEV/ports/1/hw_counters/send_rnr_err" ]; then
	lab_skip rnr "$LAB_RXE_DEV has no send_rnr_err counter"
else
	rnr_port=18720
	for rnr_size in 2 64 4096; do
		for rnr_mode in default t512 q4; do
			case $rnr_mode in
			default) rnr_args=() ;;
			t512) rnr_args=(-t 512) ;;
			q4) rnr_args=(-q 4) ;;
			esac
			lab_case "rnr.send_bw.$rnr_size.$rnr_mode" -t 120 \
				-e 'rnr: none' -e "$rnr_size[[:space:]]+[0-9]+[[:space:]]+$NUM[[:space:]]+$NUM[[:space:]]+$NUM" \
				rnr_pair "$LAB_RXE_DEV" "$LAB_RXE_IP" "$rnr_port" \
				-s "$rnr_size" -n 5000 "${rnr_args[@]}"
			rnr_port=$((rnr_port + 1))
		done
	done
fi
