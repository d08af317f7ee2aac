#!/bin/bash
# tests/nulldev/pair.sh [-b BUILD] [-p PORT] [-t SECS] BIN [ARG...] - one
# server/client pair of BIN (a path: /usr/bin/ib_write_bw, build/ib_send_lat)
# with ARGs on the null device (tests/nulldev/nulldev-run.sh; both sides
# share $NULLDEV_SYS): the server first, the client when the server's port
# listens. Prints the client's output, then the server's after a line
# "== server"; exit status: 0 when both sides exit 0, else the first
# failure's (77: no namespace, a skip; 124: past -t SECS, default 30).
# PAIR_CPU=FILE: the client's user and system seconds written there
# (/usr/bin/time -f "%U %S"). PAIR_PIN="S C": the server runs on CPU S and
# the client on CPU C (taskset), so neither migrates nor shares a core
# with the other: a benchmark's pairs then differ by the program, not by
# where the scheduler put them.
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=build PORT=18515 T=30
while [ $# -gt 0 ]; do
	case $1 in
	-b) B=$2; shift 2 ;;
	-p) PORT=$2; shift 2 ;;
	-t) T=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: pair.sh [-b BUILD] [-p PORT] [-t SECS] BIN [ARG...]" >&2; exit 2; }
bin=$1
shift
run=("$here/nulldev-run.sh" -b "$B")
spin=() cpin=()
if [ -n "${PAIR_PIN:-}" ]; then
	read -r s c <<< "$PAIR_PIN"
	spin=(taskset -c "$s") cpin=(taskset -c "$c")
fi
so=$(mktemp) co=$(mktemp)
trap 'rm -f "$so" "$co"' EXIT
timeout "$T" "${spin[@]}" "${run[@]}" "$bin" -d nulldev0 -p "$PORT" "$@" > "$so" 2>&1 &
spid=$!
# listening on PORT? (ss, or /proc/net/tcp where there is no ss: state 0A)
listens() {
	if command -v ss > /dev/null; then
		ss -ltn | grep -q ":$PORT "
	else
		grep -qi "^ *[0-9]*: [0-9A-F]*:$(printf %04X "$PORT") [0-9A-F:]* 0A " \
			/proc/net/tcp /proc/net/tcp6
	fi
}
for _ in $(seq 200); do
	listens 2>/dev/null && break
	kill -0 $spid 2>/dev/null || break
	sleep 0.05
done
cpu=()
[ -n "${PAIR_CPU:-}" ] && cpu=(/usr/bin/time -o "$PAIR_CPU" -f "%U %S")
timeout "$T" "${cpin[@]}" "${run[@]}" "${cpu[@]}" "$bin" -d nulldev0 -p "$PORT" "$@" 127.0.0.1 > "$co" 2>&1
crc=$?
wait $spid
src=$?
cat "$co"
echo "== server"
cat "$so"
[ $crc = 0 ] || exit $crc
exit $src
