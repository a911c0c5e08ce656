#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The kernel module's tests, inside the qemu guest of tests/kmod/run (its
# own kernel: Debian's linux-image-amd64, which loads modules):
#
#        int1       int2       clos:2,4,1 from scripts/testbed
#          | \     / |         (--no-datapath; the tests attach one):
#       aggr1_1   aggr1_2      path 1 turns at aggr1_1, path 2 at
#          |   \ /   |         aggr1_2
#       tor1_1    tor1_2
#          |         |         kmod: dard0@eth0 on both hosts, then on
#        e1_1       e1_2       e1_1 only, talking to e1_2's BPF
#    172.16.0.1   172.16.0.2
#
# First the BPF datapath between the two hosts, which proves the harness
# (boot, modules, namespaces, traffic) whatever the module does; then the
# module: load, ping and iperf3 over every path, new flows split by path
# weights (the BPF datapath's split is tests/bpf's), a flow move
# mid-transfer
# with nothing lost, an elephant event, the netlink policy fuzzer, the
# relay probe, a kmod host talking to a BPF host, unload while traffic
# flows, and the kernel log. Without dard.ko every kmod test FAILs.

set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
suite=kmod
source tests/kmod/lib.sh
tmp=$(mktemp -d)

kmod=""
# Set once both hosts have the module's datapath: the traffic tests need
# it, and without it fail at once instead of each waiting out its bound.
kdp=""
# An iperf3 -n transfer that sent all it was asked to (in whole blocks)
# and was received: the receiver stops counting up to a socket buffer
# before the end.
sent_all='.end.sum_sent.bytes >= .start.test_start.bytes and .end.sum_received.bytes > 0'
# tk NAME CMD...: a test that needs the module; FAIL without it.
tk() {
	if [[ -n $kmod ]]; then
		t "$@"
	else
		fail "$1 (dard.ko not loaded)"
	fi
}

# ping_paths WHAT T: ICMP from $h1's ID to $h2's over every path, each
# direction's flow moved onto it first, seen at the path's turn switch;
# T is t or tk.
ping_paths() {
	local what=$1 tt=$2 n np turn before
	[[ $tt == tk && -z $kmod ]] && { tk "$what: ping over every path"; return; }
	[[ $tt == tk && -z $kdp ]] && { fail "$what: ping over every path (no kmod datapath attached)"; return; }
	np=$(npaths)
	$tt "$what: ping $h2's ID from $h1's" on $h1 ping -c 2 -W 3 -q $id2
	for ((n = 1; n <= np; n++)); do
		turn=$(turn_of $h1 $h2 $n)
		$tt "$what: move both ICMP flows to path $n" \
			on $h1 "$dardctl" -t "$conf" flow move dev eth0 icmp $id1 $id2 path $n
		on $h2 "$dardctl" -t "$conf" flow move dev eth0 icmp $id2 $id1 path $n
		before=$(rx_packets "$turn")
		$tt "$what: ping over path $n" on $h1 ping -c 5 -i 0.2 -W 3 -q $id2
		$tt "$what: path $n's packets crossed $turn" \
			test $(($(rx_packets "$turn") - before)) -ge 10
	done
}

# iperf_paths WHAT T PORT: a TCP transfer between the IDs on every path,
# the flows placed by the datapath's hash (client ports from PORT on until
# every path carried one; each section its own, clear of TIME_WAIT).
iperf_paths() {
	local what=$1 tt=$2 base=$3 np port f seen=" " ok=1
	[[ $tt == tk && -z $kmod ]] && { tk "$what: iperf3 over every path"; return; }
	[[ $tt == tk && -z $kdp ]] && { fail "$what: iperf3 over every path (no kmod datapath attached)"; return; }
	np=$(npaths)
	for ((port = base; port < base + 16; port++)); do
		on $h1 timeout 20 iperf3 -c $id2 -B $id1 --cport $port -n 2M \
			-J >"$tmp/iperf.$port.json" 2>&1 &&
			jq -e "$sent_all" \
				"$tmp/iperf.$port.json" >/dev/null 2>&1 || {
			ok=""
			jq -c '.error // .end.sum_sent' "$tmp/iperf.$port.json"
			break
		}
		f=$(flows $h1 | jq -r --argjson p $port \
			'.[] | select(.proto == "tcp" and .sport == $p) | .path_index')
		[[ -n $f && $seen != *" $f "* ]] && seen+="$f "
		[[ $(wc -w <<<"$seen") -ge $np ]] && break
	done
	$tt "$what: every iperf3 transfer sent its 2 MiB" test -n "$ok"
	$tt "$what: iperf3 flows on all $np paths (indices$seen)" \
		test "$(wc -w <<<"$seen")" -ge "$np"
}

