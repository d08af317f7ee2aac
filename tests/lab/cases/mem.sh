# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/mem.sh - sourced by tests/lab/all.sh in the lab guest:
# how receives are posted and memory registered, perftest's flags of issue
# 26. On rxe, ours against our server: --recv_post_list on ib_send_bw
# (receives in lists of 8 over two QPs; the client's flag travels, so both
# headers say it), and a -D run with lists of 3 and a warm-up, whose pass
# of 128 ends in a shorter list; --mr_per_qp on ib_write_bw with two QPs,
# each writing into the peer's buffer of that QP with its own rkey, every
# byte checked where it lands (--validate). Iterations are scaled for TCG.
# shellcheck shell=bash

MEM_LIST_ROW="[[:space:]]4096 +400 +$NUM"
MEM_ROW="[[:space:]]4096 +[0-9]+ +$NUM"

if lab_have rxe; then
	lab_pair mem.recv_post_list.ib_send_bw.rxe -t 60 \
		-e "$MEM_LIST_ROW" -e "Recv Post List +: 8" \
		-E "Recv Post List +: 8" \
		"$B/ib_send_bw" -p 18790 -- \
		"$B/ib_send_bw" -p 18790 --recv_post_list 8 -q 2 -n 200 \
		-s 4096 "$LAB_RXE_IP"
	lab_pair mem.recv_post_list.duration.rxe -t 60 \
		-e "$MEM_ROW" -e "Recv Post List +: 3" -e "Warm-up" \
		"$B/ib_send_bw" -p 18791 -- \
		"$B/ib_send_bw" -p 18791 --recv_post_list 3 -D 1 \
		--perform_warm_up -s 4096 "$LAB_RXE_IP"
	lab_pair mem.mr_per_qp.ib_write_bw.rxe -t 60 \
		-e "$MEM_LIST_ROW" -e "Memory +: host, a buffer and MR per QP" \
		-E "Memory +: host, a buffer and MR per QP" \
		"$B/ib_write_bw" -p 18792 -- \
		"$B/ib_write_bw" -p 18792 --mr_per_qp -q 2 -n 200 -s 4096 \
		--validate "$LAB_RXE_IP"
fi
