# tests/lab/cases/trust.sh - sourced by tests/lab/all.sh in the lab guest:
# the trust model of issue 14 against a --persistent server, each attack
# followed by a good client that must be served:
#   trust.gid.*     a HELLO, then a QP_INFO naming a third host's GID (a
#                   network namespace behind a veth, 10.77.0.2): refused,
#                   and not one RoCEv2 frame (UDP 4791) on that host's
#                   link (tcpdump there; a probe frame proves it counts);
#                   --oob tcp and the default (auto) server
#   trust.gid.deploy  the server run with deploy/base's arguments, taken
#                   from its kustomize rendering (not restated; the key
#                   file, net1 and $(POD_IP) mapped to the lab's): a
#                   client without the key asking for UC, or for a UC or
#                   RC reflection to a third host's GID, is refused and
#                   not one frame reaches that host; a client with the
#                   key is served
#   trust.server_gid  a client (in the third host's namespace) refuses a
#                   server's data GID that is not the address it reached
#   trust.stranger  rdma_cm data connection requests with no token and a
#                   wrong one, fired while a 16-QP session connects and
#                   runs: refused, the session completes
#   trust.auth.*    --auth-key-file: a client without the key and one with
#                   another key are refused (exit 2) before any allocation
#                   (the server never owns an MR for them: `rdma res show
#                   mr` sampled throughout), a client with the key (from
#                   RDMABENCH_AUTH_KEY_FILE) is served; TCP and rdma_cm.
#                   Over TCP also: a weak key (16 x 'a') is refused at
#                   start (exit 2, why), and a client that proves the key
#                   and names a third host's data GID is refused (the
#                   key is no licence to aim the server's traffic)
#   trust.bind*     --bind: an address not of this host, or not an address,
#                   is refused at start (exit 2, why); bound to the RDMA
#                   address the server is not on localhost (exit 5) and
#                   serves a client at that address
# shellcheck shell=bash

TRUST_INJ=$B/tests/tools/wire_inject
TRUST_NS=rdmabench-third TRUST_THIRD=10.77.0.2 TRUST_DEV=rxetrust

# The third host: a namespace with a veth peer and an address, on the link
# of the server's RDMA device (rxetrust over this side of the veth: rxe
# sends only out of its own netdev).
trust_third_up() {
	local st='' i
	ip netns add $TRUST_NS &&
		ip link add trust-h type veth peer name trust-t &&
		ip link set trust-t netns $TRUST_NS &&
		ip addr add 10.77.0.1/24 dev trust-h && ip link set trust-h up &&
		ip -n $TRUST_NS addr add $TRUST_THIRD/24 dev trust-t &&
		ip -n $TRUST_NS link set trust-t up &&
		ip -n $TRUST_NS link set lo up &&
		rdma link add $TRUST_DEV type rxe netdev trust-h || return 1
	for i in $(seq 100); do
		read -r st < /sys/class/infiniband/$TRUST_DEV/ports/1/state
		[ "$st" = "4: ACTIVE" ] && return 0
		lab_sleep 0.05
	done
	echo "trust: $TRUST_DEV port state '$st' after 5 s (iteration $i)"
	return 1
}

trust_third_down() {
	rdma link del $TRUST_DEV 2>/dev/null
	ip link del trust-h 2>/dev/null
	ip netns del $TRUST_NS 2>/dev/null
}

# The RoCEv2 frames the third host sees, counted by tcpdump there until
# /tmp/trust-count.stop appears; the count lands in /tmp/trust-count.
trust_count_frames() {
	rm -f /tmp/trust-count /tmp/trust-count.stop
	ip netns exec $TRUST_NS tcpdump -n -q -i trust-t 'udp port 4791' \
		>/dev/null 2>/tmp/trust-count.err &
	local tpid=$!
	while [ ! -e /tmp/trust-count.stop ]; do lab_sleep 0.1; done
	kill -INT $tpid
	wait $tpid
	sed -n 's/^\([0-9]*\) packets\{0,1\} captured/\1/p' /tmp/trust-count.err \
		> /tmp/trust-count
}