# udp_flows HOST DPORT N: N new UDP flows from HOST's ID to $id2's port
# DPORT (bash's /dev/udp: a new socket, so a new source port, each).
udp_flows() {
	on "$1" bash -c "for ((i = 0; i < $3; i++)); do echo x >/dev/udp/$id2/$2; done" 2>/dev/null
}
# shares HOST: of HOST's UDP flows to ports 7, 8 and 9, the share on
# path 1, 2 and 1 (index 0, 1, 0), in percent, each with its count.
shares() {
	flows "$1" | jq -r '
		def share($p; $i): [.[] | select(.proto == "udp" and .dport == $p)] |
			"\(if length > 0 then ([.[] | select(.path_index == $i)] | length) * 100 / length | floor else -1 end) \(length)";
		"\(share(7; 0)) \(share(8; 1)) \(share(9; 0))"'
}
# weights_test WHAT T: $h1's new flows to $h2 under weights 1:3 (400 of
# them: 25% on path 1, within 8 points), then 0:1 (50, all on path 2),
# then even again (300, half each, within 10), read in one dump at the
# end: the 1:3 flows' share then also says they stayed where they were.
weights_test() {
	local what=$1 tt=$2 w0 s7 n7 s8 n8 s9 n9
	[[ $tt == tk && -z $kmod ]] && { tk "$what: weighted new flows"; return; }
	[[ $tt == tk && -z $kdp ]] && { fail "$what: weighted new flows (no kmod datapath attached)"; return; }
	w0=$(dpstat $h1 new_flow_weighted)
	$tt "$what: weights 1 3 for $h2" \
		on $h1 "$dardctl" -t "$conf" dp weights eth0 $h2 1 3
	$tt "$what: shown as 64 and 192 slots of 256" \
		bash -c "'$testbed' exec --prefix $prefix $h1 '$dardctl' -j dp weights eth0 $id2 |
			jq -e '.[0].weighted and .[0].slots == [64, 192]'"
	udp_flows $h1 7 400
	$tt "$what: weights 0 1" on $h1 "$dardctl" dp weights eth0 $id2 0 1
	udp_flows $h1 8 50
	$tt "$what: weights even" on $h1 "$dardctl" dp weights eth0 $id2 even
	$tt "$what: shown as even" \
		bash -c "'$testbed' exec --prefix $prefix $h1 '$dardctl' dp weights eth0 $id2 | grep -q ' even$'"
	udp_flows $h1 9 300
	read -r s7 n7 s8 n8 s9 n9 <<<"$(shares $h1)"
	echo "$what: path 1 had ${s7:-?}% of ${n7:-?} flows under 1:3, path 2 ${s8:-?}% of ${n8:-?} under 0:1, path 1 ${s9:-?}% of ${n9:-?} even"
	$tt "$what: 1 3: 25% of new flows on path 1, and still (${s7:-?}% of ${n7:-?})" \
		test "${n7:-0}" -ge 300 -a "${s7:--1}" -ge 17 -a "${s7:--1}" -le 33
	$tt "$what: each counted as placed by weight" \
		test "$(($(dpstat $h1 new_flow_weighted) - ${w0:-0}))" -ge "$((${n7:-1} + ${n8:-1}))"
	$tt "$what: 0 1: every new flow on path 2 (${s8:-?}% of ${n8:-?})" \
		test "${s8:--1}" -eq 100
	$tt "$what: even: half the new flows on path 1 (${s9:-?}% of ${n9:-?})" \
		test "${n9:-0}" -ge 200 -a "${s9:--1}" -ge 40 -a "${s9:--1}" -le 60
	# Gone again: the later tests read the table, slowly under TCG.
	$tt "$what: sweep the 750 UDP flows" \
		on $h1 bash -c "'$dardctl' flow sweep dev eth0 idle 1 >/dev/null"
}

