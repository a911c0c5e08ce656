#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Sharing switch answers among a ToR's hosts (Documentation/protocol.md,
# "Sharing among a ToR's hosts"; issue 17) on a namespace fat-tree with
# dard-switchd and dardd everywhere (--dard --fast). e1_1 and e1_2, both
# under tor1_1, each send an elephant to pod 2: each monitor asks the
# same 7 shared switches (tor1_1, aggr1_1, aggr1_2, core1..4) and pod 2's
# two aggregation switches. With sharing, the two ask the shared ones
# once a tick between them, not twice: by dardd's own counters, the
# queries both sent are under 80% of the queries they needed (sent and
# saved), `share_saved' rises, SHAREs are taken,
# and both monitors' paths stay known. Then forgeries reach the share
# port of the host that listens: a bad MAC (anyone), a signed one in
# nobody's name, one longer than a message, one from a host under
# another ToR, and a real SHARE between the two replayed as it leaves;
# each is refused and counted by reason, and the paths stay known. The
# sharer's dardd stops: the listener asks every switch again.
#
#            core1..core4              shared: asked once for both
#         aggr1_1   aggr1_2            shared
#              tor1_1                  shared
#         e1_1 ===SHARE/WANT=== e1_2   mgmt0, UDP 7473
#           \                    /
#            `-> e2_1      e2_2 <-'    pod 2, asked by each host
#
# Namespaces are named dard_share_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
py=$top/tests/netns/dard_share.py
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-share-$$
prefix=dard_share_$$
dir=$DARD_TESTBED_DIR/$prefix
key=$dir/dard.key
tmp=$(mktemp -d)

suite=share
source "$top/tests/netns/lib.sh"

cleanup() {
	if ((failed)); then
		echo "--- the last of e1_1's and e1_2's logs"
		tail -n 8 "$dir/log/e1_1.log" "$dir/log/e1_2.log" 2>/dev/null
	fi
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR" "$tmp"
}
trap cleanup EXIT

# Monitors never quiet (--quiet-at 0): these checks watch the switch
# protocol, which a quiet monitor does not use (quiet.sh tests that).
t "fattree:4 with dard-switchd and dardd everywhere" \
	"$testbed" up fattree:4 --prefix "$prefix" --dard --fast --quiet-at 0 ||
	{ summary; exit; }

e11=$(mgmt_addr e1_1)
e12=$(mgmt_addr e1_2)
e21=$(mgmt_addr e2_1)
t "e1_1 shares with its one peer" ctl_jq e1_1 '.[0] | [.share, .share_peers] == [true, 1]' -- stats

for h in 1 2; do
	on "e2_$h" iperf3 -s -1 -D -B "$(id_of "e2_$h")"
	within 30 listening "e2_$h" 5201 || fail "iperf3 listening on e2_$h"
done
# Elephants for as long as the test needs them: the testbed's down ends
# them.
on_bg e1_1 iperf3 -c "$(id_of e2_1)" -B "$(id_of e1_1)" -t 900 -b 20M >/dev/null 2>&1 &
ip1=$!
on_bg e1_2 iperf3 -c "$(id_of e2_2)" -B "$(id_of e1_2)" -t 900 -b 20M >/dev/null 2>&1 &
ip2=$!
for h in e1_1 e1_2; do
	t "$h's dardd has a monitor with its paths known" within 60 \
		ctl_jq "$h" '.[0].paths | length == 4 and all(.known)' -- monitor show
done
# WANTs go on the first tick, SHAREs from the next.
shared() { (($(dardd_stat "$1" shares_taken) + $(dardd_stat "$1" shares_sent) > 0)); }
both_shared() { shared e1_1 && shared e1_2; }
t "both hosts share" within 60 both_shared

# What each host asked against what it would have asked alone, by
# dardd's own counters: every query tick each host needs all 9 switches
# (--quiet-at 0); one it does not ask, a shared answer being fresh, is
# share_saved. Without sharing, queries / (queries + saved) is 1; with
# it, the 7 shared switches are asked by one of the two: about 11 of 18.
declare -A q0 s0 k0
for h in e1_1 e1_2; do
	read -r q0[$h] s0[$h] k0[$h] < <(dardd_stats "$h" queries share_saved query_ticks)
done
ticks_past() { (($(dardd_stat e1_1 query_ticks) >= k0[e1_1] + $1 && $(dardd_stat e1_2 query_ticks) >= k0[e1_2] + $1)); }
t "both ran 50 query ticks" within 120 ticks_past 50
dq=0
saved=0
for h in e1_1 e1_2; do
	read -r q s k < <(dardd_stats "$h" queries share_saved query_ticks)
	d=$((q - q0[$h])) sv=$((s - s0[$h])) k=$((k - k0[$h]))
	echo "$h: $d queries and $sv saved in $k ticks; $(dardd_stat "$h" shares_taken) SHAREs taken, $(dardd_stat "$h" shares_sent) sent"
	dq=$((dq + d))
	saved=$((saved + sv))
