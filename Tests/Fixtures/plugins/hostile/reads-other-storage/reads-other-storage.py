#!/usr/bin/python3
"""Reaches for other plugins' data: calls naming the wins or reminders plugin, keys that try to
leave its own namespace, and queries of everything. Logs one line saying whether the host kept it
to its own storage: "kept to my own storage: ..." when it did, "SAW WHAT IS NOT MINE: ..." when not."""
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
problems = []
refusals = []

_, error = call("storagePut", {"key": "mine", "value": "kept in my own drawer"})
if error is not None:
    problems.append("could not even store its own key: %s" % error.get("message"))

# Calls that name another plugin: each must be refused, and touch nothing.
naming_others = [
    ("storageGet", {"key": "moments", "plugin": "wins"}),
    ("storageGet", {"key": "moments", "namespace": "wins"}),
    ("storagePut", {"key": "moments", "value": [], "plugin": "wins"}),
    ("storageDelete", {"key": "moments", "plugin": "wins"}),
    ("storageQuery", {"prefix": "", "plugin": "wins"}),
    ("cancelReminder", {"id": "chaos-check", "plugin": "reminders"}),
    ("listReminders", {"plugin": "reminders"}),
]
for method, params in naming_others:
    result, error = call(method, params)
    if error is None:
        problems.append("%s %s was answered: %s" % (method, json.dumps(params), json.dumps(result)))
    else:
        refusals.append("%s %d" % (method, error.get("code", 0)))

# Keys that look like paths or other plugins' names are keys in its own namespace: none is there.
for key in ["../wins", "../../wins/moments", "wins/moments", "wins.moments", "wins:moments", "/wins",
            "hooray.celebrations", "celebrations", "..", "%", "*", "moments"]:
    result, error = call("storageGet", {"key": key})
    if error is not None or result != {"value": None}:
        problems.append("storageGet %r gave %s" % (key, json.dumps(error or result)))

# Writing such a key writes its own; reading it back gives its own value.
call("storagePut", {"key": "../wins", "value": "mine too"})
result, _ = call("storageGet", {"key": "../wins"})
if result != {"value": "mine too"}:
    problems.append("storageGet '../wins' after putting it gave %s" % json.dumps(result))
call("storageDelete", {"key": "../wins"})

# Cancelling the reminders plugin's reminder by its id cancels nothing of another's.
call("cancelReminder", {"id": "chaos-check"})

for prefix in ["", "w", "m", "."]:
    result, error = call("storageQuery", {"prefix": prefix})
    keys = [item["key"] for item in (result or {}).get("items", [])]
    if any(key != "mine" for key in keys):
        problems.append("storageQuery %r listed %s" % (prefix, keys))
result, error = call("listReminders", {})
if error is not None or (result or {}).get("reminders"):
    problems.append("listReminders gave %s" % json.dumps(error or result))

if problems:
    call("log", {"level": "error", "message": "SAW WHAT IS NOT MINE: " + "; ".join(problems)})
else:
    call(
        "log",
        {
            "level": "notice",
            "message": "kept to my own storage: the host refused all %d calls naming another plugin (%s)"
            % (len(refusals), ", ".join(refusals)),
        },
    )
serve_until_closed()
