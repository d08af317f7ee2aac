#!/usr/bin/env python3
"""scripts/k8s/collect.py - per-link results -> one matrix report and one verdict.

Usage: scripts/k8s/collect.py [OPTIONS] DIR|FILE...

Reads, from the folders and files given:
  *.verdict.json  the entrypoint's verdict summaries (termination messages,
                  deploy/entrypoint.sh: "rdmabench_summary": 1), one per pod
  *.json          full result documents (schema_version 1 to 4,
                  results/schema/rdmabench-result-v1.schema.json); one that
                  sits next to a verdict (NAME.json, NAME.verdict.json) adds
                  its figures to that link, one alone is a link of its own
and prints a markdown table, one row per link (client node -> server node:
for write and send tests the data flows that way, for read tests back),
then the overall verdict. A ring's summaries carry their group (the Job),
index, peer index and ring size, so a link's server node is the node of
the peer index's pod, and an index that never reported is a missing link.

Options:
  --expect GROUP=N    the group (Job) has N pods: an index without a
                      summary is reported as a missing link (error)
  --node NAME         a node that should have reported (repeatable): the
                      ones that did not are named in the report
  --slow-fraction F   flag links below F x the median Gb/s of all links
                      (default 0.9): the outlier is the slow link
  --fail-slow         a flagged link fails (verdict fail, exit 3)
  --out FILE          also write the markdown report to FILE
  --json FILE         also write the report as JSON (links, overall)

Exit status: 0 every link passed; 3 a link below an expectation (or slow
with --fail-slow); 4 a link with corrupt data; for errors (a link that
could not run, a missing link) the links' common error code (1 runtime,
2 usage, 5 peer lost or timed out) or 1 when they differ; 2 for bad usage
or an unreadable input, printed with the reason.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import afile  # noqa: E402  (the safe writer: a temporary file never followed)

SEVERITY = {"corrupt": 3, "error": 2, "fail": 1, "pass": 0}


def die(msg):
    print(f"collect: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die(f"{path}: {e}")


def files_of(args):
    out = []
    for a in args:
        if os.path.isdir(a):
            out += [os.path.join(a, n) for n in sorted(os.listdir(a))
                    if n.endswith(".json") and not n.startswith("report")]
        elif os.path.isfile(a):
            out.append(a)
        else:
            die(f"{a}: no such file or folder")
    return out


def headline(doc):
    """(gbps, p50_us, p99_us, size) of a result document's largest size."""
    rows = [r for r in doc.get("results") or [] if r.get("client")]
    if not rows:
        return None, None, None, None
    r = max(rows, key=lambda r: r["size_bytes"])
    c = r["client"]
    lat = c.get("latency") or {}
    gbps = c.get("bw_gbps") if doc.get("test", {}).get("measure") != "lat" else None
    return gbps, lat.get("p50_us"), lat.get("p99_us"), r["size_bytes"]


def link_from_summary(s, path):
    if s.get("rdmabench_summary") != 1:
        die(f"{path}: not an rdmabench verdict summary (rdmabench_summary 1)")
    rows = s.get("rows") or []
    big = max(rows, key=lambda r: r.get("size", 0)) if rows else {}
    return {
        "name": os.path.basename(path)[:-len(".verdict.json")],
        "group": s.get("group"), "index": s.get("index"),
        "peer_index": s.get("peer_index"), "ring_size": s.get("ring_size"),
        "client": s.get("node") or s.get("pod") or s.get("host"),
        "server": s.get("server"), "tool": s.get("tool"),
        "verdict": s.get("verdict", "error"), "exit_code": s.get("exit_code", 1),
        "gbps": big.get("gbps"), "p50_us": big.get("p50_us"),
        "p99_us": big.get("p99_us"), "size": big.get("size"),
        "gates": s.get("failed_gates") or [], "error": s.get("error"),
        "notes": [],
    }


# the result document versions read here (2 added the -H histogram, 3
# the rails array of a --rails run, which is read as its rail 0)
SCHEMA_VERSIONS = (1, 2, 3, 4)


def version_error(doc, path):
    """None when doc is a result document of a version read here."""
    v = doc.get("schema_version")
    if v in SCHEMA_VERSIONS:
        return None
    return (f"{os.path.basename(path)}: schema_version {v!r} is not one of "
            f"{', '.join(map(str, SCHEMA_VERSIONS))}")


def merge_result(link, doc, path):
    err = version_error(doc, path)
    if err:
        link["verdict"], link["exit_code"] = "error", 1
        link["error"] = err
        return
    gbps, p50, p99, size = headline(doc)
    link.update(gbps=gbps, p50_us=p50, p99_us=p99, size=size)
    link["gates"] = [g.get("reason") or f"{g['name']} at {g['size_bytes']}"
                     for g in doc.get("gates") or [] if g.get("verdict") == "fail"]


def link_from_result(doc, path):
    err = version_error(doc, path)
    if err:
        die(err)
    dev = doc.get("device") or {}
    link = {
        "name": os.path.basename(path)[:-len(".json")], "group": None,
        "index": None, "peer_index": None, "ring_size": None,
        "client": doc.get("host"), "server": (dev.get("peer_addr") or "?").rsplit(":", 1)[0],
        "tool": doc.get("tool"), "verdict": doc.get("verdict", "error"),
        "exit_code": doc.get("exit_code", 1), "error": doc.get("error"), "notes": [],
    }
    merge_result(link, doc, path)
    return link


def fmt(v, unit=""):
    return "-" if v is None else f"{v:.2f}{unit}"


