#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Quiet monitors (dardd's fast mode; Documentation/design.md, issue 17)
# on a namespace fat-tree with dard-switchd and dardd everywhere (--dard
# --fast, dardd's --quiet-at 0.9 and --quiet-sleep 30). e1_1 sends one
# elephant to e2_1 at 20 Mbit/s, all the application gives it: no path
# could give it more, so its monitor's rounds want no move, and after
# one it sleeps 30 s while the rate holds (dardd's default is 3 s; the
# long sleep makes a wake-up this test did not cause unlikely). Over
# 10 s the test prints the queries e1_1 sent, its quiet ticks and
# skipped rounds, and checks: the elephant's rate is known and near 20
# Mbit/s, the monitor was quiet (ticks counted, a round skipped), and
# e1_1 asked fewer than half the 9 switches a tick that a monitor never
# quiet asks (share.sh, with --quiet-at 0). Then a second elephant to
# e2_2 joins the monitor: its rate is not known yet, so the monitor is
# awake at once and asks again.
#
# Namespaces are named dard_quiet_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-quiet-$$
prefix=dard_quiet_$$
dir=$DARD_TESTBED_DIR/$prefix

suite=quiet
source "$top/tests/netns/lib.sh"

cleanup() {
	if ((failed)); then
		echo "--- the last of e1_1's log"
		tail -n 12 "$dir/log/e1_1.log" 2>/dev/null
	fi
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR"
}
trap cleanup EXIT

t "fattree:4 with dard-switchd and dardd everywhere" \
	"$testbed" up fattree:4 --prefix "$prefix" --dard --fast \
	--quiet-sleep 30 ||
	{ summary; exit; }

stat_of() { on "$1" "$dardctl" -j stats | jq ".[0].$2"; }

for h in 1 2; do
	on "e2_$h" iperf3 -s -1 -D -B "$(id_of "e2_$h")"
	within 10 listening "e2_$h" 5201 || fail "iperf3 listening on e2_$h"
done
on e1_1 iperf3 -c "$(id_of e2_1)" -B "$(id_of e1_1)" -t 40 -b 20M \
	>/dev/null 2>&1 &
t "e1_1's dardd has a monitor of tor2_1" within 15 \
	ctl_jq e1_1 'length == 1 and .[0].dst_tor == "tor2_1"' -- monitor show
t "the elephant's rate is known, near 20 Mbit/s" within 10 \
	ctl_jq e1_1 'length == 1 and .[0].mbps != null and .[0].mbps > 12 and .[0].mbps < 30' \
	-- flow show
on e1_1 "$dardctl" flow show
t "its monitor is quiet, asleep after an idle round" within 15 \
	bash -c "(( \$('$testbed' exec --prefix '$prefix' e1_1 '$dardctl' -j stats | jq '.[0].quiet_ticks') > 0 ))"

q0=$(stat_of e1_1 queries)
k0=$(stat_of e1_1 quiet_ticks)
r0=$(stat_of e1_1 rounds)
s0=$(stat_of e1_1 rounds_quiet)
# Query ticks a second: testbed --fast runs dardd -Q 0.1.
tps=10
start=$SECONDS
sleep 10
secs=$((SECONDS - start))
dq=$(($(stat_of e1_1 queries) - q0))
dk=$(($(stat_of e1_1 quiet_ticks) - k0))
dr=$(($(stat_of e1_1 rounds) - r0))
ds=$(($(stat_of e1_1 rounds_quiet) - s0))
echo "e1_1 in $secs s: $dq queries (never quiet: $((9 * tps * secs))), $dk quiet ticks, $dr rounds run, $ds skipped"
t "quiet ticks counted ($dk in $secs s)" test "$dk" -ge "$tps"
t "rounds skipped while quiet ($ds), after one that ran ($r0 before)" \
	test "$ds" -ge 1 -a "$r0" -ge 1
t "queries under half a monitor never quiet's ($dq of $((9 * tps * secs)))" \
	test $((dq * 2)) -lt $((9 * tps * secs))
t "monitor show says whether it is quiet" \
	ctl_jq e1_1 '.[0] | (.quiet | type) == "boolean" and .quiet_ticks > 0' \
	-- monitor show

# A new elephant in the monitor: its rate unknown, the monitor awake.
t "the monitor is quiet before a second elephant joins it" within 5 \
	ctl_jq e1_1 '.[0].quiet' -- monitor show
q1=$(stat_of e1_1 queries)
on e1_1 iperf3 -c "$(id_of e2_2)" -B "$(id_of e1_1)" -t 20 -b 20M \
	>/dev/null 2>&1 &
t "a second elephant joins the monitor" within 15 \
	ctl_jq e1_1 '.[0].elephants == 2' -- monitor show
t "which wakes it at once" within 2 \
	ctl_jq e1_1 '.[0].quiet | not' -- monitor show
t "and it asks the switches again" within 2 \
	bash -c "(( \$('$testbed' exec --prefix '$prefix' e1_1 '$dardctl' -j stats | jq '.[0].queries') >= $q1 + 9 ))"

summary
