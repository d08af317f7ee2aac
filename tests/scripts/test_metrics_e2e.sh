#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/scripts/test_metrics_e2e.sh - the metrics path end to end with
# Debian's own daemons (prometheus, prometheus-pushgateway,
# prometheus-node-exporter), all on loopback at free ports:
#  - our benches run as pairs on the null device (tests/nulldev/pair.sh,
#    --oob tcp): ib_write_bw gated to pass, ib_write_lat -H gated to
#    pass (the gates loose: the null device's figures follow the
#    machine's load), ib_read_bw gated to fail (10000 Gb/s: exit 3); each
#    side --push'es its document to the Pushgateway (job and run id in
#    the URL) and writes it with --prom-textfile into node_exporter's
#    textfile directory;
#  - two real result files of earlier runs join them in that directory:
#    results/nccl-h200/fabric-nccl/fabric.prom (ib_fabric --nccl-test on
#    an H200 VM: the NCCL panels' series) and results/example-lab/
#    ib_write_bw.prom (an rxe run in the QEMU lab: its port counters'
#    family, which the null device has none of);
#  - prometheus scrapes both (1 s), and queries through its HTTP API
#    (/api/v1/query) must return the run's bandwidth (pushed and from the
#    textfile), its verdicts (pass and fail), a latency quantile through
#    histogram_quantile over the -H buckets (within a bucket's width of
#    the run's own p99), and at least one series for every query of every
#    panel of deploy/grafana/rdmabench.json (scripts/dashboard_queries.py);
#  - a push to a port where nothing listens: exit 1, a message naming
#    --push, the --json file written all the same.
# The null device is a stand-in for a NIC (its figures prove nothing of a
# link); the daemons, the scrape and the queries are the real ones.
# Skipped (77) when a daemon's binary, python3 or the mount namespace of
# the null device is missing. Every daemon it starts is killed on exit.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}
PY=/usr/bin/python3
for bin in prometheus prometheus-pushgateway prometheus-node-exporter; do
	command -v $bin > /dev/null || {
		echo "$bin not installed (apt-get install prometheus prometheus-pushgateway prometheus-node-exporter)"
		exit 77
	}
done
[ -x $PY ] || { echo "no python3"; exit 77; }
[ -x "$B/ib_write_bw" ] || { echo "no $B/ib_write_bw (make first)"; exit 77; }
make -s nulldev B="$B" > /dev/null || { echo "FAIL make nulldev"; exit 1; }
tmp=$(mktemp -d) || exit 1
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export NULLDEV_SYS=$tmp/sys
tests/nulldev/nulldev-run.sh -b "$B" true || exit $?
failed=0 checks=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }

