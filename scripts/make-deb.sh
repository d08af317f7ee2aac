#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/make-deb.sh - "make deb" and "make lint-deb".
#
#   scripts/make-deb.sh OUTDIR VERSION
#       copies the tree (git's files, or everything but .git and build*/
#       without git) to OUTDIR/src/rdmabench-<debver>/, writes VERSION there
#       and gives debian/changelog's newest entry that version, then runs
#       dpkg-buildpackage -us -uc -b in the copy: OUTDIR/rdmabench_*.deb.
#       <debver> is VERSION as a Debian native version (scripts/version.sh
#       --deb). The source tree itself is left as it was.
#   scripts/make-deb.sh --lint OUTDIR
#       lintian on OUTDIR's newest .changes; fails on any E: or W: line
#       (overrides, each with its reason, are in debian/*lintian-overrides).
# Needs dpkg-dev, debhelper and the build dependencies of debian/control
# (scripts/lab/setup.sh installs them), and lintian for --lint.
set -u
cd "$(dirname "$0")/.." || exit 1

die() { echo "make-deb: $*" >&2; exit 1; }
need() { # PROGRAM PACKAGE
	command -v "$1" > /dev/null ||
		die "'$1' not found: apt-get install $2 (or scripts/lab/setup.sh)"
}

lint() { # OUTDIR
	local changes out
	need lintian lintian
	changes=$(ls -t "$1"/rdmabench_*.changes 2> /dev/null | head -n 1)
	[ -n "$changes" ] || die "no $1/rdmabench_*.changes: run make deb first"
	out=$(lintian --fail-on none "$changes") || die "lintian failed to run"
	[ -n "$out" ] && printf '%s\n' "$out"
	if printf '%s\n' "$out" | grep -q '^[EW]: '; then
		die "lintian: errors or warnings on $changes (above)"
	fi
	echo "lintian: ${changes##*/}: no errors, no warnings"
}

copy_tree() { # DEST: the files git knows (tracked, or new and not ignored)
	if [ -n "$(git rev-parse --show-toplevel 2> /dev/null)" ]; then
		git ls-files -z --cached --others --exclude-standard |
			xargs -0 -I{} sh -c '[ ! -e "$1" ] || printf "%s\0" "$1"' _ {} |
			tar -c --null -T - -f - | tar -x -C "$1"
	else
		tar -c --exclude=./.git --exclude='./build*' -f - . | tar -x -C "$1"
	fi
}

build() { # OUTDIR VERSION
	local out=$1 ver=$2 debver src
	need dpkg-buildpackage dpkg-dev
	need dh debhelper
	debver=$(RDMABENCH_VERSION=$ver scripts/version.sh --deb) || exit 1
	src=$out/src/rdmabench-$debver
	rm -rf "$out/src" && mkdir -p "$src" || die "cannot create $src"
	copy_tree "$src" || die "cannot copy the tree to $src"
	echo "$ver" > "$src/VERSION"
	sed -i "1s/^rdmabench ([^)]*)/rdmabench ($debver)/" \
		"$src/debian/changelog"
	(cd "$src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log"; die "dpkg-buildpackage failed: $out/build.log"; }
	rm -f "$out"/rdmabench_* "$out"/rdmabench-dbgsym_*
	mv "$out"/src/rdmabench*_"$debver"_* "$out"/ ||
		die "dpkg-buildpackage left no rdmabench_${debver}_* in $out/src"
	ls "$out"/rdmabench*_"$debver"_*.deb
}

case ${1:-} in
--lint) [ $# -eq 2 ] || die "usage: $0 --lint OUTDIR"; lint "$2" ;;
-*|'') die "usage: $0 OUTDIR VERSION | --lint OUTDIR" ;;
*) [ $# -eq 2 ] || die "usage: $0 OUTDIR VERSION"; build "$1" "$2" ;;
esac
