#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/nulldev/test_nulldev_budget.sh - a congestion budget on a real run
# (issue 29): ib_write_bw on the null device (tests/nulldev/, a stand-in
# NIC with no pause, CNP or ECN counters, as rxe) with --expect-max-pause
# and --expect-max-cnp: the budgets cannot be judged, so the run fails its
# gates (exit 3) and says why in text, JSON and JUnit; a bad budget is a
# usage error (exit 2) before any run. The arithmetic over counters that
# move is tests/report/test_gate_budget.c's.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/nulldev/prologue.sh
trap 'rm -rf "$NULLDEV_SYS"' EXIT
tests/nulldev/nulldev-run.sh -b "$B" true || exit $?
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
port=$((23000 + $$ % 1000)) # its own range: see test_nulldev.sh
j=$NULLDEV_SYS/run.json x=$NULLDEV_SYS/run.xml
out=$(tests/nulldev/pair.sh -b "$B" -p $port -t 60 "$B/ib_write_bw" -s 65536 -n 200 \
	--oob tcp --expect-max-pause 100/s --expect-max-cnp 5/GB --json "$j" --junit "$x" 2>&1)
rc=$?
[ $rc = 3 ] || fail "pair: exit $rc, want 3"
why="--expect-max-pause 100/s: unknown, cannot be judged: no ethtool rx/tx_pause_ctrl_phy, rx/tx_pause_frames, rx/tx_prioN_pause on this port"
grep -qF "gate failed: $why" <<< "$out" || fail "text: no '$why'"
grep -qF "cannot be judged: no hw_counters np_cnp_sent, rp_cnp_handled" "$x" || fail "JUnit: no cnp sentence"
python3 - "$j" "$why" <<'PY' || fail "JSON"
import json, sys
d = json.load(open(sys.argv[1]))
g = {x["name"]: x for x in d["gates"]}
assert d["exit_code"] == 3 and d["verdict"] == "fail", (d["exit_code"], d["verdict"])
assert g["pause_budget"]["verdict"] == "fail" and g["pause_budget"]["figure"] is None
assert g["pause_budget"]["reason"] == sys.argv[2], g["pause_budget"]["reason"]
assert g["cnp_budget"]["unit"] == "CNPs/GB" and g["cnp_budget"]["expected"] == 5
assert d["software"]["kernel"], d["software"]
PY
out=$("$B/ib_write_bw" --expect-max-ecn 5 127.0.0.1 2>&1)
rc=$?
[ $rc = 2 ] || fail "--expect-max-ecn 5: exit $rc, want 2"
grep -qF "expect-max-ecn 5: a budget is N/s (events per second) or N/GB (per GB moved)" <<< "$out" ||
	fail "--expect-max-ecn 5: $out"
[ $failed = 0 ] || { printf "%s\n" "$out" | tail -15; exit 1; }
echo "ok: budgets on nulldev0: unknown counters fail (exit 3), a bad budget exit 2"
