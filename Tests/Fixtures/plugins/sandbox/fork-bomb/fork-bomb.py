#!/usr/bin/python3
"""Answers initialize, then forks: every process forks two more, nine levels deep (at most 1023
processes, so that it cannot take the computer down where nothing limits it), and each new one then
sleeps two minutes as `hooray-fork-bomb-TOKEN` (`token` from its `[plugins.fork-bomb]` section), so
a test can find them. Refused a process, it says how many it had and exits 1; with all 1023 it says
that nothing stopped it and stays."""
import json
import os
import select
import sys
import time

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


LEVELS = 9
message = receive()
token = message.get("params", {}).get("config", {}).get("token", "")
send({"jsonrpc": "2.0", "id": message["id"], "result": {"api_version": 1}})
name = "hooray-fork-bomb-" + token
tally, report = os.pipe()


def spread(levels):
    """Forks two children that do the same, `levels` deep; a child never returns from here."""
    for _ in range(2 if levels > 0 else 0):
        try:
            child = os.fork()
        except OSError as error:
            os.write(report, b"R" + str(error).encode()[:100] + b"\n")
            return
        if child == 0:
            try:
                spread(levels - 1)
                os.write(report, b"S\n")
                null = os.open(os.devnull, os.O_RDWR)
                for descriptor in (0, 1, 2):
                    os.dup2(null, descriptor)
                os.execv("/usr/bin/sleep", [name, "120"])
            finally:
                os._exit(0)


spread(LEVELS)
os.close(report)
started, refusals = 1, []
pending = b""
while started < 2 ** (LEVELS + 1) - 1 and select.select([tally], [], [], 1.5)[0]:
    chunk = os.read(tally, 65536)
    if not chunk:
        break
    pending += chunk
    *lines, pending = pending.split(b"\n")
    for line in lines:
        if line == b"S":
            started += 1
        elif line.startswith(b"R"):
            refusals.append(line[1:].decode(errors="replace"))
if refusals:
    sys.stderr.write(
        "fork-bomb: had %d processes, then was refused another %d times (%s)\n" % (started, len(refusals), refusals[0]))
    sys.exit(1)
sys.stderr.write("fork-bomb: started %d processes and nothing stopped me\n" % started)
sys.stderr.flush()
while True:
    message = receive()
    if message is None:
        break
    if message.get("method") == "shutdown":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
