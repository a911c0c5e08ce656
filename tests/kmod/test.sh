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
# module: its policy self-test (the policy digest's kernel build), who
# may load and drive it (attack.sh's privilege_test), load,
# ping and iperf3 over every path, new flows split by path
# weights (the BPF datapath's split is tests/bpf's), a flow moved
# mid-transfer whose bytes then take the new path and arrive, an
# elephant event, the netlink policy fuzzer, the relay probe, forged
# elephant marks cleared on the uplink (attack.sh's mark_test), a kmod host
# talking to a BPF host, unload while traffic flows; then 4in6 on the
# hosts rebuilt IPv6-only (ipv6.sh), and the kernel log.
# Without dard.ko every kmod test FAILs. Every wait is a poll with a
# liveness bound (within) and every command is bounded (on, bounded):
# a busy host makes the run slower, never red.

set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
suite=kmod
source tests/kmod/lib.sh
# privilege_test and mark_test: the module's half of issue 30's attacks.
source tests/kmod/attack.sh
# ipv6_test: the module's 4in6 on the hosts rebuilt IPv6-only, last.
source tests/kmod/ipv6.sh
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
	$tt "$what: ping $h2's ID from $h1's" on $h1 ping -c 2 -W 10 -q $id2
	for ((n = 1; n <= np; n++)); do
		turn=$(turn_of $h1 $h2 $n)
		$tt "$what: move both ICMP flows to path $n" \
			on $h1 "$dardctl" -t "$conf" flow move dev eth0 icmp $id1 $id2 path $n
		on $h2 "$dardctl" -t "$conf" flow move dev eth0 icmp $id2 $id1 path $n
		before=$(rx_packets "$turn")
		$tt "$what: ping over path $n" on $h1 ping -c 5 -i 0.2 -W 10 -q $id2
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
		on $h1 iperf3 -c $id2 -B $id1 --cport $port -n 2M \
			-J >"$tmp/iperf.$port.json" 2>&1 &&
			jq -e "$sent_all" \
				"$tmp/iperf.$port.json" >/dev/null 2>&1 || {
			ok=""
			jq -c '.error // .end.sum_sent' "$tmp/iperf.$port.json"
			break
		}
		f=$(tcp_flow $h1 $port | jq -r '.path_index')
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
# shown_even HOST: whether dp weights shows $id2's split as even.
shown_even() { on "$1" "$dardctl" dp weights eth0 $id2 | grep -q ' even$'; }
# weights_test WHAT T: $h1's new flows to $h2 under weights 1:3 (400 of
# them: 25% on path 1, within 8 points), then 0:1 (50, all on path 2),
# then even again (300, half each, within 10), read in one dump at the
# end: the 1:3 flows' share then also says they stayed where they were.
weights_test() {
	local what=$1 tt=$2 w0 s7 n7 s8 n8 s9 n9
	[[ $tt == tk && -z $kmod ]] && { tk "$what: weighted new flows"; return; }
	[[ $tt == tk && -z $kdp ]] && { fail "$what: weighted new flows (no kmod datapath attached)"; return; }
	w0=$(dp_stat $h1 new_flow_weighted)
	$tt "$what: weights 1 3 for $h2" \
		on $h1 "$dardctl" -t "$conf" dp weights eth0 $h2 1 3
	$tt "$what: shown as 64 and 192 slots of 256" ctl_jq $h1 \
		'.[0].weighted and .[0].slots == [64, 192]' -- dp weights eth0 $id2
	udp_flows $h1 7 400
	$tt "$what: weights 0 1" on $h1 "$dardctl" dp weights eth0 $id2 0 1
	udp_flows $h1 8 50
	$tt "$what: weights even" on $h1 "$dardctl" dp weights eth0 $id2 even
	$tt "$what: shown as even" shown_even $h1
	udp_flows $h1 9 300
	read -r s7 n7 s8 n8 s9 n9 <<<"$(shares $h1)"
	echo "$what: path 1 had ${s7:-?}% of ${n7:-?} flows under 1:3, path 2 ${s8:-?}% of ${n8:-?} under 0:1, path 1 ${s9:-?}% of ${n9:-?} even"
	$tt "$what: 1 3: 25% of new flows on path 1, and still (${s7:-?}% of ${n7:-?})" \
		test "${n7:-0}" -ge 300 -a "${s7:--1}" -ge 17 -a "${s7:--1}" -le 33
	$tt "$what: each counted as placed by weight" \
		dp_grew $h1 new_flow_weighted "$w0" "$((${n7:-1} + ${n8:-1}))"
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
	before=$(dp_stat $h1 drop_not_mine)
	dec=$(dp_stat $h1 decap)
	$tt "$what: rawip sends 20 probes from ${pair[0]} to ${pair[1]}" \
		on $h2 "$rawip" "${pair[0]}" "${pair[1]}" $id2 172.16.255.254 20
	$tt "$what: $h1 dropped all 20 as drop_not_mine" \
		within 60 dp_grew $h1 drop_not_mine "$before" 20
	$tt "$what: and decapsulated none of them" dp_is $h1 decap "$dec"
}

