#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dardd's control socket against an unprivileged user (issue 13): nobody
# else can bind it, reach it or stop dardd from starting; a second dardd
# or a socket file left behind, and the directory's owner and mode; its
# refusals counted and rate-limited, a stopped dardd (and one whose
# queue is full) given up by dardctl after its 10 s, and bad numbers
# against a live flow. Root only: it runs itself in private network and
# mount namespaces (unshare -n -m) with a tmpfs on /run, so its control
# socket directory (/run/dard/dardd) is its own and no dardd of this
# machine is disturbed; the unprivileged user is nobody (setpriv).
#
#   private netns and mount ns (unshare -n -m), tmpfs on /run
#   +--------------------------------------------------------------+
#   | lo 127.0.0.1, 172.24.0.21 (e1_1's management address)        |
#   | dardd e1_1 -i lo   maps in /sys/fs/bpf/dard-ctltest-PID      |
#   | /run/dard/dardd/net-INODE.sock  <-  dardctl, ctlpeer (root,  |
#   |   or nobody: refused by the directory's mode)                |
#   | then lo 172.16.0.1 (e1_1's ID), a UDP flow to e2_1's ID on   |
#   | the datapath dardd left on lo, for flow move and flow sweep  |
#   +--------------------------------------------------------------+

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
ctlpeer=${DARD_CTLPEER:-$top/build/tests/ctlpeer}
suite=ctlsock.sh
source "$top/tests/lib.sh"
# Root (for namespaces of its own), and setpriv, util-linux's (to run
# the unprivileged client): without either it skips, and under CI fails.
need_root
command -v setpriv >/dev/null || { echo "setpriv is missing"; fail "setpriv"; summary; exit; }
if [[ -z ${DARD_CTLSOCK_NETNS:-} ]]; then
	DARD_CTLSOCK_NETNS=1 exec unshare -n -m "$0" "$@"
fi
mount -t tmpfs -o mode=0755 ctlsock /run || exit 1
tmp=$(mktemp -d)
chmod 755 "$tmp"
pin=/sys/fs/bpf/dard-ctltest-$$
cleanup() {
	bg_kill
	rm -rf "$tmp" "$pin"
}
trap cleanup EXIT


# dardd needs the deployment's key (protocol.md), root's and 0600.
export DARD_KEY=$tmp/dard.key
"$bin/dardctl" key gen "$DARD_KEY" >/dev/null || exit 1

nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
d() { "$bin/dardctl" "$@"; }
# A dardd that should refuse to start is stopped (exit 124) if it does
# not: a liveness bound, long for a refusal.
dardd() { timeout 30 "$bin/dardd" -c "$tmp/f4.conf" -i lo --pin "$pin" e1_1; }

# peer USER MODE: runs ctlpeer MODE as USER (nobody or root) and waits
# until it holds the socket (or, for bind, has left it); its pid in $imp.
peer() {
	local run=()
	[[ $1 == nobody ]] && run=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	: >"$tmp/imp" # not the last one's "ready"
	"${run[@]}" "$ctlpeer" "$2" >>"$tmp/imp" 2>&1 &
	imp=$!
	bg_pids+=("$imp")
	within 20 grep -q ready "$tmp/imp" && return 0
	echo "FAIL ctlpeer $*: never ready: $(cat "$tmp/imp")"
	exit 1
}
stop_peer() { kill "$imp" && wait "$imp" 2>/dev/null; }

ip link set lo up
ip addr add 172.24.0.21/32 dev lo
d -t fattree:4 topo gen >"$tmp/f4.conf" || exit 1
sock=/run/dard/dardd/net-$(stat -L -c %i /proc/self/ns/net).sock

# The directory decides who may bind the socket: dardd refuses one that
# another user owns or may write, naming it, before it touches the
# datapath.
install -d -m 0777 /run/dard
ok "/run/dard mode 0777: dardd refuses to start" 1 dardd &&
	has "mode 0777: named" "$err" \
		"Refusing /run/dard for the control socket: mode 0777 lets others in \(chmod 0755 it\)"
