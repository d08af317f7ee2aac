# shellcheck shell=bash disable=SC2034
# tests/lab/harness.sh - test helpers for scripts run in the lab guest
# (scripts/lab/run.sh), bash only.  Source it from a guest-side test script:
#
#   #!/bin/bash
#   source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
#   lab_case devinfo -e 'PORT_ACTIVE' ibv_devinfo
#   lab_pair write_bw_rxe -e 'BW average' build/ib_write_bw -d rxe0 -- build/ib_write_bw "$LAB_RXE_IP" -n 200
#   lab_assert write_bw_rxe.server 'bytes' "$LAB_SERVER_OUT"
#   lab_summary                      # last line: "lab: N passed, N failed, N skipped"
#
# Functions (a case NAME may use letters, digits, . _ - ; it names its logs):
#
#   lab_case NAME [OPTS] [--] CMD [ARG...]
#       Runs CMD (a program or a shell function) with stdin /dev/null, output
#       to $LAB_LOGDIR/NAME.log, and records PASS/FAIL/SKIP: PASS if it exits
#       with the expected status (default 0) and its output matches every -e
#       and no -n regex; SKIP if it exits 77; FAIL otherwise (timeout = 124).
#       OPTS: -t SECS   timeout (default $LAB_TIMEOUT, 60)
#             -r RC     expected exit status (default 0)
#             -e REGEX  output must match (bash ERE, whole output), repeatable
#             -n REGEX  output must not match, repeatable
#       Sets LAB_RC, LAB_OUTPUT (the output), LAB_LOG (its file).  Returns 0
#       pass, 1 fail, 77 skip.
#
#   lab_pair NAME [OPTS] SERVER_CMD... -- CLIENT_CMD...
#       Starts the server in the background, then runs the client in the
#       foreground; both bounded by the timeout.  After the client ends the
#       server gets -g SECS to exit, then it is killed (status 124).  Records
#       PASS if both exit as expected and the outputs match.  SKIP if either
#       exits 77.
#       OPTS: -t SECS   timeout for the whole pair (default $LAB_TIMEOUT)
#             -g SECS   server grace after the client ended (default 15)
#             --retry N rerun a failed client up to N more times while the
#                       server is still running (servers that are not
#                       listening yet, e.g. perftest), 0.5 s apart (default 0:
#                       our own clients retry connecting by themselves)
#             --delay SECS  wait before starting the client (default 0)
#             --ready REGEX start the client once the server's output matches
#                       (server output must be line-buffered: stdbuf -oL)
#             -r RC / -R RC  expected client / server exit status (default 0)
#             -e REGEX / -E REGEX  client / server output must match (repeatable)
#             -n REGEX / -N REGEX  client / server output must not match
#       Sets LAB_CLIENT_RC LAB_SERVER_RC, LAB_CLIENT_OUT LAB_SERVER_OUT (the
#       outputs), LAB_CLIENT_LOG LAB_SERVER_LOG (files), LAB_CLIENT_TRIES.
#       Returns 0 pass, 1 fail, 77 skip.
#
#   lab_match REGEX TEXT        0 if TEXT matches (bash ERE), else 1; no record
#   lab_assert NAME REGEX TEXT  records PASS/FAIL of lab_match (shows TEXT's tail on failure)
#   lab_assert_not NAME REGEX TEXT   the reverse
#   lab_pass NAME / lab_fail NAME [WHY] / lab_skip NAME [WHY]   record a result
#   lab_have rxe|siw            0 if that device came up in the guest
#   lab_sleep SECS              sleep without fork/exec (fractions allowed)
#   lab_wants NAME              0 if the case NAME is to run (see Selecting
#                               below): wrap work done outside lab_case and
#                               lab_pair in it (if lab_wants X; then ...; fi)
#   lab_summary                 prints the failures and, as its last line,
#                               "lab: N passed, N failed, N skipped"; exits 1
#                               if any failed, else 0.  A script that exits
#                               without calling it gets a FAIL and the line.
#
# Selecting (one case at a time): _LAB_ONLY (set by tests/lab/all.sh from
# RDMABENCH_LAB_ONLY, and taken from it by scripts that source this file
# directly) and RDMABENCH_LAB_SKIP are lists of patterns. A case NAME is
# run when no _LAB_ONLY pattern is set or one selects it, and no SKIP
# pattern does. Pattern P selects NAME when NAME is P, NAME starts with
# "P." (a group), P starts with "NAME." (the case whose output P's assert
# reads; not for SKIP), or P holds * ? [ and NAME matches it as a glob. A case left out
# records nothing and returns 77.
#
# Results: besides the lines above, every record is a TAP line (the Test
# Anything Protocol, which prove(1) reads) in $LAB_TAP (default
# $LAB_LOGDIR/results.tap): "ok N - NAME (1.2 s)", "ok N - NAME # SKIP
# why", "not ok N - NAME (1.2 s)" and "# why" lines; lab_summary writes the
# plan "1..N" last, so a file without a plan is a run that died. A record's
# time is the wall time since the previous record (or lab_mark, which
# tests/lab/all.sh calls at each case file): the case and whatever the
# script did to prepare it, so that the slowest cases show where time goes.
# Retries: lab_case and lab_pair take --retries N (rerun a failed case up
# to N more times, for what is intermittent under TCG and cannot be made
# deterministic); a pass after a retry says "passed on try K" on its line,
# so the summary (tests/tap-sum.sh) counts it as retried.
#
# Do not "set -e" in test scripts: a failing case returns 1 (and records it).
# Environment: LAB_LOGDIR (default $LAB_OUT/lab-logs, or /tmp/lab-logs),
#   LAB_TIMEOUT (default per-case timeout, 60), LAB_VERBOSE=1 (show the
#   output of passing cases too).  results.txt in LAB_LOGDIR lists the results;
#   cpu.txt, each record's wall and guest CPU seconds ("NAME WALL CPU": the
#   lab is CPU-bound in CI, three guests on two cores, so CPU is its cost).
# Under TCG every fork+exec costs ~0.15 s: these helpers use bash builtins only
# (no subshell captures, no sleep/grep/timeout processes).

