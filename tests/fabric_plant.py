#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/fabric_plant.py PATH CLIENT PEER GBPS [EXPECTED] - plant one link's
result document for the fabric tests: tests/golden/results_bw.json with
CLIENT as its host, PEER ("ADDR:PORT") as its peer, GBPS as the client's
figure and its gate's, EXPECTED (default 180) as the gate: below it the
gate, verdict and exit code (3) fail. Prints the exit code.

plant_plan(DIR, GBPS_OF, EXPECTED) plants every link of DIR/plan.json in
one process (a 200-node fabric's links in a second): GBPS_OF(client,
server) -> Gb/s."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def golden():
    with open(os.path.join(HERE, "golden", "results_bw.json"), encoding="utf-8") as f:
        return json.load(f)


def plant(path, host, peer, gbps, expected=180.0, base=None):
    d = json.loads(json.dumps(base)) if base else golden()
    d["host"], d["device"]["peer_addr"] = host, peer
    d["results"][0]["client"]["bw_gbps"] = gbps
    g = d["gates"][0]
    g["figure"], g["expected"] = gbps, expected
    if gbps < expected:
        g["verdict"], d["verdict"], d["exit_code"] = "fail", "fail", 3
        g["reason"] = d["error"] = f"size 65536: {gbps:.2f} Gb/s < expected {expected:.2f} Gb/s"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f, indent=2)
    return d["exit_code"]


def plant_plan(folder, gbps_of, expected):
    with open(os.path.join(folder, "plan.json"), encoding="utf-8") as f:
        links = json.load(f)["links"]
    base = golden()
    for l in links:
        plant(os.path.join(folder, l["result_file"]), l["client"], f"{l['server']}:{l['port']}",
              float(gbps_of(l["client"], l["server"])), expected, base)
    return len(links)


if __name__ == "__main__":
    print(plant(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]),
                float(sys.argv[5]) if len(sys.argv) > 5 else 180.0))
