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
		-e " Changes nothing : --dont_xchg_versions \(.*\); --flows/" \
		"$B/ib_write_bw" -- \
		"$B/ib_write_bw" "$LAB_RXE_IP" -n 100 --dont_xchg_versions \
		--flows 2 --flows_burst 4
fi
