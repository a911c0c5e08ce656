#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# scripts/cluster against real sshd: every node of a fattree:4 is a
# namespace made to look like a freshly booted testbed PC (tests/netns/
# deterlab.sh's), running Debian's sshd on its management address with
# host keys, a user key and known_hosts made for this run only. The
# runner sits on the management LAN, like a DeterLab user's ops node:
#
#   runner (NAME.mgmt, 172.24.255.254)
#     |
#   br0 ======== mgmt0 of every node: sshd on 172.24.0.N:22
#     |                     |
#   core1..4  aggr*  tor*   e1_1 .. e4_4   (fabric: /31 links)
#
# A DARD run must give results.csv with scripts/experiment's header and
# a row per planned flow and leave nothing behind; a host whose sshd
# dies during the bring-up must be named, with every other node cleaned
# up; a host refusing ssh from the start fails the check by name.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dardctl=$top/build/bin/dardctl
cluster=$top/scripts/cluster
prefix=dard_cl_$$
pins=/sys/fs/bpf/dard/cluster-test/$prefix

suite=cluster
source "$top/tests/netns/lib.sh"
command -v sshd >/dev/null || PATH=$PATH:/usr/sbin
for tool in sshd ssh ssh-keygen jq; do
	command -v $tool >/dev/null && continue
	echo "cluster.sh: $tool missing: scripts/install-deps"
	echo "$suite: 0 passed, 1 failed"
	exit 1
done
tmp=$(mktemp -d /tmp/dard-cluster.XXXXXX)
made_run_sshd=""
# Every process in the test's namespaces is one this test started
# (sshd, and what the runner started through it): ended by pid.
cleanup() {
	local ns p
	if [[ -e $tmp/ns/nodes ]]; then
		for ns in $(awk '{ print $3 }' "$tmp/ns/nodes") "$prefix.mgmt"; do
			for p in $(ip netns pids "$ns" 2>/dev/null); do
				kill "$p" 2>/dev/null
			done
		done
	fi
	[[ -e $tmp/ns/teardown.batch ]] &&
		ip -force -batch "$tmp/ns/teardown.batch" >/dev/null 2>&1
	rm -rf "$pins"
	# DARD_KEEP_TMP=1 keeps the run's files (per-flow transfer JSON in
	# out/dard/json, the nodes' logs, sshd's logs) for reading.
	if [[ -n ${DARD_KEEP_TMP:-} ]]; then
		echo "cluster.sh: kept $tmp"
	else
		rm -rf "$tmp"
	fi
	rmdir "${pins%/*}" /sys/fs/bpf/dard 2>/dev/null
	[[ -n $made_run_sshd ]] && rmdir /run/sshd 2>/dev/null
}
trap cleanup EXIT

# --- the fabric and the management LAN -------------------------------------
t "deploy cluster writes a directory per node" \
	"$dardctl" -t fattree:4 deploy cluster "$tmp/dep" rate 100 || { summary; exit; }
"$dardctl" -t "$tmp/dep/e1_1/etc/dard/dard.conf" deploy netns "$tmp/ns" prefix "$prefix" >/dev/null
t "fresh PCs in namespaces" fresh_pcs "$tmp/ns" || { summary; exit; }
ip -n "$prefix.mgmt" addr add 172.24.255.254/16 dev br0
in_mgmt() { nsenter --net="/run/netns/$prefix.mgmt" "$@"; }

# --- sshd in every node -----------------------------------------------------
# Keys of this run only: a host key per node, one user key for root.
mkdir -m 0700 "$tmp/ssh"
ssh-keygen -q -t ed25519 -N '' -C dard-cluster-test -f "$tmp/ssh/id" || fail "user key"
cp "$tmp/ssh/id.pub" "$tmp/ssh/authorized_keys"
# sshd's privilege separation directory, compiled in.
[[ -d /run/sshd ]] || { mkdir -m 0755 /run/sshd && made_run_sshd=1; }
: >"$tmp/hosts"
: >"$tmp/ssh/known_hosts"
declare -A ns_of mgmt_of
while read -r name _ ns; do
	ns_of[$name]=$ns