chmod 0755 /run/dard
install -d -o 65534 -m 0700 /run/dard/dardd
ok "/run/dard/dardd nobody's: dardd refuses to start" 1 dardd &&
	has "nobody's: named" "$err" \
		"Refusing /run/dard/dardd for the control socket: owned by uid 65534, not uid 0"
rmdir /run/dard/dardd
install -d -m 0750 /run/dard/dardd
ok "/run/dard/dardd mode 0750: dardd refuses to start" 1 dardd &&
	has "mode 0750: named" "$err" "mode 0750 lets others in \(chmod 0700 it\)"
is "refused: dardd attached nothing" "$(ls "$pin" 2>&1 >/dev/null | wc -l)" 1
rm -rf /run/dard

# An unprivileged user cannot bind the socket, with the directories
# there or not, so can neither be dardd for dardctl nor stop it from
# starting.
ok "nobody cannot make /run/dard" 1 nobody mkdir /run/dard
ok "nobody cannot bind the socket (no directory)" 1 nobody "$ctlpeer" listen
install -d -m 0700 /run/dard/dardd
ok "nobody cannot bind the socket (root's directory)" 1 nobody "$ctlpeer" listen &&
	has "nobody: permission denied" "$err" "ctlpeer: bind: Permission denied"

# Root is trusted (root can replace dardd anyway), so the check that
# remains is the holder's uid, for a directory whose mode was changed.
peer root listen
ok "root holder: dardctl talks to it" 0 d stats &&
	has "root holder: its answer printed" "$out" "^host +impostor"
stop_peer
rm -f "$sock" # its file, left behind

# gave_up T0 WHAT: dardctl, asked at T0, waited its whole 10 s for WHAT,
# no less (a lower bound, which load only lengthens).
gave_up() {
	local s
	s=$(since "$1")
	t "$2: after its 10 s wait ($s s)" awk -v s="$s" 'BEGIN { exit !(s >= 10) }'
}
# A holder that takes no connection (a stopped dardd whose queue is
# full): dardctl's connect gives up after its wait, and says so.
peer root full
t0=$EPOCHREALTIME
ok "queue full: dardctl stats gives up" 1 timeout 30 "$bin/dardctl" stats &&
	is "queue full: says so" "$err" \
		"dardd did not answer within 10 s: $sock takes no connection" &&
	gave_up "$t0" "queue full"
stop_peer
rm -f "$sock"
chmod 0777 /run/dard/dardd
peer nobody listen
for cmd in "stats" "-j stats" "monitor show" "flow show"; do
	# shellcheck disable=SC2086 # word splitting intended
	ok "open directory, nobody's socket: dardctl $cmd refuses" 1 d $cmd &&
		is "nobody's socket: dardctl $cmd names pid and uid" "$err" \
			"Refusing to talk to $sock: its holder (pid $imp, uid 65534, \`$ctlpeer listen') is not root, so not dardd" &&
		is "nobody's socket: dardctl $cmd prints nothing of it" "$out" ""
done
ok "open directory: dardd refuses to start" 1 dardd &&
	has "open directory: named" "$err" "mode 0777 lets others in \(chmod 0700 it\)"
stop_peer
rm -f "$sock"
chmod 0700 /run/dard/dardd

# A socket file nobody holds (a killed dardd's) does not stop the next.
peer root bind
is "a socket file left behind" "$(stat -c %F "$sock")" socket
left=$(stat -c %i "$sock")

# The real dardd: refusals answered, counted by reason and logged at most
# once a second per reason.
"$bin/dardd" -c "$tmp/f4.conf" -i lo --pin "$pin" e1_1 2>"$tmp/dardd.log" &
dpid=$!
bg_pids+=("$dpid")
serves() { d stats >/dev/null 2>&1; }
within 30 serves
ok "dardd: root's dardctl stats" 0 d -j stats &&
	is "dardd: its host" "$(jq -r .[0].host <<<"$out")" e1_1 &&
	is "dardd: no controller, mode dard" \
		"$(jq -r '.[0] | [.mode, .controller, .controller_heard_s] | join(" ")' <<<"$out")" "dard none "
