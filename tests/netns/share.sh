#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Sharing switch answers among a ToR's hosts (Documentation/protocol.md,
# "Sharing among a ToR's hosts"; issue 17) on a namespace fat-tree with
# dard-switchd and dardd everywhere (--dard --fast). e1_1 and e1_2, both
# under tor1_1, each send an elephant to pod 2: each monitor asks the
# same 7 shared switches (tor1_1, aggr1_1, aggr1_2, core1..4) and pod 2's
# two aggregation switches. With sharing, the two ask the shared ones
# once a tick between them, not twice: the queries of both fall below
# 80% of 2 x 9 a tick, one host's `share_saved' rises, SHAREs are taken,
# and both monitors' paths stay known. Then forgeries reach the share
# port of the host that listens: a bad MAC (anyone), a signed one in
# nobody's name, one longer than a message, one from a host under
# another ToR, and a real SHARE of its sharer's replayed as it leaves;
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

suite=share
source "$top/tests/netns/lib.sh"

cleanup() {
	if ((failed)); then
		echo "--- the last of e1_1's and e1_2's logs"
		tail -n 8 "$dir/log/e1_1.log" "$dir/log/e1_2.log" 2>/dev/null
	fi
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR"
}
trap cleanup EXIT

# Monitors never quiet (--quiet-at 0): these checks watch the switch
# protocol, which a quiet monitor does not use (quiet.sh tests that).
t "fattree:4 with dard-switchd and dardd everywhere" \
	"$testbed" up fattree:4 --prefix "$prefix" --dard --fast --quiet-at 0 ||
	{ summary; exit; }

mgmt() { on "$1" ip -4 -o addr show dev mgmt0 | awk '{ split($4, a, "/"); print a[1]; exit }'; }
stat_of() { on "$1" "$dardctl" -j stats | jq ".[0].$2"; }
e11=$(mgmt e1_1)
e12=$(mgmt e1_2)
e21=$(mgmt e2_1)
t "e1_1 shares with its one peer" bash -c \
	"[[ \$('$testbed' exec --prefix '$prefix' e1_1 '$dardctl' -j stats | jq -c '.[0] | [.share, .share_peers]') == '[true,1]' ]]"

for h in 1 2; do
	on "e2_$h" iperf3 -s -1 -D -B "$(id_of "e2_$h")"
	within 10 listening "e2_$h" 5201 || fail "iperf3 listening on e2_$h"
done
on e1_1 iperf3 -c "$(id_of e2_1)" -B "$(id_of e1_1)" -t 50 -b 20M >/dev/null 2>&1 &
ip1=$!
on e1_2 iperf3 -c "$(id_of e2_2)" -B "$(id_of e1_2)" -t 50 -b 20M >/dev/null 2>&1 &
ip2=$!
for h in e1_1 e1_2; do
	t "$h's dardd has a monitor with its paths known" within 15 \
		ctl_jq "$h" '.[0].paths | length == 4 and all(.known)' -- monitor show
done
# WANTs go on the first tick, SHAREs from the next: give it 3 s.
sleep 3

declare -A q0 s0
for h in e1_1 e1_2; do
	q0[$h]=$(stat_of "$h" queries)
	s0[$h]=$(stat_of "$h" share_saved)
done
# Query ticks a second: testbed --fast runs dardd -Q 0.1.
tps=10
start=$SECONDS
sleep 10
secs=$((SECONDS - start))
dq=0
saved=0
for h in e1_1 e1_2; do
	d=$(($(stat_of "$h" queries) - q0[$h]))
	s=$(($(stat_of "$h" share_saved) - s0[$h]))
	echo "$h: $d queries and $s saved in $secs s; $(stat_of "$h" shares_taken) SHAREs taken, $(stat_of "$h" shares_sent) sent"
	dq=$((dq + d))
	saved=$((saved + s))
done
t "queries saved by sharing ($saved in $secs s)" test "$saved" -ge "$secs"
# Without sharing: 2 hosts x 9 switches a tick, --fast's 10 ticks a
# second. With it, about 7 + 2 x 2 of those 18 a tick.
t "both hosts asked under 80% of 2 x 9 x $tps a second ($dq in $secs s)" \
	test "$dq" -lt $((2 * 9 * tps * secs * 80 / 100))
for h in e1_1 e1_2; do
	t "$h took SHAREs or sent them" test \
		$(($(stat_of "$h" shares_taken) + $(stat_of "$h" shares_sent))) -gt 0
	t "$h's paths still known" ctl_jq "$h" '.[0].paths | all(.known)' -- monitor show
	t "$h refused nothing" test "$(stat_of "$h" share_refused)" -eq 0
done

# Forgeries at the host that listens (rx), from its sharer's address
# (tx): whichever ticks first shares, so find out which.
if (($(stat_of e1_1 shares_sent) > $(stat_of e1_2 shares_sent))); then
	tx=e1_1 rx=e1_2
else
	tx=e1_2 rx=e1_1
fi
txa=$(mgmt "$tx")
rxa=$(mgmt "$rx")
echo "$tx shares with $rx"
declare -A was
for s in share_refused share_refused_mac share_refused_sender \
	share_refused_size share_refused_source share_refused_replay; do
	was[$s]=$(stat_of "$rx" "$s")
done
for c in bad-mac sender oversize; do
	on "$tx" python3 "$py" forge "$key" "$txa" "$rxa" "$c"
done
on e2_1 python3 "$py" forge "$key" "$e21" "$rxa" source
t "a SHARE of $tx's replayed twice as it leaves" bash -c \
	"'$testbed' exec --prefix '$prefix' $tx python3 '$py' replay mgmt0 '$txa' '$rxa' 2 5 >/dev/null"
grew() { [[ $(($(stat_of "$rx" "$1") - was[$1])) -eq $2 ]]; }
t "a bad MAC refused" within 5 grew share_refused_mac 1
t "a signed SHARE in nobody's name refused" within 5 grew share_refused_sender 1
t "an oversized datagram refused before the MAC" within 5 grew share_refused_size 1
t "a datagram from a host under another ToR refused" within 5 grew share_refused_source 1
t "the replays refused" within 5 grew share_refused_replay 2
t "and nothing else refused" within 5 grew share_refused 6
t "$rx's paths still known" ctl_jq "$rx" '.[0].paths | all(.known)' -- monitor show
t "refusals logged at most once a second per reason" test \
	"$(grep -c 'refused a share' "$dir/log/$rx.log")" -le $((6 * (SECONDS + 1)))

# The sharer's dardd stops: the listener asks every switch itself again.
for p in $(pids_of "$tx" dardd); do kill "$p"; done
q=$(stat_of "$rx" queries)
sleep 5
t "with its sharer gone, $rx asks all 9 again ($(($(stat_of "$rx" queries) - q)) in 5 s)" \
	test $(($(stat_of "$rx" queries) - q)) -ge $((9 * tps * 4))
t "$rx's paths still known" ctl_jq "$rx" '.[0].paths | all(.known)' -- monitor show
kill "$ip1" "$ip2" 2>/dev/null
wait "$ip1" "$ip2" 2>/dev/null
t "down" "$testbed" down --prefix "$prefix"

summary
