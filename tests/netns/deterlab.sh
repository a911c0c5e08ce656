#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dardctl deploy deterlab: the NS file runs under tclsh against a stub of
# DeterLab's tb_compat.tcl that checks every command and counts what it
# declares; the set-up scripts are applied inside network namespaces made
# to look like freshly booted testbed PCs (interfaces with the testbed's
# addresses under names of their own), after which every path of every
# ToR pair must carry packets and IDs must reach each other.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dardctl=$top/build/bin/dardctl
prefix=dard_dl_$$
pins=/sys/fs/bpf/dard/deterlab-test/$prefix

suite=deterlab
source "$top/tests/netns/lib.sh"
tmp=$(mktemp -d)
cleanup() {
	[[ -e $tmp/ns/teardown.batch ]] &&
		ip -force -batch "$tmp/ns/teardown.batch" >/dev/null 2>&1
	rm -rf "$pins" "$tmp"
	rmdir "${pins%/*}" /sys/fs/bpf/dard 2>/dev/null
}
trap cleanup EXIT

t "deploy deterlab writes the NS file and the scripts" \
	"$dardctl" -t fattree:4 -c 100 deploy deterlab "$tmp/dl" rate 100 \
	setup-dir /proj/dard/setup
t "a set-up script per node" test "$(ls "$tmp/dl/setup"/*.sh | wc -l)" -eq 36
t "and the configuration they read" "$dardctl" -t "$tmp/dl/setup/dard.conf" topo show

# ns-2's Simulator, which the file uses before it sources tb_compat.tcl,
# and DeterLab's tb-* commands: each checks its arguments and counts.
cat >"$tmp/dl/ns2.tcl" <<'TCL'
set nodes 0; set links 0; set ips 0; set lans 0; set starts 0
proc new {cls} { if {$cls ne "Simulator"} { error "new $cls" }; return sim }
proc sim {cmd args} {
	global nodes links lans
	switch -- $cmd {
		node { if {[llength $args]} { error "node $args" }; incr nodes; return node$nodes }
		duplex-link {
			if {[llength $args] != 5} { error "duplex-link $args" }
			lassign $args a b bw delay q
			if {![regexp {^[0-9]+Mb$} $bw] || $q ne "DropTail"} { error "duplex-link $args" }
			incr links; return link$links
		}
		make-lan { if {[llength $args] != 3} { error "make-lan $args" }; incr lans; return lan$lans }
		rtproto { if {$args ne "Static"} { error "rtproto $args" } }
		run { }
		default { error "sim $cmd" }
	}
}
TCL
cat >"$tmp/dl/tb_compat.tcl" <<'TCL'
proc ip4 {a} { if {![regexp {^([0-9]+)\.([0-9]+)\.([0-9]+)\.([0-9]+)$} $a]} { error "bad address $a" } }
proc tb-set-node-os {n os} { }
proc tb-set-node-startcmd {n cmd} { global starts; incr starts }
proc tb-set-ip-link {n l a} { global ips; ip4 $a; incr ips }
proc tb-set-ip-lan {n l a} { global ips; ip4 $a; incr ips }
proc tb-set-netmask {l m} { ip4 $m }
TCL
cat >"$tmp/dl/check.tcl" <<'TCL'
cd [lindex $argv 0]
source ns2.tcl
source dard.ns
puts "$nodes $links $lans $ips $starts"
TCL
got=$(tclsh "$tmp/dl/check.tcl" "$tmp/dl" 2>&1)
echo "tclsh: nodes links lans addresses start-commands: $got"
# fattree:4: 36 nodes, 48 links, one LAN, 2 per link + 1 per node.
t "the NS file runs under tclsh and declares the whole tree" test "$got" = "36 48 1 132 36"
t "start commands point at setup-dir" grep -q 'sudo /proj/dard/setup/e1_1.sh' "$tmp/dl/dard.ns"

# PCs as the testbed boots them: interfaces named by it, with its addresses.
"$dardctl" -t "$tmp/dl/setup/dard.conf" deploy netns "$tmp/ns" prefix "$prefix" >/dev/null
fresh_pcs "$tmp/ns" || fail "making the fresh PCs"
bad=0
while read -r name kind ns; do
	DARD_BIN=$top/build/bin DARD_START=0 DARD_PIN_ROOT=$pins/$name \
		DARD_KEY=$tmp/dl/setup/dard.key \
		nsenter --net="/run/netns/$ns" "$tmp/dl/setup/$name.sh" >"$tmp/$name.log" 2>&1 ||
		{ bad=1; echo "--- $name.sh:"; tail -n 5 "$tmp/$name.log"; }
done <"$tmp/ns/nodes"
t "every set-up script ran" test $bad -eq 0
t "core1's ports are p1..p4 again" bash -c \
	"[[ \$(ip -n $prefix-core1 -o link show | grep -c ': p[1-4]@') == 4 ]]"
t "e1_1's fabric interface is dard0, with the datapath on it" bash -c \
	"tc -n $prefix-e1_1 filter show dev dard0 egress | grep -q dard_tc_egress"
t "every path of every ToR pair carries its packet" \
	"$top/build/bin/dard-pathcheck" "$tmp/dl/setup/dard.conf" "$prefix"
t "e1_1 reaches e4_1 by ID" nsenter --net="/run/netns/$prefix-e1_1" \
	ping -c 2 -W 10 -q 172.16.0.13
t "and e3_2 e2_4" nsenter --net="/run/netns/$prefix-e3_2" \
	ping -c 2 -W 10 -q 172.16.0.8

summary
