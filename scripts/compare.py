#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Tabulate, plot and compare rdmabench result files.

Usage: scripts/compare.py [--expect GBPS,...] [--out DIR] PATH...
       scripts/compare.py [--max-drop PCT] [--out DIR] A B

PATH is a result JSON file (--json) or a folder: every *.json in it and in
its subfolders (scripts/compare.py results/ reads each run kept there); in
a folder, JSON that is no result document (a schema, a fabric report, a
benchmark record) is left out and counted on stderr. For each file, prints
one row per message size: the client's and the server's bandwidth in Gb/s
with the percentage of each expectation (default 200 and 400 Gb/s;
--expect none for none) and of the achievable line rate the run recorded; for latency tests p50 and p99 of both sides, in
microseconds. A document without rows (a run that failed before its first
size) prints its verdict, exit code and error.

A B (exactly two PATHs, each a file or a folder of repetitions, holding at
least one test in common: same tool and connection) also compares run B
with baseline A per size: the median over repetitions of the client's
bandwidth (bandwidth tests) or p50 latency (latency tests), B/A, and the
change, positive when B is better (bandwidth B/A - 1, latency 1 - B/A). A
size whose change is below -PCT (--max-drop, default 5%), or that B lacks,
is a regression. Two PATHs with no test in common are refused (exit 2,
naming the tests each holds): put them in one folder to list them.

--out DIR draws what the files hold: DIR/bandwidth.png and .svg (Gb/s
against message size, log2 axis, expectations as grey lines, the line rate
dashed red) and DIR/latency.png and .svg (log-log: p50 as the line, the
band from min to p99; client solid, server dashed). Files of the same run
repeated (same tool, host, device, peer and test settings) are one series:
the median of the repetitions, the band from the lowest min to the highest
p99 (bandwidth: lowest to highest). A server's own file is left out of the
plots when the client's file of the same run carries its figures. With A B
the series are labelled A (blues) and B (oranges), and DIR/change.png
draws the change per size with the -PCT threshold. Needs Debian's
python3-matplotlib (no pip).

Exit status: 0 done (A B: no regression), 1 plotting impossible
(matplotlib missing), 2 bad input (unreadable file, not JSON, not an
rdmabench result, unknown schema_version, nothing measured, bad option
value; A B with no test in common), 3 A B: B regressed at one size or more.
"""

import argparse
import io
import json
import os
import statistics
import sys

# the result document versions read here: the one list, k8s/collect.py's
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "k8s"))
from collect import SCHEMA_VERSIONS  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import afile  # noqa: E402  (the safe writer: a temporary file never followed)
EXIT_PLOT, EXIT_INPUT, EXIT_REGRESSION = 1, 2, 3
SIDES = ("client", "server")


class BadInput(Exception):
    """A file or argument this script cannot use; exit status 2."""


def folder_files(path):
    """Every *.json below the folder path (its subfolders too, hidden ones
    and temporary files left out), sorted."""
    found = []
    for top, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(top, n) for n in sorted(names)
                     if n.endswith(".json") and ".tmp." not in n)
    return found


def result_files(paths):
    """[(file, named)] for the files paths name: a file is named itself
    (named True), a folder gives every *.json below it (named False)."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = folder_files(path)
            if not found:
                raise BadInput(f"{path}: no *.json files in this folder or "
                               "below it")
            files.extend((f, False) for f in found)
        elif os.path.isfile(path):
            files.append((path, True))
        else:
            raise BadInput(f"{path}: no such file or folder")
    return files


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}") from e
    except (ValueError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: not valid JSON: {e}") from e


def is_result(doc):
    """An rdmabench result document (--json), of any schema_version; the
    other JSON a results folder holds (schemas, fabric reports, NCCL or
    benchmark records) has no tool and rows."""
    return isinstance(doc, dict) and "schema_version" in doc and \
        "tool" in doc and "results" in doc


def load(path, doc=None):
    """One result document, checked for what this script relies on."""
    if doc is None:
        doc = read_json(path)
    if not isinstance(doc, dict) or "schema_version" not in doc:
        raise BadInput(f"{path}: not an rdmabench result (no schema_version)")
    if doc["schema_version"] not in SCHEMA_VERSIONS:
        raise BadInput(f"{path}: schema_version {doc['schema_version']!r}, "
                       f"this script reads {SCHEMA_VERSIONS}")
    rows = doc.get("results")
    if not isinstance(rows, list) or not all(
            isinstance(r, dict) and isinstance(r.get("size_bytes"), int)
            for r in rows):
        raise BadInput(f"{path}: 'results' is not a list of rows with "
                       "size_bytes")
    for key in ("device", "test"):
        if not isinstance(doc.get(key), dict):
            doc[key] = {}
    return doc


def load_all(paths):
    """[(path, doc)] of the result files paths name. A file named itself
    must be a result; JSON found in a folder that is no result document is
    left out, said once on stderr."""
    docs, skipped = [], []
    for path, named in result_files(paths):
        doc = read_json(path)
        if named or is_result(doc):
            docs.append((path, load(path, doc)))
        else:
            skipped.append(path)
    if skipped:
        print(f"compare.py: left out {len(skipped)} JSON file(s) that are "
              f"not rdmabench results (e.g. {skipped[0]})", file=sys.stderr)
    if not docs:
        raise BadInput(f"{' '.join(paths)}: no rdmabench result files "
                       "(--json) in it")
    return docs


def fig(row, side, key, sub=None):
    """A figure of one side of a row, or None when not measured."""
    s = row.get(side)
    if not isinstance(s, dict):
        return None
    if sub:
        s = s.get(sub)
        if not isinstance(s, dict):
            return None
    v = s.get(key)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) \
        else None