def main():
    ap = argparse.ArgumentParser(add_help=True, usage=__doc__.split("\n\n")[1])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--node", action="append", default=[])
    ap.add_argument("--slow-fraction", type=float, default=0.9)
    ap.add_argument("--fail-slow", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--json")
    a = ap.parse_args()
    if not 0 <= a.slow_fraction <= 1:
        die("--slow-fraction must be within 0..1")
    expect = {}
    for e in a.expect:
        g, _, n = e.partition("=")
        if not g or not n.isdigit():
            die(f"--expect {e}: want GROUP=N")
        expect[g] = int(n)

    summaries, results = {}, {}
    for p in files_of(a.inputs):
        if p.endswith(".verdict.json"):
            summaries[p[:-len(".verdict.json")]] = (p, load(p))
        else:
            results[p[:-len(".json")]] = (p, load(p))
    links = []
    for stem, (p, s) in sorted(summaries.items()):
        link = link_from_summary(s, p)
        if stem in results:
            merge_result(link, results.pop(stem)[1], stem + ".json")
        links.append(link)
    for stem, (p, doc) in sorted(results.items()):
        links.append(link_from_result(doc, p))
    if not links and not expect:
        die("no results found in " + " ".join(a.inputs))

    # ring groups: the server of a link is its peer index's node; missing
    # indexes are missing links
    groups = {}
    for link in links:
        if link["group"] is not None and link["index"] is not None:
            groups.setdefault(link["group"], {})[link["index"]] = link
    for g, n in expect.items():
        groups.setdefault(g, {})
    for g, members in groups.items():
        size = expect.get(g) or max([m["ring_size"] or 0 for m in members.values()] + [0])
        for i in range(size):
            if i not in members:
                members[i] = {
                    "name": f"{g}-{i}", "group": g, "index": i, "peer_index": None,
                    "ring_size": size, "client": f"{g} pod {i}", "server": "?",
                    "tool": None, "verdict": "error", "exit_code": 1, "gbps": None,
                    "p50_us": None, "p99_us": None, "size": None, "gates": [],
                    "error": "no result: the pod never reported (not scheduled, "
                             "killed, or no termination message)", "notes": [],
                }
                links.append(members[i])
        for m in members.values():
            peer = members.get(m["peer_index"]) if m["peer_index"] is not None else None
            if peer is not None and peer["client"] and " pod " not in peer["client"]:
                m["server"] = peer["client"]

    # slow links: below a fraction of the median of the measured ones
    measured = [l["gbps"] for l in links if l["gbps"] is not None and l["verdict"] != "error"]
    median = statistics.median(measured) if measured else None
    if median and len(measured) >= 3:
        for l in links:
            if l["gbps"] is not None and l["gbps"] < a.slow_fraction * median:
                l["notes"].append(f"slow: {100 * l['gbps'] / median:.0f}% of the median {median:.2f} Gb/s")
                if a.fail_slow and l["verdict"] == "pass":
                    l["verdict"], l["exit_code"] = "fail", 3

    # nodes in two bad links or more: the node, not the link, is suspect
    bad_count = {}
    for l in links:
        if l["verdict"] != "pass" or l["notes"]:
            for n in {l["client"], l["server"]}:
                bad_count[n] = bad_count.get(n, 0) + 1
    suspects = sorted(n for n, c in bad_count.items() if c >= 2 and n not in (None, "?"))

    links.sort(key=lambda l: (l["group"] or "", l["index"] if l["index"] is not None else -1, l["name"]))
    lines = ["| link (client -> server) | tool | size | Gb/s | p50 us | p99 us | verdict | exit | notes |",
             "|---|---|---|---|---|---|---|---|---|"]
    for l in links:
        notes = list(l["notes"]) + list(l["gates"])
        if l["verdict"] in ("error", "corrupt") and l["error"]:
            notes.append(l["error"])
        cell = "; ".join(str(n).replace("|", "/").replace("\n", " ") for n in notes)
        lines.append(f"| {l['client']} -> {l['server']} | {l['tool'] or '-'} | {l['size'] or '-'} | "
                     f"{fmt(l['gbps'])} | {fmt(l['p50_us'])} | {fmt(l['p99_us'])} | "
                     f"{l['verdict']} | {l['exit_code']} | {cell} |")
    counts = {v: sum(1 for l in links if l["verdict"] == v) for v in SEVERITY}
    worst = max((l["verdict"] for l in links), key=lambda v: SEVERITY.get(v, 2))
    if worst == "corrupt":
        code = 4
    elif worst == "error":
        codes = {l["exit_code"] for l in links if l["verdict"] == "error"}
        code = codes.pop() if len(codes) == 1 and next(iter(codes)) in (1, 2, 5) else 1
    elif worst == "fail":
        code = 3
    else:
        code = 0
    lines.append("")
    if median is not None:
        lines.append(f"median {median:.2f} Gb/s over {len(measured)} measured link(s)")
    silent = sorted(set(a.node) - {l["client"] for l in links})
    if silent:
        lines.append("nodes without a result: " + ", ".join(silent))
    if suspects:
        lines.append("suspect nodes (in two bad or slow links or more): " + ", ".join(suspects))
    lines.append(f"overall: {worst} (exit {code}): {counts['pass']} passed, {counts['fail']} failed, "
                 f"{counts['error']} errors, {counts['corrupt']} corrupt, of {len(links)} links")
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    if a.out:
        afile.write(a.out, report)
    if a.json:
        afile.write(a.json, json.dumps(
            {"verdict": worst, "exit_code": code, "median_gbps": median,
             "suspect_nodes": suspects, "silent_nodes": silent, "links": links}, indent=2) + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
