#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The authenticated switch protocol (Documentation/protocol.md, issue 13)
# on a namespace fat-tree with dard-switchd and dardd everywhere (--dard
# --fast). One elephant, e1_1 -> e2_1, gives e1_1's dardd a monitor that
# queries tor1_1 among others. From tor1_1's management address and agent
# port (a raw socket: the agent keeps its port), forged replies reach
# e1_1's dardd: seq 0 and a wrong seq (signed, as a key holder could),
# a bad MAC and none (as anyone could), and a real reply replayed as it
# leaves. None changes `dardctl monitor show'; each is counted by reason
# in `dardctl stats'. Queries to tor1_1's agent in versions 1 to 3, in another
# key and under an unknown key id get no answer and are counted by
# reason in its log; an authentic query for ports it does not have gets
# no records for them. The reply-to-query byte ratios are printed. The
# loads tor1_1's agent reports (`dardctl switch query'): the up port the
# 20 Mbit/s flow leaves by the most loaded, the port to the idle e1_2
# near 0, the figures printed; and e1_1's monitor shows its most loaded
# link on the elephant's path.
#
#   e1_1 --(mgmt)--> tor1_1:7471    queries, signed
#   e1_1 <--(mgmt)-- tor1_1:7471    replies, and the forgeries (raw)
#
# Namespaces are named dard_auth_PID-*; everything is removed on exit.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$top/scripts/testbed
dardctl=$top/build/bin/dardctl
py=$top/tests/netns/dard_auth.py
export DARDCTL=$dardctl
export DARD_TESTBED_DIR=/run/dard/test-auth-$$
prefix=dard_auth_$$
dir=$DARD_TESTBED_DIR/$prefix
key=$dir/dard.key

suite=auth
source "$top/tests/netns/lib.sh"

cleanup() {
	if ((failed)); then
		echo "--- the last of e1_1's and tor1_1's logs"
		tail -n 8 "$dir/log/e1_1.log" "$dir/log/tor1_1.log" 2>/dev/null
	fi
	"$testbed" down --prefix "$prefix" >/dev/null 2>&1
	rm -rf "$DARD_TESTBED_DIR"
}
trap cleanup EXIT

# Monitors never quiet (--quiet-at 0): these checks watch the switch
# protocol, which a quiet monitor does not use (quiet.sh tests that).
t "fattree:4 with dard-switchd and dardd everywhere" \
	"$testbed" up fattree:4 --prefix "$prefix" --dard --fast --quiet-at 0
t "the testbed has its own key, mode 0600" \
	test "$(stat -c %a "$key")" = 600
t "testbed exec passes it on" bash -c \
	"[[ \$('$testbed' exec --prefix '$prefix' e1_1 printenv DARD_KEY) == '$key' ]]"

tor=$(mgmt_addr tor1_1)
on e2_1 iperf3 -s -1 -D -B 172.16.0.5
within 30 listening e2_1 5201 || fail "iperf3 listening on e2_1"
# For as long as the test needs it; killed at the end.
on_bg e1_1 iperf3 -c 172.16.0.5 -B 172.16.0.1 -t 900 -b 20M --cport 40001 >/dev/null 2>&1 &
ipid=$!
t "e1_1's dardd has a monitor with tor1_1's paths known" within 60 \
	ctl_jq e1_1 '.[0].paths | length == 4 and all(.known)' -- monitor show
# The view below must be the elephant's: the monitor comes first for the
# iperf3 connections' ToR (a flow 1 s old keeps one for dead paths), and
# the transfer is an elephant once it has carried the datapath's payload
# (a tenth of a second at the tree's 1 Gbit/s: about 5 s at 20 Mbit/s),
# and its switches count it in their next window.
t "e1_1's dardd schedules the transfer, and the switches count it" within 60 \
	ctl_jq e1_1 'length == 1 and any(.[0].paths[]; .elephants > 0)' -- monitor show
