#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# A running dardd's scheduling mode changed through its control socket
# (issue 29: `dardctl sched set', no restart): on a namespace fattree:4
# with dard-switchd and dardd everywhere (--dard --fast), one transfer
# e1_1 -> e3_1 at 20 Mbit/s. e1_1's dardd is set to pvlb every 0.5 s
# and must move the transfer within 15 s (pVLB's re-picks, dard-sim's
# rule: tests/unit/test_dardd_mode.c), then to off, after which its
# path holds for 3 s (pVLB at 0.5 s would have moved it about four
# times), then back to fast. The dardd is the same process throughout,
# the transfer delivers all its bytes, and a bad command is refused and
# counted (ctl_invalid) with nothing changed. Prints the pVLB moves made.
#
# Namespaces are named dard_mode_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-mode-$$
prefix=""

suite=mode
source "$top/tests/netns/lib.sh"

cleanup() {
	bg_kill
	[[ -n $prefix ]] && "$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR"
}
trap cleanup EXIT

cport=42001
# sched NODE ARGS...: dardctl -j sched ARGS in NODE; its JSON object.
sched() {
	local node=$1
	shift
	on "$node" "$dardctl" -j sched "$@" | jq -c '.[0]'
}
flow_moves() { tcp_flow e1_1 "$cport" | jq -r '.moves'; }
flow_route() { tcp_flow e1_1 "$cport" | jq -r '.switches | join(" ")'; }
moved_since() { [[ $(flow_moves) -gt $1 ]]; }
# held_for S: the transfer's moves did not change for S seconds (polled
# every 0.2 s; false as soon as they do).
held_for() {
	local m0 t0=$EPOCHREALTIME
	m0=$(flow_moves)
	while awk -v a="$(since "$t0")" -v s="$1" 'BEGIN { exit !(a < s) }'; do
		[[ $(flow_moves) == "$m0" ]] || return 1
		sleep 0.2
	done
	[[ $(flow_moves) == "$m0" ]]
}
is_elephant() { ctl_jq e1_1 '[.[] | select(.sport == $p)] | length == 1' --argjson p "$cport" -- flow show; }

prefix=dard_mode_$$
t "fattree:4 at 20 Mbit/s with dard-switchd and dardd everywhere" \
	"$testbed" up fattree:4 --rate 20 --prefix "$prefix" --dard --fast ||
	{ prefix=""; summary; exit; }
pid=$(pids_of e1_1 dardd)
t "e1_1's dardd runs in the fast mode" ctl_jq e1_1 '.[0].sched_mode == "fast"' -- sched show

dardexp=$top/build/bin/dard-exp
on e3_1 "$dardexp" recv --bind "$(id_of e3_1)" --port 5201 --once --daemon --timeout 120 ||
	fail "a receiver on e3_1"
# Twelve seconds at the link rate: longer than the checks below need.
bytes=$((20 * 1000 * 1000 / 8 * 12))
on_bg e1_1 "$dardexp" send --to "$(id_of e3_1)" --port 5201 --from "$(id_of e1_1)" \
	--cport "$cport" --bytes "$bytes" --timeout 120 >"$DARD_TESTBED_DIR/send.json" 2>/dev/null &
client=$!
bg_pids+=("$client")
t "the transfer is in e1_1's datapath" within 10 has_flow e1_1 "$cport"
t "and an elephant of its dardd's" within 15 is_elephant

t "a bad interval is refused" bash -c \
	"! '$testbed' exec --prefix '$prefix' e1_1 '$dardctl' sched set pvlb interval 0 2>'$DARD_TESTBED_DIR/err'"
has "and says why" "$(cat "$DARD_TESTBED_DIR/err")" 'invalid arguments'
t "counted, the mode unchanged" \
	ctl_jq e1_1 '.[0].ctl_invalid == 1 and .[0].sched_mode == "fast" and .[0].mode_changes == 0' -- stats

m0=$(flow_moves)
is "sched set pvlb interval 0.5: the mode answered" \
	"$(sched e1_1 set pvlb interval 0.5 | jq -c '[.sched_mode, .pvlb_interval_s]')" '["pvlb",0.5]'
t "pVLB moves the transfer within 15 s" within 15 moved_since "$m0"
t "its dardd counts pVLB's moves" ctl_jq e1_1 '.[0].pvlb_moves >= 1' -- stats
echo "  pVLB: $(dardd_stat e1_1 pvlb_moves) moves, the transfer on $(flow_route)"

is "sched set off" "$(sched e1_1 set off | jq -r .sched_mode)" off
t "then its path holds for 3 s" held_for 3
is "sched set fast" "$(sched e1_1 set fast | jq -r .sched_mode)" fast
t "three changes counted" ctl_jq e1_1 '.[0].mode_changes == 3' -- stats
is "the same dardd throughout, never restarted" "$(pids_of e1_1 dardd)" "$pid"
has "its log names each change" \
	"$(grep -c 'scheduling mode .* set through the control socket' "$DARD_TESTBED_DIR/$prefix/log/e1_1.log")" '^3$'
wait "$client"
sent=$?
t "the transfer delivered all its bytes (the receiver's count)" test "$sent" -eq 0
summary
