#!/bin/bash
# tests/scripts/test_fabric_fleet.sh - issue 29's fleet view and congestion
# budgets in scripts/fabric_report.py and scripts/fabric_fleet.py, over
# planted documents (tests/fabric_plant.py: stand-ins, no node ran; the
# budgets' arithmetic is tests/report/test_gate_budget.c's, a real run's
# gate the nulldev's):
#   ring of 5, node-04's firmware 28.40.1000 and node-03's ib_doctor
#     document with PFC off on net2: the report names both odd ones out
#     (exit 0: drift is named, not failed), fabric.json validates
#   incast of 4, node-03 -> node-01 at full bandwidth but over its pause
#     budget: the report names the link congested, exit 3, JUnit and
#     Prometheus say so
#   ib_fabric's dry-run: a budget after -- on both sides of each link
#   fabric_fleet.py alone over the doctor documents: exit 6 with the
#     sentence, exit 0 over agreeing ones, 2 over one node
# shellcheck disable=SC2015 # ok() never fails: "A && ok || fail" is an if
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${RDMABENCH_BUILD:-build}/ib_fabric
PY=/usr/bin/python3
[ -x "$BIN" ] || { echo "no $BIN (make first)"; exit 77; }
$PY -c 'import jsonschema' 2>/dev/null || { echo "python3-jsonschema not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 checks=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }

# plant DIR PATTERN HOSTS ARGS_OF: a plan and a document per link;
# ARGS_OF a python expression of c, s -> fabric_plant.py's extra arguments
plant() {
	mkdir -p "$1"
	"$BIN" -P "$2" -H "$3" --dry-run=json > "$1/plan.json" || fail "plan $2"
	$PY - "$1" "$4" <<'PY' || fail "planting $1"
import contextlib, io, json, os, sys
sys.path.insert(0, "tests")
import fabric_plant
d, expr = sys.argv[1], sys.argv[2]
for l in json.load(open(os.path.join(d, "plan.json")))["links"]:
    c, s = l["client"], l["server"]
    with contextlib.redirect_stdout(io.StringIO()):
        fabric_plant.main([os.path.join(d, l["result_file"]), c, f"{s}:{l['port']}", "190"]
                          + eval(expr))
        if "ring" in d:  # the fleet: each node's ib_doctor document too
            fabric_plant.main(["--doctor", os.path.join(d, f"doctor_{c}.json"), c]
                              + (["--pfc-off", "net2"] if c == "node-03" else []))
PY
}
run() { # WANT_RC OUT CMD...
	local want=$1 out=$2 rc; shift 2
	"$@" > "$out" 2>&1; rc=$?
	[ "$rc" = "$want" ] && ok || { cat "$out"; fail "$*: exit $rc, want $want"; }
}
has() { # TEXT FILE
	grep -qF -- "$1" "$2" && ok || { cat "$2"; fail "'$1' not in $2"; }
}
valid() { # DIR: fabric.json against the report's schema
	$PY - "$1/fabric.json" <<'PY' && ok || fail "$1/fabric.json: not valid"
import json, sys, jsonschema
s = json.load(open("results/schema/fabric-report-v1.schema.json"))
jsonschema.validate(json.load(open(sys.argv[1])), s)
PY
}

f=$tmp/ring
plant "$f" ring 'node-[01-05]' '["--firmware", "28.40.1000"] if c == "node-04" else []'
run 0 "$tmp/out" $PY scripts/fabric_report.py "$f"
has "fleet: 5 nodes, 5 with ib_doctor's findings: odd ones out: node-03, node-04" "$tmp/out"
has "  node-04: firmware 28.40.1000, the other 4: 28.39.1002" "$tmp/out"
has "  node-03: pfc net2 FAIL: PFC off on priority 3 of net2 (the other 4: not flagged)" "$tmp/out"
valid "$f"
$PY - "$f/fabric.json" <<'PY' && ok || fail "fleet section"
import json, sys
fl = json.load(open(sys.argv[1]))["fleet"]
assert fl["odd_nodes"] == ["node-03", "node-04"], fl["odd_nodes"]
v = fl["versions"][0]
assert (v["fact"], v["common"], v["odd"]) == ("firmware", "28.39.1002", ["node-04"]), v
assert fl["facts"]["rdma-core"]["node-05"] == "50.0"
assert [(x["node"], x["check"], x["subject"]) for x in fl["findings"]] == [("node-03", "pfc", "net2")]
PY

# the fleet alone: the doctor documents, then two that agree, then one
run 6 "$tmp/out" $PY scripts/fabric_fleet.py "$f"/doctor_*.json
has "node-03: pfc net2 FAIL: PFC off on priority 3 of net2 (the other 4: not flagged)" "$tmp/out"
run 0 "$tmp/out" $PY scripts/fabric_fleet.py "$f/doctor_node-01.json" "$f/doctor_node-02.json"
has "no odd ones out" "$tmp/out"
run 2 "$tmp/out" $PY scripts/fabric_fleet.py "$f/doctor_node-01.json"

# ib_fabric gives a budget after -- to both sides of every link
"$BIN" -P incast -H 'node-[01-03]' --dry-run -- --expect-max-pause 1000/s > "$tmp/out" 2>&1
[ "$(grep -c -- '--expect-max-pause 1000/s' "$tmp/out")" = 4 ] && ok || { cat "$tmp/out"; fail "dry-run: the budget not on both sides"; }

i=$tmp/incast
plant "$i" incast 'node-[01-04]' '["--pause", "5000" if c == "node-03" else "10"]'
run 3 "$tmp/out" $PY scripts/fabric_report.py "$i"
has "congested: node-03 -> node-01 stream 0: pause frames 5000.00/s > budget 1000/s (rx_pause_ctrl_phy+tx_pause_ctrl_phy: 11725 in 2.35 s, 1.641 GB) (its bandwidth passed)" "$tmp/out"
has "node-03 -> node-01      0    190.00  fail: pause frames 5000.00/s > budget 1000/s" "$tmp/out"
has "overall: fail (exit 3): 2 passed, 1 failed" "$tmp/out"
has 'rdmabench_fabric_link_budget_exceeded{pattern="incast",client="node-03",server="node-01",stream="0",gate="pause_budget"} 1' "$i/fabric.prom"
has 'failure message="190.00 Gb/s: pause frames 5000.00/s &gt; budget 1000/s' "$i/fabric.xml"
valid "$i"

echo "$checks checks, $failed failed"
[ "$failed" = 0 ]
