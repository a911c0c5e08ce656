# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The checks of tests/guest/run, sourced once the guests have booted: the
# playbook installs and starts, then everything goes through what the
# packages installed (systemctl, dardctl, dpkg, dkms in the guests). It
# uses run's g (a command on a guest), $tmp, $top, $prefix, the maps
# maddr and the .deb paths.

h1=e1_1 # the kernel module's host (dard-dkms builds dard.ko)
h2=e1_2 # BPF's, and the controller's
ctrl=dard-controller.service

# prop NODE UNIT PROPERTY: systemctl show's value.
prop() { g "$1" "systemctl show -p $3 --value $2"; }
active() { [[ $(prop "$1" "$2" ActiveState) == active ]]; }
inactive() { [[ $(prop "$1" "$2" ActiveState) == inactive ]]; }
# restarted NODE UNIT OLD_PID: active again, under another pid.
restarted() {
	local pid
	active "$1" "$2" || return 1
	pid=$(prop "$1" "$2" MainPID)
	[[ -n $pid && $pid != 0 && $pid != "$3" ]]
}
# What dard could leave behind on a host: links, routes and rules of
# both families, pins, TC filters on the fabric interface.
snapshot() {
	g "$1" "ip -o link show | sed 's/^[0-9]*: //; s/ state [A-Z]*//'
		ip route show table all; ip -6 route show table all; ip rule
		find /sys/fs/bpf -mindepth 1 | sort
		tc filter show dev dard0 ingress; tc filter show dev dard0 egress"
}
same_as_baseline() {
	snapshot "$1" >"$tmp/$1.now" &&
		diff "$tmp/$1.baseline" "$tmp/$1.now" >"$tmp/$1.diff" ||
		{ sed 's/^/    /' "$tmp/$1.diff"; return 1; }
}

# playbook NAME START H1-PACKAGES H2-PACKAGES [OPTIONS]: examples/ansible/
# dard.yml against both guests from the runner's namespace, dard_start
# START, with each guest's .deb files (a JSON list) and ansible-playbook's
# OPTIONS (--tags); the output in $tmp/playbook-NAME.log.
playbook() {
	local name=$1 rc
	cat >"$tmp/inventory-$name" <<EOF
[dard]
$h1 ansible_host=${maddr[$h1]} dard_datapath=kmod dard_packages='$3'
$h2 ansible_host=${maddr[$h2]} dard_datapath=bpf dard_controller=true dard_packages='$4'

[dard:vars]
ansible_user=root
ansible_python_interpreter=/usr/bin/python3
ansible_ssh_common_args='-i $cache/id -o IdentitiesOnly=yes -o UserKnownHostsFile=$cache/known_hosts -o StrictHostKeyChecking=yes'
EOF
	# The testbed's --fast, and monitors that never go quiet: both hosts'
	# uplinks are as fast as a path, so two elephants from one host run at
	# their share of it on any path, and a quiet monitor would rightly
	# leave them where they are (dardd(8), --quiet-at); move_checks needs
	# the rounds.
	jq -n --arg d "$tmp/dep" --argjson start "$2" '{dard_deploy: $d, dard_start: $start,
		dard_opts: "--query-interval 0.1 --schedule-interval 2 --idle 3 --quiet-at 0"}' \
		>"$tmp/vars-$name.json"
	ip netns exec "$prefix.mgmt" env ANSIBLE_CONFIG="$tmp/ansible.cfg" \
		timeout -k 5 1200 ansible-playbook -i "$tmp/inventory-$name" \
		"$top/examples/ansible/dard.yml" -e "@$tmp/vars-$name.json" "${@:5}" \
		>"$tmp/playbook-$name.log" 2>&1
	rc=$?
	sed -n '/PLAY RECAP/,$p' "$tmp/playbook-$name.log" | grep . | sed 's/^/    /'
	[[ $rc -eq 0 ]] && return 0
	grep -E -A3 'fatal|FAILED|ERROR' "$tmp/playbook-$name.log" | head -n 20
	diag
	return 1
}
# What the guests' units say, when something failed.
diag() {
	local n
	for n in "${hosts[@]}"; do
		echo "--- $n:"
		g "$n" "systemctl --no-pager list-units 'dard*'; journalctl -b --no-pager -q -n 40 -u 'dard*'" |
			sed 's/^/    /'
	done
}
list() { jq -cn '$ARGS.positional' --args "$@"; }

