#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dard-exp sample on real namespaces (root; it skips without, and fails
# under CI without): a two-node "testbed" of its own, not
# scripts/testbed's, named by a state directory of its own, in a
# private mount namespace (unshare -m) with a tmpfs on /run/netns, so
# that no other namespace is seen or touched:
#
#   PREFIX-a, node a (switch)                PREFIX-b, node b (host)
#   +-------------------------------+        +---------------------------+
#   | lo up                         |        | lo                        |
#   | mgmt0 ------------------------+--veth--+- m0                       |
#   | p1 10.9.0.1/24 ---------------+--veth--+- eth0 10.9.0.2/24         |
#   |   root tbf 1mbit, short queue |        |                           |
#   +-------------------------------+        +---------------------------+
#
# UDP from a to b for about a second overflows the tbf. Then: cpu.csv's
# idle shares in [0, 1]; links.csv rows for p1 and eth0, p1's tx_bytes
# rising and drops above 0; no lo or mgmt0 rows; whole lines even after
# SIGKILL; the refusals (a testbed not up, a namespace that cannot be
# opened, a bad interval). Every wait is a bounded poll.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
suite=exp
source "$top/tests/lib.sh"
need_root
if [[ -z ${DARD_EXP_MOUNTNS:-} ]]; then
	DARD_EXP_MOUNTNS=1 exec unshare -m "$0" "$@"
fi
mount --make-rprivate / && mkdir -p /run/netns &&
	mount -t tmpfs -o mode=0755 dard-exp-netns /run/netns || exit 1
