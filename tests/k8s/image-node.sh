#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/k8s/image-node.sh ROLE DIR - one "node" of tests/k8s/lab-image.sh, in
# a lab guest of scripts/lab/run-pair.sh: podman (crun) runs the pods of
# the rendered manifests in DIR (base.yaml, nonroot.yaml) from the image
# built by scripts/image.sh, through tests/k8s/podman-kubelet.py (the
# kubelet's stand-in). ROLE server: the base's server Deployment (stopped
# by run-pair.sh). ROLE client: the scenarios in DIR/scenarios (NAME
# OVERLAY IMAGE_TAG ARGS... a line), one client Job each, results in
# DIR/NAME/ (podman-kubelet.py --out).
#
# What stands in for a node: the guest's cgroup v2 (mounted here), a tmpfs
# for podman's container storage, the host's image store read-only (an
# additional image store, over the lab's 9p root); the SETCAP=1 image is
# loaded into the guest's own store (podman load of DIR/ci-setcap.tar; its
# other layers are the plain image's, found in the host's store), since the
# lab's 9p root does not show a file's security.capability attribute, which
# is the point of that image; lab-image.sh takes it out of the host's
# store meanwhile, so that its one layer of its own is not found there.
# Multus's net1: the
# guest's only link, renamed net1 (its rxe device follows it); the RDMA
# shared device plugin: /dev/infiniband/uverbs0 and rdma_cm; cluster DNS:
# --add-host for the Service's name; the API server's Secret rdmabench-auth:
# DIR/secret (its key made by lab-image.sh); status.podIP: the guest's
# address; the pod's volumes (the key, /tmp): the guest's tmpfs.
set -u
role=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
mount -t cgroup2 none /sys/fs/cgroup || exit 125
mkdir -p /run/k8s-lab && mount -t tmpfs -o size=700m tmpfs /run/k8s-lab || exit 125
cat > /run/k8s-lab/storage.conf <<EOF
[storage]
driver = "overlay"
graphroot = "/run/k8s-lab/root"
runroot = "/run/k8s-lab/run"
[storage.options]
additionalimagestores = ["${RDMABENCH_IMAGE_STORE:-/var/lib/containers/storage}"]
EOF
export CONTAINERS_STORAGE_CONF=/run/k8s-lab/storage.conf
ip link set eth0 down && ip link set eth0 name net1 && ip link set net1 up || exit 125

# kubelet OVERLAY KIND/NAME TAG POD NODE OUT [ARGS...]
kubelet() {
	local ov=$1 what=$2 tag=$3 pod=$4 node=$5 out=$6
	shift 6
	python3 "$here/podman-kubelet.py" "$dir/$ov.yaml" "$what" \
		--image "rdmabench=localhost/rdmabench:$tag" \
		--device-plugin rdma/rdma_shared_device_a=/dev/infiniband/uverbs0,/dev/infiniband/rdma_cm \
		--add-host "rdmabench-server:$LAB_SERVER_IP" \
		--network-status "[{\"name\":\"default/rdmabench-net\",\"interface\":\"net1\",\"ips\":[\"$LAB_MY_IP\"]}]" \
		--secret "rdmabench-auth=$dir/secret" --pod-ip "$LAB_MY_IP" --volumes "/run/k8s-lab/volumes/$pod" \
		--pod "$pod" --node "$node" --out "$out" "$@"
}

# load_setcap: the SETCAP=1 image into the guest's own store, once
load_setcap() {
	local t=$SECONDS
	[ -e /run/k8s-lab/own-loaded ] && return
	touch /run/k8s-lab/own-loaded
	podman load -q -i "$dir/ci-setcap.tar" < /dev/null > /dev/null ||
		echo "podman load $dir/ci-setcap.tar failed"
	echo "$role: loaded the SETCAP=1 image in $((SECONDS - t)) s"
}

case $role in
server)
	kubelet base Deployment/rdmabench-server ci rdmabench-server-0 lab-node-a "$dir/server-base"
	;;
client)
	while read -r name ov tag args; do
		[ -n "$name" ] && [ "${name:0:1}" != "#" ] || continue
		[ "$tag" = ci-setcap ] && load_setcap
		t=$SECONDS
		kubelet "$ov" Job/rdmabench-client "$tag" "rdmabench-client-$name" lab-node-b "$dir/$name" \
			--set-env "client:RDMABENCH_ARGS=$args" < /dev/null > "$dir/$name.log" 2>&1
		echo "client $name: exit $? after $((SECONDS - t)) s"
	done < "$dir/scenarios"
	;;
esac
