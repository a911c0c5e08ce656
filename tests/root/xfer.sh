#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dard-exp send and recv on real namespaces (root; it skips without,
# and fails under CI without): two of its own, in a private mount
# namespace (unshare -m) with a tmpfs on /run/netns, so that no other
# namespace is seen or touched:
#
#   PREFIX-a (send)                          PREFIX-b (recv)
#   +-------------------------------+        +---------------------------+
#   | lo up                         |        | lo up                     |
#   | p1 10.9.1.1/24 ---------------+--veth--+- p2 10.9.1.2/24           |
#   |   root tbf 10mbit             |        |                           |
#   +-------------------------------+        +---------------------------+
#
# A transfer of 3 MB: sent == received == N, its seconds at least
# N * 8 / rate (the link cannot go faster, whatever the load), its
# intervals adding up to N; iperf3 -n's seconds for the same transfer
# printed beside it (not asserted). Then: recv --daemon accepting a
# connection as soon as it returns, detached; a fixed client port used
# twice in a row; --congestion; a port in use and an address not ours;
# and each an exit 1 with its error: a refused connection, recv's
# --timeout with nobody connecting and with a connection silent, a
# short count and none (a receiver in Python that lies), a receiver
# killed mid-transfer, send's --timeout. Every wait is a bounded poll.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
suite=xfer
source "$top/tests/lib.sh"
need_root
if [[ -z ${DARD_XFER_MOUNTNS:-} ]]; then
	DARD_XFER_MOUNTNS=1 exec unshare -m "$0" "$@"
fi
mount --make-rprivate / && mkdir -p /run/netns &&
	mount -t tmpfs -o mode=0755 dard-xfer-netns /run/netns || exit 1
a=dxfer$$-a
b=dxfer$$-b
dst=10.9.1.2
rate=10000000 # bit/s, the tbf's
tmp=$(mktemp -d)
cleanup() {
	bg_kill KILL
	ip netns del "$a" 2>/dev/null
	ip netns del "$b" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

ip netns add "$a" && ip netns add "$b" &&
	ip link add p1 netns "$a" type veth peer name p2 netns "$b" &&
	ip -n "$a" addr add 10.9.1.1/24 dev p1 &&
	ip -n "$b" addr add "$dst/24" dev p2 &&
	ip -n "$a" link set p1 up && ip -n "$b" link set p2 up &&
	ip -n "$a" link set lo up && ip -n "$b" link set lo up &&
	tc -n "$a" qdisc add dev p1 root tbf rate 10mbit burst 10kb \
		latency 100ms || exit 1

# send and recv in their namespaces, bounded; recv_bg starts one in the
# background ($pid), and waits until it listens on PORT.
xsend() { bounded ip netns exec "$a" "$bin/dard-exp" send "$@"; }
xrecv() { bounded ip netns exec "$b" "$bin/dard-exp" recv "$@"; }
listening() { [[ -n $(ip netns exec "$b" ss -Hltn "sport = :$1") ]]; }
recv_bg() {
	local port=$1
	shift
	ip netns exec "$b" "$bin/dard-exp" recv --bind "$dst" --port "$port" \
		"$@" 2>"$tmp/recv.err" &
	pid=$!
	bg_pids+=("$pid")
	within 30 listening "$port"
}
# jqo [OPTIONS] FILTER: jq on the last command's output ($out).
jqo() { jq -r "$@" <<<"$out"; }
# ge A B: 1 when A >= B (decimals).
ge() { awk -v a="$1" -v b="$2" 'BEGIN { print (a >= b) }'; }
# stop PID: a receiver of ours killed and reaped, quietly.
stop() { kill -KILL "$1" 2>/dev/null && wait "$1" 2>/dev/null; }

# A transfer through the tbf: the receiver's count is N, and the time
# is at least what the link needs for N bytes of payload alone.
n=3000000
recv_bg 5001 --once --timeout 60
ok "a transfer of $n bytes at 10 Mbit/s" 0 xsend --to "$dst" --port 5001 \
	--bytes $n --interval 0.5 &&
	is "... no error" "$(jqo '.error // "none"')" none &&
	is "... sent N" "$(jqo .end.sum_sent.bytes)" $n &&
	is "... the receiver read N" "$(jqo .end.sum_received.bytes)" $n &&
	is "... to $dst:5001" \
		"$(jqo '.start.connecting_to | "\(.host):\(.port)"')" "$dst:5001" &&
	is "... a congestion control named" \
		"$(jqo '.end.sender_tcp_congestion | length > 0')" true
ours=$(jqo .end.sum_received.seconds)
is "... its seconds ($ours) at least N * 8 / rate" \
	"$(ge "$ours" "$(awk -v n=$n -v r=$rate 'BEGIN { print n * 8 / r }')")" 1
is "... the intervals' bytes N, within an interval's worth" \
	"$(jqo --argjson n $n --argjson w $((rate / 8 / 2)) \
		'([.intervals[].sum.bytes] | add) - $n | fabs <= $w')" true
is "... the intervals back to back from 0 to its end" \
	"$(jqo --argjson t "$ours" '[.intervals[].sum] |
		.[0].start == 0 and .[-1].end == $t and
		([range(1; length) as $i | .[$i].start == .[$i - 1].end] | all)')" \
	true
wait "$pid"
is "recv --once exits 0 after it" "$?" 0
is "... nothing on its stderr" "$(cat "$tmp/recv.err")" ""

# iperf3 -n on the same link, for the figures: its clock stops at the
# last byte written, with the socket's buffer and the tbf's queue still
# to go.
if command -v iperf3 >/dev/null; then
	ip netns exec "$b" iperf3 -s -1 -B "$dst" -p 5002 >/dev/null 2>&1 &
	bg_pids+=("$!")
	within 30 listening 5002
	t0=$EPOCHREALTIME
	ip netns exec "$a" timeout 60 iperf3 -c "$dst" -p 5002 -n $n -J \
		>"$tmp/iperf3.json" 2>/dev/null
	wall=$(since "$t0")
	echo "# $n bytes at 10 Mbit/s: dard-exp send ${ours} s;" \
		"iperf3 -n sender $(jq .end.sum_sent.seconds "$tmp/iperf3.json") s," \
		"receiver $(jq .end.sum_received.seconds "$tmp/iperf3.json") s," \
		"its client's run ${wall} s; the link's least $(awk -v n=$n \
			-v r=$rate 'BEGIN { print n * 8 / r }') s"
else
	echo "# iperf3 is not installed: no comparison"
fi

# --daemon returns once it listens: a connection made at once is served,
# without a retry, by a process of its own session with /dev/null for
# its standard streams.
ok "recv --daemon returns 0" 0 xrecv --bind "$dst" --port 5003 --daemon \
	--timeout 60 &&
	ok "... a send right after it: served" 0 xsend --to "$dst" --port 5003 \
		--bytes 100000 &&
	is "... every byte" "$(jqo .end.sum_received.bytes)" 100000
dpid=$(ip netns exec "$b" ss -Hltnp "sport = :5003" |
	grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)
if [[ -n $dpid ]]; then
	bg_pids+=("$dpid")
	is "... the daemon leads its own session" \
		"$(awk '{ print $6 }' "/proc/$dpid/stat")" "$dpid"
	is "... its stdin, stdout and stderr /dev/null" \
		"$(readlink "/proc/$dpid/fd/0" "/proc/$dpid/fd/1" "/proc/$dpid/fd/2" |
			sort -u)" /dev/null
	ok "... and it serves the next connection" 0 xsend --to "$dst" \
		--port 5003 --bytes 1000
	kill -KILL "$dpid"
