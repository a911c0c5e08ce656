#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The systemd units (systemd/*.service) and the samples for /etc/dard
# (etc/dard/), offline: no systemd needs to run. Each unit is verified
# by systemd-analyze in a root made for it (this machine's own units,
# which the ours name, our programs in /usr/sbin and our units in
# /etc/systemd/system), where any word it says fails the test; a broken
# copy must fail the same check. Then what every unit must have, its
# environment file's sample, its exposure (systemd-analyze security) and
# the sample configuration's parse. No root needed.
#
#   $tmp/root/usr/lib/systemd/system  this machine's units (targets, ...)
#   $tmp/root/usr/sbin                dardd dard-switchd dard-controller
#   $tmp/root/etc/systemd/system      systemd/*.service

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
if ! command -v systemd-analyze >/dev/null || [[ ! -d /lib/systemd/system ]]; then
	echo "skip units.sh: needs systemd-analyze (Debian's systemd)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suite=units.sh
source "$top/tests/lib.sh"

# The highest exposure systemd-analyze security may score a unit (0 to
# 10; ours are 2.2 to 2.4): a hardening option lost fails the test.
max_exposure=3.0

root=$tmp/root
mkdir -p "$root/usr/sbin" "$root/usr/lib/systemd" "$root/etc/systemd/system"
cp -a /lib/systemd/system "$root/usr/lib/systemd/"
cp "$bin/dardd" "$bin/dard-switchd" "$bin/dard-controller" "$root/usr/sbin/"
# dardd@'s ExecStartPre runs /bin/sh (it loads dard.ko when told to use
# the kernel module: kmod.md), which every Debian system has.
mkdir -p "$root/bin"
cp -L /bin/sh "$root/bin/sh"
cp "$top"/systemd/*.service "$root/etc/systemd/system/"

# verify NAME UNIT: clean is exit 0 and not a word.
verify() {
	ok "$1: systemd-analyze verify" 0 systemd-analyze verify --man=no \
		--root="$root" "$2"
	is "$1: verify says nothing" "$out$err" ""
}

units=0
for f in "$top"/systemd/*.service; do
	u=$(basename "$f")
	units=$((units + 1))
	# A template is verified as one instance of it.
	unit=${u/@./@test.}
	verify "$u" "$unit"
	text=$(cat "$f")
	has "$u: SPDX line" "$(head -1 "$f")" "^# SPDX-License-Identifier: "
	has "$u: Type=notify" "$text" "^Type=notify$"
	has "$u: a watchdog" "$text" "^WatchdogSec=[1-9]"
	has "$u: restarts on failure" "$text" "^Restart=on-failure$"
	has "$u: no new privileges" "$text" "^NoNewPrivileges=yes$"
	has "$u: a bounding set" "$text" "^CapabilityBoundingSet="
	has "$u: the network first" "$text" "^After=network-online.target$"
	# /run/dard is shared (scripts/testbed's state, other daemons'
	# sockets): a unit that makes it must not remove it when it stops.
	if grep -q "^RuntimeDirectory=" "$f"; then
		has "$u: its RuntimeDirectory outlives it" "$text" \
			"^RuntimeDirectoryPreserve=yes$"
	fi
	# Each environment file has its sample, which names the options
	# variable ExecStart expands.
	var=$(sed -n 's/^ExecStart=.*\$\([A-Z_]*\).*/\1/p' "$f")
	has "$u: ExecStart takes options from the environment" "$var" "_OPTS$"
	for env in $(sed -n 's|^EnvironmentFile=-/etc/dard/\([^%]*\.env\)$|\1|p' "$f"); do
		is "$u: etc/dard/$env is there" \
			"$([[ -f $top/etc/dard/$env ]] && echo yes)" yes
		has "$u: etc/dard/$env names \$$var" \
			"$(cat "$top/etc/dard/$env" 2>/dev/null)" "^#?$var="
	done
	ok "$u: exposure at most $max_exposure" 0 systemd-analyze security \
		--offline=yes --root="$root" --threshold="${max_exposure/./}" \
		"$unit"
	echo "     $(grep -o 'Overall exposure level.*' <<<"$out")"
done
is "three units" "$units" 3

# The check fails a broken unit: a misspelt key, a missing program.
sed 's/^NoNewPrivileges=/NoNewPriviledges=/' "$top/systemd/dardd@.service" \
	>"$root/etc/systemd/system/dardd@.service"
