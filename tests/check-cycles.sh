#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/check-cycles.sh BUILD|DIR - no two files call each other: the
# rule "no call cycle between files" checked on the built objects.
# For every object under BUILD/common/*/ (and a room of theirs,
# common/*/*/), BUILD/gpu/, BUILD/doctor/ and BUILD/fabric/ (+live)
# whose source file is still in the tree - or, when BUILD holds none of
# those, every *.o directly in DIR (a test plants a cycle there) - it
# reads which global symbols the object defines (nm --defined-only) and
# which it uses (nm -u). File A depends on file B when A uses a symbol B
# defines. Every strongly connected component of more than one file is a
# cycle: it is printed as
#   cycle: common/run/driver.c <-> common/run/session/session.c
#     common/run/driver.c -> common/run/session/session.c (session_client)
#     common/run/session/session.c -> common/run/driver.c (bench_sizes)
# with one line per edge inside it (the symbols that make it), and the
# script exits 1. Prints "cycle-check: N files, no cycle" and exits 0
# otherwise; exits 2 when there is nothing to read.
set -u
B=${1:-build}
[ -d "$B" ] || { echo "cycle-check: no folder $B" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
objs=()
for o in "$B"/common/*/*.o "$B"/common/*/*/*.o "$B"/gpu/*.o "$B"/doctor/*.o \
	"$B"/doctor/live/*.o "$B"/fabric/*.o "$B"/fabric/live/*.o; do
	f=${o#"$B"/}
	# an object left behind by a renamed or removed source is not read
	[ -f "$SRC/${f%.o}.c" ] && objs+=("$o")
done
[ ${#objs[@]} -gt 0 ] || objs=("$B"/*.o)
[ ${#objs[@]} -gt 0 ] || { echo "cycle-check: no objects in $B" >&2; exit 2; }

# one line per (file, kind, symbol): "D sym" defined, "U sym" used
for o in "${objs[@]}"; do
	f=${o#"$B"/}
	nm --defined-only -g "$o" | awk -v f="$f" 'NF == 3 { print f, "D", $3 }'
	nm -u "$o" | awk -v f="$f" '{ print f, "U", $NF }'
done | python3 -c '
import sys
from collections import defaultdict

defs, uses, files = defaultdict(set), defaultdict(set), set()
for line in sys.stdin:
    f, kind, sym = line.split()
    f = f[:-2] + ".c"
    files.add(f)
    (defs if kind == "D" else uses)[sym if kind == "D" else f].add(
        f if kind == "D" else sym)

# edges[a][b] = the symbols a uses that b defines
edges = defaultdict(lambda: defaultdict(set))
for a in files:
    for sym in uses[a]:
        for b in defs.get(sym, ()):
            if b != a:
                edges[a][b].add(sym)

# Tarjan, iterative: the strongly connected components
index, low, on, stack, sccs, n = {}, {}, set(), [], [], [0]
def visit(root):
    work = [(root, iter(sorted(edges[root])))]
    index[root] = low[root] = n[0]; n[0] += 1
    stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = n[0]; n[0] += 1
                stack.append(w); on.add(w)
                work.append((w, iter(sorted(edges[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            sccs.append(sorted(comp))
for f in sorted(files):
    if f not in index:
        visit(f)

cycles = sorted(c for c in sccs if len(c) > 1)
for comp in cycles:
    print("cycle: " + " <-> ".join(comp))
    for a in comp:
        for b in sorted(edges[a]):
            if b in comp:
                print("  %s -> %s (%s)" % (a, b, ", ".join(sorted(edges[a][b]))))
if cycles:
    print("cycle-check: %d cycle(s) among %d files" % (len(cycles), len(files)))
    sys.exit(1)
print("cycle-check: %d files, no cycle" % len(files))
'
