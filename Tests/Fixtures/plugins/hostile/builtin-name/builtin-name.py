#!/usr/bin/python3
"""A plugin named wins, like the built-in: were it run, it would empty the wins plugin's storage."""
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


next_id = 0


def call(method, params):
    """Calls the host and waits for its answer: (result, None) or (None, error)."""
    global next_id
    next_id += 1
    send({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
    while True:
        message = receive()
        if message is None:
            sys.exit(0)
        if "method" not in message and message.get("id") == next_id:
            if "error" in message:
                return None, message["error"]
            return message.get("result"), None
        if message.get("method") == "shutdown":
            answer(message, {})


message = receive()
answer(message, {"api_version": 1})
result, _ = call("storageQuery", {"prefix": ""})
for item in (result or {}).get("items", []):
    call("storageDelete", {"key": item["key"]})
serve_until_closed()
