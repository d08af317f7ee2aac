#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/fabric/fabric_stranger.py [HOST:]PORT MODE [RANK [SRC]] - a
stranger at ib_fabric's barrier (rank 0's PORT, on HOST, default
127.0.0.1), for tests/fabric/test_fabric_strangers.sh and the lab's
fabric.strangers:
  silent      connects and sends nothing
  claim       reads the challenge and sends a JOIN for RANK (address
              127.0.0.1, a MAC of zeros: it has no key), from SRC
              (default 127.0.0.1 for HOST 127.0.0.1, else any; 127.0.0.2
              is another node on loopback)
  byte        connects (from SRC) and sends one byte
Prints "bytes N seconds S": what came back and when the connection
ended (rank 0 dropped it, or a 30 s cap)."""
import socket
import struct
import sys
import time

host, _, port = sys.argv[1].rpartition(":")
host, port, mode = host or "127.0.0.1", int(port), sys.argv[2]
rank = int(sys.argv[3]) if len(sys.argv) > 3 else 1
src = sys.argv[4] if len(sys.argv) > 4 else ("127.0.0.1" if host == "127.0.0.1" else "")
s = socket.socket()
s.bind((src, 0))
for _ in range(600):  # rank 0 may come up late (mpirun in the lab)
    try:
        s.connect((host, port))
        break
    except OSError:
        time.sleep(0.1)
        s.close()
        s = socket.socket()
        s.bind((src, 0))
t0 = time.monotonic()
got = b""
s.settimeout(30)
if mode == "claim":
    while len(got) < 16:
        b = s.recv(16 - len(got))
        if not b:
            break
        got += b
    s.sendall(struct.pack("!I", rank) + b"127.0.0.1".ljust(48, b"\0") +
              b"\x01" * 16 + b"\0" * 32)
elif mode == "byte":
    s.sendall(b"x")
try:
    while True:
        b = s.recv(4096)
        if not b:
            break
        got += b
except OSError:
    pass
print("bytes %d seconds %.1f" % (len(got), time.monotonic() - t0))
