#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Fault injection on a namespace fat-tree at 100 Mbit/s (issue 12). Each
# case prints its figure.
#
#                 core1  core2  core3  core4
#                  aggrP_1      aggrP_2        (pods P = 1..4)
#                  torP_1       torP_2
#              eP_1 eP_2     eP_3 eP_4
#
# First with the datapath alone (no dardd, no switch agent): nobody tells
# the hosts of a failure, and only the datapath's in-band repair saves
# the flows (datapath.md, "Repair on timeouts": a TCP flow moves path on
# its retransmission timeout, a SYN-ACK sent again, or a D-SACK sent
# again):
# - a transfer whose core-aggregation link goes down under it, its ACKs
#   crossing the link too, goes on (the link stays down: only a repair
#   can save it), every byte sent is received, and its seconds at zero
#   throughput are printed (goal: under 2 s; a figure, not a check);
# - with the link still down, 40 concurrent short connections complete;
# - a placed transfer (moved by hand, as a scheduler moves one) whose
#   core-aggregation link goes down keeps its path through its first
#   timeout (rto_held), moves at a later one, and goes on.
# Then with dardd on every host and dard-switchd on every switch:
# - a core-aggregation link down, then 200 new connections across pods
#   (four host pairs), started 1 s and 3 s after the failure: all
#   complete, and when the last did after the failure is printed;
# - the link up again: it carries new flows again (how soon, printed),
#   and 200 new connections all complete;
# - the same link failing silently (every packet dropped, carriers up):
#   the switches' link probes answer the port down (how soon, printed),
#   and 200 new connections started 1 s after all complete;
# - a ToR-aggregation link down, an aggregation switch down (all its
#   links), a core's agent killed, a ToR's agent killed, dardd killed and
#   restarted, each under a transfer across it (ACKs too, where a link
#   dies), once the flow is an elephant: the transfer goes on, every
#   byte sent is received, and the stall is printed.
#
# The transfers are our own small sender and receiver (xfer.py), not
# iperf3: with -n, iperf3 3.12's receiver stops counting when the sender
# says it has written everything, so even on a quiet fabric it reports
# less received than sent (20209056 of 20971520 bytes), and "lost
# nothing" could not be told from "still in flight". Ours reads to the
# end and answers with the count, and samples what it has received
# every 0.1 s. A transfer runs until the test has seen it go on after
# its failure, then ends: no case depends on how fast the machine is.
#
# Namespaces are named dard_flt_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
dardd=$top/build/bin/dardd
switchd=$top/build/bin/dard-switchd
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-flt-$$
prefix=dard_flt_$$
dir=$DARD_TESTBED_DIR/$prefix
tmp=$(mktemp -d)
xfer=$top/tests/netns/xfer.py
rate=100
mice=40
conns=200

suite=faults
source "$top/tests/netns/lib.sh"

# On failure, what the daemons of the last case said.
dump_logs() {
	local f
	((failed)) || return 0
	for f in "$dir"/log/e*.log; do
		[[ -s $f ]] || continue
		echo "--- the last of $f"
		tail -n 8 "$f"
	done
}
cleanup() {
	dump_logs
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR" "$tmp"
}
trap cleanup EXIT

# acks_through RECEIVER SENDER CPORT SWITCH: puts the ACKs of the
# transfer from SENDER's port CPORT (xfer_start) on a path through
# SWITCH, on purpose: whether the receiver learns that they are lost is
# part of the test.
acks_through() {
	local n rport=$(($3 + 1000))
	within 30 has_flow "$1" "$rport" || return 1
	for n in 1 2 3 4; do
		crosses "$1" "$rport" "$4" && return 0
		on "$1" "$dardctl" flow move dev eth0 tcp "$(id_of "$1"):$rport" \
			"$(id_of "$2"):$3" path "$n" >/dev/null
	done
	crosses "$1" "$rport" "$4"
}
# The switches of node $1's flow from port $2, one line.
switches() { tcp_flow "$1" "$2" | jq -r '.switches | join(" ")'; }

