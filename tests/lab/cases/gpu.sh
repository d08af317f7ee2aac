# tests/lab/cases/gpu.sh - sourced by tests/lab/all.sh in the lab guest:
# GPU memory in a lab that has no GPU (issue 6: every GPU preflight error
# has a test). Each error ends the side that asked for GPU memory with its
# exit code and one message that says what is wrong and what to do, before
# any traffic; a peer that did not ask for GPU memory ends on its own with
# its own exit code, never hangs.
#   no driver    no libcuda.so.1 at all (only where the host has none)
#   fake driver  tests/fakecuda/fake_libcuda.c (make tools), loaded through
#                LD_LIBRARY_PATH, its behaviour picked by RDMABENCH_FAKE_CUDA:
#                stub library, driver too old, no GPU, no such GPU index or
#                bus id, no dmabuf export, context failure, out of GPU
#                memory; and on rxe0: no dmabuf MRs, nvidia_peermem not
#                loaded, RLIMIT_MEMLOCK too low; and a run on fake GPU memory
# Exit codes (common/run/driver.c, common/run/place_glue.c): the driver missing,
# broken or busy: 1; a GPU the options name but the host lacks (no GPU, no
# such index or bus id, no dmabuf on it or on the RDMA device, no peermem):
# 2; out of memory, memlock: 1 (runtime). The peer of a side that failed
# after the HELLO exits 5 (a client with the server's reason, a server
# after its --timeout).
# Ports 18670-18679.
# shellcheck shell=bash

ip=${LAB_RXE_IP:-198.18.0.1}
GPU_CRASH="Segmentation|Assertion|AddressSanitizer|runtime error: |fake libcuda"
GPU_BAD=(-n "$GPU_CRASH")          # lab_case
GPU_BAD2=(-n "$GPU_CRASH" -N "$GPU_CRASH") # lab_pair: client and server

# the guest runs the host's /: a host with a driver cannot show its absence
have_libcuda=
for f in /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1 \
	/usr/lib/libcuda.so.1 /usr/local/nvidia/lib64/libcuda.so.1; do
	[ -e "$f" ] && have_libcuda=$f
done

if [ -n "$have_libcuda" ]; then
	lab_skip gpu.no_driver "this host has a CUDA driver ($have_libcuda)"
else
	# the message once, naming the library and both ways out
	no_cuda=(-e "no CUDA driver on this host \(libcuda\.so\.1 not found"
		 -e "install the NVIDIA driver" -e "drop --use_cuda"
		 -n "no CUDA driver.*no CUDA driver" "${GPU_BAD[@]}")

	lab_case gpu.no_driver.client -t 30 -r 1 "${no_cuda[@]}" \
		"$B/ib_write_bw" --use_cuda=0 --connect-timeout 3 "$ip"
	lab_case gpu.no_driver.dmabuf -t 30 -r 1 "${no_cuda[@]}" \
		"$B/ib_write_bw" --use_cuda=0 --use_cuda_dmabuf \
		--connect-timeout 3 "$ip"
	lab_case gpu.no_driver.bus_id -t 30 -r 1 "${no_cuda[@]}" \
		"$B/ib_write_bw" --use_cuda_bus_id=0000:3b:00.0 \
		--connect-timeout 3 "$ip"
	# a server with GPU memory finds out before it listens
	lab_case gpu.no_driver.server -t 30 -r 1 "${no_cuda[@]}" \
		"$B/ib_write_bw" --use_cuda=0
fi

