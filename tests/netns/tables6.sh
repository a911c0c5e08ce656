#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The IPv6 switch tables forward as the IPv4 ones (issue 32). On a
# dual-stack fattree:4 (paper mode), core1, aggr1_1 and tor1_1 each get
# `dardctl switch tables --format ip' in a network namespace of their
# own, their ports p1.. veths whose peers stay there. Then the kernel's
# own lookup (`ip route get DST from SRC iif p1') of every alias of two
# hosts in different pods to every alias of every host, and to every
# ToR's reserved host field 1, must leave by the same port in IPv6 as
# in IPv4, or be refused in both. A switch whose lookups agree but do
# not use all its ports, or are never refused (a root has no route to
# another root's aliases; a ToR none to its own reserved field), fails
# too. Prints the lookups compared.
#
# Then dard-switchd itself, for aggr1_1 in a fresh namespace with the
# dual-stack file: it installs the same tables in both families (the
# same count of routes as `format ip' gives in each), a deleted IPv6
# route and IPv6 rule come back by its rtnetlink events, and the IPv4
# ones are untouched by it.
#
# Namespaces are named dard_t6_PID_SWITCH; all are removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dardctl=${DARD_BIN:-$top/build/bin}/dardctl
suite=tables6
source "$top/tests/lib.sh"
need_root