# relay_probe WHAT T HOST: crafted IP-in-IP from $h2's alias to one of
# HOST's ($h1's) with a foreign inner destination: dropped, counted.
relay_probe() {
	local what=$1 tt=$2 pair before dec
	[[ $tt == tk && -z $kmod ]] && { tk "$what: the relay probe"; return; }
	[[ $tt == tk && -z $kdp ]] && { fail "$what: the relay probe (no kmod datapath attached)"; return; }
	read -ra pair <<<"$(pair_of $h2 $h1 1)"
	before=$(dpstat $h1 drop_not_mine)
	dec=$(dpstat $h1 decap)
	$tt "$what: rawip sends 20 probes from ${pair[0]} to ${pair[1]}" \
		on $h2 "$rawip" "${pair[0]}" "${pair[1]}" $id2 172.16.255.254 20
	$tt "$what: $h1 dropped all 20 as drop_not_mine" \
		within 5 test "$(($(dpstat $h1 drop_not_mine) - ${before:-0}))" -ge 20
	$tt "$what: and decapsulated none of them" \
		test "$(dpstat $h1 decap)" = "$dec"
}

# move_test WHAT T: a paced TCP transfer moved to the other path once it
# has carried 2 MB, while it runs: nothing lost, one move, and it becomes
# an elephant (1 s old) whose event is delivered exactly once. The module
# multicasts its events and sends again what no listener took: read
# until this one comes, then see that it came once.
move_test() {
	local what=$1 tt=$2 ipid tcp sport cur new moved
	[[ $tt == tk && -z $kmod ]] && { tk "$what: a flow moved mid-transfer"; return; }
	[[ $tt == tk && -z $kdp ]] && { fail "$what: a flow moved mid-transfer (no kmod datapath attached)"; return; }
	# Paced, so that the move lands mid-transfer even under TCG.
	on $h1 timeout 60 iperf3 -c $id2 -B $id1 -b 40M -n 30M -J \
		>"$tmp/move.json" 2>&1 &
	ipid=$!
	within 20 bytes_to $h1 5201 2000000
	tcp=$(tcp_to $h1 5201)
	sport=$(jq -r '.sport // empty' <<<"$tcp")
	cur=$(jq -r '.path_index // empty' <<<"$tcp")
	new=$(((${cur:-0} + 1) % $(npaths) + 1))
	$tt "$what: move the TCP flow (port ${sport:-?}) to path $new" \
		on $h1 "$dardctl" -t "$conf" flow move dev eth0 \
		tcp $id1:${sport:-0} $id2:5201 path $new
	$tt "$what: the move landed mid-transfer" kill -0 $ipid
	wait $ipid
	$tt "$what: every byte was sent and received" jq -e "$sent_all" "$tmp/move.json"
	moved=$(flows $h1 | jq -c --argjson p ${sport:-0} \
		'.[] | select(.proto == "tcp" and .sport == $p)')
	$tt "$what: the flow was moved once, to path index $((new - 1))" \
		jq -e --argjson i $((new - 1)) '.moves == 1 and .path_index == $i' \
		<<<"${moved:-null}"
	$tt "$what: it became an elephant" jq -e '.elephant == true' <<<"${moved:-null}"
	echo "$what: the flow: ${moved:-none}"
	: >"$tmp/events"
	$tt "$what: its elephant event was delivered" \
		within 20 event_for $h1 elephant ${sport:-0} "$tmp/events"
	$tt "$what: exactly once" jq -s -e --argjson p ${sport:-0} \
		'[.[][] | select(.event == "elephant" and .sport == $p)] | length == 1' \
		"$tmp/events"
}

