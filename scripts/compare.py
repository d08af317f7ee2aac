#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Compare rdmabench result files against 200/400 Gb/s expectations.

Usage: scripts/compare.py [--expect GBPS,...] [--out DIR] PATH...

PATH is a result JSON file (--json) or a folder of them (every *.json in
it). For each file, prints one row per message size: the client's and the
server's bandwidth in Gb/s with the percentage of each expectation (default
200 and 400 Gb/s; --expect none for none) and of the achievable line rate
the run recorded; for
latency tests p50 and p99 of both sides, in microseconds.

--out DIR also draws bandwidth against message size (log2 axis) with the
expectations as horizontal lines, as DIR/bandwidth.png and .svg, and
latency percentiles against size as DIR/latency.png and .svg when a file
has latency figures. Needs Debian's python3-matplotlib (no pip).

Exit status: 0 done, 1 plotting impossible (matplotlib missing), 2 bad
input (unreadable file, not JSON, not an rdmabench result, unknown
schema_version, nothing measured).
"""

import argparse
import json
import os
import sys

SCHEMA_VERSIONS = (1, 2)  # 2 added the -H histogram; nothing read here moved


class BadInput(Exception):
    """A file or argument this script cannot use; exit status 2."""


def result_files(paths):
    """The result files named by paths (files, or folders of *.json)."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(os.path.join(path, n) for n in os.listdir(path)
                           if n.endswith(".json") and ".tmp." not in n)
            if not found:
                raise BadInput(f"{path}: no *.json result files in this folder")
            files.extend(found)
        elif os.path.isfile(path):
            files.append(path)
        else:
            raise BadInput(f"{path}: no such file or folder")
    return files


def load(path):
    """One result document, checked for what this script relies on."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}") from e
    except (ValueError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: not valid JSON: {e}") from e
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
    return doc


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
               for r in doc["results"] for s in ("client", "server"))


def has_lat(doc):
    return any(fig(r, s, "p50_us", "latency") is not None
               for r in doc["results"] for s in ("client", "server"))


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def pct(v, ref):
    return None if v is None or not ref else 100.0 * v / ref


def table(path, doc, expects, out):
    """Print one file's rows."""
    dev = doc.get("device") or {}
    lr = line_rate(doc)
    print(f"{path}: {doc.get('tool')} on {doc.get('host')} "
          f"({dev.get('name')}, {dev.get('rate') or 'rate unknown'}) -> "
          f"{dev.get('peer_addr')}, verdict {doc.get('verdict')}", file=out)
    cols = ["size_bytes"]
    bw, lat = has_bw(doc), has_lat(doc)
    if bw:
        cols += ["client_gbps", "server_gbps"]
        cols += [f"%{e:g}G" for e in expects]
        if lr:
            cols.append(f"%line({lr:.1f})")
    if lat:
        cols += ["p50_us", "p99_us", "server_p50_us", "server_p99_us"]
    print("  " + "  ".join(f"{c:>13}" for c in cols), file=out)
    for r in doc["results"]:
        cells = [str(r["size_bytes"])]
        c_bw, s_bw = fig(r, "client", "bw_gbps"), fig(r, "server", "bw_gbps")
        # percentages of the client's figure; the server's if it is alone
        ref = c_bw if c_bw is not None else s_bw
        if bw:
            cells += [fmt(c_bw, ".2f"), fmt(s_bw, ".2f")]
            cells += [fmt(pct(ref, e), ".1f") for e in expects]
            if lr:
                cells.append(fmt(pct(ref, lr), ".1f"))
        if lat:
            cells += [fmt(fig(r, s, k, "latency"), ".3f")
                      for s in ("client", "server")
                      for k in ("p50_us", "p99_us")]
        print("  " + "  ".join(f"{c:>13}" for c in cells), file=out)
    failed = [g for g in doc.get("gates") or [] if g.get("verdict") == "fail"]
    for g in failed:
        print(f"  gate failed: {g.get('reason') or g.get('name')}", file=out)
    if doc.get("error"):
        print(f"  error: {doc['error']}", file=out)
    print(file=out)


def size_label(n):
    """2, 64, 1K, 64K, 1M: the axis labels perftest users read."""
    for unit, div in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return str(n)


