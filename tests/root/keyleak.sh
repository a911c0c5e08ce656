#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# No key material in any message, log or core dump (issue 30). Each
# daemon (dardd, dard-switchd, dard-controller) and dardctl's key and
# switch commands are given key files that fail to parse in the ways
# that used to echo a line (a bare key, the columns swapped, a bad id
# before good hex, two keys on a line, ...) and must refuse each without
# a run of 16 of the key's hex digits in what they print (stderr is what
# the journal keeps). Then each daemon runs with the good key, serves,
# is asked once (so the key was used), and is killed with SIGABRT: its
# core dump must hold neither 16 of the key's hex digits in a row (either
# case) nor 16 of its raw bytes. A process that holds the key's text and
# bytes is dumped the same way first: the check finds them there, so it
# can fail. Root only.
#
# As notify.sh, it runs itself in private network, mount and PID
# namespaces (unshare -n -m -p --kill-child) with a bpffs of its own,
# dardd's datapath attached first with its sock_ops program in a scratch
# cgroup; no traffic is sent. The outer part points the kernel's
# core_pattern at a directory of its own when it is not a plain name
# (the crashing process's working directory), and puts it back.
#
#   private netns, mount ns (bpffs on /sys/fs/bpf), pid ns
#   +----------------------------------------------------------------+
#   | lo 127.0.0.1: dard-controller -l 127.0.0.1, $tmp/c.sock        |
#   |    172.24.0.21: dardd e1_1 -i lo (BPF datapath on lo)          |
#   |    172.24.0.1: dard-switchd core1, ports p1..p4 (veth to q1..q4)|
#   | $tmp/cores/NAME: each one's working directory and its core      |
#   +----------------------------------------------------------------+

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
# Absolute: each daemon runs in a directory of its own (for its core).
bin=$(cd "$bin" && pwd)
suite=keyleak.sh

if [[ -z ${DARD_KEYLEAK_NS:-} ]]; then
	source "$top/tests/lib.sh"
	need_root
	for c in unshare python3 bpftool prlimit; do
		command -v "$c" >/dev/null && continue
		echo "$c is missing"
		fail "$c"
		summary
		exit
	done
	tmp=$(mktemp -d /tmp/dard-keyleak-XXXXXX)
	chmod 755 "$tmp"
	cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	cg=${cg2:+$cg2/dard-keyleak-$$}
	pattern=/proc/sys/kernel/core_pattern
	old_pattern=$(cat "$pattern")
	upid=
	gone() { [[ -z $cg || ! -d $cg ]] || rmdir "$cg" 2>/dev/null; }
	outer_cleanup() {
		if [[ -n $upid ]]; then
			kill -KILL "$upid" 2>/dev/null
			wait "$upid" 2>/dev/null
		fi
		[[ $(cat "$pattern") == "$old_pattern" ]] ||
			echo "$old_pattern" >"$pattern"
		within 30 gone || echo "keyleak.sh: $cg left behind"
		rm -rf "$tmp"
	}
	trap outer_cleanup EXIT
	trap 'exit 143' TERM INT HUP
	[[ -n $cg ]] && mkdir "$cg"
	# A plain name is written in the crashing process's directory; any
	# other pattern (a pipe to systemd-coredump, a path) is replaced
	# while the test runs.
	if [[ ! $old_pattern =~ ^[A-Za-z0-9._%-]+$ ]]; then
		echo "     core_pattern \`$old_pattern' set to $tmp/cores/%e.core for the test"
		echo "$tmp/cores/%e.core" >"$pattern" || exit 1
		DARD_KEYLEAK_FLAT=1
	fi
	DARD_KEYLEAK_NS=1 DARD_KEYLEAK_CGROUP=$cg DARD_KEYLEAK_OUT=$tmp \
		DARD_KEYLEAK_FLAT=${DARD_KEYLEAK_FLAT:-} timeout -k 5 300 \
		unshare -n -m -p --mount-proc --kill-child "$0" "$@" &
	upid=$!
	wait "$upid"
	rc=$?
	upid=
	read -r passed failed <"$tmp/counts" 2>/dev/null ||
		{ failed=1 && echo "FAIL the namespaced run (exit $rc) counted nothing"; }
	summary
	exit
fi

