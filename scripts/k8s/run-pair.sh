#!/bin/bash
# scripts/k8s/run-pair.sh - one rdmabench test between two Kubernetes nodes,
# with kubectl only: renders deploy/ for the two nodes, applies it, waits
# with a deadline, collects the verdict and the result JSON, cleans up and
# exits with the verdict's exit code.
#
# Usage: scripts/k8s/run-pair.sh [OPTIONS] NODE_A NODE_B [TEST_FLAGS...]
#   NODE_A runs the server (a Deployment: ib_write_bw --persistent --oob tcp
#   --netdev net1, Ready once its control port listens), NODE_B the client
#   Job (ib_doctor first, then the test against the headless Service).
#   TEST_FLAGS replace the manifests' default test flags (-s 1M -D 10), e.g.
#     scripts/k8s/run-pair.sh gpu-node-1 gpu-node-2 -s 1M -D 10 -q 4 --expect-gbps 180
#
# Options:
#   -n, --namespace NS     namespace (default: kubectl's current one)
#   -o, --overlay NAME     base (default), sriov, hostdev, gpu, sriov-gpu,
#                          nonroot (deploy/overlays/NAME), or a directory
#                          holding a kustomization of your own
#   -t, --tool TOOL        ib_write_bw (default), ib_read_bw, ib_send_bw,
#                          ib_atomic_bw, ib_*_lat
#       --image IMAGE      the image, e.g. registry.example.com/rdmabench:0.2.0
#                          (nonroot: the SETCAP=1 image, a tag ...-setcap)
#       --network NAME     use this existing NetworkAttachmentDefinition
#                          (e.g. made by the Network Operator) instead of
#                          deploy/'s rdmabench-net, which is then not applied
#       --timeout SEC      deadline for the whole run: server Ready, client
#                          done (default 900; also the Job's activeDeadlineSeconds)
#       --results DIR      where the files go (default
#                          results/k8s-<UTC>-<NODE_A>-<NODE_B>)
#       --keep             leave the objects in the cluster (to debug)
#       --render           print the manifests for these nodes and exit
#       --allow-same-node  NODE_A may equal NODE_B (loopback through the NIC)
#   -h, --help
#
# The pods take the control channel's key from the Secret rdmabench-auth
# (deploy/base: --auth-key-file, a NetworkPolicy, docs/trust.md):
# when the namespace has none, one is made with a random key, and kept.
#
# Files in the results folder: verdict.json (the client's termination
# message: verdict, exit_code, per-size Gb/s, failing gates), result.json
# (the full result document, schema results/schema/), client.log,
# doctor.json + doctor.log (the client's ib_doctor), server.log,
# manifests.yaml (what was applied), and on failure pods.txt/events.txt.
#
# Exit status: the verdict's exit code (0 pass, 1 runtime error, 2 usage,
# 3 below expectation, 4 data corruption, 5 peer lost or timed out); 5 too
# when the deadline passed before the client finished; 1 when the server
# never became Ready or the client left no verdict; 2 for bad usage here.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
ROOT=$(cd "$HERE/../.." && pwd -P)
ENTRY=$ROOT/deploy/entrypoint.sh
KUBECTL=${KUBECTL:-kubectl}
# shellcheck source=scripts/k8s/lib.sh
. "$HERE/lib.sh"

usage() { sed -n '2,/^set -uo/{/^#/s/^# \{0,1\}//p}' "$0"; }
die() { echo "run-pair: $*" >&2; exit 2; }
log() { echo "[run-pair] $*" >&2; }

NS='' OVERLAY=base TOOL=ib_write_bw IMAGE='' NETWORK='' TIMEOUT=900 RESULTS=''
KEEP=0 RENDER=0 SAME=0
while [ $# -gt 0 ]; do
	case $1 in
	-n | --namespace) NS=${2:?}; shift 2 ;;
	-o | --overlay) OVERLAY=${2:?}; shift 2 ;;
	-t | --tool) TOOL=${2:?}; shift 2 ;;
	--image) IMAGE=${2:?}; shift 2 ;;
	--network) NETWORK=${2:?}; shift 2 ;;
	--timeout) TIMEOUT=${2:?}; shift 2 ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--render) RENDER=1; shift ;;
	--allow-same-node) SAME=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option '$1' (--help lists them)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { usage >&2; exit 2; }
