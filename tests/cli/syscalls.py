#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Whether a daemon's system calls pass its unit's seccomp filters.

syscalls.py UNIT STRACE: STRACE is `strace -f -o' of the daemon from
start to SIGTERM. The filter is what systemd would install for UNIT:

- its SystemCallFilter= lines in order (an allow list, then ~ lines
  removing from it and plain ones adding), every @group expanded by
  `systemd-analyze syscall-filter';
- less the calls its other options deny (systemd.exec(5)):
  PrivateDevices= @raw-io, ProtectClock= @clock, ProtectKernelModules=
  @module, ProtectKernelLogs= syslog, ProtectHostname= sethostname and
  setdomainname;
- and the calls those options refuse by their arguments:
  RestrictAddressFamilies= (socket's family), RestrictNamespaces=
  (unshare, setns, clone with CLONE_NEW*), MemoryDenyWriteExecute=
  (writable and executable mappings, mprotect to executable, SHM_EXEC),
  RestrictRealtime= (realtime scheduling), RestrictSUIDSGID= (set-user-
  or group-ID modes), LockPersonality= (personality changes).

Prints "N calls, all allowed" and exits 0, or names each call the
filter would refuse (the daemon would fail with EPERM under systemd),
with the option that refuses it, and exits 1.
"""
import re
import subprocess
import sys

# Options whose "yes" denies whole calls, as systemd 252 does.
IMPLIED = {
    "PrivateDevices": ["@raw-io"],
    "ProtectClock": ["@clock"],
    "ProtectKernelModules": ["@module"],
    "ProtectKernelLogs": ["syslog"],
    "ProtectHostname": ["sethostname", "setdomainname"],
}

REALTIME = ("SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE")


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


def settings(unit):
    """Every KEY=VALUE of UNIT, in order, as (key, value)."""
    out = []
    for line in open(unit):
        m = re.match(r"([A-Za-z]+)=(.*)", line.strip())
        if m:
            out.append((m.group(1), m.group(2).strip()))
    return out


def last(sets, key):
    vals = [v for k, v in sets if k == key]
    return vals[-1] if vals else ""


def allowed_calls(unit, sets, g):
    """The calls UNIT allows, and which option denies each other one."""
    allowed = None
    for k, v in sets:
        if k != "SystemCallFilter":
            continue
        deny = v.startswith("~")
        names = expand(g, v.lstrip("~").split())
        if allowed is None:
            if deny:
                sys.exit("%s: a deny list first: not what we check" % unit)
            allowed = names
        elif deny:
            allowed -= names
        else:
            allowed |= names
    if allowed is None:
        sys.exit("%s: no SystemCallFilter=" % unit)
    why = {}
    for opt, names in IMPLIED.items():
        if last(sets, opt) == "yes":
            for n in expand(g, names) & allowed:
                why[n] = "%s=yes" % opt
            allowed -= expand(g, names)
    return allowed, why


def families(sets):
    """The address families socket() may make, None for any."""
    fams = None
    for k, v in sets:
        if k != "RestrictAddressFamilies":
            continue
        if not v:
            fams = None
        elif v == "none":
            fams = set()
        elif v.startswith("~"):
            sys.exit("RestrictAddressFamilies=~...: not what we check")
        else:
            fams = (fams or set()) | set(v.split())
    return fams


def by_args(sets, name, args):
    """The option that refuses this call for its arguments, or None."""
    yes = lambda opt: last(sets, opt) == "yes"
    if name == "socket":
        fams = families(sets)
        fam = args.split(",")[0].strip()
        if fams is not None and fam not in fams:
            return "RestrictAddressFamilies= (%s)" % fam
    if yes("RestrictNamespaces"):
        if name in ("unshare", "setns"):
            return "RestrictNamespaces=yes"
        if name in ("clone", "clone3") and "CLONE_NEW" in args:
            return "RestrictNamespaces=yes (CLONE_NEW*)"
    if yes("MemoryDenyWriteExecute"):
        if (name in ("mmap", "mmap2") and "PROT_WRITE" in args and
                "PROT_EXEC" in args):
            return "MemoryDenyWriteExecute=yes (PROT_WRITE|PROT_EXEC)"
        if name in ("mprotect", "pkey_mprotect") and "PROT_EXEC" in args:
            return "MemoryDenyWriteExecute=yes (PROT_EXEC)"
        if name == "shmat" and "SHM_EXEC" in args:
            return "MemoryDenyWriteExecute=yes (SHM_EXEC)"
    if yes("RestrictRealtime") and name in ("sched_setscheduler",
                                            "sched_setattr"):
        if any(p in args for p in REALTIME):
            return "RestrictRealtime=yes"
    if yes("RestrictSUIDSGID") and name in ("chmod", "fchmod", "fchmodat",
                                            "open", "openat", "creat",
                                            "mkdir", "mkdirat", "mknod",
                                            "mknodat"):
        # strace writes modes in octal with a leading 0 (04755) or by name.
        modes = [int(t, 8) for t in re.findall(r"\b0[0-7]{3,6}\b", args)]
        if "S_ISUID" in args or "S_ISGID" in args or any(
                m & 0o6000 for m in modes):
            return "RestrictSUIDSGID=yes"
    if yes("LockPersonality") and name == "personality":
        if not re.match(r"\s*(0xffffffff|PER_LINUX)\)", args):
            return "LockPersonality=yes"
    return None


def main():
    unit, trace = sys.argv[1:3]
    g = groups()
    sets = settings(unit)
    allowed, why = allowed_calls(unit, sets, g)
    used, bad = set(), {}
    for m in re.finditer(r"^\d+ +([a-z_0-9]+)\((.*)$", open(trace).read(),
                         re.M):
        name, args = m.group(1), m.group(2)
        # The arguments only: not the result, nor strace's "<unfinished".
        args = re.sub(r"(\) += .*| *<unfinished \.\.\.>)$", "", args)
        used.add(name)
        if name not in allowed:
            bad[name] = why.get(name, "SystemCallFilter=")
            continue
        reason = by_args(sets, name, args)
        if reason:
            bad["%s(%s)" % (name, args.split(",")[0])] = reason
    if not used:
        sys.exit("%s: no system calls in it" % trace)
    if bad:
        print("%d calls, refused: %s" % (len(used), ", ".join(
            "%s by %s" % (c, bad[c]) for c in sorted(bad))))
        return 1
    print("%d calls, all allowed" % len(used))
    return 0


if __name__ == "__main__":
    sys.exit(main())
