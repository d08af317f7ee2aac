#!/bin/bash
# tests/fabric/test_fabric_nccl.sh - ib_fabric --nccl-test without a GPU:
# three ranks on this machine (--rank 0..2, the replayer's rank from
# OMPI_COMM_WORLD_RANK) run tests/fabric/nccl_replay.sh, a STAND-IN for
# an nccl-tests program that replays a captured output (the real H200
# all_reduce_perf capture, or the stand-in fixtures of
# tests/fixtures/nccl-tests/); then scripts/fabric_report.py on the
# folder. Checks: each rank's exit code and document (valid against
# results/schema/fabric-nccl-v1 when python3-jsonschema is there), the
# report's verdict, JSON (fabric-report-v1), JUnit and Prometheus; pass,
# below --expect-busbw, #wrong > 0, Socket, a missing rank, NCCL_DEBUG
# forced to INFO, a missing program, the refusals and the dry-run.
# shellcheck disable=SC2015 # ok() never fails: "A && ok || fail" is an if
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${RDMABENCH_BUILD:-build}/ib_fabric
[ -x "$BIN" ] || { echo "no $BIN (make first)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 checks=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }
REPLAY=tests/fabric/nccl_replay.sh
REAL=tests/fixtures/nccl/real-h200-nccl-tests-2.28.9-all_reduce.log
FIX=tests/fixtures/nccl-tests
have_schema=0
/usr/bin/python3 -c 'import jsonschema' 2> /dev/null && have_schema=1

# ranks NAME "WANT0 WANT1 WANT2" LOG [IB_FABRIC_OPTS...]: three ranks
ranks() {
	local name=$1 want=($2) log=$3 r rc
	shift 3
	mkdir -p "$tmp/$name"
	for r in 0 1 2; do
		OMPI_COMM_WORLD_RANK=$r "$BIN" --nccl-test "$REPLAY" -H a,b,c --rank "$r" \
			-o "$tmp/$name" "$@" -- "$log" -b 8 -e 8G > "$tmp/$name.r$r.out" 2>&1
		rc=$?
		[ "$rc" = "${want[$r]}" ] && ok || { cat "$tmp/$name.r$r.out"; fail "$name: rank $r exit $rc, want ${want[$r]}"; }
	done
}

# report NAME WANT_RC VERDICT: the report of the folder
report() {
	local rc
	/usr/bin/python3 scripts/fabric_report.py "$tmp/$1" > "$tmp/$1.report" 2>&1
	rc=$?
	[ "$rc" = "$2" ] && ok || { cat "$tmp/$1.report"; fail "$1: report exit $rc, want $2"; }
	grep -q "^overall: $3 (exit $2)" "$tmp/$1.report" && ok || fail "$1: report verdict, want $3"
	local x
	for x in results/schema/junit.xsd tests/fixtures/jenkins-junit-10.xsd; do
		! command -v xmllint > /dev/null ||
			xmllint --noout --schema "$x" "$tmp/$1/fabric.xml" 2> "$tmp/x.log" && ok ||
			{ cat "$tmp/x.log"; fail "$1: fabric.xml against $x"; }
	done
	[ "$have_schema" = 1 ] || return 0
	/usr/bin/python3 - "$tmp/$1" <<-'PY' && ok || fail "$1: a document does not validate"
		import glob, json, sys, jsonschema
		V = jsonschema.Draft202012Validator
		d = sys.argv[1]
		V(json.load(open("results/schema/fabric-report-v1.schema.json"))).validate(
		    json.load(open(d + "/fabric.json")))
		s = V(json.load(open("results/schema/fabric-nccl-v1.schema.json")))
		for f in glob.glob(d + "/nccl_r*.json"):
		    s.validate(json.load(open(f)))
	PY
}

# ---- passed: busbw 180 GB/s against 150, IB with GPUDirect RDMA
ranks pass "0 0 0" "$FIX/stand-in-2.19.6-ib-pass.log" --expect-busbw 150
report pass 0 pass
grep -q 'rank 0 (a): all_reduce_perf passed: 28 rows, busbw 180.00 GB/s at 134217728 B, NCCL over IB' \
	"$tmp/pass.r0.out" && ok || fail "pass: rank 0's line: $(cat "$tmp/pass.r0.out")"
grep -q 'nccl_replay: rank 1 args -b 8 -e 8G' "$tmp/pass/nccl_r1_b.log" && ok || fail "pass: the program's arguments"
[ "$(grep -c '<testcase classname="rdmabench.fabric.nccl.' "$tmp/pass/fabric.xml")" = 3 ] && ok ||
	fail "pass: 3 JUnit testcases"
grep -q '^rdmabench_fabric_nccl_busbw_bytes_per_second{test="all_reduce_perf",rank="0",node="a",net="IB"} 180000000000.0$' \
	"$tmp/pass/fabric.prom" && ok || fail "pass: Prometheus busbw"
# ---- below the expectation: rank 0 (the table) exits 3
ranks below "3 0 0" "$FIX/stand-in-2.19.6-ib-pass.log" --expect-busbw 190
report below 3 fail
grep -q 'below the expected 190.00 GB/s (--expect-busbw)' "$tmp/below.report" && ok || fail "below: reason"
# ---- #wrong > 0: corrupt
ranks wrong "4 0 0" "$FIX/stand-in-2.19.6-ib-wrong.log"
report wrong 4 corrupt
# ---- Socket: the real H200 capture; every rank's NCCL lines say so
ranks socket "3 3 3" "$REAL" --expect-busbw 1
report socket 3 fail
grep -q 'Socket  *socket: NCCL used sockets, not RDMA (NET/IB : No device found; \[0\]eth0' "$tmp/socket.report" &&
	ok || fail "socket: the report's reason"
grep -q '<testcase classname="rdmabench.fabric.nccl.a" name="all_reduce_perf.r0 (a)" time="0.000">' \
	"$tmp/socket/fabric.xml" && grep -q 'type="socket"/>' "$tmp/socket/fabric.xml" && ok ||
	fail "socket: JUnit's rank 0 case, of type socket"
# ---- NCCL_DEBUG=WARN from the user: set to INFO, so the transport is seen
NCCL_DEBUG=WARN OMPI_COMM_WORLD_RANK=1 "$BIN" --nccl-test "$REPLAY" -H a,b --rank 1 -o "$tmp/debug" \
	-- "$REAL" > "$tmp/out" 2>&1
[ $? = 3 ] && ok || fail "debug: want exit 3 (Socket)"
grep -q 'NCCL_DEBUG=WARN: set to INFO' "$tmp/out" && ok || fail "debug: the warning"
# ---- a rank that left no document: an error naming it
mkdir -p "$tmp/missing" && cp "$tmp/pass"/nccl_r[01]_* "$tmp/missing/"
report missing 1 error
grep -q 'no result: nccl_r2_c.json is in none of the folders' "$tmp/missing.report" && ok || fail "missing: reason"
# ---- no such program: rank 0 has no table, an error
"$BIN" --nccl-test /nonexistent/all_reduce_perf -H a,b --rank 0 -o "$tmp/none" > "$tmp/out" 2>&1
[ $? = 1 ] && ok || { cat "$tmp/out"; fail "no program: want exit 1"; }
grep -q 'cannot run /nonexistent/all_reduce_perf' "$tmp/none/nccl_r0_a.log" && ok || fail "no program: the log"
# ---- --expect-busbw auto here (no RDMA port): no expectation, said
OMPI_COMM_WORLD_RANK=0 "$BIN" --nccl-test "$REPLAY" -H a,b --rank 0 -o "$tmp/auto" --expect-busbw auto \
	-- "$FIX/stand-in-2.19.6-ib-pass.log" > "$tmp/out" 2>&1
grep -q -e 'no expectation for all_reduce_perf on 2 node(s)' -e 'passed' "$tmp/out" && ok || fail "auto: $(cat "$tmp/out")"
# ---- refusals and the dry-run
for bad in "--nccl-test x -P ring -H a,b" "--nccl-test x -H a,b --expect-busbw fast" \
	"-P ring -H a,b --expect-busbw 10" "--nccl-test x -H a,b --dry-run=json"; do
	# shellcheck disable=SC2086 # the options split on purpose
	"$BIN" $bad > "$tmp/out" 2>&1
	[ $? = 2 ] && ok || fail "refuse: $bad"
done
"$BIN" --nccl-test all_reduce_perf -H 'n[1-3]' -n -- -g 8 > "$tmp/out" 2>&1
[ "$(grep -c 'NCCL_DEBUG=INFO all_reduce_perf -g 8 > fabric-out/nccl_r[0-2]_n[1-3].log' "$tmp/out")" = 3 ] &&
	ok || fail "dry-run: $(cat "$tmp/out")"
"$BIN" --help | grep -q -- '--nccl-test PROG' && ok || fail "--help lists --nccl-test"
echo "test_fabric_nccl: $checks checks, $failed failed"
[ "$failed" = 0 ]
