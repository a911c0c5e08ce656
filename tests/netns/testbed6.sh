#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The namespace testbed with IPv6 (issue 32; `testbed up --family'): on a
# dual-stack fattree:4 and an IPv6-only one, both with the datapath
# attached, every path of every ToR pair is reachable by its IPv6
# alias pair: from the first host under each ToR, a ping from its alias
# through root r to the alias through root r of the first host under
# every other ToR (8 ToRs: 56 ordered pairs, 4 roots, 224 pings), each
# answered. Each inter-pod pair through core r crosses core r and no
# other core: core r's ports count at least the 48 pings' requests and
# replies, the other cores less than a tenth of that. The dual-stack
# fabric, brought up with --outer ipv6, carries IPv4 ID traffic 4in6 too:
# the cores forward a ping's packets in IPv6 and none in IPv4. In
# the IPv6-only one, whose switches have no IPv4 route and whose hosts no
# IPv4 address on eth0, ID traffic crosses pods 4in6 (bpf/encap6.h): a
# ping and a 20 MB TCP transfer from e1_1's ID to e3_1's arrive whole,
# e1_1's datapath counts them wrapped and the replies unwrapped, and e3_1's counts
# no drop. A core link taken down under a 50 Mbit/s transfer between
# IDs is repaired in band: the datapath moves the flow at its RTO
# (repath_rto), off that core, and every byte arrives. Prints the pings
# sent.
#
# Namespaces are named dard_t6b_PID_*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
xfer=$top/tests/netns/xfer.py
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-t6b-$$
prefix=""
suite=testbed6
source "$top/tests/netns/lib.sh"
need_root
tmp=$(mktemp -d)

cleanup() {
	[[ -n $prefix ]] && "$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR" "$tmp"
}
trap cleanup EXIT

# Per ToR, its first host and that host's IPv6 aliases, root order:
# "TOR HOST A1 A2 A3 A4".
firsts() {
	"$dardctl" -j -t "$DARD_TESTBED_DIR/$prefix/dard.conf" addr show |
		jq -r 'group_by(.tor)[] | min_by(.name) |
			"\(.tor) \(.name) \([.aliases6[].addr] | join(" "))"'
}

# The packets core C's ports received, all of them.
core_rx() {
	on "$1" cat /proc/net/dev |
		awk -F'[: ]+' '$2 ~ /^p[0-9]+$/ { n += $4 } END { print n + 0 }'
}

