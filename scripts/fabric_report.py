#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""scripts/fabric_report.py - a fabric run's per-link results -> one fabric report.

Usage: scripts/fabric_report.py [OPTIONS] DIR [DIR...]

DIR is ib_fabric's --out folder: plan.json (the links that should have
run, each with its result_file) and the per-link result documents
(schema_version 1 to 4: results/schema/rdmabench-result-v1.schema.json).
When each node wrote its own folder, give them all: the plan comes from the
first that has one, each result from whichever folder holds it. A result
not found as a file is looked for in the folders' *.log files: the pod
logs of scripts/k8s/fabric.py's Job (kubectl logs [--prefix]), where each
document stands between its markers.

With ib_fabric --nccl-test's rank documents in the folders
(nccl_r<rank>_<node>.json, results/schema/fabric-nccl-v1.schema.json),
the report adds their section "nccl": every rank of the run (the nodes
of the plan, else of the documents, x their ranks_per_node: rank r on
node r / ranks_per_node) with its verdict (passed, below, socket,
error, corrupt), busbw at the large sizes, the expectation and NCCL's
transport (intra-node: every channel via P2P or SHM, a pass); a rank
without a document is an error. Links and
nccl-tests in one folder give one verdict for both; a folder of
nccl-tests alone needs no plan.json.

Writes, into --out-dir (default: the first DIR):
  fabric.txt    the text table (also printed): one row per link, the
                node x node matrix (client row -> server column, Gb/s of
                all streams of the connection; with --rails the rails
                summed, and a matrix per rail), the weakest links and
                the suspect nodes
  fabric.json   the report (results/schema/fabric-report-v1.schema.json)
  fabric.xml    JUnit: one testcase per link (failure = below a gate or
                slow with --fail-slow, error = no result or an error)
  fabric.prom   Prometheus text: one series per link, client/server labels
  report.html   the acceptance page: verdict, suspects, the matrix
                (zoomable), a sortable per-link table, NCCL and any other
                section (scripts/fabric_html.py); self-contained
  fabric.png, fabric.svg   the matrix as a heat map (matplotlib; skipped
                with a note when it is not installed); report.html and
                the heat maps share a colour scale anchored on the gate:
                a link below it is red, never green
Each file is written as common/lib/afile.c writes (scripts/afile.py): a
temporary file of an unpredictable name in the same folder, renamed over
a regular file; a device, FIFO or symlink is written in place; a folder
in a file's place is refused (exit 2).

