#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The BPF datapath on a namespace fat-tree: ID traffic between pods travels
# IP-in-IP on alias pairs, a flow moves to another path mid-transfer with
# nothing lost, and a long flow becomes an elephant once.
#
#            core1   core2   core3   core4          fattree:4, every host
#             |  \    / \    /  \    /  |           with dard_tc_egress and
#          aggr1_1 aggr1_2 ... aggr4_1 aggr4_2       dard_tc_ingress on eth0
#             |   \  /   |       |  \ /  |
#          tor1_1   tor1_2  ...  tor4_1  tor4_2      e1_1 (172.16.0.1) talks
#           |  |     |  |         |  |    |  |       to e4_1 (172.16.0.13)
#          e1_1 e1_2 e1_3 e1_4 ... e4_1 ...   e4_4
#
# Namespaces are named dard_dp_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-dp-$$
prefix=dard_dp_$$
tmp=$(mktemp -d)

suite=datapath
source "$top/tests/netns/lib.sh"

cleanup() {
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR" "$tmp"
}
trap cleanup EXIT

e1=172.16.0.1 e4=172.16.0.13

t "fattree:4 up with the datapath" \
	"$testbed" up fattree:4 --prefix "$prefix" --elephant-age 1
t "the egress program is on e1_1's eth0" bash -c \
	"'$testbed' exec --prefix '$prefix' e1_1 tc filter show dev eth0 egress | grep -q dard_tc_egress"
t "ping from e1_1's ID to e4_1's ID" on e1_1 ping -c 3 -W 10 -q $e4
icmp=$(flows e1_1 | jq -c '.[] | select(.proto == "icmp" and .dst == "'$e4'")')
t "the ICMP flow has an alias pair through a core" \
	bash -c "jq -e '(.switches | length) == 5 and (.switches[2] | startswith(\"core\"))' <<<'$icmp' >/dev/null"

# The packets on a core's ports are valid IP-in-IP with good checksums.
# tshark's first start on a fresh machine takes many seconds: wait for its
# `Capturing on' line, then ping until it has its four packets.
core=$(jq -r '.switches[2]' <<<"$icmp")
on "$core" timeout 60 tshark -q -n -i p1 -i p2 -i p3 -i p4 -c 4 -f 'ip proto 4' \
	-o ip.check_checksum:TRUE -T fields -e ip.proto -e ip.checksum.status \
	-e ip.src -e ip.dst >"$tmp/tshark" 2>"$tmp/tshark.err" &
tpid=$!
t "tshark is capturing on $core" within 50 grep -qs '^Capturing on' "$tmp/tshark.err"
for ((n = 0; n < 20; n++)); do
	kill -0 $tpid 2>/dev/null || break
	on e1_1 ping -c 2 -i 0.2 -W 10 -q $e4 >/dev/null
done
wait $tpid
t "tshark saw IP-in-IP on $core" bash -c "[[ \$(wc -l <$tmp/tshark) -ge 4 ]]"
t "outer protocol 4, inner ICMP, both checksums good" bash -c \
	"awk '\$1 != \"4,1\" || \$2 != \"1,1\" { bad = 1 } END { exit bad }' $tmp/tshark"
t "outer addresses are aliases, inner are IDs" bash -c \
	"awk '\$3 !~ /^10\\./ || \$4 !~ /^10\\./ || \$3 !~ /,172\\.16\\./ { bad = 1 } END { exit bad }' $tmp/tshark"

# TCP between IDs, and a move to another path half-way through.
on e4_1 iperf3 -s -1 -B $e4 -D
t "iperf3 listens on e4_1" within 30 listening e4_1 5201
# Paced at 2 Gbit/s; however fast the machine, the move comes once the
# flow has carried 100 of its 1000 MB, and must land while it runs.
on_bg e1_1 timeout 600 iperf3 -c $e4 -B $e1 -b 2G -n 1000M -J >"$tmp/iperf.json" &
ipid=$!
tcp_5201() { flows e1_1 | jq -c '[.[] | select(.proto == "tcp" and .dport == 5201)] | max_by(.bytes) // empty'; }
carried() { tcp_5201 | jq -e --argjson b "$1" '.bytes > $b' >/dev/null; }
t "the transfer is under way (100 MB carried)" within 120 carried 100000000
tcp=$(tcp_5201)
sport=$(jq -r .sport <<<"$tcp")
cur=$(jq -r .saddr <<<"$tcp")
oldcore=$(jq -r '.switches[2]' <<<"$tcp")
# path list numbers the paths; take the first that is not the current one.
new=$("$dardctl" -j -t "$DARD_TESTBED_DIR/$prefix/dard.conf" path list e1_1 e4_1 |
	jq -r --arg cur "$cur" '[.[] | select(.saddr != $cur)][0].index')
newcore=$("$dardctl" -j -t "$DARD_TESTBED_DIR/$prefix/dard.conf" path list e1_1 e4_1 |
	jq -r --argjson n "$new" '.[] | select(.index == $n) | .turn')
