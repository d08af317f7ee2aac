# tests/lab/cases/peertext.sh - sourced by tests/lab/all.sh in the lab
# guest: a peer's text reaches the server's log cleaned (issue 14, log
# injection). A HELLO whose tool name holds terminal escapes and a forged
# "verdict: pass" line is logged as printable \xNN on the one line; the
# --persistent server then serves a good client. --oob tcp (rdma_cm
# carries the same HELLO through the same decoder).
# shellcheck shell=bash

peertext_clients() { # PORT
	local port=$1 rc=0 forged
	forged=$(printf 'x\033[2J\033[31m\nverdict: pass')
	"$B/tests/tools/wire_inject" -p "$port" --oob tcp --tool "$forged" \
		hello 127.0.0.1
	[ $? = 3 ] || { echo "peertext: the HELLO was not taken"; rc=1; }
	"$B/ib_write_bw" -p "$port" --oob tcp localhost -n 100 || rc=1
	touch "/tmp/clients-done.$port"
	return $rc
}

source tests/lab/serve.sh

if ! lab_have rxe; then
	lab_skip peertext "no rxe device"
else
	esc=$'\033' nl_verdict=$'\nverdict: pass'
	lab_pair peertext.tool -t 90 -R 0 -g 30 -e 'BW average' \
		--ready 'waiting for a client' \
		-E 'runs x\\x1b\[2J\\x1b\[31m\\x0averdict: pass' \
		-N "$esc" -N "$nl_verdict" \
		serve_until_done 18650 --oob tcp -- peertext_clients 18650
fi
