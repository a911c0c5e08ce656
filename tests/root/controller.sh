#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dard-controller as a program: its options and refusals to start, then
# a live controller over UDP against ctlhost (a host's side of the
# controller protocol), its control socket for dardctl (root only, an
# unprivileged impostor refused), the real dardd taken over and handed
# back to DARD when the controller stops cleanly. Root only: it runs
# itself in a private network namespace (unshare -n), where the hosts'
# management addresses can sit on lo and nothing of this machine's is
# disturbed.
#
#   private netns (unshare -n)
#   +-------------------------------------------------------------+
#   | lo 127.0.0.1: dard-controller -l 127.0.0.1, UDP 7472        |
#   |    172.24.0.21 (e1_1), 172.24.0.22 (e1_2): ctlhost, as hosts |
#   | $tmp/c.sock: its control socket <- dardctl controller stats |
#   | dardd e1_1 -i lo --controller 127.0.0.1 (BPF datapath on lo) |
#   +-------------------------------------------------------------+

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
ctlhost=${DARD_CTLHOST:-$top/build/tests/ctlhost}
suite=controller.sh
source "$top/tests/lib.sh"
# Root (for namespaces of its own), and setpriv, util-linux's (to run
# the unprivileged client): without either it skips, and under CI fails.
need_root
command -v setpriv >/dev/null || { echo "setpriv is missing"; fail "setpriv"; summary; exit; }
if [[ -z ${DARD_CTLR_NETNS:-} ]]; then
	DARD_CTLR_NETNS=1 exec unshare -n "$0" "$@"
fi
tmp=$(mktemp -d)
chmod 755 "$tmp"
pin=/sys/fs/bpf/dard-ctlrtest-$$
cleanup() {
	bg_kill
	rm -rf "$tmp" "$pin"
}
trap cleanup EXIT

# One that should refuse to start is stopped (exit 124) if it does not.
ctl() { timeout 30 "$bin/dard-controller" "$@"; }
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
stats() { "$bin/dardctl" controller stats socket "$tmp/c.sock"; }
# mode_is MODE: the mode dardd says it is in.
mode_is() { [[ $("$bin/dardctl" -j stats 2>/dev/null | jq -r '.[0].mode') == "$1" ]]; }

ip link set lo up
ip addr add 172.24.0.21/32 dev lo
ip addr add 172.24.0.22/32 dev lo
"$bin/dardctl" -t fattree:4 topo gen >"$tmp/f4.conf" || exit 1
"$bin/dardctl" -t clos:4,4 topo gen >"$tmp/clos.conf" || exit 1
export DARD_KEY=$tmp/dard.key
"$bin/dardctl" key gen "$DARD_KEY" >/dev/null || exit 1
export DARD_CONFIG=$tmp/f4.conf

# The command line: help, and every bad value named.
ok "--help" 0 ctl --help
has "--help names every algorithm" "$out" "sdn-greedy.*sdn-optimal"
ok "unknown --algo" 2 ctl --algo ecmp
has "unknown --algo says what" "$err" "Invalid --algo \`ecmp': expected sdn-greedy"
ok "--lp-columns 0" 2 ctl --algo oblivious --lp-columns 0
has "--lp-columns 0 names it" "$err" "Invalid --lp-columns \`0'"
ok "--interval 0" 2 ctl --interval 0
has "--interval 0 names it" "$err" "Invalid --interval \`0'"
ok "--listen bad" 2 ctl --listen 300.1.1.1
ok "--port: none, hosts know 7472 only" 2 ctl --port 7473
ok "extra argument" 2 ctl e1_1
has "extra argument named" "$err" "unexpected argument \`e1_1'"

# What it refuses to start with.
ok "no config" 1 ctl -c "$tmp/none.conf" -s "$tmp/c.sock"
has "no config named" "$err" "none.conf"
cp "$DARD_KEY" "$tmp/open.key"
chmod 644 "$tmp/open.key"
ok "key file others read" 1 ctl -k "$tmp/open.key" -s "$tmp/c.sock"
has "key file refused" "$err" "open.key"
ok "sdn-optimal on a Clos" 1 ctl -c "$tmp/clos.conf" -a sdn-optimal \
	-s "$tmp/c.sock"
has "sdn-optimal on a Clos says why" "$err" "error: SDN-optimal needs a fat-tree"
# sdn-greedy on a Clos starts and serves, however slowly: its socket
# answers, naming its algorithm. Stopped (SIGSTOP), it leaves dardctl
# waiting 10 s, not for ever; SIGTERM then is a clean stop.
"$bin/dard-controller" -c "$tmp/clos.conf" -s "$tmp/clos.sock" -q &
gpid=$!
bg_pids+=("$gpid")
t "sdn-greedy on a Clos: its socket (bounded)" within 30 test -S "$tmp/clos.sock"
ok "sdn-greedy on a Clos: serves" 0 "$bin/dardctl" controller stats socket \
	"$tmp/clos.sock" &&
	has "sdn-greedy on a Clos: its algorithm" "$out" "^algo sdn-greedy$"
kill -STOP "$gpid"
t0=$EPOCHREALTIME
ok "stopped: dardctl controller stats gives up" 1 timeout 30 \
	"$bin/dardctl" controller stats socket "$tmp/clos.sock" &&
	is "stopped: says so" "$err" "dard-controller did not answer within 10 s"
s=$(since "$t0")
t "stopped: after its 10 s wait ($s s)" awk -v s="$s" 'BEGIN { exit !(s >= 10) }'
kill -CONT "$gpid"
kill -TERM "$gpid"
wait "$gpid"
is "sdn-greedy on a Clos: SIGTERM, exit 0" "$?" 0

