#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Print every PromQL query of a Grafana dashboard, one a line.

Usage: scripts/dashboard_queries.py [--raw] [DASHBOARD.json]

DASHBOARD defaults to deploy/grafana/rdmabench.json. Each line is
"PANEL-ID<TAB>REF<TAB>TITLE<TAB>EXPR": every target of every panel (rows'
nested panels too) that has an expr. The dashboard's variables ($job,
${job}, [[job]]) become ".*" (what "All" selects) and Grafana's interval
variables ($__rate_interval, $__interval, $__range) become 5m, so each
line runs as is against Prometheus's /api/v1/query (tests/scripts/
test_metrics_e2e.sh runs them all); --raw prints the expressions as
written. Exit status: 0, 1 when the dashboard holds no query, 2 when it
cannot be read.
"""
import json
import re
import sys

DEFAULT = "deploy/grafana/rdmabench.json"
INTERVALS = ("__rate_interval", "__interval", "__range")


def panels(items):
    """Every panel, a row's collapsed children included."""
    for p in items:
        yield p
        yield from panels(p.get("panels", []))


def substitute(expr):
    """Grafana's variables as "All" and a 5 minute interval fill them."""
    def one(m):
        name = m.group(1) or m.group(2) or m.group(3)
        return "5m" if name in INTERVALS else ".*"
    return re.sub(r"\$\{(\w+)(?::\w+)?\}|\[\[(\w+)\]\]|\$(\w+)", one, expr)


def queries(dash, raw=False):
    for p in panels(dash.get("panels", [])):
        for t in p.get("targets", []):
            expr = t.get("expr")
            if expr:
                yield (p.get("id"), t.get("refId", "A"), p.get("title", ""),
                       expr if raw else substitute(expr))


def main(argv):
    raw = "--raw" in argv
    args = [a for a in argv if a != "--raw"]
    path = args[0] if args else DEFAULT
    try:
        with open(path, encoding="utf-8") as f:
            dash = json.load(f)
    except (OSError, ValueError) as e:
        print(f"dashboard_queries: {path}: {e}", file=sys.stderr)
        return 2
    n = 0
    for pid, ref, title, expr in queries(dash, raw):
        print(f"{pid}\t{ref}\t{title}\t{' '.join(expr.split())}")
        n += 1
    if not n:
        print(f"dashboard_queries: {path}: no panel holds a query",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
