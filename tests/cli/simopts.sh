#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dard-sim --run's options of issue 31, apart from dardctl.sh (which
# would pass its size): --split (an elephant's parts over K paths) and
# --degrade (links at a share of their capacity), and --watch-interval's
# range (the watch by notices); what each refuses, and that each runs
# and says so.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sim=${DARD_BIN:-$top/build/bin}/dard-sim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suite=simopts
source "$top/tests/lib.sh"

# dard-sim --split: 1 to 8 parts, for DARD's two schedulers only.
ok "dard-sim --split 9" 2 "$sim" --run --split 9 &&
	has "range named" "$err" "^dard-sim: Invalid --split .9.: out of range, expected a number of parts from 1 to 8"
ok "dard-sim --split without DARD" 2 "$sim" --run --sched ecmp,hedera --split 2 &&
	has "schedulers named" "$err" "^dard-sim: --split is for dard and dard-paper, and --sched .ecmp,hedera. has neither$"
ok "dard-sim --split with --fail" 1 "$sim" --run --sched dard --split 2 --fail random:1@5 &&
	has "failures refused" "$err" "^dard-sim: dard: split mode is not modelled with failures$"
ok "dard-sim --split runs" 0 "$sim" --run --duration 20 --sched ecmp,dard --split 2 &&
	has "split said" "$out" "^dard, dard-paper: elephants split over up to 2 paths \\(--split\\)$" &&
	has "dard line" "$out" "^dard "
# dard-sim --degrade: links at a share of their capacity, the whole run.
ok "dard-sim --degrade factor 0" 2 "$sim" --run --degrade core:1=0 &&
	has "factor 0 named" "$err" "^dard-sim: Invalid --degrade factor .0.: out of range, expected a share of the capacity above 0, below 1$"
ok "dard-sim --degrade factor 1" 2 "$sim" --run --degrade core:1=1 &&
	has "factor 1 named" "$err" "^dard-sim: Invalid --degrade factor .1.:"
ok "dard-sim --degrade factor above 1" 2 "$sim" --run --degrade core:1=1.5
ok "dard-sim --degrade no factor" 2 "$sim" --run --degrade core1-aggr1_1 &&
	has "factor wanted" "$err" "expected LINK=FACTOR$"
ok "dard-sim --degrade unknown link" 2 "$sim" --run --degrade core1-aggr9_1=0.5 &&
	has "link wanted" "$err" "^dard-sim: --degrade .core1-aggr9_1=0.5.: expected two switches of fattree:4 as A-B, core:N or random:N$"
ok "dard-sim --degrade not linked" 2 "$sim" --run --degrade core1-core2=0.5 &&
	has "pair named" "$err" "core1 and core2 are not linked$"
ok "dard-sim --degrade a host link" 2 "$sim" --run --degrade aggr1_1-e1_1=0.5 &&
	has "host named" "$err" "e1_1 is a host; only links between switches degrade$"
ok "dard-sim --degrade too many core" 2 "$sim" --run --degrade core:17=0.5 &&
	has "core count named" "$err" "expected 1 to 16 core links$"
ok "dard-sim --degrade twice" 2 "$sim" --run --degrade core1-aggr1_1=0.5,core:1=0.3 &&
	has "twice named" "$err" "core1-aggr1_1 is degraded twice$"
ok "dard-sim --degrade on --place" 2 "$sim" --place --degrade core:1=0.5 &&
	has "mode named" "$err" "degrade is for --run only"
ok "dard-sim --degrade refuses bound" 1 "$sim" --run --degrade core:1=0.25 --sched bound &&
	has "bound says why" "$err" "^dard-sim: bound: OPT takes a sub-fat-tree's up links at one capacity: no link degraded alone$"
ok "dard-sim --degrade runs" 0 "$sim" --run --duration 20 \
	--degrade core:1=0.25,random:1=0.5 --sched ecmp,dard &&
	has "degrade said" "$out" "^degraded: core1-aggr1_1 at 0.25, core[0-9]-aggr[0-9]_[0-9] at 0.5$" &&
	has "dard line" "$out" "^dard "
ok "dard-sim --degrade skips bound under all" 0 "$sim" --run --duration 5 \
	--degrade core:1=0.25 &&
	has "bound skipped" "$out" "^bound skipped: OPT takes"
# dard-sim --watch-interval: 0 to 20 s, as dardd's (the agents keep a
# watch 60 s).
ok "dard-sim --watch-interval 21" 2 "$sim" --run --watch-interval 21 &&
	has "range named" "$err" "^dard-sim: Invalid --watch-interval .21.: out of range, expected seconds from 0 to 20"
ok "dard-sim --watch-interval 20 runs" 0 "$sim" --run --duration 10 \
	--sched dard --watch-interval 20 &&
	has "dard line" "$out" "^dard "

summary