# A TCP flow of NODE's datapath by source port (dardctl flow show's JSON).
flow_of() {
	g "$1" "dardctl -j flow show dev dard0" |
		jq -c --argjson p "$2" '.[] | select(.proto == "tcp" and .sport == $p)'
}
carried() { flow_of "$1" "$2" | jq -s -e --argjson b "$3" 'any(.[]; .bytes > $b)' >/dev/null; }
dp_stat() { g "$1" "dardctl -j dp stats dard0" | jq ".[0].$2"; }
dp_grew() { (($(dp_stat "$1" "$2") >= $3 + $4)); }
listening() { [[ -n $(g "$1" "ss -Hltn 'sport = :$2'") ]]; }
# serve NODE PORT: an iperf3 server on NODE's ID, a transient unit.
serve() {
	g "$1" "systemd-run -q --unit=dard-test-iperf$2 iperf3 -s -B ${id[$1]} -p $2" &&
		within 60 listening "$1" "$2"
}
sent_all() { jq -e --argjson n "$1" '.error == null and .end.sum_sent.bytes == $n' "$2" >/dev/null; }

install_checks() {
	local n
	# Nothing of the user's: no ~/.ansible, no ansible.cfg of the tree,
	# and ssh's shared connections apart from another run's, whose guests
	# have the same addresses in namespaces of their own.
	cat >"$tmp/ansible.cfg" <<EOF
[defaults]
local_tmp = $tmp/ansible
retry_files_enabled = False
nocolor = True
host_key_checking = True
[ssh_connection]
pipelining = True
control_path_dir = $tmp/ansible-cp
EOF
	# dard-dkms only where the module is the datapath: DKMS's build of it
	# under TCG takes minutes, twice as many with both guests at it.
	t "the playbook installs dard $lower (and on $h1 dard-dkms $version), starts nothing" \
		playbook install false "$(list "$lower_deb" "$dkms_deb")" "$(list "$lower_deb")" || return 1
	phase dkms
	has "$h1: DKMS built dard $version for the guest's kernel $kver" \
		"$(g $h1 "dkms status dard")" "^dard/$version, $kver, [^:]*: installed"
	has "$h1: its dard.ko names that kernel" "$(g $h1 "modinfo -F vermagic dard")" "^$kver "
	for n in "${hosts[@]}"; do
		is "$n: dard $lower installed" "$(g "$n" "dpkg-query -W -f '\${Version}' dard")" "$lower"
		is "$n: dardd@$n enabled by nothing yet" "$(prop "$n" "dardd@$n" UnitFileState)" disabled
		snapshot "$n" >"$tmp/$n.baseline"
	done
	t "the playbook again, --tags start: the units enabled and started" \
		playbook start true "[]" "[]" --tags start
}

unit_checks() {
	local n u
	for n in "${hosts[@]}"; do
		u=dardd@$n
		t "$n: $u is active: READY came" active "$n" "$u"
		has "$n: $u says where its datapath is" "$(prop "$n" "$u" StatusText)" "^$n: datapath on dard0"
		is "$n: $u enabled" "$(prop "$n" "$u" UnitFileState)" enabled
		is "$n: $u's watchdog is 30 s" "$(prop "$n" "$u" WatchdogUSec)" 30s
		t "$n: dardctl stats answers from the installed dardctl" g "$n" "dardctl -j stats >/dev/null"
	done
	t "$h1: the kernel module is its datapath" g $h1 "test -e /sys/module/dard && ip -d link show type dard | grep -q dard"
	t "$h2: the BPF programs are its datapath" g $h2 "tc filter show dev dard0 egress | grep -q dard"
	t "$h2: $ctrl is active" active $h2 $ctrl
	t "$h2: dardctl controller stats answers" g $h2 "dardctl -j controller stats >/dev/null"
}

traffic_checks() {
	local n
	t "$h1 pings $h2 by ID" g $h1 "ping -c 3 -W 10 -q ${id[$h2]}"
	t "$h2 pings $h1 by ID" g $h2 "ping -c 3 -W 10 -q ${id[$h1]}"
	t "$h2: iperf3 listens" serve $h2 5201
	t "$h1: iperf3 listens" serve $h1 5201
	g $h1 "iperf3 -c ${id[$h2]} -B ${id[$h1]} -n 8M -J" >"$tmp/x12.json" 2>&1
	t "8 MB $h1 -> $h2 (kmod -> BPF), whole" sent_all 8388608 "$tmp/x12.json"
	g $h2 "iperf3 -c ${id[$h1]} -B ${id[$h2]} -n 8M -J" >"$tmp/x21.json" 2>&1
	t "8 MB $h2 -> $h1 (BPF -> kmod), whole" sent_all 8388608 "$tmp/x21.json"
	for n in "${hosts[@]}"; do
		t "$n's datapath decapsulated" dp_grew "$n" decap 0 1
	done
}

