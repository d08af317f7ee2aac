#!/bin/bash
# tests/scripts/test_fabric_html.sh - report.html (scripts/fabric_html.py,
# written by scripts/fabric_report.py) in a real browser, and the heat
# map's size and colours:
#   a planted 200-node ring (tests/fabric_plant.py: stand-in documents)
#     with node-017 -> node-018 at 310 Gb/s under a 380 Gb/s gate, the
#     other links 400: the page names FAIL first and node-017 -> node-018
#     as a bad link; the matrix is 200 x 200 cells of 4 px (not a
#     12000-pixel image); Debian's chromium headless (--dump-dom, the page
#     after its script ran) finds the failing link's cell and table row
#     marked fail (class, data-verdict) and the cell drawn red, never in
#     the passing greens; fabric.png stays within 1800 x 1800 pixels and
#     its failing cell is red.
#   a lab run's documents (tests/fixtures/lab-fabric-all-to-all: a
#     recorded stand-in, the plan and link documents of the lab's
#     fabric-slurm all-to-all over three rxe guests, 0.2.0~git516): the
#     page renders, one cell and one row per link, every one passing
#     (some slow: rxe's figures vary); a section the page does not know
#     (doctor findings per node) rendered as a table per node.
# Without chromium the browser checks are skipped (apt-get install
# chromium); without python3-matplotlib the heat map's. With
# FABRIC_HTML_SHOT=DIR the browser also writes DIR/ring200.png and
# DIR/lab.png (screenshots, to look at).
# shellcheck disable=SC2015 # ok() never fails: "A && ok || fail" is an if
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${RDMABENCH_BUILD:-build}/ib_fabric
PY=/usr/bin/python3
[ -x "$BIN" ] || { echo "no $BIN (make first)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 checks=0 skipped=()
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }

mkdir -p "$tmp/ring"
"$BIN" -P ring -H 'node-[001-200]' --dry-run=json > "$tmp/ring/plan.json" || fail "plan"
$PY - "$tmp/ring" <<'PY' && ok || fail "planting"
import sys
sys.path.insert(0, "tests")
import fabric_plant
fabric_plant.plant_plan(sys.argv[1], lambda c, s: 310 if c == "node-017" else 400, 380)
PY
$PY scripts/fabric_report.py "$tmp/ring" > "$tmp/ring.out" 2>&1
[ $? = 3 ] && ok || { cat "$tmp/ring.out"; fail "ring: exit, want 3"; }
$PY scripts/fabric_report.py tests/fixtures/lab-fabric-all-to-all --out-dir "$tmp/lab" \
	> "$tmp/lab.out" 2>&1 && ok || { cat "$tmp/lab.out"; fail "lab: exit, want 0"; }

# the page as written: what a reader without a browser sees
$PY - "$tmp" <<'PY' && ok || fail "the pages as written"
import re, sys
t = sys.argv[1]
bad = []
page = open(t + "/ring/report.html", encoding="utf-8").read()
if not re.search(r'id="summary" data-verdict="fail"><span class="verdict v-fail">FAIL', page):
    bad.append("ring: no FAIL summary first")
if page.index('id="summary"') > page.index('id="matrix"'):
    bad.append("ring: the verdict is not before the matrix")
if re.search(r'<(link|img|script)[^>]+(src|href)=', page):
    bad.append("ring: the page fetches something")
m = re.search(r'<svg id="matrix"[^>]* width="([0-9]+)"[^>]*data-nodes="200" data-cell="4"', page)
if not m or int(m.group(1)) > 1000:
    bad.append("ring: the matrix is not 200 nodes of 4 px within 1000 px")
cells = re.findall(r'<rect class="cell (\w+)"', page)
if len(cells) != 200 or cells.count("fail") != 1:
    bad.append(f"ring: {len(cells)} cells, {cells.count('fail')} failing; want 200, 1")
# a section the page does not know (doctor findings per node): a table
sys.path.insert(0, "scripts")
import json
import fabric_html
rep = json.load(open(t + "/lab/fabric.json", encoding="utf-8"))
rep["doctor"] = {"node-1": [{"check": "pfc", "status": "fail", "detail": "PFC off on priority 3"}]}
extra = fabric_html.render(rep)
if not re.search(r'<h2 id="sec-doctor">doctor</h2><ul><li><b>node-1</b>: <table[^>]*>.*'
                 r'<tr class="fail" data-verdict="fail"><td>pfc</td>', extra.replace("\n", "")):
    bad.append("a doctor section is not rendered as a table per node")
