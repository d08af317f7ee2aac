# shellcheck shell=bash
# scripts/k8s/lib.sh - what run-pair.sh and ring.sh share to render deploy/
# (sourced; bash). Each caller defines die() (its own prefix, exit 2).
#   k8s_q STR               STR as a double-quoted YAML scalar
#   k8s_overlay NAME|DIR    the kustomization folder: deploy/overlays/NAME,
#                           deploy/base for "base", or DIR
#   k8s_images IMAGE        the kustomization "images:" block that makes
#                           deploy/'s image IMAGE (REPO[:TAG][@DIGEST])
#   k8s_check_setcap FILE   die unless every image of FILE's non-root
#                           containers is a ...-setcap tag (or a digest)
#   k8s_auth_secret FILE DIR  when FILE's pods mount the Secret
#                           rdmabench-auth and the cluster has none, make
#                           it with a random key (the caller's k and log;
#                           DIR: a private folder for the key file)
K8S_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)

k8s_q() { printf '"%s"' "$(printf %s "$1" | sed 's/[\\"]/\\&/g')"; }

k8s_overlay() {
	if [ -d "$K8S_ROOT/deploy/overlays/$1" ]; then
		echo "$K8S_ROOT/deploy/overlays/$1"
	elif [ "$1" = base ]; then
		echo "$K8S_ROOT/deploy/base"
	elif [ -d "$1" ]; then
		(cd "$1" && pwd -P)
	else
		die "no overlay '$1' (deploy/overlays/: $(cd "$K8S_ROOT/deploy/overlays" && echo *); or a folder)"
	fi
}

k8s_images() {
	local name=${1%@*} digest='' tag=''
	[ "$name" != "$1" ] && digest=${1#*@}
	if [[ ${name##*/} == *:* ]]; then tag=${name##*:}; name=${name%:*}; fi
	echo "images:"
	echo "  - name: rdmabench"
	echo "    newName: $(k8s_q "$name")"
	[ -z "$tag" ] || echo "    newTag: $(k8s_q "$tag")"
	[ -z "$digest" ] || echo "    digest: $(k8s_q "$digest")"
}

# components/nonroot: a non-root container holds IPC_LOCK only through the
# file capability of the image built with SETCAP=1, tagged ...-setcap
k8s_check_setcap() {
	local img
	grep -q 'runAsNonRoot: true' "$1" || return 0
	img=$(sed -n 's/^[ -]*image: *//p' "$1" | tr -d '"' | grep -v '@' | grep -v -- '-setcap$' | head -n 1)
	[ -z "$img" ] || die "the overlay runs the tools as non-root, which needs the image built with SETCAP=1 and tagged ...-setcap (docs/kubernetes.md); $img is not: --image REGISTRY/rdmabench:TAG-setcap"
}

# deploy/base's pods take the control channel's key from the Secret
# rdmabench-auth (--auth-key-file); no key is committed, so one is made
# here, once: 32 random bytes, base64 (what docs/kubernetes.md's one-liner
# does). An existing Secret is used as it is.
K8S_SECRET=rdmabench-auth
k8s_auth_secret() {
	grep -q "secretName: \"\{0,1\}$K8S_SECRET\"\{0,1\}$" "$1" || return 0
	if k get secret "$K8S_SECRET" -o name > /dev/null 2>&1; then
		log "Secret $K8S_SECRET exists: its key is the pods' (--auth-key-file)"
		return 0
	fi
	(umask 077 && head -c 32 /dev/urandom | base64 > "$2/key") || return 1
	if ! k create secret generic "$K8S_SECRET" --from-file=key="$2/key" > /dev/null; then
		rm -f "$2/key"
		log "cannot make the Secret $K8S_SECRET (kubectl create secret generic $K8S_SECRET --from-file=key=FILE)"
		return 1
	fi
	rm -f "$2/key"
	log "made the Secret $K8S_SECRET: a random key (32 bytes, base64) for --auth-key-file; it stays for later runs (kubectl delete secret $K8S_SECRET drops it)"
}