# Two transfers from h1 put on one path; dardd@h1 must move one off it.
spread_of() {
	g $h1 "dardctl -j flow show dev dard0" | jq -c '[.[] | select(.proto == "tcp" and
		.sport > 46000 and .sport <= 46002) | .path_index] | sort'
}
apart() { [[ $(spread_of) =~ ^\[([0-9]+),([0-9]+)\]$ && ${BASH_REMATCH[1]} != "${BASH_REMATCH[2]}" ]]; }
move_checks() {
	local i m0
	for i in 1 2; do
		serve $h2 $((5300 + i)) || fail "$h2: iperf3 on $((5300 + i))"
	done
	for i in 1 2; do
		g_bg $h1 "iperf3 -c ${id[$h2]} -B ${id[$h1]} -p $((5300 + i)) --cport $((46000 + i)) -t 600" \
			>/dev/null 2>&1 &
		bg_pids+=($!)
	done
	for i in 1 2; do
		t "transfer $i carried 1 MB" within 120 carried $h1 $((46000 + i)) 1000000 || return 1
	done
	m0=$(g $h1 "dardctl -j stats" | jq '.[0].moves')
	for i in 1 2; do
		t "transfer $i put on path 1 by hand" g $h1 "dardctl flow move dev dard0 tcp \
			${id[$h1]}:$((46000 + i)) ${id[$h2]}:$((5300 + i)) path 1"
	done
	echo "    on paths $(spread_of)"
	t "dardd@$h1 moved one of them off path 1" within 120 apart
	echo "    on paths $(spread_of)"
	t "dardd@$h1 counted its moves" test "$(g $h1 "dardctl -j stats" | jq '.[0].moves')" -gt "$m0"
	g $h1 "pkill -f 'iperf3 -c'"
	bg_kill
}

journal_checks() {
	local n w
	for n in "${hosts[@]}"; do
		w=$(g "$n" "journalctl -b -q --no-pager -p warning -u 'dardd@*' -u 'dard-*'")
		is "$n: journalctl -p warning of the dard units is empty" "$w" ""
	done
}

upgrade_checks() {
	local n p1 p2 pc ifi pin c0
	p1=$(prop $h1 dardd@$h1 MainPID)
	p2=$(prop $h2 dardd@$h2 MainPID)
	pc=$(prop $h2 $ctrl MainPID)
	ifi=$(g $h1 "ip -o -d link show type dard" | cut -d: -f1)
	pin=$(g $h2 "stat -c %i /sys/fs/bpf/dard/dard0")
	c0=$(g $h1 "sha256sum /etc/dard/dard.conf /etc/dard/dard.key /etc/dard/dardd@$h1.env")
	t "the playbook, --tags install, upgrades dard $lower to $version" \
		playbook upgrade true "$(list "$deb")" "$(list "$deb")" --tags install || return 1
	for n in "${hosts[@]}"; do
		is "$n: dard $version installed" "$(g "$n" "dpkg-query -W -f '\${Version}' dard")" "$version"
	done
	t "$h1: dardd@$h1 restarted by the upgrade" restarted $h1 dardd@$h1 "$p1"
	t "$h2: dardd@$h2 restarted by the upgrade" restarted $h2 dardd@$h2 "$p2"
	t "$h2: $ctrl restarted by the upgrade" restarted $h2 $ctrl "$pc"
	is "$h1: the module's device stayed across it" "$(g $h1 "ip -o -d link show type dard" | cut -d: -f1)" "$ifi"
	is "$h2: the pinned datapath stayed across it" "$(g $h2 "stat -c %i /sys/fs/bpf/dard/dard0")" "$pin"
	is "$h1: configuration and key kept" \
		"$(g $h1 "sha256sum /etc/dard/dard.conf /etc/dard/dard.key /etc/dard/dardd@$h1.env")" "$c0"
}