def line_rate(doc):
    """The achievable line rate the run recorded, Gb/s, or None."""
    v = (doc.get("line_rate") or {}).get("achievable_gbps")
    return v if isinstance(v, (int, float)) and v > 0 else None


def has_bw(doc):
    return any(fig(r, s, "bw_gbps") is not None
               for r in doc["results"] for s in SIDES)


def has_lat(doc):
    return any(fig(r, s, "p50_us", "latency") is not None
               for r in doc["results"] for s in SIDES)


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def fig_fmt(v):
    """Four significant digits, never an exponent from 100 up."""
    return fmt(v, ".1f" if v is not None and abs(v) >= 100 else ".4g")


def pct(v, ref):
    return None if v is None or not ref else 100.0 * v / ref


def peer_host(doc):
    """The peer's address without its port (which changes every run)."""
    peer = doc["device"].get("peer_addr")
    if not isinstance(peer, str) or not peer:
        return None
    host, sep, port = peer.rpartition(":")
    return host if sep and port.isdigit() else peer


def describe(doc):
    """One line naming the run; parts the document lacks are left out."""
    dev = doc["device"]
    words = [str(doc.get("tool") or "unknown tool")]
    if doc.get("role"):
        words.append(str(doc["role"]))
    if doc.get("host"):
        words.append(f"on {doc['host']}")
    if dev.get("name"):
        rate = f", {dev['rate']}" if dev.get("rate") else ""
        words.append(f"({dev['name']}{rate})")
    if peer_host(doc):
        words.append(f"-> {peer_host(doc)}")
    text = " ".join(words)
    verdict = doc.get("verdict") or "unknown"
    code = doc.get("exit_code")
    if isinstance(code, int) and code != 0:
        return f"{text}: verdict {verdict} (exit {code})"
    return f"{text}: verdict {verdict}"


def columns(doc, expects):
    cols = ["size_bytes"]
    if has_bw(doc):
        cols += ["client_gbps", "server_gbps"]
        cols += [f"%{e:g}G" for e in expects]
        if line_rate(doc):
            cols.append(f"%line({line_rate(doc):.1f})")
    if has_lat(doc):
        cols += ["p50_us", "p99_us", "server_p50_us", "server_p99_us"]
    return cols


def cells(doc, r, expects):
    out = [str(r["size_bytes"])]
    c_bw, s_bw = fig(r, "client", "bw_gbps"), fig(r, "server", "bw_gbps")
    # percentages of the client's figure; the server's if it is alone
    ref = c_bw if c_bw is not None else s_bw
    if has_bw(doc):
        out += [fmt(c_bw, ".2f"), fmt(s_bw, ".2f")]
        out += [fmt(pct(ref, e), ".1f") for e in expects]
        if line_rate(doc):
            out.append(fmt(pct(ref, line_rate(doc)), ".1f"))
    if has_lat(doc):
        out += [fmt(fig(r, s, k, "latency"), ".3f")
                for s in SIDES for k in ("p50_us", "p99_us")]
    return out


