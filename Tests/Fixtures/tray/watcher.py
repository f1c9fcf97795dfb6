"""A StatusNotifierWatcher stand-in, as KDE Plasma's (kded's statusnotifierwatcher) behaves.

It owns org.kde.StatusNotifierWatcher on the session bus, takes RegisterStatusNotifierItem from
items, drops an item when its service leaves the bus, and says so on standard output, one line per
event, flushed: "ready", "registered SERVICE", "unregistered SERVICE". The end-to-end tests wait
for these lines; nothing here polls.
"""

import asyncio
import sys

from dbus_next import BusType, Variant
from dbus_next.aio import MessageBus
from dbus_next.service import ServiceInterface, dbus_property, method, signal, PropertyAccess


def say(line):
    print(line, flush=True)


class Watcher(ServiceInterface):
    def __init__(self, bus):
        super().__init__("org.kde.StatusNotifierWatcher")
        self.bus = bus
        self.items = []

    @method()
    def RegisterStatusNotifierItem(self, service: "s"):
        # A service that is a path is the sender's object at that path, as the specification says.
        if service.startswith("/"):
            service = self.sender + service
        if service not in self.items:
            self.items.append(service)
            self.StatusNotifierItemRegistered(service)
            say("registered " + service)

    @method()
    def RegisterStatusNotifierHost(self, service: "s"):
        pass

    @dbus_property(access=PropertyAccess.READ)
    def RegisteredStatusNotifierItems(self) -> "as":
        return self.items

    @dbus_property(access=PropertyAccess.READ)
    def IsStatusNotifierHostRegistered(self) -> "b":
        return True

    @dbus_property(access=PropertyAccess.READ)
    def ProtocolVersion(self) -> "i":
        return 0

    @signal()
    def StatusNotifierItemRegistered(self, service) -> "s":
        return service

    @signal()
    def StatusNotifierItemUnregistered(self, service) -> "s":
        return service

    @signal()
    def StatusNotifierHostRegistered(self):
        pass

    def owner_changed(self, name, old, new):
        if new == "" and name in self.items:
            self.items.remove(name)
            self.StatusNotifierItemUnregistered(name)
            say("unregistered " + name)


async def main():
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    watcher = Watcher(bus)
    # dbus-next hands a method its sender only through the message; keep the last one's.
    def remember_sender(message):
        if message.member == "RegisterStatusNotifierItem":
            watcher.sender = message.sender
        return None
    bus.add_message_handler(remember_sender)
    bus.export("/StatusNotifierWatcher", watcher)
    introspection = await bus.introspect("org.freedesktop.DBus", "/org/freedesktop/DBus")
    proxy = bus.get_proxy_object("org.freedesktop.DBus", "/org/freedesktop/DBus", introspection)
    dbus = proxy.get_interface("org.freedesktop.DBus")
    dbus.on_name_owner_changed(watcher.owner_changed)
    await bus.request_name("org.kde.StatusNotifierWatcher")
    say("ready")
    await bus.wait_for_disconnect()


asyncio.run(main())
