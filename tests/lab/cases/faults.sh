# tests/lab/cases/faults.sh - sourced by tests/lab/all.sh in the lab guest:
# the fault tests of issue 5 that write.sh (client first, nobody serving,
# server/client SIGKILLed mid-bandwidth) and server.sh (persistent server,
# SIGTERM mid-bandwidth) do not cover. Each ends within its deadline with
# the documented exit code and message, and a persistent server that met
# hostile input still serves a good client afterwards.
#   hostile peers  tests/tools/wire_inject (make tools) speaks the rendezvous
#                  itself: CONNECTs of protocol versions 0 and 99, random
#                  private data, HELLOs of another version or with hostile
#                  values, a SYNC beyond the buffer, a HELLO that asks for
#                  a 49-day timeout and then goes silent, random bytes over
#                  TCP (to the rdma_cm port and to a --oob tcp server)
#   peer loss      client SIGKILLed mid-latency, SIGTERM mid-latency, the
#                  RDMA interface taken down mid-run (on its own rxe device
#                  and dummy interface, created and deleted here)
#   local limits   RLIMIT_MEMLOCK 64 KiB without CAP_IPC_LOCK on either side,
#                  a -d naming no device
# Ports 18630-18649.
# shellcheck shell=bash

FAULTS_INJ=$B/tests/tools/wire_inject

# faults_step NAME CMD...: run CMD between markers that faults_expect reads
faults_step() {
	local name=$1
	shift
	echo "### $name"
	"$@" 2>&1
	echo "### $name: exit $?"
}

