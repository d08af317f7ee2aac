# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/bufs.sh - sourced by tests/lab/all.sh in the lab guest:
# perftest's buffer options (issue 26), each side's own as in perftest's
# (none travels in the HELLO), on rxe: --use_hugepages with a pool set in
# /proc/sys/vm/nr_hugepages, ours and perftest's pairs, then the pool
# emptied to show the sentence; --mmap of scratch files in /dev/shm (one
# a side: a shared one would alias the two buffers), ours with
# --validate (the client's pattern lands in the server's file) and
# perftest's, then a short file's and a device's sentences; --odp refused
# at the start naming the capability rxe lacks (Debian 12's 6.1 kernel
# has no ODP in rxe), and perftest's --odp pair failing there too.
# Iterations are scaled for TCG.
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

	# --mmap: each side its own file, the client's from an offset; with
	# --validate (4 KiB: a 64 MiB layout) the pattern lands in the file
	bufs_f=/dev/shm/rdmabench-bufs
	rm -f $bufs_f.*
	truncate -s 72M $bufs_f.srv $bufs_f.cli $bufs_f.pts $bufs_f.ptc
	truncate -s 4096 $bufs_f.short
	lab_pair bufs.mmap.ours.rxe -t 60 -e "[[:space:]]4096 +200 +$NUM" \
		-e "Memory +: mmap of $bufs_f.cli at offset 65536" \
		-E "Memory +: mmap of $bufs_f.srv at offset 0" \
		"$B/ib_write_bw" -p 18674 --validate --mmap $bufs_f.srv -- \
		"$B/ib_write_bw" -p 18674 --validate --mmap $bufs_f.cli \
		--mmap-offset 65536 -s 4096 -n 200 "$LAB_RXE_IP"
	if lab_wants bufs.mmap.file_written; then
		if [ "$(tr -d '\0' < $bufs_f.srv | head -c 64 | wc -c)" = 64 ]; then
			lab_pass bufs.mmap.file_written
		else
			lab_fail bufs.mmap.file_written "$bufs_f.srv holds no pattern"
		fi
	fi
	lab_pair bufs.mmap.perftest.rxe --retries 2 -t 60 --delay 2 \
		-e "$BUFS_PT_ROW" \
		ib_write_bw "${bufs_pt[@]}" --mmap $bufs_f.pts -p 18675 -- \
		ib_write_bw "${bufs_pt[@]}" --mmap $bufs_f.ptc -p 18675 \
		"$LAB_RXE_IP"
	lab_pair bufs.mmap.short.rxe -t 60 -r 2 -R 5 \
		-e "--mmap $bufs_f.short has 4096 bytes; the buffers need [0-9]+ bytes from offset 0: make it at least" \
		"$B/ib_write_bw" -p 18676 -- \
		"$B/ib_write_bw" -p 18676 --mmap $bufs_f.short -n 200 \
		"$LAB_RXE_IP"
	# a device is never written over: refused before the session
	lab_case bufs.mmap.device -r 2 \
		-e "--mmap /dev/zero is a character device: only a regular file's pages" \
		"$B/ib_write_bw" --mmap /dev/zero -n 200 "$LAB_RXE_IP"
	rm -f $bufs_f.*
	# --odp: rxe (Linux 6.1) reports no on-demand paging: ours says
	# which capability is missing before any traffic, perftest's fails
	lab_pair bufs.odp.ours.rxe -t 60 -r 2 -R 5 \
		-e "--odp: rxe0 has no on-demand paging for RC \(ibv_query_device_ex odp_caps: general 0x0, RC 0x0; this test needs SEND\|WRITE\): drop --odp" \
		"$B/ib_write_bw" -p 18677 -- \
		"$B/ib_write_bw" -p 18677 --odp -n 200 "$LAB_RXE_IP"
	lab_pair bufs.odp.perftest.rxe --retries 2 -t 60 --delay 2 -r 1 -R 1 \
		-e "(Send is not supported for RC transport|Couldn't query device for on-demand paging)" \
		ib_write_bw "${bufs_pt[@]}" --odp -p 18678 -- \
		ib_write_bw "${bufs_pt[@]}" --odp -p 18678 "$LAB_RXE_IP"
fi
