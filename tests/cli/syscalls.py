#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Whether a daemon's system calls pass its unit's SystemCallFilter=.

syscalls.py UNIT STRACE: STRACE is `strace -f -o' of the daemon from
start to SIGTERM. The filter is UNIT's SystemCallFilter= lines in order
(an allow list, then ~ lines removing from it and plain ones adding),
with every @group expanded by `systemd-analyze syscall-filter'. Prints
"N calls, all allowed" and exits 0, or names each call the filter would
refuse (the daemon would fail with EPERM under systemd) and exits 1.
"""
import re
import subprocess
import sys


def groups():
    out = subprocess.run(["systemd-analyze", "syscall-filter"],
                         capture_output=True, text=True, check=True).stdout
    g, cur = {}, None
    for line in out.splitlines():
        if line.startswith("@"):
            cur = line.split()[0]
            g[cur] = []
        elif cur and line.strip() and not line.strip().startswith("#"):
            g[cur].append(line.split()[0])
    return g


def expand(g, names):
    out = set()
    for n in names:
        if n.startswith("@"):
            if n not in g:
                sys.exit("unknown group %s" % n)
            out |= expand(g, g[n])
        else:
            out.add(n)
    return out


def main():
    unit, trace = sys.argv[1:3]
    g = groups()
    allowed = None
    for line in open(unit):
        m = re.match(r"SystemCallFilter=(~?)(.*)", line.strip())
        if not m:
            continue
        names = expand(g, m.group(2).split())
        if allowed is None:
            if m.group(1):
                sys.exit("%s: a deny list first: not what we check" % unit)
            allowed = names
        elif m.group(1):
            allowed -= names
        else:
            allowed |= names
    if allowed is None:
        sys.exit("%s: no SystemCallFilter=" % unit)
    used = set(re.findall(r"^\d+ +([a-z_0-9]+)\(", open(trace).read(), re.M))
    bad = sorted(used - allowed)
    if not used:
        sys.exit("%s: no system calls in it" % trace)
    if bad:
        print("%d calls, refused: %s" % (len(used), " ".join(bad)))
        return 1
    print("%d calls, all allowed" % len(used))
    return 0


if __name__ == "__main__":
    sys.exit(main())