# move_test WHAT T CPORT: a paced TCP transfer from client port CPORT,
# moved to the other path once it has carried 2 MB, while it runs: its
# bytes then cross the new path's turn switch and reach the receiver, it
# was moved once, and it becomes an elephant (1 s old) whose event is
# delivered exactly once. The transfer lasts until the test has seen all
# this and stops it (iperf3 -t 3600, ended as by ^C), so that no check
# races its end; a server of its own (-1, port 5202) counts what arrived.
# The module multicasts its events and sends again what no listener
# took: read until this one comes, then see that it came once.
move_test() {
	local what=$1 tt=$2 cport=$3 srv=$tmp/move-srv.$3.json ipid cur new turn b0 r0 moved
	[[ $tt == tk && -z $kmod ]] && { tk "$what: a flow moved mid-transfer"; return; }
	[[ $tt == tk && -z $kdp ]] && { fail "$what: a flow moved mid-transfer (no kmod datapath attached)"; return; }
	on $h2 iperf3 -s -1 -D -J -B $id2 -p 5202 --logfile "$srv" -I "$tmp/move.pid"
	$tt "$what: a receiver listens on port 5202" within 60 listening $h2 5202 || return
	# Paced, so that the flow is mid-transfer at the move even under TCG.
	on_bg $h1 iperf3 -c $id2 -B $id1 -p 5202 --cport $cport -b 40M -t 3600 \
		-J >"$tmp/move.json" 2>&1 &
	ipid=$!
	if ! $tt "$what: the transfer from port $cport carried 2 MB" \
		within 120 carried $h1 $cport 2000000 ||
		! $tt "$what: and runs as the move comes" kill -0 $ipid; then
		move_end $ipid
		return
	fi
	cur=$(tcp_flow $h1 $cport | jq -r '.path_index // empty')
	new=$(((${cur:-0} + 1) % $(npaths) + 1))
	turn=$(turn_of $h1 $h2 $new)
	$tt "$what: move it to path $new" on $h1 "$dardctl" -t "$conf" \
		flow move dev eth0 tcp $id1:$cport $id2:5202 path $new
	b0=$(tcp_flow $h1 $cport | jq '.bytes') r0=$(rx_bytes "$turn")
	num "$b0" && num "$r0" || {
		fail "$what: its bytes (${b0:-?}) and $turn's (${r0:-?}) read after the move"
		move_end $ipid
		return
	}
	# 8 MB more left $h1; all but what is still on its way to $turn
	# crossed it. Without the move only the ACKs could (a few percent).
	$tt "$what: it carried 8 MB more" \
		within 120 carried $h1 $cport $((b0 + 8000000))
	$tt "$what: and 4 MB of them crossed path $new's turn, $turn" \
		rx_grew "$turn" "$r0" 4000000
	moved=$(tcp_flow $h1 $cport)
	$tt "$what: the flow was moved once, to path index $((new - 1))" \
		jq -e --argjson i $((new - 1)) '.moves == 1 and .path_index == $i' \
		<<<"${moved:-null}"
	$tt "$what: it became an elephant" within 60 elephant $h1 $cport
	echo "$what: the flow: ${moved:-none}"
	: >"$tmp/events"
	$tt "$what: its elephant event was delivered" \
		within 60 event_for $h1 elephant $cport "$tmp/events"
	$tt "$what: exactly once" jq -s -e --argjson p $cport \
		'[.[][] | select(.event == "elephant" and .sport == $p)] | length == 1' \
		"$tmp/events"
	# Its ACKs, as old and as many packets, carry no payload.
	$tt "$what: the receiver's ACK stream is no elephant" \
		acks_mouse $h2 5202 $cport
	move_end $ipid
	$tt "$what: the transfer ended by the test's stop alone" jq -e \
		'(.error // "" | startswith("interrupt")) and .end.sum_sent.bytes > 0' \
		"$tmp/move.json"
	# In order: what the receiver read past what had left $h1 at the
	# move (headers included) was sent after it.
	$tt "$what: the receiver read 2 MB sent after the move" jq -e \
		--argjson b $((b0 + 2000000)) '.end.sum_received.bytes > $b' "$srv"
	jq -c '{sent: .end.sum_sent.bytes, error}' "$tmp/move.json"
	jq -c '{received: .end.sum_received.bytes, error}' "$srv"
}
# move_end PID: stops move_test's transfer as ^C does (the client tells
# its server, and both write their JSON), then waits for the client (PID)
# and the server, which ends with the test it served.
move_end() {
	stop_prog $h1 iperf3 INT || fail "$what: the transfer ends on SIGINT"
	wait "$1"
	within 60 test ! -e "$tmp/move.pid" || {
		fail "$what: its server ends with it"
		kill -KILL "$(cat "$tmp/move.pid")"
		rm -f "$tmp/move.pid"
	}
}

