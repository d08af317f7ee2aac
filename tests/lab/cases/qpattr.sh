# tests/lab/cases/qpattr.sh - sourced by tests/lab/all.sh in the lab guest:
# perftest's QP options reach the QPs. -T (traffic class), -u (ack timeout)
# and --retry_count, read back with ibv_query_qp, in the header and the
# results JSON, over rdma_cm (-R) and --oob tcp (with -S, -L, -m); -T 106 on the
# wire (tcpdump: "tos 0x6a"); --source_ip; what rdma_cm cannot set refused
# (exit 2); -x 300 refused at the device open (exit 2); --inline_recv
# noted on the header's "Changes nothing" line; --rate_limit SW paces the
# posts (measured near its limit), HW refused on rxe (exit 2); --dlid
# noted on RoCE; -c DC refused at run time (exit 2); -p 0: the server
# says the port it got and a client reaches it there.
#
# One guest: rxe loops its own traffic back inside the driver, so nothing
# crosses the netdev; the two-guest shape (run by make lab) captures on
# eth0 between the guests:
#   scripts/lab/run-pair.sh build/ib_write_bw -- tests/lab/all.sh qpattr
# shellcheck shell=bash

QPA='QP attributes +: traffic class 106, SL [0-9]+, timeout 20 \([0-9.]+ ms\), retry count 3'
QPA_ARGS=(-T 106 -u 20 --retry_count 3)

# The JSON document at $1 has the QP attributes -T 106 -u 20 --retry_count 3.
qpattr_json() { # NAME FILE
	local text=
	[ -r "$2" ] && text=$(<"$2")
	lab_assert "$1" '"qp_attr": \{[^}]*"traffic_class": 106,[^}]*"timeout": 20,[^}]*"retry_count": 3,' "$text"
}

# The BW average (--report_gbits) of SIZE's row in OUT is in LO..HI.
qpattr_bw_near() { # NAME SIZE LO HI OUT
	local avg
	avg=$(awk -v s="$2" '$1 == s && NF >= 5 { print $4; exit }' <<<"$5")
	if [ -n "$avg" ] && awk -v a="$avg" -v lo="$3" -v hi="$4" \
		'BEGIN { exit !(a >= lo && a <= hi) }'; then
		lab_pass "$1" "BW average $avg Gb/s (want $3..$4)"
	else
		lab_fail "$1" "BW average '${avg:-none}' Gb/s, want $3..$4"
	fi
}

# -T 106 on the wire: a capture on IF of what SRC sends, around what runs
# between start and check (tcpdump -v prints the IP header's "tos 0x6a").
QPA_CAP_PID=
qpattr_cap_start() { # IF SRC
	QPA_CAP=$LAB_LOGDIR/qpattr.$1.pcap.txt QPA_CAP_PID=
	command -v tcpdump >/dev/null || return 0
	tcpdump -i "$1" -nn -v -c 20 "udp port 4791 and src host $2" \
		>"$QPA_CAP" 2>&1 &
	QPA_CAP_PID=$!
	lab_sleep 1
}

