# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The kernel module's 4in6 (issue 32), inside the qemu guest of
# tests/kmod/run: test.sh sources it and runs ipv6_test last, on the
# same two hosts rebuilt as an IPv6-only fabric:
#
#   clos:2,4,1 --family ipv6   the switches route IPv6 aliases only (no
#                              IPv4 route between the hosts' aliases);
#                              the IDs, flows and paths stay IPv4
#   dard0@eth0 on both hosts   4in6: the outer pair is the path's IPv6
#                              aliases (DARD_A_LAYOUT6)
#
# Checked: dard0 has room for the 40-byte header; ping and iperf3 over
# every path, each path's packets seen at its turn switch, forwarded in
# IPv6; a flow moved mid-transfer, its elephant event; crafted 4in6 to an
# alias with a foreign inner destination dropped (never a relay); forged
# 4in6 elephant marks cleared on the uplink; a kmod host and a BPF host
# talking 4in6 (the guest's 6.1 takes pop_ip6ip's fallback); a transfer
# whose path's link fails, repaired in band (the module moves it when
# TCP re-draws its hash at the timeout) with every byte delivered; rmmod
# with the layout set; then four collided elephants spread by dardd and
# dard-switchd over the module (spread6).

# pair6_of SRC DST N: path N's IPv6 alias pair.
pair6_of() {
	paths "$1" "$2" | jq -r --argjson n "$3" \
		'.[] | select(.index == $n) | "\(.saddr6) \(.daddr6)"'
}
# mtu_of HOST DEV
mtu_of() { on "$1" ip -j link show dev "$2" | jq '.[0].mtu'; }
# port_toward SWITCH ADDR6: the port SWITCH's tables send ADDR6 by.
port_toward() {
	ip -n "$prefix-$1" -j -6 route get "$2" | jq -r '.[0].dev // empty'
}
# fwd6: IPv6 packets the two aggrs (every path's turn) forwarded.
fwd6() {
	local n s=0
	for n in aggr1_1 aggr1_2; do
		s=$((s + $(on $n awk '$1 == "Ip6OutForwDatagrams" { print $2 }' /proc/net/snmp6)))
	done
	echo $s
}

# relay6 WHAT: crafted 4in6 from $h2's IPv6 alias to one of $h1's, with
# a foreign inner destination: dropped, counted.
relay6() {
	local what=$1 pair before dec
	read -ra pair <<<"$(pair6_of $h2 $h1 1)"
	before=$(dp_stat $h1 drop_not_mine)
	dec=$(dp_stat $h1 decap)
	tk "$what: rawip sends 20 4in6 probes from ${pair[0]} to ${pair[1]}" \
		on $h2 "$rawip" "${pair[0]}" "${pair[1]}" $id2 172.16.255.254 20
	tk "$what: $h1 dropped all 20 as drop_not_mine" \
		within 60 dp_grew $h1 drop_not_mine "$before" 20
	tk "$what: and decapsulated none of them" dp_is $h1 decap "$dec"
}

# mark6 WHAT: forged elephants in 4in6 leave $h1 with the mark cleared.
mark6() {
	local what=$1 pair m0 m1
	read -ra pair <<<"$(pair6_of $h1 $h2 1)"
	m0=$(dp_stat $h1 mark_cleared)
	tk "$what: $h1 forges 20 elephants: raw 4in6 ${pair[0]} -> ${pair[1]}, DSCP 8" \
		on $h1 "$rawip" -d 8 "${pair[0]}" "${pair[1]}" $id1 $id2 20
	tk "$what: $h1's mark_cleared counted them" dp_grew $h1 mark_cleared "$m0" 20
	m1=$(dp_stat $h1 mark_cleared)
	tk "$what: ping -6 -Q 32 (DSCP 8) alias to alias, beside dard0" \
		on $h1 ping -6 -Q 32 -c 5 -i 0.2 -W 10 -q -I "${pair[0]}" "${pair[1]}"
	tk "$what: its 5 requests left with the mark cleared" \
		dp_grew $h1 mark_cleared "$m1" 5
}