[ -n "${LAB_HARNESS_LOADED:-}" ] && return 0
LAB_HARNESS_LOADED=1

LAB_LOGDIR=${LAB_LOGDIR:-${LAB_OUT:-/tmp}/lab-logs}
LAB_TIMEOUT=${LAB_TIMEOUT:-60}
LAB_VERBOSE=${LAB_VERBOSE:-0}
mkdir -p "$LAB_LOGDIR" || { echo "harness: cannot create LAB_LOGDIR=$LAB_LOGDIR" >&2; exit 1; }
: > "$LAB_LOGDIR/results.txt"
: > "$LAB_LOGDIR/cpu.txt"
LAB_TAP=${LAB_TAP:-$LAB_LOGDIR/results.tap}
: > "$LAB_TAP"
LAB_N_PASS=0 LAB_N_FAIL=0 LAB_N_SKIP=0 LAB_FAILED=() _LAB_DONE=0 _LAB_MAINPID=$BASHPID
_LAB_ONLY=${_LAB_ONLY-${RDMABENCH_LAB_ONLY:-}} _LAB_TRY=1 _LAB_AGAIN=0

# a pipe nobody writes to: "read -t" on it is a sleep without fork/exec
exec {_LAB_SLEEPFD}<> <(:)
lab_sleep() { read -r -t "$1" -u "$_LAB_SLEEPFD" _ || true; }

