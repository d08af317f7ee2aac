#!/bin/sh
# deploy/entrypoint.sh - the container entrypoint of the rdmabench image
# (installed as /usr/local/bin/rdmabench-entrypoint). POSIX sh: the runtime
# image has sh, awk, sed and coreutils, no jq and no python. The JSON it
# reports is the tools' own (--summary: common/report/summary.c and
# doctor/findings_summary.c); the few strings it adds itself go through
# json_str, which keeps printable ASCII only. (flatten, for
# scripts/k8s/run-pair.sh, is the one JSON reader left here.)
#
# Usage:
#   rdmabench-entrypoint server TOOL [SERVER_ARGS...]
#       exec TOOL --persistent SERVER_ARGS (e.g. --oob tcp --netdev net1)
#   rdmabench-entrypoint client TOOL SERVER [ARGS...]
#       run TOOL SERVER ARGS $RDMABENCH_ARGS --json - --summary FILE (the
#       document from its stdout, its text from stderr, its verdict
#       summary in FILE), then report (below) and exit with TOOL's exit
#       status
#   rdmabench-entrypoint ring TOOL [ARGS...]
#       one pod of an Indexed Job (scripts/k8s/ring.sh): start a one-shot
#       server (TOOL $RDMABENCH_SERVER_ARGS) in the background, run the client
#       (ARGS $RDMABENCH_ARGS)
#       against pod (JOB_COMPLETION_INDEX + RDMABENCH_RING_STRIDE) mod
#       RDMABENCH_RING_SIZE, named by RDMABENCH_PEER_FORMAT, report, then
#       stay until the server has served its own predecessor (or
#       RDMABENCH_RING_WAIT seconds passed)
#   rdmabench-entrypoint doctor [IB_DOCTOR_ARGS...]
#       run ib_doctor (an initContainer): report; exit 0 when it passed or
#       found warnings only (6; RDMABENCH_DOCTOR_STRICT=1 makes 6 fail), its
#       own status otherwise (7: a failure)
#   rdmabench-entrypoint flatten < JSON
#       one "path<TAB>value" line per scalar (scripts/k8s/run-pair.sh)
#
# Report (client, ring): the verdict summary, one line of JSON of at most
# 4000 bytes (verdict, exit_code, tool, pod, node, server, device, each
# size's Gb/s or latency, the failing gates, the error: the sentence the
# tool printed), is written by the tool itself (--summary, common/report/
# summary.c); this script only adds the pod's own keys (pod, node, and a
# ring's group, index, peer_index, ring_size) after its first key, and
# writes one itself, from the exit status and the last line of the
# tool's output, when the tool wrote none (it could not start, or died).
# The summary goes to RDMABENCH_TERMINATION_LOG (default
# /dev/termination-log: Kubernetes shows it as the container's
# termination message); the full result JSON is printed on stdout
# between the lines
#   ===== rdmabench result json begin =====
#   ===== rdmabench result json end =====
# and, when RDMABENCH_RESULTS_DIR is set (a volume), copied there with the
# summary as NAME.json and NAME.verdict.json (NAME: RDMABENCH_RESULT_NAME,
# default the pod name or link-INDEX in a ring).
#
# Environment: RDMABENCH_TERMINATION_LOG, RDMABENCH_RESULTS_DIR,
#   RDMABENCH_RESULT_NAME, NODE_NAME and POD_NAME (downward API: recorded in
#   the summary), RDMABENCH_CLIENT_RETRIES (client: rerun after an exit 5
#   "peer unreachable" this many times, default 0), ring: JOB_COMPLETION_INDEX,
#   RDMABENCH_RING_SIZE, RDMABENCH_RING_STRIDE (1), RDMABENCH_RING_GROUP
#   (the Job's name, recorded in the summary), RDMABENCH_PEER_FORMAT
#   (printf format of the peer's name from its index, e.g.
#   rdmabench-ring-%d.rdmabench-ring), RDMABENCH_SERVER_ARGS,
#   RDMABENCH_RING_WAIT (300). A ring pod exits 0 once it has reported,
#   whatever its link's verdict (so one bad link does not make the Job kill
#   the other pods): the verdicts are in the termination messages, which
#   scripts/k8s/collect.py turns into one report and exit status.
#   RDMABENCH_ARGS: test flags (word-split) put after ARGS: the manifests
#   keep the fixed arguments in args and the test flags there.
set -u

