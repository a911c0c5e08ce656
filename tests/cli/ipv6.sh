#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dardctl with an IPv6 or dual-stack fabric (issue 32; dard.conf(5)
# family, base6, ids6): the IPv6 aliases, IDs and prefixes addr and
# topo show, the file topo gen writes and reads back, the IPv6 switch
# tables, deploy's refusal, and bad options. Needs no privileges.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dardctl=${DARD_BIN:-$top/build/bin}/dardctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suite=ipv6
source "$top/tests/lib.sh"

d() { "$dardctl" "$@"; }

# The same fields as IPv4, 16 bits each.
ok "addr show --family ipv6 -j" 0 d -j -t fattree:4 --family ipv6 addr show e1_1 &&
	is "e1_1's IPv6 alias through core1" "$(jq -r '.[0].aliases6[0].addr' <<<"$out")" fd00:da::1:1:1:2 &&
	is "its IPv6 ID" "$(jq -r '.[0].id6' <<<"$out")" fd00:da:1::1 &&
	is "no IPv4 alias in an IPv6 fabric" "$(jq '.[0] | has("aliases")' <<<"$out")" false &&
	is "but its IPv4 ID, which 4in6 carries" "$(jq -r '.[0].id' <<<"$out")" 172.16.0.1
ok "addr show dual of a switch" 0 d -t fattree:4 --family dual --base6 2001:db8::/32 addr show aggr1_1 &&
	has "aggr1_1's prefixes in both families" "$out" 'prefix 10.4.16.0/20 prefix6 2001:db8::1:1:0:0/96 from port 3 \(core1\)'
ok "topo show --family dual" 0 d -t fattree:4 --family dual topo show &&
	has "the IPv6 layout" "$out" '^family dual, base6 fd00:da::/48, field bits 16\+16\+16\+16, prefixes /80 /96 /112, ids6 fd00:da:1::/64, ID traffic IP-in-IP$'
ok "topo gen --family ipv6" 0 d -t fattree:4 --family ipv6 topo gen output "$tmp/v6.conf" &&
	ok "the IPv6 file reads back" 0 d -t "$tmp/v6.conf" addr show e1_1 &&
	has "its alias" "$out" 'alias fd00:da::1:1:1:2 via core1 aggr1_1 tor1_1'
ok "deploy netns writes IPv6 batches" 0 d -t fattree:4 --family dual deploy netns "$tmp/v6bed" &&
	is "one batch6 per node" "$(ls "$tmp/v6bed/node/"*.batch6 | wc -l)" 36 &&
	has "a host's IPv6 alias" "$(cat "$tmp/v6bed/node/e1_1.batch6")" '^addr add fd00:da::1:1:1:2/128 dev eth0 nodad$' &&
	has "its default route to the ToR" "$(cat "$tmp/v6bed/node/e1_1.batch6")" '^route add default via fe80::1 dev eth0$' &&
	has "IPv6 on" "$(cat "$tmp/v6bed/node/e1_1.sysctl")" '^net.ipv6.conf.all.disable_ipv6 = 0$'
ok "an IPv4 testbed keeps IPv6 off" 0 d -t fattree:4 deploy netns "$tmp/v4bed" &&
	is "no batch6" "$(ls "$tmp/v4bed/node/" | grep -c batch6)" 0 &&
	has "IPv6 off" "$(cat "$tmp/v4bed/node/e1_1.sysctl")" '^net.ipv6.conf.all.disable_ipv6 = 1$'
ok "deploy netns routing ecmp refuses IPv6" 1 d -t fattree:4 --family dual deploy netns "$tmp/v6e" routing ecmp &&
	has "deploy's IPv6 message" "$err" "only .deploy netns' with routing dard deploys IPv6 yet" &&
	is "nothing written" "$(ls "$tmp/v6e" 2>/dev/null | wc -l)" 0
