#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dardctl's command line: every object's output in text and JSON (checked
# with jq), exit codes (0 success, 1 error, 2 usage) and error messages.
# Needs no privileges; as root it also runs -n in one empty network
# namespace of its own (dardctl-test-PID), made and deleted here.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dardctl=${DARD_BIN:-$top/build/bin}/dardctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suite=cli
source "$top/tests/lib.sh"


d() { "$dardctl" "$@"; }

ok "help" 0 d -h && has "help text" "$out" '^Usage: dardctl'
ok "version" 0 d -V && has "version text" "$out" '^dardctl '
ok "no object" 2 d
ok "unknown object" 2 d frob && has "unknown object message" "$err" 'unknown'
# One table drives dispatch and usage: every object help lists (twice)
# is one dardctl knows.
ok "help" 0 d help
objs=$(sed -n '/^Objects:/,/^$/p' <<<"$out" | awk 'NF && !/^Objects:/ { print $1 }' | xargs)
is "help lists the thirteen objects" "$objs" "topo addr path key switch deploy dp flow monitor stats sched controller traffic"
is "OBJECT := names the same" \
	"$(sed -n '/OBJECT :=/,/}/p' <<<"$out" | tr -d '{}|' | sed 's/where  OBJECT :=//' | xargs)" "$objs"
for obj in $objs; do
	ok "listed $obj is dispatched" 0 d "$obj" help && has "$obj: its usage" "$out" "^Usage: dardctl"
done
for obj in topo addr path switch deploy dp flow; do
	ok "$obj help" 0 d "$obj" help
	ok "$obj -h" 0 d "$obj" -h && has "$obj usage" "$out" "^Usage: dardctl"
	ok "$obj without command" 2 d "$obj"
	ok "$obj unknown command" 2 d -t fattree:4 "$obj" frob
done
for cmd in "topo show" "topo gen" "addr show" "path list e1_1" "path decode" \
	"switch tables" "deploy netns /nonexistent/x" "dp attach eth0" "flow show dev x"; do
	# shellcheck disable=SC2086 # word splitting intended
	ok "$cmd -h" 0 d -t fattree:4 $cmd -h && has "$cmd -h usage" "$out" "^Usage: dardctl"
done

ok "bad fat-tree" 1 d -t fattree:3 topo show &&
	has "bad fat-tree message" "$err" 'fattree:3: p must be even'
ok "bad spec" 1 d -t clos:4 topo show && has "bad spec message" "$err" 'clos:DI,DA'
ok "too big for 10/8" 1 d -t fattree:48 topo show &&
	has "too big message" "$err" 'fattree:48 needs 26 address bits.*/6 or shorter'
ok "bad base" 2 d --base 10.1.0.0/8 topo show
ok "bad mode" 2 d --mode fancy topo show
ok "bad capacity" 2 d -c 0 topo show
ok "capacity overflow" 2 d -c 4294967297 topo show
ok "missing file" 1 d -t "$tmp/none.conf" topo show &&
	has "missing file message" "$err" 'none.conf'
# A stream without end is refused at the bound, not read until OOM.
ok "endless file" 1 d -t /dev/zero topo show &&
	has "endless file named" "$err" "^Unable to read ./dev/zero.: larger than 256 MiB"
{ echo "topology x"; printf 'a%.0s' $(seq 65537); echo; } >"$tmp/long.conf"
ok "line too long" 1 d -t "$tmp/long.conf" topo show &&
	is "long line: file and line named" "$err" "$tmp/long.conf:2: line longer than 65536 bytes"
printf 'levels a b\n%b' 'x\0y\n' >"$tmp/nul.conf"
ok "NUL in file" 1 d -t "$tmp/nul.conf" topo show &&
	is "NUL: file and line named" "$err" "$tmp/nul.conf:2: NUL byte in line"
ok "directory as file" 1 d -t / topo show &&
	has "directory named" "$err" "^Unable to read ./.: Is a directory"

ok "topo show" 0 d -t fattree:4 topo show &&
	has "topo show text" "$out" 'addressing paper, base 10.0.0.0/8, field bits 6\+6\+6\+6, aliases per host 4'
ok "topo show -j" 0 d -j -t fattree:48 --base 16.0.0.0/4 topo show &&
	is "compact mode in JSON" "$(jq -r '.[0].addressing.mode' <<<"$out")" compact &&
	is "field bits in JSON" "$(jq -c '.[0].addressing.field_bits' <<<"$out")" "[10,6,5,5]"

ok "addr show -j" 0 d -j -t fattree:4 addr show e1_1 &&
	is "Figure 2: e1_1 through core1" "$(jq -r '.[0].aliases[0].addr' <<<"$out")" 10.4.16.66 &&
	is "the chain behind it" "$(jq -c '.[0].aliases[0].via' <<<"$out")" '["core1","aggr1_1","tor1_1"]'
ok "addr show e2_1" 0 d -t fattree:4 addr show e2_1 &&
	has "Figure 2: e2_1 through core1" "$out" 'alias 10.4.32.66 via core1 aggr2_1 tor2_1'
ok "addr show of a switch" 0 d -t fattree:4 addr show aggr1_1 &&
	has "aggr1_1's prefixes" "$out" 'prefix 10.4.16.0/20 from port 3 \(core1\)'
ok "addr show of all hosts" 0 d -j -t fattree:4 addr show &&
	is "16 hosts" "$(jq length <<<"$out")" 16
ok "addr show unknown" 1 d -t fattree:4 addr show e9_9 && has "unknown node message" "$err" "No node"

ok "switch tables -j" 0 d -j -t fattree:4 switch tables aggr1_1 &&
	is "Table 2 downhill" "$(jq -c '[.[0].downhill[] | [.prefix, .port]]' <<<"$out")" \
		'[["10.4.16.64/26",1],["10.4.16.128/26",2],["10.8.16.64/26",1],["10.8.16.128/26",2]]' &&
	is "Table 2 uphill" "$(jq -c '[.[0].uphill[] | [.prefix, .port]]' <<<"$out")" \
		'[["10.4.0.0/14",3],["10.8.0.0/14",4]]'
json=$out
ok "switch tables format json" 0 d -t fattree:4 switch tables aggr1_1 format json &&
	is "format json equals -j" "$out" "$json"
ok "switch tables --format ip" 0 d -t fattree:4 switch tables aggr1_1 --format ip &&
	has "an uphill rule" "$out" '^ip rule add pref 200 from 10.4.0.0/14 lookup 1003$' &&
	is "every command is ip" "$(grep -v '^#' <<<"$out" | grep -vc '^ip ')" 0
ok "core has no uphill table" 0 d -j -t fattree:4 switch tables core1 &&
	is "no uphill key" "$(jq '.[0] | has("uphill")' <<<"$out")" false
ok "switch tables of a host" 1 d -t fattree:4 switch tables e1_1 && has "host message" "$err" 'is a host'
ok "bad format" 2 d -t fattree:4 switch tables aggr1_1 format xml

ok "path list -j" 0 d -j -t fattree:4 path list e1_1 e2_1 &&
	is "four paths between pods" "$(jq length <<<"$out")" 4 &&
	is "each turns at its own core" "$(jq -c '[.[].turn]' <<<"$out")" '["core1","core2","core3","core4"]'
ok "path list by ID" 0 d -t fattree:4 path list 172.16.0.1 172.16.0.5 &&
	is "by ID: four paths" "$(wc -l <<<"$out")" 4
ok "path list to itself" 1 d -t fattree:4 path list e1_1 e1_1
ok "path list unknown ID" 1 d -t fattree:4 path list 172.16.9.9 e1_1
ok "path decode -j" 0 d -j -t fattree:4 path decode 10.4.16.66 10.4.32.66 &&
	is "decoded switches" "$(jq -c '.[0].switches' <<<"$out")" \
		'["tor1_1","aggr1_1","core1","aggr2_1","tor2_1"]' &&
	is "decoded links" "$(jq -c '.[0].links | length' <<<"$out")" 6
