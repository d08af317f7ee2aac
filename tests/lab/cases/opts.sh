# tests/lab/cases/opts.sh - sourced by tests/lab/all.sh in the lab guest:
# the forgiving command line on real verbs (rxe): the other spelling of a
# long option and a unique prefix run the test; a typo, an ambiguous
# prefix and ib_doctor --version get their answers.
# shellcheck shell=bash

OPTS_NUM='[0-9]+\.[0-9]+'
if lab_have rxe; then
	# --report-gbits (perftest spells --report_gbits), --tx_depth
	# (--tx-depth), --iter (a prefix of --iters)
	lab_pair opts.spellings.rxe -t 120 \
		-e "65536 +200 +$OPTS_NUM +$OPTS_NUM" \
		-e 'BW average\[Gb/sec\]' \
		"$B/ib_write_bw" -- "$B/ib_write_bw" "$LAB_RXE_IP" \
		--report-gbits --tx_depth 64 --iter 200
	lab_pair opts.lat_prefix.rxe -t 120 \
		-e "2 +100([[:space:]]+$OPTS_NUM){7}" \
		"$B/ib_send_lat" -- "$B/ib_send_lat" "$LAB_RXE_IP" --iter=100 \
		--connect_timeout 30
else
	lab_skip opts.rxe "no rxe0 came up in this guest"
fi

lab_case opts.typo -r 2 -e "did you mean --report_gbits\?" \
	"$B/ib_write_bw" --reprot_gbits
lab_case opts.ambiguous -r 2 \
	-e "ambiguous option '--expect': could be --expect-gbps" \
	"$B/ib_write_bw" --expect 5 198.18.0.1
lab_case opts.doctor_version -e "^ib_doctor \(rdmabench\) " \
	"$B/ib_doctor" --version
