# tests/lab/cases/watch.sh - sourced by tests/lab/all.sh in the lab guest:
# ib_doctor --watch, the byte proof (issue 28), on real rxe0 counters.
# Both ends of each run are in this guest: rxe loops their packets back
# inside the driver, so rxe0/1's hw_counters see every packet twice, once
# sent (sent_pkts) and once received (rcvd_pkts), and rxe_if does not
# move. rxe has no byte counters: its bytes are packets x the active MTU
# (1024 here), said "estimated": the ACKs count as packets too (~2 %
# here), and so would retransmissions (they cross the port), so the runs
# take -u 20 (a 4 s ACK timeout: TCG's pace set perftest's 67 ms one off,
# resending ~2 % more). The proof: around perftest's and our ib_write_bw, rxe0/1's bytes
# are within 5 % of what the tool moved (size x iterations); around a TCP
# copy of the same size to rxe_if's address (a local address: lo carries
# it) rxe0/1 moved 0 bytes and the run fails (exit 7), naming lo.
# shellcheck shell=bash

WATCH_SIZE=65536 WATCH_ITERS=100 WATCH_U=20
WATCH_BYTES=$((WATCH_SIZE * WATCH_ITERS))

# watch_within NAME WHAT: rxe0/1's sent and received bytes in the client's
# output, each within 5 % of WATCH_BYTES
watch_within() {
	local re="watch_port +rxe0/1 +sent ([0-9]+) bytes \(estimated[^;]*, received ([0-9]+) bytes"
	local sent rcvd
	lab_wants "$1" || return 0
	if ! [[ $LAB_CLIENT_OUT =~ $re ]]; then
		lab_fail "$1" "no rxe0/1 bytes in the output"; return
	fi
	sent=${BASH_REMATCH[1]} rcvd=${BASH_REMATCH[2]}
	if (( sent * 100 >= WATCH_BYTES * 95 && sent * 100 <= WATCH_BYTES * 105 &&
	      rcvd * 100 >= WATCH_BYTES * 95 && rcvd * 100 <= WATCH_BYTES * 105 )); then
		lab_pass "$1" "$2 moved $WATCH_BYTES bytes: rxe0/1 sent $sent, received $rcvd"
	else
		lab_fail "$1" "$2 moved $WATCH_BYTES bytes: rxe0/1 sent $sent, received $rcvd (not within 5 %)"
	fi
}

WATCH_RDMA="PASS +11 +watch +bytes +the bytes took RDMA: [0-9]+ bytes crossed the RDMA ports \(rxe0/1 [0-9]+, estimated\)"

if ! lab_have rxe; then
	lab_skip watch "needs rxe0 in the guest"
else
	# perftest's: its client retried until its server listens
	lab_pair watch.perftest -t 120 --retry 20 -e "$WATCH_RDMA" \
		-e "PASS +11 +watch_cmd +command +'/usr/bin/ib_write_bw .*' exited 0" \
		/usr/bin/ib_write_bw -d "$LAB_RXE_DEV" -s $WATCH_SIZE -n $WATCH_ITERS \
		-u $WATCH_U -- \
		"$B/ib_doctor" --watch -- /usr/bin/ib_write_bw -d "$LAB_RXE_DEV" \
		-s $WATCH_SIZE -n $WATCH_ITERS -u $WATCH_U "$LAB_RXE_IP" &&
		watch_within watch.perftest.bytes "perftest's ib_write_bw"

	json=${LAB_OUT:-/tmp}/watch.json
	lab_pair watch.ours -t 120 -e "$WATCH_RDMA" \
		"$B/ib_write_bw" -d "$LAB_RXE_DEV" -u $WATCH_U -- \
		"$B/ib_doctor" --watch --json "$json" -- "$B/ib_write_bw" \
		-d "$LAB_RXE_DEV" -s $WATCH_SIZE -n $WATCH_ITERS -u $WATCH_U \
		"$LAB_RXE_IP" && watch_within watch.ours.bytes "our ib_write_bw"
	if lab_wants watch.ours.json; then
		IFS= read -r -d '' watch_json < "$json"
		lab_assert watch.ours.json '"check": "watch",[[:space:]]+"subject": "bytes",[[:space:]]+"verdict": "PASS",[[:space:]]+"detail": "the bytes took RDMA: ' \
			"${watch_json:-no $json}"
	fi

	# the same bytes over TCP to rxe_if's address: lo carries them
	lab_case watch.tcp -r 7 \
		-e "tcp copy: $WATCH_BYTES bytes to $LAB_RXE_IP" \
		-e "watch_port +rxe0/1 +sent 0 bytes \(estimated: 0 packets" \
		-e "FAIL +11 +watch +bytes +the command's bytes took TCP, not RDMA: [0-9]+ bytes crossed lo \(TCP interfaces [0-9]+ in all\), the RDMA ports 0" \
		-e "# [0-9]+ PASS, 0 WARN, 1 FAIL, [0-9]+ SKIP: exit 7" \
		"$B/ib_doctor" --watch -d "$LAB_RXE_DEV" -- tests/lab/tcp_copy.pl "$LAB_RXE_IP" $WATCH_BYTES
fi