# Reflected GID (MODE qpinfo: refused; reflect: the whole attack, for a
# server that allows it), then a probe frame to the third host (it must be
# counted), then a good client.
trust_gid_clients() { # PORT MODE OOB...
	local port=$1 mode=$2 rc=0 n
	shift 2
	trust_count_frames &
	lab_sleep 1 # tcpdump listening
	if [ "$mode" = qpinfo ]; then
		"$TRUST_INJ" -p "$port" --oob tcp --set flags=0x14 --gid \
			"::ffff:$TRUST_THIRD" qpinfo 127.0.0.1 ||
			{ echo "trust: the reflected GID was not refused"; rc=1; }
	elif [ "$mode" = uc ]; then # refused earlier: at the HELLO, as UC
		"$TRUST_INJ" -p "$port" --oob tcp --set flags=0x14 --gid \
			"::ffff:$TRUST_THIRD" qpinfo 127.0.0.1 &&
			{ echo "trust: the UC HELLO was not refused"; rc=1; }
	else
		"$TRUST_INJ" -p "$port" --oob tcp --set flags=0x14,iters=200 \
			--gid "::ffff:$TRUST_THIRD" --hold 3 reflect 127.0.0.1
	fi
	"$B/ib_write_bw" -p "$port" "$@" localhost -n 200 || rc=1
	lab_sleep 1
	echo probe > /dev/udp/$TRUST_THIRD/4791 # one frame: the counter works
	lab_sleep 1
	touch /tmp/trust-count.stop
	wait
	n=$(cat /tmp/trust-count 2>/dev/null)
	[ -n "$n" ] || cat /tmp/trust-count.err
	echo "trust: RoCEv2 frames on the third host's link: ${n:-?} (1 is the probe)"
	if [ "$mode" != reflect ]; then
		[ "$n" = 1 ] || { echo "trust: frames reached the third host"; rc=1; }
	else
		[ "${n:-0}" -gt 1 ] || { echo "trust: the attack sent nothing"; rc=1; }
	fi
	touch "/tmp/clients-done.$port"
	return $rc
}

# deploy/base's server arguments, one a line: the Deployment's container
# args from the kustomize rendering (tests/k8s/kubectl-kustomize.sh),
# "server TOOL" (the entrypoint's) left out, the pod's names mapped to the
# lab's: --netdev net1 -> the third host's link, the Secret's key file ->
# KEY, $(POD_IP) -> ADDR (as the kubelet expands it)
# shellcheck disable=SC2016 # $(POD_IP) is the text to map, not to expand
trust_deploy_args() { # KEY ADDR
	tests/k8s/kubectl-kustomize.sh kustomize deploy/base | python3 -c '
import sys, yaml
for d in yaml.safe_load_all(sys.stdin):
    if d and d["kind"] == "Deployment" and d["metadata"]["name"] == "rdmabench-server":
        a = [str(x) for x in d["spec"]["template"]["spec"]["containers"][0]["args"]]
        assert a[:2] == ["server", "ib_write_bw"], a
        m = {"net1": sys.argv[1], "/etc/rdmabench/auth/key": sys.argv[2], "$(POD_IP)": sys.argv[3]}
        print("\n".join(m.get(x, x) for x in a[2:]))' trust-h "$1" "$2"
}

# Against deploy/base's server: a keyless UC HELLO, then keyless UC and RC
# reflections to the third host (refused: wire_inject exit 0 for the
# HELLO, anything but 3, "accepted", for the reflections), a keyed client
# (served), a probe frame (counted); the third host must see the probe
# alone.
trust_deploy_clients() { # PORT ADDR KEY
	local port=$1 addr=$2 key=$3 rc=0 r n set
	trust_count_frames &
	lab_sleep 1 # tcpdump listening
	"$TRUST_INJ" -p "$port" --oob tcp --set flags=0x14 hello "$addr"
	r=$?
	[ $r = 0 ] || { echo "trust: a keyless UC HELLO was not refused (exit $r)"; rc=1; }
	for set in flags=0x14,iters=200 iters=200; do
		"$TRUST_INJ" -p "$port" --oob tcp --set "$set" --gid "::ffff:$TRUST_THIRD" \
			--hold 3 reflect "$addr"
		r=$?
		[ $r != 3 ] || { echo "trust: a keyless reflection ($set) was accepted"; rc=1; }
	done
	"$B/ib_write_bw" -p "$port" --oob tcp -d $TRUST_DEV --auth-key-file "$key" \
		"$addr" -n 200 || rc=1
	lab_sleep 1
	echo probe > /dev/udp/$TRUST_THIRD/4791 # one frame: the counter works
	lab_sleep 1
	touch /tmp/trust-count.stop
	wait
	n=$(cat /tmp/trust-count 2>/dev/null)
	[ -n "$n" ] || cat /tmp/trust-count.err
	echo "trust: RoCEv2 frames on the third host's link: ${n:-?} (1 is the probe)"
	[ "$n" = 1 ] || { echo "trust: frames reached the third host"; rc=1; }
	touch "/tmp/clients-done.$port"
	return $rc
}

