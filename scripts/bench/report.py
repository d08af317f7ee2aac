#!/usr/bin/env python3
"""scripts/bench/report.py - the ratio table of scripts/bench-vs-perftest.sh.

Reads the raw logs that scripts/bench/guest.sh left (runs.tsv and one
NAME.cli / NAME.srv per run), writes OUT/NAME.json and OUT/NAME.md, and
prints the Markdown.  Standard library only.

Ratios are always ours / perftest of the medians: >= 1.00 is good for
bandwidth and message rate, <= 1.00 for latency, ready time and memory.
The paired ratios (repetition r of ours over repetition r of perftest, the
two runs next to each other in time) show the spread; "wins" counts the
pairs where ours was the better one.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import afile  # noqa: E402  (the safe writer: a temporary file never followed)

NUM = r"[-+]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def load_runs(raw):
    rows = []
    lines = read(os.path.join(raw, "runs.tsv")).splitlines()
    if not lines:
        sys.exit("report: no runs.tsv in %s (did the guest run?)" % raw)
    head = lines[0].split("\t")
    for line in lines[1:]:
        f = line.split("\t")
        if len(f) < len(head):
            f += [""] * (len(head) - len(f))
        r = dict(zip(head, f))
        r.setdefault("failed_attempts", "")
        for k in ("size", "iters", "qps", "rep", "rc", "srv_rc", "tries", "t0"):
            r[k] = int(r[k])
        r["client_wall_s"] = float(r["client_wall_s"])
        rows.append(r)
    return rows


def result_row(text, size, iters, qps=1):
    """The numbers of the report row for size/iters (client log), as
    printed (strings); perftest -q N prints N times the per-QP iterations."""
    its = {str(iters), str(iters * qps)}
    for line in text.splitlines():
        tok = line.split()
        if len(tok) >= 5 and tok[0] == str(size) and tok[1] in its:
            vals = [t for t in tok[2:] if re.fullmatch(NUM, t)]
            if len(vals) >= 3:
                return vals
    return None


def sigdigits(s):
    """Significant digits of a printed number: '0.000006' has 1."""
    d = s.lstrip("+-").replace(".", "").lstrip("0")
    return len(d) if d else 0


def bytes_per_s(printed, text):
    """A printed bandwidth in bytes/s, by the unit of the header."""
    if "[Gb/sec]" in text:
        return float(printed) * 1e9 / 8
    return float(printed) * (1 << 20)  # perftest's "MB/sec" is MiB/s


def parse_run(raw, r):
    """Figures of one run; r['ok'] False when it failed or printed no row."""
    cli = read(os.path.join(raw, r["name"] + ".cli"))
    srv = read(os.path.join(raw, r["name"] + ".srv"))
    r["ok"] = False
    nums = result_row(cli, r["size"], r["iters"], r["qps"])
    # the settings each tool actually used (they differ in defaults)
    params = {}
    for key, rx in (("tx_depth", r"TX depth\s*:\s*(\d+)"),
                    ("cq_mod", r"CQ [Mm]oderation\s*:\s*(\d+)"),
                    ("max_inline", r"Max inline(?: data)?\s*:\s*(\d+)"),
                    ("outstanding_reads", r"Outstand reads\s*:\s*(\d+)"),
                    ("rx_depth", r"RX depth\s*:\s*(\d+)")):
        m = re.search(rx, cli)
        if m:
            params[key] = int(m.group(1))
    r["params"] = params
    if r["rc"] == 0 and nums:
        r["ok"] = True
        if r["kind"] == "bw" and "-b" in r["extra"].split():
            # bidirectional: both clients print the sum of both
            # directions as their average
            bw = bytes_per_s(nums[1], cli)
            r["gbps"] = bw * 8 / 1e9
            r["mpps"] = bw / r["size"] / 1e6
        elif r["kind"] == "bw":
            # peak, average, msg rate [Mpps] (ours: the server's average
            # on a note line). Both print few decimals: the message rate is taken
            # from whichever of the two printed figures has more digits
            r["peak_Bps"] = bytes_per_s(nums[0], cli)
            avg_Bps = bytes_per_s(nums[1], cli)
            if sigdigits(nums[2]) >= sigdigits(nums[1]):
                r["mpps"] = float(nums[2])
            else:
                r["mpps"] = avg_Bps / r["size"] / 1e6
            r["gbps"] = r["mpps"] * 1e6 * r["size"] * 8 / 1e9
            r["printed"] = nums[:3]
            m = re.search(r"^ # server \(what arrived\): BW average\[[^]]*\] "
                          r"(" + NUM + r")", cli, re.M)
            if r["tool"] == "ours" and m:
                r["server_gbps"] = bytes_per_s(m.group(1), cli) * 8 / 1e9
        else:
            r["t_min"], r["t_max"], r["t_typical"], r["t_avg"] = map(float, nums[0:4])
    else:
        tail = [l for l in cli.splitlines() if l.strip()][-3:]
        r["error"] = " | ".join(tail)[-300:]
    # ready: exec -> the server's ready line (stamped by the guest)
    for line in srv.splitlines():
        m = re.match(r"(\d+\.\d+) (.*)", line)
        if m and re.search(r"Waiting for client to connect|waiting for a client",
                           m.group(2)):
            r["ready_s"] = float(m.group(1)) - r["t0"] / 1e6
            break
    ctr = {}
    for l in read(os.path.join(raw, r["name"] + ".ctr")).split():
        k, _, v = l.partition("=")
        if v.lstrip("-").isdigit():
            ctr[k] = int(v)
    r["rxe_counters"] = ctr
    for side in ("srv", "cli"):
        txt = read(os.path.join(raw, r["name"] + "." + side + ".rss")).split()
        if txt and txt[-1].isdigit():
            r["rss_kib_" + side] = int(txt[-1])
    return r


def host_load(raw, rows):
    """Per run: CPU cores the rest of the machine took while it ran."""
    lines = read(os.path.join(raw, "host-load.tsv")).splitlines()[1:]
    samp = []
    for l in lines:
        f = l.split("\t")
        if len(f) == 5:  # older files: no pid column
            f.append("?")
        if len(f) >= 6 and f[5] != "0":
            samp.append((float(f[0]), int(f[1]), int(f[2]), int(f[3]), int(f[4]), f[5]))
    # the guest's qemu: the pid seen most (a boot retry or a probe differs)
    if samp:
        pid = statistics.mode(s[5] for s in samp)
        samp = [s for s in samp if s[5] == pid]
    if len(samp) < 2:
        return None
    # guest clock vs host clock: a .srv file's mtime (host) vs its last stamp
    offs = []
    for r in rows:
        p = os.path.join(raw, r["name"] + ".srv")
        stamps = re.findall(r"^(\d+\.\d+) ", read(p), re.M)
        if stamps:
            offs.append(os.stat(p).st_mtime - float(stamps[-1]))
    off = statistics.median(offs) if offs else 0.0
    for r in rows:
        t0 = r["t0"] / 1e6 + off
        t1 = t0 + r.get("ready_s", 0.0) + r["client_wall_s"]
        inside = [s for s in samp if t0 - 0.5 <= s[0] <= t1 + 0.5]
        if len(inside) >= 2 and inside[-1][0] > inside[0][0]:
            a, b = inside[0], inside[-1]
            dt = b[0] - a[0]
            r["others_cores"] = max(0.0, ((b[2] - a[2]) - (b[3] - a[3])) / 100.0 / dt)
            r["guest_cores"] = (b[3] - a[3]) / 100.0 / dt
            r["procs_running"] = statistics.median(s[1] for s in inside)
    return {"clock_offset_s": off, "samples": len(samp), "ncpu": samp[0][4]}


def stats(values):
    v = [x for x in values if x is not None]
    if not v:
        return None
    return {"n": len(v), "median": statistics.median(v), "min": min(v),
            "max": max(v), "values": v,
            "spread_pct": (100.0 * (max(v) - min(v)) / statistics.median(v)
                           if statistics.median(v) else None)}


def compare(runs, key, higher_better):
    """ours vs perftest on key, paired by repetition."""
    ours = {r["rep"]: r.get(key) for r in runs if r["tool"] == "ours" and r["ok"]}
    pt = {r["rep"]: r.get(key) for r in runs if r["tool"] == "perftest" and r["ok"]}
    so, sp = stats(ours.values()), stats(pt.values())
    out = {"ours": so, "perftest": sp,
           "failed": sorted({(r["tool"], r["rep"]) for r in runs if not r["ok"]})}
    if not so or not sp or not sp["median"]:
        out["verdict"] = "no data"
        return out
    ratio = so["median"] / sp["median"]
    paired = [ours[k] / pt[k] for k in sorted(ours) if k in pt and pt[k]]
    wins = sum(1 for p in paired if (p >= 1.0 if higher_better else p <= 1.0))
    out.update(ratio=ratio, paired=paired, wins=wins, pairs=len(paired))
    if paired:
        out["paired_min"], out["paired_max"] = min(paired), max(paired)
        out["paired_median"] = statistics.median(paired)
    good = ratio >= 1.0 if higher_better else ratio <= 1.0
    if good:
        out["verdict"] = "ok"
    elif paired and (max(paired) >= 1.0 if higher_better else min(paired) <= 1.0):
        out["verdict"] = "within spread"
    else:
        out["verdict"] = "SLOWER"
    return out


TROUBLE = ("duplicate_request", "out_of_seq_request", "rcvd_rnr_err",
           "send_rnr_err", "rcvd_seq_err", "retry_exceeded_err",
           "retry_rnr_exceeded_err", "completer_retry_err")


def trouble(runs, tool):
    """rxe retransmissions and RNR NAKs summed over a tool's runs."""
    return sum(v for r in runs if r["tool"] == tool
               for k, v in r.get("rxe_counters", {}).items() if k in TROUBLE)


