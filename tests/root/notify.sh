#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The daemons under a fake systemd (issue 16): each one started as its
# unit starts it, with the unit's CapabilityBoundingSet and no more,
# $NOTIFY_SOCKET naming a datagram socket sdnotify.py reads and
# WATCHDOG_USEC=400000. READY=1 must come once the daemon serves (its
# sockets bound when it arrives), WATCHDOG=1 pings after it and none
# before (their interval, half of WATCHDOG_USEC, is tested on a fake
# clock in tests/unit/test_notify.c), STOPPING=1 on SIGTERM, then exit
# 0. Without $NOTIFY_SOCKET, or with one that names nothing, each runs
# the same. Each capability of a unit's set is needed: without it the
# daemon refuses to start. Every system call each makes is in its
# unit's SystemCallFilter= (under strace, when there, each asked once
# it serves). Root only.
#
# Nothing it does may touch the machine: dardd attaches its sock_ops
# program to a cgroup (the cgroup2 root unless told) and pins it in
# /sys/fs/bpf, which every TCP socket of the machine would feel. So the
# test runs itself in private network, mount and PID namespaces
# (unshare -n -m -p --kill-child) with a bpffs of its own on
# /sys/fs/bpf, and attaches the datapath first (dardctl dp attach) with
# its sock_ops program in a scratch cgroup, which dardd then opens. The
# pins live and die with that bpffs: however the test ends (even
# SIGKILL), the namespaces' end releases the link and so the hook. The
# outer part, on the machine, makes and removes the scratch cgroup and
# checks afterwards that no pin is in the real /sys/fs/bpf and that no
# cgroup link of ours (bpftool link show: bpftool 7.1 cannot query a
# cgroup on this kernel) is left, nor a new one on the cgroup2 root.
#
#   private netns, mount ns (bpffs on /sys/fs/bpf), pid ns
#   +----------------------------------------------------------------+
#   | $tmp/notify.sock <- sdnotify.py, the fake systemd              |
#   | lo 127.0.0.1: dard-controller -l 127.0.0.1, $tmp/c.sock        |
#   |    172.24.0.21: dardd e1_1 -i lo (BPF datapath on lo)          |
#   |    172.24.0.1: dard-switchd core1, ports p1..p4 (veth to q1..q4)|
#   +----------------------------------------------------------------+

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
if [[ $EUID -ne 0 ]] || ! command -v setpriv >/dev/null ||
	! command -v python3 >/dev/null; then
	echo "skip notify.sh: needs root, setpriv and python3"
	exit 0
fi
if ! command -v bpftool >/dev/null || ! command -v unshare >/dev/null; then
	echo "skip notify.sh: needs bpftool and unshare"
	exit 0
fi

# links: the BPF links of the machine as "ID CGROUP_ID ATTACH_TYPE" lines
# (cgroup links only).
links() {
	bpftool -j link show | python3 -c '
import json, sys
for l in json.load(sys.stdin):
    if l.get("type") == "cgroup":
        print(l["id"], l.get("cgroup_id"), l.get("attach_type"))'
}

