#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/mk/test_install.sh - make install / uninstall and the version (make
# unit), on the tools already built in $RDMABENCH_BUILD:
#   install    DESTDIR + PREFIX=/usr: the eight tools and ib_doctor,
#              executable and stripped (no .symtab), printing the build's
#              version; the docs (docs/ under README.md), the result
#              schemas and report scripts (share/rdmabench, the installed
#              compare.py run on results/example-lab); the man pages and
#              completion the build made ($B/man, $B/completion), one bash
#              link per tool
#   uninstall  leaves no file and no link behind
#   nostrip    DEB_BUILD_OPTIONS=nostrip keeps the symbols
#   version    scripts/version.sh: $RDMABENCH_VERSION, the VERSION file
#              without git, --deb; a version with a space is refused
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}
unset MAKEFLAGS MFLAGS MAKELEVEL
command -v readelf > /dev/null || { echo "readelf (binutils) not found"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 checks=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }
mk() { # make ARGS, quiet unless it fails
	make -s --no-print-directory B="$B" "$@" > "$tmp/make.out" 2>&1 && return 0
	cat "$tmp/make.out"
	return 1
}
tools=$(cd bench && ls ./*.c | sed 's|^\./||; s/\.c$//')
ver=$(cat "$B/version.stamp" 2> /dev/null) || { echo "no $B/version.stamp: make first"; exit 1; }
stripped() { ! readelf -S "$1" | grep -q '\.symtab'; }

check_tools() { # ROOT STRIPPED(1|0)
	local t f
	for t in $tools; do
		f=$1/usr/bin/$t
		[ -x "$f" ] || { fail "install: no executable $f"; continue; }
		if [ "$2" = 1 ]; then stripped "$f" || fail "install: $t has a .symtab"
		else stripped "$f" && fail "nostrip: $t has no .symtab"; fi
		ok
	done
	"$1/usr/bin/ib_write_bw" --version | grep -qxF "ib_write_bw (rdmabench) $ver" &&
		ok || fail "install: ib_write_bw --version is not '$ver'"
}

check_extras() { # ROOT: docs, and what $B/man and $B/completion hold
	local f t
	[ -f "$1/usr/share/doc/rdmabench/README.md" ] && ok || fail "install: no README.md"
	for f in docs/*.md; do # README.md links them as docs/NAME.md
		[ -f "$1/usr/share/doc/rdmabench/$f" ] && ok || fail "install: no $f"
	done
	for f in results/schema/*; do
		[ -f "$1/usr/share/rdmabench/schema/${f##*/}" ] && ok ||
			fail "install: no schema ${f##*/}"
	done
	for f in compare.py afile.py k8s/collect.py $(cd scripts && echo fabric_*.py); do
		[ -f "$1/usr/share/rdmabench/scripts/$f" ] && ok ||
			fail "install: no report script $f"
	done
	"$1/usr/share/rdmabench/scripts/compare.py" --expect none results/example-lab \
		> /dev/null 2>&1 && ok || fail "install: the installed compare.py failed"
	for f in "$B"/man/*.[17]; do
		[ -f "$f" ] || continue
		[ -f "$1/usr/share/man/man${f##*.}/${f##*/}" ] && ok || fail "install: no man page ${f##*/}"
	done
	[ -f "$B/completion/_rdmabench" ] && { [ -f "$1/usr/share/zsh/vendor-completions/_rdmabench" ] &&
		ok || fail "install: no zsh completion"; }
	[ -f "$B/completion/rdmabench" ] || return 0
	for t in $tools; do
		[ "$(readlink "$1/usr/share/bash-completion/completions/$t")" = rdmabench ] &&
			ok || fail "install: no bash completion link for $t"
	done
}

check_gone() { # ROOT: uninstall left nothing but directories
	local left
	mk uninstall DESTDIR="$1" PREFIX=/usr || { fail "uninstall failed"; return; }
	left=$(find "$1" ! -type d)
	[ -z "$left" ] && ok || fail "uninstall left: $left"
}

if mk install DESTDIR="$tmp/d" PREFIX=/usr; then
	check_tools "$tmp/d" 1
	check_extras "$tmp/d"
	check_gone "$tmp/d"
else
	fail "make install DESTDIR=$tmp/d PREFIX=/usr failed"
fi
if mk install DESTDIR="$tmp/n" PREFIX=/usr DEB_BUILD_OPTIONS=nostrip; then
	check_tools "$tmp/n" 0
	check_gone "$tmp/n"
else
	fail "make install DEB_BUILD_OPTIONS=nostrip failed"
fi

mkdir -p "$tmp/t/scripts" && cp scripts/version.sh "$tmp/t/scripts/" && echo 9.8.7 > "$tmp/t/VERSION"
[ "$("$tmp/t/scripts/version.sh")" = 9.8.7 ] && ok || fail "version.sh without git: not the VERSION file"
[ "$(RDMABENCH_VERSION=1.2.3-4-gabc-dirty "$tmp/t/scripts/version.sh" --deb)" = 1.2.3+4.gabc.dirty ] &&
	ok || fail "version.sh --deb: not 1.2.3+4.gabc.dirty"
rm "$tmp/t/VERSION"
[ "$("$tmp/t/scripts/version.sh")" = 0.0.0-unknown ] && ok || fail "version.sh without VERSION: not 0.0.0-unknown"
if make -s B="$B" version RDMABENCH_VERSION='1 2' > "$tmp/make.out" 2>&1; then
	fail "make accepted RDMABENCH_VERSION='1 2'"
else
	grep -q "may hold only" "$tmp/make.out" && ok || fail "RDMABENCH_VERSION='1 2': no reason given"
fi

[ "$failed" -eq 0 ] || exit 1
echo "install: $checks checks passed"