# The namespaced part: pid 1 of its PID namespace.
base=$DARD_KEYLEAK_OUT
tmp=$base/ns
mkdir -p "$tmp" "$base/cores"
pin=/sys/fs/bpf/dard-keyleak
cleanup() {
	bg_kill KILL
	echo "$passed $failed" >"$base/counts"
}
passed=0 failed=0
trap cleanup EXIT
trap 'exit 143' TERM INT HUP
source "$top/tests/lib.sh"
mount -t bpf bpf /sys/fs/bpf || exit 1
mount -t tmpfs -o mode=0755 keyleak /run || exit 1

ip link set lo up
ip addr add 172.24.0.21/32 dev lo
ip addr add 172.24.0.1/32 dev lo
for i in 1 2 3 4; do
	ip link add "p$i" type veth peer name "q$i"
	ip link set "p$i" up
	ip link set "q$i" up
done
"$bin/dardctl" -t fattree:4 topo gen >"$tmp/f4.conf" || exit 1
export DARD_CONFIG=$tmp/f4.conf
unset DARD_KEY
good=$tmp/good.key
"$bin/dardctl" key gen "$good" >/dev/null || exit 1
hex=$(awk '!/^#/ { print $2; exit }' "$good")
[[ $hex =~ ^[0-9a-f]{64}$ ]] || { echo "FAIL no key in $good"; exit 1; }
# Every run of 16 of the key's hex digits: what a message must not show.
for ((i = 0; i + 16 <= 64; i++)); do echo "${hex:i:16}"; done >"$tmp/windows"

# The key files that must be refused: the lines whose words the old
# messages quoted (a bare key, swapped, joined, two on a line, a bare
# second line), bad ids and digits before good hex, and a good file
# others may read. bad NAME TEXT: $tmp/NAME.key, mode 0600, holding TEXT.
bad_keys=()
bad() {
	printf '%s\n' "$2" >"$tmp/$1.key"
	chmod 600 "$tmp/$1.key"
	bad_keys+=("$1")
}
bad bare "$hex"
bad badid "x7 $hex"
bad zeroid "0 $hex"
bad swapped "$hex 1"
bad twokeys "1 $hex $hex"
bad joined "1:$hex"
bad second "1 $hex
$hex"
bad nothex "1 ${hex:0:63}g"
bad long "1 ${hex}0"
bad third "1 $hex 2 $hex"
cp "$good" "$tmp/open.key"
chmod 644 "$tmp/open.key"
bad_keys+=(open)

# quiet NAME FILE: FILE holds no 16 of the key's hex digits in a row.
quiet() {
	local hits
	hits=$(grep -ciF -f "$tmp/windows" "$2")
	is "$1: no key digits in what it printed" "$hits" 0 ||
		sed 's/^/     /' "$2"
}

# refuses NAME CMD...: CMD (with -k FILE after it) exits 1 on each bad
# file, and prints nothing of the key.
refuses() {
	local name=$1 k rc
	shift
	for k in "${bad_keys[@]}"; do
		timeout 30 "$@" -k "$tmp/$k.key" >"$tmp/$name.$k.log" 2>&1
		rc=$?
		is "$name refuses $k.key" "$rc" 1
		quiet "$name, $k.key" "$tmp/$name.$k.log"
	done
}

# The datapath on lo, its sock_ops program in the scratch cgroup.
cg=$DARD_KEYLEAK_CGROUP
if [[ -n $cg ]]; then
	t "the datapath attached, sock_ops in the scratch cgroup" \
		"$bin/dardctl" --pin "$pin" dp attach lo host e1_1 cgroup "$cg" ||
		exit 1
fi

# Refusals. dardctl's key commands name the file last.
for k in "${bad_keys[@]}"; do
	for c in rotate promote; do
		ok "dardctl key $c refuses $k.key" 1 "$bin/dardctl" key $c \
			"$tmp/$k.key"
		printf '%s\n%s\n' "$out" "$err" >"$tmp/ctl.$c.$k.log"
		quiet "dardctl key $c, $k.key" "$tmp/ctl.$c.$k.log"
	done
	ok "dardctl switch query refuses $k.key" 1 "$bin/dardctl" -k \
		"$tmp/$k.key" switch query core1 at 172.24.0.1 timeout 1000
	printf '%s\n%s\n' "$out" "$err" >"$tmp/ctl.query.$k.log"
	quiet "dardctl switch query, $k.key" "$tmp/ctl.query.$k.log"
done
has "a bare key is named by its length" \
	"$(cat "$tmp/ctl.rotate.bare.log")" \
	"bare.key:1: one word, of 64 characters, is not \`ID HEX'"