# The bytes each core received, all its ports: where the flow went.
rx_bytes() { ip -n "$prefix-$1" -j -s link show | jq '[.[] | .stats64.rx.bytes] | add'; }
t "move the TCP flow from $oldcore to path $new (through $newcore)" \
	on e1_1 "$dardctl" flow move dev eth0 tcp $e1:$sport $e4:5201 path "$new"
# Counted from after the move: what the flow carries from b0 on.
new0=$(rx_bytes "$newcore") old0=$(rx_bytes "$oldcore")
b0=$(tcp_5201 | jq -r .bytes)
t "the move landed mid-transfer" kill -0 $ipid
t "iperf3 completed" wait $ipid
t "iperf3 says so" jq -e '.end.sum_received.bytes > 0' "$tmp/iperf.json"
# iperf3's receiver stops counting up to a socket buffer before the end.
t "every byte was sent" jq -e '.end.sum_sent.bytes == 1048576000' "$tmp/iperf.json"
t "and arrived" jq -e '.end.sum_received.bytes >= 0.99 * .end.sum_sent.bytes' "$tmp/iperf.json"
after=$((1048576000 - b0))
dold=$(($(rx_bytes "$oldcore") - old0)) dnew=$(($(rx_bytes "$newcore") - new0))
echo "  after the move: $after bytes of the flow left; $newcore received $dnew, $oldcore $dold"
echo "  iperf3's seconds (Mbit/s): $(jq -r '[.intervals[].sum.bits_per_second / 1e6 | floor] | join(" ")' "$tmp/iperf.json")"
# The receiver's rate: the sender's is the -b 2G it was paced to.
figure move_transfer_mbps "$(jq '.end.sum_received.bits_per_second / 1e6 | . * 10 | round / 10' "$tmp/iperf.json")" Mbit/s "a 1000 MB transfer moved to another core at 100 MB, as its receiver got it"
t "what the flow sent after the move crossed $newcore" test "$dnew" -ge "$after"
t "and not $oldcore (under a tenth of it: the reverse ACKs' path is the receiver's)" \
	test $((dold * 10)) -lt "$after"
moved=$(flows e1_1 | jq -c --argjson p "$sport" '.[] | select(.proto == "tcp" and .sport == $p)')
t "the flow was moved once" bash -c "[[ \$(jq .moves <<<'$moved') == 1 ]]"
t "and now crosses $newcore" bash -c "[[ \$(jq -r '.switches[2]' <<<'$moved') == $newcore ]]"
t "it became an elephant (age 1 s)" bash -c "[[ \$(jq .elephant <<<'$moved') == true ]]"
on e1_1 "$dardctl" -j dp events eth0 >"$tmp/events"
t "reported as an elephant exactly once" bash -c \
	"[[ \$(jq --argjson p $sport '[.[] | select(.event == \"elephant\" and .sport == \$p)] | length' $tmp/events) == 1 ]]"
on e4_1 "$dardctl" -j dp events eth0 >"$tmp/events4"
t "the receiver reported its side's end (FIN or RST)" bash -c \
	"[[ \$(jq --argjson p $sport '[.[] | select(.event == \"end\" and .dport == \$p)] | length' $tmp/events4) == 1 ]]"
sleep 0.5
on e1_1 "$dardctl" -j flow sweep dev eth0 idle 0.3 >"$tmp/swept"
on e1_1 "$dardctl" -j dp events eth0 >"$tmp/events1"
# The sender's end is reported once: by its own FIN or RST, if its socket
# sent one, else by the sweep of idle flows.
t "the sender's end was reported exactly once (FIN, RST or sweep)" bash -c \
	"[[ \$(jq -s --argjson p $sport '[.[][] | select(.sport == \$p and (.event // \"end\") == \"end\")] | length' $tmp/events $tmp/events1 $tmp/swept) == 1 ]]"
t "and forgets them" bash -c \
	"! '$testbed' exec --prefix '$prefix' e1_1 '$dardctl' -j flow show dev eth0 | jq -e --argjson p $sport '.[] | select(.sport == \$p)' >/dev/null"
oversize=$(dp_stat e1_1 drop_oversize) decap=$(dp_stat e4_1 decap)
t "nothing dropped for size" test "$oversize" = 0
t "the receiver decapsulated" test "$decap" -gt 0

t "detach" on e1_1 "$dardctl" dp detach eth0
t "leaves no filter" bash -c \
	"! '$testbed' exec --prefix '$prefix' e1_1 tc filter show dev eth0 egress | grep -q dard"
t "and no pins" bash -c "[[ ! -e /sys/fs/bpf/dard/testbed/$prefix/e1_1/eth0 ]]"
t "down" "$testbed" down --prefix "$prefix"
t "removes every pin" bash -c "[[ ! -e /sys/fs/bpf/dard/testbed/$prefix ]]"

summary
