# tests/lab/cases/outputs.sh - sourced by tests/lab/all.sh in the lab guest:
# perftest's outputs where perftest's flags ask for them (issue 13). Each
# of the eight tools runs in every output mode (default, -a, -D, -b,
# -b --report-both, -q 2, --report_gbits, --output=..., --out_json) as
# tests/golden/perftest/capture.sh ran perftest for the golden files
# there; both are read by the same field rules (tests/tools/
# perftest_shape.py: column names, row field counts, bare numbers, [B]
# markers, JSON keys, the classes of the last five lines of stdout and the
# row before the last (issue 26); -b: the same sum row on both sides) and
# must agree.
# About 5 minutes under TCG.
# shellcheck shell=bash

OUTPUTS_DIR=${LAB_OUT:-/tmp}/outputs-lab
rm -rf "$OUTPUTS_DIR"

if ! lab_have rxe; then
	lab_skip outputs "no rxe0 came up in this guest"
elif ! command -v python3 >/dev/null; then
	lab_skip outputs "python3 not installed"
else
	# all eight tools; RDMABENCH_LAB_OUTPUTS_TOOLS="write_bw ..." picks
	# fewer while developing
	tools=${RDMABENCH_LAB_OUTPUTS_TOOLS:-write_bw read_bw send_bw atomic_bw
	       write_lat read_lat send_lat atomic_lat}
	for tool in $tools; do
		lab_case "outputs.$tool.run" -t 600 \
			env CAPTURE_OUT="$OUTPUTS_DIR" CAPTURE_START_S=0.2 \
			tests/golden/perftest/capture.sh ours "$tool"
	done
	# one comparison for all (python's start-up costs seconds under TCG);
	# its lines name the tool and mode of each difference
	lab_case outputs.shape -t 120 -e "shape: [0-9]+ same, 0 differ" \
		python3 tests/tools/perftest_shape.py compare \
		tests/golden/perftest "$OUTPUTS_DIR/ours" $tools
fi
