#!/bin/bash
# tests/report/test_results_validate.sh - the golden renderings of
# tests/report/test_results.c (tests/golden/results_*.{json,xml,prom})
# checked by the tools CI users will point at them:
#   json    python3 -m json + python3-jsonschema against
#           results/schema/rdmabench-result-v1.schema.json (draft 2020-12;
#           it holds versions 1 to 4: older documents, built from the
#           goldens, still validate), and results_json_escape.json decoded
#           back to the strings meant
#   junit   xmllint --schema results/schema/junit.xsd     (libxml2-utils)
#           and --schema tests/fixtures/jenkins-junit-10.xsd (Jenkins'
#           own, vendored: a stand-in for Jenkins reading them)
#   prom    promtool check metrics, lint included          (prometheus)
# Each validator is also shown one broken document that it must refuse, so
# a validator that accepts anything cannot pass this test.
# A missing validator skips its part with the package to install; exit 77
# only when no part could run. Debian: apt-get install python3-jsonschema
# libxml2-utils prometheus.
set -u
cd "$(dirname "$0")/../.." || exit 1
G=tests/golden
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ran=0 failed=0 skipped=()

fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# A python3 that has module $1: Debian's first (a pyenv python3 earlier in
# PATH does not see python3-* packages).
find_python() {
	local py
	for py in /usr/bin/python3 python3; do
		if command -v "$py" >/dev/null 2>&1 &&
			"$py" -c "import $1" 2>/dev/null; then
			echo "$py"
			return 0
		fi
	done
	return 1
}

