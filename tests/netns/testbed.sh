#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Integration test of the namespace testbed: every path between every
# ordered pair of ToRs carries a packet on its alias pair through exactly
# its switches (dard-pathcheck), on fattree:4 and on clos:4,4:
#
#            core1   core2   core3   core4          fattree:4
#             |  \    / \    /  \    /  |           (clos:4,4 has int1,
#          aggr1_1 aggr1_2 ... aggr4_1 aggr4_2       int2 above aggr1_1..
#             |   \  /   |       |  \ /  |           aggr2_2, each pod's
#          tor1_1   tor1_2  ...  tor4_1  tor4_2      two ToRs under both
#           |  |     |  |         |  |    |  |       of its aggr switches)
#          e1_1 e1_2 e1_3 e1_4 ... e4_1 ...   e4_4
#
# fattree:2 (core1 over aggr1_1 and aggr2_1, one ToR and host each) checks
# the --rate limits.
#
# and the testbed's own behaviour: list, exec, refusing a second bring-up
# under one prefix, cleaning up after a failed one, and --dard's
# scheduling mode reaching every dardd and every host's datapath on
# fattree:2 (fast: -M fast and elephants at 1 s; paper: -M paper and 10 s;
# --fast: 1 s whatever the mode). Namespaces are named dard_test_PID_*;
# everything is removed on exit, even on failure.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
pathcheck=$top/build/bin/dard-pathcheck
export DARDCTL=$top/build/bin/dardctl
export DARD_TESTBED_DIR=/run/dard/test-$$
prefix=dard_test_$$
a=${prefix}_a b=${prefix}_b c=${prefix}_c d=${prefix}_d e=${prefix}_e
suite=netns
source "$top/tests/netns/lib.sh"
tmp=$(mktemp -d)

cleanup() {
	local p
	for p in "$a" "$b" "$c" "$d" "$e"; do
		"$testbed" down --prefix "$p" >/dev/null 2>&1
	done
	ip netns del "$d-e1_1" 2>/dev/null
	rm -rf "$DARD_TESTBED_DIR" "$tmp"
}
trap cleanup EXIT