ok "path decode no path" 1 d -t fattree:4 path decode 10.4.16.66 10.8.32.66 &&
	has "no path message" "$err" 'names no path'
ok "path decode not an alias" 1 d -t fattree:4 path decode 10.4.16.65 10.4.32.66 &&
	has "not an alias message" "$err" 'not a host alias'
ok "path decode bad address" 2 d -t fattree:4 path decode 10.4.16 10.4.32.66 &&
	is "bad source alias named" "$err" "Invalid source alias \`10.4.16': expected an IPv4 address A.B.C.D"
ok "path decode bad destination" 2 d -t fattree:4 path decode 10.4.16.66 10.4.32.666 &&
	is "bad destination alias named" "$err" \
		"Invalid destination alias \`10.4.32.666': expected an IPv4 address A.B.C.D"
ok "path decode longer path" 0 d -j -t clos:4,4 path decode 10.4.16.66 10.4.32.130 &&
	is "clos pair through two aggr switches is not shortest" \
		"$(jq '.[0].shortest' <<<"$out")" false

ok "topo gen" 0 d -t fattree:4 topo gen output "$tmp/ft4.conf"
ok "show from the file" 0 d -t "$tmp/ft4.conf" topo show
from_file=$out
ok "show from the generator" 0 d -t fattree:4 topo show
is "file and generator agree" "$from_file" "$out"
ok "topo gen noplan" 0 d -t fattree:4 topo gen noplan
has "noplan: no base" "$(grep -c '^base' <<<"$out")" '^0$'
printf '%s\n' "$out" >"$tmp/bare.topo"
ok "addresses from a bare topology" 0 d -t "$tmp/bare.topo" addr show e1_1 &&
	has "bare topology: same alias" "$out" 'alias 10.4.16.66 via core1'
ok "DARD_CONFIG" 0 env DARD_CONFIG="$tmp/ft4.conf" "$dardctl" path list e1_1 e1_2 &&
	is "one path under a ToR" "$(wc -l <<<"$out")" 1
sed 's/^link core1:1 aggr1_1:3$/link core1:1 tor1_1:9/' "$tmp/ft4.conf" >"$tmp/bad.conf"
line=$(grep -n '^link core1:1 tor1_1:9$' "$tmp/bad.conf" | cut -d: -f1)
ok "bad file" 1 d -t "$tmp/bad.conf" topo show &&
	has "bad file: file, line and reason" "$err" "^$tmp/bad.conf:$line: link: .tor1_1. \(tor\) is not one level below .core1. \(core\)"
ok "topo gen -j refused" 2 d -j -t fattree:4 topo gen

ok "deploy netns" 0 d -t fattree:4 deploy netns "$tmp/dep" prefix t1
is "a veth per link and per node" "$(grep -c '^link add' "$tmp/dep/setup.batch")" $((48 + 36))
is "a namespace per node and mgmt" "$(grep -c '^netns add' "$tmp/dep/setup.batch")" 37
is "node files apart" "$(ls "$tmp/dep/node" | grep -c '^e1_1\.')" 2
ok "deploy bad prefix" 2 d -t fattree:4 deploy netns "$tmp/dep" prefix 'a b'
ok "deploy prefix with -" 2 d -t fattree:4 deploy netns "$tmp/dep" prefix a-b
ok "deploy routing foo" 2 d -t fattree:4 deploy netns "$tmp/rt" routing foo &&
	has "routing foo: the choices" "$err" "^Invalid routing .foo.: expected dard, ecmp or bgp$"
ok "deploy routing without a name" 2 d -t fattree:4 deploy netns "$tmp/rt" routing &&
	has "routing alone: unexpected" "$err" "^deploy netns: unexpected .routing.$"
# bgp: FRR's three files and the converged count per switch, for the
# testbed to start and wait on; hosts run no FRR. ecmp: none of them.
ok "deploy routing bgp" 0 d -t fattree:4 deploy netns "$tmp/bgp" routing bgp
missing='' stray=''
while read -r node kind _; do
	for f in "$tmp/bgp/node/$node".{zebra.conf,bfdd.conf,bgpd.conf,expect}; do
		if [[ $kind == switch && ! -s $f ]]; then
			missing="$missing ${f##*/}"
		elif [[ $kind == host && -e $f ]]; then
			stray="$stray ${f##*/}"
		fi
	done
done <"$tmp/bgp/nodes"
is "bgp: FRR files for every switch" "$missing" ""
is "bgp: none for hosts" "$stray" ""
bgpd=("$tmp/bgp/node/"*.bgpd.conf)
is "bgp: 20 switches" "${#bgpd[@]}" 20
is "bgp: a ToR's expected next hops" "$(cat "$tmp/bgp/node/tor1_1.expect")" 28
has "bgp: logs under DIR/frr/NODE" "$(cat "$tmp/bgp/node/core1.zebra.conf")" \
	"^log file $(realpath "$tmp/bgp")/frr/core1/frr.log$"
ok "deploy routing ecmp" 0 d -t fattree:4 deploy netns "$tmp/ecmp" routing ecmp
is "ecmp: no FRR files" \
	"$(compgen -G "$tmp/ecmp/node/*.conf"; compgen -G "$tmp/ecmp/node/*.expect")" ""

# deploy: every failure says which file; nothing fails silently.
ok "deploy into a missing directory" 1 d -t fattree:4 deploy netns /nonexistent/x &&
	has "missing directory named" "$err" "Unable to create ./nonexistent/x.: No such file"
ok "deterlab into a missing directory" 1 d -t fattree:4 deploy deterlab /nonexistent/x &&
	has "deterlab: missing directory named" "$err" "Unable to create ./nonexistent/x."
mkdir -p "$tmp/full/setup"
ln -s /dev/full "$tmp/full/nodes"
ln -s /dev/full "$tmp/full/setup/dard.conf"
ok "deploy netns on a full disk" 1 d -t fattree:4 deploy netns "$tmp/full" &&
	is "full disk: one message naming the file" "$err" \
		"Unable to write \`$tmp/full/nodes': No space left on device"
ok "deploy deterlab on a full disk" 1 d -t fattree:4 deploy deterlab "$tmp/full" &&
	is "deterlab full disk: one message naming the file" "$err" \
		"Unable to write \`$tmp/full/setup/dard.conf': No space left on device"

# deploy cluster: a directory per node, shipped as is; one key for all.
ok "deploy cluster" 0 d -t fattree:4 deploy cluster "$tmp/cl" rate 100
is "a directory per node" "$(find "$tmp/cl" -mindepth 1 -maxdepth 1 -type d | wc -l)" 36
is "nodes: a line per node" "$(grep -vc '^#' "$tmp/cl/nodes")" 36
has "nodes: role and management address" "$(cat "$tmp/cl/nodes")" '^e1_1 host 172\.24\.'
is "one key on every node" "$(cat "$tmp"/cl/*/etc/dard/dard.key | sort -u | wc -l)" \
	"$(wc -l <"$tmp/cl/e1_1/etc/dard/dard.key")"
is "keys root-only" "$(stat -c %a "$tmp"/cl/*/etc/dard/dard.key | sort -u)" 600
is "host env" "$(grep -v '^#' "$tmp/cl/e1_1/etc/dard/dard.env" | xargs)" \
	"DARD_NODE=e1_1 DARD_ROLE=host DARD_ARGS=-i dard0"
is "switch env" "$(grep -v '^#' "$tmp/cl/core1/etc/dard/dard.env" | xargs)" \
	"DARD_NODE=core1 DARD_ROLE=switch DARD_ARGS="
# What systemd/dardd@.service and dard-switchd@.service read: the
# instance's file, never the package's dardd.env (a conffile).
is "host unit env" "$(grep -v '^#' "$tmp/cl/e1_1/etc/dard/dardd@e1_1.env")" \
	'DARDD_OPTS="-i dard0"'
is "switch unit env" "$(grep -v '^#' "$tmp/cl/core1/etc/dard/dard-switchd@core1.env")" \
	'DARD_SWITCHD_OPTS=""'
