// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_refuse - perftest's options rdmabench refuses, with why and what to
 * do instead (tests/fixtures/perftest-options.txt lists where they came
 * from; tests/test_perftest_opts.c checks that each gets an answer).
 */
#include "spec/opts_refuse.h"

#define RAW_WHY "a raw Ethernet option (perftest's raw_ethernet_* tools); " \
		"these tools run RC/UC QPs"
#define RAW_USE "use perftest's raw_ethernet_bw/lat for raw packets"
#define GPU_WHY "only CUDA GPU memory is supported"
#define GPU_USE "use --use_cuda for NVIDIA GPUs, or perftest built for " \
		"this accelerator"
#define AES_WHY "mlx5 AES-XTS encryption is not supported"
#define AES_USE "use perftest built with AES-XTS for encrypted traffic"
#define MLX_WHY "a device-specific feature rdmabench does not set up"
#define MLX_USE "drop it, or use perftest for this feature"
#define RATE_WHY "there is no rate limiter"
#define RATE_USE "drop it and shape with tc on the netdev, or use " \
		 "perftest's rate limiter"

#define R(name, s, arg, why, instead) { name, s, arg, why, instead }

const struct opts_refusal opts_refuse_rows[] = {
	R("events", 'e', 0, "completions are always polled (busy-wait)",
	  "drop -e: polling gives the figures perftest's default gives"),
	R("vector", 'X', 1, "completions are always polled, no vector is used",
	  "drop -X"),
	R("mcg", 'g', 0, "multicast needs UD QPs, which are not supported",
	  "use perftest's ib_send_bw -g for multicast"),
	R("MGID", 'M', 1, "multicast needs UD QPs, which are not supported",
	  "use perftest's ib_send_bw -g -M for multicast"),
	R("report-cycles", 'C', 0,
	  "figures are in us from CLOCK_MONOTONIC_RAW, never in cycles",
	  "drop -C (the us figures need no CPU frequency)"),
	R("report-unsorted", 'U', 0,
	  "latency samples are binned (constant memory), not kept in order",
	  "use -H for the latency histogram"),
	R("dualport", 'O', 0, "dual-port mode is not supported",
	  "run one pair per port, each with its own -i and -p"),
	R("report-per-port", 0, 0, "dual-port mode is not supported",
	  "run one pair per port, each with its own -i and -p"),
	R("report-counters", 'W', 1,
	  "counters are not named on the command line",
	  "use --json: it records the port counters before and after each "
	  "run; --expect-no-errors gates on the error counters"),
	R("use-srq", 0, 0, "SRQ is not supported: each QP posts its own "
	  "receives", "size each QP's receive queue with -r"),
	R("inline_recv", 0, 1, "inline receive is not supported",
	  "drop it: receives land in the registered buffer"),
	R("recv_post_list", 0, 1, "receives are posted one list per refill",
	  "drop it: -r sets how many receives each QP keeps posted"),
	R("odp", 0, 0, "ODP is not supported: buffers are registered up front",
	  "drop it, or use perftest --odp to measure on-demand paging"),
	R("use_hugepages", 0, 0,
	  "buffers are page-aligned NUMA-local memory, not hugepages",
	  "drop it (pick the node with --numa)"),
	R("mmap", 0, 1, "buffers cannot be mmapped files",
	  "use --use_cuda for P2P to GPU memory, or perftest --mmap"),
	R("mmap-offset", 0, 1, "buffers cannot be mmapped files",
	  "use --use_cuda for P2P to GPU memory, or perftest --mmap"),
	R("mr_per_qp", 0, 0, "one MR serves all QPs (each QP its own slots)",
	  "drop it, or use perftest --mr_per_qp to measure many MRs"),
	R("use-null-mr", 0, 0, "null MRs are not supported",
	  "use perftest --use-null-mr"),
	R("reversed", 0, 0, "the client always initiates the traffic",
	  "swap the roles: run the server where the client was"),
	R("cpu_util", 0, 0, "CPU use is not reported",
	  "measure it with pidstat -p PID 1 or /usr/bin/time beside the run"),
	R("latency_gap", 0, 1, "there is no gap between latency samples",
	  "drop it, or use perftest --latency_gap"),
	R("wait_destroy", 0, 1, "resources are freed as soon as the run ends",
	  "drop it (use sleep after the run to keep the host quiet)"),
	R("payload_file_path", 0, 1,
	  "the payload is rdmabench's own pattern",
	  "use --validate to check every byte of that pattern"),
	R("dont_xchg_versions", 0, 0,
	  "versions are always exchanged and checked",
	  "drop it: run the same rdmabench version on both ends"),
	R("write_with_imm", 0, 0, "write with immediate is not supported",
	  "use ib_write_bw (plain writes), or perftest --write_with_imm"),
	R("send_with_imm", 0, 0, "send with immediate is not supported",
	  "use ib_send_bw (plain sends), or perftest --send_with_imm"),
	R("flow_label", 0, 1, "the GRH flow label is not set",
	  "drop it, or use perftest --flow_label"),
	R("force-link", 0, 1, "the link layer follows from the device",
	  "pick the device with -d or --netdev"),
	R("dlid", 0, 1, "the path is resolved (rdma_cm) or exchanged (--oob "
	  "tcp), never given", "drop it and give the server's address"),
	R("pkey_index", 0, 1, "the P_Key is not chosen by index",
	  "use the IPoIB child interface of that P_Key (its IP, or --netdev)"),
	R("burst_size", 0, 1, RATE_WHY, RATE_USE),
	R("typical_pkt_size", 0, 1, RATE_WHY, RATE_USE),
	R("rate_limit", 0, 1, RATE_WHY, RATE_USE),
	R("rate_limit_type", 0, 1, RATE_WHY, RATE_USE),
	R("rate_units", 0, 1, RATE_WHY, RATE_USE),
	R("use_cuda_pcie_mapping", 0, 0, "CUDA memory is mapped by "
	  "nvidia-peermem or dma-buf only", "use --use_cuda_dmabuf"),
	R("use_data_direct", 0, 0, "mlx5 data-direct is not supported",
	  "use --use_cuda_dmabuf"),
	R("gpu_touch", 0, 1, "the GPU does not touch the buffer during a run",
	  "drop it; --validate checks the data after the run"),
	R("use_rocm", 0, 1, GPU_WHY, GPU_USE),
	R("use_rocm_dmabuf", 0, 0, GPU_WHY, GPU_USE),
	R("use_musa", 0, 1, GPU_WHY, GPU_USE),
	R("use_musa_bus_id", 0, 1, GPU_WHY, GPU_USE),
	R("use_musa_dmabuf", 0, 0, GPU_WHY, GPU_USE),
	R("use_musa_pcie_mapping", 0, 0, GPU_WHY, GPU_USE),
	R("use_neuron", 0, 1, GPU_WHY, GPU_USE),
	R("use_neuron_dmabuf", 0, 0, GPU_WHY, GPU_USE),
	R("use_hl", 0, 1, GPU_WHY, GPU_USE),
	R("use_mlu", 0, 1, GPU_WHY, GPU_USE),
	R("use_mlu_dmabuf", 0, 0, GPU_WHY, GPU_USE),
	R("use_opencl", 0, 1, GPU_WHY, GPU_USE),
	R("opencl_platform_id", 0, 1, GPU_WHY, GPU_USE),
	R("use_ib_dm_dmabuf", 0, 1, "device memory (ib_dm) buffers are not "
	  "supported", "use perftest --use_ib_dm_dmabuf"),
	R("aes_xts", 0, 0, AES_WHY, AES_USE),
	R("encrypt_on_tx", 0, 0, AES_WHY, AES_USE),
	R("sig_before", 0, 0, AES_WHY, AES_USE),
	R("aes_block_size", 0, 1, AES_WHY, AES_USE),
	R("kek_path", 0, 1, AES_WHY, AES_USE),
	R("credentials_path", 0, 1, AES_WHY, AES_USE),
	R("data_enc_keys_number", 0, 1, AES_WHY, AES_USE),
	R("data_enc_key_app_path", 0, 1, AES_WHY, AES_USE),
	R("sig_offload", 0, 0, AES_WHY, AES_USE),
	R("log_dci_streams", 0, 1, "DC transport is not supported",
	  "use -c RC, or perftest -c DC"),
	R("log_active_dci_streams", 0, 1, "DC transport is not supported",
	  "use -c RC, or perftest -c DC"),
	R("use_ooo", 0, 0, MLX_WHY, MLX_USE),
	R("no_enhanced_reorder", 0, 0, MLX_WHY, MLX_USE),
	R("congest_type", 0, 1, MLX_WHY, MLX_USE),
	R("no_lock", 0, 0, MLX_WHY, MLX_USE),
	R("unsolicited_write", 0, 0, MLX_WHY, MLX_USE),
	R("connectionless", 0, 0, MLX_WHY, MLX_USE),
	R("cqe_poll", 0, 1, MLX_WHY, MLX_USE),
	R("tph_mem", 0, 1, MLX_WHY, MLX_USE),
	R("cpu_id", 0, 1, MLX_WHY, MLX_USE),
	R("ph", 0, 1, MLX_WHY, MLX_USE),
	R("disable_dynamic_polling", 0, 0, "polling is always a plain "
	  "busy-wait", "drop it"),
	R("data_validation_debug", 0, 0, "validation reports the first bad "
	  "byte, not a dump", "use --validate"),
	R("server", 'Z', 0, "the role follows from the address",
	  "give no address to be the server"),
	R("client", 'P', 0, "the role follows from the address",
	  "give the server's address to be the client"),
	R("source_mac", 'B', 1, RAW_WHY, RAW_USE),
	R("dest_mac", 'E', 1, RAW_WHY, RAW_USE),
	R("dest_ip", 'J', 1, RAW_WHY, RAW_USE),
	R("dest_port", 'K', 1, RAW_WHY, RAW_USE),
	R("source_port", 'k', 1, RAW_WHY, RAW_USE),
	R("ethertype", 'Y', 1, RAW_WHY, RAW_USE),
	R("mac_fwd", 'v', 0, RAW_WHY, RAW_USE),
	R("use_rss", 0, 0, RAW_WHY, RAW_USE),
	R("remote_mac", 0, 1, RAW_WHY, RAW_USE),
	R("local_mac", 0, 1, RAW_WHY, RAW_USE),
	R("remote_ip", 0, 1, RAW_WHY, RAW_USE),
	R("local_ip", 0, 1, RAW_WHY, RAW_USE),
	R("remote_port", 0, 1, RAW_WHY, RAW_USE),
	R("local_port", 0, 1, RAW_WHY, RAW_USE),
	R("tcp", 0, 0, RAW_WHY, RAW_USE),
	R("promiscuous", 0, 0, RAW_WHY, RAW_USE),
	R("sniffer", 0, 0, RAW_WHY, RAW_USE),
	R("raw_mcast", 0, 0, RAW_WHY, RAW_USE),
	R("flows", 0, 1, RAW_WHY, RAW_USE),
	R("flows_burst", 0, 1, RAW_WHY, RAW_USE),
	R("reply_every", 0, 1, RAW_WHY, RAW_USE),
	R("vlan_en", 0, 0, RAW_WHY, RAW_USE),
	R("vlan_pcp", 0, 1, RAW_WHY, RAW_USE),
	R("raw_ipv6", 0, 0, RAW_WHY, RAW_USE),
};

#define ROWS (sizeof(opts_refuse_rows) / sizeof(opts_refuse_rows[0]))
_Static_assert(ROWS <= OPTS_REFUSE_MAX, "raise OPTS_REFUSE_MAX");

const size_t opts_refuse_count = ROWS;
