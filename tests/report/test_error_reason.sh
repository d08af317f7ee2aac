#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/report/test_error_reason.sh - the reason a person reads is the reason a
# machine reads (issue #24): for an unresolvable server name, a bad
# --netdev and a refused gate, the sentence the bench printed on
# stderr ("NAME: error: SENTENCE") is the JSON "error",
# the JUnit message and the verdict line, with the errno kept apart
# ("errno", "errno_name"); and the --summary file carries it too. Each
# run fails before any RDMA traffic, so no device is needed.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 n=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }

py=
for p in /usr/bin/python3 python3; do
	command -v "$p" > /dev/null 2>&1 && { py=$p; break; }
done
[ -n "$py" ] || { echo "python3 not installed"; exit 77; }

# case NAME RC ERRNO_NAME TOOL ARGS...: run it; the first error line's
# sentence must be the JSON error, the JUnit message, the verdict line's
# and the summary's; the exit code RC; errno_name ERRNO_NAME.
case_() {
	local name=$1 rc=$2 ename=$3 tool=$4 got; shift 4
	n=$((n + 1))
	"$B/$tool" "$@" --json "$tmp/r.json" --junit "$tmp/r.xml" \
		--summary "$tmp/s.json" > "$tmp/out" 2> "$tmp/err"
	got=$?
	[ "$got" = "$rc" ] || fail "$name: exit $got, want $rc: $(cat "$tmp/err")"
	"$py" - "$tmp" "$tool" "$ename" <<'EOF' || fail "$name: see above"
import json, sys, xml.etree.ElementTree as ET
tmp, tool, ename = sys.argv[1:]
err = open(tmp + "/err").read().splitlines()
pre = tool + ": error: "
lines = [l[len(pre):] for l in err if l.startswith(pre)]
bad = 0
def no(what):
    global bad
    print(what)
    bad += 1
if not lines:
    no("no error line on stderr: " + repr(err))
    sys.exit(1)
why = lines[0]
doc = json.load(open(tmp + "/r.json"))
if doc["error"] != why:
    no(f"JSON error {doc['error']!r}\n  is not the printed {why!r}")
if doc["errno_name"] != ename:
    no(f"errno_name {doc['errno_name']!r}, want {ename!r}")
if ename and not isinstance(doc["errno"], int):
    no(f"errno {doc['errno']!r} is no number")
msgs = [e.get("message") for e in ET.parse(tmp + "/r.xml").iter()
        if e.tag in ("error", "failure")]
if why not in msgs:
    no(f"JUnit messages {msgs!r}\n  lack {why!r}")
verdict = [l for l in err if l.startswith(tool + ": verdict: ")]
if verdict and verdict[-1] != f"{tool}: verdict: error ({why})":
    no(f"verdict line {verdict[-1]!r}\n  does not hold {why!r}")
s = json.load(open(tmp + "/s.json"))
if s.get("error") != why or s.get("verdict") != "error":
    no(f"summary {s!r}\n  lacks the verdict or {why!r}")
sys.exit(1 if bad else 0)
EOF
}

case_ unresolvable 5 EHOSTUNREACH ib_write_bw rdmabench-nosuch.invalid \
	--connect-timeout 1
case_ netdev 2 EINVAL ib_write_bw 127.0.0.1 --netdev rdmabench_nosuch0
case_ gate 2 EINVAL ib_write_lat 127.0.0.1 --expect-gbps 5

[ $failed = 0 ] || exit 1
echo "error_reason: $n cases: the printed sentence is the JSON error, the JUnit message, the verdict and the summary"
