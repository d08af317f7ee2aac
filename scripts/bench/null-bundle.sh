#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/bench/null-bundle.sh DIR - what scripts/bench-null.sh needs on a
# host that has neither rdma-core nor perftest (a quiet machine lent for
# measuring, e.g. the GPU machine): perftest's eight binaries (Debian's,
# from /usr/bin), every shared library they and ours load (found by ldd,
# the C library left out) and /usr/bin/time, into DIR/bin and DIR/lib, and
# our eight binaries and the null device from build/ into DIR/build, and
# DIR/env.sh, which points PERFTEST_BIN, BENCH_BIN, LD_LIBRARY_PATH and
# PATH there and sets BENCH_NO_BUILD (all is built here, from this tree).
# Run there: . DIR/env.sh && scripts/bench-null.sh --host "..."
set -eu
[ $# = 1 ] || { echo "usage: null-bundle.sh DIR" >&2; exit 2; }
cd "$(dirname "$0")/../.."
out=$1
mkdir -p "$out/bin" "$out/lib"
tools="ib_write_bw ib_read_bw ib_send_bw ib_atomic_bw ib_write_lat ib_read_lat ib_send_lat ib_atomic_lat"
for t in $tools; do cp /usr/bin/$t "$out/bin/"; done
cp /usr/bin/time "$out/bin/"
mkdir -p "$out/build/tests/nulldev"
for t in $tools; do cp "build/$t" "$out/build/"; done
cp build/tests/nulldev/libnulldev-rdmav34.so build/tests/nulldev/libnulldev-nonl.so \
	"$out/build/tests/nulldev/"
for f in $(for t in $tools; do echo /usr/bin/$t build/$t; done) /usr/bin/time \
	build/tests/nulldev/libnulldev-rdmav34.so; do
	ldd "$f" | awk '$3 ~ /^\// { print $3 }'
done | sort -u | grep -v -e '/libc\.so' -e '/libm\.so' -e '/ld-linux' |
	while read -r l; do cp -L "$l" "$out/lib/"; done
cat > "$out/env.sh" <<ENV
# sourced: perftest's binaries and the libraries from $(hostname), $(date -u +%F)
b=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
export PERFTEST_BIN=\$b/bin LD_LIBRARY_PATH=\$b/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export PATH=\$b/bin:\$PATH BENCH_NO_BUILD=1 BENCH_BIN=\$b/build
ENV
echo "null-bundle: $(ls "$out/lib" | wc -l) libraries, $(du -sh "$out" | cut -f1) in $out"
