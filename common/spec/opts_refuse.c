// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_refuse - perftest's options rdmabench refuses, with why and what to
 * do instead (tests/fixtures/perftest-options.txt lists where they came
 * from; tests/spec/test_perftest_opts.c checks that each gets an answer).
 */
#include "spec/opts_refuse.h"

#define RAW_WHY "a raw Ethernet option (perftest's raw_ethernet_* tools); " \
		"these tools run RC/UC/UD QPs"
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

const struct opts_refusal opts_refuse_rows[] = {
	{ .name = "vector", .short_name = 'X', .has_arg = true,
	  .why = "completion events (-e) always use vector 0",
	  .instead = "drop -X" },
	{ .name = "mcg", .short_name = 'g',
	  .why = "multicast groups are not joined (UD runs unicast, "
		 "-c UD)",
	  .instead = "use -c UD for one peer, or perftest's ib_send_bw -g "
		     "for multicast" },
	{ .name = "report-cycles", .short_name = 'C',
	  .why = "figures are in us from CLOCK_MONOTONIC_RAW, never in cycles",
	  .instead = "drop -C (the us figures need no CPU frequency)" },
	{ .name = "dualport", .short_name = 'O',
	  .why = "dual-port mode is not supported",
	  .instead = "run one pair per port, each with its own -i and -p" },
	{ .name = "report-per-port",
	  .why = "dual-port mode is not supported",
	  .instead = "run one pair per port, each with its own -i and -p" },
	{ .name = "report-counters", .short_name = 'W', .has_arg = true,
	  .why = "counters are not named on the command line",
	  .instead = "use --json: it records the port counters before and "
	  "after each run; --expect-no-errors gates on the error counters" },
	{ .name = "use-srq",
	  .why = "SRQ is not supported: each QP posts its own receives",
	  .instead = "size each QP's receive queue with -r" },
	{ .name = "recv_post_list", .has_arg = true,
	  .why = "receives are posted one list per refill",
	  .instead = "drop it: -r sets how many receives each QP keeps posted"
	  },
	{ .name = "odp",
	  .why = "ODP is not supported: buffers are registered up front",
	  .instead = "drop it, or use perftest --odp to measure on-demand "
	  "paging" },
	{ .name = "use_hugepages",
	  .why = "buffers are page-aligned NUMA-local memory, not hugepages",
	  .instead = "drop it (pick the node with --numa)" },
	{ .name = "mmap", .has_arg = true,
	  .why = "buffers cannot be mmapped files",
	  .instead = "use --use_cuda for P2P to GPU memory, or perftest --mmap"
	  },
	{ .name = "mmap-offset", .has_arg = true,
	  .why = "buffers cannot be mmapped files",
	  .instead = "use --use_cuda for P2P to GPU memory, or perftest --mmap"
	  },
	{ .name = "mr_per_qp",
	  .why = "one MR serves all QPs (each QP its own slots)",
	  .instead = "drop it, or use perftest --mr_per_qp to measure many MRs"
	  },
	{ .name = "use-null-mr",
	  .why = "null MRs are not supported",
	  .instead = "use perftest --use-null-mr" },
	{ .name = "reversed",
	  .why = "the client always initiates the traffic",
	  .instead = "swap the roles: run the server where the client was" },
	{ .name = "payload_file_path", .has_arg = true,
	  .why = "the payload is rdmabench's own pattern",
	  .instead = "use --validate to check every byte of that pattern" },
	{ .name = "write_with_imm",
	  .why = "write with immediate is not supported",
	  .instead = "use ib_write_bw (plain writes), or perftest "
	  "--write_with_imm" },
	{ .name = "send_with_imm",
	  .why = "send with immediate is not supported",
	  .instead = "use ib_send_bw (plain sends), or perftest "
	  "--send_with_imm" },
	{ .name = "flow_label", .has_arg = true,
	  .why = "the GRH flow label is not set",
	  .instead = "drop it, or use perftest --flow_label" },
	{ .name = "force-link", .has_arg = true,
	  .why = "the link layer follows from the device",
	  .instead = "pick the device with -d or --netdev" },
	{ .name = "dlid", .has_arg = true,
	  .why = "the path is resolved (rdma_cm) or exchanged (--oob tcp), "
	  "never given",
	  .instead = "drop it and give the server's address" },
	{ .name = "pkey_index", .has_arg = true,
	  .why = "the P_Key is not chosen by index",
	  .instead = "use the IPoIB child interface of that P_Key (its IP, or "
	  "--netdev)" },
	{ .name = "burst_size", .has_arg = true, .why = RATE_WHY,
	  .instead = RATE_USE },
	{ .name = "typical_pkt_size", .has_arg = true, .why = RATE_WHY,
	  .instead = RATE_USE },
	{ .name = "rate_limit", .has_arg = true, .why = RATE_WHY,
	  .instead = RATE_USE },
	{ .name = "rate_limit_type", .has_arg = true, .why = RATE_WHY,
	  .instead = RATE_USE },
	{ .name = "rate_units", .has_arg = true, .why = RATE_WHY,
	  .instead = RATE_USE },
	{ .name = "use_cuda_pcie_mapping",
	  .why = "CUDA memory is mapped by nvidia-peermem or dma-buf only",
	  .instead = "use --use_cuda_dmabuf" },
	{ .name = "use_data_direct",
	  .why = "mlx5 data-direct is not supported",
	  .instead = "use --use_cuda_dmabuf" },
	{ .name = "gpu_touch", .has_arg = true,
	  .why = "the GPU does not touch the buffer during a run",
	  .instead = "drop it; --validate checks the data after the run" },
	{ .name = "use_rocm", .has_arg = true, .why = GPU_WHY,
	  .instead = GPU_USE },
	{ .name = "use_rocm_dmabuf", .why = GPU_WHY, .instead = GPU_USE },
	{ .name = "use_musa", .has_arg = true, .why = GPU_WHY,
	  .instead = GPU_USE },
	{ .name = "use_musa_bus_id", .has_arg = true, .why = GPU_WHY,
	  .instead = GPU_USE },
	{ .name = "use_musa_dmabuf", .why = GPU_WHY, .instead = GPU_USE },
	{ .name = "use_musa_pcie_mapping", .why = GPU_WHY, .instead = GPU_USE },
	{ .name = "use_neuron", .has_arg = true, .why = GPU_WHY,
	  .instead = GPU_USE },
	{ .name = "use_neuron_dmabuf", .why = GPU_WHY, .instead = GPU_USE },
	{ .name = "use_hl", .has_arg = true, .why = GPU_WHY,
	  .instead = GPU_USE },
	{ .name = "use_mlu", .has_arg = true, .why = GPU_WHY,
	  .instead = GPU_USE },
	{ .name = "use_mlu_dmabuf", .why = GPU_WHY, .instead = GPU_USE },
	{ .name = "use_opencl", .has_arg = true, .why = GPU_WHY,
	  .instead = GPU_USE },
	{ .name = "opencl_platform_id", .has_arg = true, .why = GPU_WHY,
	  .instead = GPU_USE },
	{ .name = "use_ib_dm_dmabuf", .has_arg = true,
	  .why = "device memory (ib_dm) buffers are not supported",
	  .instead = "use perftest --use_ib_dm_dmabuf" },
	{ .name = "aes_xts", .why = AES_WHY, .instead = AES_USE },
	{ .name = "encrypt_on_tx", .why = AES_WHY, .instead = AES_USE },
	{ .name = "sig_before", .why = AES_WHY, .instead = AES_USE },
	{ .name = "kek_path", .has_arg = true, .why = AES_WHY,
	  .instead = AES_USE },
	{ .name = "credentials_path", .has_arg = true, .why = AES_WHY,
	  .instead = AES_USE },
	{ .name = "data_enc_key_app_path", .has_arg = true, .why = AES_WHY,
	  .instead = AES_USE },
	{ .name = "sig_offload", .why = AES_WHY, .instead = AES_USE },
	{ .name = "log_dci_streams", .has_arg = true,
	  .why = "DC transport is not supported",
	  .instead = "use -c RC, or perftest -c DC" },
	{ .name = "log_active_dci_streams", .has_arg = true,
	  .why = "DC transport is not supported",
	  .instead = "use -c RC, or perftest -c DC" },
	{ .name = "use_ooo", .why = MLX_WHY, .instead = MLX_USE },
	{ .name = "no_enhanced_reorder", .why = MLX_WHY, .instead = MLX_USE },
	{ .name = "congest_type", .has_arg = true, .why = MLX_WHY,
	  .instead = MLX_USE },
	{ .name = "no_lock", .why = MLX_WHY, .instead = MLX_USE },
	{ .name = "unsolicited_write", .why = MLX_WHY, .instead = MLX_USE },
	{ .name = "connectionless", .why = MLX_WHY, .instead = MLX_USE },
	{ .name = "cqe_poll", .has_arg = true, .why = MLX_WHY,
	  .instead = MLX_USE },
	{ .name = "tph_mem", .has_arg = true, .why = MLX_WHY,
	  .instead = MLX_USE },
	{ .name = "cpu_id", .has_arg = true, .why = MLX_WHY,
	  .instead = MLX_USE },
	{ .name = "ph", .has_arg = true, .why = MLX_WHY, .instead = MLX_USE },
	{ .name = "disable_dynamic_polling",
	  .why = "polling is always a plain busy-wait",
	  .instead = "drop it" },
	{ .name = "data_validation_debug",
	  .why = "validation reports the first bad byte, not a dump",
	  .instead = "use --validate" },
	{ .name = "source_mac", .short_name = 'B', .has_arg = true,
	  .why = RAW_WHY, .instead = RAW_USE },
	{ .name = "dest_mac", .short_name = 'E', .has_arg = true,
	  .why = RAW_WHY, .instead = RAW_USE },
	{ .name = "dest_ip", .short_name = 'J', .has_arg = true, .why = RAW_WHY,
	  .instead = RAW_USE },
	{ .name = "ethertype", .short_name = 'Y', .has_arg = true,
	  .why = RAW_WHY, .instead = RAW_USE },
	{ .name = "use_rss", .why = RAW_WHY, .instead = RAW_USE },
	{ .name = "remote_mac", .has_arg = true, .why = RAW_WHY,
	  .instead = RAW_USE },
	{ .name = "local_mac", .has_arg = true, .why = RAW_WHY,
	  .instead = RAW_USE },
	{ .name = "remote_ip", .has_arg = true, .why = RAW_WHY,
	  .instead = RAW_USE },
	{ .name = "local_ip", .has_arg = true, .why = RAW_WHY,
	  .instead = RAW_USE },
	{ 0 }, /* the end, for the option engine */
};

const size_t opts_refuse_count =
	sizeof(opts_refuse_rows) / sizeof(opts_refuse_rows[0]) - 1;
