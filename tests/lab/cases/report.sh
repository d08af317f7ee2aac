# tests/lab/cases/report.sh - sourced by tests/lab/all.sh in the lab guest:
# perftest's reporting and direction options (issue 26), a few seconds
# each on rxe: -W (the named port counters after each row, perftest's
# "\tNAME=CHANGE" lines and an empty line; rxe has hw_counters only), -C
# (latency in CPU cycles: the guest under TCG has no invariant TSC, so
# the rate is /proc/cpuinfo's, and the header says so), --reversed (the
# server sends: its row is the sender's, with a peak; the client's is
# what arrived, with the server's figure on a note line).
# shellcheck shell=bash

REP_ROW="[[:space:]][0-9]+ +100 +$NUM"
REP_LAT_ROW="2 +200([[:space:]]+$NUM){7}"

# -C: the row's t_typical (cycles) over the JSON's p50_us (the same
# median, in usec) is the header's rate
rep_cycles_ratio() { # CLIENT_OUTPUT
	local mhz typ p50
	mhz=$(grep -oE 'Cycles +: .* at [0-9.]+ MHz' <<<"$1" |
		grep -oE '[0-9.]+ MHz' | cut -d' ' -f1)
	typ=$(awk '$1 == "2" && NF == 9 { print $5 }' <<<"$1")
	p50=$(grep -m1 -oE '"p50_us": [0-9.]+' <<<"$1" | cut -d' ' -f2)
	awk -v m="$mhz" -v t="$typ" -v p="$p50" 'BEGIN {
		if (!(m > 0 && p > 0)) { print "no rate or no p50"; exit 1 }
		r = t / p / m
		printf "t_typical %s cycles / p50 %s us = %.1f a us; " \
			"rate %s MHz: ratio %.4f\n", t, p, t / p, m, r
		exit !(r > 0.99 && r < 1.01) }'
}

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
	# -C on ib_write_lat: cycles on both sides, the header's rate and
	# how it was had; the figures are the usec ones at that rate
	lab_pair report.C.rxe -t 60 \
		-e "$REP_LAT_ROW" -e " Cycles +: -C: figures in CPU cycles" \
		-e "MHz, /proc/cpuinfo's cpu MHz \(perftest's source\): this CPU has no invariant TSC" \
		-E "$REP_LAT_ROW" -E " Cycles +: -C: figures in CPU cycles" \
		"$B/ib_write_lat" -C -- \
		"$B/ib_write_lat" "$LAB_RXE_IP" -n 200 -C --json -
	lab_case report.C_rate.rxe -t 10 -e "ratio 1\.00|ratio 0\.99" \
		rep_cycles_ratio "$LAB_CLIENT_OUT"
	# --reversed on both sides, as perftest wants it (ours: the client's
	# request decides); --validate checks every byte that arrived
	for t in write send; do
		lab_pair "report.reversed.ib_${t}_bw.rxe" -t 60 \
			-e "$REP_ROW" -e " Direction +: --reversed: the server sends" \
			-e " # server \(what it sent\): BW average\[MiB/sec\] $NUM" \
			-E "$REP_ROW" -E " Direction +: --reversed: the server sends" \
			"$B/ib_${t}_bw" --reversed -- \
			"$B/ib_${t}_bw" "$LAB_RXE_IP" -n 100 --reversed --validate
	done
fi
