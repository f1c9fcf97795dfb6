#!/usr/bin/python3
"""Answers initialize, then forks as a fork bomb does: every new process forks two more, nine levels
deep (at most 1023 processes, so that it cannot take down a computer where nothing limits it), then
sleeps two minutes as `hooray-fork-bomb-TOKEN` (`token` from its `[plugins.fork-bomb]` section), so
a test can find them. A refused fork is tried again every 10 ms, for ever, as a bomb does, with
nothing said but Python's traceback the first time; so it never ends by itself. Only when all 1023
ran does it say that nothing stopped it."""
import json
import os
import select
import sys
import time
import traceback

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


LEVELS = 9
message = receive()
token = message.get("params", {}).get("config", {}).get("token", "")
send({"jsonrpc": "2.0", "id": message["id"], "result": {"api_version": 1}})
name = "hooray-fork-bomb-" + token
tally, report = os.pipe()


def make_children(levels):
    """Forks two children that each do the same, `levels` deep, and then sleep."""
    made, told = 0, False
    while made < 2 and levels > 0:
        try:
            child = os.fork()
        except OSError:
            if not told:
                traceback.print_exc()
                told = True
            time.sleep(0.01)
            continue
        if child == 0:
            make_children(levels - 1)
            os.write(report, b"S")
            null = os.open(os.devnull, os.O_RDWR)
            for descriptor in (0, 1, 2):
                os.dup2(null, descriptor)
            os.execv("/usr/bin/sleep", [name, "120"])
        made += 1


make_children(LEVELS)
os.close(report)
started = 1
while started < 2 ** (LEVELS + 1) - 1 and select.select([tally], [], [], 2)[0]:
    chunk = os.read(tally, 65536)
    if not chunk:
        break
    started += len(chunk)
if started == 2 ** (LEVELS + 1) - 1:
    sys.stderr.write("fork-bomb: %d running and nothing stopped me\n" % started)
    sys.stderr.flush()
serve_until_closed()