NODE_A=$1 NODE_B=$2
shift 2
TEST_ARGS=("$@")
[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a number of seconds"
[[ $TOOL =~ ^ib_(write|read|send|atomic)_(bw|lat)$ ]] || die "unknown tool '$TOOL'"
[ "$NODE_A" != "$NODE_B" ] || [ "$SAME" = 1 ] ||
	die "NODE_A and NODE_B are both '$NODE_A' (--allow-same-node to test a loopback)"
for a in "${TEST_ARGS[@]}"; do
	case $a in
	*[[:space:]]*) die "test flag '$a' has a space (RDMABENCH_ARGS is split on spaces)" ;;
	--json | --out_json* | --junit | --prom) die "$a: the entrypoint writes the result JSON itself" ;;
	esac
done
ODIR=$(k8s_overlay "$OVERLAY") || exit 2
KNS=()
[ -n "$NS" ] && KNS=(-n "$NS")
k() { "$KUBECTL" "${KNS[@]}" "$@"; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rdmabench-k8s.XXXXXX") || exit 1
APPLIED=
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	if [ -n "$APPLIED" ] && [ "$KEEP" = 0 ]; then
		log "cleaning up"
		k delete -f "$WORK/manifests.yaml" --ignore-not-found --wait=false >/dev/null 2>&1 ||
			log "cleanup failed: kubectl delete -f $RESULTS/manifests.yaml"
	elif [ -n "$APPLIED" ]; then
		log "--keep: the objects stay (kubectl ${KNS[*]} delete -f $RESULTS/manifests.yaml)"
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- render
{
	echo "apiVersion: kustomize.config.k8s.io/v1beta1"
	echo "kind: Kustomization"
	echo "resources:"
	echo "  - $(realpath --relative-to="$WORK" "$ODIR")"
	[ -z "$IMAGE" ] || k8s_images "$IMAGE"
	echo "patches:"
	for w in "Deployment rdmabench-server $NODE_A server" "Job rdmabench-client $NODE_B client"; do
		read -r kind name node arg0 <<<"$w"
		echo "  - target:"
		echo "      kind: $kind"
		echo "      name: $name"
		echo "    patch: |-"
		echo "      - op: add"
		echo "        path: /spec/template/spec/nodeSelector"
		echo "        value:"
		echo "          kubernetes.io/hostname: $(k8s_q "$node")"
		echo "      - op: test"
		echo "        path: /spec/template/spec/containers/0/args/0"
		echo "        value: $arg0"
		echo "      - op: replace"
		echo "        path: /spec/template/spec/containers/0/args/1"
		echo "        value: $TOOL"
		if [ -n "$NETWORK" ]; then
			echo "      - op: replace"
			echo "        path: /spec/template/metadata/annotations/k8s.v1.cni.cncf.io~1networks"
			echo "        value: $(k8s_q "$NETWORK")"
		fi
		if [ "$kind" = Job ]; then
			echo "      - op: replace"
			echo "        path: /spec/activeDeadlineSeconds"
			echo "        value: $TIMEOUT"
			if [ ${#TEST_ARGS[@]} -gt 0 ]; then
				echo "      - op: test"
				echo "        path: /spec/template/spec/containers/0/env/0/name"
				echo "        value: RDMABENCH_ARGS"
				echo "      - op: replace"
				echo "        path: /spec/template/spec/containers/0/env/0/value"
				echo "        value: $(k8s_q "${TEST_ARGS[*]}")"
			fi
		fi
	done
} > "$WORK/kustomization.yaml"
"$KUBECTL" kustomize "$WORK" > "$WORK/all.yaml" 2> "$WORK/kustomize.err" ||
	{ cat "$WORK/kustomize.err" >&2; die "kubectl kustomize failed (overlay $ODIR)"; }
# split into documents: the client Job apart; our NAD dropped for --network
awk -v drop="$([ -n "$NETWORK" ] && echo NetworkAttachmentDefinition)" -v infra="$WORK/infra.yaml" \
	-v job="$WORK/job.yaml" '
	function flush(   f) {
		if (doc != "" && kind != drop) {
			f = (kind == "Job") ? job : infra
			printf "%s%s", (n[f]++ ? "---\n" : ""), doc > f
		}
		doc = ""; kind = ""
	}
	/^---$/ { flush(); next }
	/^kind: / { kind = $2 }
	{ doc = doc $0 "\n" }
	END { flush() }' "$WORK/all.yaml"
if [ ! -s "$WORK/job.yaml" ] || [ ! -s "$WORK/infra.yaml" ]; then
	die "the rendered overlay has no client Job or no server"
fi
{ cat "$WORK/infra.yaml"; echo "---"; cat "$WORK/job.yaml"; } > "$WORK/manifests.yaml"
k8s_check_setcap "$WORK/manifests.yaml"
if [ "$RENDER" = 1 ]; then
	cat "$WORK/manifests.yaml"
	exit 0
fi

RESULTS=${RESULTS:-results/k8s-$(date -u +%Y%m%dT%H%M%SZ)-$NODE_A-$NODE_B}
mkdir -p "$RESULTS" || die "cannot create $RESULTS"
cp "$WORK/manifests.yaml" "$RESULTS/manifests.yaml"
START=$SECONDS
left() { local l=$((TIMEOUT - (SECONDS - START))); [ "$l" -gt 0 ] && echo "$l" || echo 1; }

# the JSON value at PATH of a one-document JSON file ("" when absent)
json_get() { # FILE PATH
	[ -s "$1" ] || return 0
	sh "$ENTRY" flatten < "$1" | awk -F '\t' -v p="$2" '$1 == p { v = $2; gsub(/^"|"$/, "", v); print v; exit }'
}

finish() { # RC WHY: write a verdict of our own when the client left none
	if [ ! -s "$RESULTS/verdict.json" ]; then
		printf '{"rdmabench_summary":1,"verdict":"error","exit_code":%d,"error":%s}\n' \
			"$1" "$(k8s_q "$2")" > "$RESULTS/verdict.json"
	fi
	k get pods -l app.kubernetes.io/name=rdmabench -o wide > "$RESULTS/pods.txt" 2>&1
	k get events --sort-by=.lastTimestamp > "$RESULTS/events.txt" 2>&1
	log "verdict: error, exit $1: $2 (files in $RESULTS)"
	exit "$1"
}

# ---------------------------------------------------------------- apply
log "server on $NODE_A, client on $NODE_B, $TOOL ${TEST_ARGS[*]:-(default test flags)}; results in $RESULTS"
k delete job rdmabench-client --ignore-not-found --wait=true >/dev/null 2>&1
APPLIED=1
k8s_auth_secret "$WORK/manifests.yaml" "$WORK" || finish 1 "no Secret rdmabench-auth for the pods' key"
k apply -f "$WORK/infra.yaml" >&2 || finish 1 "kubectl apply of the server failed"
log "waiting for the server to be Ready (readiness: TCP connect to its control port)"
if ! k wait --for=condition=Available deployment/rdmabench-server --timeout="$(left)s" >&2; then
	k logs deployment/rdmabench-server --all-containers --prefix > "$RESULTS/server.log" 2>&1
	msg=$(k get pods -l app.kubernetes.io/component=server \
		-o jsonpath='{range .items[*]}{range .status.initContainerStatuses[*]}{.lastState.terminated.message}{.state.terminated.message}{end}{end}' 2>/dev/null)
	finish 1 "the server on $NODE_A did not become Ready within ${TIMEOUT}s${msg:+; its ib_doctor said: $msg}"
fi
k apply -f "$WORK/job.yaml" >&2 || finish 1 "kubectl apply of the client Job failed"
log "waiting for the client Job (deadline $(left)s)"
state=
while :; do
	conds=$(k get job rdmabench-client \
		-o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{.reason}{" "}{end}' 2>/dev/null)
	case " $conds " in
	*" Complete "*) state=complete; break ;;
	*" Failed "*) state=failed; break ;;
	esac
	[ $((SECONDS - START)) -ge "$TIMEOUT" ] && { state=deadline; break; }
	sleep 2
done
log "client Job: $state${conds:+ ($conds)}"
[ "$state" = deadline ] && k delete job rdmabench-client --wait=false >/dev/null 2>&1

# ---------------------------------------------------------------- collect
# the newest pod: a disrupted one was replaced (podFailurePolicy)
pod=$(k get pods -l job-name=rdmabench-client --sort-by=.metadata.creationTimestamp \
	-o jsonpath='{.items[-1:].metadata.name}' 2>/dev/null)
k logs deployment/rdmabench-server -c server > "$RESULTS/server.log" 2>&1
[ -n "$pod" ] || finish 1 "the client Job made no pod ($state)"
k logs "$pod" -c doctor > "$RESULTS/doctor.log" 2>&1
k logs "$pod" -c client > "$RESULTS/client.log" 2>&1
k get pod "$pod" -o jsonpath='{.status.initContainerStatuses[?(@.name=="doctor")].state.terminated.message}' \
	> "$RESULTS/doctor.json" 2>/dev/null
k get pod "$pod" -o jsonpath='{.status.containerStatuses[?(@.name=="client")].state.terminated.message}' \
	> "$RESULTS/verdict.json" 2>/dev/null
code=$(k get pod "$pod" -o jsonpath='{.status.containerStatuses[?(@.name=="client")].state.terminated.exitCode}' 2>/dev/null)
sed -n '/^===== rdmabench result json begin =====$/,/^===== rdmabench result json end =====$/p' \
	"$RESULTS/client.log" | sed '1d;$d' > "$RESULTS/result.json"
[ -s "$RESULTS/result.json" ] || rm -f "$RESULTS/result.json"
[ -s "$RESULTS/doctor.json" ] || rm -f "$RESULTS/doctor.json"
# a termination message that is not our summary (FallbackToLogsOnError:
# the log's tail) is kept apart
if [ -s "$RESULTS/verdict.json" ] && ! grep -q '^{"rdmabench_summary":1,' "$RESULTS/verdict.json"; then
	mv "$RESULTS/verdict.json" "$RESULTS/termination-message.txt"
fi

if [ ! -s "$RESULTS/verdict.json" ]; then
	case $state in
	deadline) finish 5 "the client did not finish within ${TIMEOUT}s (client.log: how far it got)" ;;
	failed) [[ $conds == *DeadlineExceeded* ]] && finish 5 "the client Job hit its activeDeadlineSeconds (${TIMEOUT}s)"
		dm=$(json_get "$RESULTS/doctor.json" verdict)
		[ "$dm" = fail ] && finish 7 "ib_doctor failed on $NODE_B: $(cat "$RESULTS/doctor.json")"
		finish "${code:-1}" "the client failed without a verdict (container exit ${code:-unknown}; client.log)" ;;
	*) finish "${code:-1}" "the client left no verdict (container exit ${code:-unknown})" ;;
	esac