ok "dardd: the socket left behind replaced by its own" 0 test "$(stat -c %i "$sock")" != "$left"
is "dardd: its socket root's, mode 0600" "$(stat -c %U:%a "$sock")" root:600
ok "dardd: nobody's dardctl refused" 1 nobody "$bin/dardctl" stats &&
	is "dardd: nobody told why" "$err" \
		"Unable to reach dardd at $sock: Permission denied (root only)"
ok "a second dardd refuses to start" 1 dardd &&
	has "a second dardd: names the first" "$err" \
		"Unable to open the control socket $sock: another dardd runs in this network namespace \(pid $dpid, uid 0, \`$bin/dardd -c "
ok "unknown command" 0 "$ctlpeer" send $'frob\n' &&
	is "unknown command: answered" "$out" '{"error":"unknown command: expected monitors, flows, stats or sched"}'
ok "sched with a bad argument" 0 "$ctlpeer" send $'sched pvlb soon\n' &&
	has "bad argument: invalid, nothing changed" "$out" '"invalid arguments'
ok "sched pvlb 2: the one command that writes" 0 "$ctlpeer" send $'sched pvlb 2\n' &&
	is "sched: the mode answered" "$(jq -c '[.sched_mode, .pvlb_interval_s]' <<<"$out")" '["pvlb",2]'
ok "sched fast: back" 0 "$ctlpeer" send $'sched fast\n' &&
	is "sched fast: answered" "$(jq -r .sched_mode <<<"$out")" fast
ok "no newline" 0 "$ctlpeer" send 'stats' &&
	has "no newline: malformed" "$out" '"malformed command'
ok "control byte" 0 "$ctlpeer" send $'st\001ats\n' &&
	has "control byte: malformed" "$out" '"malformed command'
ok "two lines" 0 "$ctlpeer" send $'stats\nstats\n' &&
	has "two lines: malformed" "$out" '"malformed command'
ok "oversized line" 0 "$ctlpeer" send "$(printf 'x%.0s' $(seq 100))" &&
	is "oversized: answered" "$out" '{"error":"command too long"}'
ok "stats after refusals" 0 d -j stats
for k in ctl_not_root:0 ctl_unknown:1 ctl_malformed:3 ctl_oversized:1 ctl_invalid:1 ctl_refused:6 mode_changes:2; do
	is "counted: ${k%:*}" "$(jq ".[0].${k%:*}" <<<"$out")" "${k#*:}"
done
# A flood of 50, well under a second on an idle machine: counted, and
# logged at most once a second of it, however long it takes (the limit
# is per second, not per flood). The frob after it comes over a second
# after the flood's last logged line (a lower bound), so it is logged,
# with the count of those suppressed since.
t0=$EPOCHREALTIME
for _ in $(seq 50); do "$ctlpeer" send $'frob\n' >/dev/null; done
flood_s=$(since "$t0")
ok "stats after a flood" 0 d -j stats &&
	is "flood counted" "$(jq .[0].ctl_unknown <<<"$out")" 51
sleep 1.1
"$ctlpeer" send $'frob\n' >/dev/null
ok "stats after the flood" 0 d -j stats
counted=$(jq .[0].ctl_unknown <<<"$out")
is "the one after counted" "$counted" 52
# A stopped dardd (SIGSTOP) queues the connection and never answers:
# dardctl gives up after its wait, saying so, instead of hanging.
kill -STOP "$dpid"
t0=$EPOCHREALTIME
ok "stopped dardd: dardctl stats gives up" 1 timeout 30 "$bin/dardctl" stats &&
	is "stopped dardd: says so" "$err" "dardd did not answer within 10 s" &&
	gave_up "$t0" "stopped dardd"
