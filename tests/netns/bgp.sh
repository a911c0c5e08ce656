#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The fabric operators run (issue 31): testbed up --routing bgp, FRR's
# eBGP and BFD in every switch of a namespace fattree:4 at 100 Mbit/s,
# hosts unwrapped. Asserts what BGP decided, never how fast:
# - up returns converged: every switch holds the next hops its
#   NODE.expect counts; aggr1_1's and core1's four BFD sessions are up; a ToR reaches another
#   pod's host over both uplinks, an aggregation switch over both cores;
#   no route crosses a ToR between two of its uplinks (no transit);
# - connections from one host to every pod all complete;
# - a silent failure of a core-aggregation link (every packet dropped
#   both ways, the carrier up: what only BFD sees): BFD takes its
#   session down, BGP withdraws the link's routes (the aggregation
#   switch keeps one core, the core loses the pod), connections across
#   it started 1 s after the fault all complete, and once the link
#   carries again everything comes back;
# - the same link's carrier down (the kernel sees it at once): the same
#   withdrawal and back.
# Prints as figures the seconds from each fault to the withdrawal, and
# the connections that needed more than 0.5 s.
#
# Namespaces are named dard_bgp_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-bgp-$$
prefix=dard_bgp_$$
dir=$DARD_TESTBED_DIR/$prefix
tmp=$(mktemp -d)

suite=bgp
source "$top/tests/netns/lib.sh"

cleanup() {
	bg_kill
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR" "$tmp"
}
trap cleanup EXIT

if ! command -v vtysh nft >/dev/null || [[ ! -x /usr/lib/frr/bgpd ]]; then
	echo "bgp.sh: FRR or nftables is not installed (scripts/install-deps installs it)"
	fail "FRR installed"
	summary
	exit
fi

# vty NODE CMD: FRR's answer in switch NODE, as JSON when CMD asks.
vty() { bounded vtysh --vty_socket "$dir/frr/$1" -c "$2" 2>/dev/null; }
# The next hops of NODE's route to host HOST's ID (0: none).
nh_to() {
	ip -n "$prefix-$1" -o route show "$(id_of "$2")" | grep -o " via " | wc -l
}
nh_is() { [[ $(nh_to "$1" "$2") -eq $3 ]]; }
# How many of NODE's BFD sessions are up.
bfd_up() { vty "$1" "show bfd peers json" | jq '[.[] | select(.status == "up")] | length'; }
bfd_up_is() { [[ $(bfd_up "$1") -eq $2 ]]; }
# withdrawn_at NODE HOST N FILE: writes to FILE the seconds from $t0 to
# NODE's route to HOST having N next hops (within 10 s).
withdrawn_at() { within 10 nh_is "$1" "$2" "$3" && since "$t0" >"$4"; }
# Whether any of NODE's BGP paths has a ToR's AS between two others.
transit_free() {
	local tors
	tors=$(for n in $(awk '$1 ~ /^tor/ { print $1 }' "$dir/nodes"); do
		awk '/^router bgp/ { print $3 }' "$dir/node/$n.bgpd.conf"
	done | paste -sd'|')
	local table
	table=$(vty "$1" "show bgp ipv4 unicast json") &&
		jq -e '.routes | length > 0' <<<"$table" >/dev/null || return 1
	! jq -r '.routes[][] | .path' <<<"$table" | grep -qE "(^| )($tors) [0-9]"
}

t "fattree:4 at 100 Mbit/s, routing bgp: up returns converged" \
	"$testbed" up fattree:4 --prefix "$prefix" --rate 100 --routing bgp || {
	summary
	exit
}
for sw in $(switches_of); do
	t "$sw holds the $(<"$dir/node/$sw.expect") next hops BGP gives it" bgp_converged "$sw"
