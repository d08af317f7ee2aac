/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric - ib_fabric: many nodes at once (docs/fabric.md). Parses its
 * options, reads the host list, builds the plan (fabric/plan.h), finds
 * this process's rank (fabric/role.h: --rank, Slurm, Open MPI, PMI, an
 * Indexed Job, else this host's name in the list), then prints the plan
 * (--dry-run) or runs this rank's part of it (fabric/live/fabric_exec.h).
 */
#ifndef RDMABENCH_FABRIC_LIVE_FABRIC_H
#define RDMABENCH_FABRIC_LIVE_FABRIC_H

/* ib_fabric's main. Returns the exit code (BENCH_EXIT_*). */
int fabric_main(int argc, char **argv);

#endif
