#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make install and make uninstall into a DESTDIR (no root needed):
#
#   make install DESTDIR=$tmp/root   every file, its mode, units verified,
#                                    man pages lint-clean, the version
#   an operator's configuration      kept by install and by uninstall
#   make uninstall                   leaves nothing but what it must keep
#   PREFIX=/usr                      units in /lib/systemd/system
#
# Needs make daemon man first (make test-pkg does it).

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d /tmp/pkg-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
suite=pkg-install
source "$top/tests/lib.sh"
cd "$top" || exit 1

version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
root=$tmp/root
# The tree's samples, and one of the test's own, so that keeping an
# operator's file is tested whatever etc/dard holds.
printf 'sample = 1\n' > "$tmp/pkgtest.conf"
etc="$(echo etc/dard/*) $tmp/pkgtest.conf"
[[ -e etc/dard ]] || etc=$tmp/pkgtest.conf

inst() { make -s --no-print-directory "$@" DESTDIR="$root" ETC_SRCS="$etc"; }

# lint PAGE: mandoc -W warning but for the empty paragraph macros scdoc
# 1.11 writes and mandoc drops (the filter tests/cli/manpages.sh uses).
lint() {
	[[ -f $1 ]] || { echo "$1 missing"; return; }
	mandoc -Tlint -W warning "$1" 2>&1 |
		grep -vE 'WARNING: skipping paragraph macro: PP (empty|after SH|after SS)$'
}

# mode FILE: its permission bits, or "missing".
mode() { stat -c %a "$1" 2>/dev/null || echo missing; }

# An operator's own file, which install must not replace.
mkdir -p "$root/etc/dard"
echo "operator = 1" > "$root/etc/dard/pkgtest.conf"
ok "make install" 0 inst install

p=$root/usr/local
for f in sbin/dardctl sbin/dardd sbin/dard-switchd sbin/dard-controller \
	sbin/dard-exp \
	sbin/dard-testbed bin/dard-sim; do
	is "$f 0755" "$(mode "$p/$f")" 755
done
is "iproute2 plugin 0644" "$(mode "$root/usr/lib/ip/link_dard.so")" 644
for f in dard.yml inventory.example; do
	is "the Ansible $f 0644" "$(mode "$p/share/doc/dard/examples/ansible/$f")" 644
