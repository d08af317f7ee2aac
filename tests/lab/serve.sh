# shellcheck shell=bash
# tests/lab/serve.sh - sourced by lab cases (tests/lab/cases/*.sh):
#   serve_until_done PORT ARGS...
#       runs "$B/ib_write_bw -p PORT --persistent ARGS" until the clients
#       touch /tmp/clients-done.PORT (at most 100 s), then stops it with
#       SIGTERM; returns the server's exit status (1 if it died before).
#       Its pid is in /tmp/serve.PORT.pid meanwhile.

serve_until_done() {
	local port=$1 pid
	shift
	rm -f "/tmp/clients-done.$port"
	"$B/ib_write_bw" -p "$port" --persistent "$@" &
	pid=$!
	echo $pid > "/tmp/serve.$port.pid"
	for _ in $(seq 1000); do
		[ -e "/tmp/clients-done.$port" ] && break
		lab_sleep 0.1
	done
	lab_sleep 1
	kill -0 $pid || { echo "serve_until_done: the server died"; return 1; }
	kill -TERM $pid
	wait $pid
}
