#!/bin/sh
# tests/k8s/fake-tool.sh - stands in for ib_write_bw (and ib_doctor) in the
# offline tests of deploy/entrypoint.sh: linked as the tool's name in a
# folder put first in PATH.
#   client (an argument that is not a flag): copies FAKE_RESULT (a result
#     JSON; "none": no file) to the --json path (-: stdout, the text then on
#     stderr, as the tools do), writes its --summary as a bench would
#     (FAKE_SUMMARY_OF: the build's tests/tools/summary_of, the same
#     C code), prints FAKE_SAY, exits FAKE_RC (default: the result's
#     exit_code, else 0)
#   server (no address): prints a line, stays FAKE_SERVER_SECONDS (0), exits 0
#   ib_doctor: prints a report line FAKE_DOCTOR_LINE, copies
#     FAKE_DOCTOR_SUMMARY (a file; unset: none written) to its --summary
#     path, exits FAKE_RC
set -u
json='' summary='' addr='' prev=''
for a in "$@"; do
	case $prev in
	--json) json=$a ;;
	--summary) summary=$a ;;
	-s | -D | -n | -p | --oob | --netdev | --connect-timeout | -q | --expect-gbps) ;;
	*) case $a in -*) ;; *) [ -z "$addr" ] && addr=$a ;; esac ;;
	esac
	prev=$a
done
# --json -: the document is stdout, every line of text goes to stderr
[ "$json" = - ] && exec 3>&1 1>&2
echo "fake $(basename "$0"): $*"
if [ "$(basename "$0")" = ib_doctor ]; then
	echo "  ${FAKE_DOCTOR_LINE:-PASS   6    memlock       host            ok}"
	[ -n "$summary" ] && [ -n "${FAKE_DOCTOR_SUMMARY:-}" ] &&
		cp "$FAKE_DOCTOR_SUMMARY" "$summary"
	exit "${FAKE_RC:-0}"
fi
if [ -z "$addr" ]; then
	echo "server: serving"
	sleep "${FAKE_SERVER_SECONDS:-0}"
	exit 0
fi
rc=${FAKE_RC:-}
if [ "${FAKE_RESULT:-none}" != none ]; then
	case $json in
	'') ;;
	-) cat "$FAKE_RESULT" >&3 ;;
	*) cp "$FAKE_RESULT" "$json" ;;
	esac
	[ -n "$rc" ] || rc=$(sed -n 's/^  "exit_code": \([0-9]*\),*$/\1/p' "$FAKE_RESULT")
	if [ -n "$summary" ]; then
		"${FAKE_SUMMARY_OF:?set it to tests/tools/summary_of of the build}" \
			"$FAKE_RESULT" "$addr" > "$summary" || exit 1
	fi
fi
echo "${FAKE_SAY:-  65536  200  1.00  1.00  0.01}"
exit "${rc:-0}"
