#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/check-headers.sh [BUILD] - every header under common/*/ (and a
# room of theirs, common/*/*/), gpu/, doctor/ and fabric/ (+live)
# compiles on its own: a file that includes only it passes gcc
# -fsyntax-only with the project's include path and warnings (the
# Makefile's WARN, from make or `make print-warn`, plus -Werror), so no
# header leans on what its includer happened to include first. BUILD
# (default build) holds the scratch files. Prints "hdr-check: ..." and
# exits 1 on the first header that does not compile alone.
set -u
B=${1:-build}
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-gcc}
WARN="${WARN:-$(make -s --no-print-directory print-warn)} -Werror"
tmp="$B/hdr-check"
mkdir -p "$tmp" || exit 1
bad=0 n=0
for h in common/*/*.h common/*/*/*.h gpu/*.h doctor/*.h doctor/live/*.h \
	fabric/*.h fabric/live/*.h; do
	[ -f "$h" ] || continue
	n=$((n + 1))
	inc=${h#common/}
	src="$tmp/$(echo "$inc" | tr / _).c"
	printf '#include "%s"\n' "$inc" > "$src"
	# shellcheck disable=SC2086 # WARN is a word list
	if ! out=$($CC -Icommon -I. $WARN -fsyntax-only "$src" 2>&1); then
		echo "hdr-check: $h does not compile alone:" >&2
		echo "$out" | sed 's/^/    /' >&2
		bad=1
	fi
done
[ "$bad" -eq 0 ] && echo "hdr-check: $n headers, each compiles alone"
exit "$bad"
