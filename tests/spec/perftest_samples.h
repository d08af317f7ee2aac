/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/spec/perftest_samples.h - values a perftest user would give an
 * option of perftest's, by its long name ("1" for the rest): the argv of
 * test_perftest_opts and test_perftest_diff start from the same ones.
 */
#ifndef RDMABENCH_TESTS_SPEC_PERFTEST_SAMPLES_H
#define RDMABENCH_TESTS_SPEC_PERFTEST_SAMPLES_H

#define PERFTEST_SAMPLES \
	{ "connection", "RC" }, { "atomic_type", "CMP_AND_SWAP" }, \
	{ "output", "bandwidth" }, { "mtu", "1024" }, { "tos", "106" }, \
	{ "tclass", "106" }, { "ib-dev", "mlx5_0" }, { "size", "64" }, \
	{ "pin_cores", "0" }, { "use_cuda_bus_id", "0000:3b:00.0" }, \
	{ "out_json_file", "out.json" }, { "qp-timeout", "14" }, \
	{ "report-counters", "counters/port_xmit_data" }, \
	{ "source_ip", "10.0.0.1" }, { "bind_source_ip", "10.0.0.1" }, \
	{ "port", "18515" }, { "duration", "5" }, { "iters", "100" }, \
	{ "limit_bw", "100" }, { "mmap", "/tmp/x" }, { "gid-index", "0" }, \
	{ "payload_file_path", "/tmp/x" }, { "margin", "1" }

#endif
