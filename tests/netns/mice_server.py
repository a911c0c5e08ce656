# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# ADDR: serves mice.py's connections on ADDR:5301, answering "ok" to
# each once it has read all; ends after 60 s without a connection.
import socket, sys, threading
l = socket.socket()
l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind((sys.argv[1], 5301))
l.listen(1024)
l.settimeout(60)  # ends on its own, whatever happens to the test
def serve(c):
    c.settimeout(20)
    try:
        while c.recv(65536):
            pass
        c.sendall(b"ok")
    except OSError:
        pass
    c.close()
while True:
    try:
        c, _ = l.accept()
    except OSError:
        break
    threading.Thread(target=serve, args=(c,), daemon=True).start()
