# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The namespace tests' short connections (faults.sh, bgp.sh):
# SRC DST N TIMEOUT: N concurrent short connections to DST:5301, each
# sending 20 kB and waiting for "ok"; prints how many completed, the
# $EPOCHREALTIME at which the last of them did, the longest one's
# seconds, and how many took over 0.5 s (a repair on the way).
import socket, sys, threading, time
src, dst, n, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
ok = []
def one(i):
    t0 = time.time()
    try:
        s = socket.create_connection((dst, 5301), timeout, (src, 0))
        s.settimeout(timeout)
        s.sendall(b"x" * 20000)
        s.shutdown(socket.SHUT_WR)
        if s.recv(16) == b"ok":
            ok.append((time.time(), time.time() - t0))
        s.close()
    except OSError:
        pass
th = [threading.Thread(target=one, args=(i,)) for i in range(n)]
for t in th: t.start()
for t in th: t.join()
print(len(ok), max([e for e, d in ok], default=0),
      "%.2f" % max([d for e, d in ok], default=0), len([d for e, d in ok if d > 0.5]))