# Node $1's repair counters (JSON), and what they gained since $2 (such
# JSON), as one line.
repairs() {
	on "$1" "$dardctl" -j dp stats eth0 |
		jq -c '.[0] | with_entries(select(.key | test("^repath_|^new_flow_dead|^rto_held")))'
}
gained() {
	repairs "$1" | jq -r --argjson a "$2" \
		'to_entries | map(select(.value > ($a[.key] // 0)) | "\(.key) +\(.value - ($a[.key] // 0))") | join(", ") | if . == "" then "none" else . end'
}
# kill_in NODE PROG [SIGNAL]: ends PROG in NODE, waiting until it is gone.
kill_in() { [[ -n $(pids_of "$1" "$2") ]] && stop_prog "$@"; }
# As the testbed starts them with --fast.
# Not jobs of ours: the testbed's down ends them.
start_dardd() {
	(DARD_PIN_ROOT=/sys/fs/bpf/dard/testbed/$prefix/$1 setsid \
		nsenter --net="/run/netns/$prefix-$1" "$dardd" \
		-c "$dir/dard.conf" -k "$dir/dard.key" --query-interval 0.1 --schedule-interval 2 \
		--idle 3 "$1" </dev/null >>"$dir/log/$1.log" 2>&1 &)
}
start_switchd() {
	(setsid nsenter --net="/run/netns/$prefix-$1" "$switchd" \
		-c "$dir/dard.conf" -k "$dir/dard.key" --window 0.2 "$1" </dev/null >>"$dir/log/$1.log" 2>&1 &)
}
# Bytes through switch $1's port $2, both ways.
port_bytes() {
	ip -n "$prefix-$1" -j -s link show dev "$2" |
		jq '.[0].stats64 | .rx.bytes + .tx.bytes'
}


# reserve_ports: keeps the transfers' fixed ports (40000-41999) out of
# every host's ephemeral range, so that a mouse's connection cannot hold
# the port a receiver must bind (once in CI: EADDRINUSE on e3_4's 41005).
reserve_ports() {
	local h
	for h in $(hosts_of "$prefix"); do
		on "$h" sysctl -qw net.ipv4.ip_local_reserved_ports=40000-41999 || return 1
	done
}
# xfer_start SRC DST CPORT: a transfer from SRC to DST's port CPORT +
# 1000, from client port CPORT, until xfer_end; its results in
# $tmp/CPORT.*.
xfer_start() {
	xsrc=$1 xdst=$2 xport=$3
	xsrc_r=$(repairs "$1")
	xdst_r=$(repairs "$2")
	rm -f "$tmp/$3.stop"
	on_bg "$2" python3 "$xfer" recv "$(id_of "$2")" $(($3 + 1000)) "$tmp/$3.recv" &
	within 30 listening "$2" $(($3 + 1000)) || fail "the receiver listening on $2"
	on_bg "$1" python3 "$xfer" send "$(id_of "$1")" "$3" "$(id_of "$2")" \
		$(($3 + 1000)) --until "$tmp/$3.stop" >"$tmp/$3.send" &
	xpid=$!
	within 30 has_flow "$1" "$3" || fail "the transfer from $1 port $3 in its datapath"
}
# received: the bytes the receiver's socket has taken so far.
received() {
	on "$xdst" ss -Hti state established "sport = :$((xport + 1000))" |
		grep -o 'bytes_received:[0-9]*' | cut -d: -f2 | head -n 1
}
grown() {
	local n
	n=$(received)
	[[ -n $n ]] && ((n >= $1))
}
# xfer_at: waits until the transfer has carried 5 MB (an elephant, as
# dardd's testbed intervals count, for a second or more), and checks
# that it runs: a failure after its end would test nothing.
xfer_at() {
	t "the transfer carries bytes" within 60 grown 5000000
	t "the transfer still runs" kill -0 "$xpid"
	[[ -n $(pids_of "$xsrc" dardd) ]] &&
		t "$xsrc's dardd holds it as an elephant" within 60 \
			ctl_jq "$xsrc" '.[] | select(.sport == $p)' --argjson p "$xport" -- flow show
	xt_fail=$EPOCHREALTIME
}
# xfer_goes_on NAME: whether the transfer carries 10 MB more after the
# failure, within a bound: it goes on. What its flow table says of it
# is checked after this, while it still runs (the testbed forgets a flow
# idle for 3 s).
xfer_goes_on() {
	local b
	b=$(received)
	t "$1: the transfer goes on after the failure (10 MB more)" within 120 grown $((${b:-0} + 10000000))
	echo "  10 MB more $(since "$xt_fail") s after the failure"
}
# xfer_end NAME: ends the transfer and checks that every byte sent was
# received; prints the stall: the 0.1 s samples below 1 Mbit/s but for
# the last (a part of 0.1 s).
xfer_end() {
	local stall
	touch "$tmp/$xport.stop"
	within 120 xfer_gone || fail "$1: the sender did not end"
	cat "$tmp/$xport.send"
	t "$1: the transfer completed, every byte sent received" jq -e \
		'.error == "" and .sent > 0 and .received == .sent' "$tmp/$xport.send"
	stall=$(jq '[.per_tick[:-1][] | select(. < 12500)] | length / 10' "$tmp/$xport.recv" 2>/dev/null)
	jq -r '[.per_tick[] * 8 / 1e5 | floor] | "  Mbit/s per 0.1 s: \(join(" "))"' \
		"$tmp/$xport.recv" 2>/dev/null | fold -s -w 76
	echo "stall: $1: ${stall:-?} s at zero throughput"
	figure "stall.${1// /_}" "${stall:-nan}" s "$1: seconds at zero throughput (goal: under 2)"
	echo "  repairs: $xsrc (sender): $(gained "$xsrc" "$xsrc_r"); $xdst (receiver): $(gained "$xdst" "$xdst_r")"
}
xfer_gone() { ! kill -0 "$xpid" 2>/dev/null; }
# --- In-band, with the datapath alone ---
cgroup2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
t "fattree:4 at $rate Mbit/s, datapath on every host, no daemons" \
	"$testbed" up fattree:4 --prefix "$prefix" --rate "$rate"
