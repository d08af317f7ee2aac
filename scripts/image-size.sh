#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/image-size.sh - "make image-size": deploy/Dockerfile checked and
# sized without docker (there may be no daemon to build it with):
#   1. its build stage replayed: every COPY source of that stage must be
#      let through by deploy/Dockerfile.dockerignore; those files alone,
#      copied to a scratch folder, must build and "make install" there
#      (what the image's RUN does), giving the stripped tools
#   2. the runtime stage's packages (its RUNTIME_PKGS) resolved by apt as
#      on an empty system, less the base's own (debian:12-slim: the
#      Priority: required packages and apt, resolved the same way), each
#      with its Installed-Size
#   3. the sum: what the runtime stage adds to the base image, in KiB
# Not verified here: the base image's own size, apt's choices on the real
# base, the SETCAP variant, and running the image.
# Usage: scripts/image-size.sh [BUILD_DIR]   (scratch under BUILD_DIR/image)
set -u
cd "$(dirname "$0")/.." || exit 1
B=${1:-build}
DF=deploy/Dockerfile
IGN=deploy/Dockerfile.dockerignore
die() { echo "image-size: $*" >&2; exit 1; }

# the build stage's COPY sources (from the first FROM to the second)
copy_sources() {
	awk '/^FROM /{n++} n == 1 && /^COPY / && !/--from/ {
		for (i = 2; i < NF; i++) print $i }' "$DF"
}

# 0 if the .dockerignore ("*" then "!path" lines) lets SRC through
let_through() { # SRC
	local p
	while read -r p; do
		case $p in
		'!'*) p=${p#!}; p=${p%/}
		      [ "${1%/}" = "$p" ] || [ "${1#"$p"/}" != "$1" ] && return 0 ;;
		esac
	done < "$IGN"
	return 1
}

build_stage() { # SCRATCH: the context's files, built and installed
	local src
	rm -rf "$1" && mkdir -p "$1/src" || die "cannot create $1"
	for src in $(copy_sources); do
		let_through "$src" || die "$DF copies $src, which $IGN leaves out"
		[ -e "$src" ] || die "$DF copies $src, which does not exist"
		mkdir -p "$1/src/$(dirname "$src")"
		cp -a "$src" "$1/src/$(dirname "$src")/" || die "cannot copy $src"
	done
	make -s -C "$1/src" WERROR=1 -j"$(nproc)" > "$1/make.log" 2>&1 &&
		make -s -C "$1/src" install PREFIX=/usr/local DESTDIR="$1/out" \
			INSTALL_DOCS_DEPS= >> "$1/make.log" 2>&1 ||
		{ tail -n 20 "$1/make.log"; die "the build stage fails on the context alone"; }
}

# what apt installs for PACKAGES... on an empty system, one name a line
apt_closure() {
	local empty
	empty=$(mktemp) || exit 1
	apt-get -s -o Dir::State::status="$empty" install --no-install-recommends \
		"$@" 2> /dev/null | awk '$1 == "Inst" { print $2 }' | sort
	rm -f "$empty"
}

# the runtime stage's packages that are not in the base, with their size:
# the base is debian:12-slim, this release's Priority: required packages
# (those installed here) and apt, with what they depend on
runtime_pkgs() {
	local pkgs
	pkgs=$(sed -n 's/^ARG RUNTIME_PKGS="\(.*\)"/\1/p' "$DF")
	[ -n "$pkgs" ] || die "no ARG RUNTIME_PKGS=\"...\" in $DF"
	# shellcheck disable=SC2046,SC2086 # lists of package names
	apt_closure $pkgs > "$1.pkgs"
	[ -s "$1.pkgs" ] || die "apt-get -s could not resolve: $pkgs (apt-get update?)"
	# shellcheck disable=SC2046
	apt_closure apt $(dpkg-query -W -f='${Package} ${Priority}\n' |
		awk '$2 == "required" { print $1 }') > "$1.base"
	# shellcheck disable=SC2046
	apt-cache show --no-all-versions $(comm -23 "$1.pkgs" "$1.base") |
		awk '/^Package:/ { p = $2 } /^Installed-Size:/ { print p, $2 }'
}

mkdir -p "$B" && S=$(cd "$B" && pwd -P)/image || exit 1
build_stage "$S"
tools=$(du -ck "$S"/out/usr/local/bin/* deploy/entrypoint.sh | tail -n 1 | cut -f1)
echo "image-size: runtime stage of $DF (docker not run)"
printf '  %-28s %8s KiB\n' "tools, stripped, + entrypoint" "$tools"
total=$tools
while read -r p s; do
	printf '  %-28s %8s KiB\n' "$p" "$s"
	total=$((total + s))
	[ "$p" = udev ] && echo "  (udev is in: the image pulls more than the tools link)"
done < <(runtime_pkgs "$S/apt")
printf '  %-28s %8s KiB added to the base image (%s MiB)\n' total "$total" \
	"$(awk -v k="$total" 'BEGIN { printf "%.1f", k / 1024 }')"
