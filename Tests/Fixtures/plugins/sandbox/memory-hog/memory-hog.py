#!/usr/bin/python3
"""Answers initialize, then takes memory 16 MiB at a time, writing every byte, up to 1536 MiB, as a
program with a leak would: refused more, it dies of the MemoryError, saying no more than Python does.
With all 1536 MiB it says that nothing stopped it, lets the memory go and stays."""
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


def serve_until_closed():
    """Answers shutdown until the host closes standard input."""
    while True:
        message = receive()
        if message is None:
            return
        if message.get("method") == "shutdown":
            send({"jsonrpc": "2.0", "id": message["id"], "result": {}})


message = receive()
send({"jsonrpc": "2.0", "id": message["id"], "result": {"api_version": 1}})
chunks = []
while len(chunks) < 96:
    chunks.append(b"\x01" * (16 << 20))
chunks = []
sys.stderr.write("memory-hog: took 1536 MiB and nothing stopped me\n")
sys.stderr.flush()
serve_until_closed()
