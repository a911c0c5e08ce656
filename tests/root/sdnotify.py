#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""A fake systemd's notification socket, for notify.sh.

sdnotify.py SOCKET [--unix NAME] [--udp PORT]: binds a datagram socket at
SOCKET (what $NOTIFY_SOCKET names) and prints every message a daemon
sends as one line, "MS FIELD FIELD...", MS the milliseconds since the
listener started, until killed. When a message says READY=1 it also
prints, at that moment, whether the daemon's sockets are there already:
"bound unix NAME yes|no" (a path or @abstract name in /proc/net/unix),
"bound udp PORT yes|no" (/proc/net/udp), so that a daemon that says it
is ready before it serves is caught.
"""
import argparse
import os
import socket
import sys
import time


def unix_bound(name):
    with open("/proc/net/unix") as f:
        return any(line.split()[-1] == name for line in f
                   if len(line.split()) >= 8)


def udp_bound(port):
    with open("/proc/net/udp") as f:
        next(f)
        return any(int(line.split()[1].split(":")[1], 16) == port
                   for line in f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("socket")
    ap.add_argument("--unix", action="append", default=[])
    ap.add_argument("--udp", action="append", type=int, default=[])
    a = ap.parse_args()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if os.path.exists(a.socket):
        os.unlink(a.socket)
    s.bind(a.socket)
    t0 = time.monotonic()
    print("listening", flush=True)
    while True:
        msg = s.recv(4096).decode(errors="replace")
        ms = int((time.monotonic() - t0) * 1000)
        fields = msg.split("\n")
        if "READY=1" in fields:
            for n in a.unix:
                print("bound unix %s %s" % (n, "yes" if unix_bound(n) else "no"))
            for p in a.udp:
                print("bound udp %d %s" % (p, "yes" if udp_bound(p) else "no"))
        print(ms, " ".join(f.replace(" ", "_") for f in fields if f),
              flush=True)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