def table(path, doc, expects, out):
    """Print one file's rows."""
    print(f"{path}: {describe(doc)}", file=out)
    if doc["results"]:
        print("  " + "  ".join(f"{c:>13}" for c in columns(doc, expects)),
              file=out)
    else:
        print("  no size measured", file=out)
    for r in doc["results"]:
        print("  " + "  ".join(f"{c:>13}" for c in cells(doc, r, expects)),
              file=out)
    failed = [g for g in doc.get("gates") or [] if g.get("verdict") == "fail"]
    for g in failed:
        print(f"  gate failed: {g.get('reason') or g.get('name')}", file=out)
    if doc.get("error"):
        error = str(doc["error"]).replace("\n", "\n         ")
        print(f"  error: {error}", file=out)
    print(file=out)


# ------------------------------------------------------------------ series

def test_key(doc):
    """What makes two documents the same test (for A B)."""
    return (doc.get("tool"), doc["test"].get("connection"))


def run_key(doc):
    """What makes two documents repetitions of the same run."""
    t = doc["test"]
    return (doc.get("tool"), doc.get("role"), doc.get("host"),
            doc["device"].get("name"), peer_host(doc),
            json.dumps(t, sort_keys=True))


def served(server, client):
    """True when the client's document is of the server's run (its start
    falls within the server's), so it already carries the server's side."""
    s0, s1 = server.get("start_unix_ns"), server.get("end_unix_ns")
    c0 = client.get("start_unix_ns")
    if not isinstance(s0, int) or not isinstance(c0, int):
        return False
    return (client.get("tool") == server.get("tool") and s0 <= c0 and
            (not isinstance(s1, int) or c0 <= s1))


def plotted(docs):
    """The documents to plot: all but servers' files whose run's client
    file is there too."""
    clients = [d for _, d in docs if d.get("role") != "server"]
    return [(p, d) for p, d in docs
            if d.get("role") != "server" or
            not any(served(d, c) for c in clients)]


def group(docs):
    """[(first document, [documents])] of the same run, in input order."""
    groups = {}
    for _, d in docs:
        groups.setdefault(run_key(d), []).append(d)
    return [(ds[0], ds) for ds in groups.values()]


def when(doc):
    """The start as 2026-12-01 04:02 UTC, or None."""
    t = doc.get("start_time_utc")
    return f"{t[:10]} {t[11:16]} UTC" if isinstance(t, str) and \
        len(t) >= 16 else None


def series_label(doc, n, tag):
    dev, peer = doc["device"].get("name"), peer_host(doc)
    words = [tag, str(doc.get("tool")), doc["test"].get("connection"),
             f"{doc.get('host')}/{dev}" if dev else doc.get("host"),
             f"-> {peer}" if peer else None,
             f"({n} runs)" if n > 1 else None,
             when(doc) if tag else None]
    return " ".join(w for w in words if w)


def spread(docs, side, mid_key, lo_key, hi_key, sub=None):
    """Per size over the repetitions: (size, median of mid_key, lowest
    lo_key, highest hi_key); sizes no repetition measured are left out."""
    pts = []
    sizes = sorted({r["size_bytes"] for d in docs for r in d["results"]})
    for s in sizes:
        rows = [r for d in docs for r in d["results"] if r["size_bytes"] == s]
        mid = [v for v in (fig(r, side, mid_key, sub) for r in rows)
               if v is not None]
        lo = [v for v in (fig(r, side, lo_key, sub) for r in rows)
              if v is not None]
        hi = [v for v in (fig(r, side, hi_key, sub) for r in rows)
              if v is not None]
        if mid:
            pts.append((s, statistics.median(mid), min(lo or mid),
                        max(hi or mid)))
    return pts


def bw_spread(docs, side):
    return spread(docs, side, "bw_gbps", "bw_gbps", "bw_gbps")


def lat_spread(docs, side):
    return spread(docs, side, "p50_us", "min_us", "p99_us", "latency")


# ------------------------------------------------------------------ plots

def size_label(n):
    """2, 64, 1K, 64K, 1M: the axis labels perftest users read."""
    for unit, div in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return str(n)


