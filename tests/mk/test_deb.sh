#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/mk/test_deb.sh - what the Debian package holds (dpkg-deb -c), on
# the package "make deb" built for this tree's version ($B/deb, else
# build/deb; scripts/test.sh builds it before make check):
#   docs     every path docs/install.md's table "What the package installs"
#            names is in the package, and every docs/*.md under
#            /usr/share/doc/rdmabench/docs, uncompressed (README.md links them)
#   schemas  every results/schema/* under /usr/share/rdmabench/schema
#   scripts  compare.py, every scripts/fabric_*.py, afile.py and
#            k8s/collect.py under /usr/share/rdmabench/scripts; the ones
#            that start with #! executable
#   runs     the packaged compare.py, unpacked (dpkg-deb -x), reads
#            results/example-lab and fabric_report.py answers --help: their
#            imports resolve where they are installed
#   depends  the package recommends python3
# Skipped (77) when no package of this version is there (make deb first)
# or without dpkg-deb. About 2 s.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}
command -v dpkg-deb > /dev/null || { echo "dpkg-deb not found (dpkg)"; exit 77; }
ver=$(scripts/version.sh --deb) || exit 1
dirs=$B/deb
[ "$B" = build ] || dirs="$dirs build/deb"
deb=
for d in $dirs; do
	for f in "$d"/rdmabench_"$ver"_*.deb; do
		[ -f "$f" ] && deb=$f && break 2
	done
done
if [ -z "$deb" ]; then
	echo "no rdmabench_${ver}_*.deb in $dirs: run make deb first"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 checks=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }

# PATH MODE per file (no directories), paths without the leading "."
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { p = $6; sub(/^\./, "", p); print p, $1 }' \
	> "$tmp/list" || { echo "dpkg-deb -c $deb failed"; exit 1; }
has() { grep -q "^$1 " "$tmp/list"; }
mode_of() { awk -v p="$1" '$1 == p { print $2 }' "$tmp/list"; }
need() { # PATH WHY
	if has "$1"; then ok; else fail "$deb lacks $1 ($2)"; fi
}

# docs: the table's paths (backquoted /usr/... in its rows)
# shellcheck disable=SC2016 # backquotes of Markdown, not of the shell
table=$(sed -n '/^### What the package installs/,/^```/p' docs/install.md |
	grep '^| `/usr' | grep -o '`/usr/[^`]*`' | tr -d '`')
[ -n "$table" ] || fail "docs/install.md: no table 'What the package installs'"
for p in $table; do need "$p" "docs/install.md names it"; done
for f in docs/*.md; do
	need "/usr/share/doc/rdmabench/$f" "README.md links it"
done
need /usr/share/doc/rdmabench/README.md "the README, uncompressed"

for f in results/schema/*; do
	need "/usr/share/rdmabench/schema/${f##*/}" "a result schema"
done
for f in scripts/compare.py scripts/afile.py scripts/fabric_*.py \
	scripts/k8s/collect.py; do
	p=/usr/share/rdmabench/${f}
	need "$p" "a report script or a module it imports"
	if [ "$(head -c 2 "$f")" = '#!' ] && has "$p"; then
		case $(mode_of "$p") in -rwx*) ok ;; *) fail "$p is not executable" ;; esac
	fi
done

dpkg-deb -x "$deb" "$tmp/root" || fail "dpkg-deb -x $deb failed"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
s=$tmp/root/usr/share/rdmabench/scripts
if "$py" "$s/compare.py" --expect none results/example-lab > "$tmp/out" 2>&1; then ok
else cat "$tmp/out"; fail "the packaged compare.py on results/example-lab failed"; fi
if "$py" "$s/fabric_report.py" --help > "$tmp/out" 2>&1; then ok
else cat "$tmp/out"; fail "the packaged fabric_report.py --help failed"; fi
if dpkg-deb -f "$deb" Recommends | grep -q 'python3'; then ok
else fail "the package does not recommend python3 (its scripts need it)"; fi

[ "$failed" -eq 0 ] || exit 1
echo "deb: ${deb##*/}: $(wc -l < "$tmp/list") files; $checks checks passed"
