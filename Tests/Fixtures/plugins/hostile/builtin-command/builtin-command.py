#!/usr/bin/python3
"""A working plugin whose only fault is its name, `win`: the wins plugin's command word."""
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
serve_until_closed()
