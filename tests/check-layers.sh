#!/bin/bash
# tests/check-layers.sh [ROOT] - the layer rule of docs/architecture.md:
#   1. a file includes project headers only from its own folder or from the
#      folders its folder may use (the table below): never up a layer;
#   2. the pure folders reach no verbs, rdma_cm or CUDA header, directly or
#      through a project header (gcc -M);
#   3. a room's context header (NAME_ctx.h, the state its backends share,
#      as run/session/session_ctx.h) is included only from its own
#      folder: the link's flow in run/, or another room, never sees a
#      backend's state (run/ctx.h, the run's own, is every room's).
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
	[common/run]="lib host spec report rdma xfer gpu run/session run/rails"
	[common/run/session]="lib host spec rdma run"
	[common/run/rails]="lib host spec report run"
	[doctor]="lib host spec doctor"
	[doctor/live]="lib host spec rdma doctor"
	[fabric]="lib spec doctor"
	[fabric/live]="lib host spec report rdma fabric doctor"
	[bench]="run doctor spec fabric/live"
)
PURE="common/lib common/host common/spec common/report fabric doctor"
FORBIDDEN='infiniband/|rdma/|cuda'
bad=0 files=0

# Rule 1, one grep over every folder: "FILE:LINE:#include "x/y.h"".
dirs=()
for dir in "${!MAY[@]}"; do
	for f in "$dir"/*.[ch]; do
		[ -f "$f" ] && files=$((files + 1))
	done
	dirs+=("$dir"/*.[ch])
done
while IFS=: read -r f line text; do
	[ -f "$f" ] || continue
	dir=${f%/*}
	inc=${text#*\"}
	inc=${inc%%\"*}
	# the folder it names: gpu/, doctor/ (+live/), fabric/ (+live/) or
	# common/x/
	case $inc in
	gpu/* | doctor/* | fabric/*) to=${inc%/*} ;;
	*) to=common/${inc%/*} ;;
	esac
	# Rule 3: another folder's context header
	case ${inc##*/} in
	*_ctx.h)
		if [ "$to" != "$dir" ]; then
			echo "layer-check: $f:$line includes \"$inc\": the context header of $to's backends, which only its own files may" >&2
			bad=1
		fi
		;;
	esac
	[ "$to" = "$dir" ] && continue
	ok=0
	for m in ${MAY[$dir]}; do
		[ "${to#common/}" = "$m" ] && ok=1
	done
	if [ "$ok" -eq 0 ]; then
		echo "layer-check: $f:$line includes \"$inc\": $dir may use only: ${MAY[$dir]:-nothing}" >&2
		bad=1
	fi
done < <(grep -Hn '^#include "[a-z]*/' "${dirs[@]}" 2>/dev/null)

# Rule 2, one gcc -M per pure folder: a rule's first prerequisite is the
# file itself, the rest is everything it reaches.
for dir in $PURE; do
	set -- "$dir"/*.[ch]
	[ -f "$1" ] || continue
	for f in $(gcc -std=gnu11 -Icommon -I. -M "$@" 2>/dev/null |
		awk -v re="$FORBIDDEN" '
		/^[^ ].*:/ { cur = $2 }
		$0 ~ re && !seen[cur]++ { print cur }'); do
		echo "layer-check: $f (pure folder $dir) reaches a verbs/rdma_cm/CUDA header" >&2
		bad=1
	done
done

[ "$bad" -eq 0 ] && echo "layer-check: $files files, no upward include, pure folders clean, context headers private"
exit "$bad"