t "the transfers' ports reserved on every host" reserve_ports
# Other runs' programs may share the cgroup (a test before this one still
# detaching its own, a killed run's pins): count ours alone, by the
# links pinned under this testbed, bounded.
our_sockops() {
	local l
	for l in /sys/fs/bpf/dard/testbed/"$prefix"/*/*/dard_sockops; do
		[[ -e $l ]] && bpftool -j link show pinned "$l" | jq -r .prog_id
	done
}
attached() { bpftool -j cgroup show "$cgroup2" | jq -r '.[].id'; }
sockops_are() {
	local ours
	ours=$(our_sockops | sort -u)
	[[ $(wc -w <<<"$ours") -eq $1 ]] &&
		[[ $(comm -12 <(echo "$ours") <(attached | sort -u) | wc -l) -eq $1 ]]
}
t "the RTO program of each of the 16 hosts is attached to $cgroup2" \
	within 60 sockops_are 16
sockops=$(our_sockops | sort -u)
src=$(id_of e1_1)
dst=$(id_of e3_1)

# A transfer's core-aggregation link goes down under it.
xfer_start e1_1 e3_1 40001
read -r fcore faggr < <(switches e1_1 40001 |
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^core/) print $i, $(i + 1) }')
fport=$(port_to "$fcore" "$faggr")
t "the transfer crosses $fcore -> $faggr ($fcore's $fport)" test -n "$fport"
# The receiver's ACKs cross the failing link too, on purpose: nothing
# but its D-SACKs, sent again, can tell it that they are lost
# (datapath.md, "Repair on timeouts").
t "its ACKs cross $fcore too" acks_through e3_1 e1_1 40001 "$fcore"
echo "  the ACKs: $(switches e3_1 41001)"
xfer_at
t "take $fcore's $fport down, telling no one" on "$fcore" ip link set dev "$fport" down
xfer_goes_on "in-band, core link down"
rto=$(dp_stat e1_1 repath_rto)
t "e1_1's datapath repathed the data on RTO ($rto)" test "${rto:-0}" -gt 0
# The ACKs' repair may come a D-SACK later than the data's.
dsack_seen() { dsack=$(dp_stat e3_1 repath_dsack); ((${dsack:-0} > 0)); }
t "e3_1's datapath repathed the ACKs on a repeated D-SACK" within 60 dsack_seen
echo "  $dsack D-SACK repaths"
# In fattree:4 a core reaches one aggregation switch per pod.
left() { ! crosses e1_1 40001 "$fcore" && ! crosses e3_1 41001 "$fcore"; }
t "the transfer and its ACKs left $fcore" within 60 left
xfer_end "in-band, core link down"

