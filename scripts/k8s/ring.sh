#!/bin/bash
# scripts/k8s/ring.sh - many nodes at once, on Kubernetes itself: an Indexed
# Job with one pod per node, where pod i serves and tests its link to pod
# (i + STRIDE) mod N (a ring: every node sends once and receives once, all
# links at the same time), or pairs from a list file; then, with --run,
# the per-link verdicts are collected and scripts/k8s/collect.py makes one
# matrix report (which link is slow) and one exit status.
#
# Usage: scripts/k8s/ring.sh [OPTIONS] NODE... [-- TEST_FLAGS...]
#        scripts/k8s/ring.sh [OPTIONS] --nodes-file FILE [-- TEST_FLAGS...]
#        scripts/k8s/ring.sh [OPTIONS] --pairs FILE [-- TEST_FLAGS...]
#   Without --run: print the manifests (kubectl apply -f - them yourself).
#   --nodes-file: one node name a line (# comments); --pairs: "NODE NODE" a
#   line, each pair a 2-pod Indexed Job of its own that tests both
#   directions (pairs sharing a node run at the same time: put only
#   disjoint pairs in one file, or run one file per round).
#   TEST_FLAGS: the client's test flags (default -s 1M -D 10), e.g.
#     scripts/k8s/ring.sh --run $(kubectl get nodes -l pool=gpu -o name | cut -d/ -f2) -- -D 10 --expect-gbps 180
#
# How a pod finds its peer: the Job's pods get stable names through a
# headless Service and "subdomain": pod i is <job>-i.<service>. Each pod
# starts a one-shot server (--oob tcp --netdev net1) that serves its one
# predecessor, runs its client against <job>-((i+STRIDE) mod N).<service>
# (retrying until the peer listens), writes its verdict as termination
# message, waits until its own server is done, and exits 0 (the verdicts,
# not the pods' exit codes, carry the results: one bad link must not make
# the Job stop the others). Which node gets which index is the scheduler's
# choice (one pod per node: node affinity + pod anti-affinity); the report
# names each link by its nodes. --stride K pairs other nodes: two runs with
# strides 1 and 2 tell a bad node (slow in every link it is in) from a bad
# link.
#
# The manifests come from deploy/ (one source with run-pair.sh): each Job
# is the overlay's client Job (deploy/base/client-job.yaml) made Indexed,
# renamed and pointed at its nodes by JSON patches, the Service is its
# headless Service renamed; "kubectl kustomize" renders them (KUBECTL names
# another kubectl), so rendering needs kubectl too, not a cluster.
#
# The key: every pod mounts the Secret rdmabench-auth (deploy/base), its
# client and its one-shot server run with --auth-key-file on it (the
# server with --allow-foreign-gid, safe only with the key). --run makes
# the Secret with a random key when the namespace has none (and keeps
# it); without --run, make it yourself (docs/kubernetes.md).
#
# Options:
#   --run                apply, wait, collect, report; exit with collect.py's status
#   -n, --namespace NS   namespace (default: kubectl's current one)
#   -t, --tool TOOL      ib_write_bw (default), ib_read_bw, ib_send_bw, ...
#   -o, --overlay NAME   base (default), gpu, nonroot, ... (deploy/overlays/NAME),
#                        or a directory holding a kustomization of your own:
#                        its client Job's pod spec; its other objects (the
#                        server, the NAD) are not used; its client must take
#                        the key (--auth-key-file, as deploy/base's): the
#                        ring's servers take the same
#       --image IMAGE    image (default the overlay's: rdmabench:0.2.0;
#                        nonroot wants a ...-setcap tag)
#       --network NAME   NetworkAttachmentDefinition the pods attach
#                        (default rdmabench-net: kubectl apply -f
#                        deploy/base/network-macvlan.yaml first, or yours)
#       --netdev IF      the RDMA interface in the pod (default net1)
#       --rdma-resource NAME   rdma/rdma_shared_device_a (default),
#                        nvidia.com/sriov_resource, nvidia.com/hostdev, ...
#                        (in place of the base's rdma/rdma_shared_device_a)
#       --gpu            one nvidia.com/gpu per pod and --use_cuda
#                        (deploy/components/gpu)
#       --cpu N, --memory Q    per pod, requests == limits (default 4, 4Gi)
#       --stride K       pod i tests pod i+K (default 1)
#       --name NAME      Job and Service name (default rdmabench-ring)
#       --timeout SEC    deadline of the run (default 1800; the Jobs'
#                        activeDeadlineSeconds)
#       --results DIR    (default results/ring-<UTC>)
#       --keep           leave the objects in the cluster after --run
#       --slow-fraction F, --fail-slow   passed on to collect.py
#   -h, --help
# Exit status (--run): collect.py's (0 every link passed, 3 a link below
# expectation, 4 corruption, 1/5 errors); 2 bad usage, or an overlay the
# ring cannot use (kubectl kustomize's error is shown).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
ROOT=$(cd "$HERE/../.." && pwd -P)
KUBECTL=${KUBECTL:-kubectl}
# shellcheck source=scripts/k8s/lib.sh
. "$HERE/lib.sh"
usage() { sed -n '2,/^set -uo/{/^#/s/^# \{0,1\}//p}' "$0"; }
die() { echo "ring: $*" >&2; exit 2; }
log() { echo "[ring] $*" >&2; }

