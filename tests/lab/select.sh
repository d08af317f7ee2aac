# shellcheck shell=bash
# tests/lab/select.sh - the one rule by which a pattern selects a lab case,
# sourced by tests/lab/harness.sh (in the guest) and tests/run-lab.sh (on
# the host, choosing boots). lab_sel NAME PATTERN [skip]: 0 when NAME is
# PATTERN, starts with "PATTERN." (a group), PATTERN starts with "NAME."
# (the case whose output PATTERN's assert reads; not for skip), or
# PATTERN holds * ? [ and NAME matches it as a glob.
lab_sel() {
    [[ $1 == "$2" || $1 == "$2".* ]] && return 0
    [[ -z ${3:-} && $2 == "$1".* ]] && return 0
    [[ $2 == *[*?[]* && $1 == $2 ]]
}