ok "deploy deterlab refuses IPv6" 1 d -t fattree:4 --family ipv6 deploy deterlab "$tmp/v6d"
ok "switch tables of IPv6" 0 d -t fattree:4 --family ipv6 switch tables aggr1_1 format ip &&
	has "an IPv6 uphill rule" "$out" '^ip -6 rule add pref 200 from fd00:da:0:0:1::/80 lookup 1003$' &&
	is "no IPv4 command in an IPv6 fabric" "$(grep -cE '^ip (route|rule|addr) ' <<<"$out")" 0
ok "path decode of an IPv6 pair" 0 d -j -t fattree:4 --family dual path decode fd00:da::1:1:1:2 fd00:da::1:3:1:2 &&
	is "its switches" "$(jq -c '.[0].switches' <<<"$out")" '["tor1_1","aggr1_1","core1","aggr3_1","tor3_1"]' &&
	is "its IPv4 form" "$(jq -r '.[0] | "\(.saddr) \(.daddr)"' <<<"$out")" "10.4.16.66 10.4.48.66"
ok "path list by IPv6 ID, IPv6-only" 0 d -t fattree:4 --family ipv6 path list fd00:da:1::1 e3_1 &&
	has "the path through core2 in IPv6" "$out" '^2   fd00:da::2:1:1:2 -> fd00:da::2:3:1:2 '
ok "path decode of an IPv6 pair in an IPv4 fabric" 2 d -t fattree:4 path decode fd00:da::1:1:1:2 fd00:da::1:3:1:2 &&
	has "IPv4-only message" "$err" "the fabric is IPv4 only"
ok "path decode of a mixed pair" 2 d -t fattree:4 --family dual path decode fd00:da::1:1:1:2 10.4.48.66 &&
	has "mixed message" "$err" "mixes IPv4 and IPv6"
ok "path decode with a gap bit" 1 d -t fattree:4 --family dual path decode fd00:da:0:8:1:1:1:2 fd00:da::1:3:1:2 &&
	has "gap message" "$err" "bits set between the base and the root field"
ok "path list by an unknown IPv6 ID" 1 d -t fattree:4 --family dual path list fd00:da:1::99 e3_1 &&
	has "unknown ID message" "$err" "No host has IPv6 ID"
ok "topo show --outer ipv6" 0 d -t fattree:4 --family dual --outer ipv6 topo show &&
	has "4in6 in dual stack" "$out" ', ID traffic 4in6$'
ok "an IPv6-only fabric's ID traffic is 4in6" 0 d -j -t fattree:4 --family ipv6 topo show &&
	is "outer in JSON" "$(jq -r '.[0].addressing6.outer' <<<"$out")" 4in6
ok "outer ipv6 in an IPv4 fabric" 1 d -t fattree:4 --outer ipv6 topo show &&
	has "its message" "$err" "outer ipv6 needs a fabric with IPv6"
ok "outer ipv4 in an IPv6-only fabric" 1 d -t fattree:4 --family ipv6 --outer ipv4 topo show &&
	has "its message" "$err" "outer ipv4 needs IPv4 aliases"
ok "a bad outer" 2 d -t fattree:4 --outer ip6 topo show && has "outer message" "$err" "Invalid outer .ip6."
ok "dual with outer ipv6: the 4in6 ID route" 0 d -t fattree:4 --family dual --outer ipv6 deploy netns "$tmp/v6o" &&
	has "by the ToR's fe80::1, room for 40 bytes" "$(cat "$tmp/v6o/node/e1_1.batch")" \
		'^route add 172.16.0.0/16 via inet6 fe80::1 dev eth0 src 172.16.0.1 mtu 1460 advmss 1420$' &&
	has "its file says so" "$(cat "$tmp/v6o/dard.conf" 2>/dev/null || d -t fattree:4 --family dual --outer ipv6 topo gen)" '^outer ipv6$'
ok "bad family" 2 d -t fattree:4 --family inet6 addr show && has "family message" "$err" "Invalid family .inet6."
ok "base6 with host bits" 2 d -t fattree:4 --family ipv6 --base6 fd00::1/64 addr show &&
	has "base6 message" "$err" "Invalid IPv6 base"
ok "base6 too long" 1 d -t fattree:4 --family ipv6 --base6 fd00::/112 addr show &&
	has "base6 length message" "$err" "use a base of /96 or shorter"

summary
