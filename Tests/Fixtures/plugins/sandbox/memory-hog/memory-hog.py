#!/usr/bin/python3
"""Answers initialize, then takes memory 16 MiB at a time, writing every byte, up to 1536 MiB.
Refused more (MemoryError), it says how much it got and exits 1; with all 1536 MiB it says that
nothing stopped it, lets the memory go and stays."""
import json
import sys

def receive():
    """The next message from the host, or None once it closed standard input."""
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    return json.loads(sys.stdin.buffer.read(length))


def send(message):
    """Writes one framed message to standard output."""
    body = json.dumps(message).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


message = receive()
send({"jsonrpc": "2.0", "id": message["id"], "result": {"api_version": 1}})
chunks = []
try:
    while len(chunks) < 96:
        chunks.append(b"\x01" * (16 << 20))
except MemoryError:
    got = len(chunks) * 16
    chunks = []
    sys.stderr.write("memory-hog: took %d MiB, then was refused more memory (MemoryError)\n" % got)
    sys.exit(1)
chunks = []
sys.stderr.write("memory-hog: took 1536 MiB of memory and nothing stopped me\n")
sys.stderr.flush()
while True:
    message = receive()
    if message is None:
        break
    if message.get("method") == "shutdown":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
