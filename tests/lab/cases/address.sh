# tests/lab/cases/address.sh - sourced by tests/lab/all.sh in the lab guest:
# any server address works (issue 13), as with perftest. The default
# rendezvous (--oob auto) reaches the server by TCP at whatever the client
# names, and takes the data device from -d, else the one owning the route,
# else the first active one; the header says which ("Control path",
# "Data device"). For rxe (RoCE: QPs connected over the TCP channel) and
# siw (iWARP: the server names its iWARP address and rdma_cm port, and the
# session runs over rdma_cm there), a client names the server
#   by hostname (LAB_SERVER_NAME in /etc/hosts -> LAB_MGMT_IP), with -d,
#   by the IP of a netdev without RDMA (LAB_MGMT_IP, mgmt_if), with -d,
#   by localhost, with -d,
#   by the RDMA IP, without -d (the device owning the route);
# each measures. A -R client (rdma_cm) reaches the same default server (on
# -p + 1 when the host has an iWARP device: its rdma_cm listener is a TCP
# socket). An address with no route ends within 2 s, naming the address,
# exit 5; a name that does not resolve is looked up until --connect-timeout
# (1 s here), then named with the fix, exit 5; with a DNS server that never
# answers, a client ends within its --connect-timeout plus one look-up. A
# name that resolves only 5 s after the clients start (a Kubernetes Service
# whose pod is not ready yet) is waited for, with one line, by an --oob
# auto and a -R client (--connect-timeout 20), which then measure.
# shellcheck shell=bash

ADDR_PORT=18900
ADDR_ROW="65536 +200 +$NUM +$NUM[[:space:]]+$NUM"

# One pair: the default server, a client naming the server as given.
# addr_pair NAME TOOL CTRL_RE DEV_RE CLIENT_ARGS...
addr_pair() {
	local name=$1 tool=$2 ctrl=$3 dev=$4 row=$ADDR_ROW
	shift 4
	[[ $tool == *_lat ]] && row="2 +200([[:space:]]+$NUM){7}"
	ADDR_PORT=$((ADDR_PORT + 2))
	lab_pair "$name" -t 90 -e "$row" \
		-e "Control path +: $ctrl" -e "Data device +: $dev" \
		-E "Data device +: " \
		"$B/$tool" -p "$ADDR_PORT" -- \
		"$B/$tool" -p "$ADDR_PORT" -n 200 "$@"
}

if [ -z "${LAB_MGMT_IP:-}" ]; then
	lab_skip address "no mgmt_if in this guest (scripts/lab/guest-init.sh)"