# dardd's query socket: its one UDP socket on an ephemeral port, not the
# ToR sharing port (7473, protocol.md) nor the controller's (7472).
dardd_at=$(on e1_1 ss -Haunp |
	awk '/"dardd"/ && $4 !~ /:747[23]$/ { print $4; exit }')
[[ -n $dardd_at ]] || fail "dardd's query socket on e1_1 not found"
e1=${dardd_at%:*}
dport=${dardd_at##*:}
# e1_1's ID address (iperf3's -B above): the sender of its dardd's queries.
e1_id=172.16.0.1
echo "e1_1's dardd queries from $dardd_at; tor1_1's agent is at $tor:7471"

# What a forgery would change: the paths' states. 777 elephants and a
# port down are what every forged record says.
view() {
	on e1_1 "$dardctl" -j monitor show |
		jq -c '[.[] | {dst_tor, paths: [.paths[] | {index, known, dead, elephants}]}]'
}

before=$(view)
echo "monitor show before: $before"
declare -A was
for s in rejected refused_malformed refused_seq refused_mac refused_replay \
	refused_source replies; do
	was[$s]=$(dardd_stat e1_1 "$s")
done

for c in zero-seq wrong-seq bad-mac no-mac; do
	for i in 1 2 3 4 5; do
		on tor1_1 python3 "$py" forge "$key" "$tor" "$e1" "$dport" "$c" "$e1_id" 1 2 3 4
	done
done
t "a reply replayed as it leaves tor1_1" bash -c \
	"'$testbed' exec --prefix '$prefix' tor1_1 python3 '$py' replay mgmt0 '$tor' '$e1' '$dport' 60 >/dev/null"

grew() { # grew STAT N: STAT rose by N since was[STAT]
	[[ $(($(dardd_stat e1_1 "$1") - was[$1])) -eq $2 ]]
}
t "5 signed replies with seq 0 refused as malformed" within 30 grew refused_malformed 5
t "5 signed replies with a seq nobody asked refused" within 30 grew refused_seq 5
t "10 replies with a bad or no MAC refused" within 30 grew refused_mac 10
t "the replayed reply refused as a replay" within 30 grew refused_replay 1
t "and nothing else refused" within 30 grew rejected 21
t "no forged record reached the monitor" bash -c \
	"! '$testbed' exec --prefix '$prefix' e1_1 '$dardctl' -j monitor show | jq -e '.. | objects | select(.elephants? == 777 or .dead? == true)' >/dev/null"
same_view() { after=$(view); [[ $after == "$before" ]]; }
# A real reply may be a moment late on a loaded machine: the same view
# within a few seconds, not necessarily at once.
t "monitor show's paths as before" within 30 same_view
echo "monitor show after:  $after"
t "replies still taken" within 30 bash -c \
	"(( \$('$testbed' exec --prefix '$prefix' e1_1 '$dardctl' -j stats | jq '.[0].replies') > ${was[replies]} ))"
t "refusals logged at most once a second" test \
	"$(grep -c 'refused a reply' "$dir/log/e1_1.log")" -le $(($(printf '%.0f' "$(elapsed)") + 1))

# The agent: unauthenticated queries unanswered, each reason counted.
q() { on e1_1 python3 "$py" query "$key" "$tor" "$@"; }
for c in v1 v2 v3 wrong-key unknown-key; do
	got=$(q "$c" 1 2)
	echo "query $c for ports 1 2: bytes out, in, records: $got"
	t "a $c query gets no answer" test "${got#* }" = "0 0"
done
got=$(q good 1 2 3 4)
echo "authentic query for ports 1-4: bytes out, in, records: $got"
t "an authentic query gets 4 records" test "${got##* }" = 4
read -r qb rb _ <<<"$got"
t "its reply no more than 64 bytes over it ($rb for $qb)" test "$rb" -le $((qb + 64))
got=$(q good 50 60)
echo "authentic query for ports 50 60: bytes out, in, records: $got"
t "a query for ports tor1_1 does not have gets no records" test "${got##* }" = 0
got=$(q good 1 50)
t "a query for port 1 and 50 gets port 1's record only" test "${got##* }" = 1

# The loads (Mbit/s over the agent's 0.2 s window, --fast), while the
# 20 Mbit/s flow runs: of tor1_1's up ports, the one the flow leaves by
# (its path's aggregation switch) is the most loaded. An order, not a
# figure: a busy machine makes the flow slower, not another port busier.
swq() { on e1_1 "$dardctl" -j switch query tor1_1; }
loads() { swq | jq -r '[.[].ports[] | "\(.to)=\(.load)"] | join(" ")'; }
up_aggr=$(tcp_flow e1_1 40001 | jq -r '.switches[1]')
busiest_up() {
	swq | jq -e --arg a "$up_aggr" '[.[].ports[] | select(.to | startswith("aggr"))] |
		(map(.load) | max) as $top | $top > 0 and
		all(.[]; (.to == $a) == (.load == $top))' >/dev/null
}
t "tor1_1's up port to $up_aggr, the flow's, is its most loaded" within 60 busiest_up
for _ in 1 2 3; do
	echo "tor1_1 loads, Mbit/s by neighbour: $(loads)"
	sleep 0.3
done
t "tor1_1 reports every port's load measured (no null)" bash -c \
	"'$testbed' exec --prefix '$prefix' e1_1 '$dardctl' -j switch query tor1_1 | jq -e '[.[].ports[].load] | all(. != null)' >/dev/null"
t "the port to the idle e1_2 near 0 (< 0.5 Mbit/s)" \
	bash -c "'$testbed' exec --prefix '$prefix' e1_1 '$dardctl' -j switch query tor1_1 | jq -e '.[].ports[] | select(.to == \"e1_2\") | .load < 0.5' >/dev/null"
# The monitor's most loaded link is on the path the elephant takes.
mid=$(tcp_flow e1_1 40001 | jq -c '.switches[1:-1]')
t "e1_1's monitor shows its most loaded link on the elephant's path ($mid)" within 60 \
	ctl_jq e1_1 '[.[0].paths[] | {switches, l: ([.links[].load | numbers] | max)}] |
		(map(.l) | max) as $top | $top > 0 and any(.[]; .switches == $m and .l == $top)' \
	--argjson m "$mid" -- monitor show
on e1_1 "$dardctl" monitor show

for p in $(ip netns pids "$prefix-tor1_1"); do
	[[ $(cat /proc/$p/comm 2>/dev/null) == dard-switchd ]] && kill -USR1 "$p"
done
t "tor1_1's agent counts each refusal by reason" within 30 grep -q \
	"refused: not_v4 3, unknown_key 1, bad_mac 1, malformed 0, clock 0, replay 0" "$dir/log/tor1_1.log"
grep "refused:" "$dir/log/tor1_1.log" | tail -n 1
t "tor1_1's agent sampled its counters, no read failed" grep -Eq \
	"load: [1-9][0-9]* samples, 0 failed" "$dir/log/tor1_1.log"
grep "load:" "$dir/log/tor1_1.log" | tail -n 1

qb=$(dardd_stat e1_1 query_bytes)
rb=$(dardd_stat e1_1 reply_bytes)
awk -v q="$qb" -v r="$rb" 'BEGIN { printf "e1_1 dardd: %d query bytes, %d reply bytes, reply/query %.2f\n", q, r, q ? r / q : 0 }'
figure reply_query "$(awk -v q="$qb" -v r="$rb" 'BEGIN { printf "%.2f", q ? r / q : 0 }')" ratio "dardd's reply bytes over its query bytes"
t "dardd's replies are at most its queries' bytes and the slack each" \
	test "$rb" -le $((qb + 64 * $(dardd_stat e1_1 replies)))
kill $ipid 2>/dev/null
wait $ipid 2>/dev/null
t "down" "$testbed" down --prefix "$prefix"

summary
