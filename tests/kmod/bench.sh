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

printf 'bench %-6s %10s %10s %10s %10s\n' mode "TCP Mbit/s" "ns/rtt" \
	"TCP/plain" "rtt/plain"
for m in plain bpf kmod; do
	printf 'bench %-6s %10s %10s %10s %10s\n' $m "${mbit[$m]:--}" \
		"${nsrt[$m]:--}" "$(ratio "${mbit[$m]:-}" "${mbit[plain]:-}")" \
		"$(ratio "${nsrt[$m]:-}" "${nsrt[plain]:-}")"
done
echo "bench kmod/bpf: TCP $(ratio "${mbit[kmod]:-}" "${mbit[bpf]:-}")," \
	"ns per round trip $(ratio "${nsrt[kmod]:-}" "${nsrt[bpf]:-}")"
echo "bench (TCG: absolute numbers are distorted; compare the ratios)"

summary
