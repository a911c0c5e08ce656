#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# DARD's control plane on a namespace fat-tree with 50 Mbit/s links: four
# long TCP flows between pods, placed by hand on core1, stay collided
# while their hosts run no dardd; with dardd on the hosts and dard-switchd
# on every switch they spread until no switch-switch link carries two, and
# their throughput rises. Then a core port under e1_1's elephant goes
# down (the path is seen dead, the elephant leaves it; up again,
# dard-switchd puts the switch's routes back, the path is live again and
# the flows spread again), a downhill route deleted by hand comes back,
# a switch agent stops
# (its links become unknown and no flow moves onto them), a dardd
# restarts mid-run (no flow is lost) and the stopped switch agent,
# started again, restores a route deleted while it was away.
#
#   e1_1 e1_2 (tor1_1) --> e2_1 e2_2 (tor2_1)     flow i: e1_i -> e2_i,
#   e1_3 e1_4 (tor1_2) --> e2_3 e2_4 (tor2_2)     client port 4000i
#
# Intervals are the testbed's --fast ones (queries every 0.1 s, rounds
# every 2 s + U[0, 2 s], elephants after 1 s). Namespaces are named
# dard_cp_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
dardd=$top/build/bin/dardd
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-cp-$$
prefix=dard_cp_$$
dir=$DARD_TESTBED_DIR/$prefix
tmp=$(mktemp -d)
# Long enough that the flows still run when the last checks that need
# them (a switch agent stopping, dardd restarting) come, on a loaded
# machine too: with the load average at 8 on two cores, they came at 55 s.
secs=60
rate=50

suite=dard
source "$top/tests/netns/lib.sh"

# On failure, what the senders' daemons said.
dump_logs() {
	local f
	((failed)) || return 0
	for f in "$dir"/log/e1_*.log; do
		[[ -e $f ]] || continue
		echo "--- the last of $f"
		tail -n 15 "$f"
	done
}
cleanup() {
	dump_logs
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR" "$tmp"
}
trap cleanup EXIT

stop() {
	local p
	p=$(pids_of "$1" "$2")
	[[ -n $p ]] || return 1
	kill $p
	while [[ -n $(pids_of "$1" "$2") ]]; do sleep 0.05; done
}
start_dardd() {
	DARD_PIN_ROOT=/sys/fs/bpf/dard/testbed/$prefix/$1 setsid \
		nsenter --net="/run/netns/$prefix-$1" "$dardd" \
		-c "$dir/dard.conf" -k "$dir/dard.key" --query-interval 0.1 --schedule-interval 2 \
		--idle 3 --quiet-at 0 "$1" </dev/null >>"$dir/log/$1.log" 2>&1 &
}

