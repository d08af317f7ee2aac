#!/bin/sh
# deploy/entrypoint.sh - the container entrypoint of the rdmabench image
# (installed as /usr/local/bin/rdmabench-entrypoint). POSIX sh: the runtime
# image has sh, awk, sed and coreutils, no jq and no python: every JSON
# string goes through one awk writer (AWK_JSON), which escapes every
# control and non-ASCII byte, and documents shrink by whole items.
#
# Usage:
#   rdmabench-entrypoint server TOOL [SERVER_ARGS...]
#       exec TOOL --persistent SERVER_ARGS (e.g. --oob tcp --netdev net1)
#   rdmabench-entrypoint client TOOL SERVER [ARGS...]
#       run TOOL SERVER ARGS $RDMABENCH_ARGS --json - (the document from
#       its stdout, its text from stderr), then report
#       (below) and exit with TOOL's exit status
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
#   rdmabench-entrypoint summarize RESULT.json [RC]
#       print the verdict summary of a result file (tests, collectors)
#   rdmabench-entrypoint flatten < JSON
#       one "path<TAB>value" line per scalar (scripts/k8s/run-pair.sh)
#
# Report (client, ring): the verdict summary, one line of JSON of at most
# 4000 bytes (verdict, exit_code, tool, pod, node, server, device, each
# size's Gb/s or latency, the failing gates, the error), is written to
# RDMABENCH_TERMINATION_LOG (default /dev/termination-log: Kubernetes shows
# it as the container's termination message); the full result JSON is
# printed on stdout between the lines
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

