# tests/lab/cases/write.sh - sourced by tests/lab/all.sh in the lab guest:
# ib_write_bw and ib_write_lat server and client on rxe (RoCEv2) and siw
# (iWARP), the connection behaviour (client first, nobody serving, peer
# killed mid-run) and the usage errors. Iterations are scaled for TCG.
# shellcheck shell=bash

# data rows, perftest's 5 (bandwidth) and 9 (latency) fields on both sides
# (perftest's rows hold tabs); the client's note with the server's figure (on
# stderr: the harness reads both streams)
BW_CLIENT_ROW="65536 +200 +$NUM +$NUM[[:space:]]+$NUM"
BW_SERVER_ROW=$BW_CLIENT_ROW
BW_CLIENT_NOTE=" # server \(what arrived\): BW average\[Gb/sec\] $NUM"
LAT_CLIENT_ROW="2 +500([[:space:]]+$NUM){7}"

# Field F (1-based) of the first output line whose first field is SIZE.
row_field() { # TEXT SIZE F
	local line f
	while read -r -a f; do
		[ "${f[0]:-}" = "$2" ] && { echo "${f[$(($3 - 1))]}"; return; }
	done <<<"$1"
}

# Both sides report the same server figure, on the same size x iterations:
# the client on its note line, the server in its row.
assert_sides_agree() { # NAME SIZE
	local mine theirs
	theirs=$(sed -n 's/^ # server (what arrived): BW average\[[^]]*\] \([0-9.]*\),.*/\1/p' \
		<<<"$LAB_CLIENT_OUT" | head -n 1)
	mine=$(row_field "$LAB_SERVER_OUT" "$2" 4)
	if [ -n "$mine" ] && [ "$mine" = "$theirs" ] &&
	   [ "$(row_field "$LAB_CLIENT_OUT" "$2" 2)" = \
	     "$(row_field "$LAB_SERVER_OUT" "$2" 2)" ]; then
		lab_pass "$1" "server figure $mine on both sides"
	else
		lab_fail "$1" "client shows server '$theirs', server '$mine'"
	fi
}

for p in rxe siw; do
	if ! lab_have $p; then
		lab_skip "$p" "no ${p}0 came up in this guest"
		continue
	fi
	ipvar=LAB_${p^^}_IP ip=${!ipvar} devvar=LAB_${p^^}_DEV dev=${!devvar}

	lab_pair "write_bw.$p" -t 120 -e "$BW_CLIENT_ROW" -E "$BW_SERVER_ROW" \
		-e "$BW_CLIENT_NOTE" -e "Device +: $dev" \
		-e 'BW average\[Gb/sec\]' -e 'Mtu +: [0-9]+\[B\]' \
		"$B/ib_write_bw" -d "$dev" -- \
		"$B/ib_write_bw" -d "$dev" "$ip" -n 200 --report_gbits &&
		assert_sides_agree "write_bw.$p.sides_agree" 65536

	lab_pair "write_bw_sweep.$p" -t 180 -e "8388608 +5 +$NUM" \
		-e "^(.*
)? 2 +5 +$NUM" -E "8388608 +5 +$NUM" \
		"$B/ib_write_bw" -- "$B/ib_write_bw" "$ip" -a -n 5

	lab_pair "write_lat.$p" -t 120 -e "$LAT_CLIENT_ROW" \
		-e 'half of the ping-pong round trip' -e 't_min\[usec\]' \
		-e ' # server: t_min ' -E "$LAT_CLIENT_ROW" \
		"$B/ib_write_lat" -- "$B/ib_write_lat" "$ip" -n 500

	# no sleep is ever needed: the client waits for a late server
	lab_pair "client_first.$p" -t 120 --delay 0 \
		-e "no rdmabench server at $ip port 18600 yet" -e "$BW_CLIENT_ROW" \
		bash -c "sleep 5; exec $B/ib_write_bw -p 18600" -- \
		"$B/ib_write_bw" -p 18600 "$ip" -n 200
done

if lab_have rxe; then
	ip=$LAB_RXE_IP
	# nobody serves: non-zero (5) within the timeout, naming the address
	start=$SECONDS
	lab_case unreachable -t 60 -r 5 \
		-e "could not reach an rdmabench server at 198\.18\.0\.99 port 18515 within 3 s" \
		"$B/ib_write_bw" --connect-timeout 3 198.18.0.99
	took=$((SECONDS - start))
	[ "$took" -le 15 ] && lab_pass unreachable.bounded "${took} s" ||
		lab_fail unreachable.bounded "took ${took} s for a 3 s timeout"

	lab_case no_server_on_port -t 60 -r 5 -e "port 18999" \
		"$B/ib_write_lat" --connect-timeout 2 -p 18999 "$ip"

	# -R (rdma_cm): -d names a device that does not own the IP: refused,
	# exit 2 (the default --oob auto takes -d as the data device instead)
	if lab_have siw; then
		lab_pair wrong_device -t 60 -r 2 -R 124 -g 1 \
			-e "-d $LAB_SIW_DEV was given, but the connection runs over $LAB_RXE_DEV" \
			"$B/ib_write_bw" -R -p 18601 -- \
			"$B/ib_write_bw" -R -p 18601 -d "$LAB_SIW_DEV" "$ip"
	fi

	# -D 1 about as short as one round of posts (8 x 8 MiB, ~2 s on
	# rxe): when no window forms, the figures are the whole run's, with a
	# warning; either way a real row (it printed 0.00 and an unset count)
	lab_pair duration_short -t 60 \
		-e "8388608 +[1-9][0-9]{0,6} +$NUM +[0-9]*[1-9][0-9]*\.[0-9]+" \
		"$B/ib_write_bw" -p 18604 -- \
		"$B/ib_write_bw" -p 18604 "$ip" -s 8M -t 8 -D 1

	# the server dies mid-run: the client stops with exit 5, never hangs
	lab_pair server_killed -t 90 -r 5 -R 137 -g 1 \
		-e 'error: .*(the server disconnected|server: disconnected)' \
		timeout -s KILL 6 "$B/ib_write_bw" -p 18602 -- \
		"$B/ib_write_bw" -p 18602 "$ip" -n 100000000 --timeout 10
	# and the same for a client that dies: the server stops, exit 5
	lab_pair client_killed -t 90 -r 137 -R 5 -g 30 \
		-E 'error: the client disconnected during the run' \
		"$B/ib_write_bw" -p 18603 --timeout 10 -- \
		timeout -s KILL 6 "$B/ib_write_bw" -p 18603 "$ip" -n 100000000
fi

# usage errors: exit 2, naming what was wrong
lab_case usage.unknown_flag -r 2 -e "unknown option '--bogus'" \
	"$B/ib_write_bw" --bogus
# (-p 0 is perftest's too: a server picks a port, a client is told to
# give it: qpattr.port0*; here a value past what perftest's parser takes)
lab_case usage.port_range -r 2 -e "-p/--port 70000000000: must be in" \
	"$B/ib_write_bw" -p 70000000000 1.2.3.4
lab_case usage.bad_size -r 2 -e "-s/--size '12Q'" "$B/ib_write_lat" -s 12Q
lab_case usage.help -e '--connect-timeout' -e 'Exit codes' "$B/ib_write_bw" -h
lab_case perftest_flags_accepted -t 120 -e "$BW_CLIENT_ROW" \
	scripts/loopback.sh ib_write_bw "${LAB_RXE_IP:-198.18.0.1}" -R -F -x 1 \
	-n 200 --report_gbits