# pings ROOT|all: from each ToR's first host to every other's, through
# root ROOT (1-4) or every root, only pods apart when ROOT is given;
# prints "sent answered".
pings() {
	local which=$1 src dst sent=0 ok=0 r pair s d
	while read -r _ src s1 s2 s3 s4; do
		local -a sa=("$s1" "$s2" "$s3" "$s4")
		local list=""
		while read -r _ dst d1 d2 d3 d4; do
			[[ $dst == "$src" ]] && continue
			[[ $which != all && ${dst%%_*} == "${src%%_*}" ]] && continue
			local -a da=("$d1" "$d2" "$d3" "$d4")
			for r in 1 2 3 4; do
				[[ $which != all && $r != "$which" ]] && continue
				list+="${sa[r - 1]} ${da[r - 1]}"$'\n'
			done
		done <<<"$hosts"
		# One process per source: its pings in a row, each its answer.
		read -r s d < <(on "$src" bash -c '
			s=0 a=0
			while read -r from to; do
				[[ -n $from ]] || continue
				s=$((s + 1))
				ping -6 -n -q -c 1 -W 2 -I "$from" "$to" >/dev/null 2>&1 &&
					a=$((a + 1))
			done
			echo "$s $a"' <<<"$list")
		sent=$((sent + s))
		ok=$((ok + d))
	done <<<"$hosts"
	echo "$sent $ok"
}

check_paths() {
	local family=$1 r c rx0 rx1 before after
	hosts=$(firsts)
	is "$family: eight ToRs, four IPv6 aliases each" \
		"$(awk 'NF == 6' <<<"$hosts" | wc -l)" 8
	read -r sent ok < <(pings all)
	echo "$family: $sent pings"
	is "$family: every alias pair of every ToR pair answers" "$ok/$sent" "224/224"
	for r in 1 2 3 4; do
		before=""
		for c in 1 2 3 4; do before+=" $(core_rx "core$c")"; done
		read -r sent ok < <(pings "$r")
		after=""
		for c in 1 2 3 4; do after+=" $(core_rx "core$c")"; done
		is "$family: core$r's 48 pings answered" "$ok/$sent" "48/48"
		read -ra b <<<"$before"
		read -ra a <<<"$after"
		for c in 1 2 3 4; do
			local grew=$((a[c - 1] - b[c - 1]))
			if ((c == r)); then
				is "$family: through core$r, core$r counts them ($grew)" \
					"$((grew >= 2 * sent))" 1
			else
				is "$family: through core$r, core$c does not ($grew)" \
					"$((grew * 10 < 2 * sent))" 1
			fi
		done
	done
}

# Packets the four cores forwarded in IPv4 and in IPv6 (nstat's).
forwarded() {
	local c v4=0 v6=0 a b
	for c in core1 core2 core3 core4; do
		read -r a b < <(on "$c" nstat -az IpForwDatagrams Ip6OutForwDatagrams |
			awk '$1 == "IpForwDatagrams" { a = $2 } $1 == "Ip6OutForwDatagrams" { b = $2 } END { print a + 0, b + 0 }')
		v4=$((v4 + a)) v6=$((v6 + b))
	done
	echo "$v4 $v6"
}

prefix=dard_t6b_$$_d
t "dual-stack fattree:4 up, ID traffic 4in6" "$testbed" up fattree:4 --prefix "$prefix" \
	--family dual --outer ipv6
check_paths dual
# IPv4 ID traffic crosses pods through the datapath, in IPv6: the cores
# forward five requests and five replies in IPv6, none in IPv4.
id31=$(on e3_1 "$dardctl" -j addr show e3_1 | jq -r '.[0].id')
read -r f4 f6 < <(forwarded)
t "dual: IPv4 ID traffic to e3_1 through the datapath" \
	on e1_1 ping -n -q -c 5 -i 0.2 -W 2 "$id31"
read -r g4 g6 < <(forwarded)
is "dual: the cores forwarded it in IPv6 ($((g6 - f6))), not IPv4 ($((g4 - f4)))" \
	"$((g6 - f6 >= 10 && g4 == f4))" 1
"$testbed" down --prefix "$prefix" >/dev/null
prefix=""

prefix=dard_t6b_$$_6
t "IPv6-only fattree:4 up" "$testbed" up fattree:4 --prefix "$prefix" --family ipv6
check_paths ipv6
is "ipv6: no IPv4 address on e1_1's fabric port" \
	"$(on e1_1 ip -4 -o addr show dev eth0 | wc -l)" 0
is "ipv6: no IPv4 route out of core1's fabric ports" \
	"$(on core1 ip -4 route show table all | grep -c ' dev p[0-9]')" 0
# ID traffic 4in6: the fabric could carry it no other way.
id31=$(on e3_1 "$dardctl" -j addr show e3_1 | jq -r '.[0].id')
id11=$(on e1_1 "$dardctl" -j addr show e1_1 | jq -r '.[0].id')
t "ipv6: a ping to e3_1's ID, 4in6" on e1_1 ping -n -q -c 3 -i 0.2 -W 2 "$id31"
dp_stat() { on "$1" "$dardctl" -j dp stats eth0 | jq -r ".[0].$2 // 0"; }
port=$((20000 + $$ % 20000))
# 20 MB both ends count (xfer.py): iperf3's receiver may report before
# it has read the last of a fast transfer.
on_bg e3_1 python3 "$xfer" recv "$id31" "$port" "$tmp/recv.json" 60 &
listening e3_1 "$port" || within 10 listening e3_1 "$port"
got=$(on e1_1 python3 "$xfer" send "$id11" $((port + 2)) "$id31" "$port" 20971520 60 |
	jq -r 'select(.sent == 20971520 and .error == "") | .received')
is "ipv6: 20 MB of TCP from e1_1's ID to e3_1's, whole" "$got" 20971520
# GSO packets count once: 20 MB is some 320 of 64 KB.
is "ipv6: e1_1 wrapped them (over 100 packets)" "$(($(dp_stat e1_1 encap) > 100))" 1
is "ipv6: and unwrapped the replies (over 100)" "$(($(dp_stat e1_1 decap) > 100))" 1
# In-band repair over IPv6: the flow's core loses its link to pod 1.
port2=$((port + 3))
on_bg e3_1 iperf3 -s -1 -B "$id31" -p "$port2" >/dev/null 2>&1 &
listening e3_1 "$port2" || within 10 listening e3_1 "$port2"
on_bg e1_1 iperf3 -c "$id31" -B "$id11" -p "$port2" -b 50M -t 5 -J >"$tmp/repair.json" 2>&1 &
client=$!
data_flow() {
	flows e1_1 | jq -c "[.[] | select(.proto == \"tcp\" and .dport == $port2)] | max_by(.bytes) // empty"
}
moving() { [[ $(data_flow | jq '.bytes') -gt 1000000 ]]; }
t "ipv6: the transfer runs" within 10 moving
core=$(data_flow | jq -r '.switches[2]')
rto0=$(dp_stat e1_1 repath_rto)
t "ipv6: $core's link to pod 1 down" on "$core" ip link set p1 down
wait "$client"
read -r sent recvd < <(jq -r '"\(.end.sum_sent.bytes) \(.end.sum_received.bytes)"' "$tmp/repair.json")
is "ipv6: every byte of the transfer arrived ($recvd)" "$((${recvd:-0} > 20000000 && recvd == sent))" 1
is "ipv6: the datapath moved it at its RTO" "$(($(dp_stat e1_1 repath_rto) > rto0))" 1
is "ipv6: off $core" "$(data_flow | jq --arg c "$core" '.switches | index($c) == null')" true
has "ipv6: flow show gives its pair in IPv6" "$(on e1_1 "$dardctl" flow show dev eth0)" \
	'^tcp .* via fd00:da::[0-9a-f:]+ -> fd00:da::[0-9a-f:]+ \(tor1_1 '
is "ipv6: and in JSON, with its IPv4 form" \
	"$(data_flow | jq -r '(.saddr6 | startswith("fd00:da::")) and (.saddr | startswith("10."))')" true
is "ipv6: e3_1 dropped nothing it unwrapped" \
	"$(on e3_1 "$dardctl" -j dp stats eth0 | jq '[.[0] | to_entries[] | select(.key | startswith("drop")) | .value] | add // 0')" 0
"$testbed" down --prefix "$prefix" >/dev/null
prefix=""
summary
