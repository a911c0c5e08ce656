#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The Debian packages (make deb), then on this machine:
#
#   dpkg-deb -c / -I     each package's files, dependencies, conffiles
#   lintian              no error or warning left (overrides say why)
#   dkms build           dard-dkms's source against Debian's installed
#                        linux-headers (a private DKMS tree)
#   maintainer scripts   run with systemd stand-ins: removal stops the
#                        controller and every template instance, an
#                        upgrade try-restarts them and stops none first
#   dpkg -i, -r, -P      both packages; -r keeps /etc/dard, -P removes it
#                        (the key too); after the purge the machine's
#                        file list is what it was before
#
# Root for dpkg (skipped, and said so, without). Refuses to run where dard
# is already installed: it would remove the operator's.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d /tmp/pkg-deb.XXXXXX)
installed=""
cleanup() {
	# Whatever happened, the machine goes back as it was.
	[[ -n $installed ]] && dpkg -P dard dard-dkms >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
suite=pkg-deb
source "$top/tests/lib.sh"
cd "$top" || exit 1

version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
deb=build/deb/dard_${version}_amd64.deb
dkmsdeb=build/deb/dard-dkms_${version}_all.deb

# make deb builds in a copy: the tree's status (ignored files but build/
# too) is the same after.
status() { git status --porcelain --ignored | grep -v ' build/$'; }
status > "$tmp/status.before"
ok "make deb" 0 timeout 900 make -s --no-print-directory deb ||
	{ echo "pkg-deb: $passed passed, $failed failed"; exit 1; }
is "make deb leaves the tree as it was" "$(status | diff "$tmp/status.before" - | xargs)" ""

# Contents: what make install puts there, at /usr, /lib and /etc.
ok "dpkg-deb -c dard" 0 dpkg-deb -c "$deb"
files=$(awk '{ print $1, $NF }' <<<"$out")
for p in dardctl dardd dard-switchd dard-controller dard-exp dard-testbed; do
	has "dard: /usr/sbin/$p" "$files" "^-rwxr-xr-x \./usr/sbin/$p$"
done
has "dard: /usr/bin/dard-sim" "$files" '^-rwxr-xr-x \./usr/bin/dard-sim$'
has "dard: the ip plugin" "$files" '^-rw-r--r-- \./usr/lib/ip/link_dard\.so$'
has "dard: /etc/dard" "$files" '^d[-rwx]+ \./etc/dard/$'
has "dard: the Ansible playbook" "$files" '^-rw-r--r-- \./usr/share/doc/dard/examples/ansible/dard\.yml$'
for u in systemd/*.service; do
	has "dard: unit $(basename "$u")" "$files" "^-rw-r--r-- \./lib/systemd/system/$(basename "$u")$"
done
for s in man/*.scd; do
	m=$(basename "$s" .scd)
	has "dard: man page $m" "$files" "^-rw-r--r-- \./usr/share/man/man${m##*.}/$m\.gz$"
done
ok "dpkg-deb -I dard" 0 dpkg-deb -I "$deb" control
has "dard depends on iproute2" "$out" '^Depends:.*iproute2'
has "dard depends on the libraries it links" "$out" \
	'^Depends:.*libbpf1.*libjson-c5.*libsodium23'
has "dard is linux-any's build" "$out" '^Architecture: amd64$'
conf=$(dpkg-deb -I "$deb" conffiles 2>/dev/null)
for e in etc/dard/*; do
	[[ -e $e ]] || continue
	has "conffile /$e" "$conf" "^/$e$"
done

# The maintainer scripts, run where systemd would be: /run/systemd/system
# in a private /run, and systemctl, deb-systemd-invoke and -helper
# stand-ins that log what they are asked. Removal stops the controller
# and every template instance; an upgrade stops nothing before and
# try-restarts them after; a first installation starts nothing.
ok "dpkg-deb -e dard" 0 dpkg-deb -e "$deb" "$tmp/ctl"
has "prerm stops the template instances" "$(cat "$tmp/ctl/prerm" 2>/dev/null)" \
	"stop dard-controller.service 'dardd@\*.service'"
has "postinst try-restarts them" "$(cat "$tmp/ctl/postinst" 2>/dev/null)" \
	"try-restart 'dardd@\*.service'"
has "postrm purge removes the key" "$(cat "$tmp/ctl/postrm" 2>/dev/null)" "/etc/dard/dard.key"
mkdir -p "$tmp/stub"
for c in systemctl deb-systemd-invoke deb-systemd-helper; do
	printf '#!/bin/sh\necho "%s $*" >> "$STUBLOG"\n' "$c" > "$tmp/stub/$c"
	chmod +x "$tmp/stub/$c"
done
# maint SCRIPT ARGS...: what it asked of systemd, one call a line.
maint() {
	local script=$tmp/ctl/$1
	shift
	[[ -x $script ]] || return 0
	: > "$tmp/stub.log"
	unshare -m --propagation private sh -c 'mount -t tmpfs tmpfs /run &&
		mkdir -p /run/systemd/system && exec "$@"' - \
		env PATH="$tmp/stub:$PATH" STUBLOG="$tmp/stub.log" "$script" "$@" >/dev/null
	grep -E 'invoke|systemctl' "$tmp/stub.log"
}
if [[ $EUID -eq 0 ]]; then
	is "prerm remove stops all" "$(maint prerm remove)" \
		"deb-systemd-invoke stop dard-controller.service dardd@*.service dard-switchd@*.service"
	is "prerm upgrade stops nothing" "$(maint prerm upgrade 99)" ""
	is "preinst upgrade stops nothing" "$(maint preinst upgrade 0.0.1)" ""
	is "postinst of an upgrade try-restarts all" "$(maint postinst configure 0.0.1 | xargs)" \
		"systemctl --system daemon-reload deb-systemd-invoke try-restart dard-controller.service deb-systemd-invoke try-restart dardd@*.service dard-switchd@*.service"
	is "postinst of a first installation starts nothing" \
		"$(maint postinst configure '' | grep -v daemon-reload)" ""
else
	echo "skip running the maintainer scripts: not root"
fi

ok "dpkg-deb -c dard-dkms" 0 dpkg-deb -c "$dkmsdeb"
files=$(awk '{ print $NF }' <<<"$out")
for k in dkms.conf Kbuild kmod/*.[ch] kmod/uapi/linux/*.h; do
	has "dard-dkms: $k" "$files" "^\./usr/src/dard-$version/$k$"
done
ok "dpkg-deb -I dard-dkms" 0 dpkg-deb -I "$dkmsdeb" control
has "dard-dkms is Architecture: all" "$out" '^Architecture: all$'
has "dard-dkms depends on dkms" "$out" '^Depends:.*dkms'

# Every tag lintian still gives is an error here: overrides
# (debian/*.lintian-overrides) carry the reasons.
ok "lintian" 0 timeout 300 lintian --pedantic --fail-on error,warning \
	"build/deb/dard_${version}_amd64.changes"
is "lintian says nothing" "$(grep -v 'running with root privileges' <<<"$out$err")" ""

# The machine's files before dkms and dpkg touch it, and after.
snapshot() {
	find /etc /usr /var/lib/dkms /var/lib/systemd /lib/modules -xdev \
		2>/dev/null | grep -v '^/usr/lib/python3' | sort
}
snapshot > "$tmp/before"

# dkms build in a private tree: the source exactly as the package ships it;
# its module signing key too, which dkms would otherwise make for good in
# /var/lib/dkms.
kver=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')
ok "linux-headers-amd64 is installed ($kver)" 0 test -d "/lib/modules/$kver/build"
mkdir -p "$tmp/x" "$tmp/dkms"
dpkg-deb -x "$dkmsdeb" "$tmp/x"
dk=(env mok_signing_key="$tmp/mok.key" mok_certificate="$tmp/mok.pub"
	dkms --sourcetree "$tmp/x/usr/src" --dkmstree "$tmp/dkms")
ok "dkms add" 0 "${dk[@]}" add -m dard -v "$version"
ok "dkms build -k $kver" 0 timeout 600 "${dk[@]}" build -m dard -v "$version" -k "$kver" ||
	tail -20 "$tmp/dkms/dard/$version/build/make.log" 2>/dev/null
ok "dard.ko built" 0 test -f "$tmp/dkms/dard/$version/$kver/x86_64/module/dard.ko"
ok "modinfo names its version magic" 0 modinfo -F vermagic \
	"$tmp/dkms/dard/$version/$kver/x86_64/module/dard.ko" &&
	has "for $kver" "$out" "^$kver "

# dpkg -i, -r, -P. The DKMS build in dard-dkms's postinst leaves only
# files dkms remove takes away.
if [[ $EUID -ne 0 ]]; then
	echo "skip dpkg -i/-r/-P: not root"
elif dpkg-query -W -f='${Status}' dard dard-dkms 2>/dev/null | grep -q installed; then
	failed=$((failed + 1))
	echo "FAIL dard or dard-dkms is installed here already: not touching it"
else
	installed=1
	ok "dpkg -i both" 0 timeout 600 dpkg -i "$deb" "$dkmsdeb"
	ok "dardctl on PATH" 0 /usr/sbin/dardctl -V && is "its version" "$out" "dardctl $version"
	ok "dpkg -s dard" 0 dpkg -s dard
	# What the operator adds, which only purge removes: README's
	# configuration and key, an instance's environment, an enabled
	# instance's link.
	echo "# test" > /etc/dard/dard.conf
	echo "# test" > /etc/dard/dard.key
	echo "DARDD_OPTS=" > /etc/dard/dardd@e1_1.env
	wants=/etc/systemd/system/multi-user.target.wants
	mkdir -p "$wants"
	ln -sf /lib/systemd/system/dardd@.service "$wants/dardd@e1_1.service"
	ok "dkms status knows dard" 0 dkms status dard && has "dard/$version" "$out" "dard/$version"
	ok "dpkg -r both" 0 timeout 300 dpkg -r dard dard-dkms
	ok "programs gone" 1 test -e /usr/sbin/dardd
	ok "module source gone" 1 test -e "/usr/src/dard-$version"
	ok "dpkg -r keeps the key" 0 test -e /etc/dard/dard.key
	ok "dpkg -P both" 0 timeout 300 dpkg -P dard dard-dkms
	ok "dpkg -P removes /etc/dard" 1 test -e /etc/dard
	ok "and the instance's link" 1 test -L "$wants/dardd@e1_1.service"
	installed=""
	# dkms makes the machine's module signing key at its first build,
	# for every DKMS module after; not dard's, but not there before.
	for f in /var/lib/dkms/mok.key /var/lib/dkms/mok.pub; do
		grep -qx "$f" "$tmp/before" || ! rm "$f" 2>/dev/null ||
			echo "note: removed $f, dkms's signing key, made by this test"
	done
	snapshot > "$tmp/after"
	is "dpkg and dkms left nothing behind" "$(diff "$tmp/before" "$tmp/after" | grep '^[<>]' | head -20)" ""
	ok "dpkg forgot dard" 1 dpkg -s dard
fi

summary
