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
# and each is measured the same way: iperf3 TCP throughput for 4 s, and
# ns per packet from a UDP flood of 64-byte datagrams for 3 s (elapsed
# time over the datagrams that arrived: the whole path, both hosts'
# stacks and the switches, not the datapath alone). Under TCG every
# instruction is emulated, so the absolute numbers mean little; the
# ratios to plain routing and between the datapaths are the result.

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

declare -A mbit nspp

# measure MODE SRC DST: TCP and UDP from $h1's SRC to $h2's DST.
measure() {
	local mode=$1 src=$2 dst=$3
	t "$mode: iperf3 TCP for 4 s" \
		on $h1 timeout 30 iperf3 -c $dst -B $src -t 4 -J -o "$tmp/$mode.tcp.json"
	t "$mode: iperf3 UDP flood of 64-byte datagrams for 3 s" \
		on $h1 timeout 30 iperf3 -c $dst -B $src -u -b 0 -l 64 -t 3 -J \
		-o "$tmp/$mode.udp.json"
	mbit[$mode]=$(jq '.end.sum_received.bits_per_second / 1e6 | floor' \
		"$tmp/$mode.tcp.json" 2>/dev/null)
	nspp[$mode]=$(jq '.end.sum | (.packets - .lost_packets) as $n |
		if $n > 0 then (.seconds * 1e9 / $n | floor) else empty end' \
		"$tmp/$mode.udp.json" 2>/dev/null)
	t "$mode: both measured" test -n "${mbit[$mode]}" -a -n "${nspp[$mode]}"
}

# ratio A B: A / B to two places, or - when either is missing.
ratio() {
	[[ -n ${1:-} && -n ${2:-} && $2 != 0 ]] || { echo -; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}

echo "guest $(uname -r), $(nproc) CPUs, TCG"
t "testbed $topo up without a datapath" testbed_up
id1=$(id_of $h1) id2=$(id_of $h2)
pair=($(pair_of $h1 $h2 1))
on $h2 iperf3 -s -D
t "iperf3 listens on $h2" within 20 listening $h2 5201

measure plain "${pair[0]}" "${pair[1]}"

t "bpf: attach on $h1" attach bpf $h1
t "bpf: attach on $h2" attach bpf $h2
measure bpf $id1 $id2
t "bpf: detach $h1" detach $h1
t "bpf: detach $h2" detach $h2

echo "+ insmod $ko"
if insmod "$ko"; then
	pass "load dard.ko"
	t "kmod: attach on $h1" attach kmod $h1
	t "kmod: attach on $h2" attach kmod $h2
	measure kmod $id1 $id2
	t "kmod: detach $h1" detach $h1
	t "kmod: detach $h2" detach $h2
else
	fail "load dard.ko"
fi

printf 'bench %-6s %10s %10s %10s %10s\n' mode "TCP Mbit/s" "ns/packet" \
	"TCP/plain" "ns/plain"
for m in plain bpf kmod; do
	printf 'bench %-6s %10s %10s %10s %10s\n' $m "${mbit[$m]:--}" \
		"${nspp[$m]:--}" "$(ratio "${mbit[$m]:-}" "${mbit[plain]:-}")" \
		"$(ratio "${nspp[$m]:-}" "${nspp[plain]:-}")"
done
echo "bench kmod/bpf: TCP $(ratio "${mbit[kmod]:-}" "${mbit[bpf]:-}")," \
	"ns per packet $(ratio "${nspp[kmod]:-}" "${nspp[bpf]:-}")"
echo "bench (TCG: absolute numbers are distorted; compare the ratios)"

summary
