# tests/lab/cases/report.sh - sourced by tests/lab/all.sh in the lab guest:
# perftest's reporting and direction options (issue 26), a few seconds
# each on rxe: -W (the named port counters after each row, perftest's
# "\tNAME=CHANGE" lines and an empty line; rxe has hw_counters only).
# shellcheck shell=bash

REP_ROW="[[:space:]][0-9]+ +100 +$NUM"

if ! lab_have rxe; then
	lab_skip report "no rxe0 came up in this guest"
else
	# 100 x 64 KiB at MTU 1024: 6400 data packets from the client, and
	# the server's acks (one rxe0 carries both sides: each side's
	# counters count both); the client's JSON keeps them too
	pkts='=(6[4-9][0-9][0-9]|[7-9][0-9][0-9][0-9]|1[0-9][0-9][0-9][0-9])'
	lab_pair report.W.rxe -t 60 \
		-e "$REP_ROW" -e $'\n\thw_counters/sent_pkts'"$pkts"$'\n' \
		-e $'\n\thw_counters/rcvd_pkts'"$pkts"$'\n\n' \
		-e '"report_counters": \{' \
		-e '"hw_counters/sent_pkts": [0-9]{4}' \
		-E $'\n\thw_counters/rcvd_pkts'"$pkts"$'\n\n-{80}' \
		"$B/ib_write_bw" -W hw_counters/rcvd_pkts -- \
		"$B/ib_write_bw" "$LAB_RXE_IP" -n 100 --json - \
		-W hw_counters/sent_pkts,hw_counters/rcvd_pkts
	# a name the port has not: said before any traffic, with where the
	# names come from
	lab_pair report.W_unknown.rxe -t 60 -r 2 -R 5 \
		-e "-W: rxe0 port 1 has no counter 'counters/port_xmit_data': the names are the files under /sys/class/infiniband/rxe0/ports/1/counters/ and hw_counters/, comma separated \(this port's: hw_counters/" \
		"$B/ib_write_bw" -- \
		"$B/ib_write_bw" "$LAB_RXE_IP" -n 100 \
		-W hw_counters/sent_pkts,counters/port_xmit_data
fi
