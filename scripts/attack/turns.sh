#!/bin/bash
# scripts/attack/turns.sh [RUNS] - issue #25's acceptance of fair turns,
# run by hand once (it takes RUNS x ~2.5 min of lab, far beyond CI's
# budget): in the lab's main boot, RUNS times each, a --persistent server
# with its shipped defaults and then with --auth-key-file, three TCP
# spinners (idle, 1 byte, 11 header bytes; tests/tools/spinner.c) for
# 50 s, and a good client 1 s in that must be served within its
# --connect-timeout (10 s, a third of the default); also a 1-byte
# connection alone, dropped at the HELLO's hard limit. The cases are
# tests/lab/cases/turns.sh's turns.attack.*; their results and logs are
# where `make lab` puts them (build/test-results/lab-main*).
# Needs: make all tools (build/), scripts/lab/setup.sh done.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-10}
case $runs in ''|*[!0-9]*) echo "usage: $0 [RUNS]" >&2; exit 2 ;; esac
export RDMABENCH_ATTACK_RUNS=$runs
exec nice -n 19 make lab REL=build ONLY='turns.attack.*'
