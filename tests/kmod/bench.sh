#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The datapaths side by side in one guest (tests/kmod/run -s bench, make
# bench-kmod): the same two hosts of clos:2,4,1 (tests/kmod/lib.sh) talk
#
#   plain  alias to alias, routed by the switches as is: no datapath
#   bpf    ID to ID through the BPF datapath on both hosts
#   kmod   ID to ID through dard.ko's dard0 on both hosts
#
# then, the testbed rebuilt IPv6-only (--family ipv6), the same three in
# IPv6: plain6 (IPv6 alias to alias), bpf6 and kmod6 (4in6),
#
# and each is measured the same way: iperf3 TCP throughput for 4 s, and
# the mean round trip of 2000 pings sent back to back (ping -f: each one
# as soon as the last came back), in ns: per round trip, each datapath
# wraps and unwraps a packet twice, and the switches and both hosts'
# stacks carry it, so this is the whole path's cost per packet, not the
# datapath's alone. Under TCG every instruction is emulated, so the
# absolute numbers mean little; the ratios to plain routing and between
# the datapaths are the result.

set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
suite=kmod-bench
source tests/kmod/lib.sh
tmp=$(mktemp -d)
cleanup() {
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

declare -A mbit nsrt
pings=2000

# measure MODE SRC DST: TCP and UDP from $h1's SRC to $h2's DST.
measure() {
	local mode=$1 src=$2 dst=$3
	echo "+ iperf3 -c $dst -B $src -t 4"
	if on $h1 timeout 30 iperf3 -c $dst -B $src -t 4 -J >"$tmp/$mode.tcp.json"; then
		pass "$mode: iperf3 TCP for 4 s"
	else
		fail "$mode: iperf3 TCP for 4 s: $(jq -r .error "$tmp/$mode.tcp.json" 2>&1)"
	fi
	echo "+ ping -f -c $pings -q $dst"
	if on $h1 timeout 60 ping -f -c $pings -q -I $src $dst >"$tmp/$mode.ping"; then
		pass "$mode: $pings pings back to back"
	else
		fail "$mode: $pings pings back to back: $(tail -2 "$tmp/$mode.ping")"
	fi
	mbit[$mode]=$(jq '.end.sum_received.bits_per_second / 1e6 | floor' \
		"$tmp/$mode.tcp.json" 2>/dev/null)
	# rtt min/avg/max/mdev = 0.101/0.125/0.900/0.030 ms
	nsrt[$mode]=$(awk -F'[/ ]' '/^rtt/ { printf "%d", $8 * 1e6 }' "$tmp/$mode.ping")
	t "$mode: both measured" test -n "${mbit[$mode]}" -a -n "${nsrt[$mode]}"
}

# ratio A B: A / B to two places, or - when either is missing.
ratio() {
	[[ -n ${1:-} && -n ${2:-} && $2 != 0 ]] || { echo -; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}

echo "guest $(uname -r), $(nproc) CPUs, TCG"
t "testbed $topo up without a datapath" testbed_up
id1=$(id_of $h1) id2=$(id_of $h2)
read -ra pair <<<"$(pair_of $h1 $h2 1)"
on $h2 iperf3 -s -D
t "iperf3 listens on $h2" within 60 listening $h2 5201

measure plain "${pair[0]}" "${pair[1]}"

# datapaths SUFFIX: bpf and kmod, one after the other, both hosts.
datapaths() {
	local s=$1
	t "bpf$s: attach on $h1" attach bpf $h1
	t "bpf$s: attach on $h2" attach bpf $h2
	measure bpf$s $id1 $id2
	t "bpf$s: detach $h1" detach $h1
	t "bpf$s: detach $h2" detach $h2
	echo "+ insmod $ko"
	if insmod "$ko"; then
		pass "kmod$s: load dard.ko"
		t "kmod$s: attach on $h1" attach kmod $h1
		t "kmod$s: attach on $h2" attach kmod $h2
		measure kmod$s $id1 $id2
		t "kmod$s: detach $h1" detach $h1
		t "kmod$s: detach $h2" detach $h2
		t "kmod$s: rmmod dard" rmmod dard
	else
		fail "kmod$s: load dard.ko"
	fi
}
# Its first half above; the second in IPv6.
datapaths ""
t "ipv6: testbed $topo down" "$testbed" down --prefix "$prefix"
t "ipv6: testbed $topo up, IPv6-only, without a datapath" \
	"$testbed" up "$topo" --prefix "$prefix" --no-datapath --family ipv6
read -ra pair <<<"$(paths $h1 $h2 | jq -r '.[0] | "\(.saddr6) \(.daddr6)"')"
on $h2 iperf3 -s -D
t "ipv6: iperf3 listens on $h2" within 60 listening $h2 5201
measure plain6 "${pair[0]}" "${pair[1]}"
datapaths 6

printf 'bench %-6s %10s %10s %10s %10s\n' mode "TCP Mbit/s" "ns/rtt" \
	"TCP/plain" "rtt/plain"
for m in plain bpf kmod plain6 bpf6 kmod6; do
	p=plain
	[[ $m == *6 ]] && p=plain6
	printf 'bench %-6s %10s %10s %10s %10s\n' $m "${mbit[$m]:--}" \
		"${nsrt[$m]:--}" "$(ratio "${mbit[$m]:-}" "${mbit[$p]:-}")" \
		"$(ratio "${nsrt[$m]:-}" "${nsrt[$p]:-}")"
done
for s in "" 6; do
	echo "bench kmod$s/bpf$s: TCP $(ratio "${mbit[kmod$s]:-}" "${mbit[bpf$s]:-}")," \
		"ns per round trip $(ratio "${nsrt[kmod$s]:-}" "${nsrt[bpf$s]:-}")"
done
for d in bpf kmod; do
	echo "bench ${d}6/$d (4in6 against IP-in-IP): TCP $(ratio "${mbit[${d}6]:-}" "${mbit[$d]:-}")," \
		"ns per round trip $(ratio "${nsrt[${d}6]:-}" "${nsrt[$d]:-}")"
done
echo "bench (TCG: absolute numbers are distorted; compare the ratios)"

summary
