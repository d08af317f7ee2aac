#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/style.sh [--check] [BASE] - `make style`: clang-format (rules in
# .clang-format) only the C lines changed since BASE (default HEAD), staged
# or not, and every line of a new C file git does not track yet. Never
# whole old files: the tree is not mass-reformatted, so a commit's diff
# stays its own change.
#   --check  write nothing: print the diff it would make, exit 1 if any.
# Exit 0 when done (or nothing to do), 1 on --check with changes to make,
# 2 when clang-format (Debian: apt-get install clang-format) is missing.
set -u
cd "$(dirname "$0")/.." || exit 1
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
base=${1:-HEAD}
cf=$(command -v clang-format || command -v clang-format-14)
cfd=$(command -v clang-format-diff || command -v clang-format-diff-14)
if [ -z "$cf" ] || [ -z "$cfd" ]; then
	echo "style: clang-format and clang-format-diff needed" \
		"(apt-get install clang-format)" >&2
	exit 2
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
inplace=-i
[ "$check" -eq 1 ] && inplace=
# changed lines of tracked files: the hunks of `git diff BASE`, no context
# shellcheck disable=SC2086 # inplace is empty or -i
git diff -U0 --no-color --relative "$base" -- '*.c' '*.h' |
	"$cfd" -p1 $inplace -binary "$cf" -style file > "$out" || exit 1
# new files: every line is changed
while IFS= read -r f; do
	if [ "$check" -eq 1 ]; then
		"$cf" -style=file "$f" | diff -u "$f" - >> "$out"
	else
		"$cf" -style=file -i "$f"
	fi
done < <(git ls-files --others --exclude-standard -- '*.c' '*.h')

if [ -s "$out" ]; then
	cat "$out"
	[ "$check" -eq 1 ] && exit 1
fi
exit 0
