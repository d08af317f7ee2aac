#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/lab/fabric_check.py PLAN DIR [--slow NODE | --rails N] - a lab fabric run
against its plan: PLAN is the planner's own plan (ib_fabric --dry-run=json),
DIR the run's --out folder after scripts/fabric_report.py DIR.

Checks: fabric.json validates against results/schema/fabric-report-v1;
its links are exactly the plan's (client, server, stream) and each was
measured (a result document whose host is the link's client, Gb/s > 0);
fabric.xml has one testcase per link, and per rail with --rails (and validates against
results/schema/junit.xsd and Jenkins' tests/fixtures/jenkins-junit-10.xsd
when xmllint is there); report.html has a matrix cell per client -> server;
fabric.png is a PNG.
Without --slow every link passed; with --slow NODE the weakest link has
NODE as its client or server and NODE is the one suspect. With --rails N
every link's document has N rails (--rails auto), each measured, the
report's link figure is their sum and it has a matrix per rail.
Prints one line per finding; exit 0 when all hold, else 1."""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import jsonschema

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def key(link):
    return (link["client"], link["server"], link["stream"])


def check_links(plan, rep, out, bad):
    want = sorted(key(l) for l in plan["links"])
    got = sorted(key(l) for l in rep["links"])
    if want != got:
        bad.append(f"links {got} are not the plan's {want}")
    for l in rep["links"]:
        doc = os.path.join(out, l["result_file"])
        host = json.load(open(doc, encoding="utf-8")).get("host") if os.path.exists(doc) else None
        if host != l["client"] or not l["gbps"]:
            bad.append(f"{l['client']}->{l['server']}.s{l['stream']} not measured"
                       f" (document host {host}, {l['gbps']} Gb/s)")


def check_rails(rep, out, want, bad):
    for l in rep["links"]:
        doc = json.load(open(os.path.join(out, l["result_file"]), encoding="utf-8"))
        rails = [r for r in doc.get("rails", []) if r.get("bw_gbps")]
        if len(rails) != want:
            bad.append(f"{l['client']}->{l['server']}: {len(rails)} rails measured, want {want}")
        total = sum(r["bw_gbps"] for r in rails)
        if not l["gbps"] or abs(l["gbps"] - total) > 1e-9 * max(1.0, total):
            bad.append(f"{l['client']}->{l['server']}: the report's {l['gbps']} Gb/s is not "
                       f"the rails' sum {total}")
        if len((rep["matrix"].get("rails") or [])) != want:
            bad.append(f"the report has no matrix for each of the {want} rails")


def check_files(plan, out, bad, rails=0):
    """fabric.xml: a testcase per link and, with rails, per rail of it;
    report.html: a matrix cell per client -> server, in the links' matrix
    and in each rail's."""
    xml = os.path.join(out, "fabric.xml")
    cases = ET.parse(xml).getroot().iter("testcase")
    if len(list(cases)) != len(plan["links"]) * (1 + rails):
        bad.append(f"fabric.xml: not one testcase per link ({len(plan['links'])})"
                   + (f" and per rail ({rails})" if rails else ""))
    for xsd in ("results/schema/junit.xsd", "tests/fixtures/jenkins-junit-10.xsd"):
        if not shutil.which("xmllint"):
            break
        r = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(ROOT, xsd), xml],
                           capture_output=True)
        if r.returncode:
            bad.append(f"fabric.xml does not validate ({xsd}): {r.stderr.decode()[-300:]}")
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        cells = re.findall(r'<rect class="cell (\w+)"', f.read())
    if len(cells) != len({(l["client"], l["server"]) for l in plan["links"]}) * (1 + rails):
        bad.append(f"report.html: {len(cells)} matrix cells, not one per client -> server")
    with open(os.path.join(out, "fabric.png"), "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            bad.append("fabric.png is not a PNG")


def check_verdicts(rep, slow, bad):
    if slow is None:
        failed = [key(l) for l in rep["links"] if l["verdict"] != "pass"]
        if failed:
            bad.append(f"links not passed: {failed}")
        return
    w = rep["weakest"][0] if rep["weakest"] else None
    if not w or slow not in (w["client"], w["server"]):
        bad.append(f"weakest link {w} is not one of {slow}'s")
    suspects = [s["node"] for s in rep["suspects"]]
    if suspects != [slow]:
        bad.append(f"suspects {suspects}, want [{slow}]")


def main():
    plan_path, out = sys.argv[1], sys.argv[2]
    opt = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    slow = opt.get("--slow")
    plan = json.load(open(plan_path, encoding="utf-8"))
    rep = json.load(open(os.path.join(out, "fabric.json"), encoding="utf-8"))
    schema = json.load(open(os.path.join(ROOT, "results", "schema", "fabric-report-v1.schema.json"),
                            encoding="utf-8"))
    bad = []
    try:
        jsonschema.validate(rep, schema)
    except jsonschema.ValidationError as e:
        bad.append(f"fabric.json does not validate: {e.message}")
    check_links(plan, rep, out, bad)
    check_files(plan, out, bad, int(opt.get("--rails", 0)))
    check_verdicts(rep, slow, bad)
    if "--rails" in opt:
        check_rails(rep, out, int(opt["--rails"]), bad)
    for b in bad:
        print("fabric-check: FAIL " + b)
    w = rep["weakest"][0] if rep["weakest"] else {}
    print(f"fabric-check: {rep['pattern']}: {len(rep['links'])} links as planned,"
          f" weakest {w.get('client')}->{w.get('server')} {w.get('gbps')} Gb/s,"
          f" suspects {[s['node'] for s in rep['suspects']]}: {'FAIL' if bad else 'ok'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
