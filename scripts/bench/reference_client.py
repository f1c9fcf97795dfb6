#!/usr/bin/python3
"""Reference clients for `make bench`: the least a resident program could do, measured the same way.

Each one keeps one connection to the session bus (like hoorayd) and sends Notify calls to the
notification server, waiting for each reply, as hoorayd's delivery does:

  schedule FILE          sleep (time.sleep, i.e. clock_nanosleep) until each CLOCK_REALTIME instant
                         listed in FILE (a JSON array of seconds since the epoch), then Notify:
                         the reference for delivery precision.
  ai URL RUNS            RUNS times: Notify "Moment logged", POST to URL (the loopback AI server),
                         and when its answer is in, Notify again replacing the first: the reference
                         for the AI update path.

It prints DONE when finished. Run it with /usr/bin/python3 (Debian's python3-dbus-next) and
DBUS_SESSION_BUS_ADDRESS set. A benchmark helper: it measures nothing itself and asserts nothing.
"""

import asyncio
import json
import sys
import time
import urllib.request

from dbus_next import BusType, Message
from dbus_next.aio import MessageBus

APP = "hooray-reference"


async def notify(bus, summary, body="", replaces=0):
    reply = await bus.call(
        Message(
            destination="org.freedesktop.Notifications",
            path="/org/freedesktop/Notifications",
            interface="org.freedesktop.Notifications",
            member="Notify",
            signature="susssasa{sv}i",
            body=[APP, replaces, "", summary, body, [], {}, -1],
        )
    )
    return reply.body[0] if reply.body else 0


async def schedule(bus, path):
    instants = json.loads(open(path, encoding="utf-8").read())
    for index, instant in enumerate(instants):
        delay = instant - time.time()
        if delay > 0:
            time.sleep(delay)  # Deliberately blocking: nothing else to do, and finer than the event loop.
        await notify(bus, f"Reference {index + 1}", f"due {instant:.6f}")


async def ai(bus, url, runs):
    for index in range(runs):
        first = await notify(bus, "Moment logged", f"Reference win {index + 1}")
        request = urllib.request.Request(
            url, data=json.dumps({"clientId": str(index), "text": "Reference"}).encode(), method="POST"
        )
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=30) as response:
            praise = json.loads(response.read()).get("aiPraise", "")
        await notify(bus, "Moment logged", f"Reference win {index + 1}\n{praise}", replaces=first)
        await asyncio.sleep(0.2)


async def main(arguments):
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    if arguments[0] == "schedule":
        await schedule(bus, arguments[1])
    elif arguments[0] == "ai":
        await ai(bus, arguments[1], int(arguments[2]))
    else:
        raise SystemExit(f"unknown mode {arguments[0]!r}")
    bus.disconnect()
    print("DONE", flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    asyncio.run(main(sys.argv[1:]))