# The outer part, on the machine: the scratch cgroup, the namespaced
# run, then what it must not have left.
if [[ -z ${DARD_NOTIFY_NS:-} ]]; then
	tmp=$(mktemp -d /tmp/dard-notify-XXXXXX)
	suite=notify.sh
	source "$top/tests/lib.sh"
	cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	cg=${cg2:+$cg2/dard-notifytest-$$}
	upid= tpid=
	# On any end (SIGTERM, SIGINT, the 600 s): unshare killed, its
	# namespaces go with their last process, the link with its bpffs;
	# the scratch cgroup can go once no link holds it (the kernel
	# releases them later, so bounded: 30 s).
	gone() { [[ -z $cg || ! -d $cg ]] || rmdir "$cg" 2>/dev/null; }
	# The 600 s watchdog ended by its sleep, so that the kill after it
	# never runs; its output is not ours (a pipe we write to would be
	# held open for its 600 s).
	unwatch() {
		[[ -n $tpid ]] || return 0
		pkill -P "$tpid" 2>/dev/null
		wait "$tpid" 2>/dev/null
		tpid=
	}
	outer_cleanup() {
		unwatch
		if [[ -n $upid ]]; then
			kill -KILL "$upid" 2>/dev/null
			wait "$upid" 2>/dev/null
		fi
		within 30 gone || echo "notify.sh: $cg left behind"
		rm -rf "$tmp"
	}
	trap outer_cleanup EXIT
	trap 'exit 143' TERM INT HUP
	[[ -n $cg ]] && mkdir "$cg"
	links >"$tmp/links.before"
	# --kill-child: unshare's end, by any signal, kills the PID
	# namespace's first process and with it every other; 600 s at most.
	DARD_NOTIFY_NS=1 DARD_NOTIFY_CGROUP=$cg DARD_NOTIFY_OUT=$tmp \
		unshare -n -m -p --mount-proc --kill-child "$0" "$@" &
	upid=$!
	(sleep 600 && kill -KILL "$upid") >/dev/null 2>&1 &
	tpid=$!
	wait "$upid"
	rc=$?
	upid=
	unwatch
	read -r passed failed <"$tmp/counts" 2>/dev/null ||
		{ failed=1 && echo "FAIL the namespaced run (exit $rc) counted nothing"; }
	# Links are released when the namespaces' last process is gone,
	# deferred in the kernel (cleanup_net, RCU): a poll, bounded.
	released() {
		links >"$tmp/links.after"
		! grep -qFxf "$tmp/ours" "$tmp/links.after" 2>/dev/null
	}
	within 30 released
	[[ -n $cg ]] && has "the test's own sock_ops link was seen" \
		"$(cat "$tmp/ours" 2>/dev/null)" \
		"^[0-9]+ [0-9]+ cgroup_sock_ops$"
	is "no link of the test is left" \
		"$(grep -Fxf "$tmp/ours" "$tmp/links.after" 2>/dev/null)" ""
	root_id=$([[ -n $cg2 ]] && stat -c %i "$cg2")
	is "no new link on the cgroup2 root $cg2" "$(comm -13 \
		<(sort "$tmp/links.before") <(sort "$tmp/links.after") |
		awk -v r="$root_id" '$2 == r')" ""
	is "no pin of the test in the real /sys/fs/bpf" \
		"$(ls -d /sys/fs/bpf/dard-notifytest-* 2>/dev/null)" ""
	[[ -n $cg ]] && ok "the scratch cgroup removed" 0 rmdir "$cg"
	echo "notify.sh: $passed passed, $failed failed"
	[[ $failed -eq 0 ]]
	exit
fi

# The namespaced part: pid 1 of its PID namespace.
tmp=$(mktemp -d)
chmod 755 "$tmp"
pin=/sys/fs/bpf/dard-notifytest
cleanup() {
	bg_kill
	echo "$passed $failed" >"$DARD_NOTIFY_OUT/counts"
	rm -rf "$tmp"
}
passed=0 failed=0
trap cleanup EXIT
# pid 1 of a PID namespace takes no signal it does not handle.
trap 'exit 143' TERM INT HUP
suite=notify.sh
source "$top/tests/lib.sh"
# The bpffs of our own, gone with the mount namespace: the pins, the
# datapath's link and so its sock_ops hook with it.
mount -t bpf bpf /sys/fs/bpf || exit 1
is "a private bpffs on /sys/fs/bpf" "$(stat -f -c %T /sys/fs/bpf)" "bpf_fs"
# A /run of our own: dardd's control socket and lock go with it.
mount -t tmpfs -o mode=0755 notify /run || exit 1

# caps UNIT: the unit's CapabilityBoundingSet as setpriv writes it
# (+bpf,+perfmon,...), empty for none.
caps() {
	sed -n 's/^CapabilityBoundingSet=//p' "$top/systemd/$1" |
		tr ' ' '\n' | sed -n 's/^CAP_\(.*\)/+\L\1/p' | paste -sd,
}
# Daemons run as root with only a unit's capabilities: setpriv
# --bounding-set, itself and not in a function, so that $! is theirs.