done <"$tmp/ns/nodes"
while read -r name _ addr; do
	[[ $name == \#* ]] && continue
	mgmt_of[$name]=$addr
	ssh-keygen -q -t ed25519 -N '' -C "$name" -f "$tmp/ssh/$name.host"
	echo "$addr $(cut -d' ' -f1,2 "$tmp/ssh/$name.host.pub")" >>"$tmp/ssh/known_hosts"
	echo "$name $addr" >>"$tmp/hosts"
	# StrictModes no: the keys sit under /tmp, which others may write.
	cat >"$tmp/ssh/$name.conf" <<EOF
ListenAddress $addr:22
HostKey $tmp/ssh/$name.host
PidFile $tmp/ssh/$name.pid
AuthorizedKeysFile $tmp/ssh/authorized_keys
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
PrintMotd no
LogLevel ERROR
EOF
	nsenter --net="/run/netns/${ns_of[$name]}" /usr/sbin/sshd -D \
		-f "$tmp/ssh/$name.conf" -E "$tmp/ssh/$name.log" </dev/null &
	echo $! >"$tmp/ssh/$name.sshd"
done <"$tmp/dep/nodes"
sshd_listens() {
	local n
	for n in "${!mgmt_of[@]}"; do
		[[ -n $(nsenter --net="/run/netns/${ns_of[$n]}" ss -Htln "src ${mgmt_of[$n]} and sport = :22") ]] ||
			return 1
	done
}
t "36 sshd listen on the management LAN" within 120 sshd_listens || {
	tail -n 3 "$tmp"/ssh/*.log
	summary
	exit
}
opts=(--deploy "$tmp/dep" -i "$tmp/ssh/id" --known-hosts "$tmp/ssh/known_hosts"
	--remote-dir "$tmp/remote/%n" --pin-root "$pins/%n" -j 8 --connect-timeout 60
	--dardd-args "-Q 0.1 -S 2 -I 3" --switchd-args "--window 0.2")
t "root logs in with the run's key, host key checked" \
	in_mgmt ssh -o BatchMode=yes -o UserKnownHostsFile="$tmp/ssh/known_hosts" \
	-o StrictHostKeyChecking=yes -i "$tmp/ssh/id" "root@${mgmt_of[e1_1]}" \
	"ip -o addr show | grep -q ${mgmt_of[e1_1]}/"

# What a run may leave: nothing. No dard daemon or receiver in any node,
# no pinned map, no remote directory (but those of $1...).
left_over() {
	local n p c keep=" $* "
	for n in "${!ns_of[@]}"; do
		for p in $(ip netns pids "${ns_of[$n]}"); do
			c=$(cat "/proc/$p/comm" 2>/dev/null)
			[[ $c == dardd || $c == dard-switchd || $c == dard-exp ]] && echo "$n: $c $p"
		done
	done
	[[ -d $pins ]] && find "$pins" -mindepth 1 | sed 's/^/pin: /'
	for n in "$tmp"/remote/*; do
		[[ -e $n && $keep != *" ${n##*/} "* ]] && echo "remote directory of ${n##*/}"
	done
}
nothing_left() {
	local got
	got=$(left_over "$@")
	[[ -z $got ]] || { echo "$got" | head -n 5; return 1; }
}

# --- a DARD run ---------------------------------------------------------
exp=(--pattern stride --duration 4 --rate 0.5 --size 2 --seed 3)
t "scripts/cluster all: a DARD run over ssh" \
	in_mgmt "$cluster" "$tmp/hosts" all "${opts[@]}" --out "$tmp/out" -- "${exp[@]}"
"$dardctl" -t "$tmp/dep/e1_1/etc/dard/dard.conf" traffic gen format csv \
	pattern stride rate 0.5 duration 4 size 2 seed 3 >"$tmp/plan.csv"
planned=$(($(wc -l <"$tmp/plan.csv") - 1))
header=$(grep -o '"pattern,rate,scheduler,[a-z,]*"' "$top/scripts/experiment" | tr -d '"')
t "results.csv has experiment's header" \
	test "$(head -n 1 "$tmp/out/run1/results.csv" 2>/dev/null)" = "$header"
echo "planned flows: $planned"
t "a row per planned flow ($planned)" \
	test "$(tail -n +2 "$tmp/out/run1/results.csv" 2>/dev/null | grep -c ',dard,')" -eq "$planned"
t "every flow finished (a transfer time)" \
	test "$(awk -F, 'NR > 1 && $8 != ""' "$tmp/out/run1/results.csv" | wc -l)" -eq "$planned"
t "a summary" grep -q '^dard ' "$tmp/out/summary.txt"
t "the figures" test -s "$tmp/out/run1/transfer-time-cdf.png"
t "every node's log collected" \
	test "$(find "$tmp/out/logs" -name 'dard*.log' 2>/dev/null | wc -l)" -eq 36
t "dardd ran with --dardd-args" grep -q 'query every 0.1' "$tmp/out/logs/e3_2/dardd.log"
t "nothing left after the run" nothing_left

# --- a host whose sshd dies during the bring-up ----------------------------
# It dies the moment the runner goes to start it, everything pushed: an
# ssh earlier on the runner's PATH kills e2_1's sshd when asked to run
# its setup.sh, then hands over to the real ssh, which finds nobody.
mkdir -p "$tmp/dying"
cat >"$tmp/dying/ssh" <<EOF
#!/bin/bash
if [[ " \$* " == *" ${mgmt_of[e2_1]} "* && "\$*" == *node/setup.sh* ]]; then
	kill "\$(cat '$tmp/ssh/e2_1.sshd')"
	while kill -0 "\$(cat '$tmp/ssh/e2_1.sshd')" 2>/dev/null; do sleep 0.1; done
fi
exec /usr/bin/ssh "\$@"
EOF
chmod +x "$tmp/dying/ssh"
PATH=$tmp/dying:$PATH in_mgmt "$cluster" "$tmp/hosts" all "${opts[@]}" --out "$tmp/out2" -- "${exp[@]}" \
	>"$tmp/run2.out" 2>"$tmp/run2.err"
rc=$?
echo "runner: exit $rc; stderr:"
tail -n 4 "$tmp/run2.err"
t "the runner fails" test $rc -ne 0
t "and names e2_1 with its address" \
	grep -q "starting e2_1 (root@${mgmt_of[e2_1]}) failed" "$tmp/run2.err"
t "nothing left on the other hosts" nothing_left e2_1

# --- a host refusing ssh from the start ------------------------------------
in_mgmt "$cluster" "$tmp/hosts" check "${opts[@]}" >"$tmp/run3.out" 2>"$tmp/run3.err"
rc=$?
tail -n 2 "$tmp/run3.err"
t "check fails" test $rc -eq 1
t "naming e2_1 as refusing" grep -q "e2_1: no answer over ssh: .*refused" "$tmp/run3.err"
t "and only e2_1" grep -qx "cluster: e2_1 (root@${mgmt_of[e2_1]}) failed the check" "$tmp/run3.err"
t "up after a failed check starts nothing" bash -c \
	"nsenter --net=/run/netns/$prefix.mgmt $(printf '%q ' "$cluster" "$tmp/hosts" up "${opts[@]}") >/dev/null 2>&1; test \$? -eq 1"
t "nothing left" nothing_left e2_1

# --- hosts files the runner refuses before any ssh ---------------------------
grep -v '^e4_4 ' "$tmp/hosts" >"$tmp/h-missing"
t "a missing node is named" bash -c "$(printf '%q ' "$cluster" "$tmp/h-missing" check "${opts[@]}") 2>&1 | grep -q 'lacks e4_4'"
{ cat "$tmp/hosts"; echo "frob 10.0.0.1"; } >"$tmp/h-unknown"
t "an unknown node is named with its line" bash -c \
	"$(printf '%q ' "$cluster" "$tmp/h-unknown" check "${opts[@]}") 2>&1 | grep -q 'h-unknown:37: .frob. is no node'"
t "--remote-dir / is refused" bash -c \
	"$(printf '%q ' "$cluster" "$tmp/hosts" down --deploy "$tmp/dep" --remote-dir /) 2>/dev/null; test \$? -eq 2"

summary
