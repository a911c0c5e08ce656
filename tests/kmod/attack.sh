#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The kernel module's half of issue 30's attacks, inside the qemu guest of
# tests/kmod/run. test.sh sources it and runs both parts in its sequence;
# `tests/kmod/run -s attack' runs it alone (its own testbed, about a
# third of test.sh's time). Each check prints what it tried.
#
#   privilege: dard.ko installed under /lib/modules/KVER, depmod run;
#     not loaded:  uid 65534 in user+net namespaces of its own:
#                    ip link add d0 type dard     -> refused, nothing loaded
#                  uid 65534: genl ctrl get name dard -> nothing loaded
#                  root: ip link add type dard -> nothing loaded (no alias)
#                  root: modprobe dard          -> loaded
#     loaded:      uid 65534 in its own namespaces: ip link add -> EPERM
#                  root makes d0 in that user's network namespace; the
#                  user's namespace root may read it, not change it
#
#   mark:   e1_1 (kmod)  ---- fabric ---->  e1_2 (rawip -l: outer DSCPs)
#     raw IP-in-IP, DSCP 8 (a forged elephant)      -> arrives, DSCP 0
#     ping -Q 32 beside dard0 (the mark, not IPIP)  -> mark_cleared
#     dard0's own elephant                          -> arrives, DSCP 8

# nobody CMD...: CMD as uid and gid 65534, no groups, no capabilities.
nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
loaded() { test -e /sys/module/dard; }
unloaded() { ! loaded; }
# refused WHAT CMD...: CMD fails (its output shown); false if it worked.
refused() {
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	echo "  -> exit $rc: ${out:-no output}"
	((rc != 0))
}
# refused_perm CMD...: CMD fails for want of CAP_NET_ADMIN, as the
# module says, not for the tools that set it up (setpriv, unshare).
refused_perm() {
	local out
	out=$("$@" 2>&1) && { echo "  -> it worked: $out"; return 1; }
	echo "  -> ${out:-no output}"
	grep -q 'CAP_NET_ADMIN over the init user ns' <<<"$out"
}
# as_userns_root PID CMD...: CMD as the root of PID's user namespace (uid
# 65534 outside, which owns it), in PID's network namespace. Its uid is
# kept: the namespace maps only 65534 and denies setgroups.
as_userns_root() {
	local pid=$1
	shift
	nobody nsenter --preserve-credentials -t "$pid" -U -n "$@"
}
# own_netns PID: whether PID has user and network namespaces not ours.
own_netns() {
	[[ $(readlink "/proc/$1/ns/net") != "$(readlink /proc/self/ns/net)" &&
		$(readlink "/proc/$1/ns/user") != "$(readlink /proc/self/ns/user)" ]]
}

privilege_test() {
	local pid alias
	t "priv: dard.ko is not loaded" unloaded
	t "priv: depmod -a finds the installed dard.ko" \
		bash -c "depmod -a && modprobe -D dard | grep -q dard.ko"
	alias=$(awk '$3 == "dard" { print $2 }' "/lib/modules/$kver/modules.alias" | xargs)
	echo "priv: dard's module aliases: ${alias:-none}"
	t "priv: dard.ko has no module alias (nothing autoloads it)" test -z "$alias"
	t "priv: uid 65534 may make user namespaces" nobody unshare -Urn true
	t "priv: uid 65534 in namespaces of its own: ip link add d0 type dard refused" \
		refused nobody unshare -Urn ip link add d0 type dard
	t "priv: and that loaded no module" unloaded
	t "priv: uid 65534 asks generic netlink for the family dard: none" \
		refused nobody genl ctrl get name dard
	t "priv: and that loaded no module" unloaded
	t "priv: root's ip link add type dard without modprobe: unknown kind" \
		refused ip link add dard-probe type dard
	t "priv: and that loaded no module" unloaded
	ip link del dard-probe 2>/dev/null
	t "priv: root: modprobe dard" bounded modprobe dard
	t "priv: it is loaded" loaded
	t "priv: root: ip link add dard-probe type dard" ip link add dard-probe type dard
	ip link del dard-probe 2>/dev/null
	t "priv: loaded, uid 65534 in namespaces of its own: ip link add refused (EPERM)" \
		refused_perm nobody unshare -Urn ip link add d0 type dard
	# A device in a network namespace that a user's namespace owns;
	# setpriv, unshare and sleep exec each other: $! is the sleep.
	setpriv --reuid 65534 --regid 65534 --clear-groups unshare -Urn sleep 600 &
	pid=$!
	if t "priv: uid 65534 holds user+net namespaces of its own" \
		within 30 own_netns $pid; then
		t "priv: root makes d0 in that network namespace" \
			nsenter -t $pid -n ip link add d0 type dard
		# nlfuzz -p: GET_DEVICE must answer; exit 0 if SET_DEVICE
		# (changing nothing) is refused with EPERM, 3 if accepted.
		t "priv: the user's namespace root reads d0 but may not change it (EPERM)" \
			as_userns_root $pid "$nlfuzz" -p d0
		ok "priv: root's same SET_DEVICE on d0 is accepted" 3 \
			nsenter -t $pid -n "$nlfuzz" -p d0
		cat "$tmp/out"
	fi
	kill $pid
	wait $pid 2>/dev/null
	t "priv: rmmod dard" bounded rmmod dard
	t "priv: unloaded" unloaded
}