kill -CONT "$dpid"
kill "$dpid" && wait "$dpid"
is "dardd's exit: its socket removed, its lock kept" "$(ls /run/dard/dardd)" "$(basename "${sock%.sock}").lock"
log=$(cat "$tmp/dardd.log")
has "log shows what was sent" "$log" "refused pid [0-9]+, uid 0, .*: malformed command.*\(\`stats'\)"
# At most a line a second: the first frob's, those of the flood (a
# line at most per whole second of it, and one more), the last one's.
unknown=$(grep "unknown command" <<<"$log")
lines=$(grep -c . <<<"$unknown")
most=$(awk -v s="$flood_s" 'BEGIN { printf "%d", int(s) + 3 }')
t "52 unknown commands, $lines log lines, at most $most (flood: $flood_s s)" \
	test "$lines" -ge 2 -a "$lines" -le "$most"
has "the suppressed ones counted" "$log" "unknown command.*\(\`frob'\) \([0-9]+ more like it suppressed\)"
# Every refusal accounted for: each logged, or counted in a later line.
said=$(sed -n 's/.*(\([0-9]*\) more like it suppressed)$/\1/p' <<<"$unknown" |
	awk -v n="$lines" '{ n += $1 } END { print n }')
is "logged lines and those suppressed: the $counted refused" "$said" "$counted"

# Strict input against a live flow (issue 13 moved one to path 2 with
# `path 4294967298' and swept one with `idle 1e20'): dardd's datapath
# stays on lo after it stops; one UDP datagram from e1_1's ID to e2_1's
# makes a flow. Every bad number exits 2 and leaves it as it was.
ip addr add 172.16.0.1/32 dev lo
ip route add 172.16.0.0/16 dev lo src 172.16.0.1
echo x >/dev/udp/172.16.0.5/5001
dc() { d -t "$tmp/f4.conf" --pin "$pin" "$@"; }
# The flow without its clock: what a move or a sweep would change.
flows() { dc -j flow show dev lo | jq -c '[.[] | del(.age_ms, .idle_ms)]'; }
before=$(flows)
is "a live flow" "$(jq length <<<"$before")" 1
sport=$(jq '.[0].sport' <<<"$before")
flow=(udp "172.16.0.1:$sport" 172.16.0.5:5001)
ok "move to path 2^32 + 2" 2 dc flow move dev lo "${flow[@]}" path 4294967298 &&
	is "2^32 + 2 named" "$err" \
		"Invalid path number \`4294967298': out of range, expected 1-4294967295"
for v in 1e20 inf nan; do
	ok "sweep idle $v" 2 dc flow sweep dev lo idle "$v" &&
		has "idle $v named" "$err" "^Invalid idle time .$v.: (out of range|not a number)"
done
is "nothing moved or swept" "$(flows)" "$before"
# The same flow does move and get swept when asked rightly; the hash
# picked its path, so move it to one it is not on (path N is index N-1).
to=1
[[ $(jq '.[0].path_index' <<<"$before") -eq 0 ]] && to=2
ok "move to path $to" 0 dc flow move dev lo "${flow[@]}" path $to &&
	is "moved once" "$(flows | jq '.[0].moves')" 1
ok "sweep idle 3600" 0 dc flow sweep dev lo idle 3600 &&
	is "not idle an hour: kept" "$(flows | jq length)" 1
ok "sweep idle 0" 0 dc flow sweep dev lo idle 0 &&
	is "idle now: swept" "$(flows | jq length)" 0

# A controller (cpfake.py on 127.0.0.1:7472): dardd reports to it from
# e1_1's management address, refuses its datagrams from another port or
# key, takes its ASSIGN (mode controller) and ACKs it, and after
# --controller-timeout of silence falls back to DARD. The checks of
# controller mode come within those 5 s of the ACK (two dardctl calls).
ok "dardd: bad --controller" 2 "$bin/dardd" --controller 10.0.0.256 e1_1 &&
	is "bad --controller named" "$err" \
		"dardd: Invalid --controller \`10.0.0.256': expected an IPv4 address or none"
