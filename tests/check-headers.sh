#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/check-headers.sh [BUILD] - every header under common/*/ (and a
# room of theirs, common/*/*/), gpu/, doctor/ and fabric/ (+live)
# compiles on its own: a file that includes only it passes gcc
# -fsyntax-only with the project's include path and warnings (the
# Makefile's WARN, from make or `make print-warn`, plus -Werror), so no
# header leans on what its includer happened to include first. Every
# header there and in tests/ also has the include guard its path names:
# RDMABENCH_ and the path below the repository (common/ left out) in
# capitals, each / and . an _ (common/run/session/session_ctx.h:
# RDMABENCH_RUN_SESSION_SESSION_CTX_H), so a moved header cannot keep
# its old name. BUILD (default build) holds the scratch files. Prints
# "hdr-check: ..." and exits 1 on any header that does not compile alone
# or whose guard is not its path's.
set -u
B=${1:-build}
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-gcc}
WARN="${WARN:-$(make -s --no-print-directory print-warn)} -Werror"
tmp="$B/hdr-check"
mkdir -p "$tmp" || exit 1
bad=0 n=0 g=0

# guard_check HEADER: its first #ifndef and the #define after it name
# its path
guard_check() {
	local p=${1#common/} got
	p=${p%.h}
	p=RDMABENCH_${p^^}
	p=${p//[\/.-]/_}_H
	got=$(awk '/^#ifndef / { i = $2 }
		/^#define / && i { print (i == $2 ? i : i " / " $2); exit }' "$1")
	g=$((g + 1))
	[ "$got" = "$p" ] && return 0
	echo "hdr-check: $1: its include guard is ${got:-none}, its path names $p" >&2
	bad=1
}

for h in tests/*.h tests/*/*.h; do
	[ -f "$h" ] && guard_check "$h"
done
for h in common/*/*.h common/*/*/*.h gpu/*.h doctor/*.h doctor/live/*.h \
	fabric/*.h fabric/live/*.h; do
	[ -f "$h" ] || continue
	n=$((n + 1))
	guard_check "$h"
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
[ "$bad" -eq 0 ] &&
	echo "hdr-check: $n headers, each compiles alone; $g guards named after their paths"
exit "$bad"
