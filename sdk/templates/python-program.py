#!/usr/bin/env python3
"""{{NAME}}: a Hooray plugin, written with the Python SDK (hooray_plugin.py, beside this file).

`hooray {{NAME}} hello` posts a notice with a button and answers a line. Add commands in
plugin.toml and here; docs/plugins.md in Hooray's source is the tutorial. Anything you print
goes to hoorayd's log (journalctl --user -u hooray), never to the protocol.
"""

from hooray_plugin import Notice, Plugin

plugin = Plugin(name="{{NAME}}", version="0.1.0")


@plugin.command("hello")
def hello(command, host):
    who = command.value("who", "there")
    notice = Notice("Hello, %s" % who, "This notice comes from the {{NAME}} plugin.", actions=[("wave", "Wave back")])
    host.post_notice(notice)
    return "Hello, %s! A notice is on its way." % who


@plugin.action("wave")
def wave(action, host):
    print("someone waved back at notice %s" % action.notice)


if __name__ == "__main__":
    plugin.run()
