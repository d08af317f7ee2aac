#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""scripts/fabric_fleet.py - many nodes' documents -> the odd ones out.

Usage: scripts/fabric_fleet.py [--json FILE] DOC|DIR [DOC|DIR...]

Each DOC is a node's ib_doctor --json document (tool "ib_doctor") or a
bench's result document (results/schema/rdmabench-result-v1: its host,
device.firmware, device.driver and driver_version, software.kernel,
rdma_core and nvidia_driver); a DIR gives its *.json files. The fleet
view compares them across nodes and names the odd ones out:

  versions  a fact whose value differs between nodes: the nodes that do
            not have the most common value, e.g. "node-07: firmware
            28.39.1002, the other 15: 28.40.1000" (no most common value:
            every value with its nodes); unknown values (null) are left out
  findings  an ib_doctor finding (check and subject, e.g. pfc net2) that
            is WARN or FAIL on some nodes and not on the others: "node-03:
            pfc net2 FAIL: PFC off on priority 3 (the other 15: not
            flagged)"; one on every node is named once as fleet-wide

It is a script, not an ib_doctor option, because ib_doctor reads the
machine it runs on while this reads documents gathered from many, as
scripts/fabric_report.py does (which uses it for its "fleet" section,
with the doctor documents doctor_*.json put in its folders).