RUN=0 NS='' TOOL=ib_write_bw IMAGE='' NETWORK=rdmabench-net NETDEV=net1 OVERLAY=base
RES0=rdma/rdma_shared_device_a RES=rdma/rdma_shared_device_a GPU=0 CPU=4 MEM=4Gi STRIDE=1 NAME=rdmabench-ring
TIMEOUT=1800 RESULTS='' KEEP=0 NODES=() PAIRS_FILE='' COLLECT_ARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	--run) RUN=1; shift ;;
	-n | --namespace) NS=${2:?}; shift 2 ;;
	-t | --tool) TOOL=${2:?}; shift 2 ;;
	-o | --overlay) OVERLAY=${2:?}; shift 2 ;;
	--image) IMAGE=${2:?}; shift 2 ;;
	--network) NETWORK=${2:?}; shift 2 ;;
	--netdev) NETDEV=${2:?}; shift 2 ;;
	--rdma-resource) RES=${2:?}; shift 2 ;;
	--gpu) GPU=1; shift ;;
	--cpu) CPU=${2:?}; shift 2 ;;
	--memory) MEM=${2:?}; shift 2 ;;
	--stride) STRIDE=${2:?}; shift 2 ;;
	--name) NAME=${2:?}; shift 2 ;;
	--timeout) TIMEOUT=${2:?}; shift 2 ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--slow-fraction) COLLECT_ARGS+=(--slow-fraction "${2:?}"); shift 2 ;;
	--fail-slow) COLLECT_ARGS+=(--fail-slow); shift ;;
	--nodes-file)
		[ -r "${2:?}" ] || die "cannot read $2"
		while read -r n _; do
			[[ -z $n || $n == \#* ]] || NODES+=("$n")
		done < "$2"
		shift 2 ;;
	--pairs) PAIRS_FILE=${2:?}; [ -r "$PAIRS_FILE" ] || die "cannot read $PAIRS_FILE"; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option '$1' (--help lists them)" ;;
	*) NODES+=("$1"); shift ;;
	esac
