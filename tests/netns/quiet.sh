#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Quiet monitors (dardd's fast mode; Documentation/design.md, issue 17)
# on a namespace fat-tree with dard-switchd and dardd everywhere (--dard
# --fast, dardd's --quiet-at 0.9 and --quiet-sleep 30). e1_1 sends one
# elephant to e2_1 at 20 Mbit/s, all the application gives it: no path
# could give it more, so its monitor's rounds want no move, and after
# one it sleeps 30 s while the rate holds (dardd's default is 3 s; the
# long sleep makes a wake-up this test did not cause unlikely). Over 50
# of dardd's query ticks the test prints the queries e1_1 sent, its
# quiet ticks and skipped rounds, and checks, by dardd's own counters:
# the elephant's rate is known (and no more than its application
# sends), the monitor was quiet (ticks counted, a round skipped), and
# e1_1 asked its 9 switches once for each tick its monitor was awake and
# never in a quiet one. Then a second elephant to e2_2 joins the
# monitor: its rate is not known yet, so the monitor wakes and asks
# again (that it does so at the very next tick is test_dardd_sched's).
# The dardds run without the watch (--watch-interval 0): its queries of
# the switches above the ToR every second are a standing cost by design,
# never quiet, and would be counted with the monitor's (its own tests
# are test_dardd_dead's; the cost, experiments.md, "Beside BGP and BFD").
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
	--quiet-sleep 30 --watch-interval 0 ||
	{ summary; exit; }

for h in 1 2; do
	on "e2_$h" iperf3 -s -1 -D -B "$(id_of "e2_$h")"
	within 30 listening "e2_$h" 5201 || fail "iperf3 listening on e2_$h"
done
# For as long as the test needs it: the testbed's down ends it.
on_bg e1_1 iperf3 -c "$(id_of e2_1)" -B "$(id_of e1_1)" -t 900 -b 20M \
	>/dev/null 2>&1 &
t "e1_1's dardd has a monitor of tor2_1" within 60 \
	ctl_jq e1_1 'length == 1 and .[0].dst_tor == "tor2_1"' -- monitor show
# Known, and no more than its application sends (a busy machine sends
# less, never more).
t "the elephant's rate is known, at most its application's 20 Mbit/s" within 60 \
	ctl_jq e1_1 'length == 1 and .[0].mbps != null and .[0].mbps > 0 and .[0].mbps < 30' \
	-- flow show
on e1_1 "$dardctl" flow show
t "its monitor is quiet, asleep after an idle round" within 60 \
	ctl_jq e1_1 '.[0].quiet_ticks > 0' -- stats

# Fifty query ticks of dardd's own: a quiet tick asks no switch, an awake
# one asks each of the monitor's 9 once, so the queries are exactly 9
# times the awake ticks however the machine's load spaced the ticks.
read -r m0 k0 q0 r0 s0 < <(dardd_stats e1_1 monitor_ticks quiet_ticks queries rounds rounds_quiet)
ticks_past() { (($(dardd_stat e1_1 monitor_ticks) >= m0 + $1)); }
t "its monitor lived 50 query ticks" within 120 ticks_past 50
read -r m1 k1 q1 r1 s1 < <(dardd_stats e1_1 monitor_ticks quiet_ticks queries rounds rounds_quiet)
dm=$((m1 - m0)) dk=$((k1 - k0)) dq=$((q1 - q0)) dr=$((r1 - r0)) ds=$((s1 - s0))
echo "e1_1 in $dm ticks: $dk quiet, $dq queries (never quiet: $((9 * dm))), $dr rounds run, $ds skipped"
t "quiet ticks counted ($dk of $dm)" test "$dk" -gt 0
figure quiet_share "$(awk -v k="$dk" -v m="$dm" 'BEGIN { printf "%.3f", m ? k / m : 0 }')" ratio "a quiet monitor's query ticks spent quiet (of 50)"
t "9 queries for each awake tick, none for a quiet one" test "$dq" -eq $((9 * (dm - dk)))
t "rounds skipped while quiet ($ds), after one that ran ($r0 before)" \
	test "$ds" -ge 1 -a "$r0" -ge 1
t "monitor show says whether it is quiet" \
	ctl_jq e1_1 '.[0] | (.quiet | type) == "boolean" and .quiet_ticks > 0' \
	-- monitor show

# A new elephant in the monitor: its rate unknown, the monitor awake.
t "the monitor is quiet before a second elephant joins it" within 60 \
	ctl_jq e1_1 '.[0].quiet' -- monitor show
on_bg e1_1 iperf3 -c "$(id_of e2_2)" -B "$(id_of e1_1)" -t 900 -b 20M \
	>/dev/null 2>&1 &
t "a second elephant joins the monitor" within 60 \
	ctl_jq e1_1 '.[0].elephants == 2' -- monitor show
read -r m2 k2 q2 < <(dardd_stats e1_1 monitor_ticks quiet_ticks queries)
t_join=$EPOCHREALTIME
awake() {
	read -r m3 k3 q3 < <(dardd_stats e1_1 monitor_ticks quiet_ticks queries)
	((m3 - k3 > m2 - k2 && q3 >= q2 + 9))
}
t "which wakes it: it asks the switches again" within 60 awake
echo "  awake and asking $(since "$t_join") s after the join was seen: $((q3 - q2)) queries in $((m3 - m2)) ticks, $((k3 - k2)) quiet"
figure wake_ticks "$((m3 - m2))" ticks "query ticks from a new elephant seen to its monitor asking again"
t "9 queries for each awake tick since" test $((q3 - q2)) -eq $((9 * ((m3 - k3) - (m2 - k2))))

summary