done
for s in man/*.scd; do
	m=$(basename "$s" .scd)
	f=$p/share/man/man${m##*.}/$m
	is "man page $m 0644" "$(mode "$f")" 644
	is "mandoc -Tlint $m says nothing" "$(lint "$f")" ""
done
for u in systemd/*.service; do
	is "unit $(basename "$u") 0644" "$(mode "$p/lib/systemd/system/$(basename "$u")")" 644
	has "$(basename "$u") runs $p/sbin" "$(grep ^ExecStart "$p/lib/systemd/system/$(basename "$u")")" \
		"=$p/sbin/|=/usr/local/sbin/"
done
for e in $etc; do
	[[ $e == "$tmp/pkgtest.conf" ]] && continue
	is "sample $(basename "$e") 0644" "$(mode "$root/etc/dard/$(basename "$e")")" 644
done
is "operator's file kept" "$(cat "$root/etc/dard/pkgtest.conf")" "operator = 1"
# DKMS reads /usr/src only, whatever PREFIX is.
src=$root/usr/src/dard-$version
for k in Kbuild kmod/*.[ch] kmod/uapi/linux/*.h; do
	is "dkms source $k" "$(mode "$src/$k")" 644
done
has "dkms.conf names $version" "$(cat "$src/dkms.conf")" "^PACKAGE_VERSION=\"$version\"$"
ok "nothing under $p/src, which DKMS never reads" 1 test -e "$p/src"
ok "installed dardctl -V" 0 "$p/sbin/dardctl" -V && is "its version" "$out" "dardctl $version"

# verify PREFIX UNITDIR: systemd-analyze verify of each unit installed in
# $root, in a copy of it plus the host's own units (sysinit.target and the
# rest they order against; ours are not replaced), with its man: links
# resolved in the installed pages and ExecStart's program in the copy.
verify() {
	local vroot=$tmp/vroot u n
	rm -rf "$vroot"
	cp -a "$root" "$vroot"
	mkdir -p "$vroot/lib/systemd/system" "$vroot/bin"
	cp -rn /lib/systemd/system/. "$vroot/lib/systemd/system/"
	# dardd@'s ExecStartPre runs the shell every Debian system has.
	cp -L /bin/sh "$vroot/bin/sh"
	for u in systemd/*.service; do
		n=$(basename "$u")
		[[ $n == *@.service ]] && n=${n%@.service}@test.service
		ok "systemd-analyze verify $n ($1)" 0 env MANPATH="$vroot$1/share/man" \
			systemd-analyze verify --root="$vroot" "$vroot$2/$n"
		is "verify $n says nothing ($1)" "$err" ""
	done
}
verify /usr/local /usr/local/lib/systemd/system
# And it can fail: the controller's unit without its program.
rm "$tmp/vroot/usr/local/sbin/dard-controller"
ok "verify fails when ExecStart's program is missing" 1 \
	systemd-analyze verify --man=no --root="$tmp/vroot" \
	"$tmp/vroot/usr/local/lib/systemd/system/dard-controller.service"
has "naming it" "$err" "dard-controller is not executable"

# Installing again keeps the manifest's directories; the changed sample
# (now the operator's) survives uninstall, the rest goes.
ok "make install again" 0 inst install
rm -f "$root/etc/dard/pkgtest.conf"
ok "install puts a missing sample back" 0 inst install
is "sample written" "$(cat "$root/etc/dard/pkgtest.conf")" "sample = 1"
echo "changed = 1" >> "$root/etc/dard/pkgtest.conf"
ok "make uninstall" 0 inst uninstall
has "says it kept the changed file" "$out" "keeping .*pkgtest.conf"
is "only the changed sample is left" "$(cd "$root" && find . | sort | xargs)" \
	". ./etc ./etc/dard ./etc/dard/pkgtest.conf"
# dkms remove is for the machine's DKMS, never a DESTDIR's: a dkms
# that knows dard is not asked to remove it here.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "$*" >> %s/dkms.log\n[ "$1" != status ] || echo "dard/%s: added"\n' \
	"$tmp" "$version" > "$tmp/bin/dkms"
chmod +x "$tmp/bin/dkms"
rm -rf "$root"
ok "make install (fake dkms)" 0 inst install
ok "make uninstall (fake dkms)" 0 env PATH="$tmp/bin:$PATH" make -s --no-print-directory \
	uninstall DESTDIR="$root" ETC_SRCS="$etc"
is "dkms not run with DESTDIR" "$(cat "$tmp/dkms.log" 2>/dev/null)" ""
rm -rf "$root"
ok "uninstall with nothing installed fails" 2 inst uninstall
has "naming the manifest" "$err" "install-manifest: no such file"

# A fresh install with unchanged samples: uninstall leaves nothing.
ok "make install (fresh)" 0 inst install
ok "make uninstall (fresh)" 0 inst uninstall
is "nothing left" "$(cd "$root" 2>/dev/null && find . | sort | xargs)" "."

# PREFIX=/usr, as the package: units where Debian's systemd.pc says.
ok "make install PREFIX=/usr" 0 inst install PREFIX=/usr
for u in systemd/*.service; do
	is "/lib/systemd/system/$(basename "$u")" \
		"$(mode "$root/lib/systemd/system/$(basename "$u")")" 644
	has "$(basename "$u") runs /usr/sbin" "$(grep ^ExecStart "$root/lib/systemd/system/$(basename "$u")")" \
		"=/usr/sbin/"
done
verify /usr /lib/systemd/system
ok "make uninstall PREFIX=/usr" 0 inst uninstall PREFIX=/usr
is "nothing left (/usr)" "$(cd "$root" && find . | sort | xargs)" "."

# A file the list names but nobody built: the error names it.
ok "missing file refused" 1 env DESTDIR="$root" scripts/install-tree install "" \
	<<<"0755 build/nonexistent /usr/sbin/x"
has "naming it" "$err" "build/nonexistent: no such file"

# A manifest uninstall cannot read is refused, naming the line.
mkdir -p "$root/m"
printf 'f /x\nq /y\n' > "$root/m/manifest"
ok "bad manifest refused" 1 env DESTDIR="$root" scripts/install-tree uninstall /m/manifest
has "naming the line" "$err" "manifest: bad line 'q /y"

summary