else
	fail "... the daemon listens on 5003: nobody does"
fi
ok "recv --daemon --once returns 0" 0 xrecv --bind "$dst" --port 5004 \
	--daemon --once --timeout 60 &&
	ok "... a send right after it: served" 0 xsend --to "$dst" --port 5004 \
		--bytes 1000 &&
	t "... then it is gone" within 30 eval '! listening 5004'

# A fixed client port, twice in a row: the first connection's TIME_WAIT
# does not stop the second.
recv_bg 5005 --timeout 60
ok "from 10.9.1.1:40000" 0 xsend --to "$dst" --port 5005 --bytes 1000 \
	--from 10.9.1.1 --cport 40000 &&
	has "... its TIME_WAIT there" \
		"$(ip netns exec "$a" ss -Htan state time-wait "sport = :40000")" \
		"10\.9\.1\.1:40000 +10\.9\.1\.2:5005" &&
	ok "... and again at once" 0 xsend --to "$dst" --port 5005 --bytes 1000 \
		--from 10.9.1.1 --cport 40000
ok "--congestion reno" 0 xsend --to "$dst" --port 5005 --bytes 1000 \
	--congestion reno &&
	is "... reported" "$(jqo .end.sender_tcp_congestion)" reno
ok "--congestion nosuch: refused" 1 xsend --to "$dst" --port 5005 --bytes 1 \
	--congestion nosuch &&
	is "... the JSON says why" "$(jqo .error)" \
		"congestion control \`nosuch' is not available: the kernel has no such algorithm" &&
	is "... so does stderr" "$err" \
		"dard-exp: send: congestion control \`nosuch' is not available: the kernel has no such algorithm"
ok "a port in use: refused" 1 xrecv --bind "$dst" --port 5005 &&
	is "... saying so" "$err" \
		"dard-exp: recv: Unable to bind to $dst:5005: Address already in use"