# faults_expect CASE STEP RC REGEX: the step (in $LAB_CLIENT_OUT) exited RC
# and its output matches REGEX
faults_expect() {
	local out=$LAB_CLIENT_OUT block rc
	if [[ $out != *"### $2: exit "* ]]; then
		lab_fail "$1" "step $2 did not run"
		return 1
	fi
	block=${out#*"### $2"$'\n'}
	block=${block%%"### $2: exit "*}
	rc=${out#*"### $2: exit "}
	rc=${rc%%$'\n'*}
	if [ "$rc" != "$3" ]; then
		lab_fail "$1" "$2 exited $rc, want $3"
		_lab_show "$2" "$block"
		return 1
	fi
	lab_assert "$1" "$4" "$block"
}

# faults_server PORT ARGS...: a persistent server whose pid faults_stop finds
faults_server() {
	local port=$1
	shift
	echo "$BASHPID" > "$LAB_LOGDIR/faults.$port.pid"
	exec "$B/ib_write_bw" -p "$port" --persistent "$@"
}

# faults_stop PORT: SIGTERM the persistent server (it exits 0)
faults_stop() {
	local pid
	read -r pid < "$LAB_LOGDIR/faults.$1.pid" && kill -TERM "$pid"
}

faults_hostile_cm() { # IP PORT
	local ip=$1 p=$2 i=(--timeout 15 -p "$2") s
	faults_step connect.version0 "$FAULTS_INJ" "${i[@]}" --version 0 connect "$ip"
	faults_step connect.version99 "$FAULTS_INJ" "${i[@]}" --version 99 connect "$ip"
	for s in 3 20 56; do
		faults_step "connect.random$s" "$FAULTS_INJ" "${i[@]}" \
			--random "$s" --seed "$s" connect "$ip"
	done
	faults_step hello.version0 "$FAULTS_INJ" "${i[@]}" --version 0 hello "$ip"
	faults_step hello.version99 "$FAULTS_INJ" "${i[@]}" --version 99 hello "$ip"
	faults_step hello.size2p40 "$FAULTS_INJ" "${i[@]}" \
		--set size=0x10000000000,max_size=0x10000000000 hello "$ip"
	faults_step hello.qps100000 "$FAULTS_INJ" "${i[@]}" --set qps=100000 hello "$ip"
	faults_step hello.iters0 "$FAULTS_INJ" "${i[@]}" --set iters=0 hello "$ip"
	faults_step hello.tx_depth "$FAULTS_INJ" "${i[@]}" --set tx_depth=0xffffffff hello "$ip"
	faults_step hello.verb200 "$FAULTS_INJ" "${i[@]}" --set verb=200 hello "$ip"
	faults_step tcp.rxe "$FAULTS_INJ" "${i[@]}" tcp "$ip"
	lab_have siw && faults_step tcp.siw "$FAULTS_INJ" "${i[@]}" tcp "$LAB_SIW_IP"
	faults_step good "$B/ib_write_bw" -p "$p" -R "$ip" -n 100
	local rc=$?
	faults_stop "$p"
	return $rc
}

faults_hostile_tcp() { # PORT
	local p=$1 i=(--timeout 15 -p "$1") rc
	faults_step tcp.random4096 "$FAULTS_INJ" "${i[@]}" --seed 7 tcp 127.0.0.1
	faults_step tcp.random8 "$FAULTS_INJ" "${i[@]}" --random 8 tcp 127.0.0.1
	faults_step tcp.hello.version99 "$FAULTS_INJ" "${i[@]}" --oob tcp \
		--version 99 hello 127.0.0.1
	faults_step tcp.hello.size2p40 "$FAULTS_INJ" "${i[@]}" --oob tcp \
		--set size=0x10000000000,max_size=0x10000000000 hello 127.0.0.1
	faults_step good "$B/ib_write_bw" -p "$p" --oob tcp localhost -n 50
	rc=$?
	faults_stop "$p"
	return $rc
}

faults_hostile_sync() { # IP PORT
	local ip=$1 p=$2 i=(--timeout 15 -p "$2") rc
	faults_step sync.lat "$FAULTS_INJ" "${i[@]}" \
		--set measure=1,size=2,max_size=2,iters=1000 sync "$ip"
	faults_step sync.bw "$FAULTS_INJ" "${i[@]}" sync "$ip"
	faults_step good "$B/ib_write_lat" -p "$p" -R "$ip" -n 100
	rc=$?
	faults_stop "$p"
	return $rc
}

# faults_memlock KIB CMD...: CMD without CAP_IPC_LOCK (as in a non-root
# pod), RLIMIT_MEMLOCK KIB
faults_memlock() {
	local kib=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	capsh --drop=cap_ipc_lock -- -c 'ulimit -l "$0" && exec "$@"' "$kib" "$@"
}

faults_memlock_client() { # IP PORT
	local ip=$1 p=$2 rc
	faults_step memlock faults_memlock 64 \
		"$B/ib_write_bw" -p "$p" "$ip" -n 100 --timeout 10
	faults_step good "$B/ib_write_bw" -p "$p" "$ip" -n 100
	rc=$?
	faults_stop "$p"
	return $rc
}

faults_hostile_timeout() { # IP PORT
	local ip=$1 p=$2 rc
	faults_step hello.timeout_49days "$FAULTS_INJ" --timeout 15 -p "$p" \
		--set io_timeout_ms=4294967295 --hold 30 hello "$ip"
	faults_step good "$B/ib_write_bw" -p "$p" -R "$ip" -n 100
	rc=$?
	faults_stop "$p"
	return $rc
}

# faults_signal_mid SIG SECS CMD...: CMD in the background, SIG after SECS;
# it must end within 2 s of the signal (else status 99)
faults_signal_mid() {
	local sig=$1 secs=$2 pid rc start
	shift 2
	"$@" &
	pid=$!
	lab_sleep "$secs"
	_lab_now
	start=$_LAB_NOW
	kill "-$sig" "$pid"
	wait "$pid"
	rc=$?
	_lab_secs "$start"
	echo "faults: ended ${_LAB_SECS} s after SIG$sig, status $rc"
	[ $(((_LAB_NOW - start) / 1000000)) -le 2 ] || rc=99
	return $rc
}

# faults_link_down IF SECS LIMIT CMD...: CMD in the background; IF down after
# SECS; CMD must end within LIMIT s of that (else status 99)
faults_link_down() {
	local dev=$1 secs=$2 limit=$3 pid rc start
	shift 3
	"$@" &
	pid=$!
	lab_sleep "$secs"
	_lab_now
	start=$_LAB_NOW
	ip link set "$dev" down
	wait "$pid"
	rc=$?
	_lab_secs "$start"
	echo "faults: ended ${_LAB_SECS} s after $dev went down, status $rc"
	[ $(((_LAB_NOW - start) / 1000000)) -le "$limit" ] || rc=99
	return $rc
}

# a private rxe device on its own dummy interface, for taking a link down
# without touching rxe0 (the cases after this file need it)
faults_link_setup() {
	local i out
	ip link add fault_if type dummy &&
		ip addr add 198.18.5.1/24 dev fault_if &&
		ip link set fault_if up &&
		rdma link add rxe_f0 type rxe netdev fault_if || return 1
	for ((i = 0; i < 50; i++)); do
		out=$(rdma link show rxe_f0/1 2>/dev/null)
		[[ $out == *"state ACTIVE"* ]] && return 0
		lab_sleep 0.2
	done
	return 1
}

faults_link_teardown() {
	rdma link delete rxe_f0 2>/dev/null
	ip link del fault_if 2>/dev/null
	return 0
}

if ! lab_have rxe; then
	lab_skip faults "no rxe0 came up in this guest"
else
	ip=$LAB_RXE_IP
	W='waiting for a client'

	if [ -x "$FAULTS_INJ" ]; then
		# --- hostile rdma_cm peers against one persistent rdma_cm (-R)
		# server (the default one listens on rdma_cm at -p + 1 here, as
		# the guest has an iWARP device)
		lab_pair faults.hostile_cm -t 240 -g 15 --ready "$W" \
			-E 'a client speaking rdmabench protocol version 0 connected; we speak 8' \
			-E 'a client speaking rdmabench protocol version 99 connected; we speak 8' \
			-E 'refused a connection that is not from an rdmabench client' \
			-E 'the client speaks rdmabench protocol version 99, we speak 8' \
			faults_server 18630 -R --timeout 10 -- faults_hostile_cm "$ip" 18630
		R='rejected the connection \(its reply speaks protocol version 8\)'
		faults_expect faults.connect.version0 connect.version0 0 "$R"
		faults_expect faults.connect.version99 connect.version99 0 "$R"
		for s in 3 20 56; do
			faults_expect "faults.connect.random$s" "connect.random$s" 0 "$R"
		done
		faults_expect faults.hello.version0 hello.version0 0 'answered ERROR'
		faults_expect faults.hello.version99 hello.version99 0 'answered ERROR'
		# the client is told why, not only "see its log"
		faults_expect faults.hello.version99.client_told hello.version99 0 \
			'answered ERROR.*version'
		faults_expect faults.hello.size2p40 hello.size2p40 0 \
			'refused the HELLO \(-22\): messages of 1099511627776 bytes: this server allows'
		faults_expect faults.hello.qps100000 hello.qps100000 0 \
			'refused the HELLO \(-22\): 100000 QPs: this server allows'
		faults_expect faults.hello.iters0 hello.iters0 0 \
			'refused the HELLO \(-22\): invalid test parameters'
		faults_expect faults.hello.tx_depth hello.tx_depth 0 \
			'refused the HELLO \(-22\): invalid test parameters'
		faults_expect faults.hello.verb200 hello.verb200 0 \
			'refused the HELLO \(-22\): unknown test'
		# no TCP listener behind rxe's rdma_cm port: refused, server unaffected
		faults_expect faults.tcp.rxe tcp.rxe 0 'Connection refused'
		# siw's iWARP listener takes the TCP connection and drops the garbage
		lab_have siw && faults_expect faults.tcp.siw tcp.siw 0 \
			'the server closed the connection'
		faults_expect faults.hostile_cm.good good 0 'BW average'

		# --- hostile bytes against a persistent --oob tcp server
		lab_pair faults.hostile_tcp -t 180 -g 15 --ready "$W" \
			faults_server 18631 --oob tcp --timeout 5 -- \
			faults_hostile_tcp 18631
		faults_expect faults.tcp.random4096 tcp.random4096 0 \
			'the server closed the connection'
		# a header cut short: the server gives up within its --timeout (5 s)
		faults_expect faults.tcp.random8 tcp.random8 0 \
			'the server closed the connection'
		faults_expect faults.tcp.hello.version99 tcp.hello.version99 0 \
			'answered ERROR'
		faults_expect faults.tcp.hello.size2p40 tcp.hello.size2p40 0 \
			'refused the HELLO \(-22\): messages of 1099511627776 bytes'
		faults_expect faults.hostile_tcp.good good 0 'BW average'

		# --- a SYNC for more bytes than the HELLO's buffer: refused, not a
		# write past it (the server never trusts a length from the wire)
		lab_pair faults.hostile_sync -t 120 -g 15 --ready "$W" \
			faults_server 18632 -R --timeout 10 -- faults_hostile_sync "$ip" 18632
		faults_expect faults.sync.lat sync.lat 0 'answered ERROR'
		faults_expect faults.sync.bw sync.bw 0 'answered ERROR'
		faults_expect faults.hostile_sync.good good 0 't_typical'

		# --- a HELLO asking for a 49-day --timeout, then silence: the server
		# lets go within its own --timeout (5 s), then serves the next client
		lab_pair faults.hostile_timeout -t 120 -g 15 --ready "$W" \
			faults_server 18633 -R --timeout 5 -- faults_hostile_timeout "$ip" 18633
		faults_expect faults.hello.timeout_49days hello.timeout_49days 0 \
			'the server ended the connection after [0-9]\.'
		faults_expect faults.hostile_timeout.good good 0 'BW average'
	else
		lab_skip faults.inject "no $FAULTS_INJ: build it with 'make tools'"
	fi

	# --- the client dies mid-latency: the server ends within its --timeout
	lab_pair faults.client_killed_lat -t 90 -r 137 -R 5 -g 12 \
		-E 'error: the client disconnected during the run' \
		"$B/ib_write_lat" -p 18634 --timeout 10 -- \
		timeout -s KILL 6 "$B/ib_write_lat" -p 18634 "$ip" -n 100000000

	# --- SIGTERM mid-latency: the client stops within 2 s, exit 130; the
	# server takes the stopped client as a lost one, exit 5
	lab_pair faults.sigterm_client_lat -t 90 -r 130 -R 5 -g 15 \
		-e 'ended [0-9.]+ s after SIGTERM, status 130' \
		"$B/ib_write_lat" -p 18635 --timeout 10 -- \
		faults_signal_mid TERM 6 "$B/ib_write_lat" -p 18635 "$ip" -n 100000000

	# --- RLIMIT_MEMLOCK 64 KiB and no CAP_IPC_LOCK (a non-root pod): the
	# numbers and the fix, before any bare ENOMEM; exit 1 (runtime)
	MEMLOCK='RLIMIT_MEMLOCK is 64 KiB.*ulimit -l.*IPC_LOCK'
	if command -v capsh >/dev/null; then
		lab_pair faults.memlock.client -t 120 -g 15 --ready "$W" \
			faults_server 18636 --timeout 10 -- \
			faults_memlock_client "$ip" 18636
		faults_expect faults.memlock.client.message memlock 1 "$MEMLOCK"
		faults_expect faults.memlock.client.good good 0 'BW average'
		# the server's reason reaches the client (--max-mem given: the
		# default, derived from the memlock limit, would refuse the
		# HELLO first; memcap.sh tests that)
		lab_pair faults.memlock.server -t 90 -g 15 -E "$MEMLOCK" \
			-e 'the server reports: .*MEMLOCK' -r 5 -R 1 \
			faults_memlock 64 "$B/ib_write_bw" -p 18637 --timeout 10 \
			--max-mem 1G -- \
			"$B/ib_write_bw" -p 18637 "$ip" -n 100
	else
		lab_skip faults.memlock "no capsh (apt-get install libcap2-bin)"
	fi

	# --- -d naming no device: exit 2 at once, naming it, on either side
	NODEV='-d mlx5_99: no such RDMA device'
	lab_case faults.nodev.client -t 30 -r 2 -e "$NODEV" \
		"$B/ib_write_bw" -d mlx5_99 --connect-timeout 3 "$ip"
	lab_case faults.nodev.server -t 15 -r 2 -e "$NODEV" \
		"$B/ib_write_bw" -d mlx5_99 -p 18638
	lab_case faults.nodev.client_tcp -t 30 -r 2 -e "$NODEV" \
		"$B/ib_write_bw" --oob tcp -d mlx5_99 --connect-timeout 3 127.0.0.1

	# --- the RDMA interface goes down mid-run: both sides end within their
	# --timeout (10 s) as a lost peer, exit 5
	if faults_link_setup; then
		lab_pair faults.link_down -t 120 -r 5 -R 5 -g 15 \
			-e 'ended [0-9.]+ s after fault_if went down' \
			"$B/ib_write_bw" -p 18639 --timeout 10 -- \
			faults_link_down fault_if 6 15 \
			"$B/ib_write_bw" -p 18639 198.18.5.1 -n 100000000 --timeout 10
	else
		lab_skip faults.link_down "cannot create rxe_f0 on a dummy interface"
	fi
	faults_link_teardown
fi
