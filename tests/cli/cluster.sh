#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# scripts/cluster's command line and its refusals before any set-up:
# options, hosts files, and a host nobody answers on (a loopback port
# with no listener: refused at once). Needs no root and no namespaces;
# tests/netns/cluster.sh runs it against real sshd.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dardctl=${DARD_BIN:-$top/build/bin}/dardctl
cluster=$top/scripts/cluster
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suite=cluster-cli
source "$top/tests/lib.sh"

c() { "$cluster" "$@"; }

"$dardctl" -t fattree:4 deploy cluster "$tmp/dep" >/dev/null || exit 1
awk '!/^#/ { print $1, "127.0.0.1" }' "$tmp/dep/nodes" >"$tmp/hosts"
o=(--deploy "$tmp/dep" --remote-dir "$tmp/r/%n" -o Port=1 --connect-timeout 2)

ok "help" 0 c --help && has "help: steps" "$out" '^  down  '
ok "no step" 2 c "$tmp/hosts"
ok "unknown step" 2 c "$tmp/hosts" frob "${o[@]}"
ok "no --deploy" 2 c "$tmp/hosts" check && has "no --deploy: named" "$err" 'deploy DIR is needed'
ok "missing deployment" 1 c "$tmp/hosts" check --deploy "$tmp/none" &&
	has "missing deployment: named" "$err" "no deployment directory .$tmp/none."
ok "missing hosts file" 1 c "$tmp/nohosts" check "${o[@]}" &&
	has "missing hosts: named" "$err" "cannot read hosts file"
ok "bad --install" 2 c "$tmp/hosts" check "${o[@]}" --install rpm
ok "bad --services" 2 c "$tmp/hosts" check "${o[@]}" --services init
ok "--services systemd with the pushed tree" 2 c "$tmp/hosts" check "${o[@]}" --services systemd &&
	has "systemd: why" "$err" 'needs --install deb or none .the units run /usr/sbin'
ok "--services systemd --install none gets to the check" 1 c "$tmp/hosts" check "${o[@]}" \
	--services systemd --install none
ok "bad --jobs" 2 c "$tmp/hosts" check "${o[@]}" -j 0
ok "--remote-dir /" 2 c "$tmp/hosts" down "${o[@]}" --remote-dir /
ok "--remote-dir relative" 2 c "$tmp/hosts" down "${o[@]}" --remote-dir x/y
ok "--remote-dir with .." 2 c "$tmp/hosts" down "${o[@]}" --remote-dir /a/../b
ok "--pin-root outside bpffs" 2 c "$tmp/hosts" down "${o[@]}" --pin-root /tmp/x
ok "--install deb without --package" 1 c "$tmp/hosts" up "${o[@]}" --install deb &&
	is "deb: which package, before any ssh" "$err" \
		'cluster: --install deb needs --package FILE.deb (make deb)'
ok "option without value" 2 c "$tmp/hosts" check --deploy

# Hosts files: named with the line, before any ssh.
grep -v '^e4_4 ' "$tmp/hosts" >"$tmp/h1"
ok "a node missing" 1 c "$tmp/h1" check "${o[@]}" && has "missing node named" "$err" 'lacks e4_4$'
{ cat "$tmp/hosts"; echo "frob 127.0.0.1"; } >"$tmp/h2"
ok "an unknown node" 1 c "$tmp/h2" check "${o[@]}" &&
	has "unknown node: file and line" "$err" "h2:37: .frob. is no node of"
{ cat "$tmp/hosts"; echo "e1_1 127.0.0.2"; } >"$tmp/h3"
ok "a node twice" 1 c "$tmp/h3" check "${o[@]}" && has "twice: line" "$err" "h3:37: .e1_1. listed twice"
sed 's/^core1 .*/core1 a;b/' "$tmp/hosts" >"$tmp/h4"
ok "a bad address" 1 c "$tmp/h4" check "${o[@]}" && has "bad address named" "$err" "h4:1: bad address .a;b."
sed 's/^core1 .*/core1 127.0.0.1 root extra/' "$tmp/hosts" >"$tmp/h5"
ok "extra words" 1 c "$tmp/h5" check "${o[@]}" && has "extra words: line" "$err" "h5:1: expected NODE SSH-ADDRESS"

# Nobody answers on port 1: every host named, exit 1, nothing made.
ok "nobody answers" 1 c "$tmp/hosts" check "${o[@]}" &&
	has "the refusal named per host" "$err" '^cluster: e2_1: no answer over ssh: .*refused' &&
	has "the hosts named with their address" "$err" 'e4_4 \(root@127\.0\.0\.1\) failed the check$'
is "nothing made on the nodes" "$(ls "$tmp/r" 2>/dev/null)" ""
ok "exec on an unknown node" 1 c "$tmp/hosts" exec "${o[@]}" --node frob true &&
	has "exec: node named" "$err" "no node .frob."

summary
