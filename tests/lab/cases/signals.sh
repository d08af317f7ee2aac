# tests/lab/cases/signals.sh - sourced by tests/lab/all.sh in the lab guest:
# a run stopped by SIGINT or SIGTERM exits 130 at every stage (issue 24),
# never the code of what the stop cut short (5 for a connection retried),
# and ends within 3 s of the signal (TCG, sanitizers). Each signal comes
# about 1.5 s into the stage:
#   signals.connect        clients retrying: a name that never resolves
#                          (--oob auto SIGINT, -R SIGTERM), an address that
#                          refuses (auto SIGTERM, -R SIGINT), at once
#   signals.server_wait    servers waiting for a client: the default
#                          (SIGINT), --oob tcp (SIGTERM), --oob cm (SIGINT)
#   signals.setup_server   a server in set-up, awaiting the data connections
#                          of wire_inject's HELLO, which then holds: SIGTERM
#   signals.setup_client   a client in set-up, its server frozen (SIGSTOP)
#                          as soon as it answered the HELLO: SIGINT; the
#                          client printed no header (it never measured)
#   signals.measure        -D 30: the client SIGINT mid-run (its server,
#                          told, exits 5), a server SIGTERM mid-run (its
#                          client exits 5)
# Ports 18680-18693.
# shellcheck shell=bash

SIG_INJ=$B/tests/tools/wire_inject

# sig_wait FILE REGEX: until FILE matches REGEX (at most 30 s)
sig_wait() {
	local out i
	for ((i = 0; i < 1500; i++)); do
		_lab_read out "$1"
		[[ $out =~ $2 ]] && return 0
		lab_sleep 0.02
	done
	echo "signals: $1 never matched /$2/"
	return 1
}

# sig_show NAME FILE: FILE's lines, each after "NAME| "
sig_show() {
	local line
	while IFS= read -r line; do
		echo "$1| $line"
	done < "$2"
}

# sig_send NAME SIG PID: SIG to PID, then how it ended and how soon
# ("signals: NAME: SIGINT, status 130 in 0.2 s"); 0 when 130 within 3 s
sig_send() {
	local rc start
	_lab_now
	start=$_LAB_NOW
	kill "-$2" "$3"
	wait "$3"
	rc=$?
	_lab_secs "$start"
	echo "signals: $1: SIG$2, status $rc in $_LAB_SECS s"
	[ "$rc" = 130 ] && [ $(((_LAB_NOW - start) / 1000000)) -lt 3 ]
}

# sig_after NAME SIG REGEX CMD...: CMD in the background; SIG 1.5 s after
# its output matches REGEX ("": after it started); its output shown after
sig_after() {
	local name=$1 sig=$2 re=$3 out=$LAB_LOGDIR/signals.$1.out pid rc=0
	shift 3
	: > "$out" # sig_wait reads it at once
	"$@" > "$out" 2>&1 &
	pid=$!
	if [ -n "$re" ]; then
		sig_wait "$out" "$re" || rc=1
	fi
	lab_sleep 1.5
	sig_send "$name" "$sig" "$pid" || rc=1
	sig_show "$name" "$out"
	return $rc
}

# sig_all FN...: each "FN ARGS" word list (split on ;) in parallel; 0 when
# all passed
sig_all() {
	local -a pids=()
	local cmd pid rc=0
	for cmd in "$@"; do
		eval "$cmd" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=1
	done
	return $rc
}

# clients retrying (each said so once: the stop came while it retried)
sig_connect() {
	local bw="$B/ib_write_bw --connect-timeout 30" never=never.invalid
	local wait_name="'waiting for $never to resolve'" wait_srv="'no rdmabench server at'"
	sig_all \
		"sig_after name_auto INT $wait_name $bw -p 18680 $never" \
		"sig_after name_cm TERM $wait_name $bw -p 18680 -R $never" \
		"sig_after refused_auto TERM $wait_srv $bw -p 18680 $LAB_RXE_IP" \
		"sig_after refused_cm INT $wait_srv $bw -p 18681 -R $LAB_RXE_IP"
}

sig_server_wait() {
	local re='waiting for a client'
	sig_all \
		"sig_after wait_auto INT '$re' $B/ib_write_bw -p 18682" \
		"sig_after wait_tcp TERM '$re' $B/ib_write_bw -p 18684 --oob tcp" \
		"sig_after wait_cm INT '$re' $B/ib_write_bw -p 18686 --oob cm"
}

