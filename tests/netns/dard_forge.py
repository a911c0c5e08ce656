#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Forged elephants for tests/netns/attack.sh: what a process with
# CAP_NET_RAW and no key can send. IP-in-IP packets built whole (a raw
# socket, IP_HDRINCL) on an alias pair, their outer DSCP the switches'
# elephant mark, as the host datapath would wrap an elephant
# (Documentation/datapath.md); the inner packet a UDP datagram between
# two host IDs, one source port per forged flow.
#
#   trickle SRC_ALIAS DST_ALIAS DSCP FLOWS SECONDS   every flow once in
#                                                    each 0.1 s, 60 bytes
#   stream SRC_ALIAS DST_ALIAS DSCP SECONDS KBPS     one flow, 1,400-byte
#                                                    packets at KBPS
# Each prints the packets it sent, and how many the kernel refused.
import socket
import struct
import sys
import time

INNER_SRC, INNER_DST = '172.16.0.1', '172.16.0.9'


def csum(b):
    s = sum(struct.unpack(f'>{len(b) // 2}H', b))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def ipv4(src, dst, proto, tos, payload):
    h = struct.pack('>BBHHHBBH4s4s', 0x45, tos, 20 + len(payload), 0, 0x4000,
                    64, proto, 0, socket.inet_aton(src), socket.inet_aton(dst))
    h = h[:10] + struct.pack('>H', csum(h)) + h[12:]
    return h + payload


def packet(outer_src, outer_dst, dscp, sport, size):
    udp = struct.pack('>HHHH', sport, 9, 8 + size, 0) + bytes(size)
    inner = ipv4(INNER_SRC, INNER_DST, socket.IPPROTO_UDP, 0, udp)
    return ipv4(outer_src, outer_dst, socket.IPPROTO_IPIP, dscp << 2, inner)


def sender(src):
    """A raw socket bound to src, so that the route is looked up from it:
    a switch forwards up by its source (ip rule from PREFIX), and src is
    not its own address (IP_FREEBIND)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    s.setsockopt(socket.SOL_IP, 15, 1)  # IP_FREEBIND
    s.bind((src, 0))
    return s


def send_all(s, pkts, dst):
    sent = refused = 0
    for p in pkts:
        try:
            s.sendto(p, (dst, 0))
            sent += 1
        except OSError:
            refused += 1
    return sent, refused


def trickle(src, dst, dscp, flows, seconds):
    s = sender(src)
    pkts = [packet(src, dst, dscp, 20000 + i, 32) for i in range(flows)]
    sent = refused = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        a, b = send_all(s, pkts, dst)
        sent, refused = sent + a, refused + b
        time.sleep(0.1)
    print(sent, refused)


def stream(src, dst, dscp, seconds, kbps):
    s = sender(src)
    p = packet(src, dst, dscp, 30000, 1400 - 48)
    gap = len(p) * 8 / (kbps * 1000.0)
    sent = refused = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        a, b = send_all(s, [p], dst)
        sent, refused = sent + a, refused + b
        ahead = start + sent * gap - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
    print(sent, refused)


if __name__ == '__main__':
    cmd, a = sys.argv[1] if len(sys.argv) > 1 else '', sys.argv[2:]
    if cmd == 'trickle' and len(a) == 5:
        trickle(a[0], a[1], int(a[2]), int(a[3]), float(a[4]))
    elif cmd == 'stream' and len(a) == 5:
        stream(a[0], a[1], int(a[2]), float(a[3]), float(a[4]))
    else:
        sys.exit(__doc__ or 'usage: see the file\'s head')