_lab_now() { _LAB_NOW=${EPOCHREALTIME/[.,]/}; }          # microseconds
# the guest's busy CPU time in ticks (USER_HZ, 100 a second on Debian):
# user, nice, system, irq and softirq of all its CPUs, from /proc/stat
_lab_cpu() {
    local _c u n s i w q sq
    read -r _c u n s i w q sq _ < /proc/stat 2> /dev/null || { _LAB_CPU=0; return; }
    _LAB_CPU=$((u + n + s + q + sq))
}
lab_mark() { _lab_now; _LAB_MARK=$_LAB_NOW; _lab_cpu; _LAB_CPU_MARK=$_LAB_CPU; }  # the next record starts now
lab_mark
_lab_secs() {                                             # _lab_secs START_US -> _LAB_SECS "1.2"
    local d; _lab_now; d=$(((_LAB_NOW - $1) / 100000))
    _LAB_SECS=$((d / 10)).$((d % 10))
}
_lab_record() {                                           # STATUS NAME [DETAIL]
    local line tap n=$((LAB_N_PASS + LAB_N_FAIL + LAB_N_SKIP + 1))
    _lab_secs "$_LAB_MARK"; _LAB_T=$_LAB_SECS; _LAB_MARK=$_LAB_NOW
    _lab_cpu                                              # cpu.txt: "NAME WALL_S CPU_S"
    printf '%s %s %d.%02d\n' "$2" "$_LAB_T" $(((_LAB_CPU - _LAB_CPU_MARK) / 100)) \
        $(((_LAB_CPU - _LAB_CPU_MARK) % 100)) >> "$LAB_LOGDIR/cpu.txt"
    _LAB_CPU_MARK=$_LAB_CPU
    printf -v line '%-4s %s%s' "$1" "$2" "${3:+ ($3)}"
    if [ "$1" = FAIL ] && [ "$_LAB_AGAIN" = 1 ]; then      # --retries: once more
        echo "RETRY ${line#FAIL }"
        echo "# retry: $2 failed on try $_LAB_TRY: ${3:-failed}" >> "$LAB_TAP"
        return 0
    fi
    case "$1" in
        PASS) LAB_N_PASS=$((LAB_N_PASS + 1))
              tap="ok $n - $2 ($_LAB_T s)"
              [ "${_LAB_TRY:-1}" -gt 1 ] && tap+=" passed on try $_LAB_TRY" ;;
        SKIP) LAB_N_SKIP=$((LAB_N_SKIP + 1)); tap="ok $n - $2 # SKIP ${3:-skipped}" ;;
        *)    LAB_N_FAIL=$((LAB_N_FAIL + 1)); LAB_FAILED+=("$line")
              tap="not ok $n - $2 ($_LAB_T s)"$'\n'"# ${3:-failed}" ;;
    esac
    echo "$line"
    echo "$line" >> "$LAB_LOGDIR/results.txt"
    echo "${tap//$'\r'/}" >> "$LAB_TAP"
}

# selection (header: Selecting)
source "$(dirname "${BASH_SOURCE[0]}")/select.sh"      # lab_sel
_lab_any() {                                              # NAME PATTERNS [skip]: one selects NAME
    local -a pats; local p
    read -r -a pats <<< "$2"
    for p in "${pats[@]}"; do lab_sel "$1" "$p" "${3:-}" && return 0; done
    return 1
}
lab_wants() {
    [ -n "${RDMABENCH_LAB_SKIP:-}" ] && _lab_any "$1" "$RDMABENCH_LAB_SKIP" skip && return 1
    [ -z "$_LAB_ONLY" ] || _lab_any "$1" "$_LAB_ONLY"
}
lab_pass() { lab_wants "$1" || return 0; _lab_record PASS "$1" "${2:-}"; }
lab_fail() { lab_wants "$1" || return 1; _lab_record FAIL "$1" "${2:-}"; return 1; }
lab_skip() { lab_wants "$1" || return 77; _lab_record SKIP "$1" "${2:-}"; return 77; }

lab_have() {
    case "$1" in
        rxe) [ -n "${LAB_RXE_DEV:-}" ] ;;
        siw) [ -n "${LAB_SIW_DEV:-}" ] ;;
        *) return 1 ;;
    esac
}

lab_match() { [[ $2 =~ $1 ]]; }

