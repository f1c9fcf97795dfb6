#!/usr/bin/python3
"""A headless org.freedesktop.Notifications server for Hooray's tests.

It owns the notification server's well-known name on the session bus named by
DBUS_SESSION_BUS_ADDRESS, answers the four methods of the Desktop Notifications
specification 1.2, and records every Notify and CloseNotification call as one
JSON object per line so a test can read back what a user would have seen.

A second interface on the same object, org.hooray.TestControl, lets a test act
as the user: InvokeAction(u id, s key) "clicks" a button (ActionInvoked, then
NotificationClosed with reason 2, as real servers do), and
Dismiss(u id, u reason) closes a notification as the server or user would.

Run it with /usr/bin/python3: Debian's dbus-next lives on that interpreter's path.

Options:
  --caps body,body-markup,actions   capabilities to announce (default: those three)
  --record FILE                     append one JSON line per call and flush it
  --hang                            own the name but never answer Notify
  --delay SECONDS                   answer Notify only after this long, like a slow server
  --name NAME                       server name (default: hooray-test-server)
  --inhibited on|off                have KDE's Inhibited property (do-not-disturb), starting so;
                                    TestControl.SetInhibited(b) changes it and emits PropertiesChanged
  --mako-modes MODE,...             answer mako's fr.emersion.Mako ListModes/SetModes at /fr/emersion/Mako
                                    with these modes active (such as do-not-disturb)

It prints READY on stdout once the name is owned, and exits on SIGTERM or SIGINT
or when the bus goes away.
"""

import argparse
import asyncio
import base64
import json
import signal
import sys
import time

from dbus_next import BusType, Variant
from dbus_next.aio import MessageBus
from dbus_next.constants import NameFlag, RequestNameReply
from dbus_next.constants import PropertyAccess
from dbus_next.service import ServiceInterface, dbus_property, method, signal as dbus_signal

BUS_NAME = "org.freedesktop.Notifications"
OBJECT_PATH = "/org/freedesktop/Notifications"

# Reasons of NotificationClosed, from the specification.
REASON_EXPIRED = 1
REASON_DISMISSED = 2
REASON_CLOSED_BY_CALL = 3