# Mice: short connections while the link is still down.
servers_start e3_1
rto0=$(dp_stat e1_1 repath_rto)
syn0=$(dp_stat e3_1 repath_syn)
mice_run "$mice" 60 e1_1 e3_1
servers_stop e3_1
rto1=$(dp_stat e1_1 repath_rto)
syn1=$(dp_stat e3_1 repath_syn)
echo "mice: $done_n of $mice short connections completed, the longest in $longest s, link down; $((rto1 - rto0)) repaths on RTO (e1_1), $((syn1 - syn0)) on a SYN-ACK sent again (e3_1)"
t "every mouse completed ($done_n of $mice)" test "$done_n" -eq "$mice"

# A placed transfer: moved by hand, as dardd's scheduler or the
# controller moves a flow (moves 1), to another path. To pod 2, whose
# links all work: case 1's dead link is in pod 3, and a connection
# whose SYN or ACKs met it would start in TCP's backoff. Its ACKs are
# put through another core. Its first timeout keeps the path
# (rto_held), the second in a row moves it on (datapath.md, "Repair on
# timeouts"): one backed-off RTO more than an unplaced flow's stall,
# still within the bound.
pdst=$(id_of e2_1)
xfer_start e1_1 e2_1 40002
place2() {
	local cur
	cur=$(tcp_flow e1_1 40002 | jq .path_index)
	on e1_1 "$dardctl" flow move dev eth0 tcp "$src:40002" "$pdst:41002" \
		path $(((cur + 1) % 4 + 1))
}
t "place the transfer on another path" place2
read -r pcore paggr < <(switches e1_1 40002 |
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^core/) print $i, $(i + 1) }')
pport=$(port_to "$pcore" "$paggr")
t "the placed transfer crosses $pcore -> $paggr (moves $(tcp_flow e1_1 40002 | jq .moves))" \
	test -n "$pport" -a "$(tcp_flow e1_1 40002 | jq .moves)" -ge 1
acks_away() {
	local c
	for c in core1 core2 core3 core4; do
		[[ $c == "$pcore" ]] && continue
		acks_through e2_1 e1_1 40002 "$c" && return 0
	done
	return 1
}
t "its ACKs do not cross $pcore" acks_away
held0=$(dp_stat e1_1 rto_held)
rto0=$(dp_stat e1_1 repath_rto)
xfer_at
t "take $pcore's $pport down, telling no one" on "$pcore" ip link set dev "$pport" down
xfer_goes_on "in-band, placed transfer, core link down"
held1=$(dp_stat e1_1 rto_held)
rto1=$(dp_stat e1_1 repath_rto)
t "its first RTO kept the placed path ($((held1 - held0)) held)" test "$((held1 - held0))" -gt 0
t "a later one moved it ($((rto1 - rto0)) repaths on RTO)" test "$((rto1 - rto0))" -gt 0
left_p() { ! crosses e1_1 40002 "$pcore"; }
t "the placed transfer left $pcore" left_p
xfer_end "in-band, placed transfer, core link down"

t "down" "$testbed" down --prefix "$prefix"
none_left() { [[ -z $(comm -12 <(echo "$sockops") <(attached | sort -u)) ]]; }
t "none of our 16 RTO programs left on $cgroup2" none_left

# --- With dardd on every host and dard-switchd on every switch ---
t "fattree:4 at $rate Mbit/s with dard-switchd and dardd everywhere" \
	"$testbed" up fattree:4 --prefix "$prefix" --rate "$rate" --dard --fast
t "the transfers' ports reserved on every host" reserve_ports

# 200 new connections across pods, a quarter of them hashed through a
# core-aggregation link of pod 3 that has gone down (and a quarter of
# their replies): into pod 3 from three pods, and out of it. Every
# host's watch (dardd's, every 20 s, the first at its start) asked the
# switches above its ToR to tell it of their ports' links: the core's
# agent sends each host outside pod 3 a notice as its port goes down,
# and their datapaths place new flows on live paths from then on, long
# before their next watch. Pod 3's hosts do not watch that link (it is
# the last hop down into their pod, the in-band repair's): their
# connections out that meet it are repaired at their SYN's timeout,
# and their monitors then see it. Each may take 60 s: a connection
# that never completes is the failure.
pairs=(e1_1 e3_1 e2_1 e3_2 e4_1 e3_3 e3_4 e1_2)
servers_start e3_1 e3_2 e3_3 e1_2
for fcore in core1 core2 core3 core4; do
	fport=$(port_to "$fcore" aggr3_1)
	[[ -n $fport ]] && break
