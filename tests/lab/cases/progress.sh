# tests/lab/cases/progress.sh - sourced by tests/lab/all.sh in the lab guest:
# progress and pipes on rxe (issue 15).
#   - ib_write_bw -D 10 in a tmux pane (a terminal): the live status line
#     is captured several times and changes at least 5 times, and is
#     erased at the end (the row stays); with --json - it never shows;
#   - the same run piped: no live line, no carriage return or erase code;
#     its row's iteration count is the measured one (the JSON's), not -n;
#   - --interval 1 -D 5 prints 5 interval rows (write_bw and write_lat);
#   - --json - | python3 -m json.tool parses for a run (the text on stderr,
#     peak_gbps filled), a refused gate or option (exit 2) and no server
#     (exit 5);
#     --prom - of the error run passes promtool without an empty label;
#   - -H: the histogram in the JSON and as Prometheus buckets.
# shellcheck shell=bash

PROG=${LAB_OUT:-/tmp}/progress-lab
rm -rf "$PROG"
mkdir -p "$PROG"
PROG_PY=/usr/bin/python3
[ -x "$PROG_PY" ] || PROG_PY=python3

# progress_tty IP PORT SECS MIN [CLIENT_ARG...]: server in the background,
# client -D SECS in tmux, the pane captured every 0.25 s until the client
# exits; the live line must change at least MIN times (0: never appear).
progress_tty() {
	local ip=$1 port=$2 secs=$3 min=$4 sock=rdmabench-progress i changes=0
	local cap live prev= seen_exit=0 spid
	local re="ib_write_bw: 65536 B +[0-9.]+ s of $secs s"
	shift 4
	"$B/ib_write_bw" -p "$port" > "$PROG/tty.server" 2>&1 &
	spid=$!
	tmux -L "$sock" new-session -d -x 160 -y 30 \
		"$B/ib_write_bw $ip -p $port -D $secs --report_gbits $*; echo CLIENT_EXIT=\$?; sleep 60"
	for ((i = 0; i < 180 && !seen_exit; i++)); do
		lab_sleep 0.25
		cap=$(tmux -L "$sock" capture-pane -p)
		[[ $cap == *CLIENT_EXIT=* ]] && seen_exit=1
		live=
		[[ $cap =~ $re[^$'\n']* ]] && live=${BASH_REMATCH[0]}
		if [ -n "$live" ] && [ "$live" != "$prev" ]; then
			changes=$((changes + 1))
			echo "live: $live"
			prev=$live
		fi
	done
	tmux -L "$sock" kill-server 2>/dev/null
	wait "$spid"
	echo "final pane:"
	echo "$cap"
	echo "live line changed $changes times"
	[[ $cap == *CLIENT_EXIT=0* ]] || { echo "client did not exit 0"; return 1; }
	[[ $cap =~ $re ]] && { echo "live line left on the screen"; return 1; }
	[[ $cap =~ 65536\ +[0-9]+\ +[0-9.]+\ +[0-9.]+ ]] ||
		{ echo "no row"; return 1; }
	if [ "$min" -eq 0 ]; then
		[ "$changes" -eq 0 ]
	else
		[ "$changes" -ge "$min" ]
	fi
}

# progress_rows FILE N: exactly N interval rows in FILE
progress_rows() {
	local n=0 line
	while IFS= read -r line; do
		[[ $line =~ ^\[\ *[0-9.]+-\ *[0-9.]+\ s\] ]] && n=$((n + 1))
	done < "$1"
	echo "$n interval rows, want $2"
	[ "$n" -eq "$2" ]
}

# progress_json_pipe PRETTY CLIENT_ARGS...: the client's --json - through
# json.tool; the client's exit status is returned, json.tool must pass
progress_json_pipe() {
	local out=$1 rc
	shift
	"$B/ib_write_bw" "$@" --json - | "$PROG_PY" -m json.tool > "$out"
	rc=("${PIPESTATUS[@]}")
	echo "client exit ${rc[0]}, json.tool exit ${rc[1]}"
	cat "$out"
	[ "${rc[1]}" -eq 0 ] || return 99
	return "${rc[0]}"
}

# progress_prom_pipe CLIENT_ARGS...: --prom - of a run through promtool
progress_prom_pipe() {
	local rc
	"$B/ib_write_bw" "$@" --prom - > "$PROG/pipe.prom"
	rc=$?
	cat "$PROG/pipe.prom"
	promtool check metrics < "$PROG/pipe.prom" || return 99
	grep -q '=""' "$PROG/pipe.prom" && { echo "an empty label"; return 98; }
	return $rc
}

# progress_check_json PY_EXPR FILE: a python expression over doc holds
progress_check_json() {
	"$PROG_PY" -c 'import json, sys
doc = json.load(open(sys.argv[2]))
ok = eval(sys.argv[1])
print("holds" if ok else "does not hold", sys.argv[1])
sys.exit(0 if ok else 1)' "$1" "$2"
}

