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