cleanup() {
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
# The guest's bound (tests/kmod/init) ends the run: say so and count.
trap 'fail "the guest'"'"'s time bound ran out"; summary; exit 1' TERM

echo "guest $(uname -r), $(nproc) CPUs"
t "testbed $topo up without a datapath" testbed_up
id1=$(id_of $h1) id2=$(id_of $h2)
t "the IDs are $id1 and $id2" test -n "$id1" -a -n "$id2"
on $h2 iperf3 -s -D -B $id2
t "iperf3 listens on $h2" within 20 listening $h2 5201

# The BPF datapath: the harness's own proof.
t "bpf: attach on $h1" attach bpf $h1 elephant-age 1
t "bpf: attach on $h2" attach bpf $h2 elephant-age 1
ping_paths bpf t
iperf_paths bpf t 40001
move_test bpf t
relay_probe bpf t
t "bpf: detach $h1" detach $h1
t "bpf: detach $h2" detach $h2

# The module: load it beside the kernel's own ipip.
t "dard.ko is in the image" test -e "$ko"
echo "+ insmod $ko"
if insmod "$ko"; then
	kmod=1
	pass "load dard.ko"
else
	fail "load dard.ko"
fi
tk "ipip and dard are loaded together" \
	bash -c "grep -q '^ipip ' /proc/modules && grep -q '^dard ' /proc/modules"
tk "stock ip: ip link add type dard" ip link add dard-probe type dard
tk "ip -d link show names the kind" \
	bash -c "ip -d link show dard-probe | grep -qw dard"
tk "ip link del" ip link del dard-probe

if [[ -n $kmod ]] && attach kmod $h1 elephant-age 1 && attach kmod $h2 elephant-age 1; then
	kdp=1
	pass "kmod: attach on $h1 and $h2"
else
	tk "kmod: attach on $h1 and $h2" false
fi
tk "kmod: $h1 has dard0@eth0 up" \
	bash -c "ip -n $prefix-$h1 -d link show dard0 | grep -q 'dard0@eth0.*UP'"
tk "kmod: the ID route points at dard0" \
	bash -c "ip -n $prefix-$h1 route get $id2 | grep -q 'dev dard0'"
ping_paths kmod tk
iperf_paths kmod tk 41001
weights_test kmod tk

move_test kmod tk
relay_probe kmod tk
tk "kmod: nlfuzz is in the image" test -x "$nlfuzz"
tk "kmod: nlfuzz: every malformed request refused" on $h1 timeout 60 "$nlfuzz" dard0
tk "kmod: the device survived it" on $h1 ping -c 2 -W 3 -q $id2

# A kmod host talking to a BPF host: same wire format.
tk "interop: detach kmod on $h2" detach $h2
tk "interop: no dard0 left on $h2" bash -c "! ip -n $prefix-$h2 link show dard0 2>/dev/null"
tk "interop: attach bpf on $h2" attach bpf $h2
tk "interop: kmod $h1 pings bpf $h2" on $h1 ping -c 3 -W 3 -q $id2
tk "interop: bpf $h2 pings kmod $h1" on $h2 ping -c 3 -W 3 -q $id1
on $h1 timeout 20 iperf3 -c $id2 -B $id1 -n 4M -J >"$tmp/interop.json" 2>&1
tk "interop: iperf3 kmod -> bpf" jq -e "$sent_all" "$tmp/interop.json"
jq -c '.error // empty' "$tmp/interop.json"
tk "interop: bpf $h2 decapsulated" test "$(dpstat $h2 decap)" -gt 0
tk "interop: kmod $h1 decapsulated" test "$(dpstat $h1 decap)" -gt 0

# Unload with a transfer running over dard0 in one namespace and the
# device in another: rmmod removes both, holding nothing.
tk "unload: dard0 in a second namespace" on $h2 ip link add dard0 type dard
if [[ -n $kmod ]]; then
	on $h1 timeout 40 iperf3 -c $id2 -B $id1 -t 30 >/dev/null 2>&1 &
	upid=$!
	within 20 bash -c "'$testbed' exec --prefix $prefix $h1 '$dardctl' -j flow show dev eth0 | jq -e '.[] | select(.dport == 5201 and .bytes > 100000)' >/dev/null"
fi
tk "unload: rmmod dard while iperf3 runs" timeout 30 rmmod dard
tk "unload: the module is gone" test ! -e /sys/module/dard
tk "unload: no dard0 in $h1" bash -c "! ip -n $prefix-$h1 link show dard0 2>/dev/null"
tk "unload: no dard0 in $h2" bash -c "! ip -n $prefix-$h2 link show dard0 2>/dev/null"
[[ -n $kmod ]] && { kill ${upid:-0} 2>/dev/null; wait ${upid:-0}; }
tk "unload: load and unload again" bash -c "insmod '$ko' && rmmod dard"
tk "unload: the fabric still forwards" on $h1 ping -c 2 -W 3 -q 172.20.0.16

dmesg >"$tmp/dmesg"
t "the kernel log has no WARN, BUG, Oops or leak" \
	bash -c "! grep -E 'WARNING:|BUG:|Oops|[Ll]eak|refcount_t|unregister_netdevice: waiting|general protection|Call Trace' $tmp/dmesg"
grep -E 'WARNING:|BUG:|Oops|[Ll]eak|refcount_t|unregister_netdevice|Call Trace' -A 20 "$tmp/dmesg" | head -60

summary
