# tests/lab/cases/server.sh - sourced by tests/lab/all.sh in the lab guest:
# the persistent server (--persistent) serves clients one after another,
# survives a failed and a hostile client, refuses what exceeds its caps
# with the reason on the client, and stops cleanly on SIGTERM (exit 130 for
# a single-run server, 0 for a persistent one); a single-run server serves
# its real client after a stranger's byte (oneshot.stranger).
# shellcheck shell=bash

if lab_have rxe; then
	ip=$LAB_RXE_IP
	persistent_clients() {
		local rc=0
		"$B/ib_write_bw" -p 18620 "$ip" -n 100 || rc=1
		# over the caps: refused with the reason, exit 2
		"$B/ib_write_bw" -p 18620 "$ip" -q 8 -n 10 && rc=1
		# a client that dies mid-run
		timeout -s KILL 3 "$B/ib_write_bw" -p 18620 "$ip" -n 100000000
		# the server still serves a good client, both rendezvous kinds
		"$B/ib_send_lat" -p 18620 "$ip" -n 100 || rc=1
		"$B/ib_read_bw" -p 18620 "$ip" -n 100 || rc=1
		touch /tmp/clients-done.18620
		return $rc
	}
	# the server runs until the clients are done (at most 100 s)
	source tests/lab/serve.sh
	lab_pair persistent_server -t 120 -R 0 -g 40 \
		-e 'this server allows 4 \(--max-qps\)' \
		-E 'waiting for the next client' \
		serve_until_done 18620 --max-qps 4 -- \
		persistent_clients

	# TCP probes (a readiness probe: connect, close) are not clients: the
	# server says nothing of them and serves the next real client
	lab_pair persistent_server.tcp -t 120 -R 0 -g 30 \
		-E 'waiting for the next client' -N 'disconnected|reset|error' \
		serve_until_done 18621 --oob tcp -- \
		bash -c "sleep 1; for i in 1 2 3; do
			 (exec 3<>/dev/tcp/127.0.0.1/18621) || exit 1; done;
			 $B/ib_write_bw -p 18621 --oob tcp localhost -n 50 &&
			 $B/ib_write_lat -p 18621 --oob tcp localhost -n 50;
			 rc=\$?; touch /tmp/clients-done.18621; exit \$rc"

	# a one-shot server (no --persistent: ib_fabric's link servers, the ring
	# pods'): a stranger's single byte, then 11 header bytes and a close,
	# are not its client; it keeps serving, and its run is its real
	# client's (exit 0 on both sides)
	# (the server's line drops them before any session: no "next client")
	lab_pair oneshot.stranger -t 60 -R 0 -g 30 \
		-E 'client .* runs ib_write_bw' -N 'waiting for the next client' \
		"$B/ib_write_bw" -p 18623 -- \
		bash -c "sleep 1; printf x > /dev/tcp/$ip/18623 || exit 1
			 printf 'RDMABENCH01' > /dev/tcp/$ip/18623 || exit 1
			 exec $B/ib_write_bw -p 18623 $ip -n 50"

	# SIGTERM mid-run (once it runs): the client stops within 5 s (TCG) with
	# exit 130, and the server, told so, ends with exit 5 (peer lost)
	sigterm_mid_run() {
		local out=$LAB_LOGDIR/sigterm.out pid rc start
		"$B/ib_write_bw" -p 18622 "$ip" -n 100000000 > "$out" 2>&1 &
		pid=$!
		for _ in $(seq 300); do
			grep -q '#bytes' "$out" 2>/dev/null && break
			lab_sleep 0.1
		done
		lab_sleep 1
		kill -TERM "$pid"
		start=$SECONDS
		wait "$pid"
		rc=$?
		cat "$out"
		[ $((SECONDS - start)) -le 5 ] || { echo "took too long"; rc=99; }
		return $rc
	}
	lab_pair sigterm_client -t 90 -r 130 -R 5 -g 40 \
		-e 'error: interrupted' -E 'the client reports: interrupted' \
		"$B/ib_write_bw" -p 18622 -- sigterm_mid_run
fi
