# tests/lab/cases/outputs.sh - sourced by tests/lab/all.sh in the lab guest:
# perftest's outputs where perftest's flags ask for them (issue 13). Each
# of the eight tools runs in every output mode (default, -a, -D, -b,
# --report_gbits, --output=..., --out_json) as tests/golden/perftest/
# capture.sh ran perftest for the golden files there; both are read by the
# same field rules (tests/tools/perftest_shape.py: column names, row field
# counts, bare numbers, [B] markers, JSON keys) and must agree.
# shellcheck shell=bash

OUTPUTS_DIR=${LAB_OUT:-/tmp}/outputs-lab
rm -rf "$OUTPUTS_DIR"

if ! lab_have rxe; then
	lab_skip outputs "no rxe0 came up in this guest"
elif ! command -v python3 >/dev/null; then
	lab_skip outputs "python3 not installed"
else
	# two tools by default (each takes ~1.5 min of TCG); all eight with
	# RDMABENCH_LAB_OUTPUTS_ALL=1 (the goldens of all eight are compared
	# offline by tests/test_perftest_shape.sh in make check)
	tools="write_bw write_lat"
	[ "${RDMABENCH_LAB_OUTPUTS_ALL:-0}" = 1 ] &&
		tools="write_bw read_bw send_bw atomic_bw write_lat read_lat
		       send_lat atomic_lat"
	for tool in $tools; do
		lab_case "outputs.$tool.run" -t 600 \
			env CAPTURE_OUT="$OUTPUTS_DIR" \
			tests/golden/perftest/capture.sh ours "$tool"
		lab_case "outputs.$tool" -t 60 -e "shape: [0-9]+ same, 0 differ" \
			python3 tests/tools/perftest_shape.py compare \
			tests/golden/perftest "$OUTPUTS_DIR/ours" "$tool"
	done
fi
