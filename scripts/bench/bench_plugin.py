#!/usr/bin/python3
"""A plugin in another language for Hooray's benchmarks (scripts/bench/plugins.py).

It speaks the plugin protocol of docs/protocol.md with raw `Content-Length` framing and nothing
but the standard library (no SDK), so what is measured is the host. What it does is chosen by its
name (HOORAY_PLUGIN, which the host sets; or the first argument):

  bench-echo    `command` echo: one `storageGet` of the host, then the answer (host → plugin →
                host → plugin → host); `command` ping: the answer at once (host → plugin → host).
                After `initialize` it stores the value that echo reads.
  bench-flood   misbehaves as much as it can without being stopped: writes its standard error as
                fast as the host reads it, and keeps 50 calls in flight in a tight loop —
                `postNotice` (past its allowance of 10 a minute), `storagePut` of a new key each
                time (past the 10,000 keys it may keep), `log`. Every second it writes what it
                managed to `stats.json` in its data folder (HOORAY_PLUGIN_DATA).
  bench-crash   answers `initialize`, says so on standard error and exits with status 3 0.2 s later.
  bench-silent  answers `initialize`, then reads every message and answers none.

A benchmark helper: it measures nothing itself and asserts nothing.
"""

import json
import os
import sys
import threading
import time

IN_FLIGHT = 50
STATS_EVERY = 1.0

stdin = sys.stdin.buffer
stdout = sys.stdout.buffer
write_lock = threading.Lock()


def read_message():
    """The next message from the host, or None when its side is closed."""
    length = None
    while True:
        line = stdin.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = stdin.read(length)
    if len(body) < length:
        return None
    return json.loads(body)


def send(message):
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    with write_lock:
        stdout.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdout.flush()


def answer(request, result):
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def call(identifier, method, params):
    send({"jsonrpc": "2.0", "id": identifier, "method": method, "params": params})


def answer_host(message, handlers):
    """Answers one request of the host with `handlers[method](params)`; ignores notifications."""
    if "method" not in message or "id" not in message:
        return
    handler = handlers.get(message["method"])
    if handler is None:
        error = {"code": -32601, "message": f"no method {message['method']}"}
        send({"jsonrpc": "2.0", "id": message["id"], "error": error})
        return
    answer(message, handler(message.get("params") or {}))
    if message["method"] == "shutdown":
        sys.exit(0)


def initialized(params):
    return {"api_version": 1}


# ---------------------------------------------------------------------------------------------


def echo():
    pending = []  # host requests that arrived while waiting for an answer of the host
    next_id = 1

    def await_result(identifier):
        while True:
            message = read_message()
            if message is None:
                sys.exit(0)
            if message.get("id") == identifier and "method" not in message:
                return message.get("result", {})
            pending.append(message)

    def command(params):
        nonlocal next_id
        if params.get("command") == "echo":
            call(next_id, "storageGet", {"key": "greeting"})
            value = await_result(next_id).get("value")
            next_id += 1
            return {"text": f"{value} {' '.join(sum(params.get('values', {}).values(), []))}".strip(), "exit_code": 0}
        return {"text": "pong", "exit_code": 0}

    handlers = {"initialize": initialized, "command": command, "shutdown": lambda params: {}}
    while True:
        message = pending.pop(0) if pending else read_message()
        if message is None:
            return
        answer_host(message, handlers)
        if message.get("method") == "initialize":
            call(next_id, "storagePut", {"key": "greeting", "value": "hello"})
            await_result(next_id)
            next_id += 1


# ---------------------------------------------------------------------------------------------


def flood():
    stats = {"calls": 0, "answered": 0, "errors": {}, "stderr_lines": 0, "started": time.time()}
    slots = threading.Semaphore(IN_FLIGHT)
    data = os.environ.get("HOORAY_PLUGIN_DATA", ".")

    def stderr_flood():
        line = 0
        while True:
            line += 1
            os.write(2, b"bench-flood: line %d of a standard error that never stops\n" % line)
            stats["stderr_lines"] = line

    def calls():
        number = 0
        while True:
            slots.acquire()
            number += 1
            kind = number % 3
            if kind == 0:
                notice = {"title": "Flood notice", "body": f"number {number}", "urgency": "low"}
                call(number, "postNotice", {"notice": notice})
            elif kind == 1:
                call(number, "storagePut", {"key": f"key-{number}", "value": {"n": number, "text": "x" * 64}})
            else:
                call(number, "log", {"level": "info", "message": f"bench-flood: call {number}"})
            stats["calls"] = number

    def write_stats():
        path = os.path.join(data, "stats.json")
        while True:
            time.sleep(STATS_EVERY)
            try:
                snapshot = dict(stats, errors=dict(stats["errors"]), written=time.time())
            except RuntimeError:  # The reading thread added an error code meanwhile.
                continue
            with open(path + ".tmp", "w", encoding="utf-8") as file:
                json.dump(snapshot, file)
            os.replace(path + ".tmp", path)

    handlers = {"initialize": initialized, "command": lambda params: {"text": "flooding", "exit_code": 0}}
    handlers["shutdown"] = lambda params: {}
    started = False
    while True:
        message = read_message()
        if message is None:
            return
        if "method" in message:
            answer_host(message, handlers)
            if message["method"] == "initialize" and not started:
                started = True
                for target in (stderr_flood, calls, write_stats):
                    threading.Thread(target=target, daemon=True).start()
        else:
            stats["answered"] += 1
            if "error" in message:
                code = str(message["error"].get("code"))
                stats["errors"][code] = stats["errors"].get(code, 0) + 1
            slots.release()


# ---------------------------------------------------------------------------------------------


def crash():
    while True:
        message = read_message()
        if message is None:
            return
        answer_host(message, {"initialize": initialized, "shutdown": lambda params: {}})
        if message.get("method") == "initialize":
            os.write(2, b"bench-crash: running, and about to exit with status 3 on purpose\n")
            time.sleep(0.2)
            os._exit(3)


def silent():
    while True:
        message = read_message()
        if message is None:
            return
        if message.get("method") == "initialize":
            answer_host(message, {"initialize": initialized})
        # Everything else is read and never answered.


ROLES = {"bench-echo": echo, "bench-flood": flood, "bench-crash": crash, "bench-silent": silent}

if __name__ == "__main__":
    role = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HOORAY_PLUGIN", "")
    if role not in ROLES:
        sys.exit(f"bench_plugin.py: no role {role!r}; the roles are {', '.join(ROLES)}")
    ROLES[role]()