# Strangers' data connection requests (no token, a wrong one) fired as a
# 16-QP session connects and runs.
trust_stranger_clients() { # PORT ADDR
	local port=$1 addr=$2 rc=0 cpid p refused=0
	local -a pids=()
	"$B/ib_write_bw" -R -p "$port" "$addr" -q 16 -D 4 &
	cpid=$!
	lab_sleep 0.1
	for _ in $(seq 12); do
		"$TRUST_INJ" -p "$port" --timeout 30 data "$addr" >/dev/null &
		pids+=($!)
		"$TRUST_INJ" -p "$port" --timeout 30 --token 0x5eed data \
			"$addr" >/dev/null &
		pids+=($!)
		lab_sleep 0.05
	done
	for p in "${pids[@]}"; do
		wait "$p" && refused=$((refused + 1))
	done
	wait $cpid || { echo "trust: the session did not complete"; rc=1; }
	echo "trust: $refused of 24 strangers refused"
	[ $refused = 24 ] || rc=1
	"$B/ib_write_bw" -R -p "$port" "$addr" -n 200 || rc=1
	touch "/tmp/clients-done.$port"
	return $rc
}

# The most MRs of 16 KiB or more (a test's buffers; over rdma_cm the
# control channel's own, 9 x 512 B, is not one) that the server owned
# while /tmp/trust-mr.stop is absent.
trust_sample_mrs() { # PORT
	local pid max=0 n
	pid=$(cat "/tmp/serve.$1.pid")
	rm -f /tmp/trust-mr /tmp/trust-mr.stop
	while [ ! -e /tmp/trust-mr.stop ]; do
		n=$(rdma res show mr 2>/dev/null | awk -v p="$pid" '
			{ q = ""; l = 0
			  for (i = 1; i < NF; i++) {
				if ($i == "pid") q = $(i + 1)
				if ($i == "mrlen") l = $(i + 1)
			  } }
			q == p && l >= 16384 { n++ }
			END { print n + 0 }')
		[ "$n" -gt "$max" ] && max=$n
		lab_sleep 0.05
	done
	echo "$max" > /tmp/trust-mr
}

trust_mrs_during() { # PORT CMD...: the server's most MRs while CMD runs
	trust_sample_mrs "$1" &
	shift
	local spid=$! rc
	lab_sleep 0.3
	"$@"
	rc=$?
	lab_sleep 0.5
	touch /tmp/trust-mr.stop
	wait $spid
	return $rc
}

# A client on the third host (its namespace) reaches the server at
# 10.77.0.1; the server (--allow-foreign-gid, -d rxe0) names its data GID
# on another address: the client refuses it (exit 1, why).
trust_server_gid_client() { # PORT
	local port=$1 rc=0
	ip netns exec $TRUST_NS "$B/ib_write_bw" -p "$port" --oob tcp \
		-d $TRUST_DEV 10.77.0.1 -n 100
	[ $? = 1 ] || { echo "trust: the client took the server's foreign GID"; rc=1; }
	touch "/tmp/clients-done.$port"
	return $rc
}

# No key, another key (refused, exit 2, no MR), the key (served, MRs).
trust_auth_clients() { # PORT ADDR ARGS...
	local port=$1 addr=$2 rc=0 mrs
	shift 2
	trust_mrs_during "$port" "$B/ib_write_bw" -p "$port" "$@" "$addr" -n 100
	[ $? = 2 ] || { echo "trust: a client without the key was not refused"; rc=1; }
	mrs=$(cat /tmp/trust-mr)
	trust_mrs_during "$port" "$B/ib_write_bw" -p "$port" "$@" "$addr" \
		-n 100 --auth-key-file /tmp/trust.other
	[ $? = 2 ] || { echo "trust: a client with another key was not refused"; rc=1; }
	mrs="$mrs $(cat /tmp/trust-mr)"
	echo "trust: the server's MRs while refusing: $mrs"
	[ "$mrs" = "0 0" ] || { echo "trust: the server allocated for a refused client"; rc=1; }
	if [ "$addr" = localhost ]; then # TCP: a weak key; an insider's GID
		"$B/ib_write_bw" -p "$port" "$@" "$addr" -n 100 \
			--auth-key-file /tmp/trust.weak
		[ $? = 2 ] || { echo "trust: a weak key was taken"; rc=1; }
		"$TRUST_INJ" -p "$port" --oob tcp --auth-key-file /tmp/trust.key \
			--gid ::ffff:$TRUST_THIRD qpinfo 127.0.0.1 &&
			echo "trust: an authenticated client's foreign GID was refused" ||
			{ echo "trust: an authenticated client's foreign GID was not refused"; rc=1; }
	fi
	RDMABENCH_AUTH_KEY_FILE=/tmp/trust.key trust_mrs_during "$port" \
		"$B/ib_write_bw" -p "$port" "$@" "$addr" -D 2 || rc=1
	echo "trust: the server's MRs while serving: $(cat /tmp/trust-mr)"
	[ "$(cat /tmp/trust-mr)" -gt 0 ] || { echo "trust: no MR seen while served"; rc=1; }
	touch "/tmp/clients-done.$port"
	return $rc
}

# --bind the RDMA address: a client on localhost finds no server (exit 5),
# one at the bound address is served.
trust_bind_clients() { # PORT
	local port=$1 rc=0
	"$B/ib_write_bw" -p "$port" --connect-timeout 2 127.0.0.1 -n 10
	[ $? = 5 ] && echo "trust: refused on localhost" || rc=1
	"$B/ib_write_bw" -p "$port" "$LAB_RXE_IP" -n 100 || rc=1
	touch "/tmp/clients-done.$port"
	return $rc
}

source tests/lab/serve.sh

if ! lab_have rxe; then
	lab_skip trust "no rxe device"
elif [ ! -x "$TRUST_INJ" ]; then
	lab_skip trust "no $TRUST_INJ: make tools"
else
	W='waiting for a client'
	if trust_third_up; then
		for oob in tcp auto; do
			port=$((18741 + ${#oob} % 2))
			lab_pair "trust.gid.$oob" -t 120 -R 0 -g 30 --ready "$W" \
				-e 'frames on the third host.s link: 1 ' \
				-E "data GID ::ffff:$TRUST_THIRD is not the control connection.s address" \
				-E 'allow-foreign-gid' -E 'BW average' \
				serve_until_done "$port" --oob "$oob" -c UC -d $TRUST_DEV -- \
				trust_gid_clients "$port" qpinfo --oob "$oob" \
				-d $TRUST_DEV
		done
		# --allow-foreign-gid alone (RC only, no key): the same UC
		# reflection is refused as UC, no frame
		lab_pair trust.gid.base -t 120 -R 0 -g 30 --ready "$W" \
			-e 'frames on the third host.s link: 1 ' \
			-E 'this server takes RC only' -E 'BW average' \
			serve_until_done 18745 --oob tcp --netdev trust-h \
			--allow-foreign-gid -- \
			trust_gid_clients 18745 uc --oob tcp -d $TRUST_DEV
		# deploy/base's server as rendered: keyless strangers get
		# nothing, not a frame to the third host
		head -c 32 /dev/urandom | base64 > /tmp/trust-deploy.key
		chmod 600 /tmp/trust-deploy.key
		if ! mapfile -t dargs < <(trust_deploy_args /tmp/trust-deploy.key 10.77.0.1) ||
			[ ${#dargs[@]} = 0 ]; then
			lab_fail trust.gid.deploy "cannot render deploy/base (tests/k8s/npm-ci.sh)"
		else
			echo "trust: deploy/base's server arguments: ${dargs[*]}"
			lab_pair trust.gid.deploy -t 150 -R 0 -g 30 --ready "$W" \
				-e 'frames on the third host.s link: 1 ' -e 'BW average' \
				-n 'was not refused|was accepted' \
				-E 'at 10\.77\.0\.1' \
				-E 'did not authenticate.*refused before any allocation' \
				serve_until_done 18750 "${dargs[@]}" -- \
				trust_deploy_clients 18750 10.77.0.1 /tmp/trust-deploy.key
		fi
		rm -f /tmp/trust-deploy.key
		# the control: the same attack against a server that allows it
		# reaches the third host (so the zero above is not the lab's)
		lab_pair trust.gid.allowed -t 120 -R 0 -g 30 --ready "$W" \
			-e 'BW average' -n 'frames on the third host.s link: [01] ' \
			serve_until_done 18743 --oob tcp --allow-foreign-gid -c UC \
			-d $TRUST_DEV -- \
			trust_gid_clients 18743 reflect --oob tcp -d $TRUST_DEV
		# the client's side: a server's data GID not the address reached
		lab_pair trust.server_gid -t 60 -R 0 -g 30 --ready "$W" \
			-e "server 10.77.0.1:18749 .*: the server.s data GID ::ffff:$LAB_RXE_IP is not the address this client reached, ::ffff:10.77.0.1" \
			-n 'BW average' \
			serve_until_done 18749 --oob tcp --allow-foreign-gid \
			-d rxe0 -- trust_server_gid_client 18749
	else
		lab_skip trust.gid "no network namespace with a veth in this guest"
	fi
	trust_third_down

	lab_pair trust.stranger -t 150 -R 0 -g 30 --ready "$W" \
		-e '24 of 24 strangers refused' \
		-E 'refused a data connection request from' \
		-N 'giving up' \
		serve_until_done 18744 -R -- trust_stranger_clients 18744 "$LAB_RXE_IP"

	head -c 32 /dev/urandom | base64 > /tmp/trust.key
	head -c 32 /dev/urandom | base64 > /tmp/trust.other
	echo aaaaaaaaaaaaaaaa > /tmp/trust.weak
	chmod 600 /tmp/trust.key /tmp/trust.other /tmp/trust.weak
	for oob in tcp cm; do
		port=$((18745 + ${#oob} % 2))
		addr=$LAB_RXE_IP
		[ $oob = tcp ] && addr=localhost
		tcp_only=()
		[ $oob = tcp ] && tcp_only=(-e 'too weak.*16 bytes of key, fewer than 32'
			-e "authenticated client's foreign GID was refused"
			-E "data GID ::ffff:$TRUST_THIRD is not the control connection.s address")
		lab_pair "trust.auth.$oob" -t 150 -R 0 -g 30 --ready "$W" \
			-e 'this server requires authentication' \
			-e "this client.s key is not the server.s" \
			-e "the server's MRs while refusing: 0 0" \
			"${tcp_only[@]}" \
			-E 'did not authenticate.*refused before any allocation' \
			-E 'did not prove the key of --auth-key-file' \
			-E 'clients must prove the key' \
			-E 'BW average' \
			serve_until_done "$port" --oob "$oob" --auth-key-file /tmp/trust.key -- \
			trust_auth_clients "$port" "$addr" --oob "$oob"
	done
	rm -f /tmp/trust.key /tmp/trust.other /tmp/trust.weak

	# --bind: not an address of this host, or not an address: exit 2, why
	lab_case trust.bind.foreign -t 20 -r 2 \
		-e 'not an address of this host' \
		"$B/ib_write_bw" --oob tcp --bind 192.0.2.77 -p 18747
	lab_case trust.bind.name -t 20 -r 2 -e '--bind server.example: not an IP' \
		"$B/ib_write_bw" --bind server.example -p 18747
	lab_pair trust.bind -t 90 -R 0 -g 30 --ready "$W" \
		-e 'trust: refused on localhost' -e 'BW average' \
		-E "waiting for a client on port 18748 at $LAB_RXE_IP" \
		serve_until_done 18748 --bind "$LAB_RXE_IP" -- \
		trust_bind_clients 18748
fi