_lab_lastline() {                                         # TEXT -> _LAB_LAST (last non-empty line)
    local -a l; local i
    mapfile -t l <<< "$1"
    for ((i = ${#l[@]} - 1; i >= 0; i--)); do
        [ -n "${l[i]}" ] && { _LAB_LAST=${l[i]}; return 0; }
    done
    : "${_LAB_LAST:=exit status 77}"
}

_lab_show() {                                             # LABEL TEXT: last 40 lines, indented
    local -a lines; local i n
    mapfile -t lines <<< "$2"
    n=${#lines[@]}; i=$((n > 40 ? n - 40 : 0))
    echo "    ----- $1${3:+ ($3)}"
    for ((; i < n; i++)); do echo "    | ${lines[i]}"; done
}

lab_assert() {
    lab_wants "$1" || return 0
    if [[ $3 =~ $2 ]]; then _lab_record PASS "$1"; return 0; fi
    _lab_record FAIL "$1" "no match for /$2/"; _lab_show output "$3"; return 1
}
lab_assert_not() {
    lab_wants "$1" || return 0
    if ! [[ $3 =~ $2 ]]; then _lab_record PASS "$1"; return 0; fi
    _lab_record FAIL "$1" "unexpected match for /$2/: '${BASH_REMATCH[0]}'"; _lab_show output "$3"; return 1
}

# _lab_start LOG CMD... : start CMD in its own process group (so that a
# timeout can kill everything it started); sets _LAB_PID
_lab_start() {
    local log=$1 m=0; shift
    [[ $- == *m* ]] && m=1
    trap - EXIT                   # not inherited by the background subshell
    set -m
    "$@" </dev/null >"$log" 2>&1 &
    _LAB_PID=$!
    [ $m = 1 ] || set +m
    trap _lab_exit_trap EXIT
}
# _lab_watch PID SECS MARKER : kill PID's group after SECS (TERM, then KILL
# 3 s later), leaving MARKER; sets _LAB_WPID (kill it when PID is done)
_lab_watch() {
    rm -f "$3"
    trap - EXIT
    ( trap - TERM; lab_sleep "$2"; : > "$3"; kill -TERM -- "-$1" 2>/dev/null
      lab_sleep 3; kill -KILL -- "-$1" 2>/dev/null ) 2>/dev/null &
    _LAB_WPID=$!
    trap _lab_exit_trap EXIT
}
_lab_unwatch() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
# _lab_wait PID SECS MARKER : wait for PID with a deadline; sets _LAB_RC (124 on timeout)
_lab_wait() {
    local w
    _lab_watch "$1" "$2" "$3"; w=$_LAB_WPID
    wait "$1"; _LAB_RC=$?
    _lab_unwatch "$w"
    [ -e "$3" ] && { _LAB_RC=124; rm -f "$3"; }
    return 0
}
_lab_read() { IFS= read -r -d '' "$1" < "$2" || true; }  # VAR FILE (whole file, no fork)
_lab_safe() { _LAB_SAFE=${1//[^A-Za-z0-9._-]/_}; }
_lab_secs_arg() {                                         # positive number check
    [[ $2 =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "harness: $1 needs a number of seconds, got '$2'" >&2; return 1; }
}
# regex checks: _lab_check_re WHO TEXT MUST_ARRAY MUSTNOT_ARRAY -> _LAB_WHY
_lab_check_re() {
    local -n _must=$3 _not=$4; local re
    for re in "${_must[@]}"; do
        [[ $2 =~ $re ]] || { _LAB_WHY+="${_LAB_WHY:+; }$1 lacks /$re/"; }
    done
    for re in "${_not[@]}"; do
        [[ $2 =~ $re ]] && _LAB_WHY+="${_LAB_WHY:+; }$1 has /$re/: '${BASH_REMATCH[0]}'"
    done
    return 0
}

# _lab_tries FN NAME [--retries N] ARGS...: FN (one try of lab_case or
# lab_pair) for a selected case, again after a failure while tries are left
_lab_tries() {
    local fn=$1 name=$2 n=0 rc
    shift 2
    if [ "${1:-}" = --retries ]; then n=$2; shift 2; fi
    lab_wants "$name" || return 77
    _LAB_TRY=1
    while :; do
        _LAB_AGAIN=$((_LAB_TRY <= n))
        "$fn" "$name" "$@"; rc=$?
        [ "$rc" = 1 ] && [ "$_LAB_TRY" -le "$n" ] || break
        _LAB_TRY=$((_LAB_TRY + 1))
    done
    _LAB_TRY=1 _LAB_AGAIN=0
    return "$rc"
}
lab_case() { _lab_tries _lab_case1 "$@"; }
lab_pair() { _lab_tries _lab_pair1 "$@"; }

_lab_case1() {
    local name=$1 t=$LAB_TIMEOUT want=0 start log
    local -a must=() mustnot=()
    shift || { echo "harness: lab_case NAME [OPTS] CMD..." >&2; return 1; }
    while [ $# -gt 0 ]; do
        case "$1" in
            -t) _lab_secs_arg -t "${2:-}" || return 1; t=$2; shift 2 ;;
            -r) want=${2:-0}; shift 2 ;;
            -e) must+=("$2"); shift 2 ;;
            -n) mustnot+=("$2"); shift 2 ;;
            --) shift; break ;;
            *) break ;;
        esac
    done
    [ $# -gt 0 ] || { _lab_record FAIL "$name" "lab_case: no command"; return 1; }
    _lab_safe "$name"; log=$LAB_LOGDIR/$_LAB_SAFE.log
    _lab_now; start=$_LAB_NOW
    _lab_start "$log" "$@"
    _lab_wait "$_LAB_PID" "$t" "$log.timeout"
    LAB_RC=$_LAB_RC LAB_LOG=$log
    _lab_read LAB_OUTPUT "$log"
    _lab_secs "$start"
    if [ "$LAB_RC" = 77 ] && [ "$want" != 77 ]; then
        _lab_lastline "$LAB_OUTPUT"; _lab_record SKIP "$name" "$_LAB_LAST"; return 77
    fi
    _LAB_WHY=
    if [ "$LAB_RC" != "$want" ]; then
        _LAB_WHY="exit status $LAB_RC, want $want"
        [ "$LAB_RC" = 124 ] && _LAB_WHY+=" (timed out after ${t}s)"
    fi
    _lab_check_re output "$LAB_OUTPUT" must mustnot
    if [ -z "$_LAB_WHY" ]; then
        _lab_record PASS "$name" "${_LAB_SECS}s"
        [ "$LAB_VERBOSE" = 1 ] && _lab_show "$name" "$LAB_OUTPUT"
        return 0
    fi
    _lab_record FAIL "$name" "${_LAB_SECS}s: $_LAB_WHY"
    _lab_show "$name: $*" "$LAB_OUTPUT" "rc=$LAB_RC, log $log"
    return 1
}

_lab_pair1() {
    local name=$1 t=$LAB_TIMEOUT grace=15 retry=0 delay=0 ready='' cwant=0 swant=0
    local -a cmust=() cnot=() smust=() snot=() scmd=()
    shift || { echo "harness: lab_pair NAME [OPTS] SERVER... -- CLIENT..." >&2; return 1; }
    while [ $# -gt 0 ]; do
        case "$1" in
            -t) _lab_secs_arg -t "${2:-}" || return 1; t=$2; shift 2 ;;
            -g) _lab_secs_arg -g "${2:-}" || return 1; grace=$2; shift 2 ;;
            --retry) retry=${2:-0}; shift 2 ;;
            --delay) _lab_secs_arg --delay "${2:-}" || return 1; delay=$2; shift 2 ;;
            --ready) ready=$2; shift 2 ;;
            -r) cwant=$2; shift 2 ;;
            -R) swant=$2; shift 2 ;;
            -e) cmust+=("$2"); shift 2 ;;
            -E) smust+=("$2"); shift 2 ;;
            -n) cnot+=("$2"); shift 2 ;;
            -N) snot+=("$2"); shift 2 ;;
            *) break ;;
        esac
    done
    while [ $# -gt 0 ] && [ "$1" != -- ]; do scmd+=("$1"); shift; done
    [ "${1:-}" = -- ] && shift
    if [ ${#scmd[@]} = 0 ] || [ $# = 0 ]; then
        _lab_record FAIL "$name" "lab_pair: usage: lab_pair NAME [OPTS] SERVER_CMD... -- CLIENT_CMD..."; return 1
    fi
    local slog clog start deadline spid swpid smark left try
    _lab_safe "$name"
    slog=$LAB_LOGDIR/$_LAB_SAFE.server.log clog=$LAB_LOGDIR/$_LAB_SAFE.client.log smark=$slog.timeout
    rm -f "$clog.tries"
    _lab_now; start=$_LAB_NOW
    deadline=$((SECONDS + ${t%.*} + 1))
    _lab_start "$slog" "${scmd[@]}"; spid=$_LAB_PID
    _lab_watch "$spid" "$t" "$smark"; swpid=$_LAB_WPID
    # let the server come up
    [ "$delay" != 0 ] && lab_sleep "$delay"
    if [ -n "$ready" ]; then
        local sout
        while :; do
            _lab_read sout "$slog"
            [[ $sout =~ $ready ]] && break
            if ! kill -0 "$spid" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
                echo "harness: $name: server did not print /$ready/" >> "$clog.tries"; break
            fi
            lab_sleep 0.1
        done
    fi
    # the client, retried while it fails and the server is still running
    try=0
    while :; do
        try=$((try + 1))
        left=$((deadline - SECONDS)); [ $left -ge 1 ] || left=1
        _lab_start "$clog" "$@"
        _lab_wait "$_LAB_PID" "$left" "$clog.timeout"
        LAB_CLIENT_RC=$_LAB_RC
        [ "$LAB_CLIENT_RC" = "$cwant" ] || [ "$LAB_CLIENT_RC" = 77 ] || [ "$LAB_CLIENT_RC" = 124 ] && break
        [ $try -le "$retry" ] && [ $SECONDS -lt $deadline ] && kill -0 "$spid" 2>/dev/null || break
        local cout; _lab_read cout "$clog"
        printf '### try %s: exit status %s\n%s' "$try" "$LAB_CLIENT_RC" "$cout" >> "$clog.tries"
        lab_sleep 0.5
    done
    LAB_CLIENT_TRIES=$try
    # the server: grace period, then stop it
    local gw gmark=$slog.grace
    _lab_watch "$spid" "$grace" "$gmark"; gw=$_LAB_WPID
    wait "$spid"; LAB_SERVER_RC=$?
    _lab_unwatch "$gw"; _lab_unwatch "$swpid"
    local stimeout=
    if [ -e "$smark" ] || [ -e "$gmark" ]; then
        LAB_SERVER_RC=124
        [ -e "$gmark" ] && stimeout="server still running ${grace}s after the client ended: killed" \
                        || stimeout="server timed out after ${t}s"
    fi
    rm -f "$smark" "$gmark"
    LAB_SERVER_LOG=$slog LAB_CLIENT_LOG=$clog
    _lab_read LAB_SERVER_OUT "$slog"
    _lab_read LAB_CLIENT_OUT "$clog"
    _lab_secs "$start"
    if { [ "$LAB_CLIENT_RC" = 77 ] && [ "$cwant" != 77 ]; } || { [ "$LAB_SERVER_RC" = 77 ] && [ "$swant" != 77 ]; }; then
        _lab_lastline "$LAB_SERVER_OUT"; _lab_lastline "$LAB_CLIENT_OUT"
        _lab_record SKIP "$name" "$_LAB_LAST"; return 77
    fi
    _LAB_WHY=
    if [ "$LAB_CLIENT_RC" != "$cwant" ]; then
        _LAB_WHY="client exit status $LAB_CLIENT_RC, want $cwant"
        [ "$LAB_CLIENT_RC" = 124 ] && _LAB_WHY+=" (timed out)"
        [ $try -gt 1 ] && _LAB_WHY+=" after $try tries"
    fi
    if [ "$LAB_SERVER_RC" != "$swant" ]; then
        _LAB_WHY+="${_LAB_WHY:+; }server exit status $LAB_SERVER_RC, want $swant${stimeout:+ ($stimeout)}"
    fi
    _lab_check_re "client output" "$LAB_CLIENT_OUT" cmust cnot
    _lab_check_re "server output" "$LAB_SERVER_OUT" smust snot
    if [ -z "$_LAB_WHY" ]; then
        local tries=
        [ "$LAB_CLIENT_TRIES" -gt 1 ] && tries=", $LAB_CLIENT_TRIES client tries"
        _lab_record PASS "$name" "${_LAB_SECS}s$tries"
        if [ "$LAB_VERBOSE" = 1 ]; then
            _lab_show "server: ${scmd[*]}" "$LAB_SERVER_OUT"; _lab_show "client: $*" "$LAB_CLIENT_OUT"
        fi
        return 0
    fi
    _lab_record FAIL "$name" "${_LAB_SECS}s: $_LAB_WHY"
    _lab_show "server: ${scmd[*]}" "$LAB_SERVER_OUT" "rc=$LAB_SERVER_RC, log $slog"
    _lab_show "client: $*" "$LAB_CLIENT_OUT" "rc=$LAB_CLIENT_RC, log $clog"
    return 1
}

lab_summary() {
    local f
    _LAB_DONE=1
    if [ ${#LAB_FAILED[@]} -gt 0 ]; then
        echo "failed:"
        for f in "${LAB_FAILED[@]}"; do echo "  $f"; done
    fi
    local line="lab: $LAB_N_PASS passed, $LAB_N_FAIL failed, $LAB_N_SKIP skipped"
    echo "$line" >> "$LAB_LOGDIR/results.txt"
    echo "1..$((LAB_N_PASS + LAB_N_FAIL + LAB_N_SKIP))" >> "$LAB_TAP"
    echo "$line"
    [ "$LAB_N_FAIL" = 0 ] && exit 0
    exit 1
}

_lab_exit_trap() {
    local rc=$?
    [ "$BASHPID" = "$_LAB_MAINPID" ] || return 0      # not in background subshells
    [ "$_LAB_DONE" = 1 ] && return
    _LAB_DONE=1
    _LAB_AGAIN=0
    _lab_record FAIL "${0##*/}" "exited with status $rc before lab_summary"
    echo "1..$((LAB_N_PASS + LAB_N_FAIL + LAB_N_SKIP))" >> "$LAB_TAP"
    echo "lab: $LAB_N_PASS passed, $LAB_N_FAIL failed, $LAB_N_SKIP skipped"
    exit 1
}
trap _lab_exit_trap EXIT