is "one unit env per node, its own" \
	"$(cd "$tmp/cl" && ls -- */etc/dard/*@*.env | awk -F/ '{ n = $4; sub(/^[^@]*@/, "", n); print ($1".env" == n) }' | sort | uniq -c | xargs)" \
	"36 1"
is "no host has the switch's, no switch the host's" \
	"$(ls "$tmp"/cl/e*/etc/dard/dard-switchd* "$tmp"/cl/core*/etc/dard/dardd* 2>/dev/null | wc -l)" 0
has "the units take those variables" "$(cat "$top/systemd/dardd@.service" "$top/systemd/dard-switchd@.service")" \
	'EnvironmentFile=-/etc/dard/dardd@%i.env'
has "and run with them" "$(cat "$top/systemd/dardd@.service" "$top/systemd/dard-switchd@.service")" \
	'ExecStart=/usr/sbin/dard-switchd \$DARD_SWITCHD_OPTS %i'
ok "the configuration reads back" 0 d -t "$tmp/cl/tor1_1/etc/dard/dard.conf" topo show
ok "setup.sh is bash" 0 bash -n "$tmp/cl/aggr2_1/setup.sh"
has "setup.sh reads etc/dard next to it" "$(cat "$tmp/cl/e1_1/setup.sh")" \
	'^conf=\${DARD_CONFIG:-\$here/etc/dard/dard.conf}$'
has "setup.sh limits with rate" "$(cat "$tmp/cl/e1_1/setup.sh")" 'tbf rate 100mbit'
ok "deploy cluster -k copies the key" 0 d -t fattree:4 -k "$tmp/cl/e1_1/etc/dard/dard.key" \
	deploy cluster "$tmp/cl2"
ok "and it is the same key" 0 cmp "$tmp/cl/e1_1/etc/dard/dard.key" "$tmp/cl2/core4/etc/dard/dard.key"
cp "$tmp/cl/e1_1/etc/dard/dard.key" "$tmp/loose.key" && chmod 0644 "$tmp/loose.key"
ok "deploy cluster refuses a loose key" 1 d -t fattree:4 -k "$tmp/loose.key" deploy cluster "$tmp/cl3" &&
	has "loose key named" "$err" "$tmp/loose.key"
ok "deploy cluster unexpected word" 2 d -t fattree:4 deploy cluster "$tmp/cl3" frob &&
	has "unexpected word named" "$err" "deploy cluster: unexpected .frob."
ok "cluster into a missing directory" 1 d -t fattree:4 deploy cluster /nonexistent/x &&
	has "cluster: missing directory named" "$err" "Unable to create ./nonexistent/x."
mkdir -p "$tmp/fullc/core1"
ln -s /dev/full "$tmp/fullc/core1/setup.sh"
ok "deploy cluster on a full disk" 1 d -t fattree:4 deploy cluster "$tmp/fullc" &&
	is "cluster full disk: one message naming the file" "$err" \
		"Unable to write \`$tmp/fullc/core1/setup.sh': No space left on device"
is "no nodes file after a failure" "$(ls "$tmp/fullc/nodes" 2>/dev/null)" ""

# Object options: after the object, anywhere among its words, and only
# to the objects that take them; before it, where earlier versions took
# them, still to every object, so old scripts run unchanged.
ok "topo show, old form" 0 d -t fattree:4 topo show
before=$out
ok "-t after the command" 0 d topo show -t fattree:4 && is "same as before the object" "$out" "$before"
ok "-t between object and command" 0 d topo -t fattree:4 show &&
	is "same again" "$out" "$before"
ok "--topo=TOPO" 0 d topo show --topo=fattree:4 && is "same with =" "$out" "$before"
ok "after the object counts over before" 0 d -t fattree:8 topo show -t fattree:4 &&
	is "fattree:4, not 8" "$out" "$before"
ok "-c after the object" 0 d topo show -t fattree:4 -c 100 &&
	has "capacity taken" "$out" '^topology fattree:4: .* 100 Mbit/s$'
ok "--base after the object" 0 d -j topo show -t fattree:48 --base 16.0.0.0/4 &&
	is "base taken" "$(jq -r '.[0].addressing.base' <<<"$out")" 16.0.0.0/4
ok "--mode after the object" 0 d -j topo show -t fattree:4 --mode compact &&
	is "mode taken" "$(jq -r '.[0].addressing.mode' <<<"$out")" compact
ok "--ids, --linknet, --mgmtnet after the object" 0 d -j addr show e1_1 -t fattree:4 \
	--ids 172.17.0.0/16 --linknet 172.21.0.0/16 --mgmtnet=172.25.0.0/16 &&
	has "ID from --ids" "$(jq -r '.[0].id' <<<"$out")" '^172\.17\.' &&
	has "management address from --mgmtnet" "$(jq -r '.[0].mgmt' <<<"$out")" '^172\.25\.'
ok "path list, options last" 0 d path list e1_1 e2_1 -t fattree:4 &&
	is "four paths" "$(wc -l <<<"$out")" 4
ok "traffic gen, options first" 0 d traffic -t fattree:4 gen seed 3 format csv &&
	has "a flow" "$out" '^0,[0-9.]+,e'
ok "bad value after the object" 2 d topo show -t fattree:4 --base 10.1.0.0/8 &&
	has "value named" "$err" "^Invalid base .10.1.0.0/8."
ok "bad capacity after the object" 2 d topo show -t fattree:4 -c 0 &&
	has "capacity named" "$err" "^Invalid capacity .0.: out of range"
ok "no value after the object" 2 d topo show -t &&
	is "value asked for" "$err" 'Option "-t" needs a value, try "dardctl topo help".'
ok "another object's option refused" 2 d topo show -t fattree:4 --pin "$tmp/pin" &&
	is "refusal named" "$err" 'Option "--pin" is not one of topo'"'"'s, try "dardctl topo help".'
ok "-k refused by path" 2 d path list e1_1 e2_1 -t fattree:4 -k "$tmp/k"
ok "stats takes none" 2 d stats -t fattree:4 && has "stats refusal" "$err" '"-t" is not one of stats'
# The same options before the object: every object takes them, as ever.
ok "old form: stats ignores -t" 1 d -t fattree:4 stats && has "no dardd" "$err" '^No dardd'
ok "old form: an abbreviation" 0 d --cap 100 -t fattree:4 topo show &&
	has "abbreviated capacity taken" "$out" ' 100 Mbit/s$'
ok "--datapath after dp" 1 d dp stats lo --datapath kmod &&
	is "kmod chosen" "$err" "No kmod datapath on lo: dard.ko is not loaded (modprobe dard)"
ok "--datapath=KIND after flow" 1 d flow show dev lo -t fattree:4 --datapath=kmod &&
	is "kmod chosen for flow" "$err" "No kmod datapath on lo: dard.ko is not loaded (modprobe dard)"
ok "bad --datapath after dp" 2 d dp stats lo --datapath ebpf &&
	has "datapath named" "$err" "^Invalid datapath .ebpf."
ok "-k after deploy" 0 d deploy cluster "$tmp/cl4" -t fattree:4 -k "$tmp/cl/e1_1/etc/dard/dard.key" &&
	t "deploy: -k's key copied" cmp "$tmp/cl/e1_1/etc/dard/dard.key" "$tmp/cl4/core1/etc/dard/dard.key"
ok "-k after key" 0 d key gen -k "$tmp/kafter" && t "key gen: -k's file written" test -s "$tmp/kafter"
# Exact words only: one that merely starts like an option is the command's.
ok "a word like an option is an argument" 2 d dp weights lo 172.16.0.5 -tx -t fattree:4 &&
	has "-tx reached dp weights" "$err" "^Invalid weight .-tx.: not a number"
ok "topo help names its options" 0 d topo help &&
	has "TOPO_OPTS in topo help" "$out" '^Where: TOPO_OPTS := \{ -t TOPO \| -c MBIT \|'
ok "dp help names its options" 0 d dp help &&
	has "DP_OPTS in dp help" "$out" '^ +DP_OPTS := \{ --pin DIR \| --datapath KIND \}$'
