#!/bin/bash
# Captures NCCL_DEBUG=INFO logs on the lent H200 (run from the repo root).
set -x
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO
D=.dev-nccl
{ nvidia-smi -L; nvcc --version | tail -2; uname -r; ls /dev/infiniband 2>&1; ip -o link 2>&1;
  python3 -m pip show nvidia-nccl-cu13 torch 2>&1 | grep -E '^(Name|Version|Location)'; } > $OUT/host-facts.txt 2>&1
PYTHONUNBUFFERED=1 timeout 90 python3 $D/pt_one_rank.py > $OUT/h200-pytorch-1rank.log 2>&1
echo "pytorch rc=$?"
NCCL_DEBUG_SUBSYS=ALL PYTHONUNBUFFERED=1 timeout 60 python3 $D/pt_one_rank.py > $OUT/h200-pytorch-1rank-subsys-all.log 2>&1; echo "pytorch all rc=$?"
NCCL_HOME=$(python3 -c 'import nvidia.nccl,os;print(os.path.dirname(nvidia.nccl.__file__) if nvidia.nccl.__file__ else list(nvidia.nccl.__path__)[0])')
echo NCCL_HOME=$NCCL_HOME; ls $NCCL_HOME $NCCL_HOME/lib
H=/tmp/ncclhome; mkdir -p $H/lib; ln -sfn $NCCL_HOME/include $H/include
ln -sf $NCCL_HOME/lib/libnccl.so.2 $H/lib/libnccl.so
cd $D/nccl-tests/src
timeout 300 make -j16 NCCL_HOME=$H NVCC_GENCODE='-gencode=arch=compute_90,code=sm_90' \
  BUILDDIR=/tmp/nt /tmp/nt/all_reduce_perf > $OUT/nccl-tests-build.log 2>&1
echo "build rc=$?"; tail -5 $OUT/nccl-tests-build.log
export LD_LIBRARY_PATH=$NCCL_HOME/lib:$LD_LIBRARY_PATH
timeout 120 /tmp/nt/all_reduce_perf -b 8 -e 128M -f 2 -g 1 > $OUT/h200-nccl-tests-all_reduce_perf.log 2>&1
echo "nccl-tests rc=$?"; tail -30 $OUT/h200-nccl-tests-all_reduce_perf.log
