# tests/lab/cases/loop.sh - sourced by tests/lab/all.sh in the lab guest:
# the data-loop options of perftest's that rdmabench now runs (issue 26),
# each measured once on rxe, short (-n small): -e (completion events, both
# sides sleep on a completion channel), --latency_gap (the client waits
# before each post: 100 x 2000 us makes the run last 0.2 s at least), -U
# (every sample in order, perftest's "#, usec" list, before the row),
# --cpu_util (-D 2: perftest's CPU_Util[%] column on both sides).
# shellcheck shell=bash

LOOP_BW_ROW="[[:space:]][0-9]+ +100 +$NUM"
LOOP_LAT_ROW="2 +100([[:space:]]+$NUM){7}"
LOOP_EVENTS=" Completions +: events: a completion channel"

if lab_have rxe; then
	lab_pair loop.events_bw.rxe -t 120 \
		-e "$LOOP_BW_ROW" -e "$LOOP_EVENTS" -E "$LOOP_EVENTS" \
		"$B/ib_send_bw" -e -- "$B/ib_send_bw" "$LAB_RXE_IP" -n 100 -e
	lab_pair loop.events_lat.rxe -t 120 \
		-e "$LOOP_LAT_ROW" -e "$LOOP_EVENTS" -E "$LOOP_EVENTS" \
		"$B/ib_send_lat" -- "$B/ib_send_lat" "$LAB_RXE_IP" -n 100 -e
	lab_pair loop.latency_gap.rxe -t 120 \
		-e "$LOOP_LAT_ROW" -e " Latency gap +: 2000 usec before each post" \
		"$B/ib_write_lat" -- "$B/ib_write_lat" "$LAB_RXE_IP" -n 100 \
		--latency_gap 2000
	# -U prints each sample with %g, as perftest: 26 us exactly is "26"
	lab_pair loop.unsorted.rxe -t 120 \
		-e "$LOOP_LAT_ROW" -e "#, usec" -e $'\n'"100, [0-9]+(\.[0-9]+)?" \
		-E "#, usec" -E $'\n'"99, [0-9]+(\.[0-9]+)?" \
		"$B/ib_send_lat" -U -- "$B/ib_send_lat" "$LAB_RXE_IP" -n 100 -U
	lab_pair loop.cpu_util.rxe -t 120 \
		-e "CPU_Util\\[%\\]" -e "65536 +[0-9]+ +$NUM +$NUM[[:space:]]+$NUM[[:space:]]+$NUM" \
		-E "CPU_Util\\[%\\]" \
		"$B/ib_write_bw" --cpu_util -- "$B/ib_write_bw" "$LAB_RXE_IP" -D 2 \
		--cpu_util
else
	lab_skip loop.rxe "no rxe0 came up in this guest"
fi
