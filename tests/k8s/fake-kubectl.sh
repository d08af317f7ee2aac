#!/bin/bash
# tests/k8s/fake-kubectl.sh - "kubectl" for the offline tests of
# scripts/k8s/run-pair.sh and ring.sh (KUBECTL=this). It answers exactly the
# calls those scripts make; every call is appended to $FAKE_KUBECTL_DIR/calls.
#   kustomize DIR          kubectl-kustomize.sh (the real kustomize)
#   apply -f FILE          records it; its Jobs are run by fake-kubelet.mjs
#   wait deployment ...    0, or 1 with FAKE_SCENARIO=notready
#   get job J -o jsonpath  "Complete " / "Failed BackoffLimitExceeded "
#                          (never done with FAKE_SCENARIO=stuck)
#   get pod(s) ...         names, termination messages, exit codes
#   logs ...               the containers' output
#   delete ...             recorded
#   get secret NAME        exists when $FAKE_KUBECTL_DIR/secrets/NAME does
#                          (FAKE_SECRET=1: rdmabench-auth exists from the start)
#   create secret generic NAME --from-file=key=FILE   copies FILE there
set -u
D=${FAKE_KUBECTL_DIR:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
echo "kubectl $*" >> "$D/calls"
args=()
while [ $# -gt 0 ]; do
	case $1 in -n) shift 2 ;; *) args+=("$1"); shift ;; esac
done
set -- "${args[@]}"
jp() { local a; for a; do case $a in jsonpath=*) echo "${a#jsonpath=}" ;; esac; done; }
opt() { local want=$1 a; shift; while [ $# -gt 0 ]; do [ "$1" = "$want" ] && { echo "$2"; return; }; shift; done; }
pods_with() { # LABEL=VALUE
	local f
	for f in "$D"/pods/*.labels; do
		[ -e "$f" ] || continue
		grep -qx -- "$1" "$f" && basename "$f" .labels
	done
}
mkdir -p "$D/secrets"
[ "${FAKE_SECRET:-}" = 1 ] && [ ! -e "$D/secrets/rdmabench-auth" ] && echo preset > "$D/secrets/rdmabench-auth"
case $1 in
create)
	[ "$2 $3" = "secret generic" ] || { echo "fake kubectl: create $2 $3?" >&2; exit 1; }
	[ -e "$D/secrets/$4" ] && { echo "Error from server (AlreadyExists): secrets \"$4\" already exists" >&2; exit 1; }
	f=$5; [[ $f == --from-file=key=* ]] || { echo "fake kubectl: create secret: $f?" >&2; exit 1; }
	cp "${f#--from-file=key=}" "$D/secrets/$4" || exit 1
	echo "secret/$4 created"
	;;
kustomize) exec "$HERE/kubectl-kustomize.sh" "$@" ;;
apply)
	f=$(opt -f "$@")
	cat "$f" >> "$D/applied.yaml"
	echo "---" >> "$D/applied.yaml"
	if grep -q '^kind: Job$' "$f"; then node "$HERE/fake-kubelet.mjs" "$D" "$f" || exit 1; fi
	echo "applied $(grep -c '^kind:' "$f") object(s)"
	;;
wait) [ "${FAKE_SCENARIO:-}" = notready ] && { echo "error: timed out waiting for the condition" >&2; exit 1; }; echo "condition met" ;;
delete) exit 0 ;;
get)
	what=$2 name=${3:-}
	path=$(jp "$@")
	case $what in
	job)
		[ "${FAKE_SCENARIO:-}" = stuck ] && exit 0
		st=$(cat "$D/jobs/$name" 2>/dev/null)
		case $st in Complete) echo -n "Complete  " ;; Failed) echo -n "Failed BackoffLimitExceeded " ;; esac
		;;
	pods)
		sel=$(opt -l "$@")
		case $path in
		'{.items[-1:].metadata.name}') pods_with "$sel" | tail -n 1 | tr -d '\n' ;;
		*'.metadata.name'*) pods_with "$sel" ;;
		'') echo "NAME READY STATUS"; pods_with "$sel" ;;
		*) exit 1 ;;
		esac
		;;
	pod)
		p=$D/pods/$name
		[ "${FAKE_SCENARIO:-}" = stuck ] && exit 0   # still running
		case $path in
		*initContainerStatuses*) cat "$p.init.msg" 2>/dev/null ;;
		*exitCode*) [ -e "$p.msg" ] && tr -d '\n' < "$p.rc" ;;
		*containerStatuses*) cat "$p.msg" 2>/dev/null ;;
		*) exit 1 ;;
		esac
		;;
	events) echo "no events" ;;
	secret)
		[ -e "$D/secrets/$name" ] || { echo "Error from server (NotFound): secrets \"$name\" not found" >&2; exit 1; }
		echo "secret/$name"
		;;
	*) echo "fake kubectl: get $what?" >&2; exit 1 ;;
	esac
	;;
logs)
	case $2 in
	deployment/*) echo "fake server log" ;;
	*)
		c=$(opt -c "$@")
		p=$D/pods/$2
		if [ "$c" = doctor ]; then cat "$p.init.log" 2>/dev/null
		elif [ -n "$c" ]; then cat "$p.log" 2>/dev/null
		else sed "s|^|[pod/$2/ring] |" "$p.log" 2>/dev/null
		fi ;;
	esac
	;;
*) echo "fake kubectl: $1?" >&2; exit 1 ;;
esac