done
TEST_ARGS=("$@")
[ ${#TEST_ARGS[@]} -gt 0 ] || TEST_ARGS=(-s 1M -D 10)
[[ $TOOL =~ ^ib_(write|read|send|atomic)_(bw|lat)$ ]] || die "unknown tool '$TOOL'"
[[ $STRIDE =~ ^[1-9][0-9]*$ ]] || die "--stride must be a positive number"
[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a number of seconds"
[[ $CPU =~ ^[1-9][0-9]*$ ]] || die "--cpu must be a whole number of CPUs (Guaranteed QoS, exclusive CPUs)"
[[ $NAME =~ ^[a-z]([-a-z0-9]{0,40}[a-z0-9])?$ ]] || die "--name must be a DNS label of at most 42 characters"
for a in "${TEST_ARGS[@]}"; do
	[[ $a == *[[:space:]]* ]] && die "test flag '$a' has a space (RDMABENCH_ARGS is split on spaces)"
done
ODIR=$(k8s_overlay "$OVERLAY") || exit 2

# jobs: "JOBNAME NODE NODE..." lines
JOBS=()
if [ -n "$PAIRS_FILE" ]; then
	[ ${#NODES[@]} = 0 ] || die "give nodes or --pairs, not both"
	k=0
	while read -r a b extra; do
		[[ -z $a || $a == \#* ]] && continue
		if [ -z "$b" ] || [ -n "$extra" ]; then
			die "$PAIRS_FILE: '$a $b $extra': want two node names a line"
		fi
		[ "$a" != "$b" ] || die "$PAIRS_FILE: a pair of '$a' with itself"
		JOBS+=("$NAME-p$k $a $b")
		k=$((k + 1))
	done < "$PAIRS_FILE"
	[ ${#JOBS[@]} -gt 0 ] || die "$PAIRS_FILE has no pairs"
else
	[ ${#NODES[@]} -ge 2 ] || die "a ring needs two nodes at least (--help)"
	dup=$(printf '%s\n' "${NODES[@]}" | sort | uniq -d | head -n 1)
	[ -z "$dup" ] || die "node '$dup' is listed twice"
	[ $((STRIDE % ${#NODES[@]})) -ne 0 ] || die "--stride $STRIDE is a multiple of the ring's size ${#NODES[@]}"
	JOBS=("$NAME ${NODES[*]}")
fi

RING_KEY=/etc/rdmabench/auth/key   # deploy/base's Secret rdmabench-auth
ptr() { printf %s "$1" | sed 's/~/~0/g; s|/|~1|g'; }   # a JSON pointer token

# ---------------------------------------------------------------- render
# Each Job is the overlay's client Job (deploy/base/client-job.yaml: the
# pod spec, ib_doctor, IPC_LOCK as root, Guaranteed QoS, podFailurePolicy)
# turned into an Indexed Job by JSON patches; the headless Service is the
# overlay's Service renamed. kubectl kustomize renders them ($KUBECTL).
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rdmabench-ring.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT

op() { # OP PATH [VALUE]: one JSON patch operation (VALUE: YAML, indented)
	printf '      - op: %s\n        path: %s\n' "$1" "$2"
	[ $# -lt 3 ] || printf '        value:%s\n' "$3"
}
labels() { # INDENT [GROUP]: the ring's labels as a YAML map
	local i=$1
	printf '\n%sapp.kubernetes.io/name: rdmabench\n%sapp.kubernetes.io/component: ring\n%srdmabench/ring: %s' \
		"$i" "$i" "$i" "$(k8s_q "$NAME")"
	[ -z "${2:-}" ] || printf '\n%srdmabench/group: %s' "$i" "$(k8s_q "$2")"
}
job_patch() { # JOB SIZE STRIDE NODE...
	local job=$1 size=$2 stride=$3 n c k rk res kv v
	shift 3
	op replace /metadata/name " $(k8s_q "$job")"
	op replace /metadata/labels "$(labels '          ')"
	op add /spec/completionMode " Indexed"
	op add /spec/completions " $size"
	op add /spec/parallelism " $size"
	op replace /spec/activeDeadlineSeconds " $TIMEOUT"
	op replace /spec/template/metadata/labels "$(labels '          ' "$job")"
	op replace /spec/template/metadata/annotations/k8s.v1.cni.cncf.io~1networks " $(k8s_q "$NETWORK")"
	op add /spec/template/spec/subdomain " $(k8s_q "$NAME")"
	v='
          nodeAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              nodeSelectorTerms:
                - matchExpressions:
                    - key: kubernetes.io/hostname
                      operator: In
                      values:'
	for n; do v+=$'\n'"                        - $(k8s_q "$n")"; done
	v+="
          podAntiAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              - labelSelector:
                  matchLabels:
                    rdmabench/group: $(k8s_q "$job")
                topologyKey: kubernetes.io/hostname"
	op replace /spec/template/spec/affinity "$v"
	c=/spec/template/spec/containers/0
	op replace $c/name " ring"
	# args: client TOOL rdmabench-server --oob tcp --netdev net1
	# --connect-timeout 120 ... -> ring TOOL --oob tcp --netdev NETDEV
	# --connect-timeout 300 ... (the overlay's further args stay)
	op test $c/args/0 " client"
	op replace $c/args/0 " ring"
	op replace $c/args/1 " $(k8s_q "$TOOL")"
	op test $c/args/2 " rdmabench-server"
	op remove $c/args/2
	op test $c/args/4 " --netdev"
	op replace $c/args/5 " $(k8s_q "$NETDEV")"
	op test $c/args/6 " --connect-timeout"
	op replace $c/args/7 ' "300"'
	op test $c/env/0/name " RDMABENCH_ARGS"
	op replace $c/env/0/value " $(k8s_q "${TEST_ARGS[*]}")"
	k=1
	for kv in "RDMABENCH_SERVER_ARGS=--oob tcp --netdev $NETDEV --allow-foreign-gid --auth-key-file $RING_KEY$([ "$GPU" = 1 ] && echo " --use_cuda")" \
		"RDMABENCH_RING_SIZE=$size" "RDMABENCH_RING_STRIDE=$stride" "RDMABENCH_RING_GROUP=$job" \
		"RDMABENCH_PEER_FORMAT=$job-%d.$NAME" "RDMABENCH_RING_WAIT=$TIMEOUT"; do
		op add $c/env/$k "
          name: ${kv%%=*}
          value: $(k8s_q "${kv#*=}")"
		k=$((k + 1))
	done
	for c in /spec/template/spec/initContainers/0 /spec/template/spec/containers/0; do
		for rk in requests limits; do
			op replace $c/resources/$rk/cpu " $(k8s_q "$CPU")"
			op replace $c/resources/$rk/memory " $(k8s_q "$MEM")"
			if [ "$RES" != "$RES0" ]; then
				res=$(ptr "$RES")
				op remove "$c/resources/$rk/$(ptr "$RES0")"
				op add "$c/resources/$rk/$res" ' "1"'
			fi
		done
	done
}
service_patch() {
	op replace /metadata/name " $(k8s_q "$NAME")"
	op replace /metadata/labels "$(labels '          ')"
	op add /spec/publishNotReadyAddresses " true"
	op replace /spec/selector "
          rdmabench/ring: $(k8s_q "$NAME")"
	op replace /spec/ports "
          - name: control
            port: 18515
            protocol: TCP"
}
# docs KIND [NAME] < ALL: the documents of that kind (and name) of a render
docs() {
	awk -v kind="$1" -v name="${2:-}" '
	function flush() { if (doc != "" && k == kind && (name == "" || n == name)) printf "---\n%s", doc; doc = ""; k = ""; n = "" }
	/^---$/ { flush(); next }
	/^kind: / { k = $2 }
	/^  name: / && n == "" { n = $2; gsub(/"/, "", n) }
	{ doc = doc $0 "\n" }
	END { flush() }'
}

render_job() { # JOB NODE...: the Job's documents, the Service's in $WORK/JOB/service.yaml
	local job=$1; shift
	local size=$# stride=$STRIDE d=$WORK/$job
	[ "$size" = 2 ] && stride=1
	mkdir -p "$d"
	{
		echo "apiVersion: kustomize.config.k8s.io/v1beta1"
		echo "kind: Kustomization"
		echo "resources:"
		echo "  - $(realpath --relative-to="$d" "$ODIR")"
		if [ "$GPU" = 1 ]; then
			echo "components:"
			echo "  - $(realpath --relative-to="$d" "$ROOT/deploy/components/gpu")"
		fi
		[ -z "$IMAGE" ] || k8s_images "$IMAGE"
		echo "patches:"
		printf '  - target:\n      kind: Job\n      name: rdmabench-client\n    patch: |-\n'
		job_patch "$job" "$size" "$stride" "$@"
		printf '  - target:\n      kind: Service\n      name: rdmabench-server\n    patch: |-\n'
		service_patch
	} > "$d/kustomization.yaml"
	"$KUBECTL" kustomize "$d" > "$d/all.yaml" 2> "$d/err" ||
		{ cat "$d/err" >&2; die "kubectl kustomize failed on the overlay $ODIR$([ "$RES" = "$RES0" ] ||
			echo " (--rdma-resource replaces $RES0: an overlay that sets its own resource, such as sriov, needs none)")"; }
	docs Service "$NAME" < "$d/all.yaml" > "$d/service.yaml"
	docs Job "$job" < "$d/all.yaml" > "$d/job.yaml"
	if [ ! -s "$d/job.yaml" ] || [ ! -s "$d/service.yaml" ]; then
		die "the overlay $ODIR has no client Job rdmabench-client or no Service rdmabench-server"
	fi
	if [ "$(grep -c -- '- --use_cuda$' "$d/job.yaml")" -gt 1 ]; then
		die "--gpu and an overlay with components/gpu: give one of them"
	fi
	if ! grep -A1 -- '- --auth-key-file$' "$d/job.yaml" | grep -q -- "- $RING_KEY\$"; then
		die "the overlay's client takes no --auth-key-file $RING_KEY (deploy/base's key): the ring's servers run with --allow-foreign-gid, safe only with that key"
	fi
	k8s_check_setcap "$d/job.yaml"
	cat "$d/job.yaml"
}

render() {
	local j
	echo "# rdmabench ring $NAME: ${#JOBS[@]} Indexed Job(s), $TOOL ${TEST_ARGS[*]}"
	echo "# (rendered by scripts/k8s/ring.sh from $(realpath --relative-to="$ROOT" "$ODIR"))"
	echo "# needs the Secret rdmabench-auth (the key): kubectl create secret generic"
	echo "# rdmabench-auth --from-file=key=<(head -c 32 /dev/urandom | base64)"
	for j in "${JOBS[@]}"; do
		# shellcheck disable=SC2086 # "JOB NODE..." on purpose
		render_job $j > "$WORK/jobs.yaml.part" || exit
		cat "$WORK/jobs.yaml.part" >> "$WORK/jobs.yaml"
	done
	sed '1{/^---$/d}' "$WORK/${JOBS[0]%% *}/service.yaml"
	cat "$WORK/jobs.yaml"
}

if [ "$RUN" = 0 ]; then
	render
	exit 0
fi

# ---------------------------------------------------------------- run
KNS=()
[ -n "$NS" ] && KNS=(-n "$NS")
k() { "$KUBECTL" "${KNS[@]}" "$@"; }
RESULTS=${RESULTS:-results/ring-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$RESULTS" || die "cannot create $RESULTS"
render > "$RESULTS/manifests.yaml"
APPLIED=
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	if [ -n "$APPLIED" ] && [ "$KEEP" = 0 ]; then
		log "cleaning up"
		k delete -f "$RESULTS/manifests.yaml" --ignore-not-found --wait=false >/dev/null 2>&1 ||
			log "cleanup failed: kubectl delete -f $RESULTS/manifests.yaml"
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

jobnames=()
for j in "${JOBS[@]}"; do jobnames+=("${j%% *}"); done
k delete job "${jobnames[@]}" --ignore-not-found --wait=true >/dev/null 2>&1
k8s_auth_secret "$RESULTS/manifests.yaml" "$WORK" || exit 1
APPLIED=1
k apply -f "$RESULTS/manifests.yaml" >&2 || { log "kubectl apply failed"; exit 1; }
log "${#jobnames[@]} job(s) applied; waiting (deadline ${TIMEOUT}s)"
START=$SECONDS
while :; do
	done_n=0
	for j in "${jobnames[@]}"; do
		c=$(k get job "$j" -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}' 2>/dev/null)
		case " $c " in *" Complete "* | *" Failed "*) done_n=$((done_n + 1)) ;; esac
	done
	[ "$done_n" = ${#jobnames[@]} ] && break
	if [ $((SECONDS - START)) -ge "$TIMEOUT" ]; then
		log "deadline: $done_n of ${#jobnames[@]} job(s) finished; collecting what there is"
		break
	fi
	sleep 5
done

# every pod: termination message and the result JSON from its log
k get pods -l "rdmabench/ring=$NAME" -o wide > "$RESULTS/pods.txt" 2>&1
pods=$(k get pods -l "rdmabench/ring=$NAME" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' 2>/dev/null)
for p in $pods; do
	k get pod "$p" -o jsonpath='{.status.containerStatuses[?(@.name=="ring")].state.terminated.message}' \
		> "$RESULTS/$p.verdict.json" 2>/dev/null
	grep -q '^{"rdmabench_summary":1,' "$RESULTS/$p.verdict.json" || mv "$RESULTS/$p.verdict.json" "$RESULTS/$p.message.txt"
	[ -s "$RESULTS/$p.message.txt" ] || rm -f "$RESULTS/$p.message.txt"
	k logs "$p" --all-containers --prefix > "$RESULTS/$p.log" 2>&1
	sed -n '/===== rdmabench result json begin =====$/,/===== rdmabench result json end =====$/p' "$RESULTS/$p.log" |
		sed '1d;$d; s/^\[[^]]*\] //' > "$RESULTS/$p.json"
	[ -s "$RESULTS/$p.json" ] || rm -f "$RESULTS/$p.json"
done
expect=()
for j in "${JOBS[@]}"; do
	# shellcheck disable=SC2086 # "JOB NODE..." on purpose
	set -- $j
	expect+=(--expect "$1=$(($# - 1))")
	shift
	for n; do expect+=(--node "$n"); done
done
"${PYTHON:-python3}" "$HERE/collect.py" "${expect[@]}" "${COLLECT_ARGS[@]}" --out "$RESULTS/report.md" \
	--json "$RESULTS/report.json" "$RESULTS"
