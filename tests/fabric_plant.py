#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/fabric_plant.py PATH CLIENT PEER GBPS [EXPECTED] - plant one link's
result document for the fabric tests: tests/golden/results_bw.json with
CLIENT as its host, PEER ("ADDR:PORT") as its peer, GBPS as the client's
figure and its gate's, EXPECTED (default 180) as the gate: below it the
gate, verdict and exit code (3) fail. Prints the exit code."""
import json
import os
import sys

path, host, peer, gbps = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
expected = float(sys.argv[5]) if len(sys.argv) > 5 else 180.0
here = os.path.dirname(os.path.abspath(__file__))
d = json.load(open(os.path.join(here, "golden", "results_bw.json"), encoding="utf-8"))
d["host"], d["device"]["peer_addr"] = host, peer
d["results"][0]["client"]["bw_gbps"] = gbps
g = d["gates"][0]
g["figure"], g["expected"] = gbps, expected
if gbps < expected:
    g["verdict"], d["verdict"], d["exit_code"] = "fail", "fail", 3
    g["reason"] = d["error"] = f"size 65536: {gbps:.2f} Gb/s < expected {expected:.2f} Gb/s"
with open(path, "w", encoding="utf-8") as f:
    json.dump(d, f, indent=2)
print(d["exit_code"])