Exit status: 0 the nodes agree; 6 odd ones out (as ib_doctor's warnings);
2 bad usage or an unreadable document.
"""
import argparse
import collections
import json
import os
import sys

# the facts compared, in the order they are named: (name, where in a
# result document)
FACTS = (
    ("firmware", ("device", "firmware")),
    ("driver", ("device", "driver")),
    ("driver version", ("device", "driver_version")),
    ("rdma-core", ("software", "rdma_core")),
    ("kernel", ("software", "kernel")),
    ("NVIDIA driver", ("software", "nvidia_driver")),
)
BAD = ("WARN", "FAIL")


def die(msg):
    print(f"fabric_fleet: {msg}", file=sys.stderr)
    sys.exit(2)


def is_doctor(doc):
    return isinstance(doc, dict) and doc.get("tool") == "ib_doctor"


def fact_of(doc, where):
    v = doc
    for k in where:
        v = v.get(k) if isinstance(v, dict) else None
    return v if isinstance(v, str) and v else None


def node_facts(results):
    """{fact: {node: value}} over result documents; a node whose documents
    disagree (two devices) gets their values joined by "/"."""
    seen = collections.defaultdict(lambda: collections.defaultdict(set))
    for doc in results:
        node = doc.get("host")
        if not node:
            continue
        for name, where in FACTS:
            v = fact_of(doc, where)
            if v:
                seen[name][node].add(v)
    return {name: {n: "/".join(sorted(vs)) for n, vs in seen[name].items()}
            for name, _ in FACTS if seen.get(name)}


def others(k):
    return "the other node" if k == 1 else f"the other {k}"


def odd_versions(facts):
    """One entry a fact whose nodes differ: the odd nodes and sentences."""
    out = []
    for name, by_node in facts.items():
        groups = collections.defaultdict(list)
        for node, v in sorted(by_node.items()):
            groups[v].append(node)
        if len(groups) < 2:
            continue
        ranked = sorted(groups.items(), key=lambda g: (-len(g[1]), g[0]))
        top, rest = ranked[0], ranked[1:]
        if len(top[1]) == len(rest[0][1]):
            text = f"{name} differs: " + "; ".join(
                f"{v} on {', '.join(ns)}" for v, ns in ranked)
            out.append({"fact": name, "common": None, "odd": sorted(by_node),
                        "values": dict(groups), "sentences": [text]})
            continue
        odd = [n for _, ns in rest for n in ns]
        out.append({"fact": name, "common": top[0], "odd": odd, "values": dict(groups),
                    "sentences": [f"{n}: {name} {by_node[n]}, {others(len(top[1]))}: {top[0]}"
                                  for n in odd]})
    return out


def odd_findings(doctors):
    """Findings flagged on some nodes only, and those on every node."""
    nodes = sorted(doctors)
    flagged = collections.defaultdict(dict)  # (check, subject) -> {node: finding}
    for node, doc in doctors.items():
        for f in doc.get("findings") or []:
            if f.get("verdict") in BAD:
                flagged[(f.get("check"), f.get("subject"))].setdefault(node, f)
    odd, everywhere = [], []
    for (check, subject), by_node in sorted(flagged.items()):
        if len(by_node) == len(nodes) and len(nodes) > 1:
            f = by_node[nodes[0]]
            everywhere.append({"check": check, "subject": subject,
                               "sentence": f"every node: {check} {subject} {f['verdict']}: "
                                           f"{f.get('detail', '')}"})
            continue
        rest = len(nodes) - len(by_node)
        for node, f in sorted(by_node.items()):
            odd.append({"node": node, "check": check, "subject": subject,
                        "verdict": f["verdict"], "detail": f.get("detail", ""),
                        "fix": f.get("fix"),
                        "sentence": f"{node}: {check} {subject} {f['verdict']}: "
                                    f"{f.get('detail', '')} ({others(rest)}: not flagged)"})
    return odd, everywhere


def fleet(results, doctors):
    """The fleet section: results are result documents, doctors
    {node: ib_doctor document}. None when there is nothing to compare."""
    facts = node_facts(results)
    nodes = sorted(set(doctors) | {n for f in facts.values() for n in f})
    if len(nodes) < 2:
        return None
    versions = odd_versions(facts)
    findings, everywhere = odd_findings(doctors) if len(doctors) > 1 else ([], [])
    odd_nodes = sorted({n for v in versions for n in v["odd"]} |
                       {f["node"] for f in findings})
    return {"nodes": nodes, "doctor_nodes": sorted(doctors), "facts": facts,
            "versions": versions, "findings": findings, "everywhere": everywhere,
            "odd_nodes": odd_nodes}


def fleet_lines(fl):
    """The text of the fleet section (no lines when nothing to compare)."""
    if not fl:
        return []
    head = (f"fleet: {len(fl['nodes'])} nodes, {len(fl['doctor_nodes'])} with ib_doctor's "
            f"findings: ")
    if not fl["odd_nodes"] and not fl["everywhere"]:
        return ["", head + "no odd ones out"]
    out = ["", head + (f"odd ones out: {', '.join(fl['odd_nodes'])}" if fl["odd_nodes"]
                       else "no odd ones out")]
    out += [f"  {s}" for v in fl["versions"] for s in v["sentences"]]
    out += [f"  {f['sentence']}" for f in fl["findings"]]
    out += [f"  {f['sentence']}" for f in fl["everywhere"]]
    return out


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die(f"{path}: {e}")


def doctor_docs(dirs):
    """{node: document} of the doctor_*.json files in the folders."""
    out = {}
    for d in dirs:
        for n in sorted(os.listdir(d)):
            if n.startswith("doctor_") and n.endswith(".json"):
                doc = load(os.path.join(d, n))
                if not is_doctor(doc):
                    die(f"{n}: not an ib_doctor --json document (tool \"ib_doctor\")")
                out.setdefault(doc.get("host") or n[7:-5], doc)
    return out


def files_of(args):
    out = []
    for a in args:
        if os.path.isdir(a):
            out += [os.path.join(a, n) for n in sorted(os.listdir(a)) if n.endswith(".json")]
        elif os.path.isfile(a):
            out.append(a)
        else:
            die(f"{a}: no such file or folder")
    return out


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("docs", nargs="+")
    ap.add_argument("--json", help="also write the fleet section as JSON here")
    a = ap.parse_args()
    results, doctors = [], {}
    for p in files_of(a.docs):
        doc = load(p)
        if is_doctor(doc):
            doctors.setdefault(doc.get("host") or p, doc)
        elif isinstance(doc, dict) and "schema_version" in doc and "device" in doc:
            results.append(doc)
    fl = fleet(results, doctors)
    if not fl:
        die("fewer than two nodes in the documents: nothing to compare")
    print("\n".join(fleet_lines(fl)[1:]))
    if a.json:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import afile  # noqa: E402  (the safe writer)
        afile.write(a.json, json.dumps(fl, indent=2) + "\n")
    return 6 if fl["odd_nodes"] else 0


if __name__ == "__main__":
    sys.exit(main())