fi
verdict=$(json_get "$RESULTS/verdict.json" verdict)
rc=$(json_get "$RESULTS/verdict.json" exit_code)
[[ $rc =~ ^[0-9]+$ ]] || rc=${code:-1}
if [ -n "$code" ] && [ "$code" != "$rc" ]; then
	log "note: the container exited $code, the verdict says $rc"
fi
# the verdict, readable: one line per size, then the failing gates
sh "$ENTRY" flatten < "$RESULTS/verdict.json" | awk -F '\t' '
	$1 ~ /^rows\.[0-9]+\./ { split($1, p, "."); r[p[2]] = r[p[2]] " " p[3] "=" $2; if (p[2] + 1 > n) n = p[2] + 1 }
	function str(v) { if (v ~ /^".*"$/) { v = substr(v, 2, length(v) - 2); gsub(/\\"/, "\"", v) } return v }
	$1 ~ /^failed_gates\./ { g[ng++] = "  gate failed: " str($2) }
	$1 == "error" && $2 != "null" { e = "  error: " str($2) }
	END { for (i = 0; i < n; i++) print " " r[i]; for (i = 0; i < ng; i++) print g[i]; if (e != "") print e }' >&2
log "verdict: $verdict, exit $rc (client $NODE_B, server $NODE_A; files in $RESULTS)"
exit "$rc"