# The summary of a dard-pathcheck run counts as its own passes and fails.
pathcheck() {
	local out
	echo "+ dard-pathcheck $1"
	out=$("$pathcheck" "$DARD_TESTBED_DIR/$1/dard.conf" "$1")
	echo "$out" | grep -v '^[0-9]* passed' | tail -20
	read -r p _ f _ < <(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
}

t "fattree:4 up" "$testbed" up fattree:4 --prefix "$a"
pathcheck "$a"

t "list shows the testbed" bash -c \
	"'$testbed' list | grep -q '^$a	fattree:4	37 namespaces'"
t "exec runs on a node" bash -c \
	"[[ \$('$testbed' exec --prefix '$a' e1_1 cat /proc/sys/net/ipv4/ip_forward) == 0 ]]"
t "e1_1 holds its four aliases" bash -c \
	"[[ \$('$testbed' exec --prefix '$a' e1_1 ip -o -4 addr show dev eth0 | grep -c ' 10\.') == 4 ]]"
t "aggr1_1 has Table 2's rules" bash -c \
	"'$testbed' exec --prefix '$a' aggr1_1 ip rule | grep -q 'from 10.4.0.0/14 lookup 1003'"
# A refused connection proves the management LAN carried the SYN there.
t "mgmt LAN reaches core1 from e1_1" bash -c \
	"LC_ALL=C '$testbed' exec --prefix '$a' e1_1 timeout 30 bash -c 'exec 3<>/dev/tcp/172.24.0.1/9' 2>&1 | grep -q 'Connection refused'"
t "a second bring-up under one prefix is refused" bash -c \
	"! '$testbed' up fattree:4 --prefix '$a' 2>/dev/null"
t "the refused bring-up left the first intact" bash -c \
	"[[ \$(ip netns list | grep -c '^$a[-.]') == 37 ]]"
"$testbed" exec --prefix "$a" e2_1 sleep 1000 >/dev/null 2>&1 &
t "hosts run Linux's default congestion control, not the machine's" bash -c \
	"[[ \$('$testbed' exec --prefix '$a' e1_1 sysctl -n net.ipv4.tcp_congestion_control) == cubic ]]"
t "a process left on a node" within 30 bash -c "[[ -n \$(ip netns pids '$a-e2_1') ]]"
t "down from inside the testbed is refused" bash -c \
	"! '$testbed' exec --prefix '$a' e1_1 '$testbed' down --prefix '$a' 2>$tmp/err && grep -q 'from outside' $tmp/err"
t "a prefix with - is refused" bash -c \
	"! '$testbed' up fattree:2 --prefix '$a-x' 2>/dev/null && ! ip netns list | grep -q '^$a-x'"
t "fattree:4 down" "$testbed" down --prefix "$a"
t "nothing of it remains" bash -c \
	"! ip netns list | grep -q '^$a' && [[ ! -e $DARD_TESTBED_DIR/$a ]]"
t "and the process was stopped" bash -c "! pgrep -f '^sleep 1000$' >/dev/null"
t "down of a testbed that is not up fails" bash -c \
	"! '$testbed' down --prefix '$a' 2>/dev/null"
# A killed run's pins, its namespaces gone: down removes them.
mkdir -p "/sys/fs/bpf/dard/testbed/$a/e1_1/eth0"
t "down of a killed run removes its leftover pins" bash -c \
	"'$testbed' down --prefix '$a' | grep -q 'leftover pins' && [[ ! -e /sys/fs/bpf/dard/testbed/$a ]]"

# A signal to the bring-up alone (not to what it runs) still removes
# everything, once the command it was running has finished.
# Mid-way: once it has made a namespace (however long its start took).
setsid "$testbed" up fattree:8 --prefix "$e" >/dev/null 2>&1 &
pid=$!
made_some() { ip netns list | grep -q "^$e-"; }
t "a bring-up of fattree:8 under way" within 60 made_some
kill -TERM "$pid"
t "ends on SIGTERM" within 120 bash -c "! kill -0 $pid 2>/dev/null"
wait "$pid"
t "a bring-up killed with SIGTERM leaves nothing" bash -c \
	"! ip netns list | grep -q '^$e' && [[ ! -e $DARD_TESTBED_DIR/$e ]]"

# Someone else's namespace in the way: refused, and left alone.
ip netns add "$d-e1_1"
t "a namespace in the way is refused" bash -c \
	"! '$testbed' up fattree:4 --prefix '$d' 2>$tmp/err && grep -q 'in the way' $tmp/err"
t "and left alone" bash -c "ip netns list | grep -q '^$d-e1_1'"
t "with nothing else made" bash -c \
	"[[ \$(ip netns list | grep -c '^$d') == 1 && ! -e $DARD_TESTBED_DIR/$d ]]"
ip netns del "$d-e1_1"

t "a bad topology fails" bash -c "! '$testbed' up fattree:3 --prefix '$b' 2>/dev/null"
t "and leaves nothing" bash -c "! ip netns list | grep -q '^$b'"
printf 'levels core tor\nswitch c1 core\nswitch t1 tor\nhost h1\nlink c1:1 t1:2\nlink t1:1 h1\nlink t1:3 h9\n' \
	>"$tmp/bad.topo"
t "a bad topology file fails with its line" bash -c \
	"! '$testbed' up $tmp/bad.topo --prefix '$b' 2>$tmp/err &&
	 grep -q ':7: link: unknown node' $tmp/err"
t "and leaves nothing either" bash -c \
	"! ip netns list | grep -q '^$b' && [[ ! -e $DARD_TESTBED_DIR/$b ]]"

# Nodes named like the testbed's own files stay in their namespaces.
printf 'levels core tor\nswitch setup core\nswitch mgmt tor\nswitch nodes tor\nhost teardown\nhost h2\nlink setup:1 mgmt:3\nlink setup:2 nodes:3\nlink mgmt:1 teardown\nlink nodes:1 h2\n' \
	>"$tmp/names.topo"
t "nodes named setup, mgmt, nodes, teardown" \
	"$testbed" up "$tmp/names.topo" --prefix "$b"
pathcheck "$b"
t "and the root namespace is untouched" bash -c \
	"! ip -o addr | grep -q '172\.20\.' && ! ip link show dev p1 2>/dev/null"
t "names down" "$testbed" down --prefix "$b"

t "clos:4,4 up" "$testbed" up clos:4,4 --prefix "$c"
pathcheck "$c"
t "clos:4,4 down" "$testbed" down --prefix "$c"

# Rate limits: a tbf on both ends of every link, and the capacity to match.
t "fattree:2 up at 100 Mbit/s" "$testbed" up fattree:2 --prefix "$b" --rate 100
t "rate limits are set on switches" bash -c \
	"'$testbed' exec --prefix '$b' aggr1_1 tc qdisc show dev p1 | grep -q 'tbf .*rate 100Mbit'"
t "and on hosts" bash -c \
	"'$testbed' exec --prefix '$b' e2_1 tc qdisc show dev eth0 | grep -q 'tbf .*rate 100Mbit'"
t "the configuration says 100 Mbit/s" \
	grep -qx 'capacity 100' "$DARD_TESTBED_DIR/$b/dard.conf"
pathcheck "$b"
t "fattree:2 down" "$testbed" down --prefix "$b"

# Every dardd of testbed $1 runs with `-M $2' (and there are some).
dardd_modes() {
	local ns p n=0
	for ns in $(awk '$2 == "host" { print $3 }' "$DARD_TESTBED_DIR/$1/nodes"); do
		for p in $(ip netns pids "$ns"); do
			[[ $(cat "/proc/$p/comm" 2>/dev/null) == dardd ]] || continue
			tr '\0' ' ' <"/proc/$p/cmdline" | grep -q -- " -M $2 " || return 1
			n=$((n + 1))
		done
	done
	[[ $n -gt 0 ]]
}
# The elephant age, in seconds, of the BPF datapath on host $2's eth0 in
# testbed $1: its programs' read-only data, as bpftool dumps it.
elephant_age() {
	local id map
	id=$("$testbed" exec --prefix "$1" "$2" bpftool -j net show dev eth0 |
		jq '.[0].tc[0].id') || return 1
	for map in $(bpftool -j prog show id "$id" | jq '.map_ids[]'); do
		bpftool -j map show id "$map" | jq -e '.name | endswith(".rodata")' \
			>/dev/null || continue
		bpftool -j map dump id "$map" |
			jq '[.. | objects | select(has("elephant_age_ns")) |
			     .elephant_age_ns][0] / 1e9'
		return
	done
	return 1
}
# ages PREFIX: every host's elephant age, one line each, the same on all.
ages() {
	local h
	for h in $(hosts_of "$1"); do
		elephant_age "$1" "$h"
	done | sort -u
}
# ages_are PREFIX SECONDS: whether every host's elephant age is SECONDS.
ages_are() {
	local got
	got=$(ages "$1")
	echo "elephant ages in $1: ${got//$'\n'/ }"
	[[ $got == "$2" ]]
}