check_json() {
	local py
	if ! py=$(find_python jsonschema); then
		skipped+=("json (python3-jsonschema not installed)")
		return
	fi
	ran=$((ran + 1))
	"$py" - "$G" <<'EOF' || fail "json: see above"
import copy, glob, json, sys
import jsonschema

gold = sys.argv[1]
schema = json.load(open("results/schema/rdmabench-result-v1.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
bad = 0
files = sorted(f for f in glob.glob(gold + "/results_*.json")
               if not f.endswith("_escape.json"))
for f in files:
    doc = json.load(open(f, encoding="utf-8"))
    for e in v.iter_errors(doc):
        print(f"{f}: {'/'.join(map(str, e.path))}: {e.message}")
        bad += 1
# the schema must refuse what the emitter must never write
doc = json.load(open(gold + "/results_sweep.json"))
mutants = {
    "unknown verdict": lambda d: d.update(verdict="maybe"),
    "missing key": lambda d: d.pop("exit_code"),
    "extra key": lambda d: d["results"][0]["client"].update(bw=1),
    "string figure": lambda d: d["results"][0].update(size_bytes="2"),
    "bad time": lambda d: d.update(start_time_utc="yesterday"),
}
lat = json.load(open(gold + "/results_lat.json"))
mutants["histogram of a string"] = lambda d: d["results"][0]["client"].update(
    histogram="1 us")
mutants["histogram without counts"] = lambda d: d["results"][0]["client"].update(
    histogram={"le_us": [1], "count": 1, "sum_us": 1})
# a version 1 document (no histogram key) still validates
old = copy.deepcopy(lat)
old["schema_version"] = 1
old.pop("errno")
old.pop("errno_name")
for r in old["results"]:
    for side in ("client", "server"):
        if r[side]:
            r[side].pop("histogram", None)
for e in v.iter_errors(old):
    print(f"version 1 document: {'/'.join(map(str, e.path))}: {e.message}")
    bad += 1
# a version 2 document (no rails key) still validates; rails are version 3
rails = json.load(open(gold + "/results_rails.json"))
old2 = copy.deepcopy(rails)
old2["schema_version"] = 2
old2.pop("rails")
old2.pop("errno")
old2.pop("errno_name")
for e in v.iter_errors(old2):
    print(f"version 2 document: {'/'.join(map(str, e.path))}: {e.message}")
    bad += 1
if rails["schema_version"] != 4 or rails["rails"][0]["gpu"]["pcie"] != "PIX":
    print("results_rails.json: not version 4, or rail 0 without its GPU")
    bad += 1
# a version 3 document (no errno keys) still validates; errno is version 4
err = json.load(open(gold + "/results_error.json"))
old3 = copy.deepcopy(err)
old3["schema_version"] = 3
old3.pop("errno")
old3.pop("errno_name")
for e in v.iter_errors(old3):
    print(f"version 3 document: {'/'.join(map(str, e.path))}: {e.message}")
    bad += 1
if (err["errno"], err["errno_name"]) != (104, "ECONNRESET"):
    print("results_error.json: the errno is not kept apart from the error")
    bad += 1
def err_mutant(f):
    def m(d):
        d.clear()
        d.update(copy.deepcopy(err))
        f(d)
    return m
mutants["a version 4 document without errno"] = err_mutant(
    lambda d: d.pop("errno"))
mutants["errno in a version 3 document"] = err_mutant(
    lambda d: d.update(schema_version=3))
mutants["errno as its text"] = err_mutant(
    lambda d: d.update(errno="Connection reset by peer"))
mutants["errno_name not a name"] = err_mutant(
    lambda d: d.update(errno_name="connection reset"))
def rails_mutant(f):
    def m(d):
        d.clear()
        d.update(copy.deepcopy(rails))
        f(d)
    return m
mutants["rails in a version 2 document"] = rails_mutant(
    lambda d: d.update(schema_version=2))
mutants["a rail without gpu"] = rails_mutant(lambda d: d["rails"][0].pop("gpu"))
mutants["a gpu's pcie unknown word"] = rails_mutant(
    lambda d: d["rails"][0]["gpu"].update(pcie="NV4"))
mutants["a gpu without bus_id"] = rails_mutant(
    lambda d: d["rails"][0]["gpu"].pop("bus_id"))
if lat["results"][0]["client"]["histogram"] is None:
    print("results_lat.json: the client side has no histogram")
    bad += 1
for name, mutate in mutants.items():
    d = copy.deepcopy(doc)
    mutate(d)
    if v.is_valid(d):
        print(f"schema accepted a document with {name}")
        bad += 1
want = {
    "plain": "mlx5_0", "empty": "", "quote_backslash": 'a"b\\c/d',
    "short_escapes": "\b\f\n\r\t", "control": "\x01\x1f\x7f",
    "utf8": "caf\u00e9 \u20ac \U0001f600", "bad_byte": "a\ufffdb",
    "overlong": "\ufffd" * 2, "surrogate": "\ufffd" * 3,
    "truncated": "x\ufffd\ufffd", "beyond_unicode": "\ufffd" * 4,
    "stray_continuation": "\ufffdz",
}
got = json.load(open(gold + "/results_json_escape.json", encoding="utf-8"))
for k in sorted(set(want) | set(got)):
    if got.get(k) != want.get(k):
        print(f"escape {k}: got {got.get(k)!r}, want {want.get(k)!r}")
        bad += 1
print(f"json: {len(files)} documents and a version 1, 2 and 3 one valid, "
      f"{len(mutants)} mutants refused, "
      f"{len(want)} escapes read back" if not bad else f"json: {bad} errors")
sys.exit(1 if bad else 0)
EOF
}

check_junit() {
	local f n=0
	if ! command -v xmllint >/dev/null 2>&1; then
		skipped+=("junit (xmllint not installed: libxml2-utils)")
		return
	fi
	ran=$((ran + 1))
	for f in "$G"/results_*.xml; do
		for x in results/schema/junit.xsd tests/fixtures/jenkins-junit-10.xsd; do
			xmllint --noout --schema "$x" "$f" 2>"$tmp/xmllint.log" ||
				{ cat "$tmp/xmllint.log"; fail "junit: $f ($x)"; }
		done
		n=$((n + 1))
	done
	sed 's/ name="ib_write_bw.run [^"]*"//' "$G/results_error.xml" \
		> "$tmp/bad.xml"
	xmllint --noout --schema results/schema/junit.xsd "$tmp/bad.xml" \
		2>/dev/null &&
		fail "junit: the XSD accepted a testcase without a name"
	# Ant's strict schema: no fraction or zone in the timestamp, and a
	# <system-out> in every suite
	sed 's/timestamp="\([^"]*\)"/timestamp="\1.123Z"/' "$G/results_bw.xml" \
		> "$tmp/bad.xml"
	xmllint --noout --schema results/schema/junit.xsd "$tmp/bad.xml" \
		2>/dev/null &&
		fail "junit: the XSD accepted a timestamp with a fraction and Z"
	grep -v '<system-out/>' "$G/results_bw.xml" > "$tmp/bad.xml"
	xmllint --noout --schema results/schema/junit.xsd "$tmp/bad.xml" \
		2>/dev/null &&
		fail "junit: the XSD accepted a suite without <system-out>"
	# what every reader takes: milliseconds, 3 decimals
	sed 's/time="\([0-9]*\.[0-9]*\)"/time="\1123"/' "$G/results_bw.xml" \
		> "$tmp/bad.xml"
	xmllint --noout --schema results/schema/junit.xsd "$tmp/bad.xml" \
		2>/dev/null &&
		fail "junit: the XSD accepted a time with 6 decimals"
	echo "junit: $n documents valid (ours and Jenkins' XSD), 4 mutants refused"
}

check_prom() {
	local f n=0
	if ! command -v promtool >/dev/null 2>&1; then
		skipped+=("prom (promtool not installed: prometheus)")
		return
	fi
	ran=$((ran + 1))
	for f in "$G"/results_*.prom; do
		# exit 3 is a lint finding (no HELP, bad unit): that fails too
		promtool check metrics < "$f" > "$tmp/promtool.log" 2>&1 ||
			{ cat "$tmp/promtool.log"; fail "prom: $f"; }
		n=$((n + 1))
	done
	sed '0,/^rdmabench_info/s/} 1$/} one/' "$G/results_bw.prom" \
		> "$tmp/bad.prom"
	promtool check metrics < "$tmp/bad.prom" >/dev/null 2>&1 &&
		fail "prom: promtool accepted a sample with a non-number value"
	echo "prom: $n documents valid, 1 mutant refused"
}

check_json
check_junit
check_prom
for s in "${skipped[@]}"; do
	echo "SKIPPED part: $s"
done
if [ "$ran" -eq 0 ]; then
	echo "no validator available: apt-get install python3-jsonschema" \
		"libxml2-utils prometheus"
	exit 77
fi
if [ "$failed" -ne 0 ]; then
	echo "results_validate: $failed failed"
	exit 1
fi
echo "results_validate: $ran validators passed, ${#skipped[@]} skipped"
