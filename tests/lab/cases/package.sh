# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/package.sh - sourced by tests/lab/all.sh in the lab guest:
# the Debian package that "make deb" built on the host ($B/deb/, the newest)
# installed with dpkg -i over the guest's perftest (Conflicts/Replaces:
# dpkg removes perftest in its favour), then ib_write_bw from /usr/bin on
# rxe0, the man page and completion where the package has them, and a
# purge that leaves none of its files. The guest's / is an overlay, so the
# host is untouched; perftest's files and dpkg's status are put back after,
# for the cases that run perftest. man-db's trigger is off meanwhile.
# shellcheck shell=bash

PKG_KEEP=${LAB_OUT:-/tmp}/package-keep.tar

# the newest $B/deb/rdmabench_*.deb in PKG_DEB (builtins: no ls)
pkg_find_deb() {
	local f
	PKG_DEB=
	for f in "$B"/deb/rdmabench_*.deb; do
		[ -f "$f" ] || continue
		[ -z "$PKG_DEB" ] || [ "$f" -nt "$PKG_DEB" ] && PKG_DEB=$f
	done
	[ -n "$PKG_DEB" ]
}

# perftest's files, dpkg's status and perftest's dpkg records, to put back
# (PKG_PERFTEST=1 when perftest is installed);
# man-db's auto-update flag too, removed meanwhile: its trigger re-indexes
# every man page, which takes many minutes under TCG ("man" needs no index)
pkg_keep() {
	local list=/var/lib/dpkg/info/perftest.list f keep=()
	PKG_PERFTEST=0
	[ -f "$list" ] && PKG_PERFTEST=1 && while read -r f; do
		[ -f "$f" ] && keep+=("$f")
	done < "$list"
	for f in /var/lib/man-db/auto-update /var/lib/dpkg/info/perftest.*; do
		[ -e "$f" ] && keep+=("$f")
	done
	tar -cPf "$PKG_KEEP" /var/lib/dpkg/status "${keep[@]}" &&
		rm -f /var/lib/man-db/auto-update
}

# dpkg -L rdmabench's files (not directories) in PKG_FILES
pkg_files() {
	local f
	PKG_FILES=()
	while read -r f; do
		[ -d "$f" ] || PKG_FILES+=("$f")
	done < /var/lib/dpkg/info/rdmabench.list
}

# purge, then list any of its files still there
pkg_purge() {
	local f left=0
	dpkg --purge rdmabench || return 1
	for f in "${PKG_FILES[@]}"; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		echo "left behind: $f"
		left=1
	done
	[ -e /var/lib/dpkg/info/rdmabench.list ] && { echo "dpkg still lists it"; left=1; }
	[ "$left" = 0 ] && echo "purged: ${#PKG_FILES[@]} files gone"
}

# complete "ib_write_bw --rep" with the installed bash completion
pkg_complete() {
	bash -c '
		[ -f /usr/share/bash-completion/bash_completion ] &&
			. /usr/share/bash-completion/bash_completion
		. /usr/share/bash-completion/completions/ib_write_bw || exit 1
		spec=$(complete -p ib_write_bw) || exit 1
		fn=${spec#*-F }; fn=${fn%% *}
		COMP_WORDS=(ib_write_bw --rep) COMP_CWORD=1
		COMP_LINE="ib_write_bw --rep" COMP_POINT=17
		"$fn" ib_write_bw --rep ib_write_bw
		printf "%s\n" "${COMPREPLY[@]}"'
}

if ! pkg_find_deb; then
	lab_skip package "no $B/deb/rdmabench_*.deb: run make deb on the host first"
elif ! lab_have rxe; then
	lab_skip package "needs rxe0 in the guest"
else
	pkg_keep || lab_fail package.keep "could not save perftest's files"
	lab_case package.install -t 300 -e 'Setting up rdmabench' \
		dpkg -i "$PKG_DEB"
	if [ -f /var/lib/dpkg/info/perftest.list ]; then
		lab_fail package.replaces_perftest "perftest is still installed"
	else
		lab_pass package.replaces_perftest
	fi
	lab_case package.version -e '^ib_write_bw \(rdmabench\) [0-9]' \
		/usr/bin/ib_write_bw --version
	lab_pair package.write_bw.rxe -t 120 -e 'BW average\[Gb/sec\]' \
		-e "Device +: $LAB_RXE_DEV" \
		/usr/bin/ib_write_bw -d "$LAB_RXE_DEV" -- \
		/usr/bin/ib_write_bw -d "$LAB_RXE_DEV" "$LAB_RXE_IP" -n 200 \
		--report_gbits
	if [ -f /usr/share/man/man1/ib_write_bw.1.gz ]; then
		lab_case package.man -e 'ib_write_bw' man -P cat ib_write_bw
	else
		lab_skip package.man "the package has no man pages (make man)"
	fi
	if [ -f /usr/share/bash-completion/completions/ib_write_bw ]; then
		lab_case package.completion -e '--report[_-]gbits' \
			-e '--report[_-]both' pkg_complete
	else
		lab_skip package.completion "the package has no completion"
	fi
	pkg_files
	lab_case package.purge -e 'purged: ' -n 'left behind' pkg_purge
	if ! tar -xPf "$PKG_KEEP"; then
		lab_fail package.restore "could not put dpkg's status back"
	elif [ "$PKG_PERFTEST" = 1 ]; then
		[ -f /var/lib/dpkg/info/perftest.list ] && [ -x /usr/bin/ib_write_bw ] &&
			lab_pass package.restore "perftest is back" ||
			lab_fail package.restore "perftest is not back"
	fi
fi
