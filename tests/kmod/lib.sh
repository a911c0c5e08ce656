# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What the guest's test.sh and bench.sh share (tests/kmod/run boots them):
# the tree's layout under /dard, tests/netns/lib.sh's pass/fail/t/within/
# on, the testbed they build, and the look-ups on it. Source it with
# $suite set, from /dard.
#
#        int1       int2       clos:2,4,1, the testbed's smallest tree
#          | \     / |         with two paths between two hosts; both
#          |  \   /  |         turn at an aggr (the ints carry none of
#       aggr1_1   aggr1_2      e1_1 <-> e1_2's traffic)
#          |   \ /   |
#       tor1_1    tor1_2       every host: ID on lo, aliases on eth0;
#          |         |         the datapath (BPF on eth0, or kmod's
#        e1_1       e1_2       dard0@eth0) is attached by the tests
#    172.16.0.1   172.16.0.2

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
rawip=$top/tests/kmod/rawip
nlfuzz=$top/tests/kmod/nlfuzz
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/testbed
prefix=k
topo=clos:2,4,1
conf=$DARD_TESTBED_DIR/$prefix/dard.conf
kver=$(cat /etc/dard-kver 2>/dev/null)
ko=/lib/modules/$kver/dard.ko
h1=e1_1 h2=e1_2

source "$top/tests/netns/lib.sh"

# on NODE CMD...: as tests/netns/lib.sh's, bounded: a hung command fails
# its test instead of taking the whole guest's time.
on() { timeout 60 "$testbed" exec --prefix "$prefix" "$@"; }

# The testbed's addressing, without the datapath: the tests attach one.
testbed_up() {
	"$testbed" up "$topo" --prefix "$prefix" --no-datapath
}

# dardctl's backend option: --datapath is the kmod issue's; a dardctl
# without it has only the BPF datapath, which then needs no option.
dp_opt() {
	[[ $1 == bpf ]] && ! "$dardctl" help 2>&1 | grep -q -- --datapath ||
		echo "--datapath $1"
}
# attach BACKEND HOST [ATTACH OPTIONS...]: the datapath on HOST's eth0.
attach() {
	local be=$1 h=$2
	shift 2
	on "$h" "$dardctl" $(dp_opt "$be") dp attach eth0 host "$h" "$@"
}
detach() { on "$1" "$dardctl" dp detach eth0; }
# dpstat HOST NAME: counter NAME of HOST's datapath (either backend).
dpstat() { on "$1" "$dardctl" -j dp stats eth0 | jq ".[0].$2 // empty"; }
flows() { on "$1" "$dardctl" -j flow show dev eth0; }
# The paths from $h1 to $h2 (path list's JSON) and a path's turn switch.
paths() { "$dardctl" -j -t "$conf" path list "$1" "$2"; }
npaths() { paths "$h1" "$h2" | jq length; }
turn_of() { paths "$1" "$2" | jq -r --argjson n "$3" '.[] | select(.index == $n) | .turn'; }
pair_of() {
	paths "$1" "$2" | jq -r --argjson n "$3" \
		'.[] | select(.index == $n) | "\(.saddr) \(.daddr)"'
}
# rx_packets NODE: packets received on all of NODE's interfaces.
rx_packets() {
	ip -n "$prefix-$1" -j -s link show |
		jq '[.[] | .stats64.rx.packets] | add'
}
# The largest live TCP flow to PORT in HOST's datapath (JSON). Live: not
# ended and not idle for a second. The table still holds the earlier
# tests' 2 MiB transfers to the same port, and one of those, picked
# instead, was moved and never became an elephant.
tcp_to() {
	flows "$1" | jq -c --argjson p "$2" \
		'[.[] | select(.proto == "tcp" and .dport == $p and (.ended | not)
			       and .idle_ms < 1000)]
		 | max_by(.bytes) // empty'
}
# elephant_to HOST PORT: whether that flow is an elephant yet.
elephant_to() { tcp_to "$1" "$2" | jq -e '.elephant == true' >/dev/null; }
# bytes_to HOST PORT BYTES: whether that flow has carried BYTES yet.
bytes_to() { tcp_to "$1" "$2" | jq -e --argjson b "$3" '.bytes > $b' >/dev/null; }
# event_for HOST EVENT SPORT FILE: reads HOST's datapath events for half a
# second, appending them to FILE; whether FILE now has EVENT for SPORT.
event_for() {
	on "$1" "$dardctl" -j dp events eth0 wait 500 >>"$4" 2>/dev/null
	jq -s -e --arg e "$2" --argjson p "$3" \
		'[.[][] | select(.event == $e and .sport == $p)] | length > 0' \
		"$4" >/dev/null 2>&1
}