GPU_FAKE=$B/tests/fakecuda
[[ $GPU_FAKE == /* ]] || GPU_FAKE=$PWD/$GPU_FAKE

# gpu_fake WORDS CMD...: CMD with the fake driver (gpu_fake_old: the one
# that lacks a required symbol) and RDMABENCH_FAKE_CUDA=WORDS
# (exported: the harness runs each command in a subshell of its own)
gpu_fake() {
	export LD_LIBRARY_PATH=$GPU_FAKE${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export RDMABENCH_FAKE_CUDA=$1
	shift
	"$@"
}
gpu_fake_old() {
	GPU_FAKE=$GPU_FAKE/old gpu_fake "$@"
}

# gpu_memlock KIB CMD...: CMD without CAP_IPC_LOCK, RLIMIT_MEMLOCK KIB
gpu_memlock() {
	local kib=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	capsh --drop=cap_ipc_lock -- -c 'ulimit -l "$0" && exec "$@"' "$kib" "$@"
}

# gpu_nvidia_mod CMD...: CMD in a mount namespace whose /sys/module shows
# the NVIDIA driver's module but no nvidia_peermem (as on a GPU host
# where nobody ran modprobe nvidia_peermem)
gpu_nvidia_mod() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m -- sh -c 'mount -t tmpfs fake-modules /sys/module &&
		mkdir /sys/module/nvidia && exec "$@"' sh "$@"
}

# the preflight errors: each ends the side at once, before it connects
# (client) or listens (server), so no peer is needed
gpu_preflight_cases() {
	local c=(--connect-timeout 3 "$ip") bw=$B/ib_write_bw

	lab_case gpu.fake.stub -t 30 -r 1 "${GPU_BAD[@]}" \
		-e "libcuda\.so\.1 is the CUDA toolkit's stub library, not the driver" \
		-e "take the toolkit's stubs folder out of LD_LIBRARY_PATH" \
		gpu_fake stub "$bw" --use_cuda "${c[@]}"
	lab_case gpu.fake.too_old -t 30 -r 1 "${GPU_BAD[@]}" \
		-e "the CUDA driver is too old \(libcuda\.so\.1 lacks cuDevicePrimaryCtxRelease_v2\): update the NVIDIA driver" \
		gpu_fake_old "" "$bw" --use_cuda "${c[@]}"
	lab_case gpu.fake.no_gpu -t 30 -r 2 "${GPU_BAD[@]}" \
		-e "the CUDA driver sees no GPU: CUDA_ERROR_NO_DEVICE" \
		-e "check nvidia-smi; in a container or pod, ask for a GPU" \
		gpu_fake nodev "$bw" --use_cuda "${c[@]}"
	lab_case gpu.fake.no_such_index -t 30 -r 2 "${GPU_BAD[@]}" \
		-e "CUDA device 3 does not exist: this host shows 1 GPU\(s\); pick another --use_cuda" \
		gpu_fake gpus=1 "$bw" --use_cuda=3 "${c[@]}"
	lab_case gpu.fake.no_such_bus_id -t 30 -r 2 "${GPU_BAD[@]}" \
		-e "no CUDA GPU at PCI bus id 0000:99:00\.0: 'nvidia-smi --query-gpu=index,pci\.bus_id" \
		gpu_fake gpus=2 "$bw" --use_cuda_bus_id=0000:99:00.0 "${c[@]}"
	lab_case gpu.fake.gpu_no_dmabuf -t 30 -r 2 "${GPU_BAD[@]}" \
		-e "GPU 0 \(rdmabench fake GPU\) cannot export dmabuf handles \(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0" \
		-e "drop --use_cuda_dmabuf to register through nvidia-peermem" \
		gpu_fake nodmabuf "$bw" --use_cuda --use_cuda_dmabuf "${c[@]}"
	lab_case gpu.fake.ctx_fail -t 30 -r 1 "${GPU_BAD[@]}" \
		-e "cannot open a CUDA context on GPU 1 \(rdmabench fake GPU, 0000:3c:00\.0\): CUDA_ERROR_DEVICE_UNAVAILABLE" \
		-e "exclusive-process compute mode" \
		gpu_fake gpus=2,ctxfail "$bw" --use_cuda=1 "${c[@]}"
	# the server's own GPU, checked before it listens
	lab_case gpu.fake.server.no_gpu -t 30 -r 2 "${GPU_BAD[@]}" \
		-e "the CUDA driver sees no GPU" -n "waiting for a client" \
		gpu_fake nodev "$bw" --use_cuda -p 18670
}

# after the HELLO, while registering (before traffic): the side with GPU
# memory fails and tells the peer why; the peer prints the reason and
# exits 5 at once (its --timeout, 10 s here, is not waited out)
gpu_register_cases() {
	local bw=$B/ib_write_bw s=(--timeout 10) c=(-n 200 --timeout 10)
	local peer='the server reports: '
	local lost=(-E 'client [0-9.:]+ runs ib_write_bw'
		    -E 'the client reports: ' -E 'verdict: error .*\(exit 5'
		    -N 'Connection timed out')

	lab_pair gpu.fake.oom.server -t 60 -R 1 -r 5 "${GPU_BAD2[@]}" \
		-E "cannot allocate [0-9]+ bytes on GPU 0 \(rdmabench fake GPU\): CUDA_ERROR_OUT_OF_MEMORY" \
		-E "free GPU memory \(nvidia-smi lists the processes holding it\) or use a smaller -s" \
		-e "$peer" \
		gpu_fake oom "$bw" -p 18671 --use_cuda "${s[@]}" -- \
		"$bw" -p 18671 "$ip" "${c[@]}"
	lab_pair gpu.fake.oom.client -t 60 -r 1 -R 5 "${GPU_BAD2[@]}" \
		-e "cannot allocate [0-9]+ bytes on GPU 0 .*CUDA_ERROR_OUT_OF_MEMORY" \
		"${lost[@]}" \
		"$bw" -p 18672 "${s[@]}" -- \
		gpu_fake oom "$bw" -p 18672 "$ip" --use_cuda "${c[@]}"
	# rxe has no dmabuf MRs: both sides with GPU memory, each says so
	local nodmr='RDMA device rxe0 cannot register dmabuf memory \(ibv_reg_dmabuf_mr: Operation not supported\)'
	lab_pair gpu.fake.rdma_no_dmabuf -t 60 -r 2 -R 2 "${GPU_BAD2[@]}" \
		-e "$nodmr" -E "$nodmr" -e "drop --use_cuda_dmabuf" \
		gpu_fake "" "$bw" -p 18673 --use_cuda --use_cuda_dmabuf \
		"${s[@]}" -- \
		gpu_fake "" "$bw" -p 18673 "$ip" --use_cuda --use_cuda_dmabuf \
		"${c[@]}"
	lab_pair gpu.fake.rdma_no_dmabuf.client -t 60 -r 2 -R 5 \
		"${GPU_BAD2[@]}" -e "$nodmr" "${lost[@]}" \
		"$bw" -p 18674 "${s[@]}" -- \
		gpu_fake "" "$bw" -p 18674 "$ip" --use_cuda --use_cuda_dmabuf \
		"${c[@]}"
	if command -v unshare >/dev/null; then
		lab_pair gpu.fake.no_peermem -t 60 -r 2 -R 5 "${GPU_BAD2[@]}" \
			-e "cannot register GPU 0 memory on rxe0: nvidia_peermem is not loaded: modprobe nvidia_peermem" \
			-e "or use --use_cuda_dmabuf" "${lost[@]}" \
			"$bw" -p 18675 "${s[@]}" -- \
			gpu_fake "" gpu_nvidia_mod "$bw" -p 18675 "$ip" \
			--use_cuda "${c[@]}"
	else
		lab_skip gpu.fake.no_peermem "no unshare (util-linux)"
	fi
}

# RLIMIT_MEMLOCK 64 KiB, no CAP_IPC_LOCK: the host-side buffers of a GPU
# run pass the preflight, the GPU buffer (pinned like host memory by
# peermem; here host memory) fails in the kernel and is explained; 4 KiB:
# the host-side control buffer is refused by the preflight
gpu_memlock_cases() {
	local bw=$B/ib_write_bw
	local ml="lacks CAP_IPC_LOCK: run 'ulimit -l unlimited'"

	if ! command -v capsh >/dev/null; then
		lab_skip gpu.fake.memlock "no capsh (apt-get install libcap2-bin)"
		return
	fi
	lab_pair gpu.fake.memlock.gpu -t 60 -r 1 -R 5 "${GPU_BAD2[@]}" \
		-e "ibv_reg_mr\([0-9]+ bytes of GPU 0 memory\) on rxe0: Cannot allocate memory: GPU memory registered through nvidia-peermem counts as locked memory too" \
		-e "RLIMIT_MEMLOCK is 64 KiB.*$ml" \
		-E 'the client reports: ' -E 'verdict: error .*\(exit 5' \
		-N 'Connection timed out' \
		"$bw" -p 18676 --timeout 10 -- \
		gpu_fake "" gpu_memlock 64 "$bw" -p 18676 "$ip" --use_cuda \
		-n 200 --timeout 10
	lab_case gpu.fake.memlock.host -t 30 -r 1 "${GPU_BAD[@]}" \
		-e "registering [0-9]+ KiB of host memory needs that much locked memory, but RLIMIT_MEMLOCK is 4 KiB.*$ml" \
		gpu_fake "" gpu_memlock 4 "$bw" --use_cuda --connect-timeout 3 \
		-R "$ip" # -R: the control QP's memory, registered first
}

if [ ! -e "$GPU_FAKE/libcuda.so.1" ] || [ ! -e "$GPU_FAKE/old/libcuda.so.1" ]; then
	lab_skip gpu.fake "no fake CUDA driver in $GPU_FAKE: build it with 'make tools'"
else
	gpu_preflight_cases
	gpu_register_cases
	gpu_memlock_cases
	# the fake driver is a working one: a run on its "GPU" memory, which
	# rxe registers as host memory (no nvidia module: peermem unchecked)
	lab_pair gpu.fake.run -t 90 "${GPU_BAD2[@]}" \
		-e "Memory +: cuda \(peermem\)" -E "Memory +: cuda \(peermem\)" \
		-e "65536 +200 " \
		gpu_fake "" "$B/ib_write_bw" -p 18677 --use_cuda --timeout 10 -- \
		gpu_fake gpus=2 "$B/ib_write_bw" -p 18677 "$ip" --use_cuda=1 \
		-n 200 --timeout 10
fi