# A live one: a host's report gets an ASSIGN for its flow. Hosts are
# kept 600 s, longer than any wait below: the stats must count both.
"$bin/dard-controller" -a sdn-greedy -l 127.0.0.1 -i 0.2 -Q 0.2 -t 600 \
	-s "$tmp/c.sock" 2>"$tmp/ctl.log" &
cpid=$!
bg_pids+=("$cpid")
within 30 test -S "$tmp/c.sock" || fail "no control socket: $(cat "$tmp/ctl.log")"
is "control socket is root's, 0600" "$(stat -c '%U %a' "$tmp/c.sock")" \
	"root 600"
ok "a host's report" 0 "$ctlhost" "$DARD_CONFIG" "$DARD_KEY" e1_1 e2_1 \
	127.0.0.1 good
has "it gets its flow's path" "$out" \
	"^assign algo sdn-greedy epoch [0-9]+ flags 3 count 1 path [0-3]$"
ok "a forged report" 0 "$ctlhost" "$DARD_CONFIG" "$DARD_KEY" e1_2 e2_1 \
	127.0.0.1 forged
is "a forged report draws nothing" "$out" "silent"
ok "a replayed report" 0 "$ctlhost" "$DARD_CONFIG" "$DARD_KEY" e1_2 e2_2 \
	127.0.0.1 replay
# The datagrams taken (a round is 0.2 s): until the counts are these
# exactly (a poll, bounded), then each checked.
counted() {
	stats >"$tmp/st" 2>&1 &&
		[[ $(grep -cxE 'hosts 2|flows 2|acks 1|refused.mac 1|refused.replay 1' \
			"$tmp/st") -eq 5 ]]
}
within 30 counted
ok "controller stats" 0 stats
has "stats: algo" "$out" "^algo sdn-greedy$"
has "stats: two hosts" "$out" "^hosts 2$"
has "stats: two flows" "$out" "^flows 2$"
has "stats: the ack" "$out" "^acks 1$"
has "stats: the forged one" "$out" "^refused.mac 1$"
has "stats: the replay" "$out" "^refused.replay 1$"
has "stats: failed links none" "$out" "^failed_links$"
ok "controller stats -j" 0 "$bin/dardctl" -j controller stats socket \
	"$tmp/c.sock"
has "-j is JSON" "$out" '"algo": "sdn-greedy"'
ok "controller stats bad argument" 2 "$bin/dardctl" controller stats frob
ok "controller help" 0 "$bin/dardctl" controller help
has "controller help: usage" "$out" "controller stats \[ socket PATH \]"

# Only root reaches it; an unprivileged holder of a socket is refused.
ok "nobody is kept off" 1 nobody "$bin/dardctl" controller stats socket \
	"$tmp/c.sock"
has "nobody: why" "$err" "Permission denied"
mkdir "$tmp/nobody"
chown 65534 "$tmp/nobody"
cp "$DARD_KEY" "$tmp/nobody/dard.key"
chown 65534 "$tmp/nobody/dard.key"
# setpriv itself, not the function: $! must be the controller's pid.
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$bin/dard-controller" -k "$tmp/nobody/dard.key" -l 127.0.0.2 \
	-s "$tmp/nobody/c.sock" -q &
bg_pids+=("$!")
within 30 test -S "$tmp/nobody/c.sock"
ok "an impostor's socket" 1 "$bin/dardctl" controller stats socket \
	"$tmp/nobody/c.sock"
has "the impostor named" "$err" "is not root, so not dard-controller"

# The real dardd of e1_1 (engineer cli's side) with the BPF datapath on
# lo: its keepalive reports draw our heartbeats, and it hands its
# elephants to us. Its --controller-timeout (5 s) is more than a busy
# machine holds the controller back: the one fallback below is the stop.
"$bin/dardd" -c "$DARD_CONFIG" -i lo --pin "$pin" --controller 127.0.0.1 \
	--controller-timeout 5 e1_1 2>"$tmp/dardd.log" &
bg_pids+=("$!")
t "dardd: mode controller (bounded)" within 30 mode_is controller
ok "dardd: stats" 0 "$bin/dardctl" -j stats
is "dardd: our algorithm" "$(jq -r '.[0].controller_algo' <<<"$out")" \
	sdn-greedy
has "dardd: our assignments applied" \
	"$(jq -r '.[0].controller_assigns' <<<"$out")" "^[1-9]"
is "dardd: nothing refused" "$(jq -r '.[0].controller_refused' <<<"$out")" 0
ok "controller: dardd's reports" 0 stats
has "controller: nothing refused since" "$out" "^refused.topology 0$"

# SIGTERM: a clean stop, the socket gone; dardd goes back to DARD.
kill -TERM "$cpid"
wait "$cpid"
is "SIGTERM: exit 0" "$?" 0
is "SIGTERM: socket removed" "$([[ -e $tmp/c.sock ]] && echo there)" ""
has "SIGTERM: logged" "$(cat "$tmp/ctl.log")" "stopped after [0-9]+ rounds"
# It tells no host: each falls back once silent past its timeout.
t "dardd: back to DARD (bounded)" within 30 mode_is dard
ok "dardd: stats after" 0 "$bin/dardctl" -j stats
is "dardd: one fallback, for the silence" \
	"$(jq -r '.[0] | [.controller_fallbacks, .mode_why] | join(",")' <<<"$out")" \
	"1,controller silent past the timeout"

summary