# policy_digests: whether the module's self-test printed, for every
# policy function, the digest kmod/uapi/linux/dard_policy_digest.h
# expects, which the userspace and BPF builds compute too.
policy_digests() {
	local expected name want got n=0 bad=""
	expected=$(sed -n 's/^#define DARD_PD_EXPECT_\([A-Z_]*\) 0x\([0-9a-f]*\)ULL$/\1 \2/p' \
		kmod/uapi/linux/dard_policy_digest.h)
	# A here-string, not <(...): the guest has no /dev/fd.
	while read -r name want; do
		[[ -n $name ]] || continue
		got=$(dmesg | sed -n "s/.*policy self-test: $name \([0-9a-f]*\)\$/\1/p" | tail -1)
		echo "policy digest $name: the module's ${got:-none}, expected $want"
		[[ $got == "$want" ]] || bad=1
		n=$((n + 1))
	done <<<"$expected"
	[[ $n -gt 0 && -z $bad ]]
}

cleanup() {
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "guest $(uname -r), $(nproc) CPUs"
t "testbed $topo up without a datapath" testbed_up
id1=$(id_of $h1) id2=$(id_of $h2)
t "the IDs are $id1 and $id2" test -n "$id1" -a -n "$id2"
on $h2 iperf3 -s -D -B $id2
t "iperf3 listens on $h2" within 60 listening $h2 5201

# The BPF datapath: the harness's own proof.
t "bpf: attach on $h1" attach bpf $h1 elephant-age 1
t "bpf: attach on $h2" attach bpf $h2 elephant-age 1
ping_paths bpf t
iperf_paths bpf t 40001
move_test bpf t 45001
relay_probe bpf t
t "bpf: detach $h1" detach $h1
t "bpf: detach $h2" detach $h2

# The module: load it beside the kernel's own ipip.
t "dard.ko is in the image" test -e "$ko"
# First its self-test, the kernel's build of the policy (datapath.md,
# "One policy, three builds"): the same inputs as tests/unit's and
# tests/bpf's, the same expected digests; a mismatch refuses the load.
t "policy: insmod dard.ko selftest=1 (the policy digest)" \
	bounded insmod "$ko" selftest=1
t "policy: the module's digests are the expected ones" policy_digests
t "policy: rmmod dard after its self-test" bounded rmmod dard
# Who may load it and drive it: installed, depmod, no alias; ends unloaded.
privilege_test
echo "+ insmod $ko"
if bounded insmod "$ko"; then
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

move_test kmod tk 45011
relay_probe kmod tk
# Forged elephants leave unmarked; dard0's own keep the mark.
mark_test
tk "kmod: nlfuzz is in the image" test -x "$nlfuzz"
tk "kmod: nlfuzz: every malformed request refused" on $h1 "$nlfuzz" dard0
tk "kmod: the device survived it" on $h1 ping -c 2 -W 10 -q $id2

# A kmod host talking to a BPF host: same wire format.
tk "interop: detach kmod on $h2" detach $h2
tk "interop: no dard0 left on $h2" bash -c "! ip -n $prefix-$h2 link show dard0 2>/dev/null"
tk "interop: attach bpf on $h2" attach bpf $h2
tk "interop: kmod $h1 pings bpf $h2" on $h1 ping -c 3 -W 10 -q $id2
tk "interop: bpf $h2 pings kmod $h1" on $h2 ping -c 3 -W 10 -q $id1
on $h1 iperf3 -c $id2 -B $id1 -n 4M -J >"$tmp/interop.json" 2>&1
tk "interop: iperf3 kmod -> bpf" jq -e "$sent_all" "$tmp/interop.json"
jq -c '.error // empty' "$tmp/interop.json"
tk "interop: bpf $h2 decapsulated" dp_grew $h2 decap 0 1
tk "interop: kmod $h1 decapsulated" dp_grew $h1 decap 0 1

# Unload with a transfer running over dard0 in one namespace and the
# device in another: rmmod removes both, holding nothing.
tk "unload: dard0 in a second namespace" on $h2 ip link add dard0 type dard
# The transfer lasts until the test stops it, after the rmmod.
if [[ -n $kmod ]]; then
	on_bg $h1 iperf3 -c $id2 -B $id1 --cport 45101 -t 3600 >/dev/null 2>&1 &
	upid=$!
fi
tk "unload: an iperf3 transfer over dard0" within 120 carried $h1 45101 100000
tk "unload: still running" kill -0 "${upid:-0}"
tk "unload: rmmod dard while it runs" bounded rmmod dard
tk "unload: the module is gone" test ! -e /sys/module/dard
tk "unload: no dard0 in $h1" bash -c "! ip -n $prefix-$h1 link show dard0 2>/dev/null"
tk "unload: no dard0 in $h2" bash -c "! ip -n $prefix-$h2 link show dard0 2>/dev/null"
[[ -n $kmod ]] && { stop_prog $h1 iperf3 KILL; wait "$upid"; }
tk "unload: load and unload again" bounded bash -c "insmod '$ko' && rmmod dard"
tk "unload: the fabric still forwards" on $h1 ping -c 2 -W 10 -q 172.20.0.16

# 4in6: the same hosts in an IPv6-only fabric (ipv6.sh).
ipv6_test

dmesg >"$tmp/dmesg"
t "the kernel log has no WARN, BUG, Oops or leak" \
	bash -c "! grep -E 'WARNING:|BUG:|Oops|[Ll]eak|refcount_t|unregister_netdevice: waiting|general protection|Call Trace' $tmp/dmesg"
grep -E 'WARNING:|BUG:|Oops|[Ll]eak|refcount_t|unregister_netdevice|Call Trace' -A 20 "$tmp/dmesg" | head -60

summary
