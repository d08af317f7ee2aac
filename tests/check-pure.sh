#!/bin/bash
# tests/check-pure.sh - the pure modules (common/pure.list) include no verbs,
# rdma_cm or CUDA header, directly or through a project header.
set -u
cd "$(dirname "$0")/.."
bad=0
for m in $(cat common/pure.list); do
	for f in common/$m.c common/$m.h; do
		[ -f "$f" ] || continue
		# preprocess: any header reached from the module counts
		if gcc -std=gnu11 -Icommon -M "$f" 2>/dev/null |
			grep -qE 'infiniband/|rdma/|cuda'; then
			echo "check-pure: $f reaches a verbs/rdma_cm/CUDA header" >&2
			bad=1
		fi
	done
done
[ "$bad" -eq 0 ] && echo "check-pure: $(wc -l < common/pure.list) pure modules, no verbs headers"
exit "$bad"
