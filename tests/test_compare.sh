#!/bin/bash
# tests/test_compare.sh - scripts/compare.py on the golden result files of
# tests/test_results.c: the table (figures and percentages of 200/400 Gb/s
# and of the recorded line rate), the PNG and SVG plots, and exit 2 with a
# message on bad input. Skipped (77) without Debian's python3-matplotlib.
set -u
cd "$(dirname "$0")/.." || exit 1
G=tests/golden
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }

py=
for p in /usr/bin/python3 python3; do
	if command -v "$p" >/dev/null 2>&1 &&
		"$p" -c 'import matplotlib' 2>/dev/null; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "python3-matplotlib not installed (apt-get install" \
		"python3-matplotlib)"
	exit 77
fi

# a folder of results, as a CI job would collect them
mkdir "$tmp/in"
cp "$G"/results_bw.json "$G"/results_lat.json "$G"/results_sweep.json \
	"$G"/results_error.json "$tmp/in/"
"$py" scripts/compare.py --out "$tmp/plots" "$tmp/in" > "$tmp/out.txt" 2>&1 ||
	{ cat "$tmp/out.txt"; fail "compare.py on a folder exited $?"; }

expect_line() { # REGEX: a line of the output must match
	grep -Eq -- "$1" "$tmp/out.txt" || fail "no line matching '$1'"
}
# 192.05 Gb/s is 96.0% of 200, 48.0% of 400, 99.0% of the 193.9 line rate
expect_line '^ +65536 +192\.05 +191\.32 +96\.0 +48\.0 +99\.0$'
expect_line '%200G +%400G +%line\(193\.9\)'
expect_line '^ +2 +1\.710 +2\.050 +1\.700 +2\.010$'
expect_line '^ +8388608 +191\.85 '
expect_line 'gate failed: size 8388608: 191\.85 Gb/s < expected 195\.00'
expect_line '^ +2 +0\.02 +- '	# the server's figures never came
expect_line 'verdict error'

for f in bandwidth.png bandwidth.svg latency.png latency.svg; do
	[ -s "$tmp/plots/$f" ] || fail "$f not written"
done
head -c 8 "$tmp/plots/bandwidth.png" | od -An -c | grep -q 'P   N   G' ||
	fail "bandwidth.png is not a PNG"
grep -q '<svg' "$tmp/plots/bandwidth.svg" || fail "bandwidth.svg is not SVG"
grep -q '400 Gb/s' "$tmp/plots/bandwidth.svg" ||
	fail "bandwidth.svg lacks the 400 Gb/s expectation line"

# bad input: exit 2 and a message naming the problem
echo '{"schema_version": 99, "results": []}' > "$tmp/v99.json"
echo 'not json' > "$tmp/bad.json"
for args in "$tmp/missing.json" "$tmp/bad.json" "$tmp/v99.json" \
	"$G/results_json_escape.json" "--expect 0 $G/results_bw.json"; do
	# shellcheck disable=SC2086
	"$py" scripts/compare.py $args > "$tmp/err.txt" 2>&1
	rc=$?
	[ "$rc" -eq 2 ] || fail "compare.py $args: exit $rc, want 2"
	grep -q '^compare.py: ' "$tmp/err.txt" ||
		fail "compare.py $args: no message: $(cat "$tmp/err.txt")"
done

if [ "$failed" -ne 0 ]; then
	sed 's/^/    /' "$tmp/out.txt"
	echo "compare: $failed failed"
	exit 1
fi
echo "compare: table, 4 plots and 5 bad inputs checked"
