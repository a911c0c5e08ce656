#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# A fake dard-controller for tests/root/ctlsock.sh (Documentation/
# protocol.md, "Controller protocol"; daemon/lib/cproto.h): on
# ADDR:7472 it waits for dardd's first authentic REPORT, sends it a
# datagram from another port (dardd must refuse it: source) and one
# signed with a wrong key (mac), then an empty ASSIGN heartbeat, and
# prints what dardd ACKed, one line a step:
#   report sender N count N flags N
#   ack epoch N count N flags N
# Exit status 1, saying why, when dardd sends nothing authentic in time.
# HMAC-SHA-512-256 is HMAC-SHA-512's first 32 bytes.
import hmac
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from dardkey import load_key, mac  # noqa: E402

MAGIC, VERSION, PORT = 0xDA4E, 1, 7472
REPORT, ASSIGN, ACK = 1, 2, 4
FIRST, LAST = 1, 2
ALGO_OPTIMAL = 2
HDR = '>HBBHHHBBIIIQQ'  # 40 bytes


def parse(key, data):
    """The header of an authentic message, or None."""
    if len(data) < 72 or not hmac.compare_digest(mac(key, data[:-32]),
                                                 data[-32:]):
        return None
    (magic, version, kind, length, count, flags, _algo, _res, _kid, sender,
     topo, seq, epoch) = struct.unpack(HDR, data[:40])
    if magic != MAGIC or version != VERSION or length != len(data):
        return None
    return dict(kind=kind, count=count, flags=flags, sender=sender,
                topo=topo, seq=seq, epoch=epoch)


def message(kid, key, kind, flags, topo, seq, epoch):
    msg = struct.pack(HDR, MAGIC, VERSION, kind, 72, 0, flags, ALGO_OPTIMAL,
                      0, kid, 0, topo, seq, epoch)
    return msg + mac(key, msg)


def wait_for(sock, key, kind, deadline):
    while time.monotonic() < deadline:
        sock.settimeout(max(deadline - time.monotonic(), 0.01))
        try:
            data, peer = sock.recvfrom(2048)
        except socket.timeout:
            break
        m = parse(key, data)
        if m and m['kind'] == kind:
            return m, peer
    raise SystemExit(f'cpfake: no authentic message of type {kind} in time')


def main():
    keyfile, addr, epoch = sys.argv[1], sys.argv[2], int(sys.argv[3])
    kid, key = load_key(keyfile)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((addr, PORT))
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    other.bind((addr, 0))
    # A liveness bound: dardd reports every 0.2 s once it runs.
    deadline = time.monotonic() + 30
    print('ready', flush=True)
    rep, host = wait_for(sock, key, REPORT, deadline)
    print(f"report sender {rep['sender']} count {rep['count']} "
          f"flags {rep['flags']}", flush=True)
    seq = time.time_ns()
    # Not from the controller's port; then not with its key.
    other.sendto(message(kid, key, ASSIGN, FIRST | LAST, rep['topo'],
                         seq + 1, epoch), host)
    sock.sendto(message(kid, bytes(32), ASSIGN, FIRST | LAST, rep['topo'],
                        seq + 2, epoch), host)
    sock.sendto(message(kid, key, ASSIGN, FIRST | LAST, rep['topo'],
                        seq + 3, epoch), host)
    ack, _ = wait_for(sock, key, ACK, deadline)
    print(f"ack epoch {ack['epoch']} count {ack['count']} "
          f"flags {ack['flags']}", flush=True)


if __name__ == '__main__':
    main()