prefix=dexp$$
tmp=$(mktemp -d)
cleanup() {
	bg_kill KILL
	ip netns del "$prefix-a" 2>/dev/null
	ip netns del "$prefix-b" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

sample() {
	"$bin/dard-exp" sample --state "$tmp/state" "$@"
}

ip netns add "$prefix-a" && ip netns add "$prefix-b" &&
	ip link add p1 netns "$prefix-a" type veth peer name eth0 \
		netns "$prefix-b" &&
	ip -n "$prefix-a" addr add 10.9.0.1/24 dev p1 &&
	ip -n "$prefix-b" addr add 10.9.0.2/24 dev eth0 &&
	ip -n "$prefix-a" link set p1 up && ip -n "$prefix-b" link set eth0 up &&
	ip -n "$prefix-a" link set lo up &&
	ip link add mgmt0 netns "$prefix-a" type veth peer name m0 \
		netns "$prefix-b" &&
	ip -n "$prefix-a" link set mgmt0 up &&
	tc -n "$prefix-a" qdisc add dev p1 root tbf rate 1mbit burst 1600 \
		limit 3000 || exit 1
mkdir -p "$tmp/state/$prefix" "$tmp/state/gone"
printf 'a switch %s-a\nb host %s-b\n' "$prefix" "$prefix" >"$tmp/state/$prefix/nodes"
printf 'a switch %s-a\nz host %s-gone\n' "$prefix" "$prefix" >"$tmp/state/gone/nodes"

# Refused before anything is sampled.
ok "a testbed that is not up: refused" 1 sample --prefix nosuch --out "$tmp/x" &&
	is "... saying so" "$err" \
		"dard-exp: sample: testbed nosuch is not up: no $tmp/state/nosuch/nodes"
ok "a namespace that cannot be opened: refused" 1 sample --prefix gone \
	--out "$tmp/x" &&
	is "... naming it" "$err" \
		"dard-exp: sample: Unable to open namespace /run/netns/$prefix-gone: No such file or directory"
ok "an interval of 0.01 s: bad usage" 2 sample --prefix "$prefix" \
	--out "$tmp/x" --interval 0.01 &&
	is "... saying why" "$err" \
		"dard-exp: Invalid --interval \`0.01': out of range, expected seconds from 0.1 to 60"
is "nothing written" "$(ls "$tmp/x" 2>&1 | grep -c csv)" 0

# rows NODE DEV: links.csv's rows of that interface.
rows() { grep "^[0-9.]*,$1,$2," "$tmp/s/links.csv" 2>/dev/null; }
# last FIELD NODE DEV: that interface's last value of field 4-7.
last() { rows "$2" "$3" | tail -n 1 | cut -d, -f"$1"; }
has_rows() { [[ -n $(rows a p1) && -n $(rows b eth0) ]]; }
dropped() { [[ $(last 6 a p1) -gt 0 ]]; }
samples() { grep -c "^[0-9.]*,a,p1," "$tmp/s/links.csv" 2>/dev/null; }

# The program itself in the background, not a function's subshell: $!
# is then the sampler's pid.
"$bin/dard-exp" sample --state "$tmp/state" --prefix "$prefix" \
	--out "$tmp/s" --interval 0.2 2>"$tmp/sample.err" &
pid=$!
bg_pids+=("$pid")
if ! within 60 has_rows; then
	failed=$((failed + 1))
	echo "FAIL the sampler wrote no rows: $(cat "$tmp/sample.err")"
	summary
	exit 1
fi
# About a second of 1,400-byte datagrams into a 1 Mbit/s tbf.
ip netns exec "$prefix-a" bash -c '
	exec 3>/dev/udp/10.9.0.2/9
	end=$((SECONDS + 1))
	while ((SECONDS <= end)); do printf "%1400s" x >&3; done' 2>/dev/null
within 60 dropped
# Two more samples after the drops were seen.
n=$(samples)
within 60 eval '[[ $(samples) -ge $((n + 2)) ]]'
kill -TERM "$pid"
# A watchdog bounds the wait: SIGKILL after 30 s fails the test. It is
# ended by its sleep (so the kill never runs), which must not hold our
# output open.
(sleep 30 && kill -KILL "$pid" 2>/dev/null) >/dev/null 2>&1 &
watchdog=$!
wait "$pid"
is "SIGTERM: the sampler exits 0" "$?" 0
pkill -P "$watchdog" 2>/dev/null
wait "$watchdog"
is "nothing on its stderr" "$(cat "$tmp/sample.err")" ""

is "cpu.csv's header" "$(head -n 1 "$tmp/s/cpu.csv")" "t,idle"
bad=0
n=0
while IFS=, read -r t idle extra; do
	[[ $t == t ]] && continue
	n=$((n + 1))
	[[ $t =~ ^[0-9]+\.[0-9]{3}$ && $idle =~ ^(0\.[0-9]{4}|1\.0000)$ &&
		-z $extra ]] || bad=$((bad + 1))
done <"$tmp/s/cpu.csv"
has "cpu.csv has rows" "$n" '^([2-9]|[1-9][0-9]+)$'
is "every idle share in [0, 1]" "$bad" 0

is "links.csv's header" "$(head -n 1 "$tmp/s/links.csv")" \
	"t,node,dev,tx_bytes,tx_packets,drops,backlog"
is "whole lines of 7 fields" \
	"$(grep -cvE '^[0-9]+\.[0-9]{3},[ab],[a-z0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+$' \
		"$tmp/s/links.csv")" 1
has "rows for a's p1" "$(rows a p1 | wc -l)" '^[1-9]'
has "rows for b's eth0" "$(rows b eth0 | wc -l)" '^[1-9]'
is "no lo or mgmt0 rows" "$(grep -cE ',(lo|mgmt0),' "$tmp/s/links.csv")" 0
first=$(rows a p1 | head -n 1 | cut -d, -f4)
has "a's p1 sent more at the end than at the start" \
	"$(($(last 4 a p1) - first))" '^[1-9][0-9]*$'
has "the tbf on p1 dropped" "$(last 6 a p1)" '^[1-9][0-9]*$'
is "nothing dropped on b's eth0 (no tbf)" "$(last 6 b eth0)" 0

# Killed outright between samples, it leaves whole lines.
"$bin/dard-exp" sample --state "$tmp/state" --prefix "$prefix" \
	--out "$tmp/k" --interval 0.1 &
pid=$!
bg_pids+=("$pid")
within 60 eval '[[ $(grep -c ",a,p1," "$tmp/k/links.csv" 2>/dev/null) -ge 3 ]]'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
is "SIGKILL: whole lines still" \
	"$(grep -cvE '^[0-9]+\.[0-9]{3},[ab],[a-z0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+$' \
		"$tmp/k/links.csv")" 1
is "SIGKILL: the file ends a line" "$(tail -c 1 "$tmp/k/links.csv" | od -An -c | tr -d ' ')" '\n'

summary