lab = open(t + "/lab/report.html", encoding="utf-8").read()
cells = re.findall(r'<rect class="cell (\w+)"', lab)
if len(cells) != 6 or set(cells) - {"pass", "slow"}:
    bad.append(f"lab: cells {cells}, want 6 passing (or slow: rxe's figures vary)")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# the DOM after the page's script ran, in Debian's chromium
dom() { # HTML OUT [SHOT]
	local args=(--headless --no-sandbox --disable-gpu --hide-scrollbars
		--user-data-dir="$tmp/profile" "--window-size=1280,1600")
	timeout 60 chromium "${args[@]}" --dump-dom "file://$1" > "$2" 2> "$tmp/chromium.log" ||
		{ tail -5 "$tmp/chromium.log"; fail "chromium --dump-dom $1"; }
	[ -z "${3:-}" ] || timeout 60 chromium "${args[@]}" --screenshot="$3" "file://$1" \
		> /dev/null 2>&1 || fail "chromium --screenshot $1"
}
if command -v chromium > /dev/null; then
	shot=${FABRIC_HTML_SHOT:-}
	dom "$tmp/ring/report.html" "$tmp/ring.dom" "${shot:+$shot/ring200.png}"
	dom "$tmp/lab/report.html" "$tmp/lab.dom" "${shot:+$shot/lab.png}"
	$PY - "$tmp" <<'PY' && ok || fail "the DOM in chromium"
import re, sys
sys.path.insert(0, "scripts")
import fabric_html
t = sys.argv[1]
bad = []
dom = open(t + "/ring.dom", encoding="utf-8").read()
cell = re.search(r'<rect class="cell fail" x="([0-9]+)" y="([0-9]+)"[^>]* fill="#([0-9a-f]{6})"'
                 r'[^>]*data-verdict="fail" data-link="node-017 -&gt; node-018"', dom)
if not cell:
    bad.append("no cell marked fail for node-017 -> node-018")
else:
    r, g, b = (int(cell.group(3)[i:i + 2], 16) for i in (0, 2, 4))
    if g >= r:
        bad.append(f"the failing cell's colour #{cell.group(3)} is not a red")
    greens = {fabric_html.scale(v, "pass", 380, 400) for v in (380, 390, 400)}
    if "#" + cell.group(3) in greens:
        bad.append("the failing cell is drawn in the passing colour")
row = re.search(r'<tr class="fail" data-verdict="fail" data-link="node-017 -&gt; node-018">'
                r'(.*?)</tr>', dom)
if not row or "310.00" not in row.group(1) or "81.58" not in row.group(1):
    bad.append("no table row marked fail for node-017 -> node-018 at 310.00 (81.58 % of the gate)")
if "1 of 200 links shown" not in dom and "200 of 200 links shown" not in dom:
    bad.append("the table's script did not run")
if len(re.findall(r'<tr class="pass"', dom)) != 199:
    bad.append("not 199 passing rows")
lab = open(t + "/lab.dom", encoding="utf-8").read()
if len(re.findall(r'<tr class="(pass|slow)" data-verdict="\1" data-link="node-', lab)) != 6:
    bad.append("lab: not 6 passing rows")
if '<span class="verdict v-pass">PASS</span>' not in lab:
    bad.append("lab: no PASS")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
else
	skipped+=("browser (apt-get install chromium)")
fi

if $PY -c 'import matplotlib' 2> /dev/null; then
	$PY - "$tmp/ring/fabric.png" <<-'PY' && ok || fail "fabric.png at 200 nodes"
		import sys
		import matplotlib.image as mi
		img = mi.imread(sys.argv[1])
		h, w = img.shape[:2]
		# red left of the colour bar (the right fifth): the failing cell
		m = img[:, : int(w * 0.8)]
		red = int(((m[..., 0] > 0.6) & (m[..., 1] < 0.35) & (m[..., 2] < 0.3)).sum())
		print(f"fabric.png {w} x {h}, {red} red pixels in the matrix")
		sys.exit(0 if w <= 1800 and h <= 1800 and red else 1)
	PY
else
	skipped+=("heat map (python3-matplotlib)")
fi

for s in "${skipped[@]}"; do echo "SKIPPED part: $s"; done
echo "test_fabric_html: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
