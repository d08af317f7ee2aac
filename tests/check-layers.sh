#!/bin/bash
# tests/check-layers.sh [ROOT] - the layer rule of docs/architecture.md:
#   1. a file includes project headers only from its own folder or from the
#      folders its folder may use (the table below): never up a layer;
#   2. the pure folders reach no verbs, rdma_cm or CUDA header, directly or
#      through a project header (gcc -M).
# ROOT defaults to the source tree (a test plants violations in a copy).
# Prints "layer-check: ..." and exits 1 on any violation.
set -u
ROOT=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$ROOT" || exit 1

# folder: the folders it may include from (besides itself)
declare -A MAY=(
	[common/lib]=""
	[common/host]="lib"
	[common/spec]="lib host"
	[gpu]="lib host"
	[common/report]="lib host spec"
	[common/rdma]="lib host spec gpu"
	[common/xfer]="lib host spec rdma"
	[common/run]="lib host spec report rdma xfer gpu run"
	[doctor]="lib host spec doctor"
	[doctor/live]="lib host spec rdma doctor"
	[bench]="run doctor spec"
)
PURE="common/lib common/host common/spec common/report doctor"
FORBIDDEN='infiniband/|rdma/|cuda'
bad=0 files=0

# the include folder a "x/y.h" names: common/x, or x for gpu/doctor
folder_of() {
	case $1 in
	gpu/* | doctor/live/* | doctor/*) dirname "$1" ;;
	*) echo "common/$(dirname "$1")" ;;
	esac
}

short() { # common/lib -> lib (the spelling of the MAY table)
	echo "${1#common/}"
}

for dir in "${!MAY[@]}"; do
	for f in "$dir"/*.[ch]; do
		[ -f "$f" ] || continue
		files=$((files + 1))
		while IFS=: read -r line inc; do
			to=$(folder_of "$inc")
			[ "$to" = "$dir" ] && continue
			ok=0
			for m in ${MAY[$dir]}; do
				[ "$(short "$to")" = "$m" ] && ok=1
			done
			if [ "$ok" -eq 0 ]; then
				echo "layer-check: $f:$line includes \"$inc\": $dir may use only: ${MAY[$dir]:-nothing}" >&2
				bad=1
			fi
		done < <(grep -n '^#include "[a-z]*/' "$f" |
			sed 's/^\([0-9]*\):#include "\([^"]*\)".*/\1:\2/')
	done
done

for dir in $PURE; do
	for f in "$dir"/*.[ch]; do
		[ -f "$f" ] || continue
		if gcc -std=gnu11 -Icommon -I. -M "$f" 2>/dev/null |
			grep -qE "$FORBIDDEN"; then
			echo "layer-check: $f (pure folder $dir) reaches a verbs/rdma_cm/CUDA header" >&2
			bad=1
		fi
	done
done

[ "$bad" -eq 0 ] && echo "layer-check: $files files, no upward include, pure folders clean"
exit "$bad"
