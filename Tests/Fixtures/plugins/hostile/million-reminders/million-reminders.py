#!/usr/bin/python3
"""Schedules reminders, a month away, in batches until the host refuses one (its limit is
1000), then logs how many it kept and the refusal, and idles."""
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
kept = 0
refusal = None
# A hundred calls at a time up to the documented limit of 1000, each batch sent before any answer is
# read (a busy computer does not make the thousandth call wait for a thousand round trips), then one
# at a time, so that exactly one is refused.
while kept < 1_000_000:
    size = 100 if kept + 100 <= 1000 else 1
    first = next_id + 1
    for number in range(kept, kept + size):
        next_id += 1
        send(
            {
                "jsonrpc": "2.0",
                "id": next_id,
                "method": "scheduleReminder",
                "params": {
                    "id": "r%d" % number,
                    "schedule": {"in": 30 * 86400},
                    "notice": {"title": "Reminder %d" % number},
                },
            }
        )
    answers = {}
    while len(answers) < size:
        message = receive()
        if message is None:
            sys.exit(0)
        answered = message.get("id")
        if "method" not in message and isinstance(answered, int) and first <= answered <= next_id:
            answers[message["id"]] = message
        elif message.get("method") == "shutdown":
            answer(message, {})
    for request_id in range(first, next_id + 1):
        if "error" in answers[request_id]:
            refusal = answers[request_id]["error"]
            break
        kept += 1
    if refusal is not None:
        break
if refusal is None:
    call("log", {"level": "error", "message": "scheduled a million reminders and none was refused"})
else:
    call(
        "log",
        {
            "level": "notice",
            "message": "scheduled %d reminders, then the host refused the next with %d: %s"
            % (kept, refusal.get("code", 0), refusal.get("message", "")),
        },
    )
serve_until_closed()
