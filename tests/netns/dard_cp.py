#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Datagrams of the controller protocol (daemon/lib/cproto.h) for
# tests/netns/controller.sh: a real message caught as it crosses the
# management network, then sent again as it was (a replay), with its MAC
# broken (what anyone without the key can send), or changed and signed
# again with the deployment's key (what a key holder could send: a stale
# epoch, another topology, a sender that is not the controller, paths
# changed, an epoch as far ahead as a host takes; tests/netns/attack.sh
# sends that one), from any address and port through a raw socket, so
# that the real sender keeps its port. HMAC-SHA-512-256 is HMAC-SHA-512's first
# 32 bytes.
#
#   catch IFACE SRC[:PORT] DST[:PORT] TYPE WAIT  prints SPORT DPORT HEX
#   forge KEYFILE CASE HEX                       prints HEX
#   send SRC SPORT DST DPORT HEX
#   show HEX                                     prints the header, JSON
import json
import os
import select
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from dardkey import load_key, mac  # noqa: E402

MAGIC, VERSION = 0xDA4E, 1
HDR = struct.Struct('>HBBHHHBBIIIQQ')  # 40 bytes, cproto.h
MAC_LEN, FLOW_LEN = 32, 16
TYPES = {'report': 1, 'assign': 2, 'weights': 3, 'ack': 4}
FIELDS = ('magic', 'version', 'type', 'length', 'count', 'flags', 'algo',
          'reserved', 'key_id', 'sender', 'topo', 'seq', 'epoch')


def header(msg):
    if len(msg) < HDR.size + MAC_LEN:
        raise SystemExit(f'{len(msg)} bytes: too short for a message')
    return dict(zip(FIELDS, HDR.unpack_from(msg)))


def addr_port(s):
    host, _, port = s.partition(':')
    return host, int(port) if port else 0


def catch(iface, src, dst, kind, wait):
    """The first datagram of type kind from src to dst seen on iface."""
    (saddr, sport), (daddr, dport) = addr_port(src), addr_port(dst)
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
        if pkt[9] != socket.IPPROTO_UDP:
            continue
        if socket.inet_ntoa(pkt[12:16]) != saddr or \
           socket.inet_ntoa(pkt[16:20]) != daddr:
            continue
        sp, dp = struct.unpack('>HH', pkt[ihl:ihl + 4])
        if (sport and sp != sport) or (dport and dp != dport):
            continue
        payload = pkt[ihl + 8:]
        if len(payload) < HDR.size or payload[:2] != b'\xda\x4e' or \
           payload[3] != TYPES[kind]:
            continue
        print(sp, dp, payload.hex())
        return
    raise SystemExit(f'no {kind} from {src} to {dst} seen in {wait} s')


def forge(keyfile, case, msg):
    """msg changed as case says; signed again unless case is bad-mac."""
    h = header(msg)
    body = bytearray(msg[HDR.size:-MAC_LEN])
    if case == 'bad-mac':
        return msg[:-1] + bytes([msg[-1] ^ 1])
    kid, key = load_key(keyfile)
    # Fresh: 2 s ahead of the clock, above the real sender's seqs (its
    # clock's nanoseconds, or counted up from its start) and well within
    # the 10 s a receiver allows between its clock and a seq. A receiver
    # records a seq only with a message it takes, and these are refused
    # for their other fault: the real sender is not locked out.
    h['seq'] = max(h['seq'] + 1, time.time_ns() + 2 * 10**9)
    h['key_id'] = kid
    if case == 'future':            # the largest epoch a host takes:
        # under 10 s ahead of its clock (dard_cp_epoch_max)
        h['epoch'] = ((time.time_ns() // 10**9 + 10) << 20) - 1
    elif case == 'stale':           # an epoch older than any applied
        h['epoch'] = max(1, h['epoch'] - (1 << 21))
    elif case == 'topo':            # a configuration that differs
        h['topo'] ^= 0x5a5a5a5a
    elif case == 'sender':          # a host's ID where 0 (the controller) is
        h['sender'] = 0xac100001
    elif case == 'paths':           # every flow to its next path
        for off in range(0, h['count'] * FLOW_LEN, FLOW_LEN):
            p = struct.unpack_from('>H', body, off + 14)[0]
            struct.pack_into('>H', body, off + 14, (p + 1) % 2)
    elif case != 'resign':
        raise SystemExit(f'unknown case {case}')
    out = HDR.pack(*(h[f] for f in FIELDS)) + bytes(body)
    return out + mac(key, out)


def send(src, sport, dst, dport, payload):
    """A UDP datagram from src:sport, whoever has that port bound."""
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    udp = struct.pack('>HHHH', sport, dport, 8 + len(payload), 0)
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(udp) + len(payload),
                     0, 0x4000, 64, socket.IPPROTO_UDP, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    s.sendto(ip + udp + payload, (dst, 0))


if __name__ == '__main__':
    cmd, args = sys.argv[1] if len(sys.argv) > 1 else '', sys.argv[2:]
    if cmd == 'catch' and len(args) == 5:
        catch(args[0], args[1], args[2], args[3], float(args[4]))
    elif cmd == 'forge' and len(args) == 3:
        print(forge(args[0], args[1], bytes.fromhex(args[2])).hex())
    elif cmd == 'send' and len(args) == 5:
        send(args[0], int(args[1]), args[2], int(args[3]),
             bytes.fromhex(args[4]))
    elif cmd == 'show' and len(args) == 1:
        print(json.dumps(header(bytes.fromhex(args[0]))))
    else:
        raise SystemExit(f'usage: {sys.argv[0]} catch|forge|send|show ...')
