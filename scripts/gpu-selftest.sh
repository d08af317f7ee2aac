#!/bin/bash
# scripts/gpu-selftest.sh [TOOLS_DIR] - the GPU side of rdmabench on a host
# with a GPU, with or without an RDMA NIC: is this host ready for
# --use_cuda? Prints what it sees and runs, in order:
#   host      kernel, GPUs (nvidia-smi), nvidia_peermem, RDMA devices
#   test_gpu  tests/gpu/test_gpu.c built here (pure modules + gpu/cuda_drv.c, no
#             verbs headers needed): driver load, GPU pick by index and bus
#             id, allocation, dmabuf export, the --validate kernels against
#             the host's pattern byte for byte, a flipped byte found, the
#             error paths, and a dmabuf registration attempt on whatever
#             RDMA device the host has (none: said so)
#   tools     TOOLS_DIR/ib_write_bw (default build/; built elsewhere is
#             fine) with --use_cuda, --use_cuda_dmabuf, a GPU that does not
#             exist, a bus id that does not exist, and --use_cuda auto
#             alone and with --rails auto: each preflight says
#             what it found or what is wrong (without an RDMA device the
#             run then stops there, exit 1 or 2, and says so)
# Exit: test_gpu's (0 passed, 1 failed, 77 no CUDA driver or no GPU).
# results/gpu-h200-selftest.txt is this script's output on an H200.
set -u
cd "$(dirname "$0")/.." || exit 1
T=${1:-build}
B=${RDMABENCH_BUILD:-build-gpu}

echo "== host"
uname -r
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version \
	--format=csv,noheader 2>&1 || echo "no nvidia-smi"
for m in nvidia nvidia_peermem nv_peer_mem; do
	[ -d /sys/module/$m ] && echo "module $m: loaded" ||
		echo "module $m: not loaded"
done
echo "RDMA devices: $(ls /sys/class/infiniband 2>/dev/null | tr '\n' ' ')"

echo "== test_gpu"
make -s B="$B" WERROR=1 "$B/tests/gpu/test_gpu" || exit 1
"$B/tests/gpu/test_gpu"
rc=$?
echo "test_gpu exit $rc"

echo "== tools: GPU preflight ($T/ib_write_bw)"
if [ -x "$T/ib_write_bw" ] && ldd "$T/ib_write_bw" >/dev/null 2>&1; then
	missing=$(ldd "$T/ib_write_bw" | grep 'not found')
	if [ -n "$missing" ]; then
		echo "cannot run here: $missing"
	else
		for args in "--use_cuda=0" "--use_cuda=0 --use_cuda_dmabuf" \
			    "--use_cuda=7" "--use_cuda_bus_id=0000:ff:1f.7" \
			    "--use_cuda=auto" "--rails auto --use_cuda auto"; do
			echo "-- ib_write_bw $args 127.0.0.1"
			# shellcheck disable=SC2086 # the words are the flags
			timeout 60 "$T/ib_write_bw" $args --connect-timeout 2 \
				-n 10 127.0.0.1 2>&1
			echo "exit $?"
			echo "-- ib_write_bw $args (server)"
			# shellcheck disable=SC2086
			timeout 60 "$T/ib_write_bw" $args --timeout 2 2>&1
			echo "exit $?"
		done
	fi
else
	echo "no $T/ib_write_bw (make) or it cannot run here"
fi
exit $rc
