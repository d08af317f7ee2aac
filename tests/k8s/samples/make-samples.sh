#!/bin/bash
# tests/k8s/samples/make-samples.sh - remakes tests/k8s/samples/ring/: what
# scripts/k8s/ring.sh collects from a 4-node ring (node-a..node-d) in which
# link 1 (node-b -> node-c) is below its gate and pod 3 never reported. The
# result documents are tests/golden/results_bw.json with other figures; the
# verdict summaries are written by deploy/entrypoint.sh's ring mode itself
# (with tests/k8s/fake-tool.sh as ib_write_bw, whose --summary is the
# benches' own code: FAKE_SUMMARY_OF, default
# build/tests/tools/summary_of), so they follow its format.
# tests/k8s/test_k8s_manifests.sh runs this into a temporary folder and compares.
#   tests/k8s/samples/make-samples.sh [OUT_DIR]   (default: tests/k8s/samples/ring)
set -eu
cd "$(dirname "$0")/../../.."
export FAKE_SUMMARY_OF=${FAKE_SUMMARY_OF:-$PWD/${RDMABENCH_BUILD:-build}/tests/tools/summary_of}
out=${1:-tests/k8s/samples/ring}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/bin"
ln -s "$PWD/tests/k8s/fake-tool.sh" "$T/bin/ib_write_bw"
"$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)" - "$T" <<'PY'
import copy, json, sys
T = sys.argv[1]
base = json.load(open("tests/golden/results_bw.json"))
def variant(i, gbps, fail=False):
    d = copy.deepcopy(base)
    d["host"] = "rdmabench-ring-%d" % i
    d["command_line"] = ["ib_write_bw", "rdmabench-ring-%d.rdmabench-ring" % ((i + 1) % 4), "--oob", "tcp",
                         "--netdev", "net1", "--report_gbits", "-s", "65536", "--expect-gbps", "180",
                         "--json", "/tmp/rdmabench.x/result.json"]
    r = d["results"][0]
    scale = gbps / r["client"]["bw_gbps"]
    for side in ("client", "server"):
        for k in ("bw_gbps", "bw_mibps", "peak_gbps"):
            if r[side].get(k) is not None:
                r[side][k] *= scale
    g = d["gates"][0]
    g["figure"] = r["client"]["bw_gbps"]
    if fail:
        g["verdict"], g["reason"] = "fail", "size 65536: %.2f Gb/s < expected 180.00" % g["figure"]
        d["verdict"], d["exit_code"] = "fail", 3
    with open("%s/r%d.json" % (T, i), "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")
variant(0, 192.05)
variant(1, 120.4, fail=True)
variant(2, 191.0)
PY
rm -rf "$out"
mkdir -p "$out"
for i in 0 1 2; do
	n=$(echo a b c | cut -d' ' -f$((i + 1)))
	PATH=$T/bin:$PATH FAKE_RESULT=$T/r$i.json JOB_COMPLETION_INDEX=$i RDMABENCH_RING_SIZE=4 \
		RDMABENCH_RING_GROUP=rdmabench-ring RDMABENCH_PEER_FORMAT=rdmabench-ring-%d.rdmabench-ring \
		RDMABENCH_RESULTS_DIR=$out RDMABENCH_RESULT_NAME=rdmabench-ring-$i-x7k2$i \
		POD_NAME=rdmabench-ring-$i-x7k2$i NODE_NAME=node-$n RDMABENCH_TERMINATION_LOG=$T/tl$i \
		sh deploy/entrypoint.sh ring ib_write_bw --oob tcp --netdev net1 --report_gbits > "$T/out$i" 2>&1
	cmp -s "$T/tl$i" "$out/rdmabench-ring-$i-x7k2$i.verdict.json"
done
