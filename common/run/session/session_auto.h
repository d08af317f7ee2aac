/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session_auto - the default rendezvous, --oob auto (session_auto.c).
 */
#ifndef RDMABENCH_RUN_SESSION_SESSION_AUTO_H
#define RDMABENCH_RUN_SESSION_SESSION_AUTO_H

#include "run/session/session_ops.h"

extern const struct session_ops session_auto_ops;

#endif