ok "help says which objects take which" 0 d help &&
	has "TOPO_OPTS takers" "$out" '^  TOPO_OPTS: +topo addr path switch deploy dp flow traffic$' &&
	has "DP_OPTS takers" "$out" '^  DP_OPTS: +dp flow$' &&
	has "-k takers" "$out" '^  -k: +key switch deploy$'

# -n NAME: the command runs in network namespace /run/netns/NAME, or
# not at all. One of this run's own (dardctl-test-PID), made and deleted
# here, where root may; a name that is none fails before the object.
ns=dardctl-test-$$
ok "-n: no such namespace" 1 d -n "$ns-none" topo show -t fattree:4 &&
	is "namespace and reason named" "$err" \
		"Unable to enter network namespace \`$ns-none' (/run/netns/$ns-none): No such file or directory" &&
	is "and nothing run" "$out" ""
ok "--netns: no such namespace" 1 d --netns "$ns-none" stats &&
	has "long form named" "$err" "^Unable to enter network namespace .$ns-none."
ok "-n: a path is no name" 2 d -n ../x stats &&
	has "path refused" "$err" "^Invalid network namespace .\.\./x.: expected a name in /run/netns"
ok "-n without a name" 2 d -n
ok "help has -n" 0 d help && has "-n in help" "$out" '^  -n, --netns NAME '
if [[ $EUID -eq 0 ]] && command -v ip >/dev/null && ip netns add "$ns" 2>/dev/null; then
	trap 'ip netns del "$ns" 2>/dev/null; rm -rf "$tmp"' EXIT
	ino=$(stat -L -c %i "/run/netns/$ns")
	t "-n: the namespace is not ours" test "$ino" != "$(stat -L -c %i /proc/self/ns/net)"
	# dardd's control socket is named by its namespace's inode.
	ok "-n: stats asks that namespace's dardd" 1 d -n "$ns" stats &&
		has "its socket, not ours" "$err" \
			"^No dardd in this network namespace \(/run/dard/dardd/net-$ino\.sock: "
	ok "--netns: monitor show, the same" 1 d --netns "$ns" monitor show &&
		has "its socket again" "$err" "/run/dard/dardd/net-$ino\.sock"
	# An ID on the namespace's loopback makes it e2_1 there, and only
	# there (dard.ko absent: attach stops at the module, building nothing).
	if [[ ! -e /sys/module/dard ]] && ip -n "$ns" addr add 172.16.0.5/32 dev lo; then
		ok "here: no host's ID" 1 d dp attach lo -t fattree:4 --datapath kmod &&
			is "no host here" "$err" "No host of fattree:4 has its ID here: give host NAME"
		ok "-n: the namespace's lo holds e2_1's ID" 1 d -n "$ns" dp attach lo \
			-t fattree:4 --datapath kmod &&
			is "found, then stopped at the module" "$err" \
				"Unable to attach the datapath to lo: dard.ko is not loaded (modprobe dard)"
	else
		echo "skip -n loopback check: dard.ko is loaded, or no address on lo"
	fi
	t "the namespace deleted" ip netns del "$ns"
	trap 'rm -rf "$tmp"' EXIT
else
	echo "skip -n in a namespace of its own: needs root and ip netns add"
fi

# Strict numbers: no silent truncation, no inf/nan/1e20; the argument and
# the value are named. All are refused before any datapath or dardd is
# needed, so exit 2 (bad usage) here without privileges.
flow="tcp 172.16.0.1:1 172.16.0.5:2"
bad() { # NAME PATTERN ARGS...: exit 2 and PATTERN in the message
	local name=$1 pat=$2
	shift 2
	ok "$name" 2 d -t fattree:4 "$@" && has "$name: named" "$err" "$pat"
}
bad "capacity nan" "^Invalid capacity .nan.: not a number" -c nan topo show
bad "capacity -1" "^Invalid capacity .-1.: not a number" -c -1 topo show
bad "path 2^32 + 2 (was path 2)" "^Invalid path number .4294967298.: out of range" \
	flow move dev x $flow path 4294967298
bad "path 0" "^Invalid path number .0.: out of range" flow move dev x $flow path 0
bad "path 1.5" "^Invalid path number .1.5.: not a number" flow move dev x $flow path 1.5
bad "protocol 256 (was 0)" "^Invalid protocol .256.: out of range" \
	flow move dev x 256 172.16.0.1 172.16.0.5 path 1
bad "protocol ip: the names are listed" \
	"^Invalid protocol .ip.: not a number, expected tcp, udp, icmp or 0-255" \
	flow move dev x ip 172.16.0.1 172.16.0.5 path 1
bad "port 65536" "^Invalid port .65536.: out of range" \
	flow move dev x tcp 172.16.0.1:65536 172.16.0.5 path 1
bad "port -1" "^Invalid port .-1.: not a number" \
	flow move dev x tcp 172.16.0.1 172.16.0.5:-1 path 1
bad "bad source" "^Invalid source .172.16.0.: expected ID" \
	flow move dev x tcp 172.16.0 172.16.0.5 path 1
for v in 1e20 inf nan -1 0x10; do
	bad "sweep idle $v" "^Invalid idle time .$v.: " flow sweep dev x idle "$v"
done
bad "elephant-dscp 64" "^Invalid elephant-dscp .64.: out of range" \
	dp attach eth0 elephant-dscp 64
bad "elephant-age inf" "^Invalid elephant-age .inf.: not a number" \
	dp attach eth0 elephant-age inf
bad "elephant-bytes 1e6" "^Invalid elephant-bytes .1e6.: not a number" \
	dp attach eth0 elephant-bytes 1e6
bad "dp attach unknown knob" "unexpected .frob x." dp attach eth0 frob x
bad "events wait an hour and 1 ms" "^Invalid wait .3600001.: out of range" \
	dp events eth0 wait 3600001
bad "weight x" "^Invalid weight .x.: not a number, expected 0-65535" \
	dp weights lo 172.16.0.5 1 x
bad "weight 65536" "^Invalid weight .65536.: out of range" \
	dp weights lo 172.16.0.5 65536
bad "weights all 0" "^Every weight is 0: give one above 0, or .even." \
	dp weights lo 172.16.0.5 0 0 0
# shellcheck disable=SC2046 # one word per weight
bad "257 weights" "^257 weights: a destination has at most 256 paths" \
	dp weights lo 172.16.0.5 $(seq 257)
ok "weights of no host" 1 d -t fattree:4 dp weights lo h9 1 2 &&
	has "weights: the host named" "$err" "^No node .h9. in fattree:4"
ok "weights without a datapath" 1 d --datapath kmod dp weights lo 172.16.0.5 even &&
	has "weights: no datapath, named" "$err" "^No kmod datapath on lo"
bad "query timeout 0" "^Invalid timeout .0.: out of range" switch query core1 timeout 0
bad "query timeout 2^32 + 1000" "^Invalid timeout .4294968296.: out of range" \
	switch query core1 timeout 4294968296
bad "query port 65536" "^Invalid port .65536.: out of range" switch query core1 port 65536
bad "query at port 0" "^Invalid port .0.: out of range" switch query core1 at 127.0.0.1:0
# An agent that answers with no dard message: dardctl takes the answer
# through the one receiver (receiver.h), which refuses it by kind, named.
d key gen "$tmp/q.key" >/dev/null
python3 - "$tmp/q.port" <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('127.0.0.1', 0))
open(sys.argv[1] + '.new', 'w').write(str(s.getsockname()[1]))
__import__('os').rename(sys.argv[1] + '.new', sys.argv[1])
s.settimeout(30)
try:
    data, addr = s.recvfrom(65536)
    s.sendto(b'\0' * 40, addr)
except socket.timeout:
    pass
EOF
agent=$!
within 10 test -s "$tmp/q.port" || fail "the stand-in agent listens"
ok "query answered by no dard message" 1 d -t fattree:4 -k "$tmp/q.key" \
	switch query core1 at "127.0.0.1:$(cat "$tmp/q.port")" timeout 10000 &&
	has "refused as the daemons refuse, by kind" "$err" \
		'^refused a reply from 127\.0\.0\.1:[0-9]+ \(proto\): not a dard message'
