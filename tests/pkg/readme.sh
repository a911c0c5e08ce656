#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# README's "Installing" section, followed literally as a new operator
# would: every line of it indented four spaces is a command, run in order
# as root from a fresh clone of this commit (git clone, then HEAD's
# commit: what is not committed is not tested).
#
#   / (read-only lower) --overlay--> throwaway root, chroot, own mounts
#        + tmpfs upper                  README's commands run here
#
# Everything they change (packages, /etc/dard, /usr) lands in a tmpfs
# overlay of / in a private mount namespace and goes with it, so the
# machine is left as it was. systemd is not running here: a stand-in
# systemctl checks that each unit README enables is installed and passes
# systemd-analyze verify, and records it. Then the section's results are
# checked: the programs and units installed, /etc/dard's configuration
# and key usable, and, after its removal command, nothing of dard left:
# no program, unit, module source, package, /etc/dard or enabled link.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
suite=readme
source "$top/tests/lib.sh"

if [[ $EUID -ne 0 ]]; then
	echo "readme: needs root (mount namespace, chroot, dpkg): skipped"
	echo "readme: 0 passed, 0 failed"
	exit 0
fi
tmp=$(mktemp -d /tmp/pkg-readme.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# steps FILE: the commands of its "Installing" section, to the next
# underlined title.
steps() {
	awk 'prev == "Installing" && /^-+$/ { on = 1 }
	     on && /^-+$/ && prev != "Installing" { exit }
	     on && /^    [^ ]/ { sub(/^    /, ""); print }
	     { prev = $0 }' "$1"
}
# It cannot follow a README that moved or renamed the section.
printf 'Install\n-------\n\n    make deb\n' > "$tmp/bad"
is "no section, no commands" "$(steps "$tmp/bad")" ""
printf 'Installing\n----------\n\n    make deb\n\nNext\n----\n\n    rm -rf /\n' > "$tmp/bad"
is "the section ends at the next title" "$(steps "$tmp/bad")" "make deb"
steps "$top/README" > "$tmp/steps"
is "README has an Installing section with commands" "$(test -s "$tmp/steps" && echo yes)" yes
for want in "scripts/install-deps" "make deb" "dpkg -i " "topo gen" "key gen" \
	"systemctl enable" "dpkg -P "; do
	has "it says $want" "$(cat "$tmp/steps")" "$want"
done
rev=$(git -C "$top" rev-parse HEAD)

# Inside the throwaway root: the stand-in systemctl, then the steps.
mkdir -p "$tmp/fake"
cat > "$tmp/fake/systemctl" <<'EOF'
#!/bin/bash
# systemctl [enable [--now]] UNIT...: the unit must be installed and
# verify; start is what this machine (no systemd) cannot do.
[[ $1 == enable ]] || { echo "systemctl stand-in: only enable: $*" >&2; exit 1; }
shift
[[ $1 == --now ]] && shift
for u in "$@"; do
	[[ $u == *.* ]] || u=$u.service
	tmpl=$u
	[[ $u == *@?*.service ]] && tmpl=${u%%@*}@.service
	f=/lib/systemd/system/$tmpl
	[[ -f $f ]] || { echo "systemctl stand-in: $u: no unit $f" >&2; exit 1; }
	systemd-analyze verify "/lib/systemd/system/$u" || exit 1
	echo "$u" >> /run/readme-enabled
	# The link systemctl enable makes, which purge must take away.
	mkdir -p /etc/systemd/system/multi-user.target.wants
	ln -sf "$f" "/etc/systemd/system/multi-user.target.wants/$u"
done
EOF
chmod +x "$tmp/fake/systemctl"
cat > "$tmp/run" <<EOF
#!/bin/bash
set -e
trap 'echo "readme-run: line \$LINENO: \$BASH_COMMAND failed" >&2' ERR
export PATH=/readme-fake:/usr/local/sbin:/usr/sbin:/sbin:/usr/local/bin:/usr/bin:/bin
git clone -q --no-local "$top" /root/dard
cd /root/dard
git -c advice.detachedHead=false checkout -q "$rev"
n=0
while IFS= read -r line; do
	n=\$((n + 1))
	echo "readme step \$n: \$line"
	bash -ec "\$line" < /dev/null || { echo "README step \$n failed: \$line" >&2; exit 1; }
	case \$line in dpkg\ -P*) ;; *)
		# What the steps before removal leave, for the checks.
		echo "after \$n" > /run/readme-state
		for f in /usr/sbin/dardd /usr/sbin/dardctl /usr/bin/dard-sim \
			/etc/dard/dard.conf /etc/dard/dard.key; do
			[[ -e \$f ]] && echo "\$f" >> /run/readme-state
		done
		ls /usr/src | grep '^dard-' >> /run/readme-state || true
		dardctl topo show > /dev/null 2>&1 && echo "topo show works" >> /run/readme-state
		;;
	esac
done < /readme-steps
echo "left:" > /run/readme-left
{ ls /usr/sbin /usr/bin /lib/systemd/system /usr/src /etc/systemd/system/*.wants \
	2>/dev/null | grep -i dard || true
  [[ ! -e /etc/dard ]] || find /etc/dard
  dpkg-query -W -f='\${Package} \${Status}\n' dard dard-dkms 2>/dev/null |
	grep -v not-installed || true; } >> /run/readme-left
EOF
chmod +x "$tmp/run"

# The overlay: / read-only below, a tmpfs above; /proc, /sys, /dev bound.
# The results come out through $tmp/res, a directory outside the overlay.
mkdir -p "$tmp/ovl" "$tmp/res"
ok "README's steps in a throwaway root (about two minutes)" 0 \
	timeout 1200 unshare -m --propagation private bash -ec "
	mount -t tmpfs tmpfs '$tmp/ovl'
	mkdir -p '$tmp/ovl/upper' '$tmp/ovl/work' '$tmp/ovl/root'
	mount -t overlay overlay -o lowerdir=/,upperdir='$tmp/ovl/upper',workdir='$tmp/ovl/work' '$tmp/ovl/root'
	r='$tmp/ovl/root'
	for m in proc sys dev; do mount --rbind /\$m \$r/\$m; done
	mount -t tmpfs tmpfs \$r/run
	mkdir -p \$r/readme-fake
	cp '$tmp/fake/systemctl' \$r/readme-fake/
	cp '$tmp/steps' \$r/readme-steps
	cp '$tmp/run' \$r/readme-run
	rc=0
	chroot \$r /readme-run > '$tmp/res/log' 2>&1 || rc=\$?
	cp \$r/run/readme-* '$tmp/res/' 2>/dev/null || true
	exit \$rc" || tail -30 "$tmp/res/log"

state=$(cat "$tmp/res/readme-state" 2>/dev/null)
for f in /usr/sbin/dardd /usr/sbin/dardctl /usr/bin/dard-sim /etc/dard/dard.conf \
	/etc/dard/dard.key "topo show works"; do
	has "before removal: $f" "$state" "^$f$"
done
has "before removal: dard-dkms's source" "$state" '^dard-'
enabled=$(cat "$tmp/res/readme-enabled" 2>/dev/null)
has "units enabled" "$enabled" '^dardd@'
is "after dpkg -P, nothing of dard" "$(cat "$tmp/res/readme-left" 2>/dev/null)" "left:"
is "this machine has no dard package" \
	"$(dpkg-query -W -f='${Status}' dard 2>/dev/null | grep -c ' installed')" 0

summary