# Flow i as the datapath on e1_i sees it (JSON).
flow() {
	on "e1_$1" "$dardctl" -j flow show dev eth0 |
		jq -c --argjson p "4000$1" '.[] | select(.proto == "tcp" and .sport == $p)'
}
# The four flows' switches, one line each.
routes() {
	local i
	for i in 1 2 3 4; do flow "$i" | jq -r '.switches | join(" ")'; done
}
all_on_core1() { [[ $(routes | grep -c ' core1 ') == 4 ]]; }
four_on() { [[ $(routes | grep -c " $1 $2 ") == 4 ]]; }
max_is() { [[ $(max_per_link) == "$1" ]]; }
# The most flows on any directed switch-switch link.
max_per_link() {
	routes | awk '{ for (i = 1; i < NF; i++) n[$i ">" $(i + 1)]++ }
		END { m = 0; for (l in n) if (n[l] > m) m = n[l]; print m }'
}
# Seconds since the flows started.
since() { awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
# The total Mbit/s over iperf3's seconds from $1 to $2 of flows $3
# (default all four).
mbps() {
	local i
	for i in ${3:-1 2 3 4}; do
		jq --argjson a "$1" --argjson b "$2" \
			'[.intervals[].sum | select(.start >= $a and .end <= $b) | .bits_per_second] | add / length / 1e6' \
			"$tmp/iperf$i.json"
	done | awk '{ s += $1 } END { printf "%d", s }'
}

# Monitors never quiet (--quiet-at 0): these checks watch the switch
# protocol, which a quiet monitor does not use (quiet.sh tests that).
t "fattree:4 at $rate Mbit/s with dard-switchd and dardd everywhere" \
	"$testbed" up fattree:4 --prefix "$prefix" --rate "$rate" --dard --fast \
	--quiet-at 0
t "every switch runs dard-switchd" bash -c \
	"[[ \$(grep -l 'answering on' $dir/log/{core,aggr,tor}*.log | wc -l) == 20 ]]"
# An agent answers once its counter has seen a window (protocol.md).
t "core1 answers a query" within 5 on e3_1 "$dardctl" switch query core1

# Without dardd on the senders, four flows on core1 stay there.
for i in 1 2 3 4; do stop "e1_$i" dardd; done
for i in 1 2 3 4; do
	on "e2_$i" iperf3 -s -1 -D -B "172.16.0.$((4 + i))"
done
for i in 1 2 3 4; do
	within 10 listening "e2_$i" 5201 || fail "iperf3 listening on e2_$i"
done
t0=$EPOCHREALTIME
for i in 1 2 3 4; do
	on "e1_$i" iperf3 -c "172.16.0.$((4 + i))" -B "172.16.0.$i" \
		--cport "4000$i" -t "$secs" -J >"$tmp/iperf$i.json" 2>&1 &
	eval "ipid$i=$!"
done
for i in 1 2 3 4; do
	for ((n = 0; n < 50; n++)); do
		[[ -n $(flow "$i") ]] && break
		sleep 0.1
	done
	on "e1_$i" "$dardctl" flow move dev eth0 tcp "172.16.0.$i:4000$i" \
		"172.16.0.$((4 + i)):5201" path 1 || fail "placing flow $i on core1"
done
declare -A placed
for i in 1 2 3 4; do placed[$i]=$(flow "$i" | jq .moves); done
sleep 2
# Four flows on one 50 Mbit/s link can time out, and the datapath then
# repairs them in-band (datapath.md, "Repair on timeouts"): a flow that
# left core1 must have been moved by that, never by anyone else.
rto=0
for i in 1 2 3 4; do
	n=$(on "e1_$i" "$dardctl" -j dp stats eth0 | jq '.[0].repath_rto')
	rto=$((rto + ${n:-0}))
done
if ((rto == 0)); then
	t "all four cross core1" all_on_core1
	t "core1's link to aggr2_1 carries four" four_on core1 aggr2_1
	t "and they stay collided without dardd" max_is 4
else
	echo "  $rto in-band repairs on timeouts moved flows off core1"
	unmoved() {
		local i
		for i in 1 2 3 4; do
			[[ $(flow "$i" | jq .moves) == "${placed[$i]}" ]] || return 1
		done
	}
	t "without dardd no flow was moved but by the datapath's own repair" unmoved
fi

# With dardd on the senders, they spread. Each dardd starts once the one
# before has run a round: two hosts of a ToR whose rounds fall within a
# query interval of each other can both move onto one uplink before
# either sees the other's move, and with the other ToR's pair doing the
# same every flow sits at half a link where no single move gains (a Nash
# equilibrium of DARD's selfish rounds, seen once in CI; testing.md).
# One after another, the rounds test the rule, not that race.
ran_round() { ctl_jq "$1" '.[0].rounds >= 1' -- stats; }
# The flows still on core1, where they were placed: the datapath's
# repair (which counts no move) has not taken them off it, and they are
# collided until dardd starts.
collided=""
for i in 1 2 3 4; do
	flow "$i" | jq -e '.switches | index("core1") != null' >/dev/null &&
		collided+="$i "
done
t_dardd=$(since)
for i in 1 2 3 4; do
	start_dardd "e1_$i"
	t "e1_$i's dardd ran a round" within 8 ran_round "e1_$i"
done
converged=""
for ((n = 0; n < 60; n++)); do
	sleep 0.5
	if [[ $(max_per_link) == 1 ]]; then
		converged=$(since)
		break
	fi
done
routes | sed 's/^/  /'
t "within 30 s no switch-switch link carries two of them (dardd at ${t_dardd} s, spread at ${converged:-never} s)" \
	test -n "$converged"
# Their rates spread, measured below from iperf3's seconds.
sleep 6
for i in 1 2 3 4; do
	moves=$(flow "$i" | jq .moves)
	t "flow $i switched paths at most three times ($((moves - placed[$i])))" \
		test $((moves - placed[$i])) -le 3
done
on e1_1 "$dardctl" monitor show
t "e1_1 has one monitor, tor1_1 -> tor2_1, its paths known" ctl_jq e1_1 \
	'length == 1 and .[0].dst_tor == "tor2_1" and ([.[0].paths[] | select(.known)] | length) == 4' \
	-- monitor show

# A core-aggregation link fails under e1_1's elephant: the core reports
# its port down, e1_1's dardd marks the path dead (in the datapath too)
# and moves the elephant off it; up again, the path is live again.
# Whether e1_1's monitor has exactly one path through $1 then $2, dead
# (or, with $3 = live, known and not dead).
path_is() {
	local want='.dead'
	[[ ${3:-dead} == live ]] && want='.known and (.dead | not)'
	ctl_jq e1_1 "[.[0].paths[] | select(.switches as \$s | (\$s | index(\$c)) != null and (\$s | index(\$a)) == (\$s | index(\$c)) + 1)] | length == 1 and all($want)" \
		--arg c "$1" --arg a "$2" -- monitor show
}
off_link() { ! flow 1 | jq -e --arg l "$1 $2" '.switches | join(" ") | contains($l)' >/dev/null; }
read -r fcore faggr < <(flow 1 | jq -r '.switches | join(" ")' |
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^core/) print $i, $(i + 1) }')
fport=$(port_to "$fcore" "$faggr")
t "e1_1's elephant crosses $fcore -> $faggr ($fcore's $fport)" test -n "$fport"
dead_before=$(on e1_1 "$dardctl" -j stats | jq '.[0].dead_paths')
t "take $fcore's $fport down" on "$fcore" ip link set dev "$fport" down
t_fail=$EPOCHREALTIME
t "e1_1 sees the path through $fcore -> $faggr dead" within 5 path_is "$fcore" "$faggr"
dead_seen=$(awk -v a="$t_fail" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
echo "  dead seen after $dead_seen s"
on e1_1 "$dardctl" monitor show
t "and counts it" ctl_jq e1_1 '.[0].dead_paths > $n' --argjson n "$dead_before" -- stats
t "its elephant moves off the dead path" within 10 off_link "$fcore" "$faggr"
moved_off=$(awk -v a="$t_fail" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
echo "  elephant off the dead path after $moved_off s"
t "bring $fcore's $fport up again" on "$fcore" ip link set dev "$fport" up
# Linux removed the routes through the port when it went down:
# dard-switchd puts them back when the link comes up.
want=$(grep -c "^route add .* dev $fport " "$dir/node/$fcore.batch")
t_up=$EPOCHREALTIME
t "dard-switchd puts $fcore's $want routes through $fport back" \
	within 5 bash -c "[[ \$(ip -n $prefix-$fcore route show table all dev $fport proto static | wc -l) -ge $want ]]"
echo "  routes back after $(awk -v a="$t_up" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s"
t "e1_1 sees the path live again" within 5 path_is "$fcore" "$faggr" live
# Rebalanced before the next checks look at the flows.
t "the four spread again" within 20 max_is 1

# A downhill route removed by hand on a running switch comes back.
read -r dst via dev < <(awk '/^route add .* table 100 / && $4 == "via" { print $3, $5, $7; exit }' \
	"$dir/node/$faggr.batch")
t "delete $faggr's downhill route to $dst" ip -n "$prefix-$faggr" route del "$dst" table 100
t_del=$EPOCHREALTIME
t "dard-switchd restores it" within 5 bash -c \
	"ip -n $prefix-$faggr route show table 100 $dst | grep -q 'via $via dev $dev'"
echo "  route restored after $(awk -v a="$t_del" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s"
t "and logs it" grep -q "restored route $dst" "$dir/log/$faggr.log"
rule=$(awk '/^rule add pref 200 from / { print $6; exit }' "$dir/node/$faggr.batch")
t "delete $faggr's uphill rule from $rule" ip -n "$prefix-$faggr" rule del pref 200 from "$rule"
t "dard-switchd restores it too" within 5 bash -c \
	"ip -n $prefix-$faggr rule show pref 200 | grep -q 'from $rule'"

# A switch agent stops: its links become unknown, and nothing moves there.
victim=$(routes | awk '{ print $3 }' | sort | uniq -c | sort -n | awk 'NR == 1 { print $2 }')
declare -A onvictim movesb
for i in 1 2 3 4; do
	onvictim[$i]=$(flow "$i" | jq -r --arg v "$victim" '.switches | index($v) != null')
	movesb[$i]=$(flow "$i" | jq .moves)
done
timeouts=$(on e1_1 "$dardctl" -j stats | jq '.[0].timeouts')
t "stop $victim's dard-switchd" stop "$victim" dard-switchd
sleep 1.5
t "e1_1's monitor marks the path through $victim unknown" ctl_jq e1_1 \
	'[.[0].paths[] | select(.switches | index($v)) | .known] | all(. == false)' \
	--arg v "$victim" -- monitor show
t "and counts the timeouts" ctl_jq e1_1 '.[0].timeouts > $n' \
	--argjson n "$timeouts" -- stats
t "the others stay known" ctl_jq e1_1 \
	'[.[0].paths[] | select(.switches | index($v) | not) | .known] | all' \
	--arg v "$victim" -- monitor show
sleep 3
# dardd never moves a flow onto an unknown path; the datapath's in-band
# repair on a timeout may (an unknown path is not a dead one), and does
# not count as a move.
for i in 1 2 3 4; do
	now=$(flow "$i" | jq -r --arg v "$victim" '.switches | index($v) != null')
	[[ ${onvictim[$i]} == false && $now == true &&
		$(flow "$i" | jq .moves) != "${movesb[$i]}" ]] &&
		fail "flow $i moved onto $victim while its agent was down"
done
pass "no flow moved onto $victim while its agent was down"

# dardd restarts mid-run: the elephant is picked up, nothing is lost.
t "stop e1_1's dardd" stop e1_1 dardd
start_dardd e1_1
t "the new dardd picked its elephant up from the pinned maps" within 10 \
	ctl_jq e1_1 '.[] | select(.sport == 40001)' -- flow show
on e1_1 "$dardctl" flow show

# A version 1 reply from a switch's address but not its agent's port:
# refused before it is even decoded, counted, logged.
# Its query socket: not the ToR sharing port (7473) nor the controller's.
local_addr=$(on e1_1 ss -Haunp |
	awk '/"dardd"/ && $4 !~ /:747[23]$/ { print $4; exit }')
core2=$(on core2 ip -4 -o addr show dev mgmt0 | awk '{ split($4, a, "/"); print a[1] }')
on core2 python3 -c "import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('$core2', 0))
s.sendto(bytes.fromhex('da4d0102000c000100000001ff'), ('${local_addr%:*}', ${local_addr##*:}))"
t "a stray reply to dardd ($local_addr) is refused and counted" within 5 \
	ctl_jq e1_1 '.[0].rejected == 1 and .[0].refused_source == 1' -- stats
t "and logged with the reason" grep -qE "refused a reply from $core2:[0-9]+: not from the agent's port" \
	"$dir/log/e1_1.log"
for i in 1 2 3 4; do
	eval "wait \$ipid$i"
	t "flow $i completed" jq -e '.end.sum_received.bytes > 0 and (.error | not)' \
		"$tmp/iperf$i.json"
	jq -r '[.intervals[].sum.bits_per_second / 1e6 | floor] | "  flow '$i' Mbit/s per second: \(join(" "))"' \
		"$tmp/iperf$i.json"
	t "flow $i lost nothing" jq -e \
		'.end.sum_received.bytes >= 0.99 * .end.sum_sent.bytes' "$tmp/iperf$i.json"
done

# A switch agent started again puts back what went missing while it was
# away (the flows have ended: nothing depends on the route meanwhile).
vdst=$(ip -n "$prefix-$victim" route show table 100 proto static | awk '$2 == "via" { print $1; exit }')
t "delete $victim's route to $vdst while its agent is down" \
	ip -n "$prefix-$victim" route del "$vdst" table 100
setsid nsenter --net="/run/netns/$prefix-$victim" "$top/build/bin/dard-switchd" \
	-c "$dir/dard.conf" -k "$dir/dard.key" --window 0.2 "$victim" </dev/null >>"$dir/log/$victim.log" 2>&1 &
t "the restarted dard-switchd restores it" within 5 bash -c \
	"ip -n $prefix-$victim route show table 100 $vdst | grep -q via"
t "and answers again" within 5 on e3_1 "$dardctl" switch query "$victim"
on e1_1 "$dardctl" stats
if [[ -n $converged ]]; then
	a=$(printf '%.0f' "$t_dardd")
	b=$(awk -v c="$converged" 'BEGIN { printf "%d", c + 1 }')
	before=$(mbps 1 "$a")
	after=$(mbps "$b" $((b + 5)))
	echo "total: $before Mbit/s collided (1 s to $a s), $after Mbit/s spread ($b s to $((b + 5)) s)"
	# The gain is measured on the flows that shared core1 until dardd
	# started: n flows on one link, then each on its own path, so n
	# times their rate ideally (3.9 times with all four), at least
	# three quarters of that. A flow the datapath's repair moved off
	# core1 before (after a timeout while four shared it) had a link of
	# its own or half of one, and counting it would halve the baseline's
	# meaning: all four's total went from 102 to 189 Mbit/s in one CI
	# run, flows 2-4's from 47 to 140.
	n=$(wc -w <<<"$collided")
	if ((n >= 2)); then
		cb=$(mbps 1 "$a" "$collided")
		ca=$(mbps "$b" $((b + 5)) "$collided")
		echo "flows $collided(collided on core1 until dardd): $cb Mbit/s collided, $ca Mbit/s spread"
		t "their throughput rose at least $(awk -v n="$n" 'BEGIN { printf "%.2f", 0.75 * n }') times ($n shared core1)" \
			test $((4 * ca)) -ge $((3 * n * cb))
	else
		echo "  the datapath's repair moved $((4 - n)) of the four off core1 before dardd started"
	fi
	t "and came near the four links' $((4 * rate)) Mbit/s" test "$after" -ge $((3 * rate))
fi
t "no other message was rejected" ctl_jq e1_1 '.[0].rejected == 1' -- stats
dump_logs
# The hosts' control socket files, named by their namespaces' inodes.
ctl_files=$(for h in $(hosts_of "$prefix"); do
	echo "/run/dard/dardd/net-$(stat -L -c %i "/run/netns/$prefix-$h")".{sock,lock}
done)
t "dardd's control sockets and locks are there" bash -c "ls $(echo $ctl_files | xargs) >/dev/null"
t "down" "$testbed" down --prefix "$prefix"
t "and removes them" bash -c "! ls $(echo $ctl_files | xargs) 2>/dev/null | grep -q ."
no_daemons() {
	local n
	for ((n = 0; n < 40; n++)); do
		pgrep -f "(dardd|dard-switchd) -c $dir" >/dev/null || return 0
		sleep 0.05
	done
	return 1
}
t "leaves no daemon" no_daemons

summary