wait "$agent"
bad "deploy rate 1e3" "^Invalid rate .1e3.: not a number" deploy netns "$tmp/r" rate 1e3
bad "deploy rate too high" "^Invalid rate .1000001.: out of range" \
	deploy deterlab "$tmp/r" rate 1000001
bad "traffic seed 1.5 (was 1)" "^Invalid seed .1.5.: not a number" traffic gen seed 1.5
bad "traffic step 0" "^Invalid step .0.: out of range" traffic gen step 0
bad "traffic rate nan" "^Invalid rate .nan.: not a number" traffic gen rate nan
bad "traffic duration inf" "^Invalid duration .inf.: not a number" traffic gen duration inf
bad "traffic size 1e20" "^Invalid size .1e20.: out of range" traffic gen size 1e20
bad "datapath ebpf" "^Invalid datapath .ebpf.: expected auto, bpf or kmod" \
	--datapath ebpf dp stats lo
ok "DARD_DATAPATH named" 2 env DARD_DATAPATH=bfp "$dardctl" \
	dp stats lo && has "DARD_DATAPATH refused" "$err" "^Invalid DARD_DATAPATH .bfp."
# No host here loads dard.ko (tests/kmod/ boots one that does): kmod says so.
ok "kmod without the module" 1 d -t fattree:4 --datapath kmod flow show dev lo &&
	is "not loaded, named" "$err" "No kmod datapath on lo: dard.ko is not loaded (modprobe dard)"
ok "DARD_DATAPATH=kmod, dp stats" 1 env DARD_DATAPATH=kmod "$dardctl" \
	dp stats lo &&
	has "not loaded, from the environment" "$err" "dard.ko is not loaded"
# The iproute2 plugin's parser, in a network namespace of its own: a
# refusal sends nothing, but a bug that let one through must not reach
# this host's links.
plugdir=${DARD_BIN:-$top/build/bin}/../lib/ip
if [[ -f $plugdir/link_dard.so ]] && command -v ip >/dev/null &&
	unshare -n true 2>/dev/null; then
	ipd() { IP_LIB_DIR=$plugdir unshare -n ip "$@"; }
	ok "ip plugin: help" 0 ipd link help dard &&
		has "ip plugin: usage" "$out$err" "elephant-dscp \{ DSCP \| inherit \}"
	ok "ip plugin: bad age" 1 ipd link add x type dard elephant-age 1e99 &&
		is "ip plugin: age named" "$err" \
			"Invalid elephant-age \`1e99': out of range, expected seconds from 0 to 86400"
	ok "ip plugin: dscp 64" 1 ipd link add x type dard elephant-dscp 64 &&
		has "ip plugin: dscp named" "$err" "^Invalid elephant-dscp .64.: out of range"
	ok "ip plugin: unknown option" 1 ipd link add x type dard frob 1 &&
		has "ip plugin: option named" "$err" "^dard: unknown option .frob."
else
	echo "skip ip plugin: no plugin, ip or unshare -n"
fi
ok "traffic gen, good numbers" 0 d -t fattree:4 traffic gen step 4 seed 7 rate 0.5 \
	duration 2.5 size 1 format csv &&
	has "a flow" "$out" '^0,[0-9.]+,e'

# The daemons' command lines; and dardctl's questions to a dardd that is
# not there (this namespace runs none).
switchd=${DARD_BIN:-$top/build/bin}/dard-switchd
dardd=${DARD_BIN:-$top/build/bin}/dardd
d -t fattree:4 topo gen output "$tmp/ft4d.conf" >/dev/null
ok "dard-switchd help" 0 "$switchd" --help && has "switchd usage" "$out" '^Usage: dard-switchd'
ok "dard-switchd without a switch" 2 "$switchd" && has "which switch" "$err" 'which SWITCH'
ok "dard-switchd bad window" 2 "$switchd" --window 0 core1 &&
	has "window named" "$err" "^dard-switchd: Invalid --window .0.: out of range, expected seconds"
ok "dard-switchd bad ifname" 2 "$switchd" --ifname 'p%s' core1 &&
	has "ifname named" "$err" "^dard-switchd: Invalid --ifname .p%s.: expected one %u"
ok "dard-switchd no such switch" 1 "$switchd" -c "$tmp/ft4d.conf" core9 &&
	has "no such switch named" "$err" "no switch .core9."
ok "dard-switchd a host" 1 "$switchd" -c "$tmp/ft4d.conf" e1_1
ok "dard-switchd missing file" 1 "$switchd" -c "$tmp/none" core1 &&
	has "file named" "$err" "Unable to open .$tmp/none."
ok "dardd help" 0 "$dardd" --help && has "dardd usage" "$out" '^Usage: dardd'
ok "dardd without a host" 2 "$dardd" && has "which host" "$err" '^dardd: which HOST\?'
ok "dardd bad delta" 2 "$dardd" --delta 5x e1_1 &&
	has "delta named" "$err" "^dardd: Invalid --delta .5x.: not a number, expected Mbit/s"
ok "dardd bad percentage" 2 "$dardd" --delta 150% e1_1 &&
	has "percentage named" "$err" "^dardd: Invalid --delta .150%.: out of range"
ok "dardd bad interval" 2 "$dardd" --query-interval -1 e1_1 &&
	has "interval named" "$err" \
	"^dardd: Invalid --query-interval .-1.: out of range, expected seconds from 0.001 to 86400"
ok "dardd bad datapath" 2 "$dardd" --datapath x e1_1 &&
	is "datapath named" "$err" "dardd: Invalid --datapath \`x': expected auto, bpf or kmod"
ok "dardd endless file" 1 "$dardd" -c /dev/zero e1_1 &&
	is "dardd: endless file named" "$err" "dardd: error: Unable to read \`/dev/zero': larger than 256 MiB"
ok "dard-switchd endless file" 1 "$switchd" -c /dev/zero core1 &&
	is "switchd: endless file named" "$err" "dard-switchd: error: Unable to read \`/dev/zero': larger than 256 MiB"
ok "dardd no such host" 1 "$dardd" -c "$tmp/ft4d.conf" core1 &&
	has "no such host named" "$err" "no host .core1."
ok "monitor help" 0 d monitor help && has "monitor usage" "$out" '^Usage: dardctl monitor show'
ok "monitor bad command" 2 d monitor list
ok "stats extra argument" 2 d stats now
ok "flow show without dardd" 1 d flow show && has "no dardd" "$err" '^No dardd in this network namespace'
# The key file: made mode 0600, not replaced without force, rotated.
ok "key gen" 0 d key gen "$tmp/k" &&
	has "key gen mode" "$(stat -c %a "$tmp/k")" '^600$'
ok "key gen again refused" 1 d key gen "$tmp/k" && has "force named" "$err" "exists: give .force."
ok "key gen force" 0 d key gen "$tmp/k" force
# Rotation in two steps: rotate keeps the signing key first and adds one
# second; promote swaps them. keyids FILE: the file's ids, in order.
keyids() { awk '!/^#/ && NF { printf "%s ", $1 }' "$1"; }
ok "key rotate" 0 d key rotate "$tmp/k" &&
	has "rotated" "$out" "key 1 signs, key 2 accepted \(promote it"
is "rotate keeps the signing key first" "$(keyids "$tmp/k")" "1 2 "
k1=$(grep '^1 ' "$tmp/k")
ok "key rotate again" 0 d key rotate "$tmp/k" && has "rotated again" "$out" "key 1 signs, key 3 accepted"
is "rotate again replaces the second" "$(keyids "$tmp/k")" "1 3 "
is "rotate again keeps the first's bytes" "$(grep '^1 ' "$tmp/k")" "$k1"
k3=$(grep '^3 ' "$tmp/k")
ok "key promote" 0 d key promote "$tmp/k" && has "promoted" "$out" "key 3 signs, key 1 still accepted"
is "promote swaps" "$(keyids "$tmp/k")" "3 1 "
is "promote keeps the bytes" "$(grep '^3 ' "$tmp/k")" "$k3"
ok "key promote twice refused" 1 d key promote "$tmp/k" &&
	has "promoted already: said" "$err" "nothing to promote: $tmp/k's newer key, 3, already signs"