# The one JSON string writer of this script, awk functions put in front of
# every awk program that writes JSON (run with LC_ALL=C: bytes, not
# characters). jstr(s): s as a JSON string token, every byte below 0x20 or
# above 0x7e escaped (\n, \t, \r, \uXXXX; bytes above 0x7e as
# U+0080..U+00FF, so the token is valid JSON whatever the bytes);
# clip(token): a token cut to about 300 bytes on an escape boundary.
# A document is made smaller by dropping whole items, never cut.
AWK_JSON='
function jinit(   i) { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
function jstr(s,   o, i, c) {
	o = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\") c = "\\\\"
		else if (c == "\"") c = "\\\""
		else if (c == "\n") c = "\\n"
		else if (c == "\t") c = "\\t"
		else if (c == "\r") c = "\\r"
		else if (c < " " || c > "~") c = sprintf("\\u%04x", ord[c])
		o = o c
	}
	return "\"" o "\""
}
function clip(v,   m) {
	if (length(v) <= 300) return v
	v = substr(v, 1, 296)
	sub(/\\u[0-9a-fA-F]*$/, "", v)
	m = match(v, /\\+$/)
	if (m && RLENGTH % 2) v = substr(v, 1, length(v) - 1)
	return v "...\""
}
'
# json_str TEXT: TEXT as a JSON string token, clipped (AWK_JSON)
json_str() {
	S=$1 LC_ALL=C awk "$AWK_JSON"' BEGIN { jinit(); print clip(jstr(ENVIRON["S"])) }'
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

# summarize_flat RC [EXTRA [LOG]] < FLAT > summary (one line, <= 4000 bytes)
# FLAT: json_flatten output of the result (empty: no result file); RC: the
# tool's exit status; EXTRA: ',"key":value...' to add; LOG: the tool's
# output, whose last line explains a run that wrote no result.
summarize_flat() {
	# values through the environment: awk -v would expand the backslashes
	S_RC=$1 S_EXTRA=${2:-} S_POD=$POD S_NODE=${NODE_NAME:-} S_LOG=${3:-} \
		LC_ALL=C awk -F '\t' "$AWK_JSON"'
	function num(v,   s) {        # 2 decimals, trailing zeros dropped
		if (v == "" || v == "null") return "null"
		s = sprintf("%.2f", v)
		sub(/0+$/, "", s); sub(/\.$/, "", s)
		return s
	}
	BEGIN {
		jinit()
		rc = ENVIRON["S_RC"]; extra = ENVIRON["S_EXTRA"]; pod = ENVIRON["S_POD"]
		node = ENVIRON["S_NODE"]; tail_file = ENVIRON["S_LOG"]
	}
	{ f[$1] = $2 }
	$1 ~ /^results\.[0-9]+\.size_bytes$/ { split($1, p, "."); if (p[2] + 1 > nrows) nrows = p[2] + 1 }
	$1 ~ /^gates\.[0-9]+\.name$/ { split($1, p, "."); if (p[2] + 1 > ngates) ngates = p[2] + 1 }
	END {
		verdict = f["verdict"]; gsub(/"/, "", verdict)
		code = (f["exit_code"] != "") ? f["exit_code"] + 0 : rc + 0
		err = (f["error"] != "") ? clip(f["error"]) : "null"
		if (verdict == "") {
			# no result document: the exit status says what it can
			verdict = (rc == 3) ? "fail" : (rc == 4) ? "corrupt" : "error"
			if (rc == 0) code = 1
			why = "no result JSON written (exit " rc ")"
			if (tail_file != "") {
				last = ""
				while ((getline line < tail_file) > 0)
					if (line != "") last = line
				if (last != "") why = why ": " last
			}
			err = clip(jstr(why))
		}
		lat = (f["test.measure"] == "\"lat\"")
		for (r = 0; r < nrows; r++) {
			b = "results." r "."
			if (lat)
				row[r] = "{\"size\":" f[b "size_bytes"] ",\"p50_us\":" num(f[b "client.latency.p50_us"]) \
					",\"p99_us\":" num(f[b "client.latency.p99_us"]) "}"
			else
				row[r] = "{\"size\":" f[b "size_bytes"] ",\"gbps\":" num(f[b "client.bw_gbps"]) \
					",\"server_gbps\":" num(f[b "server.bw_gbps"]) "}"
		}
		ng = 0
		for (g = 0; g < ngates; g++) {
			b = "gates." g "."
			if (f[b "verdict"] != "\"fail\"") continue
			r = f[b "reason"]
			if (r == "" || r == "null")
				r = jstr(substr(f[b "name"], 2, length(f[b "name"]) - 2) " at size " f[b "size_bytes"] \
					": " f[b "figure"] " vs expected " f[b "expected"])
			gate[ng++] = clip(r)
		}
		head = "{\"rdmabench_summary\":1,\"verdict\":" jstr(verdict) ",\"exit_code\":" code
		head = head ",\"tool\":" (f["tool"] != "" ? f["tool"] : "null")
		head = head ",\"pod\":" clip(jstr(pod)) ",\"node\":" clip(jstr(node)) extra
		head = head ",\"host\":" (f["host"] != "" ? f["host"] : "null")
		head = head ",\"device\":" (f["device.name"] != "" ? f["device.name"] : "null")
		head = head ",\"peer_addr\":" (f["device.peer_addr"] != "" ? f["device.peer_addr"] : "null")
		head = head ",\"memory\":" (f["memory.type"] != "" ? f["memory.type"] : "null")
		head = head ",\"measure\":" (f["test.measure"] != "" ? f["test.measure"] : "null")
		first = 0; trunc = 0
		for (;;) {
			s = head ",\"rows\":["
			for (r = first; r < nrows; r++) s = s (r > first ? "," : "") row[r]
			s = s "],\"failed_gates\":["
			for (g = 0; g < ng; g++) s = s (g ? "," : "") gate[g]
			s = s "],\"truncated\":" (trunc ? "true" : "false") ",\"error\":" err "}"
			if (length(s) <= 4000) break
			trunc = 1
			if (ng > 1) ng--
			else if (first < nrows) first++
			else if (err != "null") err = "null"
			else break
		}
		print s
	}'
}

# doctor_summary VERDICT RC < IB_DOCTOR_REPORT > summary: one line of JSON
# of at most 4000 bytes; its findings are the report's first 20 WARN/FAIL
# lines (160 bytes each), the last ones dropped whole while it is too long.
doctor_summary() {
	S_V=$1 S_RC=$2 S_POD=$POD S_NODE=${NODE_NAME:-} LC_ALL=C awk "$AWK_JSON"'
	BEGIN { jinit() }
	/^ *(WARN|FAIL) / && n < 20 {
		l = $0; gsub(/\t/, " ", l); sub(/^ */, "", l); gsub(/   */, "  ", l)
		f[n++] = jstr(substr(l, 1, 160))
	}
	END {
		head = "{\"rdmabench_doctor\":1,\"verdict\":" jstr(ENVIRON["S_V"]) \
			",\"exit_code\":" (ENVIRON["S_RC"] + 0) ",\"pod\":" clip(jstr(ENVIRON["S_POD"])) \
			",\"node\":" clip(jstr(ENVIRON["S_NODE"]))
		for (k = n; ; k--) {
			s = head ",\"findings\":["
			for (i = 0; i < k; i++) s = s (i ? "," : "") f[i]
			s = s "],\"truncated\":" (k < n ? "true" : "false") "}"
			if (length(s) <= 4000 || k == 0) break
		}
		print s
	}'
}

# report RESULT RC EXTRA OUTPUT_LOG: write the summary and show the JSON
report() {
	if [ -s "$1" ]; then
		json_flatten < "$1" > "$WORK/flat"
	else
		: > "$WORK/flat"
	fi
	summarize_flat "$2" "$3" "$4" < "$WORK/flat" > "$WORK/summary"
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
		rm -f "$json"
		# shellcheck disable=SC2086 # RDMABENCH_ARGS is a word list
		run_logged "$WORK/client.log" "$json" "$tool" "$server" "$@" ${RDMABENCH_ARGS:-} --json -
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
	report "$WORK/result.json" "$RC" ",\"server\":$(json_str "$2")" "$WORK/client.log"
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
	report "$WORK/result.json" "$RC" ",\"server\":$(json_str "$peer"),\"group\":$(json_str "${RDMABENCH_RING_GROUP:-}"),\"index\":$idx,\"peer_index\":$peer_idx,\"ring_size\":$size" "$WORK/client.log"
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
	run_logged "$WORK/doctor.log" "" ib_doctor "$@" --json "$json"
	case $RC in
	0) verdict=pass ;; 6) verdict=warn ;; 7) verdict=fail ;; *) verdict=error ;;
	esac
	doctor_summary "$verdict" "$RC" < "$WORK/doctor.log" > "$WORK/summary"
	cat "$WORK/summary" > "$TERMLOG" 2>/dev/null || say "cannot write the verdict to $TERMLOG"
	echo "rdmabench doctor: $(cat "$WORK/summary")"
	[ "$RC" = 6 ] && [ "${RDMABENCH_DOCTOR_STRICT:-0}" != 1 ] && exit 0
	exit "$RC"
	;;
flatten)
	json_flatten
	;;
summarize)
	[ $# -ge 1 ] || { say "usage: $me summarize RESULT.json [RC]"; exit 2; }
	json_flatten < "$1" > "$WORK/flat" || exit 1
	summarize_flat "${2:-0}" < "$WORK/flat"
	;;
*)
	say "usage: $me server|client|ring|doctor|summarize|flatten ... (read the header of deploy/entrypoint.sh)"
	exit 2
	;;
esac
