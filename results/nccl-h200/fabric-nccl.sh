#!/bin/bash
# The issue 28 acceptance run of ib_fabric --nccl-test on the lent H200
# (one GPU, no RDMA NIC), from the repository root, on the device tool:
#   run(command="bash results/nccl-h200/fabric-nccl.sh", carry=[".dev-h200", ".dev-nccl"])
# with .dev-h200/ holding ib_fabric made here (make -j2 WERROR=1; build/ is
# too large to carry) and, in .dev-h200/lib, this machine's librdmacm.so.1,
# libibverbs.so.1, libnl-3.so.200 and libnl-route-3.so.200 in case the
# image lacks them (FABRIC_BIN=build: a full build/ instead), and .dev-nccl/nccl-tests
# nccl-tests' source (NVIDIA/nccl-tests a0b82b2, 2.19.6: git archive of
# the mirror), as capture.sh used. Builds all_reduce_perf against the
# nvidia-nccl-cu13 wheel's headers (capture.sh's command), then runs it
# through ib_fabric (the rank from this host's name in the list), NVLink
# multicast off; the report comes back in $OUT/fabric-nccl. Expected:
# NCCL over Socket, every rank's verdict "socket", exit 3.
set -x
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
D=.dev-nccl
NCCL_HOME=$(python3 -c 'import nvidia.nccl,os;print(os.path.dirname(nvidia.nccl.__file__) if nvidia.nccl.__file__ else list(nvidia.nccl.__path__)[0])')
H=/tmp/ncclhome; mkdir -p $H/lib; ln -sfn "$NCCL_HOME/include" $H/include
ln -sf "$NCCL_HOME/lib/libnccl.so.2" $H/lib/libnccl.so
(cd $D/nccl-tests/src && timeout 300 make -j16 NCCL_HOME=$H NVCC_GENCODE='-gencode=arch=compute_90,code=sm_90' \
	BUILDDIR=/tmp/nt /tmp/nt/all_reduce_perf > "$OUT/nccl-tests-build.log" 2>&1)
echo "build rc=$?"
export LD_LIBRARY_PATH=$NCCL_HOME/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B=${FABRIC_BIN:-.dev-h200}
ldd $B/ib_fabric | grep -q 'not found' && export LD_LIBRARY_PATH=$PWD/$B/lib:$LD_LIBRARY_PATH
$B/ib_fabric --version
F=$OUT/fabric-nccl
timeout 300 $B/ib_fabric --nccl-test /tmp/nt/all_reduce_perf -H "$(hostname)" --out "$F" \
	--expect-busbw auto --timeout 240 -- -b 8 -e 128M -f 2 -g 1
echo "ib_fabric rc=$?"
python3 scripts/fabric_report.py "$F"
echo "fabric_report rc=$?"
{ nvidia-smi -L; hostname; ls /dev/infiniband; } > "$OUT/host-facts-fabric.txt" 2>&1