is "refused promote: still 3 first" "$(keyids "$tmp/k")" "3 1 "
ok "key rotate after promote" 0 d key rotate "$tmp/k" && has "rotated promoted" "$out" "key 3 signs, key 4 accepted"
is "rotate keeps the promoted key first" "$(keyids "$tmp/k")" "3 4 "
ok "key gen one" 0 d key gen "$tmp/k1"
ok "key promote one key refused" 1 d key promote "$tmp/k1" &&
	has "one key named" "$err" "nothing to promote: $tmp/k1 has one key; .key rotate. first"
is "refused promote leaves the file" "$(keyids "$tmp/k1")" "1 "
ok "key promote extra argument" 2 d key promote "$tmp/k1" force
chmod 644 "$tmp/k"
ok "key rotate open file refused" 1 d key rotate "$tmp/k" && has "mode named" "$err" "k: mode 0644"
ok "key bad command" 2 d key show
export DARD_KEY=$tmp/k2
d key gen >/dev/null
ok "switch query help" 0 d switch help && has "query usage" "$out" 'switch query SWITCH'
ok "switch query a host" 1 d -t "$tmp/ft4d.conf" switch query e1_1 &&
	has "a host named" "$err" "e1_1' is a host"
ok "switch query bad port" 2 d -t "$tmp/ft4d.conf" switch query core1 port 0
ok "switch query bad address" 2 d -t "$tmp/ft4d.conf" switch query core1 at 1.2.3
ok "switch query nobody answers" 1 d -t "$tmp/ft4d.conf" switch query core1 \
	at 127.0.0.1:9 timeout 200 && has "no answer named" "$err" '^No answer from core1'
ok "switch query without a key" 1 d -k "$tmp/none" -t "$tmp/ft4d.conf" switch query core1 \
	at 127.0.0.1:9 && has "key file named" "$err" "Unable to open the key file .$tmp/none."
unset DARD_KEY

# dard-sim --place: JSON a checker can read; errors by line.
sim=${DARD_BIN:-$top/build/bin}/dard-sim
ok "dard-sim help" 0 "$sim" --help && has "sim usage" "$out" '^Usage: dard-sim --place'
ok "dard-sim without --place" 2 "$sim"
ok "dard-sim unknown algo" 2 "$sim" --place --algo ospf && has "algo named" "$err" "unknown --algo .ospf."
ok "dard-sim bad rate" 2 "$sim" --run --rate nan &&
	has "rate named" "$err" "^dard-sim: Invalid --rate .nan.: not a number, expected a positive number"
ok "dard-sim refuses an empty --sched" 2 "$sim" --run --sched , &&
	has "none named" "$err" "^dard-sim: no scheduler in --sched \`,'\$"
ok "dard-sim unknown scheduler" 2 "$sim" --run --sched dard,x &&
	has "schedulers listed" "$err" "^dard-sim: unknown scheduler .x. in --sched: ecmp, pvlb, dard, dard-paper, hedera, sdn-greedy, sdn-optimal, switch-ecmp, sdn-optimal-thesis, bound or all$"
# dard-sim --fail: links between switches, named or random, at times.
ok "dard-sim --fail a host link" 2 "$sim" --run --fail aggr1_1-e1_1@3 &&
	has "host named" "$err" "^dard-sim: --fail .aggr1_1-e1_1@3.: e1_1 is a host"
ok "dard-sim --fail not linked" 2 "$sim" --run --fail core1-core2@3 &&
	has "pair named" "$err" "core1 and core2 are not linked$"
ok "dard-sim --fail unknown node" 2 "$sim" --run --fail aggr1_1-core99@3 &&
	has "two switches wanted" "$err" "expected two switches of fattree:4 as A-B, core:N or random:N$"
ok "dard-sim --fail no time" 2 "$sim" --run --fail aggr1_1-core1 &&
	has "time wanted" "$err" "expected LINK@SECONDS\\[-SECONDS\\]$"
ok "dard-sim --fail bad time" 2 "$sim" --run --fail aggr1_1-core1@inf &&
	has "time named" "$err" "^dard-sim: Invalid --fail time .inf."
ok "dard-sim --fail up before down" 2 "$sim" --run --fail aggr1_1-core1@5-2 &&
	has "order named" "$err" "back up at 2, not after 5$"
ok "dard-sim --fail too many random" 2 "$sim" --run --fail random:17@1 &&
	has "count named" "$err" "expected 1 to 16 core links$"
ok "dard-sim --fail on --place" 2 "$sim" --place --fail random:1@1 &&
	has "mode named" "$err" "fail is for --run only"
ok "dard-sim --fail bad --converge" 2 "$sim" --run --converge nan
ok "dard-sim --fail runs" 0 "$sim" --run --duration 20 \
	--fail aggr1_1-core1@5,random:2@8-12 --sched ecmp,switch-ecmp,dard &&
	has "failures said" "$out" "^3 link failures, switch-ecmp converging in 0.2 s" &&
	has "unfinished column" "$out" "stalled f-s unfinished$" &&
	has "switch-ecmp line" "$out" "^switch-ecmp "
ok "dard-sim --fail core:N" 2 "$sim" --run --fail core:0@1 &&
	has "core count named" "$err" "^dard-sim: Invalid --fail core .0.: out of range, expected 1 to 16 core links$"
ok "dard-sim stride, d-mod-k" 0 "$sim" --place --topo fattree:4 &&
	is "a flow per host" "$(jq '.flows | length' <<<"$out")" 16 &&
	is "contention-free" "$(jq -c '[.L_D, .NL_D]' <<<"$out")" "[1,1]" &&
	is "paths by switch name" "$(jq -r '.flows[0].path | length' <<<"$out")" 5
printf 'e1_1 e2_1\n# two to one\ne3_1 e2_1\n' >"$tmp/demand"
ok "dard-sim demand file" 0 "$sim" --place --algo sdn-greedy --demand "$tmp/demand" &&
	is "NL_D of two flows into e2_1" "$(jq .NL_D <<<"$out")" 2 &&
	is "L_D at least NL_D" "$(jq '.L_D >= .NL_D' <<<"$out")" true
printf 'e1_1 e2_1\ne1_1 nosuch\n' >"$tmp/bad.demand"
ok "dard-sim sdn-optimal on a random demand" 0 "$sim" --place --topo fattree:8 \
	--algo sdn-optimal --demand random &&
	is "sdn-optimal meets the lower bound" "$(jq '.L_D == .NL_D' <<<"$out")" true
ok "dard-sim sdn-optimal refuses tapered aggregation (3tier)" 1 "$sim" --place \
	--topo 3tier --algo sdn-optimal && has "reason given" "$err" 'full bisection'
ok "dard-sim sdn-optimal on tapered ToRs" 0 "$sim" --place --topo fattree:8,3 \
	--algo sdn-optimal --demand random &&
	is "L_D at the lower bound, above NL_D" "$(jq -c '[.L_D == .lower_bound, .lower_bound > .NL_D]' <<<"$out")" \
		"[true,true]"
ok "dard-sim sdn-adaptive, a permutation" 0 "$sim" --place --topo fattree:8 \
	--algo sdn-adaptive && is "single paths" "$(jq -c '[.choice, .L_D]' <<<"$out")" '["sdn-optimal",1]'
ok "dard-sim sdn-adaptive, two into one" 0 "$sim" --place --algo sdn-adaptive --demand "$tmp/demand" &&
	is "multipath" "$(jq -r .choice <<<"$out")" multipath
ok "dard-sim bad demand" 1 "$sim" --place --demand "$tmp/bad.demand" &&
	has "line named" "$err" "bad.demand:2: .nosuch. is no host of fattree:4"
