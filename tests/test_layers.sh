#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/test_layers.sh - the checks of `make check` catch what they claim
# to: in a copy of the tree, tests/check-layers.sh passes on the clean
# copy and fails on (a) an include that points up a layer, (b) a verbs
# include in a pure folder and (c) a file of the link's flow (run/) that
# includes the session room's context header; tests/check-headers.sh
# fails on a header that does not compile alone and on one whose include
# guard is not its path's (a header that kept its name from before a
# move); tests/check-cycles.sh fails on two objects that call each other
# and passes on two that do not. Skipped (77) without gcc or python3.
set -u
cd "$(dirname "$0")/.." || exit 1
for t in gcc nm python3; do
	command -v "$t" >/dev/null 2>&1 || { echo "no $t"; exit 77; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# a fresh copy of the sources the checks read
copy() { # DIR
	mkdir -p "$1/tests" && cp -r common gpu doctor fabric bench "$1" &&
		cp tests/check-*.sh "$1/tests"
}

# expect RC WANT PATTERN CMD...: CMD exits WANT and prints PATTERN
expect() {
	local want=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want" ] || ! grep -q -- "$pat" <<<"$out"; then
		fail "$* exited $rc (want $want, output matching '$pat'):"
		sed 's/^/    /' <<<"$out"
	fi
}

copy "$tmp/clean"
expect 0 'no upward include' tests/check-layers.sh "$tmp/clean"

copy "$tmp/up"
sed -i '0,/^#include "/s||#include "run/ctx.h"\n&|' "$tmp/up/common/lib/units.c"
expect 1 'units.c:[0-9]* includes "run/ctx.h"' \
	tests/check-layers.sh "$tmp/up"

copy "$tmp/verbs"
sed -i '0,/^#include "/s||#include <infiniband/verbs.h>\n&|' \
	"$tmp/verbs/common/host/link.c"
expect 1 'link.c (pure folder common/host) reaches a verbs' \
	tests/check-layers.sh "$tmp/verbs"

copy "$tmp/ctx"
sed -i '0,/^#include "/s||#include "run/session/session_ctx.h"\n&|' \
	"$tmp/ctx/common/run/measure.c"
expect 1 'measure.c:[0-9]* includes "run/session/session_ctx.h": the context header' \
	tests/check-layers.sh "$tmp/ctx"

copy "$tmp/hdr"
printf '/* needs <stddef.h> and does not include it */\nsize_t planted(void);\n' \
	> "$tmp/hdr/common/lib/planted.h"
expect 1 'lib/planted.h does not compile alone' \
	"$tmp/hdr/tests/check-headers.sh" "$tmp/hdr-build"

copy "$tmp/guard"
sed -i 's/RDMABENCH_LIB_UNITS_H/RDMABENCH_UNITS_H/' "$tmp/guard/common/lib/units.h"
expect 1 'lib/units.h: its include guard is RDMABENCH_UNITS_H, its path names' \
	"$tmp/guard/tests/check-headers.sh" "$tmp/guard-build"

# two files that call each other, then two that do not
mkdir "$tmp/cyc" "$tmp/nocyc"
printf 'int pong(int);\nint ping(int n);\nint ping(int n) { return n ? pong(n - 1) : 0; }\n' > "$tmp/ping.c"
printf 'int ping(int);\nint pong(int n);\nint pong(int n) { return n ? ping(n - 1) : 1; }\n' > "$tmp/pong.c"
printf 'int leaf(int n);\nint leaf(int n) { return n + 1; }\n' > "$tmp/leaf.c"
printf 'int leaf(int);\nint top(int n);\nint top(int n) { return leaf(n); }\n' > "$tmp/top.c"
for f in ping pong; do gcc -c "$tmp/$f.c" -o "$tmp/cyc/$f.o" || fail "cc $f"; done
for f in leaf top; do gcc -c "$tmp/$f.c" -o "$tmp/nocyc/$f.o" || fail "cc $f"; done
expect 1 'cycle: ping.c <-> pong.c' tests/check-cycles.sh "$tmp/cyc"
expect 1 'ping.c -> pong.c (pong)' tests/check-cycles.sh "$tmp/cyc"
expect 0 '2 files, no cycle' tests/check-cycles.sh "$tmp/nocyc"

[ "$failed" -eq 0 ] || exit 1
echo "layer, header and cycle checks fail on planted violations (9 cases)"
