#!/usr/bin/python3
"""Answers initialize, then announces a 100 MB message and streams 100 MB of it, 1 MiB at a time."""
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


def answer(request, result):
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def serve_until_closed(on_request=None):
    """Answers the host's requests (shutdown with {}) until it closes standard input."""
    while True:
        message = receive()
        if message is None:
            return
        if "id" not in message or "method" not in message:
            continue
        if message["method"] == "shutdown":
            answer(message, {})
        elif on_request is not None:
            on_request(message)
        else:
            send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "not here"}})


message = receive()
answer(message, {"api_version": 1})
size = 100 * 1024 * 1024
head = b'{"jsonrpc": "2.0", "method": "log", "params": {"message": "'
tail = b'"}}'
sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % size + head)
chunk = b"x" * (1024 * 1024)
left = size - len(head) - len(tail)
sent = len(head)
try:
    while left > 0:
        piece = chunk[: min(left, len(chunk))]
        sys.stdout.buffer.write(piece)
        left -= len(piece)
        sent += len(piece)
    sys.stdout.buffer.write(tail)
    sys.stdout.buffer.flush()
except BrokenPipeError:
    print("sends-100mb: the host stopped reading after about %d MiB" % (sent >> 20), file=sys.stderr, flush=True)
    sys.exit(1)
serve_until_closed()