made=()
tmp=$(mktemp -d)
cleanup() {
	local n
	for n in "${made[@]}"; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

topo=(-t fattree:4 --family dual --mode paper)

# "V4 V6" per alias of every host, and per ToR its reserved host field 1
# (paper mode: the low 6 bits of the IPv4 alias, the last group of the
# IPv6 one).
aliases=$("$dardctl" -j addr show "${topo[@]}" |
	jq -r '.[] | .name as $h | [.aliases, .aliases6] | transpose[] |
		"\($h) \(.[0].addr) \(.[1].addr)"')
is "64 aliases in both families" "$(wc -l <<<"$aliases")" 64
reserved=$(awk '{ split($2, o, "."); o[4] = o[4] - o[4] % 64 + 1
	sub(/:[0-9a-f]+$/, ":1", $3)
	print o[1] "." o[2] "." o[3] "." o[4], $3 }' <<<"$aliases" | sort -u)
dsts=$(awk '{ print $2, $3 }' <<<"$aliases"; echo "$reserved")
srcs=$(awk '$1 == "e1_1" || $1 == "e3_2" { print $2, $3 }' <<<"$aliases")
is "reserved addresses: one per ToR per root" "$(wc -l <<<"$reserved")" 32

# lookups NS FAMILY: for each "DST SRC" line of stdin, the port (pN) the
# kernel's lookup from iif p1 leaves by, or `refused'; one ip -batch, whose
# failed commands it names by line.
lookups() {
	local ns=$1 fam=$2 f=$tmp/batch out err n=0 i
	awk '{ print "route get " $1 " from " $2 " iif p1" }' >"$f"
	ip -n "$ns" "$fam" -force -batch "$f" >"$f.out" 2>"$f.err"
	n=$(wc -l <"$f")
	awk -v n="$n" '
		FILENAME == ARGV[1] { if (match($0, /:[0-9]+$/)) bad[substr($0, RSTART + 1)] = 1; next }
		/^[^ \t]/ { for (i = 1; i <= NF; i++) if ($i == "dev") { dev[++k] = $(i + 1); break } }
		END { for (l = 1; l <= n; l++) print (l in bad) ? "refused" : dev[++j] }
	' "$f.err" "$f.out"
}

compared=0
for sw in core1 aggr1_1 tor1_1; do
	ns=dard_t6_$$_$sw
	ip netns add "$ns" && made+=("$ns")
	cmds=$("$dardctl" "${topo[@]}" switch tables "$sw" format ip)
	for p in $(grep -oE 'dev p[0-9]+' <<<"$cmds" | awk '{ print $2 }' | sort -u); do
		ip -n "$ns" link add "$p" type veth peer name "q${p#p}"
		ip -n "$ns" link set "q${p#p}" up
	done
	ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1 \
		net.ipv6.conf.all.forwarding=1 net.ipv6.conf.all.disable_ipv6=0
	if ! grep -v '^#' <<<"$cmds" | sed "s/^ip /ip -n $ns /" | bash -e; then
		fail "$sw: its tables install"
		continue
	fi
	pass "$sw: its tables install"
	has "$sw: IPv6 routes by link-local next hop" "$cmds" '^ip -6 route add .* via fe80::[12] dev p'
	# Every source to every destination, each family in one batch.
	q4=$(while read -r s4 s6; do awk -v s="$s4" '{ print $1, s }' <<<"$dsts"; done <<<"$srcs")
	q6=$(while read -r s4 s6; do awk -v s="$s6" '{ print $2, s }' <<<"$dsts"; done <<<"$srcs")
	a4=$(lookups "$ns" -4 <<<"$q4")
	a6=$(lookups "$ns" -6 <<<"$q6")
	is "$sw: one answer per lookup" "$(wc -l <<<"$a6") $(wc -l <<<"$a4")" "$(wc -l <<<"$q6") $(wc -l <<<"$q6")"
	compared=$((compared + $(wc -l <<<"$q6")))
	differ=$(paste -d' ' <(echo "$a4") <(echo "$a6") <(echo "$q4") <(echo "$q6") |
		awk '$1 != $2 { if (++d <= 3) print "  " $3 " from " $4 " by " $1 ", " $5 " from " $6 " by " $2 > "/dev/stderr" } END { print d + 0 }')
	is "$sw: IPv6 lookups leave as the IPv4 ones" "$differ" 0
	refused=$(grep -c '^refused$' <<<"$a6")
	ports=$a6
	used=$(grep '^p' <<<"$ports" | sort -u | wc -l)
	is "$sw: the lookups use all four ports" "$used" 4
	# core1: another root's aliases; below it, a ToR's own unused field.
	is "$sw: some lookups refused ($refused)" "$((refused > 0))" 1
done
echo "tables6: $compared lookups compared in each family"
# e1_1's own ToR sends its alias down the host port, in IPv6.
ns=dard_t6_$$_tor1_1
is "tor1_1: e1_1's IPv6 alias down port 1" \
	"$(lookups "$ns" -6 <<<"fd00:da::1:1:1:2 fd00:da::1:3:1:2")" p1
is "tor1_1: e3_1's IPv6 alias via core1 up port 3" \
	"$(lookups "$ns" -6 <<<"fd00:da::1:3:1:2 fd00:da::1:1:1:2")" p3

# dard-switchd installs and keeps the tables in both families.
ns=dard_t6_$$_agent
ip netns add "$ns" && made+=("$ns")
ip -n "$ns" link set lo up
for p in 1 2 3 4; do
	ip -n "$ns" link add "p$p" type veth peer name "q$p"
	ip -n "$ns" link set "q$p" up
done
ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
# The operator's part: link addresses (IPv4 /31s, IPv6 link-locals), up.
"$dardctl" "${topo[@]}" switch tables aggr1_1 format ip |
	grep -E '^ip (-6 )?(addr|link) ' | sed "s/^ip /ip -n $ns /" | bash -e
"$dardctl" "${topo[@]}" topo gen output "$tmp/dard.conf"
"$dardctl" key gen "$tmp/dard.key" >/dev/null
ip netns exec "$ns" "${DARD_BIN:-$top/build/bin}/dard-switchd" -c "$tmp/dard.conf" \
	-k "$tmp/dard.key" -l 127.0.0.1 -p 17471 -e 0 aggr1_1 2>"$tmp/switchd.log" &
agent=$!
count() { ip -n "$ns" "$1" route show table "$2" proto static 2>/dev/null | wc -l; }
installed() { [[ $(count -6 100) -eq 6 && $(count -4 100) -eq 6 ]]; }
t "dard-switchd installs both families' downhill tables" within 10 installed
is "IPv6 uphill defaults" "$(count -6 1003) $(count -6 1004)" "1 1"
is "IPv6 rules: downhill and two uphill" \
	"$(ip -n "$ns" -6 rule show | grep -cE '^(100|200):')" 3
ip -n "$ns" -6 route del fd00:da::1:1:1:0/112 table 100
ip -n "$ns" -6 rule del pref 200 from fd00:da:0:0:2::/80
restored() {
	[[ $(count -6 100) -eq 6 ]] &&
		ip -n "$ns" -6 rule show | grep -q '^200:.*from fd00:da:0:0:2::/80 lookup 1004'
}
t "a deleted IPv6 route and rule come back" within 10 restored
is "IPv4 left as it was" "$(count -4 100) $(count -4 1003) $(count -4 1004)" "6 1 1"
kill -USR1 "$agent"
logged() { grep -q 'routes and rules in each family' "$tmp/switchd.log"; }
t "its counters say both families" within 5 logged
is "restored: the 22 at start, then the 2 deleted" \
	"$(grep -o '[0-9]* restored' "$tmp/switchd.log" | tail -1)" "24 restored"
kill "$agent"
wait "$agent"
is "dard-switchd stops cleanly" "$?" 0
grep -E 'restored|Unable' "$tmp/switchd.log" | head -4
summary
