#!/bin/bash
# tests/mk/test_completion.sh - the completion of `make completion`
# ($RDMABENCH_BUILD/completion): bash completes --rep to the report options
# in both spellings for every tool that takes them, enum values after -c,
# a file after --json, ib_doctor's --version, ib_fabric's options and
# patterns (its own, not the benches'); zsh (when installed) reads
# _rdmabench and offers the same words.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}
C=$B/completion
failed=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# complete WORDS...: what bash offers for the last word
complete_bash() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_rdmabench "$1"; echo "${COMPREPLY[*]}"' _ "$C/rdmabench" "$@"
}

[ -s "$C/rdmabench" ] || { echo "FAIL $C/rdmabench missing"; exit 1; }
bash -n "$C/rdmabench" || fail "bash -n $C/rdmabench"
got=$(complete_bash ib_write_bw --rep)
for w in --report_gbits --report-gbits --report-both --report_both; do
	[[ " $got " == *" $w "* ]] || fail "ib_write_bw --rep: no $w in '$got'"
done
got=$(complete_bash ib_write_lat --rep)
[[ " $got " == *" --report-histogram "* ]] ||
	fail "ib_write_lat --rep: no --report-histogram in '$got'"
[[ " $got " == *" --report_gbits "* ]] &&
	fail "ib_write_lat --rep offers --report_gbits (bandwidth only)"
got=$(complete_bash ib_send_bw -c "")
[ "$got" = "RC UC UD" ] || fail "ib_send_bw -c: '$got', not 'RC UC UD'"
got=$(complete_bash ib_doctor --ver)
[ "$got" = "--version" ] || fail "ib_doctor --ver: '$got'"
got=$(complete_bash ib_fabric --dry)
[ "$got" = "--dry-run --dry_run" ] || fail "ib_fabric --dry: '$got'"
got=$(complete_bash ib_fabric -P "")
[ "$got" = "pairs ring all-to-all bisection incast fan-out" ] ||
	fail "ib_fabric -P: '$got'"
# -t is the benches' --tx-depth (a number) but ib_fabric's --tool
got=$(complete_bash ib_fabric --pattern ring --rep)
[ -z "$got" ] || fail "ib_fabric --rep offers the benches' '$got'"
n=$(bash -c 'source "$1"; complete -p' _ "$C/rdmabench" |
	grep -c -- '-F _rdmabench')
[ "$n" = 10 ] || fail "complete -F for $n tools, not 10"

if command -v zsh >/dev/null 2>&1; then
	got=$(zsh -fc 'compadd() { if [[ $1 == -a ]]; then
		print -l -- ${(P)2} | grep -- "^$PREFIX"; else print -- "$@"; fi }
		_files() { print FILES }; _hosts() { print HOSTS }
		service=ib_read_bw words=(ib_read_bw --rep) CURRENT=2
		PREFIX=--rep; source "$1"' _ "$C/_rdmabench" | tr '\n' ' ')
	[[ " $got" == *" --report-gbits "* ]] ||
		fail "zsh ib_read_bw --rep: '$got'"
	zsh -n "$C/_rdmabench" || fail "zsh -n $C/_rdmabench"
fi
echo "completion: $failed failed"
[ "$failed" -eq 0 ]