# listen ARGS...: a fresh fake systemd, sdnotify.py ARGS, its log in
# $tmp/notify.log.
listen() {
	[[ -n ${lpid:-} ]] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
	python3 "$top/tests/root/sdnotify.py" "$tmp/notify.sock" "$@" \
		>"$tmp/notify.log" &
	lpid=$!
	bg_pids+=("$lpid")
	within 20 grep -q listening "$tmp/notify.log" && return 0
	echo "FAIL sdnotify.py never listened"
	exit 1
}

# await PATTERN: until the fake systemd heard a line matching it (30 s).
await() { within 30 grep -qE "$1" "$tmp/notify.log"; }
# pings N: it heard N WATCHDOG=1 after READY=1, or more.
pings() {
	[[ $(awk '/^[0-9]+ READY=1/ { r = 1 } r && /^[0-9]+ WATCHDOG=1$/ { n++ }
		END { print n + 0 }' "$tmp/notify.log") -ge $1 ]]
}

# start NAME CAPS CMD...: CMD with CAPS under the fake systemd; pid in $dpid.
start() {
	local name=$1 c=$2
	shift 2
	NOTIFY_SOCKET=$tmp/notify.sock WATCHDOG_USEC=400000 \
		setpriv --bounding-set "-all${c:+,$c}" "$@" 2>"$tmp/$name.log" &
	dpid=$!
	bg_pids+=("$dpid")
}

# ready NAME STATUS BOUND...: what the fake systemd heard from the
# daemon started last: READY=1 with STATUS, and each BOUND line ("bound
# unix PATH yes") true at that moment. 1 if READY never came.
ready() {
	local name=$1 status=$2 b
	shift 2
	if ! await "READY=1"; then
		is "$name: READY=1" "$(cat "$tmp/notify.log" "$tmp/$name.log")" \
			"READY=1"
		return 1
	fi
	has "$name: READY=1 with its status" "$(cat "$tmp/notify.log")" \
		"^[0-9]+ READY=1 STATUS=$status$"
	for b in "$@"; do
		has "$name: $b at READY" "$(cat "$tmp/notify.log")" "^$b yes$"
	done
}

# stopped NAME: the first message READY=1, no WATCHDOG=1 before it and
# 3 after it (awaited, bounded), their gaps as the receiver saw them
# printed; then SIGTERM, STOPPING=1 and exit 0.
stopped() {
	local name=$1 gaps msgs
	t "$name: 3 WATCHDOG=1 after READY=1 (bounded)" within 30 pings 3
	msgs=$(awk '/^[0-9]+ / { print $2 }' "$tmp/notify.log")
	is "$name: READY=1 first" "$(head -1 <<<"$msgs")" READY=1
	is "$name: no WATCHDOG=1 before it" \
		"$(sed '/^READY=1$/,$d' <<<"$msgs" | grep -c WATCHDOG)" 0
	gaps=$(awk '/^[0-9]+ (READY|WATCHDOG)=1/ { if (n++) printf " %d", $1 - t; t = $1 }' \
		"$tmp/notify.log")
	echo "     $name: ms between READY=1 and each ping, as heard:$gaps"
	kill -TERM "$dpid"
	wait "$dpid"
	is "$name: SIGTERM: exit 0" "$?" 0
	is "$name: STOPPING=1 last" \
		"$(tail -1 "$tmp/notify.log" | cut -d' ' -f2-)" "STOPPING=1"
}

# unneeded NAME UNIT CMD...: CMD with UNIT's set less each member in
# turn must not start (exit 1): every capability the unit grants is used.
unneeded() {
	local name=$1 all c rest
	all=$(caps "$2")
	shift 2
	for c in ${all//,/ }; do
		rest=$(tr ',' '\n' <<<"$all" | grep -vx -- "$c" | paste -sd,)
		ok "$name: ${c#+} is needed" 1 timeout 30 \
			setpriv --bounding-set "-all${rest:+,$rest}" "$@"
	done
}

ip link set lo up
ip addr add 172.24.0.21/32 dev lo
ip addr add 172.24.0.1/32 dev lo
for i in 1 2 3 4; do
	ip link add "p$i" type veth peer name "q$i"
	ip link set "p$i" up
	ip link set "q$i" up
done
"$bin/dardctl" -t fattree:4 topo gen >"$tmp/f4.conf" || exit 1
export DARD_CONFIG=$tmp/f4.conf DARD_KEY=$tmp/dard.key
"$bin/dardctl" key gen "$DARD_KEY" >/dev/null || exit 1

# The datapath on lo, attached here with its sock_ops program in the
# scratch cgroup (not the cgroup2 root, where dardd would put it): the
# dardd runs below open it.
if [[ -n $DARD_NOTIFY_CGROUP ]]; then
	ok "the datapath attached, sock_ops in the scratch cgroup" 0 \
		"$bin/dardctl" --pin "$pin" dp attach lo host e1_1 cgroup \
		"$DARD_NOTIFY_CGROUP"
	links | awk -v c="$(stat -c %i "$DARD_NOTIFY_CGROUP")" '$2 == c' \
		>"$DARD_NOTIFY_OUT/ours"
	has "its link is on the scratch cgroup" "$(cat "$DARD_NOTIFY_OUT/ours")" \
		"^[0-9]+ [0-9]+ cgroup_sock_ops$"
else
	echo "     no cgroup2 mount: no sock_ops program at all"
	: >"$DARD_NOTIFY_OUT/ours"
fi

# dard-controller, as dard-controller.service runs it: no capability.
cctl=(-l 127.0.0.1 -s "$tmp/c.sock" -i 0.2 -Q 0.2)
ccaps=$(caps dard-controller.service)
is "dard-controller.service: no capability" "$ccaps" ""
listen --unix "$tmp/c.sock" --udp 7472
start controller "$ccaps" "$bin/dard-controller" "${cctl[@]}"
ready controller "sdn-greedy_on_fattree:4" "bound unix $tmp/c.sock" \
	"bound udp 7472" && stopped controller

# dardd, as dardd@e1_1.service runs it. The capabilities first, each
# on a datapath of its own that it never makes.
dcaps=$(caps dardd@.service)
is "dardd@.service: its capabilities" "$dcaps" "+bpf,+perfmon,+net_admin"
unneeded dardd dardd@.service "$bin/dardd" -i lo --pin "$pin-x" e1_1
has "dardd: a missing capability is named as denied" "$err" \
	"Unable to attach the datapath to lo: (Permission denied|Operation not permitted)"
dsock=/run/dard/dardd/net-$(stat -L -c %i /proc/self/ns/net).sock
listen --unix "$dsock"
start dardd "$dcaps" "$bin/dardd" -i lo --pin "$pin" e1_1
if ready dardd "e1_1:_datapath_on_lo" "bound unix $dsock"; then
	ok "dardd: dardctl stats at READY" 0 "$bin/dardctl" stats
	stopped dardd
fi

# dard-switchd, as dard-switchd@core1.service runs it.
scaps=$(caps dard-switchd@.service)
is "dard-switchd@.service: its capabilities" "$scaps" \
	"+bpf,+perfmon,+net_admin,+net_raw"
unneeded dard-switchd dard-switchd@.service "$bin/dard-switchd" core1
listen --udp 7471
# It answers after a window's counting, which its status tells.
start switchd "$scaps" "$bin/dard-switchd" -w 0.5 core1
if ready switchd "core1:_4_ports_on_172.24.0.1:7471,_counting_elephants_for_0.5_s_before_answering" \
	"bound udp 7471"; then
	await "STATUS=core1:_4_ports,_answering$"
	has "switchd: answering after 500 ms" "$(cat "$tmp/notify.log")" \
		"^[0-9]+ STATUS=core1:_4_ports,_answering$"
	ok "switchd: a query answered then" 0 "$bin/dardctl" switch query \
		core1 port 1 at 172.24.0.1 timeout 10000
	stopped switchd
fi

# By hand: no $NOTIFY_SOCKET, nothing sent, each serves and stops the
# same.
listen
setpriv --bounding-set -all "$bin/dard-controller" "${cctl[@]}" \
	2>"$tmp/c2.log" &
dpid=$!
bg_pids+=("$dpid")
within 30 test -S "$tmp/c.sock"
ok "by hand: controller stats" 0 "$bin/dardctl" controller stats socket \
	"$tmp/c.sock"
kill -TERM "$dpid"
wait "$dpid"
is "by hand: controller exit 0" "$?" 0
setpriv --bounding-set "-all,$dcaps" "$bin/dardd" -i lo --pin "$pin" e1_1 \
	2>"$tmp/d2.log" &
dpid=$!
bg_pids+=("$dpid")
serves() { "$bin/dardctl" stats >/dev/null 2>&1; }
within 30 serves
ok "by hand: dardd stats" 0 "$bin/dardctl" stats
kill -TERM "$dpid"
wait "$dpid"
is "by hand: dardd exit 0" "$?" 0
is "by hand: the fake systemd heard nothing" "$(cat "$tmp/notify.log")" \
	"listening"
is "by hand: no word of systemd" \
	"$(cat "$tmp/c2.log" "$tmp/d2.log" | grep -ci systemd)" 0

# $NOTIFY_SOCKET names nothing: a warning naming it, and it serves.
NOTIFY_SOCKET=$tmp/gone WATCHDOG_USEC=400000 setpriv --bounding-set -all \
	"$bin/dard-controller" "${cctl[@]}" 2>"$tmp/c3.log" &
dpid=$!
bg_pids+=("$dpid")
within 30 test -S "$tmp/c.sock"
ok "no fake systemd: controller stats" 0 "$bin/dardctl" controller stats \
	socket "$tmp/c.sock"
kill -TERM "$dpid"
wait "$dpid"
is "no fake systemd: exit 0" "$?" 0
has "no fake systemd: warned, naming the socket" "$(cat "$tmp/c3.log")" \
	"warning: Unable to notify systemd at \`$tmp/gone'"

# The system calls: each daemon from start to SIGTERM under strace, its
# sockets asked, every call in its unit's SystemCallFilter=
# (syscalls.py); seccomp would refuse any other under systemd.
# traced NAME UNIT SERVING ASK CMD...: ASK (a command) must succeed
# once the fake systemd heard SERVING (a pattern).
traced() {
	local name=$1 unit=$2 serving=$3 ask=$4 spid
	shift 4
	listen
	strace -f -qq -o "$tmp/$name.strace" "$@" 2>"$tmp/$name.st.log" &
	spid=$!
	bg_pids+=("$spid")
	t "$name: under strace, serving (bounded)" await "$serving"
	# shellcheck disable=SC2086 # word splitting intended
	ok "$name: asked under strace" 0 $ask
	# The daemon is strace's child: by its parent's pid, nothing else.
	pkill -TERM -P "$spid"
	wait "$spid"
	ok "$name: every system call in $unit's filter" 0 python3 \
		"$top/tests/cli/syscalls.py" "$top/systemd/$unit" \
		"$tmp/$name.strace"
	echo "     $out"
}
if command -v strace >/dev/null; then
	export NOTIFY_SOCKET=$tmp/notify.sock WATCHDOG_USEC=400000
	traced controller dard-controller.service "READY=1" \
		"$bin/dardctl controller stats socket $tmp/c.sock" \
		"$bin/dard-controller" "${cctl[@]}" -a oblivious
	traced dardd dardd@.service "READY=1" "$bin/dardctl stats" \
		"$bin/dardd" -i lo --pin "$pin" e1_1
	# It answers once its window's counting is done, as its status says.
	traced switchd dard-switchd@.service "STATUS=core1:_4_ports,_answering$" \
		"$bin/dardctl switch query core1 at 172.24.0.1 timeout 10000" \
		"$bin/dard-switchd" -w 0.3 core1
	unset NOTIFY_SOCKET WATCHDOG_USEC
else
	echo "skip the system calls: no strace"
fi

# The outer part prints the summary line, with its own checks.
exit 0
