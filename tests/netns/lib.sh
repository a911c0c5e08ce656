# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What the namespace tests share, on top of tests/lib.sh (counts, t,
# within, bounded, the root rule): on() to run a command in a node,
# bounded in time, and the look-ups the tests make on a testbed (a
# host's ID, its datapath's flows, a TCP flow by source port, the
# switches it crosses, a program's pids, dardd's and the datapath's
# counters, a node's management address); short connections (mice.py)
# and their servers; link faults (nftables); whether a testbed's routes
# are back, dard's or BGP's. Source it with $suite set, and $testbed,
# $prefix and $dardctl set before calling what needs them ($tmp and
# $top for the mice, $dir for the routes).

source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
need_root

# on NODE CMD...: runs CMD in NODE of the testbed $prefix ($testbed),
# killed after $DARD_TEST_CMD_TIMEOUT seconds; on_bg NODE CMD... for what
# runs in the background for as long as it needs (a server, a transfer
# with its own end): the testbed's down stops it.
on() { bounded "$testbed" exec --prefix "$prefix" "$@"; }
on_bg() { "$testbed" exec --prefix "$prefix" "$@"; }
# hosts_of PREFIX: the host nodes of testbed PREFIX, one a line.
hosts_of() { awk '$2 == "host" { print $1 }' "$DARD_TESTBED_DIR/$1/nodes"; }
# ctl_jq NODE FILTER [JQ OPTIONS...] -- ARGS...: whether `jq -e FILTER'
# holds for `dardctl -j ARGS' in NODE. Needs $dardctl.
ctl_jq() {
	local node=$1 filter=$2 opts=()
	shift 2
	while [[ $# -gt 0 && $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	on "$node" "$dardctl" -j "$@" | jq -e "${opts[@]}" "$filter" >/dev/null
}
# listening NODE PORT: whether a TCP socket listens on PORT in NODE.
listening() { [[ -n $(on "$1" ss -Hltn "sport = :$2") ]]; }
# The port of switch $1 on its link to switch $2: the /31 whose other
# address is $2's (the testbed's batch files in $dir).
port_to() {
	awk -v peer="$dir/node/$2.batch" '
		BEGIN { while ((getline l < peer) > 0) {
			split(l, w, " "); if (w[1] == "addr") { split(w[3], a, "/"); mine[a[1]] = 1 } } }
		$1 == "addr" && $3 ~ /\/31$/ {
			split($3, a, "/"); n = split(a[1], o, ".")
			o[4] = o[4] % 2 ? o[4] - 1 : o[4] + 1
			if ((o[1] "." o[2] "." o[3] "." o[4]) in mine) print $5
		}' "$dir/node/$1.batch"
}
# A host's ID, as the testbed's configuration has it. Needs $dardctl.
id_of() { on "$1" "$dardctl" -j addr show "$1" | jq -r '.[0].id'; }
# flows NODE: every flow in NODE's datapath on eth0 (flow show's JSON).
flows() { on "$1" "$dardctl" -j flow show dev eth0; }
# The TCP flow in node $1's datapath whose source port is $2 (JSON).
tcp_flow() {
	flows "$1" | jq -c --argjson p "$2" '.[] | select(.proto == "tcp" and .sport == $p)'
}
has_flow() { [[ -n $(tcp_flow "$1" "$2") ]]; }
# acks_mouse NODE SPORT DPORT: whether the TCP flow from port SPORT to
# port DPORT in NODE's datapath, a transfer's ACK stream, has carried
# over 100 packets and no payload, and is no elephant.
acks_mouse() {
	flows "$1" | jq -e --argjson s "$2" --argjson d "$3" '
		[.[] | select(.proto == "tcp" and .sport == $s and .dport == $d)] |
		length == 1 and .[0].packets > 100 and .[0].payload == 0 and
		.[0].elephant == false' >/dev/null
}
# most_per_link [FIRST [N]]: of the routes on standard input, one a line
# whose switches start at field FIRST (default 1), the most on any one
# directed switch-switch link; 0 unless N routes were read, when N is
# given (a look-up that found no flow is no spread).
most_per_link() {
	awk -v f="${1:-1}" -v want="${2:-0}" '
		NF >= f { for (i = f; i < NF; i++) n[$i ">" $(i + 1)]++; r++ }
		END { m = 0; for (l in n) if (n[l] > m) m = n[l]
		      print (want && r != want ? 0 : m) }'
}
# crosses NODE SPORT SWITCH: whether that flow's path crosses SWITCH.
crosses() { tcp_flow "$1" "$2" | jq -e --arg s "$3" '.switches | index($s) != null' >/dev/null; }
# The pids of program $2 in node $1's namespace.
pids_of() {
	local p
	for p in $(ip netns pids "$prefix-$1" 2>/dev/null); do
		[[ $(cat /proc/$p/comm 2>/dev/null) == "$2" ]] && echo "$p"
	done
}
# dardd_stat NODE FIELD: a counter of NODE's dardd (dardctl stats).
dardd_stat() { on "$1" "$dardctl" -j stats | jq ".[0].$2"; }
# dardd_stats NODE FIELD...: several of NODE's dardd counters, from one
# answer (so that they agree with each other), on one line.
dardd_stats() {
	local node=$1 f
	shift
	on "$node" "$dardctl" -j stats |
		jq -r "[$(for f in "$@"; do printf '.[0].%s,' "$f"; done | sed 's/,$//')] | map(tostring) | join(\" \")"
}
# dp_stat NODE FIELD: a counter of NODE's datapath on eth0 (dp stats).
dp_stat() { on "$1" "$dardctl" -j dp stats eth0 | jq ".[0].$2"; }
# mgmt_addr NODE: NODE's address on the management LAN.
mgmt_addr() { on "$1" ip -4 -o addr show dev mgmt0 | awk '{ split($4, a, "/"); print a[1]; exit }'; }
# stop_prog NODE PROG [SIGNAL]: signals PROG's processes in NODE (TERM by
# default) and waits, within $DARD_TEST_CMD_TIMEOUT, until they are gone.
stop_prog() {
	local p
	for p in $(pids_of "$1" "$2"); do kill -"${3:-TERM}" "$p" 2>/dev/null; done
	within "$DARD_TEST_CMD_TIMEOUT" prog_gone "$1" "$2"
}
prog_gone() { [[ -z $(pids_of "$1" "$2") ]]; }
# fresh_pcs DIR: the namespaces of `dardctl deploy netns DIR' made to
# look like freshly booted testbed PCs: only the addresses the testbed
# gives (link /31s and the management LAN), under interface names of
# their own (enp0sK). Returns non-zero, naming what failed.
fresh_pcs() {
	local d=$1 name kind ns dev k
	ip -batch "$d/setup.batch" || { echo "creating the namespaces failed"; return 1; }
	# The management namespace is the batch's first.
	ip -n "$(awk 'NR == 1 { print $3 }' "$d/setup.batch")" -batch "$d/mgmt.batch" ||
		{ echo "the management LAN failed"; return 1; }
	while read -r name kind ns; do
		grep -E '^addr add [0-9.]+/(31|16) dev (p[0-9]+|eth0|mgmt0)$' "$d/node/$name.batch" |
			ip -n "$ns" -batch - || { echo "addresses of $name failed"; return 1; }
		k=0
		for dev in $(ip -n "$ns" -o link show | awk -F': ' '$2 != "lo" { sub("@.*", "", $2); print $2 }'); do
			ip -n "$ns" link set dev "$dev" name "enp0s$k" &&
				ip -n "$ns" link set dev "enp0s$k" up || return 1
			k=$((k + 1))
		done
	done <"$d/nodes"
}

# Short connections (mice.py) to servers (mice_server.py) on port 5301;
# need $top and $tmp.
# mice_start TAG N TIMEOUT SRC DST...: N connections in the background,
# spread over the pairs SRC -> DST; mice_wait TAG waits for them and sets
# $done_n, $last (when the last one completed), $longest (the longest
# one's seconds) and $slow (how many took over 0.5 s).
mice_start() {
	local tag=$1 n=$2 timeout=$3 i=0
	shift 3
	local k=$(($# / 2))
	eval "mice_$tag=()"
	rm -f "$tmp/mice.$tag".*
	while [[ $# -gt 0 ]]; do
		on "$1" python3 "$top/tests/netns/mice.py" "$(id_of "$1")" "$(id_of "$2")" \
			$((n / k)) "$timeout" >"$tmp/mice.$tag.$i" &
		eval "mice_$tag+=($!)"
		i=$((i + 1))
		shift 2
	done
}
mice_wait() {
	local f c l d s
	eval "wait \${mice_$1[@]}"
	done_n=0 last=0 longest=0 slow=0
	for f in "$tmp/mice.$1".*; do
		read -r c l d s <"$f" || continue
		done_n=$((done_n + c))
		slow=$((slow + s))
		last=$(awk -v a="$last" -v b="$l" 'BEGIN { print (b > a ? b : a) }')
		longest=$(awk -v a="$longest" -v b="$d" 'BEGIN { print (b > a ? b : a) }')
	done
}
mice_run() {
	mice_start run "$@"
	mice_wait run
}
servers_start() {
	local h
	for h in "$@"; do
		# Not a job of ours: killing it is no news.
		(on "$h" python3 "$top/tests/netns/mice_server.py" "$(id_of "$h")" 2>>"$tmp/server.err" &)
	done
	for h in "$@"; do
		within 30 listening "$h" 5301 || fail "the mice's server listening on $h"
	done
}
servers_stop() {
	local h p
	for h in "$@"; do
		for p in $(pids_of "$h" python3); do
			grep -q server.py "/proc/$p/cmdline" 2>/dev/null && kill "$p"
		done
	done
}

# link_fault NODE PORT { drop | loss PERCENT | clear }: what arrives on
# NODE's PORT is dropped (all, or at random PERCENT of it), the carrier
# up: a fault only probes (BFD, TCP) see. Faulting both ends of a link
# faults both directions. nftables' netdev ingress hook: the kernel has
# neither netem nor matchall here.
link_fault() {
	local ns=$prefix-$1 t=fault_$2
	ip netns exec "$ns" nft delete table netdev "$t" 2>/dev/null
	case $3 in
	clear) return 0 ;;
	drop) ip netns exec "$ns" nft -f - <<-EOF ;;
		table netdev $t {
			chain in {
				type filter hook ingress device "$2" priority 0; policy drop;
			}
		}
	EOF
	loss) ip netns exec "$ns" nft -f - <<-EOF ;;
		table netdev $t {
			chain in {
				type filter hook ingress device "$2" priority 0; policy accept;
				numgen random mod 100 < $4 drop
			}
		}
	EOF
	*) return 2 ;;
	esac
}

# Whether switch $1 has its routes back, as the testbed's files say (need
# $prefix and $dir): every route of its batch file is in its tables
# again (Linux removes a port's routes when it goes down, dard-switchd
# puts them back; connected and local routes are the kernel's own).
routes_back() {
	[[ $(ip -n "$prefix-$1" route show table all |
		grep -v '^local \|^broadcast \|proto kernel' | grep -c ' dev p[0-9]') -ge \
		$(grep -c '^route add .* dev p[0-9]' "$dir/node/$1.batch") ]]
}
all_routes_back() {
	local n
	for n in $(switches_of); do
		routes_back "$n" || return 1
	done
}
switches_of() { awk '$2 == "switch" { print $1 }' "$dir/nodes"; }
# --routing bgp: whether switch $1's kernel holds exactly the (prefix,
# next hop) pairs its NODE.expect counts (testbed up waits for at least
# as many: more is a fault a test must see, not a reason to wait).
bgp_nexthops() { ip -n "$prefix-$1" -o route show proto bgp | grep -o " via " | wc -l; }
bgp_converged() { [[ $(bgp_nexthops "$1") -eq $(<"$dir/node/$1.expect") ]]; }
all_bgp_converged() {
	local n
	for n in $(switches_of); do
		bgp_converged "$n" || return 1
	done
}