stop "$pid"
ok "an address not ours: refused" 1 xrecv --bind 10.9.9.9 --port 5006 &&
	is "... saying so" "$err" \
		"dard-exp: recv: Unable to bind to 10.9.9.9:5006: Cannot assign requested address"
ok "an address that is none: bad usage" 2 xrecv --bind 10.9.9 --port 5006 &&
	is "... saying so" "$err" \
		"dard-exp: Invalid --bind \`10.9.9': expected an IPv4 or IPv6 address"

# Nothing is left running, and nothing is taken for a transfer.
ok "a refused connection" 1 xsend --to "$dst" --port 5007 --bytes 1000 &&
	is "... the JSON's error" "$(jqo .error)" \
		"unable to connect to $dst:5007: Connection refused" &&
	is "... nothing received" "$(jqo .end.sum_received.bytes)" 0
# A connection that sends nothing: recv gives up on it too. The other
# end tries every 0.05 s from before recv listens, and then holds the
# connection open.
ip netns exec "$a" bash -c "
	for ((i = 0; i < 600; i++)); do
		exec 3<>/dev/tcp/$dst/5010 && exec sleep 60
		sleep 0.05
	done" 2>/dev/null &
hpid=$!
bg_pids+=("$hpid")
ok "recv --timeout 3, a connection silent: gives up" 1 xrecv --bind "$dst" \
	--port 5010 --once --timeout 3 &&
	has "... saying so" "$err" \
		"^dard-exp: recv: 10\.9\.1\.1:[0-9]+: nothing in 3 s after 0 bytes$"
stop "$hpid"
ok "recv --timeout 0.5, nobody connecting: gives up" 1 xrecv --bind "$dst" \
	--port 5007 --timeout 0.5 &&
	is "... saying so" "$err" \
		"dard-exp: recv: no connection to $dst:5007 in 0.5 s"

# A receiver that lies: reads to the end, then answers with one byte
# fewer, or closes without a count.
liar() {
	ip netns exec "$b" python3 -c '
import socket, struct, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(1)
c, _ = s.accept()
n = 0
while True:
	d = c.recv(65536)
	if not d:
		break
	n += len(d)
if sys.argv[3] == "short":
	c.sendall(struct.pack(">Q", n - 1))
c.close()' "$dst" "$1" "$2" &
	pid=$!
	bg_pids+=("$pid")
	within 30 listening "$1"
}
if command -v python3 >/dev/null; then
	liar 5012 short
	ok "a count one byte short: exit 1" 1 xsend --to "$dst" --port 5012 \
		--bytes 5000 &&
		is "... the JSON's error" "$(jqo .error)" \
			"short count: the receiver read 4999 of 5000 bytes" &&
		is "... its count reported" "$(jqo .end.sum_received.bytes)" 4999
	wait "$pid"
	liar 5013 none
	ok "no count: exit 1" 1 xsend --to "$dst" --port 5013 --bytes 5000 &&
		is "... the JSON's error" "$(jqo .error)" \
			"the receiver closed without its count (0 of 8 bytes)"
	wait "$pid"
else
	echo "# python3 is not installed: no lying receiver"
fi

# A receiver killed mid-transfer (20 s of data), once it has read some:
# send exits 1 saying so.
read_some() {
	ip netns exec "$b" ss -Htni state established "sport = :5008" |
		grep -qE 'bytes_received:[0-9]{6,}'
}
recv_bg 5008 --once --timeout 60
rpid=$pid
xsend --to "$dst" --port 5008 --bytes 25000000 >"$tmp/killed.json" \
	2>"$tmp/killed.err" &
spid=$!
bg_pids+=("$spid")
within 30 read_some
stop "$rpid"
wait "$spid"
is "a receiver killed: send exits 1" "$?" 1
out=$(cat "$tmp/killed.json")
has "... the JSON's error" "$(jqo .error)" \
	'^the connection failed after [0-9]+ of 25000000 bytes written: (Connection reset by peer|Broken pipe)$'
is "... nothing received" "$(jqo .end.sum_received.bytes)" 0
has "... stderr" "$(cat "$tmp/killed.err")" '^dard-exp: send: the connection failed'

# send's --timeout bounds the whole transfer.
recv_bg 5009 --once --timeout 60
ok "send --timeout 1 on 20 s of data: exit 1" 1 xsend --to "$dst" \
	--port 5009 --bytes 25000000 --timeout 1 &&
	has "... the JSON's error" "$(jqo .error)" \
		'^timeout after 1 s writing: [0-9]+ of 25000000 bytes written, [0-9]+ acknowledged$' &&
	is "... its seconds at least 1" "$(ge "$(jqo .end.sum_sent.seconds)" 1)" 1
stop "$pid"

summary
