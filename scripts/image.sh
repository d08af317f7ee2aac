#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/image.sh [--tag TAG] [--no-base] - build the image from
# deploy/Dockerfile with podman (Debian's podman, buildah inside), as
# `make image` does and CI before the lab's k8s-image boot:
#
#   localhost/rdmabench:TAG          the image as shipped (USER 10001)
#   localhost/rdmabench:TAG-setcap   --build-arg SETCAP=1 (components/nonroot)
#
# TAG defaults to "ci". With no registry here, the Dockerfile's bases
# (debian:12 and debian:12-slim) are made locally first, unless they exist
# (or --no-base): Debian 12 "minbase" by mmdebstrap from Debian's archive,
# imported with podman import and tagged docker.io/library/debian:12 and
# :12-slim (the same tree for both: not Docker Hub's images, which are
# built the same way by debuerreotype, slim with docs and locales cut; like
# theirs, apt keeps no package caches: /etc/apt/apt.conf.d/docker-clean). The
# tarball is cached in RDMABENCH_IMAGE_CACHE (default
# /var/tmp/rdmabench-lab/image). RUN steps use the host's network (apt) and
# chroot isolation: this host's cgroups are hybrid, which crun refuses for
# a build container (a run container in the lab guests uses crun).
# Each step prints its wall time; exit status: podman's.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
tag=ci base=1
while [ $# -gt 0 ]; do
	case $1 in
	--tag) tag=${2:?--tag needs a value}; shift 2 ;;
	--no-base) base=0; shift ;;
	-h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "image.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
for t in podman mmdebstrap; do
	command -v "$t" > /dev/null ||
		{ echo "image.sh: $t is missing: apt-get install podman crun mmdebstrap" >&2; exit 2; }
done
cache=${RDMABENCH_IMAGE_CACHE:-/var/tmp/rdmabench-lab/image}
mkdir -p "$cache" || exit 1
t0=$SECONDS
say() { echo "[image] $* ($((SECONDS - t0)) s)"; }

if [ "$base" = 1 ] && ! podman image exists docker.io/library/debian:12-slim; then
	if [ ! -s "$cache/debian12-v2.tar" ]; then
		mmdebstrap --quiet --variant=minbase \
			--dpkgopt='path-exclude=/usr/share/doc/*' \
			--dpkgopt='path-exclude=/usr/share/man/*' \
			--dpkgopt='path-exclude=/usr/share/locale/*' \
			--customize-hook='printf "%s\n" "Dir::Cache::pkgcache \"\";" \
				"Dir::Cache::srcpkgcache \"\";" > "$1/etc/apt/apt.conf.d/docker-clean"' \
			bookworm "$cache/debian12-v2.new.tar" || exit
		mv "$cache/debian12-v2.new.tar" "$cache/debian12-v2.tar"
		say "debian 12 minbase by mmdebstrap"
	fi
	podman import -q "$cache/debian12-v2.tar" docker.io/library/debian:12 > /dev/null &&
		podman tag docker.io/library/debian:12 docker.io/library/debian:12-slim || exit
	say "imported as debian:12 and debian:12-slim"
fi
V=$(make -s version)
for v in "$tag:0" "$tag-setcap:1"; do
	podman build -q --pull=never --isolation=chroot --network=host \
		-f deploy/Dockerfile --build-arg RDMABENCH_VERSION="$V" \
		--build-arg SETCAP="${v#*:}" -t "localhost/rdmabench:${v%:*}" . \
		> "$cache/build.log" 2>&1 || { tail -n 30 "$cache/build.log"; exit 1; }
	say "built localhost/rdmabench:${v%:*} (rdmabench $V)"
done
