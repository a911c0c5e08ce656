#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Four collided elephants spread (issue 28): on a namespace fattree:4
# with dard-switchd and dardd everywhere (--dard --fast), e1_i sends to
# e3_i (i = 1..4: both ToRs of pod 1 to both of pod 3), the four started
# together and placed by hand on core1, and the four senders' dardds
# started at once, as a cluster's are when its machines boot. Each run
# asserts that within 20 s of the flows' start no switch-switch link
# carries two of them: four distinct cores, and each ToR's two on its
# two up links. Where simultaneous rounds leave them where no single
# move gains, the escape's neutral move (scheduling.md) must get them
# out. Runs at each rate of DARD_SPREAD_RATES (default "20 50" Mbit/s),
# DARD_SPREAD_RUNS times each (default 3); DARD_SPREAD_ARGS goes to the
# testbed's up (e.g. --sched-mode paper, --escape 0: the benchmark,
# scripts/bench-spread, compares them). The first run at each rate also
# checks that a receiver's ACK stream is no elephant and that the cores
# count one elephant per transfer, none for its ACKs. Prints, per run,
# when the flows spread and how many moves and neutral moves the
# senders' dardds made, never asserted.
#
# Namespaces are named dard_spread_PID_RATE-*; everything is removed on
# exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-spread-$$
rates=${DARD_SPREAD_RATES:-20 50}
runs=${DARD_SPREAD_RUNS:-3}
read -r -a upargs <<<"${DARD_SPREAD_ARGS:-}"
prefix=""

suite=spread
source "$top/tests/netns/lib.sh"

cleanup() {
	bg_kill
	[[ -n $prefix ]] && "$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR"
}
trap cleanup EXIT

senders=(e1_1 e1_2 e1_3 e1_4)
# The flows' switches, one line each, for client ports $cport_base + i.
routes() {
	local i
	for i in 1 2 3 4; do
		tcp_flow "e1_$i" $((cport_base + i)) | jq -r '.switches | join(" ")'
	done
}
# The most flows on any directed switch-switch link.
max_per_link() { routes | most_per_link 1 4; }
spread() { [[ $(max_per_link) == 1 ]]; }
all_on_core1() { [[ $(routes | grep -c ' core1 ') == 4 ]]; }
# The elephants the four cores count, over all their ports.
core_elephants() {
	local c n sum=0
	for c in core1 core2 core3 core4; do
		n=$(on e1_1 "$dardctl" -j switch query "$c" | jq '[.[].ports[].elephants] | add')
		[[ $n =~ ^[0-9]+$ ]] || return 1
		sum=$((sum + n))
	done
	echo "$sum"
}
cores_count() { [[ $(core_elephants) == "$1" ]]; }
# The senders' dardds' moves and neutral moves, summed.
moves_of() {
	local h m n s=0 u=0
	for h in "${senders[@]}"; do
		read -r m n < <(dardd_stats "$h" moves moves_neutral)
		s=$((s + ${m:-0})) u=$((u + ${n:-0}))
	done
	echo "$s $u"
}

# Restarts the senders' dardds together, each with the command line and
# pin root the testbed gave it.
declare -A dcmd dpin
note_dardds() {
	local h p
	for h in "${senders[@]}"; do
		p=$(pids_of "$h" dardd)
		[[ -n $p ]] || return 1
		dcmd[$h]=$(tr '\0' '\n' <"/proc/$p/cmdline")
		dpin[$h]=$(tr '\0' '\n' <"/proc/$p/environ" | sed -n 's/^DARD_PIN_ROOT=//p')
	done
}
restart_dardds() {
	local h args
	for h in "${senders[@]}"; do stop_prog "$h" dardd || return 1; done
	for h in "${senders[@]}"; do
		mapfile -t args <<<"${dcmd[$h]}"
		DARD_PIN_ROOT=${dpin[$h]} setsid nsenter --net="/run/netns/$prefix-$h" \
			"${args[@]}" </dev/null >>"$DARD_TESTBED_DIR/$prefix/log/$h.log" 2>&1 &
	done
	for h in "${senders[@]}"; do
		within 30 ctl_jq "$h" '.[0].rounds >= 0' -- stats || return 1
	done
}

one_run() {
	local rate=$1 run=$2 i t0 at="" m0 n0 m1 n1
	cport_base=$((41000 + run * 10))
	echo "# $rate Mbit/s, run $run"
	if ((run > 1)); then
		t "the four senders' dardds start again together" restart_dardds || return
	fi
	for i in 1 2 3 4; do
		on "e3_$i" iperf3 -s -1 -D -B "$(id_of "e3_$i")" -p 5201
	done
	for i in 1 2 3 4; do
		within 30 listening "e3_$i" 5201 || { fail "iperf3 listening on e3_$i"; return; }
	done
	read -r m0 n0 < <(moves_of)
	t0=$EPOCHREALTIME
	for i in 1 2 3 4; do
		on_bg "e1_$i" iperf3 -c "$(id_of "e3_$i")" -B "$(id_of "e1_$i")" \
			--cport $((cport_base + i)) -t 120 >/dev/null 2>&1 &
		bg_pids+=($!)
	done
	for i in 1 2 3 4; do
		within 10 has_flow "e1_$i" $((cport_base + i)) ||
			{ fail "flow $i in e1_$i's datapath"; return; }
		on "e1_$i" "$dardctl" flow move dev eth0 \
			tcp "$(id_of "e1_$i"):$((cport_base + i))" "$(id_of "e3_$i"):5201" path 1 >/dev/null ||
			{ fail "placing flow $i on core1"; return; }
	done
	echo "  placed on core1 $(since "$t0") s after the start"
	spread_at() { spread && at=$(since "$t0"); }
	t "within 20 s of their start no switch-switch link carries two" within_from "$t0" 20 spread_at
	routes | sed 's/^/  /'
	read -r m1 n1 < <(moves_of)
	echo "  spread at ${at:-never} s; the senders' dardds moved $((m1 - m0)) times, $((n1 - n0)) of them neutral"
	[[ -n $at ]] && figure "spread_s_${rate}_$run" "$at" s "four collided elephants at $rate Mbit/s spread, run $run"
	if ((run == 1)); then
		t "e3_1's ACK stream to e1_1 carried no payload and is no elephant" \
			acks_mouse e3_1 5201 $((cport_base + 1))
		t "the cores count four elephants, none for the ACKs" within 10 cores_count 4
	fi
	# The clients in the nodes (on_bg's pids are its subshells').
	for i in 1 2 3 4; do
		stop_prog "e1_$i" iperf3 || fail "e1_$i's iperf3 stopped"
		stop_prog "e3_$i" iperf3 || fail "e3_$i's iperf3 stopped"
	done
	bg_kill
}
# within_from T0 S CMD...: whether CMD held by S seconds after T0.
within_from() {
	local left
	left=$(awk -v a="$1" -v b="$EPOCHREALTIME" -v s="$2" 'BEGIN { l = s - (b - a); printf "%.2f", (l > 0 ? l : 0) }')
	shift 2
	within "$left" "$@"
}

for rate in $rates; do
	prefix=dard_spread_$$_$rate
	if ! t "fattree:4 at $rate Mbit/s with dard-switchd and dardd everywhere" \
		"$testbed" up fattree:4 --rate "$rate" --prefix "$prefix" --dard --fast \
		"${upargs[@]}"; then
		prefix=""
		continue
	fi
	t "the senders' dardds run" note_dardds
	for ((run = 1; run <= runs; run++)); do one_run "$rate" "$run"; done
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	prefix=""
done
summary