TERMLOG=${RDMABENCH_TERMINATION_LOG:-/dev/termination-log}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rdmabench.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
CHILD=
trap 'on_signal TERM' TERM
trap 'on_signal INT' INT
SIGNALLED=

me=rdmabench-entrypoint
POD=${POD_NAME:-$(uname -n)}
say() { echo "[$me] $*" >&2; }

# json_str TEXT: TEXT as a JSON string token: printable ASCII kept (any
# other byte becomes ?), \ and " escaped, cut at 200 bytes. Pod, node and
# Job names are DNS names: they pass unchanged.
json_str() {
	printf '"%s"' "$(printf %s "$1" | LC_ALL=C tr -c ' -~' '?' |
		cut -c 1-200 | sed 's/[\\"]/\\&/g')"
}

on_signal() {
	SIGNALLED=$1
	[ -n "$CHILD" ] && kill -"$1" "$CHILD" 2>/dev/null
}

# JSON -> one "path<TAB>raw JSON value" line per scalar (strings keep their
# quotes and escapes, so they can be copied into other JSON unchanged).
json_flatten() {
	awk '
	function out(v,   p, x) {
		p = ""
		for (x = 1; x <= d; x++) p = p (x > 1 ? "." : "") k[x]
		print p "\t" v
	}
	BEGIN { RS = "\001" }
	{
		s = $0; n = length(s); d = 0; i = 1
		while (i <= n) {
			c = substr(s, i, 1)
			if (c == "{" || c == "[") {
				d++; t[d] = c; k[d] = (c == "[") ? 0 : ""; want[d] = (c == "{"); i++
			} else if (c == "}" || c == "]") {
				d--; i++
			} else if (c == ",") {
				if (t[d] == "[") k[d]++; else want[d] = 1
				i++
			} else if (c == ":") {
				want[d] = 0; i++
			} else if (c == "\"") {
				j = i + 1
				while (j <= n) {
					cj = substr(s, j, 1)
					if (cj == "\\") j += 2
					else if (cj == "\"") break
					else j++
				}
				tok = substr(s, i, j - i + 1); i = j + 1
				if (d > 0 && t[d] == "{" && want[d]) k[d] = substr(tok, 2, length(tok) - 2)
				else out(tok)
			} else if (c == " " || c == "\t" || c == "\n" || c == "\r") {
				i++
			} else {
				j = i
				while (j <= n && index(",}] \t\r\n", substr(s, j, 1)) == 0) j++
				out(substr(s, i, j - i)); i = j
			}
		}
	}'
}

# summary_keys EXTRA: the pod's own keys, each followed by a comma (EXTRA:
# '"key":value,...' to add after pod and node)
summary_keys() {
	printf '"pod":%s,"node":%s,%s' "$(json_str "$POD")" \
		"$(json_str "${NODE_NAME:-}")" "$1"
}

# spliced HEAD FILE EXTRA: FILE (a tool's summary, which starts with
# HEAD, its first key) with the pod's keys after HEAD; 1 when FILE is
# empty or no such summary
spliced() {
	[ -s "$2" ] && [ "$(head -c ${#1} "$2")" = "$1" ] || return 1
	printf '%s%s' "$1" "$(summary_keys "$3")"
	tail -c +$((${#1} + 1)) "$2"
}

# last_line LOG: the last line of a tool's output that is not blank
last_line() {
	grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 1
}

# summarize SUMMARY RC EXTRA SERVER LOG: the summary the tool wrote
# (SUMMARY), the pod's keys added after its first; or, when it wrote none,
# one made from its exit status RC, the SERVER it was given and the last
# line of its output LOG
summarize() {
	spliced '{"rdmabench_summary":1,' "$1" "$3" && return
	case $2 in 3) v=fail ;; 4) v=corrupt ;; *) v=error ;; esac
	code=$2; [ "$code" = 0 ] && code=1
	last=$(last_line "$5")
	printf '{"rdmabench_summary":1,%s"verdict":"%s","exit_code":%d,"tool":null,"server":%s,"rows":[],"failed_gates":[],"truncated":false,"error":%s}\n' \
		"$(summary_keys "$3")" "$v" "$code" "$(json_str "$4")" \
		"$(json_str "no result JSON written (exit $2)${last:+: $last}")"
}

