/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doctor - ib_doctor, a preflight that finds the ways an RDMA fabric
 * silently falls back (no provider, port down, MTU 1024, an IP without a
 * RoCEv2 GID, a route through eth0, memlock, NUMA, GPUDirect, pod
 * networks) and says the one-line fix for each. Findings go to stdout as
 * a table and, with --json FILE, as JSON (--json -: the JSON on stdout,
 * the table on stderr). Exit: 0 all passed, 6 warnings,
 * 7 a failure, 2 usage, 1 runtime error.
 */
#ifndef RDMABENCH_DOCTOR_DOCTOR_H
#define RDMABENCH_DOCTOR_DOCTOR_H

#include <stdio.h>

#include "doctor/probe.h"
#include "spec/opts_prog.h"

/* The whole program; bench/ib_doctor.c calls it. Not pure (verbs). */
int doctor_main(int argc, char **argv);

/*
 * The program with its outside world passed in (pure): envp for the pod
 * checks, real for the probes (used unless --root DIR is given: then the
 * answers come from DIR/probe). Returns the exit code.
 */
int doctor_cli(int argc, char **argv, char *const *envp,
	       const struct probe *real, FILE *out);

/* ib_doctor's program in the one option engine: its rows, from which
 * the parser, --help, the man page and the completion all come. */
extern const struct opt_prog doctor_cli_prog;

/* The real probes: verbs, rdma_cm, netlink, ethtool (verbs.c). */
void doctor_real_probe(struct probe *out);

#endif