t "fattree:2 up with --dard --sched-mode paper" \
	"$testbed" up fattree:2 --prefix "$b" --dard --sched-mode paper
t "every dardd runs -M paper" dardd_modes "$b" paper
t "and says so in its log" bash -c \
	"grep -q 'paper mode' '$DARD_TESTBED_DIR/$b/log/e1_1.log'"
t "every datapath's elephants are at 10 s" ages_are "$b" 10
t "fattree:2 down" "$testbed" down --prefix "$b"
t "fattree:2 up with --dard" "$testbed" up fattree:2 --prefix "$b" --dard
t "every dardd runs -M fast" dardd_modes "$b" fast
t "every datapath's elephants are at 1 s" ages_are "$b" 1
t "fattree:2 down" "$testbed" down --prefix "$b"
t "fattree:2 up with --dard --sched-mode paper --fast" \
	"$testbed" up fattree:2 --prefix "$b" --dard --sched-mode paper --fast
t "every dardd runs -M paper" dardd_modes "$b" paper
t "--fast's elephants at 1 s" ages_are "$b" 1
t "fattree:2 down" "$testbed" down --prefix "$b"
t "fattree:2 up without daemons" "$testbed" up fattree:2 --prefix "$b"
t "the datapath's default elephants, at 10 s" ages_are "$b" 10
t "fattree:2 down" "$testbed" down --prefix "$b"

summary
