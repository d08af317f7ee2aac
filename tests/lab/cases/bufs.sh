# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/bufs.sh - sourced by tests/lab/all.sh in the lab guest:
# perftest's buffer options (issue 26), each side's own as in perftest's
# (none travels in the HELLO), on rxe: --use_hugepages with a pool set in
# /proc/sys/vm/nr_hugepages, ours and perftest's pairs, then the pool
# emptied to show the sentence. Iterations are scaled for TCG.
# shellcheck shell=bash

BUFS_ROW="[[:space:]]65536 +200 +$NUM"
BUFS_PT_ROW="[[:space:]]65536 +[0-9]+ +$NUM"
BUFS_HUGE="Memory +: hugepages \(2048 kB pages\)"

if lab_have rxe; then
	bufs_pt=(-d "$LAB_RXE_DEV" -x "$LAB_RXE_GID" -n 200)
	# 16 pages of 2 MiB: ours needs one a side, perftest's one or two
	echo 16 > /proc/sys/vm/nr_hugepages
	lab_pair bufs.hugepages.ours.rxe -t 60 -e "$BUFS_ROW" \
		-e "$BUFS_HUGE" -E "$BUFS_HUGE" \
		"$B/ib_write_bw" -p 18671 --use_hugepages -- \
		"$B/ib_write_bw" -p 18671 --use_hugepages -n 200 "$LAB_RXE_IP"
	lab_pair bufs.hugepages.perftest.rxe --retries 2 -t 60 --delay 2 \
		-e "$BUFS_PT_ROW" \
		ib_write_bw "${bufs_pt[@]}" --use_hugepages -p 18672 -- \
		ib_write_bw "${bufs_pt[@]}" --use_hugepages -p 18672 \
		"$LAB_RXE_IP"
	# an empty pool: the client says what to do, the server is told
	echo 0 > /proc/sys/vm/nr_hugepages
	lab_pair bufs.hugepages.empty.rxe -t 60 -r 1 -R 5 \
		-e 'needed, 0 of the pool.s 0 are free \(/proc/meminfo\): as root, echo 1 > /proc/sys/vm/nr_hugepages' \
		-e "the pod's hugepages-2Mi resource" \
		"$B/ib_write_bw" -p 18673 -- \
		"$B/ib_write_bw" -p 18673 --use_hugepages -n 200 "$LAB_RXE_IP"
fi