else
	for p in rxe siw; do
		if ! lab_have $p; then
			lab_skip "address.$p" "no ${p}0 came up in this guest"
			continue
		fi
		P=${p^^}
		dev_var=LAB_${P}_DEV ip_var=LAB_${P}_IP
		dev=${!dev_var} ip=${!ip_var}
		if [ "$p" = rxe ]; then
			via() { echo "TCP to $1:"; }
		else
			via() { echo "rdma_cm to $ip:[0-9]+ \\(iWARP: the server at $1 named it\\)"; }
		fi
		addr_pair "address.$p.hostname" ib_write_bw \
			"$(via "$LAB_SERVER_NAME")" "$dev port 1.*\\(from -d\\)" \
			-d "$dev" "$LAB_SERVER_NAME"
		addr_pair "address.$p.mgmt_ip" ib_write_bw \
			"$(via "$LAB_MGMT_IP")" "$dev port 1.*\\(from -d\\)" \
			-d "$dev" "$LAB_MGMT_IP"
		addr_pair "address.$p.localhost" ib_write_bw \
			"$(via localhost)" "$dev port 1.*\\(from -d\\)" \
			-d "$dev" localhost
		addr_pair "address.$p.rdma_ip" ib_write_bw \
			"$(via "$ip")" "$dev port 1.*owns the route to $ip" "$ip"
		# the server's device: the one owning the address reached
		[ "$p" = rxe ] && lab_assert "address.$p.rdma_ip.server" \
			"Data device +: $dev port 1.*owns $ip, the address the client reached" \
			"$LAB_SERVER_OUT"
		addr_pair "address.$p.hostname.send" ib_send_bw \
			"$(via "$LAB_SERVER_NAME")" "$dev port 1" \
			-d "$dev" "$LAB_SERVER_NAME"
		addr_pair "address.$p.localhost.read_lat" ib_read_lat \
			"$(via localhost)" "$dev port 1" -d "$dev" localhost
		# -R (rdma_cm) against the default server: -p + 1 beside siw
		cm=$((ADDR_PORT + 2))
		lab_have siw && cm=$((cm + 1))
		addr_pair "address.$p.rdma_cm_client" ib_write_bw \
			"rdma_cm to $ip:$cm" "$dev port 1" -R -p "$cm" "$ip"
	done

	if lab_have rxe; then
		# an --oob tcp client (it sends no LOCATE) reaches it too
		addr_pair address.oob_tcp_client ib_write_bw "TCP to localhost:" \
			"$LAB_RXE_DEV port 1.*\\(from -d\\)" \
			--oob tcp -d "$LAB_RXE_DEV" localhost
	fi
	if lab_have rxe && lab_have siw; then
		# devices of two kinds cannot meet: both say so at once, exit 2
		lab_pair address.kind_mismatch -t 60 -r 2 -R 2 \
			-e "no data path for this client's $LAB_RXE_DEV \\(RoCE\\)" \
			-E "$LAB_SIW_DEV is iWARP, the client's device is RoCE" \
			"$B/ib_write_bw" -p 18898 -d "$LAB_SIW_DEV" -- \
			"$B/ib_write_bw" -p 18898 -d "$LAB_RXE_DEV" localhost
	fi

	# a bad address ends within 2 s (a name: its --connect-timeout 1 s,
	# and 3 s in all), naming it (exit 5: unreachable); timed on a second
	# run (the first pays for loading over 9p, TCG)
	addr_fast() { # NAME REGEX MS ADDR [ARGS...]
		local name=$1 re=$2 max=$3 t0 ms
		shift 3
		lab_case "$name" -t 20 -r 5 -e "$re" \
			"$B/ib_write_bw" -p 18899 "$@"
		t0=${EPOCHREALTIME/[.,]/}
		"$B/ib_write_bw" -p 18899 "$@" >/dev/null 2>&1
		ms=$(((${EPOCHREALTIME/[.,]/} - t0) / 1000))
		if ((ms < max)); then
			lab_pass "$name.fast" "ended in $ms ms"
		else
			lab_fail "$name.fast" "took $ms ms ($max allowed)"
		fi
	}
	addr_fast address.bad_name \
		"cannot resolve the server address 'no-such-host.invalid' \(looked up for 1 s: --connect-timeout\).*check the name for a typo.*/etc/hosts" \
		3000 no-such-host.invalid --connect-timeout 1
	addr_fast address.no_route \
		"no route from this host to the server address 203.0.113.1" \
		2000 203.0.113.1

	# a name that resolves 10 s after its clients start: an --oob auto and
	# a -R client (the second one told busy meanwhile) against one
	# --persistent server; each says once that it waits, then measures
	addr_late() { # PORT CM_PORT
		local name=late-server.lab rc=0 k out n line pa pc
		cp /etc/hosts /tmp/address.hosts
		"$B/ib_write_bw" -p "$1" --connect-timeout 20 -n 20 -s 64 \
			"$name" > "$LAB_LOGDIR/late.auto" 2>&1 &
		pa=$!
		"$B/ib_write_bw" -p "$2" -R --connect-timeout 20 -n 20 -s 64 \
			"$name" > "$LAB_LOGDIR/late.cm" 2>&1 &
		pc=$!
		lab_sleep 10
		echo "$LAB_RXE_IP $name" >> /etc/hosts
		wait "$pa" || rc=1
		wait "$pc" || rc=1
		cat /tmp/address.hosts > /etc/hosts
		touch "/tmp/clients-done.$1"
		for k in auto cm; do
			_lab_read out "$LAB_LOGDIR/late.$k"
			n=0
			while IFS= read -r line; do
				[[ $line == *"waiting for $name to resolve"* ]] &&
					n=$((n + 1))
			done <<< "$out"
			printf '### %s\n%s### %s: %d waiting line(s)\n' \
				"$k" "$out" "$k" "$n"
		done
		return $rc
	}
	if lab_have rxe && lab_wants address.late_name; then
		source tests/lab/serve.sh
		cm=18894
		lab_have siw && cm=18895
		lab_pair address.late_name -t 60 -g 10 \
			-e "### auto.*waiting for late-server.lab to resolve \([^)]*; up to 20 s: --connect-timeout\).*64 +20 +$NUM.*### auto: 1 waiting line" \
			-e "### cm.*64 +20 +$NUM.*### cm: 1 waiting line" \
			-n "cannot resolve|could not reach" \
			serve_until_done 18894 -- addr_late 18894 "$cm"
	fi

	# a resolver that never answers: every look-up of a name (the route
	# under auto, the TCP connect, rdma_cm's) ends within 1.5 s, so a
	# client with --connect-timeout 3 ends in about 5 s whatever the mode.
	# The bound is 9 s: a busy emulated guest once took 6.2 s, while one
	# look-up left to glibc's defaults (5 s, 2 attempts) alone takes 10 s
	addr_dns() { # NAME REGEX ARGS...
		local name=$1 re=$2 t0 ms
		shift 2
		t0=${EPOCHREALTIME/[.,]/}
		lab_case "$name" -t 30 -r 5 -e "$re" \
			"$B/ib_write_bw" -p 18899 --connect-timeout 3 "$@"
		ms=$(((${EPOCHREALTIME/[.,]/} - t0) / 1000))
		if ((ms < 9000)); then
			lab_pass "$name.fast" "ended in $ms ms"
		else
			lab_fail "$name.fast" "took $ms ms (9000 allowed)"
		fi
	}
	cp /etc/resolv.conf /tmp/address.resolv
	/usr/bin/python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.9", 53))
while True:
    s.recv(512)' &
	dns_pid=$!
	for _ in $(seq 50); do # python starts slowly under TCG
		ss -Hlun 'sport = :53' | grep -q 127.0.0.9 && break
		lab_sleep 0.1
	done
	echo "nameserver 127.0.0.9" > /etc/resolv.conf
	addr_dns address.dns_silent.auto \
		"cannot resolve the server address 'silent.example'.*no answer within 1.5 s" \
		silent.example
	addr_dns address.dns_silent.tcp \
		"cannot resolve the server address 'silent.example'.*no answer within 1.5 s" \
		--oob tcp -d "$LAB_RXE_DEV" silent.example
	addr_dns address.dns_silent.cm "silent.example" \
		-R silent.example
	cat /tmp/address.resolv > /etc/resolv.conf
	kill "$dns_pid" 2>/dev/null
	wait "$dns_pid" 2>/dev/null
fi
