#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/scripts/test_examples.sh - results/example-lab/ (the files of one
# Soft-RoCE lab run, written by scripts/regen-examples.sh) is not older than
# the tree: every result JSON has the tree's schema_version
# (RESULTS_SCHEMA_VERSION in common/report/results.h) and a tool_version
# whose release is the VERSION file's or newer, and validates against
# results/schema/rdmabench-result-v1.schema.json; a bandwidth client's rows
# carry their peak (not null); every JUnit file validates against
# results/schema/junit.xsd. A stale example fails with the fix: run
# scripts/regen-examples.sh (it needs the lab: nice it, about 2 minutes).
# The check is also shown planted copies it must refuse (an old schema, an
# old version, a null peak, a JUnit file the XSD refuses), so a check that
# accepts anything cannot pass. Needs python3 (Debian's: python3-jsonschema
# for the schema part) and xmllint (libxml2-utils) for the JUnit part;
# either missing skips its part, saying so.
set -u
cd "$(dirname "$0")/../.." || exit 1
EX=results/example-lab
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 checks=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

schema=$(sed -n 's/^#define RESULTS_SCHEMA_VERSION \([0-9]*\).*/\1/p' \
	common/report/results.h)
release=$(tr -d ' \n' < VERSION)
if [ -z "$schema" ] || [ -z "$release" ]; then
	echo "no RESULTS_SCHEMA_VERSION in common/report/results.h or no VERSION"
	exit 1
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3
have_jsonschema=0
"$py" -c 'import jsonschema' 2> /dev/null && have_jsonschema=1
have_xmllint=0
command -v xmllint > /dev/null && have_xmllint=1

# check_json DIR: each *.json's staleness, peaks and schema; prints one
# line a problem, "DIR: N files" at the end
check_json() {
	"$py" - "$1" "$schema" "$release" "$have_jsonschema" <<'EOF'
import glob, json, os, re, sys
folder, schema, release, validate = sys.argv[1], int(sys.argv[2]), \
    sys.argv[3], sys.argv[4] == "1"
def rel(v):
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", str(v))
    return tuple(int(x) for x in m.groups()) if m else None
validator = None
if validate:
    import jsonschema
    with open("results/schema/rdmabench-result-v1.schema.json") as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
files = sorted(glob.glob(os.path.join(folder, "*.json")))
for path in files:
    with open(path) as f:
        d = json.load(f)
    if d.get("schema_version") != schema:
        print(f"{path}: schema_version {d.get('schema_version')!r}, the tree "
              f"writes {schema}")
    if rel(d.get("tool_version")) is None or \
            rel(d.get("tool_version")) < rel(release):
        print(f"{path}: tool_version {d.get('tool_version')!r} is older "
              f"than the tree's release {release} (VERSION)")
    if d.get("role") == "client" and d.get("tool", "").endswith("_bw"):
        for r in d.get("results") or []:
            if (r.get("client") or {}).get("peak_gbps") is None:
                print(f"{path}: size {r.get('size_bytes')}: the client's "
                      "peak_gbps is null")
                break
    if validator:
        for e in list(validator.iter_errors(d))[:1]:
            print(f"{path}: fails the result schema: {e.message[:160]}")
print(f"{folder}: {len(files)} files")
EOF
}

# check_xml DIR: each *.xml against the project's JUnit XSD
check_xml() {
	local f
	for f in "$1"/*.xml; do
		[ -f "$f" ] || continue
		xmllint --noout --schema results/schema/junit.xsd "$f" \
			> "$tmp/xmllint.out" 2>&1 ||
			echo "$f: fails results/schema/junit.xsd: $(head -n 1 "$tmp/xmllint.out")"
	done
}

# problems DIR: every problem line of DIR's examples
problems() {
	check_json "$1" | grep -v ': [0-9]* files$'
	[ "$have_xmllint" = 1 ] && check_xml "$1"
}

# the examples themselves: no problem at all
problems "$EX" > "$tmp/ex.txt"
if [ -s "$tmp/ex.txt" ]; then
	cat "$tmp/ex.txt"
	fail "$EX is stale: run 'nice scripts/regen-examples.sh' (the lab, about 2 minutes) and commit what it writes"
fi
checks=$((checks + 1))
ls "$EX"/*.json > /dev/null 2>&1 || fail "$EX holds no result JSON"

# planted stale copies: each one must be named
plant() { # NAME FILE PYTHON-EXPR-ON-d: a copy of EX with FILE changed
	mkdir -p "$tmp/$1" && cp "$EX"/*.json "$EX"/*.xml "$tmp/$1/" || exit 1
	"$py" - "$tmp/$1/$2" "$3" <<'EOF'
import json, sys
path, expr = sys.argv[1], sys.argv[2]
d = json.load(open(path))
exec(expr)
json.dump(d, open(path, "w"))
EOF
}
expect_problem() { # NAME REGEX
	problems "$tmp/$1" > "$tmp/$1.txt"
	if grep -Eq "$2" "$tmp/$1.txt"; then checks=$((checks + 1))
	else fail "planted $1: no problem matching '$2': $(cat "$tmp/$1.txt")"; fi
}
plant schema ib_write_bw.json 'd["schema_version"] = 1'
expect_problem schema "ib_write_bw.json: schema_version 1, the tree writes $schema"
plant version ib_write_lat.json 'd["tool_version"] = "0.1.0"'
expect_problem version "ib_write_lat.json: tool_version '0.1.0' is older"
plant peak ib_write_bw.json 'd["results"][0]["client"]["peak_gbps"] = None'
expect_problem peak "ib_write_bw.json: size [0-9]+: the client's peak_gbps is null"
if [ "$have_xmllint" = 1 ]; then
	plant junit ib_write_bw.json 'pass'
	sed -i '0,/<testcase /s/<testcase /<testcase bogus="1" /' \
		"$tmp/junit/ib_write_bw.xml"
	expect_problem junit 'ib_write_bw.xml: fails results/schema/junit.xsd'
else
	echo "skip: the JUnit part needs xmllint (apt-get install libxml2-utils)"
fi
[ "$have_jsonschema" = 1 ] ||
	echo "skip: the schema part needs python3-jsonschema (apt-get install python3-jsonschema)"

[ "$failed" -eq 0 ] || exit 1
echo "examples: $EX current (schema $schema, release $release); $checks checks passed"