def jsonable(value):
    """Turns a D-Bus value as dbus-next decodes it into something json.dumps accepts."""
    if isinstance(value, Variant):
        return jsonable(value.value)
    if isinstance(value, (bytes, bytearray)):
        return {"bytes_base64": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


class Recorder:
    """Appends one JSON object per line; each line is flushed so readers never see half a call."""

    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8") if path else None

    def write(self, entry):
        if self.file is None:
            return
        entry["monotonic"] = time.monotonic()
        entry["realtime"] = time.time()
        self.file.write(json.dumps(entry, sort_keys=True) + "\n")
        self.file.flush()


class Notifications(ServiceInterface):
    def __init__(self, options, recorder):
        super().__init__(BUS_NAME)
        self.options = options
        self.recorder = recorder
        self.next_id = 1
        self.open_ids = set()
        self.never = asyncio.get_running_loop().create_future()

    @method()
    async def Notify(
        self,
        app_name: "s",
        replaces_id: "u",
        app_icon: "s",
        summary: "s",
        body: "s",
        actions: "as",
        hints: "a{sv}",
        expire_timeout: "i",
    ) -> "u":
        if self.options.hang:
            # A hung server: the call is read but never answered, so the client waits for its timeout.
            await self.never
        if self.options.delay > 0:
            await asyncio.sleep(self.options.delay)
        if replaces_id != 0 and replaces_id in self.open_ids:
            notification_id = replaces_id
        else:
            notification_id = self.next_id
            self.next_id += 1
        self.open_ids.add(notification_id)
        self.recorder.write(
            {
                "method": "Notify",
                "id": notification_id,
                "replaces_id": replaces_id,
                "app_name": app_name,
                "app_icon": app_icon,
                "summary": summary,
                "body": body,
                "actions": list(actions),
                "hints": jsonable(hints),
                "expire_timeout": expire_timeout,
            }
        )
        return notification_id

    @method()
    def CloseNotification(self, id: "u"):
        self.recorder.write({"method": "CloseNotification", "id": id})
        self.close(id, REASON_CLOSED_BY_CALL)

    @method()
    def GetCapabilities(self) -> "as":
        return list(self.options.caps)

    @method()
    def GetServerInformation(self) -> "ssss":
        return [self.options.name, "Hooray tests", "1.0", "1.2"]

    @dbus_signal()
    def NotificationClosed(self, id, reason) -> "uu":
        return [id, reason]

    @dbus_signal()
    def ActionInvoked(self, id, action_key) -> "us":
        return [id, action_key]

    @dbus_signal()
    def NotificationReplied(self, id, text) -> "us":
        """KDE Plasma's (and swaync's) inline reply, for a server started with the inline-reply capability."""
        return [id, text]

    def close(self, notification_id, reason):
        if notification_id in self.open_ids:
            self.open_ids.discard(notification_id)
            self.NotificationClosed(notification_id, reason)


class InhibitedNotifications(Notifications):
    """The same server with KDE Plasma's Inhibited property: true while do-not-disturb is on."""

    def __init__(self, options, recorder):
        super().__init__(options, recorder)
        self.inhibited = options.inhibited == "on"

    @dbus_property(access=PropertyAccess.READ)
    def Inhibited(self) -> "b":
        return self.inhibited

    def set_inhibited(self, value):
        self.inhibited = value
        self.emit_properties_changed({"Inhibited": value})


class Mako(ServiceInterface):
    """mako's own interface, as far as its modes go (mako 1.7 and later)."""

    def __init__(self, modes):
        super().__init__("fr.emersion.Mako")
        self.modes = modes

    @method()
    def ListModes(self) -> "as":
        return list(self.modes)

    @method()
    def SetModes(self, modes: "as"):
        self.modes = list(modes)


class TestControl(ServiceInterface):
    """Lets a test do what a user does with the mouse."""

    def __init__(self, notifications, recorder):
        super().__init__("org.hooray.TestControl")
        self.notifications = notifications
        self.recorder = recorder

    @method()
    def InvokeAction(self, id: "u", action_key: "s"):
        self.recorder.write({"method": "InvokeAction", "id": id, "action_key": action_key})
        self.notifications.ActionInvoked(id, action_key)
        self.notifications.close(id, REASON_DISMISSED)

    @method()
    def Reply(self, id: "u", text: "s"):
        """Types a reply into a notification's inline-reply field and sends it, as Plasma does."""
        self.recorder.write({"method": "Reply", "id": id, "text": text})
        self.notifications.NotificationReplied(id, text)
        self.notifications.close(id, REASON_DISMISSED)

    @method()
    def Dismiss(self, id: "u", reason: "u"):
        self.recorder.write({"method": "Dismiss", "id": id, "reason": reason})
        self.notifications.close(id, reason)

    @method()
    def SetInhibited(self, inhibited: "b"):
        self.notifications.set_inhibited(inhibited)


def parse_options(arguments):
    parser = argparse.ArgumentParser(description="Headless notification server for tests.")
    parser.add_argument("--caps", default="body,body-markup,actions")
    parser.add_argument("--record", default=None)
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--delay", type=float, default=0)
    parser.add_argument("--name", default="hooray-test-server")
    parser.add_argument("--inhibited", choices=["on", "off"], default=None)
    parser.add_argument("--mako-modes", default=None)
    options = parser.parse_args(arguments)
    options.caps = [cap for cap in options.caps.split(",") if cap]
    return options


async def serve(options):
    recorder = Recorder(options.record)
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    kind = InhibitedNotifications if options.inhibited else Notifications
    notifications = kind(options, recorder)
    bus.export(OBJECT_PATH, notifications)
    if options.mako_modes is not None:
        bus.export("/fr/emersion/Mako", Mako([mode for mode in options.mako_modes.split(",") if mode]))
    bus.export(OBJECT_PATH, TestControl(notifications, recorder))

    # A server stopped just before may still own the name for a moment: try again for a while.
    deadline = time.monotonic() + 5
    while True:
        reply = await bus.request_name(BUS_NAME, NameFlag.DO_NOT_QUEUE)
        if reply in (RequestNameReply.PRIMARY_OWNER, RequestNameReply.ALREADY_OWNER):
            break
        if time.monotonic() > deadline:
            print(f"could not own {BUS_NAME}: {reply}; is another server running?", file=sys.stderr, flush=True)
            return 2
        await asyncio.sleep(0.05)

    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, lambda: stop.done() or stop.set_result(None))

    print("READY", flush=True)
    disconnected = asyncio.ensure_future(bus.wait_for_disconnect())
    await asyncio.wait([stop, disconnected], return_when=asyncio.FIRST_COMPLETED)
    if disconnected.done():
        # The bus went away (its daemon was stopped): nothing left to serve. The EOF it reports is expected.
        disconnected.exception()
    else:
        bus.disconnect()
    return 0


def main():
    options = parse_options(sys.argv[1:])
    sys.exit(asyncio.run(serve(options)))


if __name__ == "__main__":
    main()