# doctor_summary RC LOG: ib_doctor's summary, the pod's keys added; or one
# made from its exit status and its output's last line
doctor_summary() {
	spliced '{"rdmabench_doctor":1,' "$WORK/tool-summary" "" && return
	case $1 in 0) v=pass ;; 6) v=warn ;; 7) v=fail ;; *) v=error ;; esac
	last=$(last_line "$2")
	printf '{"rdmabench_doctor":1,%s"verdict":"%s","exit_code":%d,"findings":[],"truncated":false,"error":%s}\n' \
		"$(summary_keys "")" "$v" "$1" \
		"$(json_str "no summary written (exit $1)${last:+: $last}")"
}

# report RESULT RC EXTRA SERVER OUTPUT_LOG: write the summary and show
# the JSON
report() {
	summarize "$WORK/tool-summary" "$2" "$3" "$4" "$5" > "$WORK/summary"
	if ! cat "$WORK/summary" > "$TERMLOG" 2>/dev/null; then
		say "cannot write the verdict to $TERMLOG"
	fi
	if [ -s "$1" ]; then
		echo "===== rdmabench result json begin ====="
		cat "$1"
		[ -z "$(tail -c 1 "$1")" ] || echo
		echo "===== rdmabench result json end ====="
	fi
	echo "rdmabench verdict: $(cat "$WORK/summary")"
	if [ -n "${RDMABENCH_RESULTS_DIR:-}" ]; then
		name=${RDMABENCH_RESULT_NAME:-$POD}
		if ! mkdir -p "$RDMABENCH_RESULTS_DIR" ||
			! cp "$WORK/summary" "$RDMABENCH_RESULTS_DIR/$name.verdict.json" ||
			{ [ -s "$1" ] && ! cp "$1" "$RDMABENCH_RESULTS_DIR/$name.json"; }; then
			say "cannot copy the results to $RDMABENCH_RESULTS_DIR"
		fi
	fi
}

# run_logged LOG OUT CMD...: run CMD, its output on ours and in LOG; sets
# RC. OUT not empty: CMD's stdout goes there instead (a tool run with
# "--json -" writes the document on stdout and its text on stderr).
# Signals (the kubelet's TERM at activeDeadlineSeconds) go to CMD.
run_logged() {
	log=$1; out=$2; shift 2
	: > "$log"
	if [ -n "$out" ]; then
		"$@" > "$out" 2> "$log" &
	else
		"$@" > "$log" 2>&1 &
	fi
	CHILD=$!
	tail -n +1 -f --pid="$CHILD" "$log" &
	tailpid=$!
	RC=
	while [ -z "$RC" ]; do
		wait "$CHILD"; RC=$?
		# a trapped signal interrupts wait (status > 128): wait again
		if [ "$RC" -gt 128 ] && kill -0 "$CHILD" 2>/dev/null; then RC=; fi
	done
	CHILD=
	wait "$tailpid" 2>/dev/null
}

# client TOOL SERVER ARGS...: one run, reported
run_client() {
	tool=$1; server=$2; shift 2
	json=$WORK/result.json
	tries=$(( ${RDMABENCH_CLIENT_RETRIES:-0} + 1 ))
	while :; do
		rm -f "$json" "$WORK/tool-summary"
		# shellcheck disable=SC2086 # RDMABENCH_ARGS is a word list
		run_logged "$WORK/client.log" "$json" "$tool" "$server" "$@" ${RDMABENCH_ARGS:-} \
			--json - --summary "$WORK/tool-summary"
		tries=$((tries - 1))
		if [ "$RC" != 5 ] || [ "$tries" -le 0 ] || [ -n "$SIGNALLED" ]; then
			break
		fi
		say "exit 5 (peer unreachable or lost): trying again, $tries left"
		sleep 2
	done
}