A link's verdict is its document's (its gates); a link without a
document is an error. A link is slow below --slow-fraction x the median
Gb/s of the measured links (needs 3 links or more). The bad links are
the failed, erroneous, corrupt and slow ones; a suspect node is in every
bad link, or in more than half of them and in two at least ("node-07 is
in all 3 bad links"): a bad node shows in all its links, a bad cable
in one.

Options:
  --out-dir DIR       where the files go
  --slow-fraction F   (default 0.9)
  --fail-slow         a slow link fails (verdict fail, exit 3)
  --title TEXT        the heat map's title

Exit status: 0 every link passed; 3 a link below a gate (or slow with
--fail-slow); 4 corrupt data on a link; 1 a link with an error or no
result; 2 bad usage or an unreadable plan.
"""
import argparse
import io
import json
import os
import re
import statistics
import sys
import textwrap
from xml.sax.saxutils import quoteattr

# one reader of result documents: the Kubernetes collector's
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "k8s"))
import collect  # noqa: E402
from collect import SEVERITY, headline, load as load_json  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import afile  # noqa: E402  (the safe writer: a temporary file never followed)
import fabric_fleet  # noqa: E402  (the fleet view: versions and findings across nodes)
import fabric_html  # noqa: E402  (report.html; the heat maps' colour scale)


def die(msg):
    print(f"fabric_report: {msg}", file=sys.stderr)
    sys.exit(2)


collect.die = die  # its reader's messages name this program
fabric_fleet.die = die


def find_plan(dirs):
    for d in dirs:
        p = os.path.join(d, "plan.json")
        if os.path.isfile(p):
            plan = load_json(p)
            if plan.get("fabric_plan_version") != 1:
                die(f"{p}: fabric_plan_version {plan.get('fabric_plan_version')!r} is not 1")
            return plan
    return None


NCCL_FILE = re.compile(r"^nccl_r([0-9]+)_(.+)\.json$")
# a rank document's verdict -> the report's verdict and exit code
NCCL_VERDICT = {"passed": "pass", "below": "fail", "socket": "fail", "error": "error",
                "corrupt": "corrupt"}


def nccl_docs(dirs):
    """{rank: (file name, document)} of ib_fabric --nccl-test's ranks."""
    out = {}
    for d in dirs:
        for n in sorted(os.listdir(d)):
            m = NCCL_FILE.match(n)
            if not m or int(m.group(1)) in out:
                continue
            doc = load_json(os.path.join(d, n))
            if not isinstance(doc, dict) or doc.get("fabric_nccl_version") not in (1, 2):
                die(f"{n}: not an ib_fabric --nccl-test document (fabric_nccl_version 1 or 2)")
            out[int(m.group(1))] = (n, doc)
    return out


def nccl_rank(i, node, found):
    if found is None:
        return {"rank": i, "node": node, "result_file": None, "verdict": "error", "exit_code": 1,
                "nccl_verdict": "error", "test": None, "net": None, "rows": 0,
                "busbw_gbps": None, "at_size": None, "expect_busbw_gbps": None,
                "expect_from": None, "wrong": None,
                "reason": f"no result: nccl_r{i}_{node}.json is in none of the folders"}
    name, d = found
    g, v = d["gate"], NCCL_VERDICT.get(d.get("verdict"), "error")
    return {"rank": i, "node": d["node"], "result_file": name, "verdict": v,
            "exit_code": {"pass": 0, "fail": 3, "corrupt": 4, "error": 1}[v],
            "nccl_verdict": d["verdict"],
            "test": d["test"] or os.path.basename(d["program"]), "net": d["transport"]["net"],
            "rows": len(d["rows"]), "busbw_gbps": g["busbw_gbps"] if d["rows"] else None,
            "at_size": g["at_size"] if d["rows"] else None,
            "expect_busbw_gbps": g["expect_busbw_gbps"], "expect_from": g["expect_from"],
            "wrong": g["wrong"], "reason": d["reason"]}


def ranks_per_node(docs):
    """--ranks-per-node of the run: every document's (version 1: 1)."""
    per = {d.get("ranks_per_node", 1) for _, d in docs.values()}
    if len(per) > 1:
        die(f"the rank documents disagree on ranks_per_node ({sorted(per)}): "
            "give the folders of one run")
    return per.pop()


def nccl_of(dirs, nodes):
    """The report's "nccl" section, or None without rank documents: nodes x
    ranks_per_node ranks, rank r on node r / ranks_per_node."""
    docs = nccl_docs(dirs)
    if not docs:
        return None
    if not nodes:
        nodes = max((d["nodes"] for _, d in docs.values()), key=len)
    per = ranks_per_node(docs)
    ranks = [nccl_rank(i, nodes[i // per], docs.get(i)) for i in range(len(nodes) * per)]
    verdict, code = overall(ranks)
    return {"test": next((r["test"] for r in ranks if r["test"]), ""), "ranks": ranks,
            "ranks_per_node": per, "verdict": verdict, "exit_code": code}


BEGIN = re.compile(r"^(\[[^\]]*\] )?===== rdmabench fabric link (\S+) begin =====$")
END = "===== rdmabench fabric link end ====="


def logged_docs(dirs):
    """{result_file: text} from the pod logs (*.log) in the folders: the
    documents scripts/k8s/fabric.py's pods print between markers
    (kubectl logs --prefix's "[pod/...] " prefix allowed)."""
    out = {}
    for d in dirs:
        for n in sorted(os.listdir(d)):
            if not n.endswith(".log"):
                continue
            name, lines, prefix = None, [], ""
            with open(os.path.join(d, n), encoding="utf-8", errors="replace") as f:
                for line in f:
                    line = line.rstrip("\n")
                    m = BEGIN.match(line)
                    if m:
                        name, lines, prefix = m.group(2), [], m.group(1) or ""
                    elif name and line == prefix + END:
                        out[name] = "\n".join(lines)
                        name = None
                    elif name:
                        lines.append(line[len(prefix):] if line.startswith(prefix) else line)
    return out


def find_doc(name, dirs, logged):
    for d in dirs:
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return load_json(path)
    if name in logged:
        try:
            return json.loads(logged[name])
        except ValueError as e:
            die(f"{name} in a pod log: {e}")
    return None


def link_of(pl, dirs, logged, docs):
    link = {k: pl[k] for k in ("client", "server", "round", "stream", "port", "result_file")}
    link.update(verdict="error", exit_code=1, gbps=None, gates=[], slow=False,
                error="no result: " + pl["result_file"] + " is in none of the folders")
    doc = find_doc(pl["result_file"], dirs, logged)
    if doc is None:
        return link
    err = collect.version_error(doc, pl["result_file"])
    if err:
        link["error"] = err
        return link
    docs.append(doc)
    link.update(verdict=doc.get("verdict", "error"), exit_code=doc.get("exit_code", 1),
                gbps=headline(doc)[0], error=doc.get("error"))
    if doc.get("rails"):
        # --rails: the link is the node's sum, each rail kept apart
        link["rails"] = [{"rail": i, "device": r.get("device"), "gbps": r.get("bw_gbps"),
                          "verdict": r.get("verdict", "error")}
                         for i, r in enumerate(doc["rails"])]
        figs = [r["gbps"] for r in link["rails"] if r["gbps"] is not None]
        link["gbps"] = sum(figs) if figs else None
    link["gates"] = [{k: g.get(k) for k in ("name", "size_bytes", "figure", "expected",
                                            "unit", "verdict", "reason")}
                     for g in doc.get("gates") or []]
    return link


def congested_of(links):
    """The links whose congestion budgets (--expect-max-pause, -cnp, -ecn,
    -out-of-buffer: gates named *_budget) failed, with whether their
    bandwidth gates passed all the same."""
    out = []
    for l in links:
        over = [g for g in l["gates"] if (g["name"] or "").endswith("_budget")
                and g["verdict"] == "fail"]
        if over:
            bw_ok = all(g["verdict"] == "pass" for g in l["gates"]
                        if not (g["name"] or "").endswith("_budget"))
            out.append({"client": l["client"], "server": l["server"], "stream": l["stream"],
                        "gates": [g["name"] for g in over], "bandwidth_passed": bw_ok,
                        "reason": "; ".join(g["reason"] or g["name"] for g in over)})
    return out


def congested_text(c):
    return (f"congested: {c['client']} -> {c['server']} stream {c['stream']}: {c['reason']}"
            + (" (its bandwidth passed)" if c["bandwidth_passed"] else ""))


def mark_slow(links, fraction, fail_slow):
    measured = [l["gbps"] for l in links if l["gbps"] is not None and l["verdict"] != "error"]
    median = statistics.median(measured) if measured else None
    if median and len(measured) >= 3:
        for l in links:
            if l["gbps"] is not None and l["gbps"] < fraction * median:
                l["slow"] = True
                if fail_slow and l["verdict"] == "pass":
                    l.update(verdict="fail", exit_code=3,
                             error=f"slow: {l['gbps']:.2f} Gb/s < {fraction} x the median {median:.2f}")
    return median


def is_bad(l):
    return l["verdict"] != "pass" or l["slow"]


def suspects_of(bad, nodes):
    out = []
    for n in nodes:
        k = sum(1 for l in bad if n in (l["client"], l["server"]))
        if bad and (k == len(bad) or (k >= 2 and 2 * k > len(bad))):
            out.append({"node": n, "bad_links": k, "of": len(bad)})
    return sorted(out, key=lambda s: -s["bad_links"])


def why(l):
    if l["verdict"] != "pass":
        return l["error"] or l["verdict"]
    return "slow" if l["slow"] else "weakest"


def matrix_of(links, nodes, rail=None):
    """Gb/s, client row -> server column, streams summed: the links' own
    figures, or (rail=i) their rail i's."""
    idx = {n: i for i, n in enumerate(nodes)}
    m = [[None] * len(nodes) for _ in nodes]
    for l in links:
        c, s = idx[l["client"]], idx[l["server"]]
        v = l["gbps"]
        if rail is not None:
            r = l.get("rails") or []
            v = r[rail]["gbps"] if rail < len(r) else None
        if v is not None:
            m[c][s] = (m[c][s] or 0) + v
    return m


def rail_matrices(links, nodes):
    """--rails: one matrix per rail index (devices as the links name them)."""
    n = max((len(l.get("rails") or []) for l in links), default=0)
    out = []
    for i in range(n):
        devs = sorted({l["rails"][i]["device"] for l in links
                       if len(l.get("rails") or []) > i and l["rails"][i]["device"]})
        out.append({"rail": i, "devices": devs, "gbps": matrix_of(links, nodes, i)})
    return out


def matrix_text(nodes, m, w):
    out = [" " * w + "".join(f" {n[-9:]:>9}" for n in nodes)]
    for n, row in zip(nodes, m):
        out.append(f"{n:<{w}}" + "".join(f" {fmt(v) if v is not None else '.':>9}" for v in row))
    return out


def overall(links):
    worst = max((l["verdict"] for l in links), key=lambda v: SEVERITY.get(v, 2), default="error")
    worst = worst if worst in SEVERITY else "error"
    return worst, {"pass": 0, "fail": 3, "corrupt": 4, "error": 1}[worst]


def fmt(v):
    return "-" if v is None else f"{v:.2f}"


def sentence(s):
    if s["bad_links"] == s["of"]:
        return f"{s['node']} is in all {s['of']} bad links" if s["of"] > 1 else \
            f"{s['node']} is in the one bad link"
    return f"{s['node']} is in {s['bad_links']} of {s['of']} bad links"


def render_text(rep):
    w = max([len(n) for n in rep["nodes"]] + [6])
    if not rep["links"]:
        return "\n".join(nccl_text(rep["nccl"], w)[1:] +
                         [f"overall: {rep['verdict']} (exit {rep['exit_code']})"]) + "\n"
    out = [f"fabric: {rep['pattern']} over {len(rep['nodes'])} nodes x {rep['streams']} stream(s), "
           f"{rep['tool']}", "",
           f"{'round':>5}  {'client':<{w}} -> {'server':<{w}} {'stream':>6} {'Gb/s':>9}  verdict"]
    for l in rep["links"]:
        note = " (slow)" if l["slow"] else ""
        note += f": {l['error']}" if l["verdict"] != "pass" and l["error"] else ""
        out.append(f"{l['round']:>5}  {l['client']:<{w}} -> {l['server']:<{w}} {l['stream']:>6} "
                   f"{fmt(l['gbps']):>9}  {l['verdict']}{note}")
    rails = rep["matrix"].get("rails") or []
    out += ["", "matrix (Gb/s, client row -> server column, streams summed"
            + (", rails summed):" if rails else "):")]
    out += matrix_text(rep["nodes"], rep["matrix"]["gbps"], w)
    for r in rails:
        out += ["", f"matrix of rail {r['rail']} ({', '.join(r['devices']) or '?'}):"]
        out += matrix_text(rep["nodes"], r["gbps"], w)
    out.append("")
    if rep["median_gbps"] is not None:
        out.append(f"median {rep['median_gbps']:.2f} Gb/s per link")
    for l in rep["weakest"]:
        out.append(f"weakest: {l['client']} -> {l['server']} stream {l['stream']}: "
                   f"{fmt(l['gbps'])} Gb/s ({l['why']})")
    for s in rep["suspects"]:
        out.append(f"suspect: {sentence(s)}")
    out += [congested_text(c) for c in rep.get("congested") or []]
    out += fabric_fleet.fleet_lines(rep.get("fleet"))
    out += nccl_text(rep.get("nccl"), w)
    c = {v: sum(1 for l in rep["links"] if l["verdict"] == v) for v in SEVERITY}
    out.append(f"overall: {rep['verdict']} (exit {rep['exit_code']}): {c['pass']} passed, "
               f"{c['fail']} failed, {c['error']} errors, {c['corrupt']} corrupt, "
               f"{sum(1 for l in rep['links'] if l['slow'])} slow, of {len(rep['links'])} links")
    return "\n".join(out) + "\n"


def nccl_text(n, w):
    if not n:
        return []
    per = n.get("ranks_per_node", 1)
    shape = f" ({len(n['ranks']) // per} node(s) x {per} rank(s) a node)" if per > 1 else ""
    out = ["", f"nccl-tests: {n['test']} on {len(n['ranks'])} rank(s){shape}: {n['verdict']} "
           f"(exit {n['exit_code']})",
           f"{'rank':>5}  {'node':<{w}} {'busbw GB/s':>10} {'expected':>9}  {'NCCL net':<12} verdict"]
    for r in n["ranks"]:
        out.append(f"{r['rank']:>5}  {r['node']:<{w}} {fmt(r['busbw_gbps']):>10} "
                   f"{fmt(r['expect_busbw_gbps']):>9}  {r['net'] or '-':<12} {r['nccl_verdict']}"
                   + ("" if r["reason"] in ("passed", None, "") else f": {r['reason']}"))
    return out


def cls(*parts):
    """A JUnit classname: CI trees show it as package.class, so a host's
    own dots become '_' (rdmabench.fabric.<pattern>.<client host>)."""
    return ".".join(parts[:2] + tuple(p.replace(".", "_") for p in parts[2:]))


def link_cases(rep, l):
    """[(classname, name, verdict, message, type)] of a link: the link, and with
    --rails each rail. Names carry tool, client and server (and the rail),
    so the files of 500 nodes never collide in a CI's test list."""
    where = f"({l['client']} -> {l['server']})"
    c = cls("rdmabench", "fabric", rep["pattern"], l["client"])
    tool = os.path.basename(rep["tool"])
    text = f"{fmt(l['gbps'])} Gb/s" + (f": {l['error']}" if l["error"] else "")
    out = [(c, f"{tool}.r{l['round']}.s{l['stream']} {where}", l["verdict"], text, l["verdict"])]
    for r in l.get("rails") or []:
        out.append((c, f"{tool}.r{l['round']}.s{l['stream']}.rail{r['rail']}."
                    f"{r['device'] or '?'} {where}", r["verdict"], f"{fmt(r['gbps'])} Gb/s",
                    r["verdict"]))
    return out


def junit_head(cases):
    fails = sum(1 for v in cases if v == "fail")
    errs = sum(1 for v in cases if v in ("error", "corrupt"))
    return f'tests="{len(cases)}" failures="{fails}" errors="{errs}"'


def junit_case(classname, name, verdict, message, kind):
    case = (f'    <testcase classname={quoteattr(classname)} name={quoteattr(name)} '
            'time="0.000"')
    if verdict == "pass":
        return [case + "/>"]
    tag = "failure" if verdict == "fail" else "error"
    return [case + ">", f'      <{tag} message={quoteattr(message)} type={quoteattr(kind)}/>',
            "    </testcase>"]


def junit_suite(name, cases):
    """A testsuite; the strict (Ant) schema wants system-out and -err,
    even empty (results/schema/junit.xsd)."""
    out = [f'  <testsuite name={quoteattr(name)} {junit_head([c[2] for c in cases])} '
           f'skipped="0" time="0.000">']
    for c in cases:
        out += junit_case(*c)
    return out + ["    <system-out/>", "    <system-err/>", "  </testsuite>"]


def nccl_cases(n):
    """One testcase a rank (classname rdmabench.fabric.nccl.<node>)."""
    return [(cls("rdmabench", "fabric", "nccl", r["node"]),
             f"{n['test']}.r{r['rank']} ({r['node']})", r["verdict"], r["reason"] or "",
             r["nccl_verdict"])
            for r in n["ranks"]] if n else []


def render_junit(rep):
    """JUnit: a suite of the links, one of the nccl-tests ranks. time is
    0.000: a link's own time is in its document's JUnit."""
    links = [c for l in rep["links"] for c in link_cases(rep, l)]
    nccl = nccl_cases(rep.get("nccl"))
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="rdmabench-fabric" {junit_head([c[2] for c in links + nccl])} '
           'time="0.000">']
    if links:
        out += junit_suite("rdmabench.fabric." + rep["pattern"], links)
    if nccl:
        out += junit_suite("rdmabench.fabric.nccl." + rep["nccl"]["test"], nccl)
    return "\n".join(out + ["</testsuites>"]) + "\n"


def prom_label(v):
    return str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def render_prom(rep):
    out = ["# HELP rdmabench_fabric_link_bandwidth_bytes_per_second A link's payload bandwidth "
           "(client's figure at the largest size; x 8 / 1e9 = Gb/s).",
           "# TYPE rdmabench_fabric_link_bandwidth_bytes_per_second gauge"]
    ok = ["# HELP rdmabench_fabric_link_passed 1 when the link passed its gates (and was not "
          "slow with --fail-slow), else 0.", "# TYPE rdmabench_fabric_link_passed gauge"]
    rails = ["# HELP rdmabench_fabric_link_rail_bandwidth_bytes_per_second One rail's payload "
             "bandwidth on a --rails link (the link's figure is their sum).",
             "# TYPE rdmabench_fabric_link_rail_bandwidth_bytes_per_second gauge"]
    for l in rep["links"]:
        lab = (f'pattern="{prom_label(rep["pattern"])}",client="{prom_label(l["client"])}",'
               f'server="{prom_label(l["server"])}",stream="{l["stream"]}"')
        if l["gbps"] is not None:
            out.append(f"rdmabench_fabric_link_bandwidth_bytes_per_second{{{lab}}} {l['gbps'] * 1e9 / 8!r}")
        for r in l.get("rails") or []:
            if r["gbps"] is not None:
                rl = f'{lab},rail="{r["rail"]}",device="{prom_label(r["device"] or "")}"'
                rails.append(f"rdmabench_fabric_link_rail_bandwidth_bytes_per_second{{{rl}}} "
                             f"{r['gbps'] * 1e9 / 8!r}")
        ok.append(f"rdmabench_fabric_link_passed{{{lab}}} {1 if l['verdict'] == 'pass' else 0}")
    return "\n".join(out + ok + (rails if len(rails) > 2 else []) + congested_prom(rep) +
                     nccl_prom(rep.get("nccl"))) + "\n"


def congested_prom(rep):
    """A series per congestion budget a link exceeded (none: no lines)."""
    out = []
    for c in rep.get("congested") or []:
        lab = (f'pattern="{prom_label(rep["pattern"])}",client="{prom_label(c["client"])}",'
               f'server="{prom_label(c["server"])}",stream="{c["stream"]}"')
        out += [f'rdmabench_fabric_link_budget_exceeded{{{lab},gate="{prom_label(g)}"}} 1'
                for g in c["gates"]]
    return (["# HELP rdmabench_fabric_link_budget_exceeded 1 for each congestion budget "
             "(--expect-max-pause, -cnp, -ecn, -out-of-buffer) the link exceeded.",
             "# TYPE rdmabench_fabric_link_budget_exceeded gauge"] + out) if out else []


def nccl_prom(n):
    if not n:
        return []
    bw = ["# HELP rdmabench_fabric_nccl_busbw_bytes_per_second nccl-tests' busbw of a rank at the "
          "large sizes (x 1e9 = GB/s as nccl-tests prints).",
          "# TYPE rdmabench_fabric_nccl_busbw_bytes_per_second gauge"]
    ok = ["# HELP rdmabench_fabric_nccl_passed 1 when the rank's nccl-tests run passed its gates "
          "(busbw, #wrong, NCCL's transport), else 0.", "# TYPE rdmabench_fabric_nccl_passed gauge"]
    for r in n["ranks"]:
        lab = (f'test="{prom_label(n["test"])}",rank="{r["rank"]}",node="{prom_label(r["node"])}",'
               f'net="{prom_label(r["net"] or "")}"')
        if r["busbw_gbps"] is not None:
            bw.append(f"rdmabench_fabric_nccl_busbw_bytes_per_second{{{lab}}} {r['busbw_gbps'] * 1e9!r}")
        ok.append(f"rdmabench_fabric_nccl_passed{{{lab}}} {1 if r['verdict'] == 'pass' else 0}")
    return bw + ok


def render_heatmap(rep, stem, title):
    """fabric.png and fabric.svg, coloured as report.html (the gate-anchored
    scale of scripts/fabric_html.py), at most 16 x 16 inches (1600 px) and
    a label every n/40 nodes at 200; a note (not an error) without
    matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import LinearSegmentedColormap, Normalize, to_rgb
        from matplotlib.patches import Rectangle
    except ImportError:
        return "no heat map: matplotlib is not installed (apt-get install python3-matplotlib)"
    nodes, n = rep["nodes"], len(rep["nodes"])
    gate, top = fabric_html.report_gate(rep), fabric_html.top_of(rep)
    rgb = [[to_rgb(fabric_html.GREY)] * n for _ in nodes]
    for l, (i, j), g, st in fabric_html.cells(rep):
        gl = fabric_html.link_gate(l)
        rgb[i][j] = to_rgb(fabric_html.scale(g, st, gl if gl is not None else gate, top))
    size = min(16.0, max(4.0, 0.6 * n + 2.5))
    fig, ax = plt.subplots(figsize=(size + 1.2, size))
    ax.imshow(rgb, interpolation="nearest")
    cmap = LinearSegmentedColormap.from_list("gate", fabric_html.colormap_stops(gate, top))
    bar = fig.colorbar(plt.cm.ScalarMappable(Normalize(0, top), cmap), ax=ax,
                       label="Gb/s (streams summed); reds: below the gate")
    if gate:
        bar.ax.axhline(gate, color="black", linewidth=2)
        bar.ax.text(1.05, gate, "gate", transform=bar.ax.get_yaxis_transform(), va="center")
    every = -(-n // 40)
    ticks = list(range(0, n, every))
    ax.set_xticks(ticks, labels=[nodes[i] for i in ticks], rotation=45, ha="right",
                  fontsize=10 if n <= 24 else 7)
    ax.set_yticks(ticks, labels=[nodes[i] for i in ticks], fontsize=10 if n <= 24 else 7)
    ax.set_xlabel("server")
    ax.set_ylabel("client")
    m = rep["matrix"]["gbps"]
    for i in range(n):
        for j in range(n):
            if m[i][j] is not None and n <= 24:
                ax.text(j, i, fmt(m[i][j]), ha="center", va="center", fontsize=8)
    idx = {x: i for i, x in enumerate(nodes)}
    for l in rep["links"]:
        if is_bad(l) or fabric_html.link_state(l) != "pass":
            ax.add_patch(Rectangle((idx[l["server"]] - 0.5, idx[l["client"]] - 0.5), 1, 1,
                                   fill=False, edgecolor="black", linewidth=2.5 if n <= 24 else 0.8))
    sus = rep["suspects"]
    sub = ("suspect: " + ", ".join(s["node"] for s in sus[:4]) +
           f" (in {sus[0]['bad_links']} of {sus[0]['of']} bad links)") if sus else "no suspect node"
    ax.set_title(f"{title or 'rdmabench fabric: ' + rep['pattern']}\n"
                 + "\n".join(textwrap.wrap(f"bad links outlined; {sub}", 60)), fontsize=10)
    fig.tight_layout()
    for ext in ("png", "svg"):
        buf = io.BytesIO()
        fig.savefig(buf, format=ext, dpi=100)
        afile.write(f"{stem}.{ext}", buf.getvalue())
    plt.close(fig)
    return None


def build(plan, dirs, a):
    nodes = [n["name"] for n in plan["nodes"]] if plan else []
    nccl = nccl_of(dirs, nodes)
    if not plan and not nccl:
        die("no plan.json and no nccl_r*.json in " + " ".join(dirs) +
            " (ib_fabric --out DIR writes them)")
    if not plan:
        return nccl_only(nccl)
    logged = logged_docs(dirs)
    docs = []
    links = [link_of(pl, dirs, logged, docs) for pl in plan["links"]]
    if not links:
        die("the plan has no links")
    median = mark_slow(links, a.slow_fraction, a.fail_slow)
    bad = [l for l in links if is_bad(l)]
    weak = sorted(bad, key=lambda l: (l["gbps"] is not None, l["gbps"] or 0))
    if not weak:
        weak = sorted([l for l in links if l["gbps"] is not None], key=lambda l: l["gbps"])[:1]
    verdict, code = overall(links + (nccl["ranks"] if nccl else []))
    return dict({
        "fabric_report_version": 1, "pattern": plan["pattern"], "tool": plan["tool"],
        "streams": plan["streams"], "rounds": plan["rounds"], "nodes": nodes,
        "links": links, "matrix": dict({"nodes": nodes, "gbps": matrix_of(links, nodes)},
                                       **({"rails": rail_matrices(links, nodes)}
                                          if any(l.get("rails") for l in links) else {})),
        "median_gbps": median,
        "weakest": [{"client": l["client"], "server": l["server"], "stream": l["stream"],
                     "gbps": l["gbps"], "why": why(l)} for l in weak[:5]],
        "suspects": suspects_of(bad, nodes), "congested": congested_of(links),
        "verdict": verdict, "exit_code": code,
    }, **({"nccl": nccl} if nccl else {}),
        **fleet_of(docs, dirs))


def fleet_of(docs, dirs):
    """The "fleet" key: the odd ones out over the links' documents and the
    folders' doctor_*.json (ib_doctor --json of each node), if 2 nodes."""
    fl = fabric_fleet.fleet(docs, fabric_fleet.doctor_docs(dirs))
    return {"fleet": fl} if fl else {}


def nccl_only(nccl):
    """A report of nccl-tests alone: no pattern, no links."""
    nodes = list(dict.fromkeys(r["node"] for r in nccl["ranks"]))  # a node's ranks: one node
    return {"fabric_report_version": 1, "pattern": None, "tool": "", "streams": 0,
            "rounds": 0, "nodes": nodes, "links": [],
            "matrix": {"nodes": nodes, "gbps": [[None] * len(nodes) for _ in nodes]},
            "median_gbps": None, "weakest": [], "suspects": [], "verdict": nccl["verdict"],
            "exit_code": nccl["exit_code"], "nccl": nccl}


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--out-dir")
    ap.add_argument("--slow-fraction", type=float, default=0.9)
    ap.add_argument("--fail-slow", action="store_true")
    ap.add_argument("--title")
    a = ap.parse_args()
    if not 0 <= a.slow_fraction <= 1:
        die("--slow-fraction must be within 0..1")
    for d in a.dirs:
        if not os.path.isdir(d):
            die(f"{d}: not a folder (give ib_fabric's --out folder)")
    rep = build(find_plan(a.dirs), a.dirs, a)
    out = a.out_dir or a.dirs[0]
    os.makedirs(out, exist_ok=True)
    text = render_text(rep)
    files = {"fabric.txt": text, "fabric.json": json.dumps(rep, indent=2) + "\n",
             "fabric.xml": render_junit(rep), "fabric.prom": render_prom(rep),
             "report.html": fabric_html.render(rep, a.title)}
    try:
        for name, body in files.items():
            afile.write(os.path.join(out, name), body)
        sys.stdout.write(text)
        note = render_heatmap(rep, os.path.join(out, "fabric"), a.title) if rep["links"] else None
    except (OSError, afile.AfileError) as e:
        die(f"cannot write the report: {e}")
    if note:
        print(f"fabric_report: {note}", file=sys.stderr)
    return rep["exit_code"]


if __name__ == "__main__":
    sys.exit(main())
