# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/mixed.sh - sourced by tests/lab/all.sh in the lab guest:
# mixed pairs (issue 13, item 8). perftest on one end, rdmabench on the
# other: ours must end within 2 s, exit 2, with the one sentence that
# names the peer as perftest, never a protocol error or a wait:
#   perftest server (TCP, its default; and -R, rdma_cm) + our client
#   our server (rdma_cm; and --oob tcp) + perftest client (-R; default)
#   and, on rxe, ours with the default --oob auto (TCP) on either end
# siw (iWARP) takes the rdma_cm forms only, as perftest needs -R there.
# shellcheck shell=bash

MIXED_RE='the peer at [^ ]+ is perftest, not rdmabench: run the same tool on both ends'
MIXED_FAST='mixed: ours ended within 2 s'

# _mixed_base CMD...: MIXED_BASE_US = how long CMD takes (a process's
# start-up, which a loaded emulator stretches to seconds, is not ours to
# count: the 2 s are from the meeting of the two ends)
_mixed_base() {
	local t0
	_lab_now
	t0=$_LAB_NOW
	"$@" > /dev/null 2>&1
	_lab_now
	MIXED_BASE_US=$((_LAB_NOW - t0))
}

# _mixed_ours CMD...: run our CMD under strace when the guest has it, its
# trace in MIXED_ST (the caller names it, as CMD may run in a subshell): when perftest's bytes reached ours is then known, and
# perftest's own pace (seconds between its connect and its first bytes
# under a loaded emulator) is not counted as ours (LeakSanitizer cannot run
# under ptrace: leaks are other cases' to find)
_mixed_ours() {
	if command -v strace > /dev/null; then
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -qq -ttt -o "$MIXED_ST" \
			-e trace=poll,ppoll,recvfrom,exit_group "$@"
	else
		: > "$MIXED_ST"
		"$@"
	fi
}

