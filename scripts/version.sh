#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# scripts/version.sh - print rdmabench's version, one line: the Makefile
# compiles it in (-DRDMABENCH_VERSION), scripts/make-deb.sh names the
# package with it.
#
#   $RDMABENCH_VERSION set: that, as it is
#   tagged tree:     git describe of the newest vX.Y.Z tag, "v" dropped:
#                    0.2.0 on the tag, 0.2.0-3-gabc1234 three commits later,
#                    "-dirty" appended when tracked files are modified
#   untagged tree:   a snapshot before the release the VERSION file names:
#                    0.2.0~git<commits>-g<commit>[-dirty]
#   no git (a tarball, or the copy "make deb" builds in): the VERSION file
#                    as it is (make deb writes the full version there),
#                    else 0.0.0-unknown
# Only this folder's own git repository counts: a copy unpacked inside
# another checkout does not take that checkout's version.
#
# Usage: scripts/version.sh [--deb]
#   --deb  the same version as a Debian native version (no "-"): the first
#          "-" becomes "+", the others "." (0.2.0+3.gabc1234.dirty)
# To release X.Y.Z: write X.Y.Z in VERSION, add its debian/changelog entry,
# commit, then tag: git tag -a vX.Y.Z -m 'rdmabench X.Y.Z'.
set -u
cd "$(dirname "$0")/.." || exit 1
base=$(sed -n '1{s/[[:space:]]//g;p;}' VERSION 2>/dev/null)
v=${RDMABENCH_VERSION:-}
top=$(git rev-parse --show-toplevel 2>/dev/null)
if [ -z "$v" ] && [ -n "$top" ] && [ "$top" = "$(pwd -P)" ]; then
	if v=$(git describe --tags --dirty --match 'v[0-9]*' 2>/dev/null); then
		v=${v#v}
	else
		n=$(git rev-list --count HEAD 2>/dev/null)
		v=$(git describe --always --dirty --abbrev=7 2>/dev/null)
		v=${base:-0.0.0}~git${n:-0}-g$v
	fi
fi
[ -n "$v" ] || v=${base:-0.0.0-unknown}
case ${1:-} in
--deb) printf '%s\n' "$v" | sed 's/-/+/; s/-/./g' ;;
'') printf '%s\n' "$v" ;;
*) echo "version.sh: unknown argument '$1' (use --deb or nothing)" >&2
   exit 2 ;;
esac
