# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What the guest's test.sh and bench.sh share (tests/kmod/run boots them):
# the tree's layout under /dard, tests/lib.sh's pass/fail/t/within/
# bounded and tests/netns/lib.sh's on/on_bg and look-ups (flows, tcp_flow,
# dp_stat, pids_of, stop_prog), the testbed they build, and the guest's
# own look-ups on it. Source it with $suite set, from /dard.
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
ko=/lib/modules/$kver/updates/dard.ko
h1=e1_1 h2=e1_2

# on (tests/netns/lib.sh) bounds each command by $DARD_TEST_CMD_TIMEOUT,
# which tests/kmod/run sets on the kernel command line (init exports it).
source "$top/tests/netns/lib.sh"

# The guest's bound (tests/kmod/init) ends the run with SIGTERM, which
# bash takes once the command it waits for ends: say so, count it and
# print the summary on the console, fd 3. A function called with its
# output redirected (on ... >FILE) redirects the shell's own, and so the
# trap's, until it returns.
exec 3>&1
trap '{ fail "the guest'"'"'s time bound ran out"; summary; } >&3; exit 1' TERM

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

# num V: whether V is a whole number: a counter that was read, not the
# null or empty of one that was not.
num() { [[ $1 =~ ^[0-9]+$ ]]; }
# dp_grew HOST COUNTER BEFORE N: whether HOST's datapath COUNTER (either
# backend) is now at least N above BEFORE, an earlier dp_stat of it.
dp_grew() {
	local v
	v=$(dp_stat "$1" "$2")
	num "$v" && num "$3" && ((v - $3 >= $4))
}
# dp_is HOST COUNTER VALUE: whether that counter is still VALUE.
dp_is() {
	local v
	v=$(dp_stat "$1" "$2")
	num "$v" && [[ $v == "$3" ]]
}
# The paths from $h1 to $h2 (path list's JSON) and a path's turn switch.
paths() { "$dardctl" -j -t "$conf" path list "$1" "$2"; }
npaths() { paths "$h1" "$h2" | jq length; }
turn_of() { paths "$1" "$2" | jq -r --argjson n "$3" '.[] | select(.index == $n) | .turn'; }
pair_of() {
	paths "$1" "$2" | jq -r --argjson n "$3" \
		'.[] | select(.index == $n) | "\(.saddr) \(.daddr)"'
}
# rx_packets NODE, rx_bytes NODE: packets, bytes received on all of
# NODE's interfaces.
rx_sum() {
	bounded ip -n "$prefix-$1" -j -s link show |
		jq "[.[] | .stats64.rx.$2] | add"
}
rx_packets() { rx_sum "$1" packets; }
rx_bytes() { rx_sum "$1" bytes; }
# rx_grew NODE BEFORE N: whether NODE received N bytes more than BEFORE,
# an earlier rx_bytes of it.
rx_grew() {
	local v
	v=$(rx_bytes "$1")
	num "$v" && num "$2" && ((v - $2 >= $3))
}
# carried HOST SPORT BYTES: whether HOST's TCP flow from port SPORT (the
# tests pick each transfer's client port) has carried more than BYTES.
carried() { tcp_flow "$1" "$2" | jq -s -e --argjson b "$3" 'any(.[]; .bytes > $b)' >/dev/null; }
# elephant HOST SPORT: whether that flow is an elephant yet.
elephant() { tcp_flow "$1" "$2" | jq -s -e 'any(.[]; .elephant == true)' >/dev/null; }
# event_for HOST EVENT SPORT FILE: reads HOST's datapath events for half a
# second, appending them to FILE; whether FILE now has EVENT for SPORT.
event_for() {
	on "$1" "$dardctl" -j dp events eth0 wait 500 >>"$4" 2>/dev/null
	jq -s -e --arg e "$2" --argjson p "$3" \
		'[.[][] | select(.event == $e and .sport == $p)] | length > 0' \
		"$4" >/dev/null 2>&1
}