# A demand file is read whole, bounded, each line checked (demandfile.h):
# no endless read, no line cut into two, no word cut short.
ok "dard-sim endless demand" 1 "$sim" --place --demand /dev/zero &&
	is "endless demand named" "$err" "dard-sim: Unable to read \`/dev/zero': larger than 64 MiB"
{ printf 'e1_1 '; printf 'x%.0s' $(seq 4200); echo; } >"$tmp/long.demand"
ok "dard-sim long demand line" 1 "$sim" --place --demand "$tmp/long.demand" &&
	is "long line named" "$err" "dard-sim: $tmp/long.demand:1: longer than 4096 bytes"
printf 'e1_1 e2_1\n%b' 'e1_1\0 e2_1\n' >"$tmp/nul.demand"
ok "dard-sim NUL in demand" 1 "$sim" --place --demand "$tmp/nul.demand" &&
	is "NUL named" "$err" "dard-sim: $tmp/nul.demand:2: a NUL byte"
printf 'e1_1 e2_1 e3_1\n' >"$tmp/three.demand"
ok "dard-sim three words" 1 "$sim" --place --demand "$tmp/three.demand" &&
	is "three words named" "$err" "dard-sim: $tmp/three.demand:1: expected \`SRC DST'"
printf 'e1_1 %s\n' "$(printf 'e%.0s' $(seq 70))" >"$tmp/name.demand"
ok "dard-sim long name" 1 "$sim" --place --demand "$tmp/name.demand" &&
	has "long name not cut" "$err" "name.demand:1: .e{70}. is no host"
printf 'e1_1 e1_1\n' >"$tmp/self.demand"
ok "dard-sim self demand" 1 "$sim" --place --demand "$tmp/self.demand" &&
	has "self named" "$err" 'sends to itself'

# dard-sim --run: a small simulation of every scheduler, end to end.
ok "dard-sim run unknown scheduler" 2 "$sim" --run --sched ecmp,ospf &&
	has "scheduler named" "$err" "unknown scheduler .ospf."
ok "dard-sim run negative step" 2 "$sim" --run --step -1 && has "step named" "$err" "--step"
ok "dard-sim run bad pattern" 2 "$sim" --run --pattern zipf && has "pattern named" "$err" "zipf"
ok "dard-sim run bad csv" 1 "$sim" --run --duration 1 --csv /nonexistent/x.csv &&
	has "csv named" "$err" "/nonexistent/x.csv"
ok "dard-sim run, every scheduler" 0 "$sim" --run --topo fattree:4 --duration 30 \
	--seed 3 --csv "$tmp/sim.csv" &&
	is "nine schedulers" "$(grep -cE '^(ecmp|pvlb|dard|dard-paper|hedera|sdn-greedy|sdn-optimal|sdn-optimal-thesis|bound) ' <<<"$out")" 9 &&
	is "a CSV row per flow and scheduler" "$(($(wc -l <"$tmp/sim.csv") - 1))" \
		"$((9 * $(sed -n 's/^fattree:4, stride, \([0-9]*\) flows.*/\1/p' <<<"$out")))" &&
	is "ECMP and the bound move nothing" \
		"$(awk -F, '($1 == "ecmp" || $1 == "bound") && $8 > 0' "$tmp/sim.csv" | wc -l)" 0 &&
	is "every flow ends after it starts" \
		"$(awk -F, 'NR > 1 && !($6 > $5)' "$tmp/sim.csv" | wc -l)" 0 &&
	has "DARD over ECMP" "$out" '^improvement of dard over ecmp: '
ok "dard-sim run sdn-optimal on Clos" 1 "$sim" --run --topo clos:4,4 --sched sdn-optimal \
	--duration 30 && has "reason given" "$err" 'sdn-optimal: .*fat-tree' &&
	is "before any run" "$(grep -c avg <<<"$out")" 0
ok "dard-sim run all on Clos" 0 "$sim" --run --topo clos:4,4 --duration 30 &&
	has "sdn-optimal skipped, said" "$out" '^sdn-optimal skipped: .*fat-tree' &&
	has "sdn-optimal-thesis skipped, said" "$out" '^sdn-optimal-thesis skipped: .*fat-tree' &&
	is "five schedulers" "$(grep -cE '^(ecmp|pvlb|dard|hedera|sdn-greedy) ' <<<"$out")" 5
ok "dard-sim run refuses --keep 2" 2 "$sim" --run --keep 2 &&
	has "keep named" "$err" "^dard-sim: Invalid --keep .2.: out of range, expected 0 or 1$"
ok "dard-sim run --refine 0 --keep 1" 0 "$sim" --run --duration 20 --sched sdn-optimal \
	--refine 0 --keep 1 && has "sdn-optimal ran" "$out" '^sdn-optimal  *[0-9.]* '
ok "dard-sim run refuses NaN" 2 "$sim" --run --size nan && has "size named" "$err" '--size'
ok "dard-sim run refuses --algo" 2 "$sim" --run --algo sdn-greedy &&
	has "mode named" "$err" '--algo is for --place only'
ok "dard-sim run refuses a billion flows" 2 "$sim" --run --rate 1000 --duration 1e6 &&
	has "count given" "$err" 'at most 5e7'

# dard-sim --run --flows: an experiment's plan.csv replayed; --link and
# --goodput its links; bound where OPT holds.
ok "traffic gen, a plan" 0 d -t fattree:4 traffic gen pattern stride rate 0.2 \
	duration 20 size 512 seed 2 format csv
printf '%s\n' "$out" >"$tmp/plan.csv"
ok "dard-sim run the same traffic drawn" 0 "$sim" --run --duration 20 --seed 2 \
	--sched ecmp,dard,bound
drawn=$(sed 1d <<<"$out")
ok "dard-sim run --flows the plan" 0 "$sim" --run --flows "$tmp/plan.csv" --seed 2 \
	--sched ecmp,dard,bound --csv "$tmp/replay.csv" &&
	has "flows and bytes said" "$out" \
		"^fattree:4, $(($(wc -l <"$tmp/plan.csv") - 1)) flows from $tmp/plan.csv, [0-9]+ MB in all, seed 2$" &&
	is "the plan replayed is the traffic drawn" "$(sed 1d <<<"$out")" "$drawn" &&
	is "flows numbered as in the plan" \
		"$(awk -F, '$1 == "ecmp" { print $2 "," $3 "," $4 }' "$tmp/replay.csv")" \
		"$(sed 1d "$tmp/plan.csv" | cut -d, -f1,3,4)"
printf 'note,bytes,src,dst,id,start\nx,1000,e1_1,e2_1,10,2\ny,1000,e3_1,e4_1,11,1\n' >"$tmp/flows.csv"
ok "dard-sim run --flows, ids and order" 0 "$sim" --run --flows "$tmp/flows.csv" \
	--sched ecmp --csv "$tmp/ids.csv" &&
	is "sorted by start, ids kept" "$(sed 1d "$tmp/ids.csv" | cut -d, -f2,5)" \
		"$(printf '11,1.000000\n10,2.000000')"
printf 'start,src,dst,bytes\n0,e1_1,e2_1,1000\n\n1,e1_1,e1_1,1000\n' >"$tmp/self.csv"
ok "dard-sim run --flows, a bad line" 1 "$sim" --run --flows "$tmp/self.csv" &&
	is "file and line named" "$err" "dard-sim: $tmp/self.csv:4: e1_1 sends to itself"
printf 'start,src,dst\n0,e1_1,e2_1\n' >"$tmp/nobytes.csv"
ok "dard-sim run --flows, a column missing" 1 "$sim" --run --flows "$tmp/nobytes.csv" &&
	has "column named" "$err" "^dard-sim: $tmp/nobytes.csv:1: no .bytes. column"
: >"$tmp/empty.csv"
ok "dard-sim run --flows, an empty file" 1 "$sim" --run --flows "$tmp/empty.csv" &&
	is "empty said" "$err" "dard-sim: $tmp/empty.csv:1: no header: an empty file"
ok "dard-sim run --flows, no file" 1 "$sim" --run --flows "$tmp/none.csv" &&
	has "file named" "$err" "Unable to open .$tmp/none.csv."
