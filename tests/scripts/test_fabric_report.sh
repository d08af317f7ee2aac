#!/bin/bash
# tests/scripts/test_fabric_report.sh - scripts/fabric_report.py on
# planted runs:
#   pairs of 5 nodes, every link of node-04 below its gate: node-04 is the
#     suspect, "in all 4 bad links", a node-04 link the weakest, exit 3
#   ring of 4, node-02 -> node-03 slow but above its gate: the weakest
#     link, slow (exit 0), failed with --fail-slow (exit 3)
#   a missing result: an error link (exit 1)
#   fan-out with --rails documents: each link the rails' sum, a matrix per
#     rail, a series per rail
# and what it writes checked by the validators: fabric.json against
# results/schema/fabric-report-v1.schema.json (and mutants refused), every
# pattern's plan (ib_fabric --dry-run=json) against fabric-plan-v1, JUnit
# (xmllint, results/schema/junit.xsd and Jenkins' junit-10.xsd, vendored
# in tests/fixtures: one testcase per link, one more per rail, host and
# peer in the names), Prometheus
# (promtool: one series per link), the heat map (PNG and SVG); the files
# written by scripts/afile.py's rule, among planted symlinks.
# shellcheck disable=SC2015 # ok() never fails: "A && ok || fail" is an if
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${RDMABENCH_BUILD:-build}/ib_fabric
PY=/usr/bin/python3
[ -x "$BIN" ] || { echo "no $BIN (make first)"; exit 77; }
$PY -c 'import jsonschema' 2>/dev/null || { echo "python3-jsonschema not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 checks=0 skipped=()
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }

# plant DIR PATTERN HOSTS GBPS_OF: a plan and one document per link;
# GBPS_OF is a python expression of c, s (client, server) -> Gb/s
plant() {
	mkdir -p "$1"
	"$BIN" -P "$2" -H "$3" --dry-run=json > "$1/plan.json" || fail "plan $2"
	$PY - "$1" "$4" <<'PY' || fail "planting $1"
import json, os, subprocess, sys
d, expr = sys.argv[1], sys.argv[2]
for l in json.load(open(os.path.join(d, "plan.json")))["links"]:
    c, s = l["client"], l["server"]
    subprocess.run([sys.executable, "tests/fabric_plant.py", os.path.join(d, l["result_file"]),
                    c, f"{s}:{l['port']}", str(eval(expr)), "100" if "ring" in d else "180"],
                   check=True, stdout=subprocess.DEVNULL)
PY
}
report() { # WANT_RC DIR [OPTIONS]
	local want=$1 rc; shift
	$PY scripts/fabric_report.py "$@" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = "$want" ] && ok || { cat "$tmp/out"; fail "report $*: exit $rc, want $want"; }
}
has() { # TEXT FILE
	grep -qF -- "$1" "$2" && ok || { cat "$2"; fail "'$1' not in $2"; }
}

plant "$tmp/pairs" pairs 'node-[01-05]' '120 if "node-04" in (c, s) else 190'
report 3 "$tmp/pairs"
has "suspect: node-04 is in all 4 bad links" "$tmp/out"
has "weakest: node-01 -> node-04 stream 0: 120.00 Gb/s (size 65536: 120.00 Gb/s < expected 180.00 Gb/s)" "$tmp/out"
has "overall: fail (exit 3): 6 passed, 4 failed, 0 errors, 0 corrupt, 4 slow, of 10 links" "$tmp/out"

plant "$tmp/ring" ring 'node-[01-04]' '150 if (c, s) == ("node-02", "node-03") else 190'
report 0 "$tmp/ring"
has "weakest: node-02 -> node-03 stream 0: 150.00 Gb/s (slow)" "$tmp/out"
has "suspect: node-02 is in the one bad link" "$tmp/out"
report 3 "$tmp/ring" --fail-slow --out-dir "$tmp/ring-strict"
has "node-02 -> node-03      0    150.00  fail (slow)" "$tmp/out"

plant "$tmp/gone" incast 'a,b,c' '190'
rm "$tmp/gone/link_r000_c_a_s0.json"
report 1 "$tmp/gone"
has "c      -> a           0         -  error: no result: link_r000_c_a_s0.json is in none of the folders" "$tmp/out"
report 2 "$tmp/nowhere"

# the files are written by scripts/afile.py's rule (issue 25: temporary
# files once went through whatever symlink sat at their fixed names): a
# planted .fabric.*.tmp symlink is never followed, a symlink at a file's
# name is written through (in place), a regular file replaced whole, a
# folder refused (exit 2), and no temporary file stays behind
plant "$tmp/safe" ring 'node-[01-03]' '190'
echo victim > "$tmp/victim"
for n in txt json xml prom; do ln -s "$tmp/victim" "$tmp/safe/.fabric.$n.tmp"; done
echo old > "$tmp/linked.txt"
ln -s "$tmp/linked.txt" "$tmp/safe/fabric.txt"
report 0 "$tmp/safe"
[ "$(cat "$tmp/victim")" = victim ] && ok || fail "a planted temp symlink was followed"
[ -L "$tmp/safe/fabric.txt" ] && grep -q '^overall: pass' "$tmp/linked.txt" && ok ||
	fail "fabric.txt, a symlink: not written in place"
[ "$(stat -c %a "$tmp/safe/fabric.json")" = 644 ] && ok || fail "fabric.json: mode $(stat -c %a "$tmp/safe/fabric.json")"
left=$(find "$tmp/safe" -name '.fabric.*.tmp.*' -o -name '*.tmp' ! -type l)
[ -z "$left" ] && ok || fail "temporary files left: $left"
mkdir "$tmp/dirout" && mkdir "$tmp/dirout/fabric.json"
report 2 "$tmp/safe" --out-dir "$tmp/dirout"
has "fabric.json: a folder; give a file's name, or remove the folder" "$tmp/out"
rm -rf "$tmp/dirout"

