#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Run on a node by scripts/experiment's remote mode (never alone): leaves
# the node's dardd in mode $w (fast, paper; none: stopped; restore: as it
# was before the first change, whose command line is kept in $s). The
# caller sets, before this text: w, f (the fabric interface), h (the
# host's name), l (the log of a dardd started here), s (the state
# file) and b (the seconds a stopped dardd has to exit).
#
# The node's dardd is the one in this shell's network namespace (a
# cluster of namespaces on one machine shares one process table) whose
# command line has -i $f, or the only one there if it names no
# interface: the deployment's, with its configuration, keys and pin
# file, so a replacement is that command line with -M MODE for its
# -M/--sched-mode. After a start this waits, bounded (10 s), for exactly
# one such dardd in the mode. Exit 3: not done, the reason on stderr.
n=$(readlink /proc/$$/ns/net)
argv() { tr '\0' '\n' </proc/$1/cmdline 2>/dev/null; }
# Alive: its status read, in one go, says neither zombie nor dead (a
# test of /proc/PID first and of its State after could see it reaped
# between the two, and call it alive).
live() { grep -q '^State:[[:space:]]*[^ZX[:space:]]' /proc/$1/status 2>/dev/null; }
ours() { argv $1 | awk -v f="$f" '(p == "-i" || p == "--interface") && $0 == f || $0 == "-i" f || $0 == "--interface=" f { m = 1 } { p = $0 } END { exit !m }'; }
mode() { argv $1 | awk '(p == "-M" || p == "--sched-mode") && $0 == "paper" || $0 == "-Mpaper" || $0 == "--sched-mode=paper" { m = 1 } { p = $0 } END { print m ? "paper" : "fast" }'; }
noif() { argv $1 | awk '/^-i/ || /^--interface/ { m = 1 } END { exit m }'; }
here() { [ "$(readlink /proc/$1/ns/net 2>/dev/null)" = "$n" ]; }
pick() { t=; k=0; a=; for p in $(pgrep -x dardd); do here $p && a="$a $p"; done; for p in $a; do ours $p && { t=$p; k=$((k + 1)); }; done; [ $k -eq 0 ] && [ $(echo $a | wc -w) -eq 1 ] && noif $a && { t=$a; k=1; }; }
pick
[ $k -le 1 ] || { echo "$k dardd on $f" >&2; exit 3; }
m=none; [ -n "$t" ] && m=$(mode $t)
if [ $w = restore ]; then [ -e "$s" ] || exit 0; elif [ $m = $w ]; then exit 0; fi
if [ $w != restore ] && [ ! -e "$s" ]; then : >"$s"; [ -n "$t" ] && argv $t >"$s"; fi
o=$t
if [ -n "$o" ]; then kill $o; i=0; while live $o && [ $i -lt $((b * 10)) ]; do sleep 0.1; i=$((i + 1)); done; fi
[ -n "$o" ] && live $o && { echo "dardd $o did not stop" >&2; exit 3; }
case $w in
none) exit 0 ;;
restore) [ -s "$s" ] || { rm -f "$s" "$s.new"; exit 0; }; cp "$s" "$s.new" ;;
*) if [ -s "$s" ]; then awk -v w="$w" 'NR == 1 { print; print "-M"; print w; next } d { d = 0; next } $0 == "-M" || $0 == "--sched-mode" { d = 1; next } /^-M./ || /^--sched-mode=/ { next } { print }' "$s" >"$s.new"; else printf '%s\n' dardd -M "$w" -i "$f" "$h" >"$s.new"; fi ;;
esac
setsid xargs -a "$s.new" -d '\n' env </dev/null >>"$l" 2>&1 &
i=0
while [ $i -lt 100 ]; do pick; [ $k -eq 1 ] && [ "$t" != "$o" ] && { [ $w = restore ] || [ "$(mode $t)" = $w ]; } && break; sleep 0.1; i=$((i + 1)); done
[ $i -lt 100 ] || { echo "no dardd came up on $f in $w" >&2; exit 3; }
[ $w = restore ] && rm -f "$s" "$s.new"
exit 0
