#!/bin/bash
# tests/mk/test_man.sh - the man pages of `make man` ($RDMABENCH_BUILD/man):
# one per tool plus ib_doctor, ib_fabric and rdmabench(7), each renders
# with groff -man -Tutf8 -ww and man --warnings (lintian's) without a
# warning, through man -l, and a tool's page has its options by group
# (ib_doctor's and ib_fabric's too: theirs come from their option rows). Skipped (77) without groff (groff-base).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}
M=$B/man
failed=0 checked=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }

if ! command -v groff >/dev/null 2>&1; then
	echo "groff not installed (apt-get install groff-base man-db)"
	exit 77
fi
for t in ib_write_bw ib_write_lat ib_read_bw ib_read_lat ib_send_bw \
	ib_send_lat ib_atomic_bw ib_atomic_lat ib_doctor ib_fabric rdmabench; do
	page=$M/$t.1
	[ "$t" = rdmabench ] && page=$M/rdmabench.7
	checked=$((checked + 1))
	if [ ! -s "$page" ]; then
		fail "$page missing (make man)"
		continue
	fi
	warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	[ -z "$warn" ] || fail "$page: groff warns: $warn"
	if command -v man >/dev/null 2>&1; then
		text=$(MANWIDTH=80 man -l "$page" 2>&1 | sed 's/.\x08//g')
		grep -q '^NAME' <<<"$text" || fail "$page: man -l shows no NAME"
		grep -q "$t" <<<"$text" || fail "$page: man -l lacks $t"
		# what lintian runs on a packaged page
		warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings \
			-E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
		[ -z "$warn" ] || fail "$page: man --warnings: $warn"
	fi
done
text=$(MANWIDTH=80 man -l "$M/ib_write_bw.1" 2>/dev/null | sed 's/.\x08//g')
for want in '^   Connection' '^   Gates' '^   Server' '^EXAMPLES' \
	'--report_gbits' '-c, --connection=<RC/UC>' '^EXIT STATUS'; do
	grep -q -e "$want" <<<"$text" || fail "ib_write_bw.1 lacks '$want'"
done
text=$(MANWIDTH=80 man -l "$M/ib_atomic_lat.1" 2>/dev/null | sed 's/.\x08//g')
for bad in '--report_gbits' '--tx-depth' 'RC/UC'; do
	grep -q -e "$bad" <<<"$text" && fail "ib_atomic_lat.1 lists '$bad'"
done
# ib_doctor and ib_fabric: pages from their option rows, not --help text
for t in ib_doctor ib_fabric; do
	text=$(MANWIDTH=80 man -l "$M/$t.1" 2>/dev/null | sed 's/.\x08//g')
	for want in '^SYNOPSIS' '^OPTIONS' '^   Help' '--version' '^EXAMPLES' \
		'^EXIT STATUS'; do
		grep -q -e "$want" <<<"$text" || fail "$t.1 lacks '$want'"
	done
done
text=$(MANWIDTH=80 man -l "$M/ib_fabric.1" 2>/dev/null | sed 's/.\x08//g')
for want in '^   Nodes' '--pattern' '--dry-run' '--barrier-port'; do
	grep -q -e "$want" <<<"$text" || fail "ib_fabric.1 lacks '$want'"
done
echo "man: $checked pages, $failed failed"
[ "$failed" -eq 0 ]
