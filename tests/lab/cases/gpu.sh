# tests/lab/cases/gpu.sh - sourced by tests/lab/all.sh in the lab guest:
# GPU memory on a host without a CUDA driver (the lab never has one). Asking
# for it must fail at once, before any server is needed, with exit 1 and
# one message that says what is missing and what to do, on either side.
# shellcheck shell=bash

# the guest runs the host's /: a host with a driver cannot show its absence
have_libcuda=
for f in /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1 \
	/usr/lib/libcuda.so.1 /usr/local/nvidia/lib64/libcuda.so.1; do
	[ -e "$f" ] && have_libcuda=$f
done

if [ -n "$have_libcuda" ]; then
	lab_skip gpu "this host has a CUDA driver ($have_libcuda)"
else
	ip=${LAB_RXE_IP:-198.18.0.1}
	# the message once, naming the library and both ways out
	no_cuda=(-e "no CUDA driver on this host \(libcuda\.so\.1 not found"
		 -e "install the NVIDIA driver" -e "drop --use_cuda"
		 -n "no CUDA driver.*no CUDA driver" -n "Segmentation|Assertion")

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
