#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""scripts/k8s/fabric.py - render a fabric pattern as one Kubernetes Indexed Job.

Usage: scripts/k8s/fabric.py --pattern P [OPTIONS] NODE... [-- TEST_FLAGS...]

Prints a headless Service and an Indexed Job with one pod per NODE (node
affinity + pod anti-affinity, the RDMA resource, IPC_LOCK, Guaranteed QoS:
the pod spec of scripts/k8s/ring.sh, which renders it from deploy/ with
"kubectl kustomize", so kubectl must be installed), where pod i runs
    ib_fabric --pattern P --hosts NAME-[0-(N-1)].NAME --out /results ...
and finds its rank in JOB_COMPLETION_INDEX (docs/fabric.md). Every pod
mounts the Secret rdmabench-auth (deploy/base's key; create it as ring.sh
says): ib_fabric's barrier and every link's tool run with --auth-key-file
on it, the links with --allow-foreign-gid too (their data GID is on the
secondary network, not the pod address the control connection uses, and
the key keeps strangers out). The pods
reach each other by their stable names (NAME-i.NAME); rank 0 holds the
barrier between rounds. After its rounds each pod prints its links'
result documents to its log between "===== rdmabench fabric link FILE
begin =====" and "===== rdmabench fabric link end =====" and exits 0 (the
results, not the pods, carry the verdicts: one bad link must not stop the
Job). Put the logs (kubectl logs -l rdmabench/fabric=NAME -c fabric
--prefix --tail=-1 > DIR/pods.log) beside the plan (ib_fabric
--dry-run=json with the same --pattern and --hosts > DIR/plan.json) and
run scripts/fabric_report.py DIR.

Options:
  --pattern P          pairs, ring, all-to-all, bisection, incast, fan-out
  --streams N          links per connection (default 1)
  --port P             first tool port (default 18515; rank 0's barrier P-1)
  -t, --tool TOOL      ib_write_bw (default), ...
  --name NAME          Job and Service name (default rdmabench-fabric)
  --timeout SEC        a round's limit and the Job's deadline (default 1800)
  --image, --network, --netdev, --rdma-resource, --gpu, --cpu, --memory
                       as scripts/k8s/ring.sh (--help there)
TEST_FLAGS: both sides' flags (default -s 1M -D 10), e.g. -- -D 10 --expect-gbps 180
Exit status: 0, or 2 for bad usage.
"""
import argparse
import os
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
PATTERNS = ("pairs", "ring", "all-to-all", "bisection", "incast", "fan-out")
KEY = "/etc/rdmabench/auth/key"   # deploy/base's Secret rdmabench-auth, as ring.sh's pods
PASS = ("--image", "--network", "--netdev", "--rdma-resource", "--cpu", "--memory")
SCRIPT = """ib_fabric "$@"
for f in /results/link_*.json; do
  [ -e "$f" ] || continue
  echo "===== rdmabench fabric link ${f##*/} begin ====="
  cat "$f"; echo
  echo "===== rdmabench fabric link end ====="
done
exit 0
"""


def die(msg):
    print(f"fabric.py: {msg}", file=sys.stderr)
    sys.exit(2)


def parse():
    argv = sys.argv[1:]
    test = []
    if "--" in argv:
        i = argv.index("--")
        argv, test = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("nodes", nargs="*")
    ap.add_argument("--pattern", required=True, choices=PATTERNS)
    ap.add_argument("--streams", type=int, default=1)
    ap.add_argument("--port", type=int, default=18515)
    ap.add_argument("-t", "--tool", default="ib_write_bw")
    ap.add_argument("--name", default="rdmabench-fabric")
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--gpu", action="store_true")
    for o in PASS:
        ap.add_argument(o)
    a = ap.parse_args(argv)
    if len(a.nodes) < 2:
        die("a fabric needs 2 nodes at least")
    if not 1 <= a.streams <= 64:
        die("--streams: want 1..64")
    if not 2 <= a.port <= 65535:
        die("--port: want 2..65535")
    return a, test or ["-s", "1M", "-D", "10"]


def ring_render(a):
    """ring.sh's rendering of the same nodes: the pod spec to start from."""
    cmd = [os.path.join(HERE, "ring.sh"), "--name", a.name, "--timeout", str(a.timeout)]
    cmd += ["--gpu"] if a.gpu else []
    for o in PASS:
        v = getattr(a, o[2:].replace("-", "_"))
        cmd += [o, v] if v else []
    r = subprocess.run(cmd + a.nodes, capture_output=True, text=True)
    if r.returncode:
        die(r.stderr.strip() or "ring.sh failed")
    return list(yaml.safe_load_all(r.stdout))


def relabel(o):
    """ring.sh's labels as the fabric's."""
    if isinstance(o, dict):
        out = {}
        for k, v in o.items():
            if k == "rdmabench/ring":
                k = "rdmabench/fabric"
            elif k == "app.kubernetes.io/component" and v == "ring":
                v = "fabric"
            out[k] = relabel(v)
        return out
    if isinstance(o, list):
        return [relabel(v) for v in o]
    return o


def fabric_args(a, test):
    n = len(a.nodes)
    args = ["--pattern", a.pattern, "--hosts", f"{a.name}-[0-{n - 1}].{a.name}",
            "--streams", str(a.streams), "--tool", a.tool, "--port", str(a.port),
            "--out", "/results", "--timeout", str(a.timeout), "--auth-key-file", KEY, "--",
            "--oob", "tcp", "--netdev", a.netdev or "net1",
            "--auth-key-file", KEY, "--allow-foreign-gid"]
    return args + (["--use_cuda"] if a.gpu else []) + test


def to_fabric(docs, a, test):
    keep = {"NODE_NAME", "POD_NAME", "NVIDIA_DRIVER_CAPABILITIES"}
    for d in docs:
        if d["kind"] == "Service":
            d["spec"]["ports"] = [
                {"name": "barrier", "port": a.port - 1, "protocol": "TCP"},
                {"name": "tool", "port": a.port, "protocol": "TCP"}]
        if d["kind"] != "Job":
            continue
        pod = d["spec"]["template"]["spec"]
        c = pod["containers"][0]
        c["name"] = "fabric"
        c["command"] = ["/bin/sh", "-c", SCRIPT, "ib_fabric"]
        c["args"] = fabric_args(a, test)
        c["env"] = [e for e in c["env"] if e["name"] in keep]
        c["volumeMounts"].append({"name": "results", "mountPath": "/results"})
        pod["volumes"].append({"name": "results", "emptyDir": {}})
    return [relabel(d) for d in docs]


class Dumper(yaml.SafeDumper):
    """Multi-line strings (the pod's script) as literal blocks."""


Dumper.add_representer(str, lambda d, s: d.represent_scalar(
    "tag:yaml.org,2002:str", s, style="|" if "\n" in s else None))


def main():
    a, test = parse()
    docs = to_fabric(ring_render(a), a, test)
    print(f"# rdmabench fabric {a.name}: {a.pattern} over {len(a.nodes)} nodes x "
          f"{a.streams} stream(s), {a.tool} {' '.join(test)}")
    print("# (rendered by scripts/k8s/fabric.py; plan: ib_fabric --dry-run)")
    sys.stdout.write(yaml.dump_all(docs, Dumper=Dumper, sort_keys=False, explicit_start=True, width=110))
    return 0


if __name__ == "__main__":
    sys.exit(main())
