#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Datagrams of the switch protocol (Documentation/protocol.md, version 4)
# for tests/netns/auth.sh: forged replies sent from a switch's address and
# agent port through a raw socket (no bind, so the agent keeps its port),
# a reply replayed the moment it leaves, and queries an agent must not
# answer. HMAC-SHA-512-256 is HMAC-SHA-512's first 32 bytes. A query's
# sender is a random one of this run's and its seq our clock in µs, as
# dardctl's (proto.h).
import os
import select
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from dardkey import load_key, mac  # noqa: E402

MAGIC, VERSION, QUERY, REPLY, PORT = 0xDA4D, 4, 1, 2, 7471
REC, SLACK, HDR = 16, 64, 24  # a reply's port record; DARD_PROTO_SLACK
SENDER = int.from_bytes(os.urandom(4), 'big') % 0xFFFFFFFE + 1


def message(kind, kid, key, seq, body, count, pad=0, sign=True, sender=SENDER):
    length = HDR + len(body) + pad + 32
    msg = struct.pack('>HBBHHIIQ', MAGIC, VERSION, kind, length, count, kid,
                      sender, seq) + body + bytes(pad)
    return msg + (mac(key, msg) if sign else os.urandom(32))


def reply(kid, key, sender, seq, ports, sign=True):
    body = b''.join(struct.pack('>HHIII', p, 0, 1000, 777, 0xFFFFFFFF) for p in ports)
    return message(REPLY, kid, key, seq, body, len(ports), sign=sign,
                   sender=sender)


def seq_now():
    """A seq as a sender makes it: CLOCK_REALTIME in µs."""
    return time.time_ns() // 1000


def raw_send(src, sport, dst, dport, payload):
    """A UDP datagram from src:sport, whoever has that port bound."""
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    udp = struct.pack('>HHHH', sport, dport, 8 + len(payload), 0)
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(udp) + len(payload),
                     0, 0x4000, 64, socket.IPPROTO_UDP, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    s.sendto(ip + udp + payload, (dst, 0))


def forge(keyfile, src, dst, dport, case, ports, sender):
    """One forged reply of `case' to dardd at dst:dport, from src:7471,
    to queries of sender (dardd's host ID address, as an integer)."""
    kid, key = load_key(keyfile)
    seq = seq_now() - 1
    if case == 'zero-seq':          # signed: only the seq is wrong
        msg = reply(kid, key, sender, 0, ports)
    elif case == 'wrong-seq':       # signed, a seq nobody asked
        msg = reply(kid, key, sender, seq, ports)
    elif case == 'bad-mac':         # what an attacker without the key sends
        msg = reply(kid, key, sender, 0, ports, sign=False)
    elif case == 'no-mac':
        msg = reply(kid, key, sender, seq, ports)[:-32]
    else:
        raise SystemExit(f'unknown case {case}')
    raw_send(src, PORT, dst, dport, msg)


def replay(iface, src, dst, dport, wait):
    """Replays the first reply src:7471 sends dst:dport, as it leaves."""
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
        if pkt[9] != socket.IPPROTO_UDP or socket.inet_ntoa(pkt[12:16]) != src:
            continue
        sport, dp = struct.unpack('>HH', pkt[ihl:ihl + 4])
        if sport != PORT or dp != dport or socket.inet_ntoa(pkt[16:20]) != dst:
            continue
        raw_send(src, PORT, dst, dport, pkt[ihl + 8:])
        print(len(pkt) - ihl - 8)
        return
    raise SystemExit('no reply seen to replay')


def query(keyfile, dst, case, ports, wait=30.0):
    """Sends an agent a query; prints `QUERY_BYTES REPLY_BYTES RECORDS'
    (REPLY_BYTES and RECORDS 0: no answer). A query that must not be
    answered is followed, on the same socket, by an authentic one: the
    agent answers in order, so when the first answer is the authentic
    one's, the other got none, however slow the machine."""
    kid, key = load_key(keyfile)
    seq = seq_now()
    body = b''.join(struct.pack('>H', p) for p in ports)
    pad = max(0, REC * len(ports) - SLACK - 2 * len(ports))
    if case == 'good':
        msg = message(QUERY, kid, key, seq, body, len(ports), pad)
    elif case == 'wrong-key':       # our id, someone else's key
        msg = message(QUERY, kid, os.urandom(32), seq, body, len(ports), pad)
    elif case == 'unknown-key':
        msg = message(QUERY, kid + 1000, key, seq, body, len(ports), pad)
    elif case == 'v1':              # what version 1 answered anyone
        msg = struct.pack('>HBBHHI', MAGIC, 1, QUERY, 12 + 2 * len(ports),
                          len(ports), 1) + body
    elif case == 'v2':              # authentic, but version 2's layout
        length = 20 + len(body) + max(0, 12 * len(ports) - 48 - 2 * len(ports)) + 32
        msg = struct.pack('>HBBHHIQ', MAGIC, 2, QUERY, length, len(ports), kid,
                          seq) + body + bytes(length - 52 - len(body))
        msg += mac(key, msg)
    elif case == 'v3':              # authentic, version 3's 20-byte header
        length = 20 + len(body) + pad + 32
        msg = struct.pack('>HBBHHIQ', MAGIC, 3, QUERY, length, len(ports), kid,
                          seq) + body + bytes(pad)
        msg += mac(key, msg)
    else:
        raise SystemExit(f'unknown case {case}')
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(msg, (dst, PORT))
    probe = None
    if case != 'good':
        probe = seq + 1
        s.sendto(message(QUERY, kid, key, probe, body, len(ports), pad),
                 (dst, PORT))
    if not select.select([s], [], [], wait)[0]:
        raise SystemExit(f'no answer in {wait} s')
    ans = s.recv(65535)
    # Only a version 4 answer can be told apart: v1 to v3 got none
    # before the probe's, or the probe's is not first.
    if ans[:2] == struct.pack('>H', MAGIC) and len(ans) >= HDR + 32 and \
            ans[-32:] == mac(key, ans[:-32]) and \
            struct.unpack('>IQ', ans[12:24]) == (SENDER, probe):
        print(len(msg), 0, 0)
        return
    if probe is not None:
        print(len(msg), len(ans), -1)
        return
    assert ans[:2] == struct.pack('>H', MAGIC), ans[:4].hex()
    assert ans[-32:] == mac(key, ans[:-32]), 'the answer does not authenticate'
    assert struct.unpack('>IQ', ans[12:24]) == (SENDER, seq), \
        'the answer has another sender or seq'
    print(len(msg), len(ans), struct.unpack('>H', ans[6:8])[0])


