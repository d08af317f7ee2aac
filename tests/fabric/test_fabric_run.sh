#!/bin/bash
# tests/fabric/test_fabric_run.sh - ib_fabric without RDMA: the dry-run
# (text and JSON, the rank from --rank, Slurm, Open MPI), its refusals,
# --help, --version and "did you mean" (the one option engine's), and real
# runs of three ranks on this machine (--rank 0..2, every node's address
# 127.0.0.1) over a fake tool that writes a result document per link,
# one link slow: the barrier, the rounds, the per-link files the plan
# names, the exit codes, a missing rank; then scripts/fabric_report.py
# on what the run left (tests/scripts/test_fabric_report.sh checks the
# report).
# shellcheck disable=SC2015 # ok() never fails: "A && ok || fail" is an if
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${RDMABENCH_BUILD:-build}/ib_fabric
[ -x "$BIN" ] || { echo "no $BIN (make first)"; exit 77; }
tmp=$(mktemp -d) || exit 1
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
failed=0 checks=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }
check() { # NAME CMD...
	local name=$1; shift
	if "$@" > "$tmp/out" 2>&1; then ok; else cat "$tmp/out"; fail "$name"; fi
}
rc_is() { # WANT CMD...: CMD exits WANT
	local want=$1 rc; shift
	"$@" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = "$want" ] && ok || { cat "$tmp/out"; fail "exit $rc, want $want: $*"; }
}

# ---- dry-run
rc_is 0 "$BIN" -P ring -H 'node-[01-03]' -n -- -D 5
[ "$(grep -c ' -> ' "$tmp/out")" = 3 ] && ok || fail "ring: $(grep -c ' -> ' "$tmp/out") links, want 3"
grep -q 'client on node-03 .*--json fabric-out/link_r000_node-03_node-01_s0.json -D 5 node-01$' "$tmp/out" &&
	ok || fail "ring: node-03's client command"
SLURM_PROCID=1 SLURM_NNODES=3 SLURM_NTASKS=3 SLURM_JOB_NODELIST='n[1-3]' \
	rc_is 0 "$BIN" -P all-to-all -n
grep -q '^# this process: rank 1 (n2, from slurm)' "$tmp/out" && ok || fail "slurm rank: $(head -3 "$tmp/out")"
[ "$(grep -c ' -> ' "$tmp/out")" = 6 ] && ok || fail "all-to-all of 3: want 6 links"
OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=4 rc_is 2 "$BIN" -P ring -H a,b,c -n
grep -q 'openmpi launched 4 ranks for 3 node(s) x 1 rank(s) a node' "$tmp/out" && ok || fail "ompi size mismatch message"
# a launcher's rank on another host than the list gives it: refused
OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 rc_is 2 "$BIN" -P ring -H "elsewhere,$(hostname)" -o "$tmp/x"
grep -q "openmpi rank 0 runs on $(hostname), but the host list puts rank 0 on elsewhere" "$tmp/out" &&
	ok || fail "rank on the wrong host: $(cat "$tmp/out")"
rc_is 0 "$BIN" -P pairs -H 'a,b,c,d' -S 2 --dry-run=json
/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rounds"] == 6 and len(d["links"]) == 12, d["rounds"]
assert d["links"][1]["port"] == 18516 and d["links"][1]["stream"] == 1
' "$tmp/out" && ok || fail "pairs JSON"
rc_is 2 "$BIN" -H a,b -n
rc_is 2 "$BIN" -P star -H a,b -n
rc_is 2 "$BIN" -P ring -H a -n
rc_is 2 "$BIN" -P ring -H 'a,b' -n -D 5
rc_is 2 "$BIN" -P ring -H 'n[2-1]' -n
rc_is 2 "$BIN" -P ring -H a,b -S 0 -n
rc_is 0 "$BIN" --help
grep -q -e '--pattern=<pairs/ring/' "$tmp/out" && ok || fail "--help: no --pattern"
rc_is 0 "$BIN" --version
grep -q '^ib_fabric (rdmabench) ' "$tmp/out" && ok || fail "--version: $(cat "$tmp/out")"
rc_is 2 "$BIN" --hlep
grep -q "did you mean --help?" "$tmp/out" && ok || fail "--hlep: $(cat "$tmp/out")"
rc_is 0 "$BIN" --pat ring --hosts=a,b --dry_run=json
rc_is 2 "$BIN" -P ring -H a,b -n stray
grep -q "tool arguments go after --" "$tmp/out" && ok || fail "stray: $(cat "$tmp/out")"
rc_is 2 "$BIN" -P ring -H a,b -f hosts -n

# ---- runs over a fake tool: 3 ranks on this machine
cat > "$tmp/fake" <<'FAKE'
#!/bin/bash
# fake tool: a server sleeps a little; a client writes the golden result
# document with its link's names and FAKE_GBPS (FAKE_SLOW_GBPS on the link
# FAKE_SLOW "CLIENT_SERVER"), and exits 3 when that is below 180
json='' port='' prev='' addr=''
for a; do
	case $prev in --json) json=$a ;; -p) port=$a ;; esac
	case $prev/$a in --*/* | -p/* | */-*) ;; *) addr=$a ;; esac
	prev=$a