# repair6 WHAT CPORT: a paced 64 MB transfer from CPORT; once it carried
# 2 MB, and while it runs, the link from its turn switch toward $h2 goes
# down. TCP times out and re-draws its hash, the module moves the flow
# (repath_rehash), and the transfer ends whole, with no error. The
# receiver's count stops up to a socket buffer before the end (test.sh's
# sent_all): within 4 MB of it.
repair6() {
	local what=$1 cport=$2 out=$tmp/repair6.json total=$((64 << 20))
	local cur turn d6 port r0 ipid
	on_bg $h1 iperf3 -c $id2 -B $id1 --cport $cport -n $total -b 20M \
		-J >"$out" 2>&1 &
	ipid=$!
	if ! tk "$what: the transfer from port $cport carried 2 MB" \
		within 120 carried $h1 $cport 2000000 ||
		! tk "$what: and runs as the link fails" kill -0 $ipid; then
		wait $ipid
		return
	fi
	cur=$(tcp_flow $h1 $cport | jq -r '.path_index')
	turn=$(turn_of $h1 $h2 $((cur + 1)))
	read -r _ d6 <<<"$(pair6_of $h1 $h2 $((cur + 1)))"
	port=$(port_toward "$turn" "$d6")
	r0=$(dp_stat $h1 repath_rehash)
	tk "$what: $turn's port toward $h2 ($port, path $((cur + 1))) down" \
		ip -n "$prefix-$turn" link set dev "${port:-none}" down
	wait $ipid
	jq -c '{sent: .end.sum_sent.bytes, received: .end.sum_received.bytes, error}' "$out"
	tk "$what: the transfer ended whole, with no error" jq -e \
		--argjson n $total '.error == null and .end.sum_sent.bytes == $n and
			.end.sum_received.bytes > $n - 4194304' "$out"
	tk "$what: the module moved it on its new hash" \
		dp_grew $h1 repath_rehash "$r0" 1
	tk "$what: off path $((cur + 1))" jq -e --argjson i "$cur" \
		'.path_index != $i' <<<"$(tcp_flow $h1 $cport | tail -1)"
}

# spread6: four collided elephants spread over the module's 4in6 by
# DARD itself: the testbed again at 20 Mbit/s with dard-switchd on every
# switch and dardd on both hosts (--dard --fast; DARD_DATAPATH=kmod makes
# both the testbed's attach and dardd take the module). e1_1 sends four
# transfers to e1_2, all moved onto path 1 once they run; dardd's
# selfish scheduling must leave two on each path.
spread6() {
	local i pids=() ok=1
	kdp=""
	t "spread6: the testbed down" "$testbed" down --prefix "$prefix"
	tk "spread6: insmod dard.ko" bounded insmod "$ko"
	export DARD_DATAPATH=kmod
	tk "spread6: testbed $topo up at 20 Mbit/s, IPv6-only, the module, dard-switchd and dardd" \
		"$testbed" up "$topo" --prefix "$prefix" --rate 20 --family ipv6 \
		--dard --fast && kdp=1
	unset DARD_DATAPATH
	[[ -n $kdp ]] || return
	tk "spread6: dard0 is $h1's datapath" \
		bash -c "ip -n $prefix-$h1 route get $id2 | grep -q 'dev dard0'"
	for i in 1 2 3 4; do
		on $h2 iperf3 -s -D -B $id2 -p $((5300 + i))
		within 60 listening $h2 $((5300 + i)) || ok=""
	done
	tk "spread6: four receivers listen on $h2" test -n "$ok"
	for i in 1 2 3 4; do
		on_bg $h1 iperf3 -c $id2 -B $id1 -p $((5300 + i)) \
			--cport $((46000 + i)) -t 3600 >/dev/null 2>&1 &
		pids+=($!)
	done
	for i in 1 2 3 4; do
		tk "spread6: transfer $i carried 1 MB" \
			within 120 carried $h1 $((46000 + i)) 1000000
		tk "spread6: transfer $i moved onto path 1" on $h1 "$dardctl" \
			flow move dev eth0 tcp $id1:$((46000 + i)) $id2:$((5300 + i)) path 1
	done
	echo "spread6: on paths $(spread_of)"
	tk "spread6: dardd spread them, two on each path" within 120 two_each ||
		tail -n 30 "$DARD_TESTBED_DIR/$prefix/log/$h1.log"
	echo "spread6: on paths $(spread_of)"
	stop_prog $h1 iperf3 KILL
	wait "${pids[@]}" 2>/dev/null
}
# The four transfers' path indices, sorted.
spread_of() {
	flows $h1 | jq -c '[.[] | select(.proto == "tcp" and .sport > 46000 and
		.sport <= 46004) | .path_index] | sort'
}
two_each() { [[ $(spread_of) == "[0,0,1,1]" ]]; }

# diag6: what the hosts' datapaths and routes say, when a ping failed.
diag6() {
	local h
	for h in $h1 $h2; do
		echo "diag6 $h: $(on $h "$dardctl" -j dp stats eth0 | jq -c '.[0] | with_entries(select(.value != 0))')"
		on $h ip -s -d link show dev dard0
		on $h ip route get $id2
		on $h ip -6 neigh
	done
	for h in e1_1 tor1_1 aggr1_1 aggr1_2 tor1_2 e1_2; do
		echo "snmp6 $h: $(on $h cat /proc/net/snmp6 | awk '$2 != 0 { printf "%s=%s ", $1, $2 }')"
	done
}