if lab_have rxe; then
	ip=$LAB_RXE_IP
	if ! command -v tmux > /dev/null; then
		lab_skip progress.tty "tmux not installed"
	else
		lab_case progress.tty -t 120 -e 'changed ([5-9]|[1-9][0-9]) times' \
			progress_tty "$ip" 18660 10 5
		# a document on stdout: the terminal (stderr) gets no live line
		lab_case progress.tty_json -t 90 -e 'changed 0 times' \
			progress_tty "$ip" 18666 3 0 --json - \> "$PROG/tty.json"
	fi

	# the same run in a pipe: no live line, and the row's count measured
	lab_pair progress.pipe -t 90 \
		-n 's left' -n $'\r' -n $'\e\\[K' \
		"$B/ib_write_bw" -p 18661 -- \
		"$B/ib_write_bw" "$ip" -p 18661 -D 10 --report_gbits \
		--json "$PROG/pipe.json"
	if [ -e "$PROG/pipe.json" ]; then
		pipe_iters=
		[[ $LAB_CLIENT_OUT =~ $'\n'\ *65536\ +([0-9]+)\ + ]] &&
			pipe_iters=${BASH_REMATCH[1]}
		lab_case progress.pipe.iterations progress_check_json \
			"doc['results'][0]['client']['msgs'] == ${pipe_iters:-0} != 5000" \
			"$PROG/pipe.json"
	fi

	lab_pair progress.interval_bw -t 90 \
		"$B/ib_write_bw" -p 18662 -- \
		"$B/ib_write_bw" "$ip" -p 18662 --interval 1 -D 5
	printf '%s\n' "$LAB_CLIENT_OUT" > "$PROG/interval_bw.out"
	lab_case progress.interval_bw.rows progress_rows \
		"$PROG/interval_bw.out" 5

	lab_pair progress.interval_lat -t 90 -e 'p50 +[0-9.]+ us' \
		"$B/ib_write_lat" -p 18663 -- \
		"$B/ib_write_lat" "$ip" -p 18663 --interval 1 -D 5
	printf '%s\n' "$LAB_CLIENT_OUT" > "$PROG/interval_lat.out"
	lab_case progress.interval_lat.rows progress_rows \
		"$PROG/interval_lat.out" 5

	# --json - of a run: JSON on stdout, the text (rows, verdict) on
	# stderr; the peak is filled in
	lab_pair progress.json_pipe_run -t 90 \
		-e 'client exit 0, json.tool exit 0' -e 'BW average' \
		-e 'verdict: pass' -e '"peak_gbps": [0-9]' \
		"$B/ib_write_bw" -p 18664 -- \
		progress_json_pipe "$PROG/run.pretty" "$ip" -p 18664 -n 200
	# no server at that port: exit 5, a document all the same
	lab_case progress.json_pipe_no_server -t 60 -r 5 \
		-e 'json.tool exit 0' -e '"verdict": "error"' \
		progress_json_pipe "$PROG/noserver.pretty" "$ip" -p 18669 -n 10 \
		--connect-timeout 3
	lab_case progress.prom_pipe_no_server -t 60 -r 5 \
		-e 'rdmabench_verdict\{test="ib_write_bw",role="client",peer="[0-9.]+",verdict="error"\} 0' \
		progress_prom_pipe "$ip" -p 18669 -n 10 --connect-timeout 3

	# -H: the histogram in both documents; its count is the samples
	lab_pair progress.hist -t 90 \
		"$B/ib_write_lat" -p 18665 -- \
		"$B/ib_write_lat" "$ip" -p 18665 -n 200 -H \
		--json "$PROG/hist.json" --prom "$PROG/hist.prom"
	lab_case progress.hist.json progress_check_json \
		"(lambda c: c['histogram']['count'] == c['latency']['samples'] > 0 and c['histogram']['cumulative_counts'][-1] <= c['histogram']['count'])(doc['results'][0]['client'])" \
		"$PROG/hist.json"
	lab_case progress.hist.prom -t 60 \
		-e 'rdmabench_latency_distribution_seconds_bucket\{[^}]*le="\+Inf"\} [1-9]' \
		bash -c "cat '$PROG/hist.prom' && promtool check metrics < '$PROG/hist.prom'"
else
	lab_skip progress.rxe "no rxe0 came up in this guest"
fi

# a refused gate: exit 2 before connecting, and still a document on stdout
lab_case progress.json_pipe_usage -r 2 \
	-e 'json.tool exit 0' -e '"verdict": "error"' \
	-e 'need a latency test' \
	progress_json_pipe "$PROG/usage.pretty" --expect-p99-us 5 198.18.0.1
# a refused option (opts_check): the same
lab_case progress.json_pipe_refused -r 2 \
	-e 'json.tool exit 0' -e '"verdict": "error"' -e '"exit_code": 2' \
	-e "leaves nothing to measure" \
	progress_json_pipe "$PROG/refused.pretty" -D 1 -f 1 198.18.0.1