done
echo "fake $*" >> "$FAKE_LOG"
[ -z "$json" ] && exec sleep "${FAKE_SERVER_SECONDS:-0.3}"
if [ -n "${FAKE_EXCLUSIVE:-}" ]; then	# no other client may run now
	mkdir "$FAKE_LOG.busy" 2>/dev/null || echo OVERLAP >> "$FAKE_LOG"
	sleep 0.2
	rmdir "$FAKE_LOG.busy"
fi
link=${json##*/link_r???_}; link=${link%_s*.json}
gbps=$FAKE_GBPS; [ "$link" = "$FAKE_SLOW" ] && gbps=$FAKE_SLOW_GBPS
exit "$(/usr/bin/python3 "$FAKE_PLANT" "$json" "${link%%_*}" "$addr:$port" "$gbps")"
FAKE
chmod +x "$tmp/fake"
printf '# three nodes on loopback\nnode-a 127.0.0.1\nnode-b 127.0.0.1\nnode-c 127.0.0.1\n' > "$tmp/hosts"
port=$((24000 + $$ % 200 * 20)) # its own range: see test_nulldev.sh
export FAKE_PLANT=$PWD/tests/fabric_plant.py FAKE_LOG=$tmp/fake.log FAKE_GBPS=190 FAKE_SLOW=node-b_node-c FAKE_SLOW_GBPS=60

run3() { # PATTERN OUT: three ranks at once; their exit codes in OUT/rc.R
	local pattern=$1 out=$2 r
	mkdir -p "$out"
	pids=()
	for r in 0 1 2; do
		"$BIN" -P "$pattern" -f "$tmp/hosts" --rank $r -p "$port" -o "$out" \
			-t "$tmp/fake" --timeout 60 -- -D 1 > "$out/rank$r.log" 2>&1 &
		pids+=($!)
	done
	for r in 0 1 2; do
		wait "${pids[$r]}"; echo $? > "$out/rc.$r"
	done
	pids=()
}
for pattern in ring all-to-all pairs; do
	out=$tmp/$pattern
	[ "$pattern" = pairs ] && export FAKE_EXCLUSIVE=1
	run3 "$pattern" "$out"
	/usr/bin/python3 - "$out" "$pattern" <<'PY' && ok || fail "$pattern: the links of the plan"
import json, os, sys
out, pattern = sys.argv[1], sys.argv[2]
plan = json.load(open(os.path.join(out, "plan.json")))
want = {(l["client"], l["server"]) for l in plan["links"]}
got = set()
for l in plan["links"]:
    d = json.load(open(os.path.join(out, l["result_file"])))
    assert d["host"] == l["client"], (d["host"], l)
    got.add((l["client"], l["server"]))
n = {"ring": 3, "all-to-all": 6, "pairs": 3}[pattern]
assert len(want) == n and got == want, (want, got)
extra = [f for f in os.listdir(out) if f.startswith("link_") and f.endswith(".json")
         and f not in {l["result_file"] for l in plan["links"]}]
assert not extra, extra
PY
	# node-b's client has the slow link: exit 3; the others 0
	[ "$(cat "$out"/rc.0 "$out"/rc.1 "$out"/rc.2 | tr '\n' ' ')" = "0 3 0 " ] && ok ||
		{ fail "$pattern: exit codes $(cat "$out"/rc.* | tr '\n' ' '), want 0 3 0"; cat "$out"/rank*.log; }
done
grep -q 'round 0: node-b -> node-c stream 0 port [0-9]*: client exit 3 (below an expectation)' "$tmp/ring/rank1.log" &&
	ok || { fail "ring: rank 1 names its slow link"; cat "$tmp/ring/rank1.log"; }
# pairs: one link a round, so never two clients at once (the barrier)
[ "$(grep -c -- '--json' "$FAKE_LOG")" = 12 ] && ok || fail "fake log: $(grep -c -- --json "$FAKE_LOG") clients, want 12"
grep -q OVERLAP "$FAKE_LOG" && fail "pairs: two clients ran at once" || ok

# servers that outlive their clients (a client that died early) are
# ended FABRIC_SERVER_GRACE_MS (10 s) after every client of the round,
# not at the round's deadline (60 s); their clients' verdicts stand
start=$SECONDS
FAKE_SERVER_SECONDS=100 FAKE_EXCLUSIVE='' run3 ring "$tmp/linger"
took=$((SECONDS - start))
[ "$took" -lt 40 ] && [ "$(cat "$tmp"/linger/rc.* | tr '\n' ' ')" = "0 3 0 " ] && ok ||
	{ fail "lingering servers: ${took}s, exit codes $(cat "$tmp"/linger/rc.* | tr '\n' ' ')"; cat "$tmp"/linger/rank*.log; }

# a rank that never comes: rank 0 waits --timeout, then names it (exit 5)
rc_is 5 "$BIN" -P ring -f "$tmp/hosts" --rank 0 -p "$port" -o "$tmp/lonely" -t "$tmp/fake" --timeout 2
grep -q 'ranks that did not come: 1 2' "$tmp/out" && ok || fail "missing ranks named: $(cat "$tmp/out")"
cp -r "$tmp/ring" "${FABRIC_RUN_KEEP:-/dev/null/x}" 2>/dev/null

echo "test_fabric_run: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
