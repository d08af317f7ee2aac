#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""perftest_shape - the field rules a perftest parser relies on, applied
alike to perftest's output and ours (issue 13): the numbers differ, the
shapes must not.

  perftest_shape.py show FILE...           the shape of each file
  perftest_shape.py compare GOLDEN OURS [TOOL...]
                                           every GOLDEN/NAME.{txt,json}
                                           (of the TOOLs: write_bw...) against
                                           OURS/NAME (same names); in both
                                           trees the -b pairs (.b., .both.)
                                           by the -b rules below
  perftest_shape.py files GOLDEN OURS      one pair of files
  perftest_shape.py bidir TREE             the -b rules alone, in TREE
  perftest_shape.py tail TREE [TOOL...]    the tail rule alone, in TREE:
                                           in every file with rows, the
                                           line before the last is a row
  perftest_shape.py unit PERFTEST_DIR UNIT_DIR
                                           our renderers' unit goldens
                                           against perftest's files

The shape of a text (stdout):
  heads  the column header lines (" #bytes ..."), as lists of column names
         (split at 2+ blanks; perftest 4.5's "MB/sec" is the MiB/sec it
         later named so)
  rows   field count of every numeric-first line (what awk '$1==SIZE' or
         a "first numeric line" parser takes); each must be all numbers
  bare   lines that are one number alone (--output)
  sized  header labels whose value carries "[B]" ("Mtu", "Max inline data")
  iters  a client's #iterations column (not -D): the same values, since
         the same commands ran (-q N: N x n in perftest)
  tail   the classes of the last five lines (issue 26: a script takes
         `tail -n 2 | head -n 1` as the row): dash (perftest's rule),
         head, row:N (N fields), bare, blank, other, a run of rows of
         one count as one line (the row counts are the rules above);
         compared line by line over the last min(5, both lengths), and where
         perftest's file has rows, ours' line before the last must be
         a row of one of perftest's field counts
The -b rules (both trees): client and server print the same sum row;
with --report-both each side's Local row is the other's Remote row, and
the two make the sum.
The shape of a JSON file (--out_json): the keys of "test_info" and of
"results", read by a tolerant rule (perftest 4.5 writes keys unquoted);
ours must also be valid JSON.
Exit 0 when every pair has the same shape, 1 otherwise (each difference
printed), 2 on usage errors.
"""
import json
import os
import re
import sys

NUM = re.compile(r"^[-+]?[0-9]+(\.[0-9]+)?$")
LABEL = re.compile(r"^\s*([A-Za-z][A-Za-z0-9 .*_-]*?)\s*:\s*(\S+)")


def line_class(line):
    """What a parser sees in one line of stdout."""
    tok = line.split()
    if not tok:
        return "blank"
    if re.match(r"^-{20,}$", line.strip()):
        return "dash"
    if tok[0] == "#bytes":
        return "head"
    if len(tok) == 1 and NUM.match(tok[0]) and "." in tok[0]:
        return "bare"
    if re.match(r"^[0-9]+$", tok[0]):
        return "row:%d" % len(tok)
    return "other"


def text_shape(text):
    heads, rows, bare, sized, bad = [], [], 0, set(), []
    tail = []
    for line in text.splitlines():  # a run of rows as one (-a: perftest's
        c = line_class(line)        # one-sided server prints the last)
        if not (tail and c == tail[-1] and c.startswith("row:")):
            tail.append(c)
    tail = tail[-5:]
    for line in text.splitlines():
        tok = line.split()
        if not tok:
            continue
        if tok[0] == "#bytes":
            cols = [re.sub(r"MB/sec", "MiB/sec", c)
                    for c in re.split(r"\s{2,}|\t+", line.strip())]
            if cols not in heads:
                heads.append(cols)
        elif len(tok) == 1 and NUM.match(tok[0]) and "." in tok[0]:
            bare += 1
        elif re.match(r"^[0-9]+$", tok[0]):
            if not all(NUM.match(t) for t in tok):
                bad.append(line.strip())
            rows.append(len(tok))
        else:
            for m in re.finditer(r"([A-Za-z][A-Za-z0-9 ._-]*?)\s*:\s*"
                                 r"[0-9]+\[B\]", line):
                sized.add(m.group(1).strip())
    return {"heads": heads, "rows": rows, "bare": bare,
            "sized": sorted(sized), "bad": bad, "tail": tail}


def compare_tail(g, o):
    """The last lines, class by class, and the row before the last (whole
    stdouts only: not the renderers' unit goldens, merged shapes)."""
    why = []
    if "tail" not in g:
        return why
    k = min(5, len(g["tail"]), len(o["tail"]))
    if k and g["tail"][-k:] != o["tail"][-k:]:
        why.append("last %d lines %s, perftest %s"
                   % (k, o["tail"][-k:], g["tail"][-k:]))
    if g["rows"]:
        counts = sorted(set("row:%d" % n for n in g["rows"]))
        got = o["tail"][-2] if len(o["tail"]) >= 2 else "none"
        if got not in counts:
            why.append("tail -n 2 | head -n 1 is %s, not a row %s"
                       % (got, counts))
    return why


def json_keys(text):
    """Keys of test_info and results, quoted or not (perftest 4.5)."""
    keys, cur = {"test_info": [], "results": []}, None
    for line in text.splitlines():
        m = re.match(r'^\s*"?([^":{}]+?)"?\s*:\s*(\{)?', line)
        if not m:
            continue
        k = m.group(1).strip()
        if m.group(2):
            cur = k if k in keys else None
        elif cur:
            keys[cur].append(k)
    return keys


def shape(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if path.endswith(".json"):
        s = json_keys(text)
        try:
            json.loads(text)
            s["valid"] = True
        except ValueError:
            s["valid"] = False
        return s
    return text_shape(text)


def compare_text(name, g, o):
    why = []
    if g["heads"] != o["heads"]:
        why.append("column heads %s, perftest %s" % (o["heads"], g["heads"]))
    if sorted(set(g["rows"])) != sorted(set(o["rows"])):
        why.append("row field counts %s, perftest %s"
                   % (sorted(set(o["rows"])), sorted(set(g["rows"]))))
    if bool(g["rows"]) != bool(o["rows"]):
        why.append("%d rows, perftest %d" % (len(o["rows"]), len(g["rows"])))
    if bool(g["bare"]) != bool(o["bare"]) or (g["bare"] and o["rows"]):
        why.append("%d bare numbers and %d rows, perftest %d and %d"
                   % (o["bare"], len(o["rows"]), g["bare"], len(g["rows"])))
    missing = set(g["sized"]) - set(o["sized"])
    if missing and o["heads"]:
        why.append("no [B] after %s" % sorted(missing))
    if o["bad"]:
        why.append("numeric-first lines that are no row: %s" % o["bad"][:2])
    return why + compare_tail(g, o)


# test_info keys perftest writes only where it chose the value itself:
# GID_index is perftest's (-x or its pick on RoCE); ours names it where it
# picks one (--oob tcp), rdma_cm picks none.
CONDITIONAL = {"GID_index"}


def compare_json(name, g, o):
    why = []
    if not o["valid"]:
        why.append("not valid JSON")
    if g["results"] != o["results"]:
        why.append("results keys %s, perftest %s" % (o["results"], g["results"]))
    missing = [k for k in g["test_info"]
               if k not in o["test_info"] and k not in CONDITIONAL]
    if missing:
        why.append("test_info lacks %s" % missing)
    return why


def compare_iters(gpath, opath):
    """A client's #iterations column, size by size, as perftest counts it
    (-n per size; -q N: N x n): the same commands give the same counts.
    -D counts what fit in the time, so it is left out."""
    if ".D." in gpath or not gpath.endswith(".client.txt"):
        return []
    gi = [f[1] for f in row_fields(gpath) if len(f) > 1]
    oi = [f[1] for f in row_fields(opath) if len(f) > 1]
    return [] if gi == oi else ["#iterations %s, perftest %s" % (oi[:4], gi[:4])]


def compare_pair(name, gpath, opath):
    if not os.path.exists(opath):
        return ["%s missing" % opath]
    g, o = shape(gpath), shape(opath)
    if gpath.endswith(".json"):
        return compare_json(name, g, o)
    return compare_text(name, g, o) + compare_iters(gpath, opath)


def row_fields(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.split() for line in f
                if line.split() and re.match(r"^[0-9]+$", line.split()[0])]


def bidir_check(cpath, spath):
    """-b: both sides print one row, the sum of both directions
    (perftest's xchg_bw_reports): the same peak, average and rate.
    --report-both: then each side's Local row is the other's Remote row,
    and Local + Remote make the sum."""
    if not (os.path.exists(cpath) and os.path.exists(spath)):
        return ["%s or %s missing" % (cpath, spath)]
    c, s = row_fields(cpath), row_fields(spath)
    if not c or not s:
        return ["no rows (client %d, server %d)" % (len(c), len(s))]
    why = []
    if c[0][2:] != s[0][2:]:
        why.append("sum rows differ: client %s, server %s"
                   % (c[0][2:], s[0][2:]))
    if ".both." not in cpath:
        if len(c) != 1 or len(s) != 1:
            why.append("%d and %d rows, want 1 each" % (len(c), len(s)))
        return why
    if len(c) != 3 or len(s) != 3:
        return why + ["%d and %d rows, want 3 each (sum, Local, Remote)"
                      % (len(c), len(s))]
    if c[1] != s[2] or c[2] != s[1]:
        why.append("Local and Remote rows do not cross: client %s, server %s"
                   % (c[1:], s[1:]))
    for col in (3, 4):
        if abs(float(c[1][col]) + float(c[2][col]) - float(c[0][col])) > \
                2 * 10 ** -(len(c[0][col].split(".")[1])):
            why.append("Local + Remote != the sum in column %d" % (col + 1))
    return why


def bidir_pairs(tree, pre):
    """The -b and --report-both client/server pairs in a tree."""
    return sorted(n[:-len(".client.txt")] for n in os.listdir(tree)
                  if n.startswith(pre) and
                  re.search(r"\.(b|both)\.client\.txt$", n))


def report(pairs, bidir=()):
    bad = 0
    for name, gpath, opath in pairs:
        why = compare_pair(name, gpath, opath)
        print("%s %s%s" % ("FAIL" if why else "ok", name,
                           (": " + "; ".join(why)) if why else ""))
        bad += bool(why)
    for name, tree in bidir:
        why = bidir_check(os.path.join(tree, name + ".client.txt"),
                          os.path.join(tree, name + ".server.txt"))
        print("%s %s (-b rows, %s)%s" % ("FAIL" if why else "ok", name, tree,
                                        (": " + "; ".join(why)) if why else ""))
        bad += bool(why)
    n = len(pairs) + len(bidir)
    print("shape: %d same, %d differ" % (n - bad, bad))
    return 1 if bad else 0


# Our unit goldens (rendered by tests/report/test_report.c and
# test_perftest_json.c) and the perftest files that show the same layouts.
UNIT_PAIRS = (
    ("report_bw.txt", ("write_bw.default.client.txt",
                       "write_bw.gbits.client.txt")),
    ("report_lat.txt", ("write_lat.default.client.txt",
                        "write_lat.D.client.txt")),
    ("report_header.txt", ("write_bw.default.client.txt",)),
    ("perftest_json_bw.json", ("write_bw.json.client.json",)),
    ("perftest_json_lat.json", ("write_lat.json.client.json",)),
)


def merge(shapes):
    m = {"heads": [], "rows": [], "bare": 0, "sized": set(), "bad": []}
    for s in shapes:
        m["heads"] += [h for h in s["heads"] if h not in m["heads"]]
        m["rows"] += s["rows"]
        m["bare"] += s["bare"]
        m["sized"] |= set(s["sized"])
    m["sized"] = sorted(m["sized"])
    return m


def unit(perftest_dir, unit_dir):
    """Our renderers' goldens against perftest's files of those layouts."""
    bad = 0
    for ours, theirs in UNIT_PAIRS:
        o = shape(os.path.join(unit_dir, ours))
        gs = [shape(os.path.join(perftest_dir, t)) for t in theirs]
        if ours.endswith(".json"):
            why = compare_json(ours, gs[0], o)
        elif ours == "report_header.txt":
            g = merge(gs)
            why = (["no [B] after %s" % sorted(set(g["sized"]) - set(o["sized"]))]
                   if set(g["sized"]) - set(o["sized"]) else [])
        else:
            g = merge(gs)
            g["sized"] = []  # the header is report_header.txt's
            why = compare_text(ours, g, o)
            if sorted(map(tuple, g["heads"])) != sorted(map(tuple, o["heads"])):
                why = why or ["column heads differ"]
        print("%s %s vs %s%s" % ("FAIL" if why else "ok", ours,
                                 ", ".join(theirs),
                                 (": " + "; ".join(why)) if why else ""))
        bad += bool(why)
    print("shape: %d same, %d differ" % (len(UNIT_PAIRS) - bad, bad))
    return 1 if bad else 0


def tail_tree(tree, pre):
    """Every text file with rows: its line before the last is a row."""
    bad, n = 0, 0
    for name in sorted(os.listdir(tree)):
        if not (name.endswith(".txt") and name.count(".") >= 3 and
                name.startswith(pre)):
            continue
        s = shape(os.path.join(tree, name))
        if not s["rows"]:
            continue
        n += 1
        why = compare_tail(s, s)
        print("%s %s (tail)%s" % ("FAIL" if why else "ok", name,
                                  (": " + "; ".join(why)) if why else ""))
        bad += bool(why)
    print("tail: %d rows last, %d not" % (n - bad, bad))
    return 1 if bad or not n else 0


def main(argv):
    if len(argv) == 3 and argv[0] == "unit":
        return unit(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == "show":
        for p in argv[1:]:
            print(p, json.dumps(shape(p)))
        return 0
    if len(argv) >= 3 and argv[0] == "compare":
        pre = tuple(t + "." for t in argv[3:]) or ("",)
        names = sorted(n for n in os.listdir(argv[1])
                       if n.endswith((".txt", ".json")) and
                       n.count(".") >= 3 and n.startswith(pre))
        bidir = [(n, t) for t in argv[1:3] for n in bidir_pairs(t, pre)]
        return report([(n, os.path.join(argv[1], n),
                        os.path.join(argv[2], n)) for n in names], bidir)
    if len(argv) >= 2 and argv[0] == "tail":
        return tail_tree(argv[1], tuple(t + "." for t in argv[2:]) or ("",))
    if len(argv) == 2 and argv[0] == "bidir":
        return report([], [(n, argv[1]) for n in bidir_pairs(argv[1], "")])
    if len(argv) == 3 and argv[0] == "files":
        return report([(os.path.basename(argv[2]), argv[1], argv[2])])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