# A paced transfer from h1 whose path's top switch loses its port
# toward h2 (a namespace here): it must end whole, moved by the module.
repair_checks() {
	local out=$tmp/repair.json total=$((24 << 20)) pid cur sw turn next port r0 r1 d0 d1
	g_bg $h1 "iperf3 -c ${id[$h2]} -B ${id[$h1]} --cport 45031 -n $total -b 10M -J" >"$out" 2>&1 &
	pid=$!
	t "the repair's transfer carried 2 MB" within 120 carried $h1 45031 2000000 ||
		{ wait $pid; return 1; }
	cur=$(flow_of $h1 45031)
	sw=$(jq -r '.switches | length' <<<"$cur")
	turn=$(jq -r --argjson k "$sw" '.switches[($k - 1) / 2 | floor]' <<<"$cur")
	next=$(jq -r --argjson k "$sw" '.switches[($k - 1) / 2 | floor + 1]' <<<"$cur")
	port=$(dir=$tmp/ns port_to "$turn" "$next")
	r0=$(dp_stat $h1 repath_rehash)
	d0=$(g $h1 "dardctl -j stats" | jq '.[0].moves + .[0].dead_paths')
	t "$turn's port toward $next ($port) down, under the transfer on path $(jq .path_index <<<"$cur")" \
		ip -n "$prefix-$turn" link set dev "${port:-none}" down
	wait $pid
	jq -c '{sent: .end.sum_sent.bytes, received: .end.sum_received.bytes, error}' "$out" | sed 's/^/    /'
	t "the transfer ended whole, with no error" sent_all $total "$out"
	# In band, by whichever came first: the module on TCP's new hash after
	# a timeout, or dardd on its switches' notice of the dead link.
	r1=$(dp_stat $h1 repath_rehash)
	d1=$(g $h1 "dardctl -j stats" | jq '.[0].moves + .[0].dead_paths')
	echo "    the module re-hashed it $((r1 - r0)) times; dardd's moves and dead paths $d0 -> $d1"
	t "it was moved off the dead path, by the module or by dardd" test $((r1 - r0 + d1 - d0)) -gt 0
	ip -n "$prefix-$turn" link set dev "${port:-none}" up
}

restart_checks() {
	local p n0
	p=$(prop $h2 dardd@$h2 MainPID)
	n0=$(prop $h2 dardd@$h2 NRestarts)
	t "$h2: dardd@$h2 killed (SIGKILL)" g $h2 "systemctl kill -s KILL dardd@$h2"
	t "$h2: and restarted by systemd" within 60 restarted $h2 dardd@$h2 "$p"
	is "$h2: one restart counted" "$(prop $h2 dardd@$h2 NRestarts)" $((n0 + 1))
	t "$h1 still pings $h2 by ID" g $h1 "ping -c 3 -W 10 -q ${id[$h2]}"
	p=$(prop $h2 $ctrl MainPID)
	t "$h2: $ctrl killed (SIGKILL)" g $h2 "systemctl kill -s KILL $ctrl"
	t "$h2: and restarted by systemd" within 60 restarted $h2 $ctrl "$p"
	# The watchdog: every unit has run well past 30 s by now; none was
	# restarted for it.
	is "$h1: dardd@$h1 never restarted" "$(prop $h1 dardd@$h1 NRestarts)" 0
	is "no watchdog timeout in either journal" \
		"$(g $h1 "journalctl -b -q --no-pager | grep -ci 'watchdog timeout'"; g $h2 "journalctl -b -q --no-pager | grep -ci 'watchdog timeout'")" \
		"$(printf '0\n0')"
}

stop_checks() {
	t "$h1: systemctl stop dardd@$h1" g $h1 "systemctl stop dardd@$h1"
	t "$h1: no pin, device, route or filter left" same_as_baseline $h1
	t "$h2: systemctl stop dardd@$h2 $ctrl" g $h2 "systemctl stop dardd@$h2 $ctrl"
	t "$h2: no pin, route or filter left" same_as_baseline $h2
	t "$h2: the controller's socket is gone" g $h2 "test ! -e /run/dard/controller.sock"
}