def series_label(path, doc):
    dev = doc.get("device") or {}
    return (f"{doc.get('tool')} {doc.get('host')}/{dev.get('name')} "
            f"({os.path.basename(path)})")


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
        fig_.savefig(p, dpi=120, bbox_inches="tight",
                     metadata={"Date": None} if ext == "svg" else None)
        paths.append(p)
    plt.close(fig_)
    return paths


def plot_bw(plt, docs, expects, out_dir):
    fig_, ax = plt.subplots(figsize=(9, 5.5))
    sizes = []
    for path, doc in docs:
        for side, style in (("client", "-o"), ("server", "--x")):
            pts = [(r["size_bytes"], fig(r, side, "bw_gbps"))
                   for r in doc["results"]]
            pts = [(s, v) for s, v in pts if v is not None]
            if pts:
                sizes += [s for s, _ in pts]
                ax.plot(*zip(*pts), style, markersize=4,
                        label=f"{series_label(path, doc)} {side}")
    for e in expects:
        ax.axhline(e, color="grey", linestyle=":", linewidth=1.2)
        ax.annotate(f"{e:g} Gb/s", (1.0, e), xycoords=("axes fraction",
                    "data"), ha="right", va="bottom", color="grey")
    for lr in sorted({line_rate(d) for _, d in docs} - {None}):
        ax.axhline(lr, color="tab:red", linestyle="--", linewidth=1,
                   label=f"achievable line rate {lr:.1f} Gb/s")
    size_axis(ax, sizes)
    ax.set_ylabel("payload bandwidth [Gb/s] (10^9 bit/s)")
    ax.set_ylim(bottom=0)
    ax.set_title("rdmabench: bandwidth vs message size")
    ax.legend(fontsize="small", loc="upper left")
    return save(plt, fig_, out_dir, "bandwidth")


def plot_lat(plt, docs, out_dir):
    fig_, ax = plt.subplots(figsize=(9, 5.5))
    sizes = []
    for path, doc in docs:
        for key, style in (("p50_us", "-o"), ("p99_us", "--^")):
            pts = [(r["size_bytes"], fig(r, "client", key, "latency"))
                   for r in doc["results"]]
            pts = [(s, v) for s, v in pts if v is not None]
            if pts:
                sizes += [s for s, _ in pts]
                ax.plot(*zip(*pts), style, markersize=4,
                        label=f"{series_label(path, doc)} {key[:-3]}")
    size_axis(ax, sizes)
    ax.set_ylabel("latency [us]")
    ax.set_ylim(bottom=0)
    ax.set_title("rdmabench: latency vs message size (client)")
    ax.legend(fontsize="small", loc="upper left")
    return save(plt, fig_, out_dir, "latency")


def plots(docs, expects, out_dir):
    """Draw what the documents hold; returns the files written."""
    plt = import_pyplot()
    if plt is None:
        raise RuntimeError("plots need matplotlib: apt-get install "
                           "python3-matplotlib")
    os.makedirs(out_dir, exist_ok=True)
    written = []
    bw_docs = [(p, d) for p, d in docs if has_bw(d)]
    lat_docs = [(p, d) for p, d in docs if has_lat(d)]
    if bw_docs:
        written += plot_bw(plt, bw_docs, expects, out_dir)
    if lat_docs:
        written += plot_lat(plt, lat_docs, out_dir)
    return written


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


def main(argv):
    ap = argparse.ArgumentParser(
        description="Compare rdmabench results with line-rate "
                    "expectations; optionally plot them.")
    ap.add_argument("paths", nargs="+", metavar="PATH",
                    help="result JSON file, or a folder of them")
    ap.add_argument("--expect", default="200,400", metavar="GBPS,...",
                    help="expectations in Gb/s (default 200,400; "
                         "'none' for no expectation lines)")
    ap.add_argument("--out", metavar="DIR",
                    help="write bandwidth/latency plots (PNG, SVG) here")
    args = ap.parse_args(argv)
    try:
        expects = parse_expects(args.expect)
        docs = [(p, load(p)) for p in result_files(args.paths)]
        if not any(d["results"] for _, d in docs):
            raise BadInput("no file has any measured row")
    except BadInput as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    for path, doc in docs:
        table(path, doc, expects, sys.stdout)
    if args.out:
        try:
            for p in plots(docs, expects, args.out):
                print(f"wrote {p}")
        except RuntimeError as e:
            print(f"compare.py: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