def trouble_cell(runs):
    return "%d / %d" % (trouble(runs, "ours"), trouble(runs, "perftest"))


def wall_cell(runs):
    o = stats([r["client_wall_s"] for r in runs if r["tool"] == "ours" and r["ok"]])
    p = stats([r["client_wall_s"] for r in runs if r["tool"] == "perftest" and r["ok"]])
    return "%s / %s" % (fmt(o["median"]) if o else "-", fmt(p["median"]) if p else "-")


def tick_cell(runs):
    """Latency runs in the scheduler-slice mode, and the host load then."""
    bad = [r for r in runs if r["ok"] and r.get("t_min") and
           r["t_typical"] > 20 * r["t_min"]]
    n = {t: sum(1 for r in bad if r["tool"] == t) for t in ("ours", "perftest")}
    load = [r["others_cores"] for r in bad if "others_cores" in r]
    return "%d / %d%s" % (n["ours"], n["perftest"],
                          " (%s)" % ", ".join("%.2f" % x for x in load) if load else "")


def group(rows, **kw):
    return [r for r in rows if all(r[k] == v for k, v in kw.items())]


def fmt(x, nd=3):
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return "%.0f" % x
    if abs(x) >= 100:
        return "%.1f" % x
    if abs(x) >= 1:
        return "%.2f" % x
    return "%.*g" % (nd, x)