done
t "take $fcore's $fport (to aggr3_1) down" on "$fcore" ip link set dev "$fport" down
t_fail=$EPOCHREALTIME
# at SECONDS: waits until SECONDS after the failure.
at() {
	local end
	end=$(awk -v a="$t_fail" -v s="$1" 'BEGIN { printf "%.6f", a + s }')
	while [[ $(since "$end") == -* ]]; do sleep 0.02; done
}
# Each batch starts on time, whether or not the last has ended.
at 1
mice_start one "$conns" 60 "${pairs[@]}"
at 3
mice_start three "$conns" 60 "${pairs[@]}"
for b in one three; do
	mice_wait "$b"
	s=$([[ $b == one ]] && echo 1 || echo 3)
	echo "new connections $s s after the failure: $done_n of $conns completed, the last $(awk -v a="$t_fail" -v b="$last" 'BEGIN { printf "%.2f", b - a }') s after the failure; the longest took $longest s, $slow over 0.5 s"
	figure "conns_${s}s_longest" "$longest" s "the longest of $conns new connections started $s s after a core link failed"
	eval "done_$b=$done_n"
done
t "all of those started 1 s after completed ($done_one of $conns)" \
	test "$done_one" -eq "$conns"
t "all of those started 3 s after completed ($done_three of $conns)" \
	test "$done_three" -eq "$conns"
# notices_taken: the agents' notices each host outside pod 3 took, one
# line, and whether each took one.
notices_taken() {
	local h n all=0
	notices=""
	for h in $(hosts_of "$prefix"); do
		[[ $h == e3_* ]] && continue
		n=$(dardd_stats "$h" notices)
		notices+="$h:$n "
		((${n:-0} > 0)) || all=1
	done
	return $all
}
t "every host outside pod 3 took $fcore's notice" notices_taken
echo "notices taken: $notices"

# Up again: dard-switchd puts the core's routes back, and new flows
# cross the link again: rounds of 20 short connections until the port
# has carried one's 20 kB.
t "bring $fcore's $fport up again" on "$fcore" ip link set dev "$fport" up
t_up=$EPOCHREALTIME
crossed() {
	local b0
	b0=$(port_bytes "$fcore" "$fport")
	mice_run 20 10 "${pairs[@]}"
	(($(port_bytes "$fcore" "$fport") - b0 > 20000))
}
t "new connections cross $fcore's $fport again" within 60 crossed
echo "link up: new flows cross it $(since "$t_up") s after it came up"
figure link_up_s "$(since "$t_up")" s "a link up again to new flows crossing it"
mice_run "$conns" 60 "${pairs[@]}"
echo "new connections after the link came back: $done_n of $conns completed"
t "all of them completed ($done_n of $conns)" test "$done_n" -eq "$conns"

# A silent failure: the same link drops everything both ways, its
# carriers up, so no link event comes. The agents' link probes (ICMP
# echoes to the peer every 0.1 s, dard-switchd --probe-interval) take
# the port down after three unanswered, their notices go out, and the
# new connections started 1 s after it complete, none waiting for its
# SYN's timeout; when the drops stop the port answers up again.
# core_port_up: whether $fcore's agent answers its port to aggr3_1 up
# (true, false, or nothing if it does not answer).
core_port_up() {
	on e1_1 "$dardctl" -j switch query "$fcore" port "${fport#p}" |
		jq -r '.[].ports[] | select(.to == "aggr3_1") | .up'
}
port_is() { [[ $(core_port_up) == "$1" ]]; }
t "$fcore answers its port to aggr3_1 up" within 10 port_is true
t "drop all on $fcore's $fport, carrier up" link_fault "$fcore" "$fport" drop
t "and on aggr3_1's port back" link_fault aggr3_1 "$(port_to aggr3_1 "$fcore")" drop
t_fail=$EPOCHREALTIME
t "$fcore's probes take the port down: it answers it down" within 3 port_is false
echo "silent failure: the port answered down $(since "$t_fail") s after the drops began"
figure silent_down_s "$(since "$t_fail")" s "a silent link failure to its port answered down (probes every 0.1 s)"
at 1
mice_run "$conns" 60 "${pairs[@]}"
echo "new connections 1 s after the silent failure: $done_n of $conns completed, the longest took $longest s, $slow over 0.5 s"
figure conns_silent_longest "$longest" s "the longest of $conns new connections started 1 s after a silent link failure"
t "all of those completed ($done_n of $conns)" test "$done_n" -eq "$conns"
t "the drops end" link_fault "$fcore" "$fport" clear
link_fault aggr3_1 "$(port_to aggr3_1 "$fcore")" clear
t "the port answers up again" within 5 port_is true
servers_stop e3_1 e3_2 e3_3 e1_2