done
t "aggr1_1's four BFD sessions are up" within 10 bfd_up_is aggr1_1 4
t "core1's four BFD sessions are up" within 10 bfd_up_is core1 4
t "tor1_1 reaches e3_1 over both uplinks" nh_is tor1_1 e3_1 2
t "aggr1_1 reaches e3_1 over both cores" nh_is aggr1_1 e3_1 2
t "core1 reaches e1_1 through pod 1's aggregation switch alone" nh_is core1 e1_1 1
t "no path of aggr1_1's crosses a ToR between two uplinks" transit_free aggr1_1
t "no path of core1's crosses a ToR between two uplinks" transit_free core1

# The servers end after 60 s without a connection: one set per case.
servers=(e1_1 e1_2 e1_3 e2_1 e3_1 e4_1)
servers_start "${servers[@]}"
mice_run 80 20 e1_1 e1_3 e1_1 e2_1 e1_1 e3_1 e1_1 e4_1
is "80 connections from e1_1 to every pod complete" "$done_n" 80
servers_stop "${servers[@]}"

# --- A silent failure: only BFD sees it ---
p=$(port_to aggr1_1 core1)
q=$(port_to core1 aggr1_1)
servers_start e1_1 e1_2
t0=$EPOCHREALTIME
t "aggr1_1-core1 drops everything both ways" eval 'link_fault aggr1_1 "$p" drop && link_fault core1 "$q" drop'
# When the withdrawal came, timed apart; the connections start 1 s after
# the fault whatever BGP has done by then.
withdrawn_at aggr1_1 e3_1 1 "$tmp/silent.withdrawn" &
within 5 after "$t0" 1
echo "  100 connections start $(since "$t0") s after the silent failure"
mice_start silent 100 20 e3_1 e1_1 e3_3 e1_2 e4_1 e1_1 e4_3 e1_2
t "BFD takes aggr1_1's session with core1 down" within 10 bfd_up_is aggr1_1 3
t "aggr1_1 reaches e3_1 over core2 alone" within 10 nh_is aggr1_1 e3_1 1
wait $!
figure silent.withdrawn "$(cat "$tmp/silent.withdrawn" 2>/dev/null || echo nan)" s "from the silent failure to aggr1_1's withdrawal (BFD 300 ms x 3)"
t "core1 has no route to e1_1" within 10 nh_is core1 e1_1 0
mice_wait silent
servers_stop e1_1 e1_2
is "100 connections across pod 1 started 1 s after the silent failure complete" "$done_n" 100
figure silent.slow "$slow" connections "of 100, started 1 s after the silent failure, that took over 0.5 s"
t "the link forwards again" eval 'link_fault aggr1_1 "$p" clear && link_fault core1 "$q" clear'
t "BFD brings the session up again" within 30 bfd_up_is aggr1_1 4
t "aggr1_1 holds every next hop again" within 30 bgp_converged aggr1_1
t "core1 holds every next hop again" within 30 bgp_converged core1

# --- A carrier down: the kernel sees it at once ---
servers_start e1_1 e1_2
t0=$EPOCHREALTIME
t "aggr1_1's port to core1 down" ip -n "$prefix-aggr1_1" link set dev "$p" down
withdrawn_at core1 e1_1 0 "$tmp/down.withdrawn" &
within 5 after "$t0" 1
echo "  100 connections start $(since "$t0") s after the carrier down"
mice_start down 100 20 e3_1 e1_1 e3_3 e1_2 e4_1 e1_1 e4_3 e1_2
t "aggr1_1 reaches e3_1 over core2 alone" within 10 nh_is aggr1_1 e3_1 1
t "core1 has no route to e1_1" within 10 nh_is core1 e1_1 0
wait $!
figure down.withdrawn "$(cat "$tmp/down.withdrawn" 2>/dev/null || echo nan)" s "from the carrier down to core1's withdrawal"
mice_wait down
servers_stop e1_1 e1_2
is "100 connections across pod 1 started 1 s after the carrier down complete" "$done_n" 100
t "the port up again" ip -n "$prefix-aggr1_1" link set dev "$p" up
t "aggr1_1 holds every next hop again" within 30 bgp_converged aggr1_1
t "core1 holds every next hop again" within 30 bgp_converged core1
t "BFD brings the session up again" within 30 bfd_up_is aggr1_1 4

summary
