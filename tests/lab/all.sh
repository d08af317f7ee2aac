#!/bin/bash
# tests/lab/all.sh - lab tests, in the lab guest: sources each case file
# tests/lab/cases/*.sh (each defines and runs its cases with the harness,
# without a summary), then prints "lab: N passed, N failed, N skipped";
# every case is also a TAP line in $LAB_OUT/lab-logs/results.tap.
#
# Usage (on the host):  scripts/lab/run.sh tests/lab/all.sh [FILE...]
#   FILE: names of files in tests/lab/cases/ without .sh (default: all).
# tests/run-lab.sh (make lab) runs this in its boots. Environment:
#   RDMABENCH_BUILD        the build folder (default build)
#   RDMABENCH_LAB_EXCLUDE  case files to leave out (e.g. those another
#                          boot runs)
#   RDMABENCH_LAB_CLAIM    a folder that two guests share (inside both
#                          LAB_OUTs): a file runs in the guest that makes
#                          CLAIM/FILE first, so two guests given the same
#                          files share them out (run-lab.sh's main shards)
#   RDMABENCH_LAB_ONLY     patterns: only these cases. A pattern FILE runs
#                          that file whole; FILE/CASE or a name whose first
#                          part is a file (address.rxe.hostname) runs only
#                          that file's cases it selects; any other pattern
#                          (write_bw.rxe, *hostname*) is tried in every
#                          file. Selection rules: tests/lab/harness.sh.
#   RDMABENCH_LAB_SKIP     patterns of cases left out (harness.sh).
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}

if [ "${LAB_GUEST:-}" != 1 ]; then
	lab_skip lab "not in the lab guest: run scripts/lab/run.sh $0"
	lab_summary
fi

# shared patterns for the cases
NUM='[0-9]+\.[0-9]+'

files=()
for f in tests/lab/cases/*.sh; do
	f=${f##*/}
	files+=("${f%.sh}")
done
cases=("$@")
[ $# -gt 0 ] || cases=("${files[@]}")
read -r -a only <<< "${RDMABENCH_LAB_ONLY:-}"

# lab_select FILE: 0 if FILE is to be sourced; sets _LAB_ONLY for it
lab_select() {
	local f=$1 p head whole=0 pats=()
	[ ${#only[@]} -gt 0 ] || { _LAB_ONLY=; return 0; }
	for p in "${only[@]}"; do
		head=${p%%/*}
		if [ "$p" = "$f" ]; then whole=1
		elif [ "$head" != "$p" ]; then [ "$head" = "$f" ] && pats+=("${p#*/}")
		else
			head=${p%%.*}
			if [ "$head" = "$f" ] || [[ " ${files[*]} " != *" $head "* ]]; then
				pats+=("$p")
			fi
		fi
	done
	[ $whole = 1 ] && { _LAB_ONLY=; return 0; }
	[ ${#pats[@]} -gt 0 ] || return 1
	_LAB_ONLY=${pats[*]}
}

for c in "${cases[@]}"; do
	if [[ " ${RDMABENCH_LAB_EXCLUDE:-} " == *" $c "* ]] || ! lab_select "$c"; then
		continue
	fi
	# shared out: the guest whose mkdir makes the claim runs the file
	if [ -n "${RDMABENCH_LAB_CLAIM:-}" ] && ! mkdir "$RDMABENCH_LAB_CLAIM/$c" 2> /dev/null; then
		continue
	fi
	echo "=== lab cases: $c${_LAB_ONLY:+ (only $_LAB_ONLY)} ==="
	t0=$SECONDS
	lab_mark
	# shellcheck source=/dev/null
	source "tests/lab/cases/$c.sh"
	echo "=== lab cases: $c: $((SECONDS - t0)) s ==="
done
lab_summary
