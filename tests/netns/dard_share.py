#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Datagrams of the SHARE protocol among a ToR's hosts (Documentation/
# protocol.md, "Sharing among a ToR's hosts") for tests/netns/share.sh:
# forgeries sent from a peer's address and share port through a raw
# socket (no bind: the peer's dardd keeps its port), and a real SHARE
# replayed the moment it leaves. HMAC-SHA-512-256 is HMAC-SHA-512's first
# 32 bytes.
import os
import select
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from dardkey import load_key, mac  # noqa: E402

MAGIC, VERSION, SHARE, PORT, MSG_MAX = 0xDA4F, 2, 1, 7473, 1472


def share(kid, key, sender, seq, sign=True):
    """A SHARE with no records: only the header can be wrong."""
    msg = struct.pack('>HBBHHIIIIQ', MAGIC, VERSION, SHARE, 64, 0, kid,
                      sender, 0, 0, seq)
    return msg + (mac(key, msg) if sign else os.urandom(32))


def raw_send(src, dst, payload, sport=PORT):
    """A UDP datagram from src:sport to dst:7473, whoever has it bound;
    in IP fragments of 1480 bytes when it is longer than one (a raw
    socket does not fragment, and the oversized case needs it)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    data = struct.pack('>HHHH', sport, PORT, 8 + len(payload), 0) + payload
    ident = int.from_bytes(os.urandom(2), 'big')
    for off in range(0, len(data), 1480):
        part = data[off:off + 1480]
        more = 0x2000 if off + 1480 < len(data) else 0
        flags = (more | off // 8) if len(data) > 1480 else 0x4000
        ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(part), ident,
                         flags, 64, socket.IPPROTO_UDP, 0,
                         socket.inet_aton(src), socket.inet_aton(dst))
        s.sendto(ip + part, (dst, 0))


def forge(keyfile, src, dst, case):
    """One forged datagram of `case' to dst:7473, from src:7473."""
    kid, key = load_key(keyfile)
    seq = time.time_ns()
    if case == 'bad-mac':           # what anyone without the key sends
        msg = share(kid, key, 1, seq, sign=False)
    elif case == 'sender':          # signed, in nobody's name
        msg = share(kid, key, 0, seq)
    elif case == 'oversize':        # longer than a message: not hashed
        msg = share(kid, key, 0, seq) + bytes(MSG_MAX)
    elif case == 'source':          # from wherever src is, not a peer
        msg = share(kid, key, 0, seq)
    else:
        raise SystemExit(f'unknown case {case}')
    raw_send(src, dst, msg)


def replay(iface, a, b, times, wait):
    """Replays the first SHARE a:7473 and b:7473 send each other (either
    way), as it passes iface; prints `SRC DST LENGTH'."""
    # ETH_P_ALL: a socket bound to ETH_P_IP sees only what comes in.
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((iface, 0))
    end = time.time() + wait
    while time.time() < end:
        if not select.select([s], [], [], 0.2)[0]:
            continue
        pkt = s.recv(65535)
        if pkt[12:14] != b'\x08\x00':
            continue
        pkt = pkt[14:]
        ihl = (pkt[0] & 15) * 4
        src = socket.inet_ntoa(pkt[12:16])
        dst = socket.inet_ntoa(pkt[16:20])
        if pkt[9] != socket.IPPROTO_UDP or {src, dst} != {a, b}:
            continue
        sport, dport = struct.unpack('>HH', pkt[ihl:ihl + 4])
        body = pkt[ihl + 8:]
        if sport != PORT or dport != PORT or body[3] != SHARE:
            continue
        for _ in range(times):
            raw_send(src, dst, body)
        print(src, dst, len(body))
        return
    raise SystemExit('no SHARE seen to replay')


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'forge':
        forge(args[0], args[1], args[2], args[3])
    elif cmd == 'replay':
        replay(args[0], args[1], args[2], int(args[3]), float(args[4]))
    else:
        raise SystemExit(f'usage: {sys.argv[0]} forge|replay ...')