def pace(rate, seconds, send, recv):
    """Calls send(i) rate times a second for seconds, and recv() between
    sends and for a second after; returns how many were sent."""
    start, i = time.monotonic(), 0
    end = start + seconds
    while time.monotonic() < end:
        due = start + i / rate
        if time.monotonic() >= due:
            send(i)
            i += 1
            continue
        recv(min(due, end) - time.monotonic())
    last = time.monotonic() + 1
    while time.monotonic() < last:
        recv(last - time.monotonic())
    return i


def answers(s, wait, sent, key):
    """Reads the answers waiting on s (for up to wait s), counting each
    authentic one whose (sender, seq) is in sent, once."""
    got = 0
    if select.select([s], [], [], max(0, wait))[0]:
        while True:
            try:
                ans = s.recv(65535)
            except BlockingIOError:
                break
            if len(ans) >= HDR + 32 and ans[-32:] == mac(key, ans[:-32]):
                got += sent.pop(struct.unpack('>IQ', ans[12:24]), 0)
    return got


def flood(keyfile, dst, rate, seconds, senders):
    """Authentic queries for every port to dst's agent, rate a second for
    seconds, from senders senders in turn, each sender's seqs from the
    clock; prints `SENT ANSWERED' (the issue's 855 a second for 20 s went
    11% unanswered in version 3)."""
    kid, key = load_key(keyfile)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setblocking(False)
    # Room for every answer while we fall behind and send in a burst: an
    # answer our socket dropped would be the machine's, not the agent's.
    s.setsockopt(socket.SOL_SOCKET, 33, 16 << 20)  # SO_RCVBUFFORCE
    last, sent, got = {}, {}, [0]
    base = SENDER & 0xFFFF0000 or 0x00010000

    def send(i):
        who = base + i % senders
        seq = max(last.get(who, 0) + 1, seq_now())
        last[who], sent[(who, seq)] = seq, 1
        s.sendto(message(QUERY, kid, key, seq, b'', 0, sender=who), (dst, PORT))

    n = pace(rate, seconds, send,
             lambda wait: got.__setitem__(0, got[0] + answers(s, wait, sent, key)))
    print(n, got[0])


def replay_queries(iface, dst, keyfile, count, rate, seconds, wait=30.0):
    """What a recorder without the key does: captures count queries to
    dst's agent as they pass iface, then sends them again, in a loop,
    rate a second for seconds, from its own socket; prints `CAPTURED
    REPLAYED ANSWERED' (answered must be 0: each query's sender has
    taken its seq, or it is over 10 s old)."""
    _, key = load_key(keyfile)
    cap = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    cap.bind((iface, 0))
    seen, end = [], time.time() + wait
    while len(seen) < count and time.time() < end:
        if not select.select([cap], [], [], 0.2)[0]:
            continue
        pkt = cap.recv(65535)
        if pkt[12:14] != b'\x08\x00':
            continue
        pkt = pkt[14:]
        ihl = (pkt[0] & 15) * 4
        if pkt[9] != socket.IPPROTO_UDP or socket.inet_ntoa(pkt[16:20]) != dst:
            continue
        if struct.unpack('>H', pkt[ihl + 2:ihl + 4])[0] != PORT:
            continue
        payload = pkt[ihl + 8:]
        if payload[:3] == struct.pack('>HB', MAGIC, VERSION) and payload not in seen:
            seen.append(payload)
    if not seen:
        raise SystemExit('no query seen to replay')
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setblocking(False)
    asked = {struct.unpack('>IQ', q[12:24]): 1 for q in seen}
    got = [0]

    def send(i):
        s.sendto(seen[i % len(seen)], (dst, PORT))

    n = pace(rate, seconds, send,
             lambda wait: got.__setitem__(0, got[0] + answers(s, wait, asked, key)))
    print(len(seen), n, got[0])


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'forge':
        forge(args[0], args[1], args[2], int(args[3]), args[4],
              [int(p) for p in args[6:]],
              int.from_bytes(socket.inet_aton(args[5]), 'big'))
    elif cmd == 'replay':
        replay(args[0], args[1], args[2], int(args[3]), float(args[4]))
    elif cmd == 'query':
        query(args[0], args[1], args[2], [int(p) for p in args[3:]])
    elif cmd == 'flood':            # KEY DST RATE SECONDS SENDERS
        flood(args[0], args[1], float(args[2]), float(args[3]), int(args[4]))
    elif cmd == 'replay-queries':   # IFACE DST KEY COUNT RATE SECONDS
        replay_queries(args[0], args[1], args[2], int(args[3]),
                       float(args[4]), float(args[5]))
    else:
        raise SystemExit(f'usage: {sys.argv[0]} '
                         'forge|replay|query|flood|replay-queries ...')