mode=${1:-}
[ $# -gt 0 ] && shift
case $mode in
server)
	[ $# -ge 1 ] || { say "usage: $me server TOOL [ARGS...]"; exit 2; }
	tool=$1; shift
	trap - EXIT; rm -rf "$WORK"
	exec "$tool" --persistent "$@"
	;;
client)
	[ $# -ge 2 ] || { say "usage: $me client TOOL SERVER [ARGS...]"; exit 2; }
	run_client "$@"
	report "$WORK/result.json" "$RC" "" "$2" "$WORK/client.log"
	# exit 0 without a result is no pass (the summary says error, exit 1)
	[ "$RC" = 0 ] && [ ! -s "$WORK/result.json" ] && exit 1
	exit "$RC"
	;;
ring)
	[ $# -ge 1 ] || { say "usage: $me ring TOOL [ARGS...]"; exit 2; }
	tool=$1; shift
	idx=${JOB_COMPLETION_INDEX:-}; size=${RDMABENCH_RING_SIZE:-}
	stride=${RDMABENCH_RING_STRIDE:-1}; fmt=${RDMABENCH_PEER_FORMAT:-}
	for v in "$idx" "$size" "$stride"; do
		case $v in ''|*[!0-9]*) say "ring: JOB_COMPLETION_INDEX, RDMABENCH_RING_SIZE and RDMABENCH_RING_STRIDE must be numbers"; exit 2 ;; esac
	done
	[ -n "$fmt" ] || { say "ring: RDMABENCH_PEER_FORMAT is not set"; exit 2; }
	if [ "$size" -lt 2 ] || [ $((stride % size)) -eq 0 ]; then
		say "ring: needs RDMABENCH_RING_SIZE >= 2 and a stride that is not a multiple of it"
		exit 2
	fi
	peer_idx=$(( (idx + stride) % size ))
	# shellcheck disable=SC2059 # the format is the point
	peer=$(printf "$fmt" "$peer_idx")
	RDMABENCH_RESULT_NAME=${RDMABENCH_RESULT_NAME:-link-$idx}
	# one-shot server: it serves exactly one client, the pod STRIDE before
	# us, then exits; that exit tells this pod that it may end.
	# shellcheck disable=SC2086 # RDMABENCH_SERVER_ARGS is a word list
	"$tool" ${RDMABENCH_SERVER_ARGS:-} > "$WORK/server.log" 2>&1 &
	spid=$!
	say "ring: pod $idx of $size: server pid $spid; testing the link to pod $peer_idx ($peer)"
	run_client "$tool" "$peer" "$@"
	report "$WORK/result.json" "$RC" "\"group\":$(json_str "${RDMABENCH_RING_GROUP:-}"),\"index\":$idx,\"peer_index\":$peer_idx,\"ring_size\":$size," "$peer" "$WORK/client.log"
	wait_s=${RDMABENCH_RING_WAIT:-300}
	n=0
	while kill -0 "$spid" 2>/dev/null && [ "$n" -lt "$wait_s" ] && [ -z "$SIGNALLED" ]; do
		sleep 1; n=$((n + 1))
	done
	if kill -0 "$spid" 2>/dev/null; then
		say "ring: the server was not done ${n}s after our client ended (pod $(( (idx - stride % size + size) % size )) never came?): stopping it"
		kill "$spid" 2>/dev/null
	fi
	wait "$spid"; src=$?
	say "ring: server exit status $src; its output:"
	sed 's/^/[server] /' "$WORK/server.log" >&2
	[ -n "$SIGNALLED" ] && exit 143
	exit 0
	;;
doctor)
	json=$WORK/doctor.json
	run_logged "$WORK/doctor.log" "" ib_doctor "$@" --json "$json" \
		--summary "$WORK/tool-summary"
	doctor_summary "$RC" "$WORK/doctor.log" > "$WORK/summary"
	cat "$WORK/summary" > "$TERMLOG" 2>/dev/null || say "cannot write the verdict to $TERMLOG"
	echo "rdmabench doctor: $(cat "$WORK/summary")"
	[ "$RC" = 6 ] && [ "${RDMABENCH_DOCTOR_STRICT:-0}" != 1 ] && exit 0
	exit "$RC"
	;;
flatten)
	json_flatten
	;;
*)
	say "usage: $me server|client|ring|doctor|flatten ... (read the header of deploy/entrypoint.sh)"
	exit 2
	;;
esac
