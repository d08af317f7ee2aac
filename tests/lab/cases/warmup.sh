# tests/lab/cases/warmup.sh - sourced by tests/lab/all.sh in the lab guest:
# what perftest accepts, measured (issue 26). --perform_warm_up with -n on
# the bandwidth tools and on the latency tools: a warm-up pass of each
# size first, said in the header on both sides, and the rows count the -n
# measured, not the pass. Flags that change nothing for rdmabench run,
# with a header line saying so. Iterations are scaled for TCG.
# shellcheck shell=bash

WARM_ROW="[[:space:]][0-9]+ +100 +$NUM"
WARM_LAT_ROW="2 +200([[:space:]]+$NUM){7}"
WARM_HEAD=" Warm-up +: [0-9]+ iterations of each size first, not measured"

for p in rxe siw; do
	if ! lab_have $p; then
		lab_skip "warmup.$p" "no ${p}0 came up in this guest"
		continue
	fi
	ipvar=LAB_${p^^}_IP ip=${!ipvar}
	for t in write read send atomic; do
		[ $p = siw ] && [ $t = atomic ] && continue # siw: no atomics
		lab_pair "warmup.ib_${t}_bw.$p" -t 120 \
			-e "$WARM_ROW" -e "$WARM_HEAD" \
			-E "$WARM_ROW" -E "$WARM_HEAD" \
			"$B/ib_${t}_bw" -- \
			"$B/ib_${t}_bw" "$ip" -n 100 --perform_warm_up
	done
	# read: the server is passive (no row), its header says the pass
	lab_pair "warmup.ib_read_lat.$p" -t 120 \
		-e "$WARM_LAT_ROW" -e "$WARM_HEAD" -E "$WARM_HEAD" \
		"$B/ib_read_lat" -- \
		"$B/ib_read_lat" "$ip" -n 200 --perform_warm_up
	lab_pair "warmup.ib_write_lat.$p" -t 120 \
		-e "$WARM_LAT_ROW" -e "$WARM_HEAD" -E "$WARM_HEAD" \
		"$B/ib_write_lat" -- \
		"$B/ib_write_lat" "$ip" -n 200 --perform_warm_up
done

if lab_have rxe; then
	lab_pair warmup.no_effect.rxe -t 120 -e "$WARM_ROW" \
		-e " Changes nothing : --flows, --flows_burst \(perftest takes and ignores them on this tool too\); --dont_xchg_versions \(the HELLO" \
		"$B/ib_write_bw" -- \
		"$B/ib_write_bw" "$LAB_RXE_IP" -n 100 --dont_xchg_versions \
		--flows 2 --flows_burst 4
	# what perftest takes and ignores: bandwidth options on a latency
	# tool, other tools' options, -l 1; the server's -Z and -j
	ign=" Changes nothing : "
	tool="\(perftest takes and ignores them on this tool too\)"
	lab_pair warmup.ignored_lat.rxe -t 120 -e "$WARM_LAT_ROW" \
		-e "$ign-t/--tx-depth, -Q/--cq-mod, --report_gbits, --tcp" \
		-e ", -P/--client $tool; -l/--post_list \(a latency sample" \
		-E "$ign-Z/--server $tool; -j/--source_ip \(the server" \
		"$B/ib_write_lat" -Z -j "$LAB_RXE_IP" -- \
		"$B/ib_write_lat" "$LAB_RXE_IP" -n 200 -t 64 -Q 8 \
		--report_gbits --tcp -P -l 1
	# our rules perftest has not: --report-both without -b, -f without
	# -D, an MTU that is not one (the port's, as perftest's), -l 0, a
	# -p above 65535 (its low 16 bits: 70000 is 4464, both sides)
	lab_pair warmup.ignored_bw.rxe -t 120 -e "$WARM_ROW" \
		-e "$ign--report-both \(without -b there is one figure\); " \
		-e "; -f/--margin \(a margin is of a -D run\); -m/--mtu \(" \
		-e "; -l/--post_list 0 \(one WR a post, as -l 1\)" \
		-e "; -p/--port 70000 \(TCP port 4464: its low 16 bits" \
		-E "waiting for a client on port 4464 " \
		"$B/ib_write_bw" -p 70000 -- \
		"$B/ib_write_bw" "$LAB_RXE_IP" -n 100 --report-both -f 2 \
		-m 1000 -l 0 -p 70000
fi
