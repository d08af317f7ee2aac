#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/fabric_plant.py PATH CLIENT PEER GBPS [EXPECTED] [OPTIONS] - plant
one link's result document for the fabric tests: tests/golden/results_bw.json
with CLIENT as its host, PEER ("ADDR:PORT") as its peer, GBPS as the
client's figure and its gate's, EXPECTED (default 180) as the gate: below
it the gate, verdict and exit code (3) fail. Prints the exit code.
  --firmware V, --kernel V, --rdma-core V   the node's versions (default
        the golden's: 28.39.1002, 6.8.0-45-generic, 50.0)
  --pause RATE   a --expect-max-pause 1000/s budget gate of the run with
        RATE pause frames/s: above 1000 it fails (exit 3) whatever GBPS

tests/fabric_plant.py --doctor PATH NODE [--pfc-off NETDEV] - plant a node's
ib_doctor --json document: the healthy checks, and with --pfc-off a FAIL
finding of the pfc check on NETDEV (issue 29's check name; the real check
is h-lossless's). Both are stand-ins: planted documents, no node ran.

plant_plan(DIR, GBPS_OF, EXPECTED) plants every link of DIR/plan.json in
one process (a 200-node fabric's links in a second): GBPS_OF(client,
server) -> Gb/s."""
import argparse
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))


def save(path, d):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f, indent=2)


def doctor(a):
    def finding(check, subject, verdict, detail, fix=None):
        return {"step": 3, "check": check, "subject": subject, "verdict": verdict,
                "detail": detail, "fix": fix}
    fs = [finding("device", "mlx5_0", "PASS", "mlx5_0: RoCE, 1 port ACTIVE"),
          finding("mtu", "mlx5_0/1", "PASS", "RoCE MTU 4096")]
    for net in ("net1", "net2"):
        off = net == a.pfc_off
        fs.append(finding("pfc", net, "FAIL" if off else "PASS",
                          f"PFC off on priority 3 of {net}" if off else
                          f"PFC on priority 3 of {net}",
                          f"dcb pfc set dev {net} prio-pfc 3:on" if off else None))
    bad = sum(1 for f in fs if f["verdict"] == "FAIL")
    save(a.path, {"schema_version": 1, "tool": "ib_doctor", "host": a.node, "peer": None,
                  "exit_code": 7 if bad else 0,
                  "summary": {"pass": len(fs) - bad, "warn": 0, "fail": bad, "skip": 0},
                  "findings": fs})
    print(7 if bad else 0)


def golden():
    with open(os.path.join(here, "golden", "results_bw.json"), encoding="utf-8") as f:
        return json.load(f)


def pause_gate(rate):
    """A --expect-max-pause 1000/s gate with rate pause frames/s."""
    ok = rate <= 1000
    n = round(rate * 2.345)
    reason = (f"pause frames {rate:.2f}/s {'<=' if ok else '>'} budget 1000/s "
              f"(rx_pause_ctrl_phy+tx_pause_ctrl_phy: {n} in 2.35 s, 1.641 GB)")
    return {"name": "pause_budget", "size_bytes": 0, "figure": rate,
            "expected": 1000, "unit": "pause frames/s",
            "verdict": "pass" if ok else "fail", "reason": None if ok else reason}


def plant(path, client, peer, gbps, expected=180.0, base=None, firmware=None,
          kernel=None, rdma_core=None, pause=None):
    """One link's document at path; returns its exit code."""
    d = json.loads(json.dumps(base)) if base else golden()
    d["host"], d["device"]["peer_addr"] = client, peer
    d["device"]["firmware"] = firmware or d["device"]["firmware"]
    d["software"]["kernel"] = kernel or d["software"]["kernel"]
    d["software"]["rdma_core"] = rdma_core or d["software"]["rdma_core"]
    d["results"][0]["client"]["bw_gbps"] = gbps
    g = d["gates"][0]
    g["figure"], g["expected"] = gbps, expected
    fails = []
    if gbps < expected:
        g["verdict"] = "fail"
        g["reason"] = f"size 65536: {gbps:.2f} Gb/s < expected {expected:.2f} Gb/s"
        fails.append(g["reason"])
    if pause is not None:
        d["gates"].append(pause_gate(pause))
        if d["gates"][-1]["reason"]:
            fails.append(d["gates"][-1]["reason"])
    if fails:
        d["verdict"], d["exit_code"], d["error"] = "fail", 3, fails[0]
    save(path, d)
    return d["exit_code"]


def plant_plan(folder, gbps_of, expected):
    with open(os.path.join(folder, "plan.json"), encoding="utf-8") as f:
        links = json.load(f)["links"]
    base = golden()
    for l in links:
        plant(os.path.join(folder, l["result_file"]), l["client"], f"{l['server']}:{l['port']}",
              float(gbps_of(l["client"], l["server"])), expected, base)
    return len(links)


def link(a):
    print(plant(a.path, a.client, a.peer, a.gbps, a.expected, firmware=a.firmware,
                kernel=a.kernel, rdma_core=a.rdma_core, pause=a.pause))


def main(argv=None):
    """The command line's argv[1:]; a caller that imports this module
    passes its own (one process plants many documents)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--doctor"]:
        ap = argparse.ArgumentParser()
        ap.add_argument("--doctor", dest="path", required=True)
        ap.add_argument("node")
        ap.add_argument("--pfc-off")
        doctor(ap.parse_args(argv))
        return
    ap = argparse.ArgumentParser()
    for n in ("path", "client", "peer"):
        ap.add_argument(n)
    ap.add_argument("gbps", type=float)
    ap.add_argument("expected", type=float, nargs="?", default=180.0)
    ap.add_argument("--firmware")
    ap.add_argument("--kernel")
    ap.add_argument("--rdma-core")
    ap.add_argument("--pause", type=float)
    link(ap.parse_args(argv))


if __name__ == "__main__":
    main()