# a server in set-up: wire_inject's HELLO was answered, its data
# connections never come (it holds the control connection)
sig_setup_server() {
	local srv=$LAB_LOGDIR/signals.setup_server.out
	local inj=$LAB_LOGDIR/signals.setup_server.inj pid ipid rc=0
	: > "$srv"
	"$B/ib_write_bw" -p 18687 --oob cm > "$srv" 2>&1 &
	pid=$!
	sig_wait "$srv" 'waiting for a client' || rc=1
	"$SIG_INJ" --timeout 15 -p 18687 --hold 10 hello "$LAB_RXE_IP" \
		> "$inj" 2>&1 &
	ipid=$!
	sig_wait "$srv" 'client .* runs' || rc=1
	lab_sleep 1.5
	sig_send setup_server TERM "$pid" || rc=1
	wait "$ipid"
	echo "signals: wire_inject: status $?"
	sig_show setup_server "$srv"
	sig_show wire_inject "$inj"
	return $rc
}

# a client in set-up: its server frozen as soon as it answered the HELLO
# (every rendezvous step after it waits for the server)
sig_setup_client() {
	local srv=$LAB_LOGDIR/signals.setup_client.srv
	local cli=$LAB_LOGDIR/signals.setup_client.out spid cpid rc=0 out
	: > "$srv"
	"$B/ib_write_bw" -p 18688 > "$srv" 2>&1 &
	spid=$!
	sig_wait "$srv" 'waiting for a client' || rc=1
	"$B/ib_write_bw" -p 18688 -n 20 -q 4 -s 4M "$LAB_RXE_IP" > "$cli" 2>&1 &
	cpid=$!
	sig_wait "$srv" 'client .* runs' || rc=1
	kill -STOP "$spid"
	lab_sleep 1.5
	sig_send setup_client INT "$cpid" || rc=1
	kill -KILL "$spid"
	wait "$spid" 2>/dev/null
	_lab_read out "$cli"
	if [[ $out == *'#bytes'* ]]; then
		echo "signals: setup_client: it printed its header: the stop came after its set-up"
		rc=1
	fi
	sig_show setup_client "$cli"
	return $rc
}

# mid-run (-D 30): the client stopped, then a server stopped
sig_measure() {
	local srv=$LAB_LOGDIR/signals.measure.srv
	local cli=$LAB_LOGDIR/signals.measure.cli spid cpid rc=0
	: > "$srv"
	"$B/ib_write_bw" -p 18690 > "$srv" 2>&1 &
	spid=$!
	sig_wait "$srv" 'waiting for a client' || rc=1
	sig_after measure_client INT '#bytes' \
		"$B/ib_write_bw" -p 18690 -D 30 "$LAB_RXE_IP" || rc=1
	wait "$spid"
	echo "signals: measure_client's server: status $?"
	sig_show measure_client.server "$srv"

	"$B/ib_write_bw" -p 18692 -D 30 --connect-timeout 30 "$LAB_RXE_IP" \
		> "$cli" 2>&1 &
	cpid=$!
	sig_after measure_server TERM '#bytes' "$B/ib_write_bw" -p 18692 ||
		rc=1
	wait "$cpid"
	echo "signals: measure_server's client: status $?"
	sig_show measure_server.client "$cli"
	return $rc
}

if ! lab_have rxe; then
	lab_skip signals "no rxe0 came up in this guest"
else
	lab_case signals.connect -t 40 \
		-e 'name_auto: SIGINT, status 130' \
		-e 'name_cm: SIGTERM, status 130' \
		-e 'refused_auto: SIGTERM, status 130' \
		-e 'refused_cm: SIGINT, status 130' \
		-e 'name_auto\| ib_write_bw: error: interrupted by SIGINT' \
		-e 'refused_auto\| ib_write_bw: error: interrupted by SIGTERM' \
		-n 'cannot resolve|could not reach' \
		sig_connect
	lab_case signals.server_wait -t 40 \
		-e 'wait_auto: SIGINT, status 130' \
		-e 'wait_tcp: SIGTERM, status 130' \
		-e 'wait_cm: SIGINT, status 130' \
		sig_server_wait
	lab_case signals.setup_server -t 40 \
		-e 'setup_server: SIGTERM, status 130' \
		-e 'wire_inject: status 0' \
		-e 'setup_server\| ib_write_bw: error: interrupted by SIGTERM' \
		sig_setup_server
	lab_case signals.setup_client -t 40 \
		-e 'setup_client: SIGINT, status 130' \
		-e 'setup_client\| ib_write_bw: error: interrupted by SIGINT' \
		sig_setup_client
	lab_case signals.measure -t 60 \
		-e 'measure_client: SIGINT, status 130' \
		-e "measure_client's server: status 5" \
		-e 'measure_server: SIGTERM, status 130' \
		-e "measure_server's client: status 5" \
		sig_measure
fi
