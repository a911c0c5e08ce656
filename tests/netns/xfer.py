# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# One TCP transfer whose both ends count every byte, for the namespace
# tests (faults.sh, dard.sh): what iperf3 cannot give once it is
# interrupted, and a transfer that lasts as long as the test needs it
# instead of a guessed number of seconds.
#
#   xfer.py recv ADDR PORT OUT [MAX_S]
#       one connection on ADDR:PORT, read to its end; answers the sender
#       with the count, and writes OUT: {"bytes": N, "per_tick": [bytes
#       received in each 0.1 s], "t0": when it accepted, epoch seconds}.
#       Gives up MAX_S seconds after it starts (default 600), whatever
#       happens to the test.
#   xfer.py send SRC CPORT DST PORT BYTES [MAX_S]
#   xfer.py send SRC CPORT DST PORT --until FILE [MAX_S]
#       from SRC:CPORT, sends BYTES, or until FILE exists; then prints
#       {"sent": N, "received": what the receiver counted, "error": ""}.
#   --mptcp first (xfer.py --mptcp recv ...): a Multipath TCP socket,
#       whose subflows the host's MPTCP endpoints add (testbed --split).
import json
import os
import socket
import sys
import time

TICK = 0.1
IPPROTO_MPTCP = 262
PROTO = 0  # 0: TCP; IPPROTO_MPTCP with --mptcp


def recv(addr, port, out, max_s):
    deadline = time.monotonic() + max_s
    lsn = socket.socket(socket.AF_INET, socket.SOCK_STREAM, PROTO)
    lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsn.bind((addr, port))
    lsn.listen(1)
    lsn.settimeout(max_s)
    conn, _ = lsn.accept()
    conn.settimeout(TICK)
    t0 = time.time()
    n = last = 0
    ticks = []
    tick = time.monotonic() + TICK
    while time.monotonic() < deadline:
        try:
            b = conn.recv(1 << 16)
        except socket.timeout:
            b = None
        while time.monotonic() >= tick:
            ticks.append(n - last)
            last = n
            tick += TICK
        if b == b"":
            break
        n += len(b or b"")
    ticks.append(n - last)
    conn.settimeout(30)
    conn.sendall(str(n).encode())
    conn.close()
    with open(out, "w") as f:
        json.dump({"bytes": n, "per_tick": ticks, "t0": t0}, f)


def send(src, cport, dst, port, n, until, max_s):
    deadline = time.monotonic() + max_s
    sent, got, err = 0, -1, ""
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, PROTO)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((src, cport))
        s.settimeout(60)
        s.connect((dst, port))
        buf = b"x" * 65536
        while time.monotonic() < deadline:
            if until is not None:
                if os.path.exists(until):
                    break
                sent += s.send(buf)
            elif sent < n:
                sent += s.send(buf[:n - sent])
            else:
                break
        s.shutdown(socket.SHUT_WR)
        reply = b""
        while True:
            r = s.recv(64)
            if not r:
                break
            reply += r
        got = int(reply)
    except (OSError, ValueError) as e:
        err = str(e)
    print(json.dumps({"sent": sent, "received": got, "error": err}))


def main(argv):
    global PROTO
    if len(argv) > 1 and argv[1] == "--mptcp":
        PROTO = IPPROTO_MPTCP
        argv = argv[:1] + argv[2:]
    if len(argv) >= 4 and argv[1] == "recv":
        recv(argv[2], int(argv[3]), argv[4],
             float(argv[5]) if len(argv) > 5 else 600)
        return 0
    if len(argv) >= 7 and argv[1] == "send":
        src, cport, dst, port = argv[2], int(argv[3]), argv[4], int(argv[5])
        rest = argv[6:]
        until = None
        n = 0
        if rest[0] == "--until":
            until = rest[1]
            rest = rest[2:]
        else:
            n = int(rest[0])
            rest = rest[1:]
        send(src, cport, dst, port, n, until,
             float(rest[0]) if rest else 600)
        return 0
    sys.stderr.write("usage: xfer.py [--mptcp] recv ADDR PORT OUT [MAX_S]\n"
                     "       xfer.py [--mptcp] send SRC CPORT DST PORT"
                     " { BYTES | --until FILE } [MAX_S]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