# five free loopback ports (held together while chosen, so all differ)
read -r P_PGW P_NODE P_PROM P_BENCH P_DEAD < <($PY -c '
import socket
ss = [socket.socket() for _ in range(5)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
TF=$tmp/textfile RUN=e2e-$$ JOB=rdmabench-e2e
mkdir -p "$TF" "$tmp/db"
prometheus-pushgateway --web.listen-address=127.0.0.1:$P_PGW \
	--persistence.file="$tmp/pgw.data" > "$tmp/pgw.log" 2>&1 &
pids+=($!)
prometheus-node-exporter --web.listen-address=127.0.0.1:$P_NODE \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$TF" > "$tmp/node.log" 2>&1 &
pids+=($!)
cat > "$tmp/prometheus.yml" <<YML
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: pushgateway
    honor_labels: true
    static_configs: [ { targets: ["127.0.0.1:$P_PGW"] } ]
  - job_name: node-textfile
    static_configs: [ { targets: ["127.0.0.1:$P_NODE"] } ]
YML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/db" \
	--web.listen-address=127.0.0.1:$P_PROM > "$tmp/prom.log" 2>&1 &
pids+=($!)

# the real results of earlier runs (see the header)
cp results/nccl-h200/fabric-nccl/fabric.prom "$TF/rdmabench_fabric_nccl-h200.prom"
# (its port counters' family only: the file's other families carry the
# HELP texts of the version that wrote it, and node_exporter drops a family
# whose HELP differs between two files of one directory)
awk '/^# (HELP|TYPE) / { keep = $3 == "rdmabench_port_stat_delta" }
	keep' results/example-lab/ib_write_bw.prom > "$TF/rdmabench_example-lab.prom"

# bench TOOL WANT_RC ARGS...: a pair on the null device, pushed and filed;
# its exit status and output in $tmp/TOOL.rc, $tmp/TOOL.out. One after the
# other: the null device polls, and pairs at once only share the CPUs
port=$P_BENCH
bench() {
	local tool=$1 want=$2
	shift 2
	port=$((port + 1))
	{
		tests/nulldev/pair.sh -b "$B" -p $port -t 30 "$B/$tool" --oob tcp \
			--push "http://127.0.0.1:$P_PGW/metrics/job/$JOB/run/$RUN" \
			--prom-textfile "$TF" "$@" > "$tmp/$tool.out" 2>&1
		echo "$? $want" > "$tmp/$tool.rc"
	}
}
bench ib_write_bw 0 -n 200 --expect-gbps 1
bench ib_write_lat 0 -n 200 -H --expect-p99-us 2000000
bench ib_read_bw 3 -n 100 --expect-gbps 10000
# a Pushgateway that is not there: exit 1, said, the files written
port=$((port + 1))
tests/nulldev/pair.sh -b "$B" -p $port -t 30 "$B/ib_write_bw" --oob tcp -n 20 \
	--push "http://127.0.0.1:$P_DEAD" --json "$tmp/dead.json" > "$tmp/dead.out" 2>&1
rc=$?
{ [ $rc = 1 ] && grep -q -- '--push http://127.0.0.1:[0-9]*: cannot connect' "$tmp/dead.out" &&
	grep -q '"verdict": "pass"' "$tmp/dead.json"; } && ok ||
	fail "push to nowhere: exit $rc (want 1, the message, the JSON): $(tail -3 "$tmp/dead.out")"
for tool in ib_write_bw ib_write_lat ib_read_bw; do
	read -r rc want < "$tmp/$tool.rc"
	if [ "$rc" = "$want" ]; then ok; else
		fail "$tool exit $rc, not $want"
		sed 's/^/  | /' "$tmp/$tool.out" | tail -12
	fi
done
n=$(find "$TF" -name 'rdmabench_ib_*.prom' | wc -l)
[ "$n" = 6 ] && ok || fail "textfiles: $n, not 6 (3 links x 2 sides): $(ls "$TF")"

# the queries: each must return a series (and the asserted value) within
# the deadline; one line a query: NAME<TAB>CHECK<TAB>PROMQL
{
	printf 'pushed bandwidth\tpos\trdmabench_bandwidth_bytes_per_second{job="%s",run="%s",test="ib_write_bw",role="client",side="client"}\n' "$JOB" "$RUN"
	printf 'textfile bandwidth\tpos\trdmabench_bandwidth_bytes_per_second{job="node-textfile",test="ib_write_bw",role="client",side="client",device="nulldev0"}\n'
	printf 'verdict pass\tone\trdmabench_verdict{job="%s",run="%s",test="ib_write_bw",role="client",verdict="pass"}\n' "$JOB" "$RUN"
	printf 'verdict fail\tzero\trdmabench_verdict{job="%s",run="%s",test="ib_read_bw",role="client",verdict="fail"}\n' "$JOB" "$RUN"
	printf 'textfile verdict fail\tzero\trdmabench_verdict{job="node-textfile",test="ib_read_bw",role="client",verdict="fail"}\n'
	printf 'latency p99 (buckets)\tpos\thistogram_quantile(0.99, sum by (le) (rdmabench_latency_distribution_seconds_bucket{job="%s",run="%s",test="ib_write_lat",role="client",side="client"}))\n' "$JOB" "$RUN"
	printf 'latency p99 (summary)\tpos\trdmabench_latency_seconds{job="%s",run="%s",test="ib_write_lat",role="client",side="client",quantile="0.99"}\n' "$JOB" "$RUN"
	printf 'nccl busbw (textfile)\tany\trdmabench_fabric_nccl_busbw_bytes_per_second{job="node-textfile"}\n'
	$PY scripts/dashboard_queries.py | awk -F'\t' '{ printf "panel %s%s %s\tany\t%s\n", $1, $2, $3, $4 }'
} > "$tmp/queries"
$PY - "http://127.0.0.1:$P_PROM" "$tmp/queries" "$tmp/answers" <<'PY' || fail "queries"
import json, sys, time, urllib.parse, urllib.request
base, qfile, afile = sys.argv[1:]
qs = [l.rstrip("\n").split("\t") for l in open(qfile)]
want = {"pos": lambda v: v > 0, "one": lambda v: v == 1,
        "zero": lambda v: v == 0, "any": lambda v: True}
def ask(expr):
    url = base + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            d = json.load(r)
    except (OSError, ValueError) as e:
        return None, str(e)
    if d.get("status") != "success":
        return None, d.get("error", "?")
    return d["data"]["result"], ""
left, answers, deadline = list(qs), {}, time.time() + 20
while left and time.time() < deadline:
    for q in list(left):
        res, err = ask(q[2])
        if res and all(want[q[1]](float(s["value"][1])) for s in res):
            answers[q[0]] = res
            left.remove(q)
    if left:
        time.sleep(0.5)
for q in qs:
    if q in left:
        res, err = ask(q[2])
        print(f"FAIL {q[0]}: {q[2]} -> {res if res is not None else err}")
    else:
        r = answers[q[0]]
        print(f"ok {q[0]}: {len(r)} series, e.g. {r[0]['value'][1]}")
json.dump(answers, open(afile, "w"))
sys.exit(1 if left else 0)
PY
# the bucket quantile within a bucket's width (ten a decade) of the p99
$PY - "$tmp/answers" <<'PY' && ok || fail "histogram_quantile far from the run's p99"
import json, sys
a = json.load(open(sys.argv[1]))
h = float(a["latency p99 (buckets)"][0]["value"][1])
s = float(a["latency p99 (summary)"][0]["value"][1])
print(f"p99: {h * 1e6:.3f} us from the buckets, {s * 1e6:.3f} us the run's own")
# one bucket either side (nearest rank vs. interpolated rank); past the
# top bound (100 ms: a loaded machine) histogram_quantile says the bound
sys.exit(0 if s / 1.6 <= h <= s * 1.6 or (s > 0.1 and h == 0.1) else 1)
PY
if [ $failed != 0 ]; then
	for f in pgw node prom; do echo "--- $f.log"; tail -5 "$tmp/$f.log"; done
	echo "$failed failed of $((checks + failed))"
	exit 1
fi
echo "metrics end to end: $checks checks, $(wc -l < "$tmp/queries") queries ($(grep -c "^panel" "$tmp/queries") of the dashboard)"