ipv6_test() {
	local m f0
	kdp=""
	t "ipv6: the IPv4 testbed down" "$testbed" down --prefix "$prefix"
	t "ipv6: testbed $topo up, IPv6-only, without a datapath" \
		"$testbed" up "$topo" --prefix "$prefix" --no-datapath --family ipv6
	id1=$(id_of $h1) id2=$(id_of $h2)
	on $h2 iperf3 -s -D -B $id2
	t "ipv6: iperf3 listens on $h2" within 60 listening $h2 5201
	tk "ipv6: insmod dard.ko" bounded insmod "$ko"
	tk "ipv6: ip6_tunnel and dard are loaded together" \
		bash -c "grep -q '^ip6_tunnel ' /proc/modules && grep -q '^dard ' /proc/modules"
	if [[ -n $kmod ]] && attach kmod $h1 elephant-age 1 &&
		attach kmod $h2 elephant-age 1; then
		kdp=1
		pass "ipv6: kmod: attach on $h1 and $h2"
	else
		tk "ipv6: kmod: attach on $h1 and $h2" false
	fi
	m=$(mtu_of $h1 eth0)
	tk "ipv6: dard0's MTU leaves 40 bytes of eth0's ${m:-?}" \
		test "$(mtu_of $h1 dard0)" = "$((${m:-0} - 40))"
	f0=$(fwd6)
	on $h1 ping -c 1 -W 5 -q $id2 >/dev/null || diag6
	ping_paths kmod6 tk
	# Each path's 5 pings and their replies crossed its turn in IPv6.
	tk "ipv6: the turns forwarded them in IPv6 (${f0:-?} -> $(fwd6))" \
		test $(($(fwd6) - ${f0:-0})) -ge $((10 * $(npaths)))
	iperf_paths kmod6 tk 42001
	move_test kmod6 tk 45021
	relay6 kmod6
	mark6 kmod6
	# A kmod host talking 4in6 to a BPF host.
	tk "ipv6: interop: detach kmod on $h2" detach $h2
	# dard0 parked the testbed's ID route (RTA_VIA: an IPv6 gateway).
	tk "ipv6: interop: $h2's ID route is back: via inet6 fe80::1 dev eth0" \
		bash -c "ip -n $prefix-$h2 route get $id1 | grep -q 'via inet6 fe80::1 dev eth0'"
	tk "ipv6: interop: attach bpf on $h2" attach bpf $h2
	tk "ipv6: interop: kmod $h1 pings bpf $h2" on $h1 ping -c 3 -W 10 -q $id2
	tk "ipv6: interop: bpf $h2 pings kmod $h1" on $h2 ping -c 3 -W 10 -q $id1
	on $h1 iperf3 -c $id2 -B $id1 -n 4M -J >"$tmp/interop6.json" 2>&1
	tk "ipv6: interop: iperf3 kmod -> bpf" jq -e "$sent_all" "$tmp/interop6.json"
	tk "ipv6: interop: bpf $h2 decapsulated 4in6" dp_grew $h2 decap 0 1
	# Last: the failed link stays down (IPv6 flushes its addresses and
	# routes, and no dard-switchd runs here to put them back).
	repair6 kmod6 45031
	tk "ipv6: rmmod dard with 4in6 set" bounded rmmod dard
	tk "ipv6: the module is gone" test ! -e /sys/module/dard
	spread6
	t "spread6: the testbed down, its daemons with it" \
		"$testbed" down --prefix "$prefix"
	tk "spread6: rmmod dard" bounded rmmod dard
}

[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0

# Alone (tests/kmod/run -s ipv6): the IPv4 testbed it starts from, then
# the test with the module from the image.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
suite=kmod-ipv6
source tests/kmod/lib.sh
tmp=$(mktemp -d)
kmod=1 kdp=""
sent_all='.end.sum_sent.bytes >= .start.test_start.bytes and .end.sum_received.bytes > 0'
# The checks test.sh defines that this one uses.
# (eval, not <(...): the guest has no /dev/fd)
eval "$(sed -n '/^tk() {/,/^}/p; /^ping_paths() {/,/^}/p; /^iperf_paths() {/,/^}/p; /^move_test() {/,/^}/p; /^move_end() {/,/^}/p' tests/kmod/test.sh)"
trap '"$testbed" down --prefix "$prefix" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
t "testbed $topo up without a datapath" testbed_up
ipv6_test
summary