# The fabric's view of an outer DSCP: rawip -l on $h2 counts what comes.
# listen_on HOST FILE COUNT [ -s SRC ]: starts the listener, in the
# background (its pid in $lpid), and waits until it listens.
listen_on() {
	local h=$1 f=$2 n=$3
	shift 3
	: >"$f"
	on_bg "$h" "$rawip" -l "$@" "$n" 60 >"$f" 2>&1 &
	lpid=$!
	within 30 grep -q listening "$f"
}
# dscp_count FILE D: how many packets the listener saw with DSCP D.
dscp_count() { awk -v d="$2" '$1 == "dscp" && $2 == d { n = $3 } END { print n + 0 }' "$1"; }

mark_test() {
	local pair m0 m1 ipid own
	[[ -n $kdp ]] || { fail "mark: no kmod datapath attached"; return; }
	read -ra pair <<<"$(pair_of $h1 $h2 1)"
	m0=$(dp_stat $h1 mark_cleared)
	t "mark: $h2 listens for IP-in-IP from ${pair[0]}" \
		listen_on $h2 "$tmp/forged" 20 -s "${pair[0]}"
	t "mark: $h1 forges 20 elephants: raw IP-in-IP ${pair[0]} -> ${pair[1]}, DSCP 8" \
		on $h1 "$rawip" -d 8 "${pair[0]}" "${pair[1]}" $id1 $id2 20
	wait $lpid
	cat "$tmp/forged"
	t "mark: all 20 arrived, none with DSCP 8 (only the DSCP changed)" \
		test "$(dscp_count "$tmp/forged" 0)" -eq 20
	t "mark: $h1's mark_cleared counted them" dp_grew $h1 mark_cleared "$m0" 20
	m1=$(dp_stat $h1 mark_cleared)
	t "mark: ping -Q 32 (DSCP 8) alias to alias, beside dard0" \
		on $h1 ping -Q 32 -c 5 -i 0.2 -W 10 -q -I "${pair[0]}" "${pair[1]}"
	t "mark: its 5 requests left with the mark cleared" dp_grew $h1 mark_cleared "$m1" 5
	# dard0's own elephant keeps its mark, and is never counted.
	m0=$(dp_stat $h1 mark_cleared)
	on_bg $h1 iperf3 -c $id2 -B $id1 --cport 45201 -b 20M -t 3600 >/dev/null 2>&1 &
	ipid=$!
	t "mark: dard0's transfer from port 45201 became an elephant" \
		within 120 elephant $h1 45201
	t "mark: $h2 listens to it" listen_on $h2 "$tmp/own" 50
	wait $lpid
	cat "$tmp/own"
	own=$(dscp_count "$tmp/own" 8)
	t "mark: dard0's elephant reached $h2 with DSCP 8 ($own of 50)" test "$own" -ge 45
	t "mark: and none of it was cleared" dp_is $h1 mark_cleared "$m0"
	# As ^C: the client tells the server, which then takes the next test.
	stop_prog $h1 iperf3 INT
	wait $ipid 2>/dev/null
}

[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0

# Alone: the testbed, the module by modprobe, kmod on both hosts.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
suite=kmod-attack
source tests/kmod/lib.sh
tmp=$(mktemp -d)
kdp=""
trap '"$testbed" down --prefix "$prefix" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
privilege_test
t "testbed $topo up without a datapath" testbed_up
id1=$(id_of $h1) id2=$(id_of $h2)
on $h2 iperf3 -s -D -B $id2
t "iperf3 listens on $h2" within 60 listening $h2 5201
t "modprobe dard" bounded modprobe dard
if attach kmod $h1 elephant-age 1 && attach kmod $h2 elephant-age 1; then
	kdp=1
	pass "kmod: attach on $h1 and $h2"
else
	fail "kmod: attach on $h1 and $h2"
fi
mark_test
summary
