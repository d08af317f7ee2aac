#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/scripts/test_compare.sh - scripts/compare.py on the golden result
# files of tests/report/test_results.c: the table (figures and percentages
# of 200/400 Gb/s and of the recorded line rate), the PNG and SVG plots, an
# error document without device or rows, A B with a planted regression
# (exit 3, the ratio table, the plots of both runs) and without one (exit
# 0), and exit 2 with a message on bad input. Skipped (77) without Debian's
# python3-matplotlib.
set -u
cd "$(dirname "$0")/../.." || exit 1
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

# an error document from before the connection: no device, no rows
"$py" - "$G/results_error.json" "$tmp/early.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d.update(device={k: None for k in d["device"]}, results=[], exit_code=2,
         error="--expect-p99-us needs a latency test")
json.dump(d, open(sys.argv[2], "w"))
EOF
"$py" scripts/compare.py "$tmp/early.json" "$G/results_bw.json" \
	> "$tmp/out.txt" 2>&1
expect_line \
	'early\.json: ib_write_bw client on node-a: verdict error \(exit 2\)$'
expect_line '^  no size measured$'
expect_line '^  error: --expect-p99-us needs a latency test$'
grep -q None "$tmp/out.txt" && fail "an error document prints None"

# A B: PLANT SRC DST KEY FACTOR LO-HI: DST is SRC with KEY of both sides
# times FACTOR at the sizes from LO to HI
plant() {
	"$py" - "$@" <<'EOF'
import json, sys
src, dst, key, factor, sizes = sys.argv[1:6]
lo, hi = (int(x) for x in sizes.split("-"))
d = json.load(open(src))
for r in d["results"]:
    for side in ("client", "server"):
        s = r.get(side) or {}
        for where in (s, s.get("latency") or {}):
            if lo <= r["size_bytes"] <= hi and where.get(key) is not None:
                where[key] *= float(factor)
json.dump(d, open(dst, "w"))
EOF
}
ab() { # WANT_RC NAME ARGS...: compare.py A B exits WANT_RC
	local want=$1 name=$2 rc
	shift 2
	"$py" scripts/compare.py --expect none "$@" > "$tmp/out.txt" 2>&1
	rc=$?
	[ "$rc" -eq "$want" ] ||
		{ cat "$tmp/out.txt"; fail "$name: exit $rc, want $want"; }
}
plant "$G/results_sweep.json" "$tmp/b_bw.json" bw_gbps 0.8 65536-1048576
ab 3 "bandwidth -20% at 64K..1M" --out "$tmp/ab" \
	"$G/results_sweep.json" "$tmp/b_bw.json"
expect_line '^ +65536 +174\.2 +139\.3 +0\.800 +-20\.0  REGRESSION$'
expect_line '^ +32768 +159\.4 +159\.4 +1\.000 +\+0\.0  ok$'
expect_line '^B vs A: 5 size\(s\) regressed past 5%$'
for f in bandwidth.png change.png; do
	head -c 8 "$tmp/ab/$f" 2>/dev/null | od -An -c | grep -q 'P   N   G' ||
		fail "A B: $f is not a PNG"
done
for ab in A B; do
	grep -q "$ab: ib_write_bw" "$tmp/ab/bandwidth.svg" ||
		fail "A B: bandwidth.svg lacks the legend of $ab"
done
ab 0 "the same drop under --max-drop 25%" --max-drop 25% \
	"$G/results_sweep.json" "$tmp/b_bw.json"
ab 0 "A against itself" "$G/results_sweep.json" "$G/results_sweep.json"
plant "$G/results_lat.json" "$tmp/b_lat.json" p50_us 1.2 2-2
ab 3 "latency p50 +20%" "$G/results_lat.json" "$tmp/b_lat.json"
expect_line '^ +2 +1\.71 +2\.052 +1\.200 +-20\.0  REGRESSION$'
plant "$G/results_lat.json" "$tmp/b_lat.json" p50_us 1.03 2-2
ab 0 "latency p50 +3%" "$G/results_lat.json" "$tmp/b_lat.json"
ab 3 "B is an error document" "$G/results_sweep.json" "$G/results_error.json"
expect_line 'REGRESSION \(B lacks it\)$'

# a folder read recursively, as "scripts/compare.py results/" is written:
# runs in subfolders, and JSON that is no result (a schema) left out, said
mkdir -p "$tmp/tree/run1/node-a" "$tmp/tree/schema"
cp "$G"/results_bw.json "$tmp/tree/run1/node-a/"
cp "$G"/results_lat.json "$tmp/tree/run1/"
cp results/schema/rdmabench-result-v1.schema.json "$tmp/tree/schema/"
"$py" scripts/compare.py "$tmp/tree" > "$tmp/out.txt" 2>&1 ||
	fail "compare.py on a tree of folders exited $?"
expect_line 'run1/node-a/results_bw\.json: ib_write_bw'
expect_line 'run1/results_lat\.json: '
expect_line 'left out 1 JSON file\(s\) that are not rdmabench results'
# A B with no test in common (a write bandwidth run, a latency run): exit 2
ab 2 "A B sharing no test" "$G/results_bw.json" "$G/results_lat.json"
expect_line '^compare.py: .* share no test to compare \(A holds ib_write_bw'

# bad input: exit 2 and a message naming the problem
echo '{"schema_version": 99, "results": []}' > "$tmp/v99.json"
echo 'not json' > "$tmp/bad.json"
mkdir "$tmp/noresult" && cp results/schema/junit.xsd \
	results/schema/fabric-plan-v1.schema.json "$tmp/noresult/"
for args in "$tmp/missing.json" "$tmp/bad.json" "$tmp/v99.json" "$tmp/noresult" \
	"$G/results_json_escape.json" "--expect 0 $G/results_bw.json" \
	"--max-drop 120% $G/results_bw.json"; do
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
echo "compare: table, 4 plots, an error document, a tree of folders," \
	"8 A B and 7 bad inputs checked"