done
t "queries saved by sharing ($saved)" test "$saved" -gt 0
figure asked_share "$(awk -v q="$dq" -v s="$saved" 'BEGIN { printf "%.3f", q / (q + s) }')" ratio "queries two sharers sent over those they needed (11 of 18 a tick ideally)"
t "both hosts asked under 80% of what they would alone ($dq of $((dq + saved)))" \
	test $((dq * 100)) -lt $(((dq + saved) * 80))
for h in e1_1 e1_2; do
	t "$h's paths still known" ctl_jq "$h" '.[0].paths | all(.known)' -- monitor show
	t "$h refused nothing" test "$(dardd_stat "$h" share_refused)" -eq 0
done

# Forgeries at the host that listens (rx), from its sharer's address
# (tx): whichever ticks first shares, so find out which.
if (($(dardd_stat e1_1 shares_sent) > $(dardd_stat e1_2 shares_sent))); then
	tx=e1_1 rx=e1_2
else
	tx=e1_2 rx=e1_1
fi
txa=$(mgmt_addr "$tx")
rxa=$(mgmt_addr "$rx")
echo "$tx shares with $rx"
declare -A was
for h in e1_1 e1_2; do
	for s in share_refused share_refused_mac share_refused_sender \
		share_refused_size share_refused_source share_refused_replay; do
		was[$h.$s]=$(dardd_stat "$h" "$s")
	done
done
for c in bad-mac sender oversize; do
	on "$tx" python3 "$py" forge "$key" "$txa" "$rxa" "$c"
done
on e2_1 python3 "$py" forge "$key" "$e21" "$rxa" source
# A real SHARE between the two, replayed twice the moment it passes
# (whichever way it goes): its receiver refuses both copies.
t "a SHARE between $tx and $rx replayed twice as it leaves" \
	bash -c "'$testbed' exec --prefix '$prefix' $tx python3 '$py' replay mgmt0 '$txa' '$rxa' 2 60 >'$tmp/replayed'"
read -r _ rdst _ <"$tmp/replayed"
[[ $rdst == "$txa" ]] && rrx=$tx || rrx=$rx
echo "  replayed to $rrx: $(cat "$tmp/replayed")"
# grew HOST STAT N: STAT rose by N on HOST since the forgeries.
grew() { [[ $(($(dardd_stat "$1" "$2") - was[$1.$2])) -eq $3 ]]; }
t "a bad MAC refused" within 30 grew "$rx" share_refused_mac 1
t "a signed SHARE in nobody's name refused" within 30 grew "$rx" share_refused_sender 1
t "an oversized datagram refused before the MAC" within 30 grew "$rx" share_refused_size 1
t "a datagram from a host under another ToR refused" within 30 grew "$rx" share_refused_source 1
t "the replays refused by $rrx" within 30 grew "$rrx" share_refused_replay 2
if [[ $rrx == "$rx" ]]; then
	t "and nothing else refused" within 30 grew "$rx" share_refused 6
else
	t "and nothing else refused" within 30 grew "$rx" share_refused 4
	t "by either" within 30 grew "$tx" share_refused 2
fi
t "$rx's paths still known" ctl_jq "$rx" '.[0].paths | all(.known)' -- monitor show
# Each line says how many more like it it kept quiet: the lines and the
# refusals they stand for add up to what was counted.
t "refusals logged at most once a second per reason" test \
	"$(grep -c 'refused a share' "$dir/log/$rx.log")" -le $((6 * ($(printf '%.0f' "$(elapsed)") + 1)))

# The sharer's dardd stops: the listener asks every switch itself again.
# Once it has no fresh share left, every tick asks all 9: nothing saved
# over 20 ticks, and 9 queries a tick.
t "stop $tx's dardd" stop_prog "$tx" dardd
ticks_over() { (($(dardd_stat "$rx" query_ticks) >= $1)); }
alone() {
	local k1 q1 s1 k2 q2 s2
	read -r k1 q1 s1 < <(dardd_stats "$rx" query_ticks queries share_saved)
	ta=$EPOCHREALTIME
	within 60 ticks_over $((k1 + 20)) || return 1
	read -r k2 q2 s2 < <(dardd_stats "$rx" query_ticks queries share_saved)
	echo "  $rx: $((q2 - q1)) queries, $((s2 - s1)) saved in $((k2 - k1)) ticks"
	alone_rate=$(awk -v q=$((q2 - q1)) -v t="$(since "$ta")" 'BEGIN { printf "%.1f", q / t }')
	((s2 == s1 && q2 - q1 == 9 * (k2 - k1)))
}
# The rate of the 20 ticks that passed, not of the tries before.
t "with its sharer gone, $rx asks all 9 itself every tick" within 120 alone &&
	figure alone_queries_per_s "$alone_rate" "1/s" "queries a host alone sends (9 switches, 10 ticks a second: 90)"
t "$rx's paths still known" ctl_jq "$rx" '.[0].paths | all(.known)' -- monitor show
kill "$ip1" "$ip2" 2>/dev/null
wait "$ip1" "$ip2" 2>/dev/null
t "down" "$testbed" down --prefix "$prefix"

summary