# _mixed_traced: MIXED_US = microseconds from the last input ours saw (a
# poll that found something, or bytes read) to its exit, from MIXED_ST;
# 1 when there is no such trace
_mixed_traced() {
	MIXED_US=$(awk '
		/ exit_group\(/ { split($2, t, "."); e = t[1] * 1000000 + substr(t[2] "000000", 1, 6); exit }
		/ (poll|ppoll|recvfrom)\(|resumed>/ && / = [1-9]/ {
			split($2, t, "."); m = t[1] * 1000000 + substr(t[2] "000000", 1, 6) }
		END { if (e && m) print e - m }' "$MIXED_ST" 2> /dev/null)
	rm -f "$MIXED_ST"
	[ -n "$MIXED_US" ]
}

# _mixed_end T0 RC WHO PID LOG: say how long ours (WHO) took since T0
# (microseconds), less the start-up MIXED_BASE_US, and from perftest's
# bytes to its exit when traced; then stop perftest (PID) and show its
# output (LOG)
_mixed_end() {
	local us
	_lab_now
	us=$((_LAB_NOW - $1 - MIXED_BASE_US))
	echo "mixed: $3 exit $2 after $(((_LAB_NOW - $1) / 1000)) ms, start-up" \
		"$((MIXED_BASE_US / 1000)) ms: $((us / 1000)) ms after meeting"
	if _mixed_traced; then
		us=$MIXED_US
		echo "mixed: traced: $((us / 1000)) ms from perftest's bytes to our exit"
	fi
	((us < 2000000)) && echo "$MIXED_FAST"
	kill "$4" 2>/dev/null
	wait "$4" 2>/dev/null
	echo "--- perftest:"
	cat "$5"
}

# mixed_our_client IP PORT PERFTEST_SERVER_ARGS OUR_CLIENT_ARGS...
# perftest's ib_write_bw serves on PORT; our client meets it. Start-up:
# our client refused at IP for its shortest --connect-timeout (1 s).
mixed_our_client() {
	local port=$2 pt=$3 pid rc t0 log=$LAB_LOGDIR/mixed.perftest.$2.log
	_mixed_base "$B/ib_write_bw" -p $(($2 + 50)) --connect-timeout 1 "$1"
	MIXED_BASE_US=$((MIXED_BASE_US - 1000000))
	shift 3
	# shellcheck disable=SC2086 # PERFTEST_SERVER_ARGS are words
	timeout 40 ib_write_bw $pt -p "$port" > "$log" 2>&1 &
	pid=$!
	lab_sleep 3 # perftest refuses nothing while it starts: let it listen
	_lab_now
	t0=$_LAB_NOW
	MIXED_ST=$LAB_LOGDIR/mixed.strace.$port
	_mixed_ours timeout 20 "$B/ib_write_bw" -p "$port" "$@"
	rc=$?
	_mixed_end "$t0" "$rc" "our client" "$pid" "$log"
	return "$rc"
}

# mixed_our_server PORT OUR_SERVER_ARGS PERFTEST_CLIENT_ARGS...
# our ib_write_bw serves on PORT; perftest's client meets it.
mixed_our_server() {
	local port=$1 ours=$2 pid cpid rc t0 i
	local log=$LAB_LOGDIR/mixed.ours.$1.log clog=$LAB_LOGDIR/mixed.ptclient.$1.log
	shift 2
	# start-up: perftest's client refused at once on a port nobody serves
	_mixed_base ib_write_bw -p $((port + 50)) "$@"
	# shellcheck disable=SC2086 # OUR_SERVER_ARGS are words
	MIXED_ST=$LAB_LOGDIR/mixed.strace.$port
	_mixed_ours timeout 40 "$B/ib_write_bw" -p "$port" $ours > "$log" 2>&1 &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		grep -q 'waiting for a client' "$log" && break
		lab_sleep 0.1
	done
	_lab_now
	t0=$_LAB_NOW
	timeout 30 ib_write_bw -p "$port" "$@" > "$clog" 2>&1 &
	cpid=$!
	wait "$pid"
	rc=$?
	cat "$log"
	_mixed_end "$t0" "$rc" "our server" "$cpid" "$clog"
	return "$rc"
}

mixed_cases() { # DEV IP PORT_BASE TCP(0/1)
	local dev=$1 ip=$2 p=$3 tcp=$4 m=(-r 2 -e "$MIXED_RE" -e "$MIXED_FAST" \
		-n 'remote operation error|server is gone')
	lab_case "mixed.$dev.perftest_server_cm" -t 60 "${m[@]}" \
		mixed_our_client "$ip" "$p" "-d $dev -R" -R "$ip"
	lab_case "mixed.$dev.perftest_client_cm" -t 60 "${m[@]}" \
		mixed_our_server $((p + 1)) "-R" -d "$dev" -R "$ip"
	[ "$tcp" = 1 ] || return 0
	lab_case "mixed.$dev.perftest_server_tcp" -t 60 "${m[@]}" \
		mixed_our_client "$ip" $((p + 2)) "-d $dev" --oob tcp -d "$dev" "$ip"
	lab_case "mixed.$dev.perftest_client_tcp" -t 60 "${m[@]}" \
		mixed_our_server $((p + 3)) "--oob tcp -d $dev" -d "$dev" "$ip"
	# the default (--oob auto) on our side: TCP, as perftest's default
	lab_case "mixed.$dev.perftest_server_auto" -t 60 "${m[@]}" \
		mixed_our_client "$ip" $((p + 4)) "-d $dev" -d "$dev" "$ip"
	lab_case "mixed.$dev.perftest_client_auto" -t 60 "${m[@]}" \
		mixed_our_server $((p + 6)) "" -d "$dev" "$ip"
}

if ! command -v ib_write_bw > /dev/null; then
	lab_skip mixed "no perftest (ib_write_bw) in the guest"
else
	if lab_have rxe; then
		mixed_cases "$LAB_RXE_DEV" "$LAB_RXE_IP" 18700 1
	else
		lab_skip mixed.rxe "no rxe0 came up in this guest"
	fi
	if lab_have siw; then
		mixed_cases "$LAB_SIW_DEV" "$LAB_SIW_IP" 18710 0
	else
		lab_skip mixed.siw "no siw0 came up in this guest"
	fi
fi
