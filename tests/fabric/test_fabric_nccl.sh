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
# forced to INFO, a missing program, the refusals and the dry-run; then
# one host's two GPUs, --ranks-per-node 2, on STAND-IN two-rank logs,
# by --rank and (where mpirun is installed) under mpirun.
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
# ---- one host, two GPUs: --ranks-per-node 2. The logs are STAND-INS
# (tests/fixtures/nccl/stand-in-2.28-2rank-*: the real one-GPU log's
# lines, channels changed) until the two-GPU machine gives real ones.
TWO=tests/fixtures/nccl/stand-in-2.28-2rank
# two NAME "WANT0 WANT1" KIND: ranks 0 and 1 of host vm, by --rank
two() {
	local name=$1 want=($2) kind=$3 r rc
	mkdir -p "$tmp/$name"
	for r in 0 1; do
		OMPI_COMM_WORLD_RANK=$r "$BIN" --nccl-test "$REPLAY" -H vm --ranks-per-node 2 --rank "$r" \
			-o "$tmp/$name" -- "$TWO-$kind-r$r.log" -b 8 -e 128M > "$tmp/$name.r$r.out" 2>&1
		rc=$?
		[ "$rc" = "${want[$r]}" ] && ok || { cat "$tmp/$name.r$r.out"; fail "$name: rank $r exit $rc, want ${want[$r]}"; }
	done
	grep -q '"ranks_per_node": 2' "$tmp/$name/nccl_r1_vm.json" && ok || fail "$name: ranks_per_node in r1's document"
}
P2P_WHY="no network needed: every channel stayed inside the node (24 via P2P: NVLink or PCIe); NCCL's network for other nodes: Socket (across nodes it would fall back)"
two two-socket "3 3" socket
report two-socket 3 fail
grep -q 'nccl-tests: all_reduce_perf on 2 rank(s) (1 node(s) x 2 rank(s) a node): fail' "$tmp/two-socket.report" &&
	ok || fail "two-socket: 1 node x 2 ranks in the report"
[ "$(grep -c 'vm .*Socket  *socket: NCCL used sockets, not RDMA (NET/IB : No device found; ' "$tmp/two-socket.report")" = 2 ] &&
	ok || fail "two-socket: both ranks' socket reason"
two two-p2p "0 0" p2p
report two-p2p 0 pass
[ "$(grep -c "vm .*intra-node   passed: $P2P_WHY" "$tmp/two-p2p.report")" = 2 ] && ok ||
	{ cat "$tmp/two-p2p.report"; fail "two-p2p: both ranks intra-node, passed, with the reason"; }
grep -q 'rdmabench_fabric_nccl_passed{test="all_reduce_perf",rank="1",node="vm",net="intra-node"} 1' \
	"$tmp/two-p2p/fabric.prom" && ok || fail "two-p2p: Prometheus rank 1"
# the same through mpirun, one rank a GPU; the replayer picks r{rank}'s log
if command -v mpirun > /dev/null; then
	[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	host=$(hostname)
	for kind in p2p socket; do
		mpirun -np 2 --map-by ppr:2:node --oversubscribe --bind-to none "$BIN" --nccl-test "$REPLAY" \
			-H "$host" --ranks-per-node 2 -o "$tmp/mpi-$kind" -- "$TWO-$kind-r{rank}.log" \
			> "$tmp/mpi-$kind.out" 2>&1
		echo "mpirun exit $? ($kind)" >> "$tmp/mpi-$kind.out"
	done
	grep -q 'mpirun exit 0 (p2p)' "$tmp/mpi-p2p.out" && ok || { cat "$tmp/mpi-p2p.out"; fail "mpirun p2p: exit"; }
	report mpi-p2p 0 pass
	# mpirun's own exit may hide the ranks' 3: the report's is the gate
	report mpi-socket 3 fail
	mpirun -np 2 --map-by ppr:2:node --oversubscribe --bind-to none "$BIN" --nccl-test "$REPLAY" \
		-H "$host" -o "$tmp/mpi-one" -- "$TWO-p2p-r{rank}.log" > "$tmp/out" 2>&1
	grep -q 'openmpi launched 2 ranks for 1 node(s) x 1 rank(s) a node (--ranks-per-node 1): launch 1 (mpirun -np 1 --map-by ppr:1:node), or give --ranks-per-node 2' \
		"$tmp/out" && ok || { cat "$tmp/out"; fail "mpirun -np 2 without --ranks-per-node: the refusal"; }
else
	echo "test_fabric_nccl: no mpirun here: the --ranks-per-node runs under mpirun skipped"
fi
# refusals of --ranks-per-node: links, a host name alone, a count off
"$BIN" -P ring -H a,b --ranks-per-node 2 -n > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- '--ranks-per-node 2 is for --nccl-test' "$tmp/out" && ok || fail "refuse: links with --ranks-per-node"
env -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u SLURM_PROCID -u JOB_COMPLETION_INDEX \
	"$BIN" --nccl-test x -H "$(hostname)" --ranks-per-node 2 -o "$tmp/byname" > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q "this host's name says its node, not which of its ranks" "$tmp/out" && ok ||
	{ cat "$tmp/out"; fail "refuse: --ranks-per-node 2 by host name"; }
OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=3 "$BIN" --nccl-test x -H vm --ranks-per-node 2 -n > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q 'launched 3 ranks for 1 node(s) x 2 rank(s) a node (--ranks-per-node 2): launch 2 (mpirun -np 2 --map-by ppr:2:node)' \
	"$tmp/out" && ok || { cat "$tmp/out"; fail "refuse: 3 ranks for 1 x 2"; }
# the dry run of 2 nodes x 2 ranks
"$BIN" --nccl-test all_reduce_perf -H 'h[1-2]' --ranks-per-node 2 -n > "$tmp/out" 2>&1
grep -q '^# nccl-tests: 2 node(s) x 2 rank(s) a node = 4 rank(s)' "$tmp/out" &&
	[ "$(grep -c -e '^rank 0 on h1 .*nccl_r0_h1.log$' -e '^rank 1 on h1 .*nccl_r1_h1.log$' \
		-e '^rank 2 on h2 .*nccl_r2_h2.log$' -e '^rank 3 on h2 .*nccl_r3_h2.log$' "$tmp/out")" = 4 ] &&
	ok || fail "dry-run 2 x 2: $(cat "$tmp/out")"
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
