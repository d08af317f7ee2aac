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
# Options:
#   --run                apply, wait, collect, report; exit with collect.py's status
#   -n, --namespace NS   namespace (default: kubectl's current one)
#   -t, --tool TOOL      ib_write_bw (default), ib_read_bw, ib_send_bw, ...
#       --image IMAGE    image (default rdmabench:0.1.0)
#       --network NAME   NetworkAttachmentDefinition the pods attach
#                        (default rdmabench-net: kubectl apply -f
#                        deploy/base/network-macvlan.yaml first, or yours)
#       --netdev IF      the RDMA interface in the pod (default net1)
#       --rdma-resource NAME   rdma/rdma_shared_device_a (default),
#                        nvidia.com/sriov_resource, nvidia.com/hostdev, ...
#       --gpu            one nvidia.com/gpu per pod and --use_cuda
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
# expectation, 4 corruption, 1/5 errors); 2 bad usage.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
KUBECTL=${KUBECTL:-kubectl}
usage() { sed -n '2,/^set -uo/{/^#/s/^# \{0,1\}//p}' "$0"; }
die() { echo "ring: $*" >&2; exit 2; }
log() { echo "[ring] $*" >&2; }

RUN=0 NS='' TOOL=ib_write_bw IMAGE=rdmabench:0.1.0 NETWORK=rdmabench-net NETDEV=net1
RES=rdma/rdma_shared_device_a GPU=0 CPU=4 MEM=4Gi STRIDE=1 NAME=rdmabench-ring
TIMEOUT=1800 RESULTS='' KEEP=0 NODES=() PAIRS_FILE='' COLLECT_ARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	--run) RUN=1; shift ;;
	-n | --namespace) NS=${2:?}; shift 2 ;;
	-t | --tool) TOOL=${2:?}; shift 2 ;;
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

q() { printf '"%s"' "$(printf %s "$1" | sed 's/[\\"]/\\&/g')"; }

render_job() { # JOB NODE...
	local job=$1; shift
	local size=$# stride=$STRIDE n c
	[ "$size" = 2 ] && stride=1
	cat <<EOF
---
apiVersion: batch/v1
kind: Job
metadata:
  name: $job
  labels:
    app.kubernetes.io/name: rdmabench
    app.kubernetes.io/component: ring
    rdmabench/ring: $NAME
spec:
  completionMode: Indexed
  completions: $size
  parallelism: $size
  backoffLimit: 0
  podFailurePolicy:
    rules:
      - action: Ignore
        onPodConditions:
          - type: DisruptionTarget
            status: "True"
      - action: FailJob
        onExitCodes:
          operator: In
          values: [1, 2, 3, 4, 5, 6, 7]
  activeDeadlineSeconds: $TIMEOUT
  ttlSecondsAfterFinished: 86400
  template:
    metadata:
      labels:
        app.kubernetes.io/name: rdmabench
        app.kubernetes.io/component: ring
        rdmabench/ring: $NAME
        rdmabench/group: $job
      annotations:
        k8s.v1.cni.cncf.io/networks: $(q "$NETWORK")
    spec:
      subdomain: $NAME
      restartPolicy: Never
      terminationGracePeriodSeconds: 5
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - key: kubernetes.io/hostname
                    operator: In
                    values:
EOF
	for n; do echo "                      - $(q "$n")"; done
	cat <<EOF
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector:
                matchLabels:
                  rdmabench/group: $job
              topologyKey: kubernetes.io/hostname
EOF
	for c in initContainers containers; do
		echo "      $c:"
		if [ $c = initContainers ]; then
			echo "        - name: doctor"
		else
			echo "        - name: ring"
		fi
		cat <<EOF
          image: $(q "$IMAGE")
          imagePullPolicy: IfNotPresent
          command: ["/usr/local/bin/rdmabench-entrypoint"]
EOF
		if [ $c = initContainers ]; then
			echo '          args: ["doctor"]'
		else
			echo "          args:"
			for a in ring "$TOOL" --oob tcp --netdev "$NETDEV" --connect-timeout 300 --report_gbits; do
				echo "            - $(q "$a")"
			done
			[ "$GPU" = 1 ] && echo '            - "--use_cuda"'
		fi
		echo "          env:"
		if [ $c = containers ]; then
			cat <<EOF
            - name: RDMABENCH_ARGS
              value: $(q "${TEST_ARGS[*]}")
            - name: RDMABENCH_SERVER_ARGS
              value: $(q "--oob tcp --netdev $NETDEV --allow-foreign-gid$([ "$GPU" = 1 ] && echo " --use_cuda")")
            - name: RDMABENCH_RING_SIZE
              value: "$size"
            - name: RDMABENCH_RING_STRIDE
              value: "$stride"
            - name: RDMABENCH_RING_GROUP
              value: $job
            - name: RDMABENCH_PEER_FORMAT
              value: $job-%d.$NAME
            - name: RDMABENCH_RING_WAIT
              value: "$TIMEOUT"
EOF
		fi
		[ "$GPU" = 1 ] && printf '            - name: NVIDIA_DRIVER_CAPABILITIES\n              value: compute,utility\n'
		cat <<EOF
            - name: NODE_NAME
              valueFrom:
                fieldRef:
                  fieldPath: spec.nodeName
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
          securityContext:
            runAsUser: 0
            runAsGroup: 0
            capabilities:
              add: ["IPC_LOCK"]
          resources:
EOF
		for rk in requests limits; do
			echo "            $rk:"
			echo "              cpu: \"$CPU\""
			echo "              memory: $(q "$MEM")"
			echo "              $RES: \"1\""
			[ "$GPU" = 1 ] && echo '              nvidia.com/gpu: "1"'
		done
		cat <<EOF
          terminationMessagePath: /dev/termination-log
          terminationMessagePolicy: FallbackToLogsOnError
          volumeMounts:
            - name: podinfo
              mountPath: /etc/podinfo
              readOnly: true
EOF
	done
	cat <<EOF
      volumes:
        - name: podinfo
          downwardAPI:
            items:
              - path: network-status
                fieldRef:
                  fieldPath: metadata.annotations['k8s.v1.cni.cncf.io/network-status']
EOF
}

render() {
	cat <<EOF
# rdmabench ring $NAME: ${#JOBS[@]} Indexed Job(s), $TOOL ${TEST_ARGS[*]}
# (rendered by scripts/k8s/ring.sh)
apiVersion: v1
kind: Service
metadata:
  name: $NAME
  labels:
    app.kubernetes.io/name: rdmabench
    app.kubernetes.io/component: ring
    rdmabench/ring: $NAME
spec:
  clusterIP: None
  publishNotReadyAddresses: true
  selector:
    rdmabench/ring: $NAME
  ports:
    - name: control
      port: 18515
      protocol: TCP
EOF
	local j
	for j in "${JOBS[@]}"; do
		# shellcheck disable=SC2086 # "JOB NODE..." on purpose
		render_job $j
	done
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
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

jobnames=()
for j in "${JOBS[@]}"; do jobnames+=("${j%% *}"); done
k delete job "${jobnames[@]}" --ignore-not-found --wait=true >/dev/null 2>&1
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