qpattr_cap_check() { # NAME IF
	local text=
	if [ -z "$QPA_CAP_PID" ]; then
		lab_skip "$1" "no tcpdump (scripts/lab/setup.sh installs it)"
		return
	fi
	lab_sleep 0.5
	kill "$QPA_CAP_PID" 2>/dev/null
	wait "$QPA_CAP_PID" 2>/dev/null
	[ -r "$QPA_CAP" ] && text=$(<"$QPA_CAP")
	if [[ $text =~ (^|$'\n')0\ packets\ captured ]]; then
		lab_skip "$1" "no RoCE packet crossed $2 (rxe loops back in one guest: run the two-guest shape, see the header)"
		return
	fi
	lab_assert "$1" 'tos 0x6a' "$text"
	lab_assert_not "$1.only" 'tos 0x0[,)]' "$text"
	# the evidence: the first packet as tcpdump saw it
	[[ $text =~ IP\ \(tos[^$'\n']*$'\n'[^$'\n']* ]] &&
		echo "    captured: ${BASH_REMATCH[0]//$'\n'/ }"
}

if [ "${LAB_ROLE:-}" = client ]; then
	# two guests: the server guest runs "ib_write_bw" (see the header)
	qpattr_cap_start eth0 "$LAB_MY_IP"
	lab_case qpattr.wire.pair.run -e "$QPA" "$B/ib_write_bw" \
		"$LAB_SERVER_IP" -n 100 "${QPA_ARGS[@]}"
	qpattr_cap_check qpattr.wire.pair eth0
elif lab_have rxe; then
	ip=$LAB_RXE_IP
	lab_pair qpattr.cm -t 60 -e "$QPA" "$B/ib_write_bw" -R -- \
		"$B/ib_write_bw" -R "$ip" -n 100 "${QPA_ARGS[@]}" \
		--json "$LAB_LOGDIR/qpattr.cm.json"
	qpattr_json qpattr.cm.json "$LAB_LOGDIR/qpattr.cm.json"
	# rdma_cm carries the client's traffic class to the passive side
	lab_assert qpattr.cm.server 'QP attributes +: traffic class 106,' \
		"$LAB_SERVER_OUT"
	lab_pair qpattr.tcp -t 60 -e "$QPA" \
		"$B/ib_write_bw" --oob tcp --netdev "$LAB_RXE_NETDEV" -p 18621 -- \
		"$B/ib_write_bw" localhost --oob tcp --netdev "$LAB_RXE_NETDEV" \
		-p 18621 -n 100 "${QPA_ARGS[@]}" -S 1 -L 9 -m 512 \
		--json "$LAB_LOGDIR/qpattr.tcp.json"
	qpattr_json qpattr.tcp.json "$LAB_LOGDIR/qpattr.tcp.json"
	# by hand each side sets its own QPs (as perftest); both take the
	# smaller MTU offered (-m 512); rxe keeps no SL (it reads back 0)
	lab_assert qpattr.tcp.server 'QP attributes +: traffic class 0, SL 0, timeout 14 ' \
		"$LAB_SERVER_OUT"
	lab_assert qpattr.tcp.mtu 'MTU 512\)' "$LAB_CLIENT_OUT"
	lab_assert qpattr.tcp.mtu.server 'MTU 512\)' "$LAB_SERVER_OUT"
	# --source_ip: rdma_cm connects from it (here the only IP there is)
	lab_pair qpattr.source_ip -t 60 -e "Local address +: $ip:" \
		"$B/ib_write_bw" -R -p 18625 -- "$B/ib_write_bw" "$ip" -p 18625 \
		-n 50 --source_ip "$ip"
	# -m with rdma_cm: perftest takes it, rdma_cm takes the path MTU;
	# taken and named on the header's "Changes nothing" line
	lab_pair qpattr.mtu_cm_noted -t 60 \
		-e '-m/--mtu \(rdma_cm takes the path MTU\)' \
		"$B/ib_write_bw" -R -p 18626 -- "$B/ib_write_bw" "$ip" -p 18626 \
		-R -m 1024 -n 50
	# -x 300: perftest's parser takes it; the device open refuses it
	# (an address handle names GID 0..255), exit 2 (usage), no peer needed
	lab_case qpattr.gid_300_refused -t 30 -r 2 \
		-e '-x 300: rxe0 port 1 has [0-9]+ GID entries, and an address handle names 0\.\.255' \
		"$B/ib_write_bw" --oob tcp -d "$LAB_RXE_DEV" -x 300 -p 18627
	# --inline_recv: perftest takes it; noted on "Changes nothing"
	lab_pair qpattr.inline_recv_noted -t 60 \
		-e '--inline_recv \(no inline receive is requested' \
		"$B/ib_send_bw" -p 18628 -- "$B/ib_send_bw" "$ip" -p 18628 \
		--inline_recv 64 -n 50
	# --flow_label and --pkey_index (--oob tcp's QPs: the GRH's flow
	# label, the INIT's P_Key entry) run; an entry past rxe's one-entry
	# table is refused at QP creation, naming the table (exit 2: not a
	# case here, its server waits out the client's report)
	lab_pair qpattr.flow_label_pkey -t 60 -e "[[:space:]]65536 +50 +$NUM" \
		"$B/ib_write_bw" -p 18629 --oob tcp --flow_label 7 --pkey_index 0 -- \
		"$B/ib_write_bw" "$ip" -p 18629 --oob tcp --flow_label 7 \
		--pkey_index 0 -n 50
	# --rate_limit SW, perftest's software limiter (paced posts): 0.02
	# Gb/s, a fifth of what rxe moves here; -D 4 measures the 2 s after
	# the first burst, -Q 8 keeps the completions that count it fine
	lab_pair qpattr.rate_sw -t 60 -e 'Rate limit +: SW: 0.02 Gb/s' \
		"$B/ib_write_bw" -p 18630 -- "$B/ib_write_bw" "$ip" -p 18630 \
		-s 4096 -D 4 -Q 8 --report_gbits --rate_limit 0.02 \
		--rate_limit_type SW
	qpattr_bw_near qpattr.rate_sw.near 4096 0.018 0.022 "$LAB_CLIENT_OUT"
	# --rate_limit_type HW: the static rate of an InfiniBand QP's address;
	# rxe (RoCE) takes none: refused once the QPs connect (exit 2), the
	# server told why (exit 5: the peer's error)
	lab_pair qpattr.rate_hw_refused -t 60 -r 2 -R 5 \
		-e 'rxe0 port 1 \(Ethernet\) took no static rate, InfiniBand.s HW limit: use --rate_limit_type SW' \
		"$B/ib_write_bw" -p 18631 -- "$B/ib_write_bw" "$ip" -p 18631 \
		-n 50 --rate_limit 10 --rate_limit_type HW
	# --dlid: perftest's destination LID; a RoCE port routes by the
	# peer's GID, so it changes nothing here: the header says so
	lab_pair qpattr.dlid_noted -t 60 \
		-e '--dlid \(a RoCE port routes by the peer.s GID' \
		"$B/ib_write_bw" -p 18632 -- "$B/ib_write_bw" "$ip" -p 18632 \
		--dlid 5 -n 50
	# -c DC: perftest's parser takes it; refused at run time, before a
	# device or a peer is looked for, naming perftest's tool (exit 2)
	lab_case qpattr.conn_dc_refused -t 30 -r 2 \
		-e '-c DC: rdmabench builds RC, UC and UD QPs; DC .*: use perftest.s ib_write_bw -c DC on an mlx5 device' \
		"$B/ib_write_bw" -c DC "$ip" -p 18633
	# -p 0: the server listens on a port the kernel picks and says which
	# on stderr; a client given that port runs; a client given -p 0 is
	# told to give the server's port (exit 2)
	lab_pair qpattr.port0 -t 60 --ready 'listening on port [0-9]+' \
		-e "[[:space:]]65536 +50 +$NUM" \
		"$B/ib_write_bw" -p 0 -- bash -c 'p=$(sed -n "s/.*listening on port \([0-9]*\).*/\1/p" "$1" | head -n 1); exec "$2" "$3" -p "$p" -n 50' \
		_ "$LAB_LOGDIR/qpattr.port0.server.log" "$B/ib_write_bw" "$ip"
	lab_case qpattr.port0_client_refused -t 30 -r 2 \
		-e '-p 0: give the server.s port' "$B/ib_write_bw" "$ip" -p 0
	# -T on the wire: not here (rxe loops its own traffic back inside the
	# driver, nothing crosses the netdev); make lab's two-guest run
	# (tests/run-lab.sh) captures it on eth0 between the guests
else
	lab_skip qpattr "no rxe0 came up in this guest"
fi