# --rails links: the link is the rails' sum, a matrix per rail; node-03's
# rail 1 is the slow one
plant "$tmp/rails" fan-out 'node-[01-03]' '190'
$PY - "$tmp/rails" <<'PY' || fail "planting rails"
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/link_*.json"):
    d = json.load(open(f))
    slow = "node-03" in f
    d["schema_version"] = 3
    d["rails"] = [{"device": f"mlx5_{i}", "port": 18515 + i, "numa_node": i, "cpus": "0",
                   "bw_gbps": 40.0 if slow and i else 190.0, "verdict": "pass",
                   "exit_code": 0, "error": None, "gpu": None} for i in range(2)]
    json.dump(d, open(f, "w"))
PY
report 0 "$tmp/rails"
has "node-01 -> node-03      0    230.00  pass" "$tmp/out"
has "matrix of rail 1 (mlx5_1):" "$tmp/out"
has 'rdmabench_fabric_link_rail_bandwidth_bytes_per_second{pattern="fan-out",client="node-01",server="node-03",stream="0",rail="1",device="mlx5_1"} 5000000000.0' "$tmp/rails/fabric.prom"

# the validators
for p in pairs ring all-to-all bisection incast fan-out; do
	"$BIN" -P "$p" -H 'n[1-5]' -S 2 --dry-run=json -- -D 5 > "$tmp/plan-$p.json"
done
$PY - "$tmp" <<'PY' && ok || fail "json schemas"
import copy, glob, json, sys
import jsonschema
tmp = sys.argv[1]
bad = 0
def validator(name):
    s = json.load(open(f"results/schema/{name}"))
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)
rep, plan = validator("fabric-report-v1.schema.json"), validator("fabric-plan-v1.schema.json")
docs = [(rep, f) for f in glob.glob(tmp + "/*/fabric.json")] + \
       [(plan, f) for f in glob.glob(tmp + "/plan-*.json") + glob.glob(tmp + "/*/plan.json")]
for v, f in docs:
    for e in v.iter_errors(json.load(open(f))):
        print(f"{f}: {'/'.join(map(str, e.path))}: {e.message}")
        bad += 1
d = json.load(open(tmp + "/pairs/fabric.json"))
for name, mutate in {"unknown verdict": lambda d: d.update(verdict="maybe"),
                     "missing key": lambda d: d["links"][0].pop("gbps"),
                     "string figure": lambda d: d["links"][0].update(gbps="1"),
                     "extra key": lambda d: d["suspects"][0].update(why=1)}.items():
    m = copy.deepcopy(d)
    mutate(m)
    if rep.is_valid(m):
        print(f"report schema accepted {name}")
        bad += 1
print(f"{len(docs)} documents")
sys.exit(1 if bad or len(docs) < 14 else 0)
PY
if command -v xmllint > /dev/null; then
	for d in pairs ring ring-strict gone rails; do
		for x in results/schema/junit.xsd tests/fixtures/jenkins-junit-10.xsd; do
			xmllint --noout --schema "$x" "$tmp/$d/fabric.xml" 2> "$tmp/x.log" &&
				ok || { cat "$tmp/x.log"; fail "junit $d ($x)"; }
		done
	done
	# with --rails, a testcase per rail besides the link's
	[ "$(grep -c "<testcase " "$tmp/rails/fabric.xml")" = 6 ] && ok || fail "junit: a testcase per rail"
	has 'name="ib_write_bw.r0.s0.rail1.mlx5_1 (node-01 -&gt; node-03)"' "$tmp/rails/fabric.xml"
	[ "$(grep -c '<testcase ' "$tmp/pairs/fabric.xml")" = 10 ] && ok || fail "junit: one testcase per link"
	[ "$(grep -c '<failure ' "$tmp/pairs/fabric.xml")" = 4 ] && ok || fail "junit: 4 failures"
	has 'classname="rdmabench.fabric.incast.c" name="ib_write_bw.r0.s0 (c -&gt; a)" time="0.000"' "$tmp/gone/fabric.xml"
else
	skipped+=("junit (xmllint)")
fi
if command -v promtool > /dev/null; then
	for d in pairs ring gone; do
		promtool check metrics < "$tmp/$d/fabric.prom" > "$tmp/p.log" 2>&1 &&
			ok || { cat "$tmp/p.log"; fail "prom $d"; }
	done
	[ "$(grep -c '^rdmabench_fabric_link_bandwidth_bytes_per_second{' "$tmp/pairs/fabric.prom")" = 10 ] &&
		ok || fail "prom: one series per link"
	has 'rdmabench_fabric_link_passed{pattern="pairs",client="node-01",server="node-04",stream="0"} 0' "$tmp/pairs/fabric.prom"
else
	skipped+=("prom (promtool)")
fi
if $PY -c 'import matplotlib' 2>/dev/null; then
	[ "$(head -c 8 "$tmp/pairs/fabric.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] &&
		ok || fail "fabric.png is not a PNG"
	$PY -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/pairs/fabric.svg" &&
		ok || fail "fabric.svg does not parse"
	cp "$tmp/pairs/fabric.png" "${FABRIC_REPORT_KEEP:-/dev/null/x}" 2>/dev/null
else
	skipped+=("heat map (python3-matplotlib)")
fi

for s in "${skipped[@]}"; do echo "SKIPPED part: $s"; done
echo "test_fabric_report: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