cctl=(-l 127.0.0.1 -s "$tmp/c.sock" -i 0.2 -Q 0.2)
refuses dard-controller "$bin/dard-controller" "${cctl[@]}"
refuses dard-switchd "$bin/dard-switchd" -w 0.3 core1
[[ -n $cg ]] && refuses dardd "$bin/dardd" -i lo --pin "$pin" e1_1
has "dard-controller names the file and line" \
	"$(cat "$tmp/dard-controller.swapped.log")" \
	"swapped.key:1: the key id, of 64 characters, is not a number"

# leaks NAME CORE: the count of 16 hex digits in a row (either case)
# and of 16 raw bytes in a row of the key in CORE, as "HEX RAW".
leaks() {
	python3 - "$hex" "$1" <<'EOF'
import sys
key, data = sys.argv[1], open(sys.argv[2], "rb").read()
raw = bytes.fromhex(key)
low = data.lower()
h = sum(low.count(key[i:i + 16].encode()) for i in range(0, 49))
r = sum(data.count(raw[i:i + 16]) for i in range(0, 17))
print(h, r)
EOF
}
# dumped NAME PID [self]: sends PID SIGABRT (unless it sends its own)
# and waits for its end and its core, in $core; 1 if none came.
dumped() {
	local dir=$base/cores/$1
	[[ -n ${3:-} ]] || kill -ABRT "$2"
	wait "$2" 2>/dev/null # bash's job line: the check says it
	# 128 + SIGABRT; the kernel wrote the core before the parent heard.
	is "$1: ended by SIGABRT" "$?" 134 || return 1
	[[ -n $DARD_KEYLEAK_FLAT ]] && dir=$base/cores
	core=$(ls -t "$dir"/*core* 2>/dev/null | head -1)
	t "$1: its core dumped" test -s "$core" || return 1
	echo "     $1: core of $(stat -c %s "$core") bytes"
	# A pattern of its own names them by program: set this one aside.
	[[ -z $DARD_KEYLEAK_FLAT ]] || mv "$core" "$dir/$1.dumped"
	[[ -z $DARD_KEYLEAK_FLAT ]] || core=$dir/$1.dumped
}
# run NAME CMD...: CMD in its own directory, cores unlimited; $dpid.
# An ASan build (make test-san) dumps none unless told, and then leaves
# its shadow out (use_madv_dontdump).
run() {
	local name=$1
	shift
	mkdir -p "$base/cores/$name"
	(cd "$base/cores/$name" &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}disable_coredump=0 \
		exec prlimit --core=unlimited "$@") >"$tmp/$name.good.log" 2>&1 &
	dpid=$!
	bg_pids+=("$dpid")
}

# The check can fail: a process holding the key's text and bytes.
run holder python3 -c '
import os, signal, sys
text = open(sys.argv[1]).read()
raw = bytes.fromhex(text.split("\n")[2].split()[1])
os.kill(os.getpid(), signal.SIGABRT)' "$good"
if dumped holder "$dpid" self; then
	read -r h r < <(leaks "$core")
	t "a holder's core shows the key's hex ($h) and bytes ($r)" \
		test "$h" -gt 0 -a "$r" -gt 0
fi

# dumps NAME: NAME's core shows nothing of the key, nor its log.
dumps() {
	if dumped "$1" "$dpid"; then
		read -r h r < <(leaks "$core")
		is "$1: no key digits in its core" "$h" 0
		is "$1: no key bytes in its core" "$r" 0
	fi
	quiet "$1 with the good key" "$tmp/$1.good.log"
}
run dard-controller "$bin/dard-controller" "${cctl[@]}" -k "$good"
serves() { "$bin/dardctl" controller stats socket "$tmp/c.sock" >/dev/null 2>&1; }
t "dard-controller serves (bounded)" within 30 serves && dumps dard-controller
run dard-switchd "$bin/dard-switchd" -w 0.3 -k "$good" core1
answers() {
	"$bin/dardctl" -k "$good" switch query core1 at 172.24.0.1 \
		timeout 1000 >/dev/null 2>&1
}
t "dard-switchd answers a query (bounded)" within 30 answers &&
	dumps dard-switchd
if [[ -n $cg ]]; then
	run dardd "$bin/dardd" -i lo --pin "$pin" -k "$good" e1_1
	stats() { "$bin/dardctl" stats >/dev/null 2>&1; }
	t "dardd serves (bounded)" within 30 stats && dumps dardd
else
	echo "     no cgroup2 mount: dardd not run"
fi
# The outer part prints the summary line.
exit 0