# dpkg -r with dardd running, then dpkg -P, on h1 (dard-dkms too); h2's
# dard purged.
remove_checks() {
	t "$h1: dardd@$h1 started again" g $h1 "systemctl start dardd@$h1"
	t "$h1: dpkg -r dard dard-dkms" g $h1 "dpkg -r dard dard-dkms >/dev/null"
	t "$h1: dardd@$h1 stopped by it" inactive $h1 dardd@$h1
	t "$h1: nothing of the datapath left" same_as_baseline $h1
	t "$h1: the programs are gone" g $h1 "test ! -e /usr/sbin/dardd -a ! -e /usr/sbin/dardctl"
	t "$h1: the configuration stays" g $h1 "test -e /etc/dard/dard.conf -a -e /etc/dard/dard.key"
	is "$h1: DKMS knows no dard" "$(g $h1 "dkms status dard")" ""
	is "$h1: no dard.ko left" "$(g $h1 "find /lib/modules -name 'dard.ko*'")" ""
	t "$h1: the loaded module unloads: nothing holds it" g $h1 "rmmod dard"
	t "$h1: dpkg -P dard" g $h1 "dpkg -P dard >/dev/null"
	t "$h1: /etc/dard is gone" g $h1 "test ! -e /etc/dard"
	is "$h1: no enabled instance left" "$(g $h1 "ls /etc/systemd/system/*.wants/ | grep -E 'dardd@|dard-switchd@|dard-controller'")" ""
	t "$h2: dpkg -P dard" g $h2 "dpkg -P dard >/dev/null"
	t "$h2: /etc/dard is gone" g $h2 "test ! -e /etc/dard"
	t "$h2: nothing of the datapath left" same_as_baseline $h2
}

checks() {
	local n
	declare -gA id
	for n in "${hosts[@]}"; do
		id[$n]=$("$dardctl" -t "$tmp/dep/$n/etc/dard/dard.conf" -j addr show "$n" | jq -r '.[0].id')
	done
	install_checks || return 1
	unit_checks
	switch_checks
	traffic_checks
	move_checks
	journal_checks
	upgrade_checks
	switch_faults
	repair_checks
	restart_checks
	stop_checks
	remove_checks
	phase checks
}

# dard-switchd@tor1_1 as a unit in h1, in a network namespace of its own
# there ("sw", joined by a drop-in's NetworkNamespacePath=) whose dummy
# ports hold tor1_1's addresses: its set-up script, then the unit.
sw=tor1_1
sw_snapshot() {
	g $h1 "ip netns exec sw sh -c 'ip -o link show | sed \"s/^[0-9]*: //; s/ state [A-Z]*//\"
		ip route show table all; ip rule
		for p in p1 p2 p3; do tc filter show dev \$p ingress; tc filter show dev \$p egress; done'"
}
switch_checks() {
	local u=dard-switchd@$sw p
	g $h1 "cat >/run/dard-$sw.sh" <"$tmp/dep/$sw/setup.sh"
	# Its answers begin after one counting window: 0.2 s, not 1 s.
	sed 's/^DARD_SWITCHD_OPTS="\(.*\)"$/DARD_SWITCHD_OPTS="\1 --window 0.2"/' \
		"$tmp/dep/$sw/etc/dard/$u.env" | g $h1 "cat >/etc/dard/$u.env"
	t "$h1: a namespace with $sw's ports, and $sw's set-up script in it" g $h1 "
		ip netns add sw && ip -n sw link set lo up &&
		$(awk '$1 == "addr" && $2 == "add" { printf "ip -n sw link add %s type dummy && ip -n sw addr add %s dev %s && ip -n sw link set %s up && ", $5, $3, $5, $5 }' \
			"$tmp/ns/node/$sw.batch")
		DARD_BIN=/usr/sbin DARD_START=0 ip netns exec sw bash /run/dard-$sw.sh >/dev/null" || return 1
	t "$h1: $u joins it by a drop-in" g $h1 "mkdir -p /run/systemd/system/$u.service.d &&
		printf '[Service]\nNetworkNamespacePath=/run/netns/sw\n' \
			>/run/systemd/system/$u.service.d/netns.conf && systemctl daemon-reload"
	sw_snapshot >"$tmp/sw.baseline"
	t "$h1: systemctl start $u" g $h1 "systemctl start $u"
	t "$h1: $u is active: READY came" active $h1 $u
	t "$h1: it answers a query, in its namespace" within 60 g $h1 "ip netns exec sw dardctl switch query $sw timeout 2000 >/dev/null"
}
# After the journal's check and the upgrade (which restarted it).
switch_faults() {
	local u=dard-switchd@$sw p
	t "$h1: $u active after the upgrade" active $h1 $u
	t "$h1: and answers" within 60 g $h1 "ip netns exec sw dardctl switch query $sw timeout 2000 >/dev/null"
	p=$(prop $h1 $u MainPID)
	t "$h1: $u killed (SIGKILL)" g $h1 "systemctl kill -s KILL $u"
	t "$h1: and restarted by systemd" within 60 restarted $h1 $u "$p"
	t "$h1: it answers again" within 60 g $h1 "ip netns exec sw dardctl switch query $sw timeout 2000 >/dev/null"
	t "$h1: systemctl stop $u" g $h1 "systemctl stop $u"
	sw_snapshot >"$tmp/sw.now"
	t "$h1: its counters' filters gone, the tables as set-up left them" \
		diff "$tmp/sw.baseline" "$tmp/sw.now"
	g $h1 "rm -rf /run/systemd/system/$u.service.d; systemctl daemon-reload; ip netns del sw"
}