# A ToR-aggregation link on a transfer's path goes down, uphill from the
# sender's ToR, and comes back up after.
xfer_start e1_3 e2_3 40002
read -r -a sw < <(switches e1_3 40002)
port=$(port_to "${sw[0]}" "${sw[1]}")
t "the transfer crosses ${sw[0]} -> ${sw[1]} (${sw[0]}'s $port)" test -n "$port"
t "its ACKs cross ${sw[1]} -> ${sw[0]}" acks_through e2_3 e1_3 40002 "${sw[1]}"
xfer_at
t "take ${sw[0]}'s $port down" on "${sw[0]}" ip link set dev "$port" down
xfer_goes_on "ToR-aggregation link down"
gone() { ! crosses "$1" "$2" "$3"; }
t "the ACKs left ${sw[1]}" within 60 gone e2_3 41002 "${sw[1]}"
xfer_end "ToR-aggregation link down"
t "bring it up again" on "${sw[0]}" ip link set dev "$port" up
t "and every route is back" within 30 all_routes_back

# An aggregation switch on a transfer's path, in the receiver's pod,
# goes down: all its links.
xfer_start e2_2 e4_2 40003
read -r -a sw < <(switches e2_2 40003)
victim=${sw[3]}
ports=$(awk '$1 == "link" && $4 ~ /^p[0-9]/ { print $4 }' "$dir/node/$victim.batch" | sort -u | xargs)
t "the transfer crosses $victim (ports $ports)" test -n "$ports"
t "its ACKs cross $victim" acks_through e4_2 e2_2 40003 "$victim"
xfer_at
# links_set NODE STATE PORT...: sets each port of NODE up or down.
links_set() {
	local n=$1 state=$2 p
	shift 2
	for p in "$@"; do
		ip -n "$prefix-$n" link set dev "$p" "$state" || return 1
	done
}
t "take all of $victim's links down" links_set "$victim" down $ports
xfer_goes_on "aggregation switch down"
t "the transfer left $victim" gone e2_2 40003 "$victim"
t "the ACKs left $victim" within 60 gone e4_2 41003 "$victim"
xfer_end "aggregation switch down"
t "bring them up again" links_set "$victim" up $ports
t "and every route is back" within 30 all_routes_back

# Switch agents killed under a transfer: a core's, then a ToR's. The
# switch forwards on; its paths become unknown, never dead, and nothing
# that reads the agents moves the transfer: its moves (dardd's, the
# controller's, dardctl's) stay, and it keeps its path. The datapath's
# own repair on a TCP timeout (issue 12), which a lone transfer meets
# now and then when the tbf queue drops a window's tail, is no move and
# no agent's doing: when its count grew after the agent was killed,
# where the transfer went is printed, not judged. (The test read the
# path before the transfer's first 5 MB, and a timeout in its slow start
# then moved it before the kill: once in the 38 checks of the 19 runs
# kept on this machine, 2026-12-02, it killed an agent the transfer no
# longer crossed.)
# kept_path NODE SPORT RTO0 MOVES0 SWITCHES...: the checks above, after
# the failure, for the transfer from NODE's port SPORT, whose RTO
# repairs and moves were RTO0 and MOVES0 before it.
kept_path() {
	local node=$1 sport=$2 rto0=$3 moves0=$4 rto
	shift 4
	t "no one moved the transfer (moves $moves0)" \
		test "$(tcp_flow "$node" "$sport" | jq .moves)" == "$moves0"
	rto=$(dp_stat "$node" repath_rto)
	if [[ $rto == "$rto0" ]]; then
		t "the transfer kept its path" test "$(switches "$node" "$sport")" == "$*"
	else
		echo "  the datapath repaired it on $((rto - rto0)) timeouts: now through $(switches "$node" "$sport")"
	fi
}
# unknown_not_dead HOST [SWITCH]: whether HOST's monitors hold every
# path through SWITCH (every path: a monitor's paths name no ToR)
# unknown, and none dead.
unknown_not_dead() {
	ctl_jq "$1" '[.[].paths[] | select($v == "" or (.switches | index($v)))] |
		length > 0 and all(.known == false and (.dead | not))' \
		--arg v "${2:-}" -- monitor show
}
xfer_start e4_1 e1_4 40004
xfer_at
# Its path once it runs: a timeout in its slow start may have moved it.
read -r -a sw < <(switches e4_1 40004)
rto0=$(dp_stat e4_1 repath_rto)
moves0=$(tcp_flow e4_1 40004 | jq .moves)
t "kill ${sw[2]}'s dard-switchd (on the transfer's path)" kill_in "${sw[2]}" dard-switchd KILL
t "e4_1 holds the paths through ${sw[2]} unknown, not dead" within 30 unknown_not_dead e4_1 "${sw[2]}"
xfer_goes_on "core agent killed"
kept_path e4_1 40004 "$rto0" "$moves0" "${sw[@]}"
xfer_end "core agent killed"
start_switchd "${sw[2]}"
t "${sw[2]}'s agent, started again, answers" within 30 on e1_1 "$dardctl" switch query "${sw[2]}"

