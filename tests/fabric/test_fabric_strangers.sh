#!/bin/bash
# tests/fabric/test_fabric_strangers.sh - ib_fabric's barrier among
# strangers (issue 25), three ranks on this machine over the fake tool of
# test_fabric_run.sh's kind (tests/fabric_plant.py):
#   no key   a silent connection (dropped within 5 s, holding no one up),
#            a claim of rank 1 from 127.0.0.2 (not node-b's address:
#            dropped), then, once rank 1 has joined, a second claim of
#            rank 1 from node-b's own address (dropped: the first stays)
#   a token  (RDMABENCH_FABRIC_TOKEN, as a launcher hands it) a claim of
#            rank 2 without the key, before rank 2 comes: dropped, and
#            sent nothing but the challenge
# Each time every link of the ring completes against its genuine peer and
# no stranger is sent the table. tests/fabric/fabric_stranger.py is the
# stranger.
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
STRANGER=tests/fabric/fabric_stranger.py

cat > "$tmp/fake" <<'FAKE'
#!/bin/bash
json='' port='' prev='' addr=''
for a; do
	case $prev in --json) json=$a ;; -p) port=$a ;; esac
	case $prev/$a in --*/* | -p/* | */-*) ;; *) addr=$a ;; esac
	prev=$a
done
[ -z "$json" ] && exec sleep 0.3
link=${json##*/link_r???_}; link=${link%_s*.json}
exit "$(/usr/bin/python3 "$FAKE_PLANT" "$json" "${link%%_*}" "$addr:$port" 190)"
FAKE
chmod +x "$tmp/fake"
printf 'node-a 127.0.0.1\nnode-b 127.0.0.1\nnode-c 127.0.0.1\n' > "$tmp/hosts"
port=$((28001 + $$ % 200 * 20)) # its own range: see test_nulldev.sh
bport=$((port - 1))
export FAKE_PLANT=$PWD/tests/fabric_plant.py

rank() { # R OUT: one rank in the background
	"$BIN" -P ring -f "$tmp/hosts" --rank "$1" -p "$port" -o "$2" \
		-t "$tmp/fake" --timeout 60 -- -D 1 > "$2/rank$1.log" 2>&1 &
	pids+=($!)
}
stranger() { # NAME ARGS...: one stranger in the background
	local name=$1; shift
	/usr/bin/python3 "$STRANGER" "$bport" "$@" > "$out/$name.txt" 2>&1 &
	pids+=($!)
}
links_ok() { # OUT: every link of the plan measured against its peer
	/usr/bin/python3 - "$1" <<'PY'
import json, os, sys
out = sys.argv[1]
plan = json.load(open(os.path.join(out, "plan.json")))
for l in plan["links"]:
    d = json.load(open(os.path.join(out, l["result_file"])))
    assert d["host"] == l["client"], (d["host"], l)
    assert d["device"]["peer_addr"].startswith("127.0.0.1:"), d["device"]
assert len(plan["links"]) == 3
PY
}
wait_all() {
	local p
	for p in "${pids[@]}"; do wait "$p"; done
	pids=()
}
has() { # FILE TEXT
	grep -q -- "$2" "$1" && ok || { fail "$1: no \"$2\""; cat "$1"; }
}

# ---- no key: the source and the first claim decide
out=$tmp/nokey; mkdir -p "$out"
start=$SECONDS
rank 0 "$out"
stranger silent silent
stranger wrongsrc claim 1 127.0.0.2
sleep 1
rank 1 "$out"
sleep 1.5
stranger dup claim 1 127.0.0.1
sleep 3 # past the silent one's 5 s: the barrier is still open
rank 2 "$out"
wait_all
took=$((SECONDS - start))
links_ok "$out" && ok || { fail "no key: the links"; cat "$out"/rank*.log; }
[ "$took" -lt 20 ] && ok || fail "no key: took ${took}s"
has "$out/rank0.log" "sent no JOIN within 5 s: dropped"
has "$out/rank0.log" "from 127.0.0.2 as rank 1 is not at an address of the node it claims: dropped"
has "$out/rank0.log" "as rank 1 claims a rank that has joined already: dropped"
read -r _ sbytes _ ssecs < "$out/silent.txt"
[ "$sbytes" = 16 ] && awk -v s="$ssecs" 'BEGIN { exit !(s <= 6.0) }' && ok ||
	fail "silent stranger: $(cat "$out/silent.txt") (want 16 bytes, ended within 6 s)"
for s in wrongsrc dup; do
	read -r _ sbytes _ _ < "$out/$s.txt"
	[ "$sbytes" = 16 ] && ok || fail "$s: $(cat "$out/$s.txt") (want the challenge alone)"
done

# ---- a launcher's token: a claim without the key is dropped
out=$tmp/token; mkdir -p "$out"
export RDMABENCH_FABRIC_TOKEN=job-4711-0123456789abcdef-ghijklmnopq
rank 0 "$out"
rank 1 "$out"
stranger nokey claim 2 127.0.0.1
sleep 1
rank 2 "$out"
wait_all
links_ok "$out" && ok || { fail "token: the links"; cat "$out"/rank*.log; }
has "$out/rank0.log" "as rank 2 did not prove the job's key: dropped"
read -r _ sbytes _ _ < "$out/nokey.txt"
[ "$sbytes" = 16 ] && ok || fail "nokey: $(cat "$out/nokey.txt") (want the challenge alone)"
# a token too short to be a key: refused before the barrier (exit 2)
RDMABENCH_FABRIC_TOKEN=short "$BIN" -P ring -f "$tmp/hosts" --rank 1 -p "$port" \
	-o "$tmp/short" -t "$tmp/fake" --timeout 5 > "$tmp/short.log" 2>&1
rc=$?
[ "$rc" = 2 ] && ok || fail "short token: exit $rc, want 2"
has "$tmp/short.log" "RDMABENCH_FABRIC_TOKEN has 5 bytes: give 32 to 1024"

echo "test_fabric_strangers: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