ok "dard-sim run --flows with --rate" 2 "$sim" --run --rate 1 --flows "$tmp/plan.csv" &&
	is "both refused" "$err" "dard-sim: --rate draws traffic, and --flows gives it: not both"
ok "dard-sim run --flows with --pattern" 2 "$sim" --run --flows "$tmp/plan.csv" --pattern random
ok "dard-sim --flows on --place" 2 "$sim" --place --flows "$tmp/plan.csv" &&
	has "mode named" "$err" "flows is for --run only"
# 32 MiB at half of 50 Mbit/s: 32 * 8 * 1.048576 / 25 s.
printf 'start,src,dst,bytes\n0,e1_1,e3_1,33554432\n' >"$tmp/one.csv"
ok "dard-sim run --link --goodput" 0 "$sim" --run --flows "$tmp/one.csv" --link 50 \
	--goodput 0.5 --step 0 --sched ecmp,dard,bound --csv "$tmp/one.out" &&
	has "links said" "$out" "^links at 50 Mbit/s, flows sharing 0.5 of it \(--goodput\)$" &&
	is "a flow alone at 25 Mbit/s" "$(cut -d, -f7 "$tmp/one.out" | sed 1d | sort -u)" 10.737418
ok "dard-sim run --goodput alone" 0 "$sim" --run --flows "$tmp/one.csv" --goodput 0.5 \
	--step 0 --sched ecmp --csv "$tmp/one.out" &&
	has "links said" "$out" "^links at the topology's rates, flows sharing 0.5 of it" &&
	is "a flow alone at 500 Mbit/s" "$(cut -d, -f7 "$tmp/one.out" | sed 1d)" 0.536871
ok "dard-sim run refuses --goodput 0" 2 "$sim" --run --goodput 0 &&
	has "goodput named" "$err" "Invalid --goodput .0.: out of range, expected a share above 0, up to 1"
ok "dard-sim run refuses --goodput 1.5" 2 "$sim" --run --goodput 1.5
ok "dard-sim run refuses --link 0" 2 "$sim" --run --link 0 &&
	has "link named" "$err" "Invalid --link .0.: out of range"
ok "dard-sim --link on --place" 2 "$sim" --place --link 50
# OPT needs a sub-fat-tree's up links alike: one slower core link breaks
# that, and --link mends it.
sed 's/^link core1:1 aggr1_1:3$/& capacity 100/' "$tmp/ft4.conf" >"$tmp/slow.conf"
ok "dard-sim run bound on an uneven tree" 1 "$sim" --run --topo "$tmp/slow.conf" \
	--sched ecmp,bound --duration 10 &&
	has "reason given" "$err" "^dard-sim: bound: .*differ in capacity$" &&
	is "before any run" "$(grep -c avg <<<"$out")" 0
ok "dard-sim run all on an uneven tree" 0 "$sim" --run --topo "$tmp/slow.conf" --duration 10 &&
	has "bound skipped, said" "$out" "^bound skipped: .*differ in capacity$" &&
	is "no bound row" "$(grep -c '^bound  *[0-9]' <<<"$out")" 0
ok "dard-sim run bound, --link evens the tree" 0 "$sim" --run --topo "$tmp/slow.conf" \
	--link 100 --sched bound --duration 10 && has "bound row" "$out" '^bound  *[0-9.]* '
ok "dard-sim run bound with --fail" 1 "$sim" --run --sched bound --fail random:1@1 &&
	is "failures refused" "$err" "dard-sim: bound: OPT takes every link up: no failures"
ok "dard-sim run all with --fail" 0 "$sim" --run --duration 10 --fail random:1@1 &&
	has "bound skipped, said" "$out" "^bound skipped: OPT takes every link up: no failures$"

# scripts/sim-tables: the paper's grid, here two small trees.
ok "sim-tables bad argument" 2 "$top/scripts/sim-tables" --bogus
ok "sim-tables, two trees" 0 env DARD_SIM="$sim" "$top/scripts/sim-tables" --topos "fattree:4 clos:4,4" \
	--patterns "stride random" --control-topo fattree:4 --control-rates "0.1 0.2" \
	--out "$tmp/st" -- --duration 20 &&
	is "times for five schedulers on both trees" \
		"$(sed -n '/^## Average/,/^## Each/p' "$tmp/st/tables.md" | grep -v '^| dard-paper ' |
			grep -c '^| [a-z-]* | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* |$')" 5 &&
	has "and the bound on both" "$(cat "$tmp/st/tables.md")" \
		'^| bound (no routing does better) | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* |$' &&
	has "sdn-optimal skips Clos" "$(cat "$tmp/st/tables.md")" '^| sdn-optimal | [0-9.]* | [0-9.]* | - | - |$' &&
	has "so does the thesis's" "$(cat "$tmp/st/tables.md")" '^| sdn-optimal-thesis | [0-9.]* | [0-9.]* | - | - |$' &&
	is "a run file per tree and pattern, and per control rate" "$(ls "$tmp/st/runs" | wc -l)" 10 &&
	is "control traffic at two workloads" \
		"$(grep -c '^| 0\.[12] | [0-9]* | [0-9]* | [0-9]* |$' "$tmp/st/tables.md")" 2

# dard-exp report: its command line, a small experiment's tables and
# JSON, a bad row (daemon/exp is unit-tested in tests/unit/test_exp_*.c;
# the sampler, root, in tests/root/exp.sh).
exp=${DARD_BIN:-$top/build/bin}/dard-exp
ok "dard-exp help" 0 "$exp" --help && has "exp usage" "$out" '^Usage: dard-exp sample --prefix'
ok "dard-exp without a command" 2 "$exp"
ok "dard-exp unknown command" 2 "$exp" nosuch &&
	is "command named" "$err" "dard-exp: unknown command \`nosuch' (try --help)"
ok "dard-exp report without DIR" 2 "$exp" report &&
	is "DIR asked for" "$err" "dard-exp: report: give one DIR (try --help)"
ok "dard-exp report unknown option" 2 "$exp" report --bogus "$tmp" &&
	has "option named" "$err" "^dard-exp report: unrecognized option '--bogus'"
mkdir -p "$tmp/xp/run1" "$tmp/xp/run2"
ok "dard-exp report: no experiment" 1 "$exp" report "$tmp/xp" &&
	is "said so" "$err" "dard-exp: report: $tmp/xp: no results.csv, run1/results.csv or meta: not an experiment directory"
printf 'topo=fattree:4\nlink=10\ngoodput=1\nschedulers=ecmp,dard\nruns=2\nseeds=1 2\nloadavg=0.1\n' \
	>"$tmp/xp/meta"
for r in 1 2; do
	{
		echo pattern,rate,scheduler,id,src,dst,start,seconds,bytes,moves,path
		echo "stride,0.1,ecmp,1,e1_1,e3_1,0,$((8 + 2 * r)),1,0,"
		echo "stride,0.1,dard,1,e1_1,e3_1,0,$((7 + r)),1,0,"
	} >"$tmp/xp/run$r/results.csv"
done
ok "dard-exp report" 0 "$exp" report "$tmp/xp" --json "$tmp/xp.json" &&
	has "the gains table" "$out" '^dard +ecmp +2 +22\.50 +31\.77 +- +- +- no model not significant$' &&
	has "the schedulers' table" "$out" '^ecmp +2 +11\.000 +1\.414 ' &&
	is "the JSON's mean" "$(jq '.schedulers.ecmp.mean' "$tmp/xp.json")" 11 &&
	is "the JSON's pairs" "$(jq '.gains[0].pairs' "$tmp/xp.json")" 2
ok "dard-exp report's JSON by default" 0 "$exp" report "$tmp/xp" &&
	is "DIR/summary.json" "$(jq -r '.layout' "$tmp/xp/summary.json")" runs
echo "stride,0.1,ecmp,2,e1_1,e3_1,0,abc,1,0," >>"$tmp/xp/run2/results.csv"
ok "dard-exp report refuses a bad row" 1 "$exp" report "$tmp/xp" &&
	is "its file and line" "$err" \
		"dard-exp: report: $tmp/xp/run2/results.csv:4: seconds \`abc': not a number"

summary
