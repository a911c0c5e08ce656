#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Split mode (issue 31): testbed up --split 3 on a namespace fattree:4 at
# 50 Mbit/s with dard everywhere (--dard --fast). Asserts what the hosts
# and the datapath decide:
# - every host announces its ID at two more ports (MPTCP endpoints);
# - an MPTCP transfer from e1_1 to e3_1 runs as two or three TCP flows
#   in e1_1's datapath (its own port, and subflows to e3_1's 20001 and
#   20002 or from its own: Linux's in-kernel path manager lets both
#   ends add subflows, each end announcing, and a join over the
#   connection's limit of 3 is refused, so which end wins decides
#   whether two or three are left), each wrapped on the path its own hash picks
#   and each an elephant to dardd, and every byte sent is received;
# - the same for a second transfer from e1_2 to e3_2, at once;
# - a plain TCP transfer still makes one flow: the default is single-path.
#
# Namespaces are named dard_split_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-split-$$
prefix=dard_split_$$
dir=$DARD_TESTBED_DIR/$prefix
tmp=$(mktemp -d)
xfer=$top/tests/netns/xfer.py

suite=split
source "$top/tests/netns/lib.sh"

cleanup() {
	bg_kill
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR" "$tmp"
}
trap cleanup EXIT

# The TCP flows of NODE's datapath to host DST's ID, as JSON lines.
flows_to() {
	flows "$1" | jq -c --arg d "$(id_of "$2")" '.[] | select(.proto == "tcp" and .dst == $d)'
}
# How many of them are elephants.
elephants_to() { flows_to "$1" "$2" | jq -s '[.[] | select(.elephant)] | length'; }
elephants_in() { local n; n=$(elephants_to "$1" "$2"); ((n >= $3 && n <= $4)); }
# xfer_run SRC DST CPORT [--mptcp]: a transfer until $tmp/CPORT.stop.
xfer_run() {
	on_bg "$2" python3 "$xfer" ${4:-} recv "$(id_of "$2")" $(($3 + 1000)) "$tmp/$3.recv" 120 &
	bg_pids+=($!)
	within 10 listening "$2" $(($3 + 1000)) || return 1
	on_bg "$1" python3 "$xfer" ${4:-} send "$(id_of "$1")" "$3" "$(id_of "$2")" \
		$(($3 + 1000)) --until "$tmp/$3.stop" 120 >"$tmp/$3.send" &
	bg_pids+=($!)
}
xfer_done() {
	touch "$tmp/$1.stop"
	within 60 test -s "$tmp/$1.send" &&
		jq -e '.error == "" and .sent > 0 and .received == .sent' "$tmp/$1.send" >/dev/null
}
t "fattree:4 at 50 Mbit/s, dard everywhere, --split 3" \
	"$testbed" up fattree:4 --prefix "$prefix" --rate 50 --dard --fast --split 3 || {
	summary
	exit
}
for h in e1_1 e3_1; do
	is "$h announces its ID at two more ports" \
		"$(ip -n "$prefix-$h" mptcp endpoint show | grep -c "^$(id_of "$h") port 2000[12] .*signal")" 2
done
for h in $(hosts_of "$prefix"); do
	on "$h" sysctl -qw net.ipv4.ip_local_reserved_ports=40000-41999
done

t "an MPTCP transfer from e1_1 to e3_1" xfer_run e1_1 e3_1 40001 --mptcp
t "it runs as two or three elephants in e1_1's datapath" within 30 elephants_in e1_1 e3_1 2 3
t "a second MPTCP transfer from e1_2 to e3_2" xfer_run e1_2 e3_2 40002 --mptcp
t "it runs as two or three elephants too" within 30 elephants_in e1_2 e3_2 2 3
echo "  subflows: e1_1 $(flows_to e1_1 e3_1 | jq -sc 'map(.switches[2])'), e1_2 $(flows_to e1_2 e3_2 | jq -sc 'map(.switches[2])')"
t "the first transfer: every byte sent received" xfer_done 40001
t "the second: every byte sent received" xfer_done 40002

t "a plain TCP transfer from e1_3 to e3_3" xfer_run e1_3 e3_3 40003
t "it runs as one elephant" within 30 elephants_in e1_3 e3_3 1 1
is "and one flow" "$(flows_to e1_3 e3_3 | jq -s length)" 1
t "every byte sent received" xfer_done 40003

summary