def import_pyplot():
    """matplotlib without a display; None when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    # reproducible SVGs: no random ids, no creation date
    matplotlib.rcParams["svg.hashsalt"] = "rdmabench"
    import matplotlib.pyplot as plt
    return plt


def size_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ticks = sorted(set(sizes))
    if len(ticks) > 12:
        ticks = ticks[::2]
    ax.set_xticks(ticks)
    ax.set_xticklabels([size_label(t) for t in ticks], rotation=45)
    ax.set_xlabel("message size [bytes]")
    ax.grid(True, which="major", alpha=0.3)


def save(plt, fig_, out_dir, stem):
    paths = []
    for ext in ("png", "svg"):
        p = os.path.join(out_dir, f"{stem}.{ext}")
        buf = io.BytesIO()
        fig_.savefig(buf, format=ext, dpi=120, bbox_inches="tight",
                     metadata={"Date": None} if ext == "svg" else None)
        afile.write(p, buf.getvalue())
        paths.append(p)
    plt.close(fig_)
    return paths


# A B: the baseline's runs in blues, the candidate's in oranges and reds
A_COLORS = ("tab:blue", "navy", "tab:cyan", "slateblue")
B_COLORS = ("tab:orange", "tab:red", "tab:brown", "goldenrod")
SIDE_STYLE = {"client": ("-", "o", 0.25), "server": ("--", "x", 0.12)}


def draw(ax, pts, color, side, label):
    """A median line with its min..max band; returns the sizes drawn."""
    if not pts:
        return []
    line, marker, alpha = SIDE_STYLE[side]
    s, mid, lo, hi = zip(*pts)
    ax.plot(s, mid, linestyle=line, marker=marker, markersize=4,
            color=color, label=label)
    if len(s) == 1:
        ax.errorbar(s, mid, yerr=[[mid[0] - lo[0]], [hi[0] - mid[0]]],
                    color=color, capsize=4, linestyle="none")
    elif any(a != b for a, b in zip(lo, hi)):
        ax.fill_between(s, lo, hi, color=color, alpha=alpha, linewidth=0)
    return list(s)


def plain_log_y(ax):
    """A log y axis labelled 0.5, 2, 100 (not 2x10^0), minor ticks
    labelled too when the data span less than a decade."""
    from matplotlib.ticker import FuncFormatter, NullFormatter
    ax.set_yscale("log")
    plain = FuncFormatter(lambda v, _: f"{v:g}" if v < 1e5 else f"{v:.0f}")
    lo, hi = ax.get_ylim()
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain if hi < 10 * lo else NullFormatter())
    ax.grid(True, which="minor", axis="y", alpha=0.15)


def legend(ax):
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1),
              borderaxespad=0)


def draw_sets(ax, sets, has, spread_of):
    """Every run of sets (one series per side) on ax; sets: [(tag, colors,
    documents)], the runs taking the colors in turn; has: which documents
    apply; spread_of(docs, side): the points. Returns the sizes drawn."""
    sizes = []
    for tag, colors, docs in sets:
        runs = group([(None, d) for d in docs if has(d)])
        for n, (first, ds) in enumerate(runs):
            c = colors[n % len(colors)]
            for side in SIDES:
                sizes += draw(ax, spread_of(ds, side), c, side,
                              f"{series_label(first, len(ds), tag)} {side}")
    return sizes


def plot_bw(plt, sets, expects, out_dir):
    fig_, ax = plt.subplots(figsize=(11, 5.5))
    sizes = draw_sets(ax, sets, has_bw, bw_spread)
    for e in expects:
        ax.axhline(e, color="grey", linestyle=":", linewidth=1.2)
        ax.annotate(f"{e:g} Gb/s", (1.0, e), xycoords=("axes fraction",
                    "data"), ha="right", va="bottom", color="grey")
    rates = {line_rate(d) for _, _, docs in sets for d in docs} - {None}
    for lr in sorted(rates):
        ax.axhline(lr, color="tab:red", linestyle="--", linewidth=1,
                   label=f"achievable line rate {lr:.1f} Gb/s")
    size_axis(ax, sizes)
    ax.set_ylabel("payload bandwidth [Gb/s] (10^9 bit/s)")
    ax.set_ylim(bottom=0)
    ax.set_title("rdmabench: bandwidth vs message size "
                 "(line: median of runs, band: lowest..highest)")
    legend(ax)
    return save(plt, fig_, out_dir, "bandwidth")


def plot_lat(plt, sets, out_dir):
    fig_, ax = plt.subplots(figsize=(11, 5.5))
    sizes = draw_sets(ax, sets, has_lat, lat_spread)
    size_axis(ax, sizes)
    plain_log_y(ax)
    ax.set_ylabel("latency [us] (log)")
    ax.set_title("rdmabench: latency vs message size "
                 "(line: p50, band: min..p99)")
    legend(ax)
    return save(plt, fig_, out_dir, "latency")


def plot_change(plt, verdicts, max_drop, out_dir):
    fig_, ax = plt.subplots(figsize=(11, 4.5))
    sizes = []
    for n, (key, rows) in enumerate(verdicts):
        pts = [(r[0], r[4]) for r in rows if r[4] is not None]
        if not pts:
            continue
        sizes += [s for s, _ in pts]
        ax.plot(*zip(*pts), "-o", markersize=4, color=f"C{n % 10}",
                label=f"{key[0]} {key[1] or ''}".strip())
        bad = [(s, c) for s, c in pts if c < -max_drop]
        if bad:
            ax.plot(*zip(*bad), "o", markersize=9, mfc="none",
                    color="tab:red")
    ax.axhline(0, color="grey", linewidth=1)
    ax.axhline(-max_drop, color="tab:red", linestyle="--", linewidth=1,
               label=f"--max-drop {max_drop:g}%")
    size_axis(ax, sizes)
    ax.set_ylabel("B vs A [%] (positive: B better)")
    ax.set_title("rdmabench: change of B against baseline A per size "
                 "(bandwidth: B/A-1; latency p50: 1-B/A)")
    legend(ax)
    return save(plt, fig_, out_dir, "change")


def plots(sets, expects, out_dir, verdicts=None, max_drop=None):
    """Draw what the documents hold; returns the files written."""
    plt = import_pyplot()
    if plt is None:
        raise RuntimeError("plots need matplotlib: apt-get install "
                           "python3-matplotlib")
    os.makedirs(out_dir, exist_ok=True)
    written = []
    if any(has_bw(d) for _, _, docs in sets for d in docs):
        written += plot_bw(plt, sets, expects, out_dir)
    if any(has_lat(d) for _, _, docs in sets for d in docs):
        written += plot_lat(plt, sets, out_dir)
    if verdicts:
        written += plot_change(plt, verdicts, max_drop, out_dir)
    return written


# ------------------------------------------------------------------ A B

def compared_figure(docs):
    """(name, per size median) of the figure A B compares."""
    if any(has_bw(d) for d in docs):
        side = "client" if any(fig(r, "client", "bw_gbps") is not None
                               for d in docs for r in d["results"]) \
            else "server"
        return "bw_gbps", {s: m for s, m, _, _ in bw_spread(docs, side)}
    return "p50_us", {s: m for s, m, _, _ in lat_spread(docs, "client")}


def change(name, a, b):
    """Positive when b is better than a, in percent."""
    if a is None or b is None or a <= 0:
        return None
    return 100.0 * (b / a - 1 if name == "bw_gbps" else 1 - b / a)


def ab_rows(a_docs, b_docs):
    """[(size, figure name, A, B, change %)] for one test."""
    name, a = compared_figure(a_docs)
    _, b = compared_figure(b_docs)
    return [(s, name, a.get(s), b.get(s), change(name, a.get(s), b.get(s)))
            for s in sorted(set(a) | set(b))]


def by_test(docs):
    tests = {}
    for d in docs:
        if d.get("role") != "server":
            tests.setdefault(test_key(d), []).append(d)
    return tests


def ab_verdicts(a_docs, b_docs):
    """[(test key, rows)] for the tests A and B both hold."""
    a, b = by_test(a_docs), by_test(b_docs)
    return [(k, ab_rows(a[k], b[k])) for k in a if k in b]


def regressed(row, max_drop):
    _, _, a, b, c = row
    return a is not None and (b is None or (c is not None and c < -max_drop))


def ab_table(verdicts, max_drop, out):
    """Print the A B comparison; returns the number of regressed sizes."""
    worse = 0
    for key, rows in verdicts:
        print(f"B vs A: {key[0]} {key[1] or ''} (median of runs; "
              f"regression: change < -{max_drop:g}%)", file=out)
        name = rows[0][1] if rows else "figure"
        print(f"  {'size_bytes':>10}  {'A_' + name:>13}  {'B_' + name:>13}"
              f"  {'B/A':>7}  {'change_%':>9}  verdict", file=out)
        for row in rows:
            s, _, a, b, c = row
            bad = regressed(row, max_drop)
            worse += bad
            ratio = b / a if a and b is not None else None
            what = ("REGRESSION" if bad else "ok") if b is not None \
                else ("REGRESSION (B lacks it)" if bad else "only in B")
            print(f"  {s:>10}  {fig_fmt(a):>13}  {fig_fmt(b):>13}"
                  f"  {fmt(ratio, '.3f'):>7}  {fmt(c, '+.1f'):>9}  {what}",
                  file=out)
        print(file=out)
    print(f"B vs A: {worse} size(s) regressed past {max_drop:g}%", file=out)
    return worse


# ------------------------------------------------------------------ main

def parse_expects(text):
    """"200,400" -> [200.0, 400.0]; "none" -> [] (e.g. Soft-RoCE plots)."""
    if text.strip().lower() == "none":
        return []
    try:
        vals = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        vals = []
    if not vals or any(v <= 0 for v in vals):
        raise BadInput(f"--expect {text!r}: want positive Gb/s figures, "
                       "e.g. 200,400")
    return vals


def parse_drop(text):
    """"5%" or "5" -> 5.0 (percent)."""
    try:
        v = float(text.strip().rstrip("%"))
    except ValueError:
        v = -1.0
    if not 0 <= v < 100:
        raise BadInput(f"--max-drop {text!r}: want a percentage from 0 to "
                       "99, e.g. 5%")
    return v


def arg_parser():
    ap = argparse.ArgumentParser(
        description="Tabulate rdmabench results against line-rate "
                    "expectations, compare run B with baseline A, plot.",
        epilog="Exit status: 0 done, 1 no matplotlib for --out, 2 bad "
               "input, 3 B regressed against A.")
    ap.add_argument("paths", nargs="+", metavar="PATH",
                    help="result JSON file, or a folder of them; "
                         "two PATHs with a test in common: A B")
    ap.add_argument("--expect", default="200,400", metavar="GBPS,...",
                    help="expectations in Gb/s (default 200,400; "
                         "'none' for no expectation lines)")
    ap.add_argument("--max-drop", default="5%", metavar="PCT",
                    help="A B: the largest drop of B against A per size "
                         "(default 5%%)")
    ap.add_argument("--out", metavar="DIR",
                    help="write plots (PNG, SVG) here")
    return ap


def tests_of(docs):
    keys = sorted({f"{k[0]} {k[1] or ''}".strip()
                   for k in by_test([d for _, d in docs])})
    return ", ".join(keys) or "no client result"


def no_common_test(paths, a, b):
    """The message for an A B pair with no test in common."""
    return (f"{paths[0]} and {paths[1]} share no test to compare (A holds "
            f"{tests_of(a)}; B holds {tests_of(b)}): give A and B runs of "
            "the same tool and connection, or put the files in one folder "
            "to list them without comparing")


def read_inputs(args):
    """(expects, max_drop, [(path, doc)], A docs or None, B docs or None)."""
    expects, max_drop = parse_expects(args.expect), parse_drop(args.max_drop)
    a = b = None
    if len(args.paths) == 2:
        a, b = load_all(args.paths[:1]), load_all(args.paths[1:])
        docs = a + b
        if not ab_verdicts([d for _, d in a], [d for _, d in b]):
            raise BadInput(no_common_test(args.paths, a, b))
    else:
        docs = load_all(args.paths)
    return expects, max_drop, docs, a, b


def draw_all(args, expects, docs, a, b, verdicts, max_drop):
    if a is None:
        sets = [("", [f"C{i}" for i in range(10)],
                 [d for _, d in plotted(docs)])]
    else:
        sets = [("A:", A_COLORS, [d for _, d in plotted(a)]),
                ("B:", B_COLORS, [d for _, d in plotted(b)])]
    for p in plots(sets, expects, args.out, verdicts, max_drop):
        print(f"wrote {p}")


def main(argv):
    args = arg_parser().parse_args(argv)
    try:
        expects, max_drop, docs, a, b = read_inputs(args)
    except BadInput as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return EXIT_INPUT
    for path, doc in docs:
        table(path, doc, expects, sys.stdout)
    if not any(d["results"] for _, d in docs):
        print("compare.py: no file has any measured row", file=sys.stderr)
        return EXIT_INPUT
    verdicts = None
    if a is not None:
        verdicts = ab_verdicts([d for _, d in a], [d for _, d in b])
    worse = ab_table(verdicts, max_drop, sys.stdout) if verdicts else 0
    if args.out:
        try:
            draw_all(args, expects, docs, a, b, verdicts, max_drop)
        except RuntimeError as e:
            print(f"compare.py: {e}", file=sys.stderr)
            return EXIT_PLOT
    return EXIT_REGRESSION if worse else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