xfer_start e2_4 e3_4 40005
xfer_at
read -r -a sw < <(switches e2_4 40005)
rto0=$(dp_stat e2_4 repath_rto)
moves0=$(tcp_flow e2_4 40005 | jq .moves)
t "kill ${sw[0]}'s dard-switchd (the sender's ToR)" kill_in "${sw[0]}" dard-switchd KILL
t "e2_4 holds all its paths, from ${sw[0]}, unknown, not dead" within 30 unknown_not_dead e2_4
xfer_goes_on "ToR agent killed"
kept_path e2_4 40005 "$rto0" "$moves0" "${sw[@]}"
xfer_end "ToR agent killed"
start_switchd "${sw[0]}"
t "${sw[0]}'s agent, started again, answers" within 30 on e1_1 "$dardctl" switch query "${sw[0]}"

# dardd killed mid-transfer and started again: the flow goes on through
# the pinned maps, and the new dardd picks it up with its history: as an
# elephant since when it was one, with the moves the datapath counted
# (one of ours, by hand, before the kill: not a count of 0 kept).
# el_of NODE SPORT: that elephant in NODE's dardd, as JSON.
el_of() {
	on "$1" "$dardctl" -j flow show |
		jq -c --argjson p "$2" '.[] | select(.sport == $p)'
}
xfer_start e1_1 e4_4 40006
xfer_at
# An elephant for a second at least, so that its age is a figure to keep.
el_1s() { tcp_flow e1_1 40006 | jq -e '.elephant_ms >= 1000' >/dev/null; }
t "the transfer has been an elephant for a second" within 60 el_1s
pdst=$(id_of e4_4)
cur=$(tcp_flow e1_1 40006 | jq .path_index)
t "move it by hand" on e1_1 "$dardctl" flow move dev eth0 \
	tcp "$src:40006" "$pdst:41006" path $(((cur + 1) % 4 + 1))
t "kill e1_1's dardd" kill_in e1_1 dardd KILL
dp=$(tcp_flow e1_1 40006)
start_dardd e1_1
t "the new dardd picks the transfer up from the pinned maps" within 30 \
	ctl_jq e1_1 '.[] | select(.sport == 40006)' -- flow show
after=$(el_of e1_1 40006)
echo "dardd restart: datapath $(jq -c '{saddr, daddr, moves, elephant_ms}' <<<"$dp"); adopted $(jq -c '{saddr, daddr, moves, elephant_s}' <<<"$after")"
# kept WHAT FILTER: whether FILTER holds of $d (the datapath's flow
# before the start) and $a (the new dardd's elephant).
kept() { t "$1" jq -ne --argjson d "$dp" --argjson a "$after" "$2"; }
kept "with the moves the datapath counted ($(jq .moves <<<"$dp"), one by hand)" \
	'$d.moves >= 1 and $a.moves == $d.moves'
kept "on the alias pair it was on" '$a.saddr == $d.saddr and $a.daddr == $d.daddr'
kept "an elephant since it became one ($(jq .elephant_ms <<<"$dp") ms before the start)" \
	'$d.elephant_ms >= 1000 and $a.elephant_s * 1000 >= $d.elephant_ms'
xfer_goes_on "dardd killed and restarted"
xfer_end "dardd killed and restarted"

dump_logs
t "down" "$testbed" down --prefix "$prefix"
summary