python3 "$top/tests/root/cpfake.py" "$DARD_KEY" 127.0.0.1 77 >"$tmp/cp" 2>&1 &
cpid=$!
bg_pids+=("$cpid")
within 20 grep -q ready "$tmp/cp" || fail "cpfake.py never ready: $(cat "$tmp/cp")"
DARD_CONTROLLER=127.0.0.1 "$bin/dardd" -c "$tmp/f4.conf" -i lo --pin "$pin" \
	--controller-timeout 5 --controller-report 0.2 e1_1 2>"$tmp/dardd.log" &
dpid=$!
bg_pids+=("$dpid")
wait "$cpid"
cp=$(cat "$tmp/cp")
has "controller: dardd's first report, empty" "$cp" "^report sender [0-9]+ count 0 flags 3$"
has "controller: ACK of epoch 77, nothing failed" "$cp" "^ack epoch 77 count 0 flags 3$"
ok "controller: stats" 0 d -j stats
placed_ns=$(jq .[0].mode_since_ns <<<"$out")
for k in mode:controller controller:127.0.0.1 controller_algo:sdn-optimal \
	controller_epoch:77 controller_assigns:1 controller_refused_source:1 \
	controller_refused_mac:1 controller_refused:2 controller_fallbacks:0; do
	is "controller: ${k%%:*}" "$(jq -r ".[0].${k%%:*}" <<<"$out")" "${k#*:}"
done
ok "controller: stats text" 0 d stats &&
	has "controller: text shows the mode" "$out" "^mode +controller$"
# dardctl dp weights under a running dardd: refused (dardd owns the
# weights, and the writes race), unless forced; nothing written.
ok "weights under dardd: refused" 1 dc dp weights lo e2_1 1 1 1 1 &&
	has "weights under dardd: says why" "$err" \
		"^dardd runs in this network namespace: .* add force"
ok "weights under dardd: nothing written" 0 dc -j dp weights lo e2_1 &&
	is "weights under dardd: still even" "$(jq -r '.[0].weighted' <<<"$out")" false
ok "weights under dardd: forced" 0 dc dp weights lo e2_1 even force &&
	has "weights under dardd: warned" "$err" "^warning: dardd runs in this network namespace"
# Silent since its ASSIGN, the controller is given up after 5 s, not
# before, by dardd's own figures: its answer says how long ago it heard
# the controller (controller_heard_s) and when it fell back
# (mode_since_ns, wall clock). With $before taken just before asking,
# mode_since - before + heard_s is fallback - heard plus the time the
# answer took: at least 5 s, unless dardd fell back early by more than
# that time (milliseconds).
mode_is() { [[ $(d -j stats | jq -r .[0].mode) == "$1" ]]; }
t "controller silent: back to dard (bounded)" within 30 mode_is dard
before=$EPOCHREALTIME
ok "controller silent: stats" 0 d -j stats &&
	is "controller silent: why, and one fallback" \
		"$(jq -r '.[0] | [.mode, .mode_why, .controller_fallbacks] | join(",")' <<<"$out")" \
		"dard,controller silent past the timeout,1"
gap=$(jq -r --arg b "$before" '.[0] | .mode_since_ns / 1e9 - ($b | tonumber)
	+ .controller_heard_s' <<<"$out" | xargs printf '%.3f')
since_placed=$(jq -r --arg p "$placed_ns" \
	'(.[0].mode_since_ns - ($p | tonumber)) / 1e9' <<<"$out" | xargs printf '%.3f')
t "controller silent: not before its 5 s ($gap s; $since_placed s after it placed)" \
	awk -v g="$gap" 'BEGIN { exit !(g >= 5) }'
kill "$dpid" && wait "$dpid"
has "controller: the fallback logged" "$(cat "$tmp/dardd.log")" \
	"controller 127.0.0.1 silent for 5 s: DARD schedules our elephants"
ok "weights without dardd: no force needed" 0 dc dp weights lo e2_1 even &&
	is "weights without dardd: no warning" "$err" ""

summary