def cell(s, nd=3):
    if not s:
        return "-"
    return "%s [%s-%s]" % (fmt(s["median"], nd), fmt(s["min"], nd), fmt(s["max"], nd))


def ratio_cells(c):
    if "ratio" not in c:
        return ["-", "-", "-", c.get("verdict", "no data")]
    pr = "%.2f-%.2f" % (c["paired_min"], c["paired_max"]) if c.get("paired") else "-"
    v = c["verdict"]
    if c["failed"]:
        v += " (failed runs: %s)" % ", ".join("%s#%d" % f for f in c["failed"])
    return ["**%.2f**" % c["ratio"], pr, "%d/%d" % (c["wins"], c["pairs"]), v]


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return out


def human_size(n):
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return "%d %s" % (n // div, unit)
    return "%d B" % n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--name", default="bench-vs-perftest")
    ap.add_argument("--mode", default="full")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--dirty", default="0")
    ap.add_argument("--perftest", default="unknown")
    ap.add_argument("--bin", default="")
    ap.add_argument("--wall", type=int, default=0)
    a = ap.parse_args()

    rows = [parse_run(a.raw, r) for r in load_runs(a.raw)]
    hl = host_load(a.raw, rows)
    info = read(os.path.join(a.raw, "guest-info.txt")).splitlines()
    res = {"schema": "rdmabench-perf-v1",
           # when the runs began (the guest's clock follows the host's)
           "date": datetime.datetime.fromtimestamp(
               min(r["t0"] for r in rows) / 1e6 if rows else 0,
               datetime.timezone.utc).isoformat(timespec="seconds"),
           "mode": a.mode, "reps": a.reps, "commit": a.commit,
           "tree_changes_in_common_or_bench": int(a.dirty),
           "ours_bin": a.bin, "perftest_version": a.perftest,
           "wall_s": a.wall, "guest": info, "host_load": hl,
           "device": "rxe0 (Soft-RoCE) in a QEMU TCG guest; RoCE MTU 1024",
           "method": ("perftest with -R (rdma_cm) and ours, default flags, same -s/-n; "
                      "alternating and paired by repetition (odd: ours first); "
                      "client figures; ratio = ours/perftest of the medians" +
                      ("; server pinned to vCPU 0 and client to vCPU 1 (taskset), both tools"
                       if any(l.strip().endswith("pin=1") for l in info) else "")),
           "bw": [], "lat": [], "ready": {}, "mem": [], "qp": [], "bidir": [],
           "runs": rows}

    # ---- bandwidth / message rate
    for verb in ("write", "read", "send"):
        for size in sorted({r["size"] for r in group(rows, phase="bw", verb=verb)}):
            g = group(rows, phase="bw", verb=verb, size=size)
            c = compare(g, "mpps", True)
            cg = compare(g, "gbps", True)
            res["bw"].append({"test": "ib_%s_bw" % verb, "size": size,
                              "iters": g[0]["iters"], "msg_rate_mpps": c,
                              "bw_gbps": cg})
    # ---- latency
    for verb in ("write", "send", "read"):
        g = group(rows, phase="lat", verb=verb)
        if g:
            res["lat"].append({"test": "ib_%s_lat" % verb, "size": g[0]["size"],
                               "iters": g[0]["iters"],
                               "t_typical_us": compare(g, "t_typical", False),
                               "t_avg_us": compare(g, "t_avg", False),
                               "t_min_us": compare(g, "t_min", False)})
    # ---- ready (every server start), and the wrapper's own floor
    floors = []
    for fn in sorted(os.listdir(a.raw)):
        if re.fullmatch(r"floor\.\d+\.srv", fn):
            txt = read(os.path.join(a.raw, fn))
            m1 = re.search(r"^(\d+\.\d+) waiting", txt, re.M)
            m0 = re.search(r"^t0 (\d+)", txt, re.M)
            if m1 and m0:
                floors.append(float(m1.group(1)) - int(m0.group(1)) / 1e6)
    ready = {"floor_s": stats(floors)}
    for tool in ("ours", "perftest"):
        ready[tool] = stats([r.get("ready_s") for r in rows
                             if r["tool"] == tool and r["phase"] in ("bw", "lat", "qp", "bidir")])
    if ready["ours"] and ready["perftest"]:
        ready["ratio"] = ready["ours"]["median"] / ready["perftest"]["median"]
    res["ready"] = ready
    # ---- memory
    for n in sorted({r["iters"] for r in group(rows, phase="mem")}):
        e = {"iters": n}
        for r in group(rows, phase="mem", iters=n):
            e[r["tool"]] = {"server_kib": r.get("rss_kib_srv"),
                            "client_kib": r.get("rss_kib_cli"), "ok": r["ok"],
                            "t_typical_us": r.get("t_typical"),
                            "client_wall_s": r["client_wall_s"]}
        res["mem"].append(e)
    res["mem_long"] = []
    for line in read(os.path.join(a.raw, "mem-long.tsv")).splitlines():
        w = line.split()
        if len(w) == 4:
            res["mem_long"].append({"tool": w[0], "iters": int(w[1]),
                                    "client_vmsize_kib": int(w[2]),
                                    "client_vmhwm_kib": int(w[3])})
    # ---- multi-QP
    for size in sorted({r["size"] for r in group(rows, phase="qp")}):
        base = {}
        for q in sorted({r["qps"] for r in group(rows, phase="qp", size=size)}):
            g = group(rows, phase="qp", size=size, qps=q)
            c = compare(g, "gbps", True)
            e = {"size": size, "qps": q, "iters_per_qp": g[0]["iters"], "gbps": c}
            for tool in ("ours", "perftest"):
                if c.get(tool):
                    base.setdefault(tool, c[tool]["median"])
                    e[tool + "_vs_q1"] = c[tool]["median"] / base[tool] if base[tool] else None
            res["qp"].append(e)
    # ---- bidirectional
    g = group(rows, phase="bidir")
    if g:
        res["bidir"].append({"test": "ib_write_bw -b", "size": g[0]["size"],
                             "iters": g[0]["iters"], "gbps": compare(g, "gbps", True)})

    # ---- Markdown
    md = ["# rdmabench vs perftest (%s run)" % a.mode, "",
          "%s; ours from commit `%s`%s; perftest %s; %d paired repetitions; "
          "wall time %d s." % (res["date"], a.commit[:12],
                               " (+%s uncommitted files in common/ or bench/)" % a.dirty
                               if a.dirty not in ("0", "") else "",
                               a.perftest, a.reps, a.wall), "",
          "Device: %s. %s. Under TCG these numbers measure the emulator: only "
          "the ratios mean something, and the host (2 cores, shared) is noisy: "
          "read the paired range and the wins, not just the ratio." % (res["device"], res["method"]),
          "",
          "`ratio` = ours/perftest of the medians; `paired` = range of the per-"
          "repetition ratios; `wins` = pairs where ours was better; verdict "
          "`ok` (ratio at or beyond 1.00), `within spread` (not, but some "
          "pair was), `SLOWER` (every pair was slower). Cells are median "
          "[min-max].", ""]
    oc = stats([r.get("others_cores") for r in rows])
    gc = stats([r.get("guest_cores") for r in rows])
    if oc and gc:
        md += ["Host load while the runs ran (cores of %d; median [min-max] over "
               "runs): other work %s, this guest's qemu %s." %
               (hl["ncpu"], cell(oc), cell(gc)), ""]
    md.append("## Message rate and bandwidth (client figures)")
    md.append("")
    trs = []
    for e in res["bw"]:
        c, cg = e["msg_rate_mpps"], e["bw_gbps"]
        g = group(rows, phase="bw", verb=e["test"].split("_")[1], size=e["size"])
        trs.append([e["test"], human_size(e["size"]), e["iters"],
                    cell(c.get("ours"), 4), cell(c.get("perftest"), 4),
                    fmt(cg["ours"]["median"]) if cg.get("ours") else "-",
                    fmt(cg["perftest"]["median"]) if cg.get("perftest") else "-"]
                   + ratio_cells(c) + [trouble_cell(g), wall_cell(g)])
    md += table(["test", "size", "-n", "ours Mpps", "perftest Mpps", "ours Gb/s",
                 "perftest Gb/s", "ratio", "paired", "wins", "verdict",
                 "rxe retries+RNR (ours / pt)", "client wall s (ours / pt)"], trs)
    md += ["", "Bandwidth = message rate x size, so its ratio is the message-rate "
           "ratio; the rate comes from whichever printed figure (MsgRate or BW "
           "average) has more significant digits.", ""]
    if res["lat"]:
        md += ["## Latency (perftest t_typical vs our p50; usec; write/send: half "
               "round trip, read: full round trip)", ""]
        trs = []
        for e in res["lat"]:
            c = e["t_typical_us"]
            g = group(rows, phase="lat", verb=e["test"].split("_")[1])
            trs.append([e["test"], human_size(e["size"]), e["iters"],
                        cell(c.get("ours")), cell(c.get("perftest"))] + ratio_cells(c)
                       + [fmt(e["t_avg_us"].get("ratio")), trouble_cell(g),
                          tick_cell(g)])
        md += table(["test", "size", "-n", "ours p50", "perftest t_typical", "ratio",
                     "paired", "wins", "verdict", "t_avg ratio",
                     "rxe retries+RNR (ours / pt)", "ms-mode runs (ours / pt)"], trs)
        md += ["", "ms-mode: a run whose typical is over 20 times its minimum - the two "
               "pollers took turns by scheduler slices (docs/performance-notes.md, "
               "finding 1); in brackets the cores the rest of the machine took "
               "during those runs.", ""]
        md.append("")
    if ready.get("ours"):
        md += ["## Server start: exec to \"ready for a client\" (s)", ""]
        trs = [[t, cell(ready[t]), ready[t]["n"]] for t in ("ours", "perftest") if ready.get(t)]
        if ready.get("floor_s"):
            trs.append(["floor (stdbuf + exec + echo)", cell(ready["floor_s"]),
                        ready["floor_s"]["n"]])
        md += table(["server", "seconds", "starts"], trs)
        if "ratio" in ready:
            md += ["", "ratio ours/perftest of the medians: **%.2f**. Both run under "
                   "`stdbuf -oL -eL` (perftest's stdout is block-buffered into a "
                   "pipe); the floor is that wrapper alone. perftest prints its line "
                   "before it listens (its client may be refused and retried), ours "
                   "after rdma_listen." % ready["ratio"]]
        md.append("")
    if res["mem"]:
        md += ["## Peak resident memory vs iterations (ib_write_lat, 2 B; KiB, "
               "/usr/bin/time %M)", ""]
        trs = []
        for e in res["mem"]:
            o, p = e.get("ours", {}), e.get("perftest", {})
            trs.append([e["iters"], o.get("server_kib", "-"), o.get("client_kib", "-"),
                        p.get("server_kib", "-"), p.get("client_kib", "-"),
                        "%s / %s" % (fmt(o.get("client_wall_s")), fmt(p.get("client_wall_s")))])
        md += table(["-n", "ours server", "ours client", "perftest server",
                     "perftest client", "client wall s (ours / perftest)"], trs)
        md.append("")
    if res.get("mem_long"):
        md += ["Longer runs, sampled 3 s in (a whole 10^7 run takes an hour under "
               "TCG): the client's VmSize (what it allocated) and VmHWM (what it "
               "touched so far), KiB.", ""]
        trs = [[e["iters"], e["tool"], e["client_vmsize_kib"], e["client_vmhwm_kib"]]
               for e in res["mem_long"]]
        md += table(["-n", "tool", "client VmSize", "client VmHWM"], trs)
        md.append("")
    if res["qp"]:
        md += ["## Multi-QP scale (ib_write_bw -q N; the same total messages split "
               "over the QPs; aggregate Gb/s)", ""]
        trs = []
        for e in res["qp"]:
            c = e["gbps"]
            trs.append([human_size(e["size"]), e["qps"], e["iters_per_qp"],
                        cell(c.get("ours")), fmt(e.get("ours_vs_q1")),
                        cell(c.get("perftest")), fmt(e.get("perftest_vs_q1"))]
                       + ratio_cells(c))
        md += table(["size", "-q", "-n per QP", "ours Gb/s", "ours vs q1",
                     "perftest Gb/s", "perftest vs q1", "ratio", "paired", "wins",
                     "verdict"], trs)
        md.append("")
    if res["bidir"]:
        md += ["## Bidirectional (ib_write_bw -b; client's total Gb/s)", ""]
        trs = []
        for e in res["bidir"]:
            c = e["gbps"]
            trs.append([e["test"], human_size(e["size"]), e["iters"],
                        cell(c.get("ours")), cell(c.get("perftest"))] + ratio_cells(c))
        md += table(["test", "size", "-n", "ours Gb/s", "perftest Gb/s", "ratio",
                     "paired", "wins", "verdict"], trs)
        md.append("")
    retried = [r for r in rows if r.get("failed_attempts")]
    if retried:
        md += ["## Runs started again (a client that failed: exit codes of the failed attempts)", ""]
        md += ["* `%s`: %s%s" % (r["name"], r["failed_attempts"],
                                 "" if r["ok"] else " (no attempt succeeded)") for r in retried]
        md.append("")
    failed = [r for r in rows if not r["ok"]]
    if failed:
        md += ["## Failed runs", ""]
        md += ["* `%s`: exit %d (server %d): %s" % (r["name"], r["rc"], r["srv_rc"],
                                                    r.get("error", "no result row"))
               for r in failed]
        md.append("")
    verdicts = [e["msg_rate_mpps"].get("verdict") for e in res["bw"]] + \
               [e["t_typical_us"].get("verdict") for e in res["lat"]]
    res["summary"] = {v: verdicts.count(v) for v in sorted(set(verdicts), key=str)}
    md += ["Summary of the bw and lat rows: " +
           ", ".join("%s: %d" % (k, n) for k, n in res["summary"].items()), ""]

    os.makedirs(a.out, exist_ok=True)
    afile.write(os.path.join(a.out, a.name + ".json"),
                json.dumps(res, indent=1, sort_keys=False) + "\n")
    afile.write(os.path.join(a.out, a.name + ".md"), "\n".join(md))
    print("\n".join(md))
    print("wrote %s.json and %s.md in %s" % (a.name, a.name, a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