systemd-analyze verify --man=no --root="$root" dardd@test.service \
	>"$tmp/out" 2>&1
has "a misspelt key is caught" "$(cat "$tmp/out")" "Unknown key 'NoNewPriviledges'"
cp "$top/systemd/dardd@.service" "$root/etc/systemd/system/"
rm "$root/usr/sbin/dardd"
ok "a missing program is caught" 1 systemd-analyze verify --man=no \
	--root="$root" dardd@test.service
has "the missing program named" "$err" "/usr/sbin/dardd is not executable"

# syscalls.py (notify.sh's check of the daemons' system calls under
# strace) refuses what systemd would: each line below, alone after an
# allowed one, against dardd@.service with the implied groups added to
# its SystemCallFilter=, so that only the option named can refuse it.
sed 's/^SystemCallFilter=@system-service bpf$/& @clock @module @raw-io syslog sethostname/' \
	"$top/systemd/dardd@.service" >"$tmp/wide.service"
has "the widened unit" "$(cat "$tmp/wide.service")" "@raw-io syslog sethostname$"
fine='1 openat(AT_FDCWD, "/etc/dard/dard.conf", O_RDONLY|O_CLOEXEC) = 3
1 socket(AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, NETLINK_ROUTE) = 4
1 mmap(NULL, 8192, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_DENYWRITE, 3, 0) = 0x7f00
1 mprotect(0x7f00, 4096, PROT_READ) = 0
1 openat(AT_FDCWD, "/tmp/x", O_WRONLY|O_CREAT|O_CLOEXEC, 0600) = 5
1 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD) = 7'
printf '%s\n' "$fine" >"$tmp/fine.strace"
ok "syscalls.py: allowed calls pass" 0 python3 "$top/tests/cli/syscalls.py" \
	"$tmp/wide.service" "$tmp/fine.strace"
has "syscalls.py: says so" "$out" "^5 calls, all allowed$"
while IFS='%' read -r call why; do
	printf '%s\n1 %s\n' "$fine" "$call" >"$tmp/bad.strace"
	ok "syscalls.py refuses ${call%%(*}: $why" 1 python3 \
		"$top/tests/cli/syscalls.py" "$tmp/wide.service" "$tmp/bad.strace"
	has "syscalls.py names $why" "$out" "refused: .* by $why"
done <<'EOF2'
clock_settime(CLOCK_REALTIME, {tv_sec=0, tv_nsec=0}) = 0%ProtectClock=yes
finit_module(3, "", 0) = 0%ProtectKernelModules=yes
iopl(3) = 0%PrivateDevices=yes
syslog(10 /* SYSLOG_ACTION_SIZE_BUFFER */) = 16384%ProtectKernelLogs=yes
sethostname("x", 1) = 0%ProtectHostname=yes
socket(AF_PACKET, SOCK_RAW, 768) = 5%RestrictAddressFamilies= \(AF_PACKET\)
socket(AF_INET6, SOCK_DGRAM, 0 <unfinished ...>%RestrictAddressFamilies= \(AF_INET6\)
unshare(CLONE_NEWNET) = 0%RestrictNamespaces=yes
clone(child_stack=NULL, flags=CLONE_NEWNS|SIGCHLD) = 7%RestrictNamespaces=yes
mprotect(0x7f00, 4096, PROT_READ|PROT_EXEC) = 0%MemoryDenyWriteExecute=yes
mmap(NULL, 4096, PROT_READ|PROT_WRITE|PROT_EXEC, MAP_PRIVATE, -1, 0) = 0x7f00%MemoryDenyWriteExecute=yes
fchmodat(AT_FDCWD, "/tmp/x", 04755) = 0%RestrictSUIDSGID=yes
sched_setscheduler(0, SCHED_FIFO, [1]) = 0%RestrictRealtime=yes
personality(PER_BSD) = 0%LockPersonality=yes
kexec_load(0, 0, NULL, 0) = -1 EPERM%SystemCallFilter=
EOF2

# The sample configuration parses (dardd stops at the unknown host).
ok "dard.conf.example parses" 1 "$bin/dardd" -c \
	"$top/etc/dard/dard.conf.example" nosuch
has "dard.conf.example is a fattree:4" "$err" "no host \`nosuch' in fattree:4"

summary
