#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/lab/nccl_check.py DIR NODES ENGINE VERDICT - a lab run of
ib_fabric --nccl-test (tests/fabric/nccl_replay.sh, a STAND-IN for an
nccl-tests program that replays a captured output) after
scripts/fabric_report.py DIR.

Checks: every rank 0..NODES-1 left its document (nccl_r<rank>_<node>.json,
valid against results/schema/fabric-nccl-v1) and its log, each run by
ENGINE (openmpi, slurm) on the node the list gives it; rank 0's document
has the replayed table (rows > 0); fabric.json validates against
results/schema/fabric-report-v1, has NODES ranks, and its nccl verdict
is VERDICT (pass, fail, ...); fabric.xml has one testcase a rank.
Prints one line per finding and "nccl-check: ...: ok"; exit 0 when all
hold, else 1."""
import json
import os
import sys

import jsonschema

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def schema(name):
    return json.load(open(os.path.join(ROOT, "results", "schema", name), encoding="utf-8"))


def check_ranks(out, rep, nodes, engine, bad):
    ranks = rep.get("nccl", {}).get("ranks", [])
    if len(ranks) != nodes:
        bad.append(f"{len(ranks)} ranks in the report, want {nodes}")
    v = jsonschema.Draft202012Validator(schema("fabric-nccl-v1.schema.json"))
    for r in ranks:
        if not r["result_file"]:
            bad.append(f"rank {r['rank']}: no document ({r['reason']})")
            continue
        doc = json.load(open(os.path.join(out, r["result_file"]), encoding="utf-8"))
        try:
            v.validate(doc)
        except jsonschema.ValidationError as e:
            bad.append(f"{r['result_file']} does not validate: {e.message}")
        if doc["engine"] != engine:
            bad.append(f"rank {r['rank']}: engine {doc['engine']}, want {engine}")
        if not os.path.isfile(os.path.join(out, doc["log"])):
            bad.append(f"rank {r['rank']}: no log {doc['log']}")
        if r["rank"] == 0 and not doc["rows"]:
            bad.append("rank 0: no table read")


def main():
    out, nodes, engine, verdict = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    rep = json.load(open(os.path.join(out, "fabric.json"), encoding="utf-8"))
    bad = []
    try:
        jsonschema.Draft202012Validator(schema("fabric-report-v1.schema.json")).validate(rep)
    except jsonschema.ValidationError as e:
        bad.append(f"fabric.json does not validate: {e.message}")
    check_ranks(out, rep, nodes, engine, bad)
    got = rep.get("nccl", {}).get("verdict")
    if got != verdict:
        bad.append(f"verdict {got}, want {verdict}")
    xml = open(os.path.join(out, "fabric.xml"), encoding="utf-8").read()
    if xml.count('classname="rdmabench.fabric.nccl.') != nodes:
        bad.append("fabric.xml: not one testcase a rank")
    for b in bad:
        print("nccl-check: FAIL " + b)
    n = rep.get("nccl", {})
    print(f"nccl-check: {n.get('test')} on {len(n.get('ranks', []))} ranks by {engine}: "
          f"{[(r['node'], r['nccl_verdict'], r['busbw_gbps']) for r in n.get('ranks', [])]}: "
          f"{'FAIL' if bad else 'ok'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
