#!/usr/bin/python3
"""Drives `hooray-app --quick` through the accessibility tree (AT-SPI) and the keyboard, as a user would.

The script starts the quick window itself (APP --quick), so that it opens after a main window the test
opened, and has the keyboard focus as a window just opened has.

Usage:
  quick_window.py save APP MOMENT [--main]
        with --main, first waits for the main window's enabled "I Did a Thing"; opens the quick window,
        types MOMENT, presses Enter and waits for the praise; prints {"labels": [the quick window's labels
        then], "closed": whether it closed by itself within 10 s, "geometry": [x, y, width, height] of the
        quick window, "screen": [width, height], "main_open": whether the main window is still there}
  quick_window.py escape APP TEXT
        opens the quick window, types TEXT, presses Esc; prints {"closed": whether it closed within 10 s}
  quick_window.py later APP MOMENT GO
        opens the quick window with no hoorayd, types MOMENT, presses Enter and waits for the message that
        Hooray isn't running; writes "waiting for hoorayd" on its standard error, waits for the file GO
        (the test creates it once hoorayd runs), presses Enter again and waits for the praise; prints
        {"not_running_labels": [...], "kept": the field's text after the message, "labels": [...], "closed": ...}
Prints {"error": ...} and exits 1 when a step did not happen within 30 s.
"""

import json
import os
import re
import subprocess
import sys
import time

import atspi  # noqa: F401  Sets dogtail up.

from dogtail import rawinput, tree  # noqa: E402

DEADLINE = 30.0
TITLE = "Log a moment"
NOT_RUNNING = "Hooray isn't running, so this moment isn't saved yet."
quick = None


def fail(what, shown=None):
    print(json.dumps({"error": what, "labels": shown}))
    if quick is not None and quick.poll() is None:
        quick.kill()
    sys.exit(1)


def wait_for(what, find, interval=0.2):
    found = atspi.poll(find, DEADLINE, interval)
    if found is not None:
        return found
    try:
        shown = labels()
    except Exception:
        shown = None
    fail("no " + what + " within 30 s", shown)


def windows_named(title):
    for application in tree.root.applications():
        if application.name != "hooray-app":
            continue
        for child in application.children:
            if child.roleName == "frame" and child.name == title:
                yield application


def quick_app():
    return next(windows_named(TITLE), None)


def labels():
    application = quick_app()
    if application is None:
        return None
    return [n.name for n in application.findChildren(lambda n: n.roleName == "label", showingOnly=False)]


def text_of(field):
    text = field.queryText()
    return text.getText(0, text.characterCount)


def field():
    application = quick_app()
    if application is None:
        return None
    return next(iter(application.findChildren(
        lambda n: n.roleName == "text" and n.name == "What did you do?", showingOnly=False)), None)


def open_quick(app):
    global quick
    quick = subprocess.Popen([app, "--quick"], stdout=subprocess.DEVNULL, stderr=sys.stderr)
    return wait_for('the quick window\'s "What did you do?" field', field)


def type_in(entry, text):
    entry.text = text
    wait_for("the text typed", lambda: True if text_of(entry) == text else None)


def praise_labels():
    """The quick window's labels once one is praise (in quotes)."""
    shown = labels() or []
    return shown if any(name.startswith("\u201c") for name in shown) else None


def closed():
    try:
        quick.wait(timeout=10)
        return True
    except subprocess.TimeoutExpired:
        quick.kill()
        return False


def xwininfo(*arguments):
    said = subprocess.run(["xwininfo", *arguments], capture_output=True, text=True).stdout
    numbers = {key: int(value) for key, value in re.findall(r"^\s*([A-Za-z -]+):\s+(-?\d+)\s*$", said, re.M)}
    return numbers


def geometry():
    window = xwininfo("-name", TITLE)
    screen = xwininfo("-root")
    return ([window.get("Absolute upper-left X"), window.get("Absolute upper-left Y"), window.get("Width"),
             window.get("Height")], [screen.get("Width"), screen.get("Height")])


def save(app, moment, main):
    if main:
        wait_for('the main window\'s enabled "I Did a Thing"', lambda: next(
            (True for application in windows_named("Hooray") for n in application.findChildren(
                lambda n: n.roleName == "push button" and n.name == "I Did a Thing" and n.sensitive,
                showingOnly=False)), None))
    entry = open_quick(app)
    type_in(entry, moment)
    time.sleep(0.5)  # Mapped and placed: its place is read before it closes.
    place, screen = geometry()
    rawinput.pressKey("Return")
    # Shown for a few seconds before the window closes by itself: looked for often.
    seen = {"labels": wait_for("praise", praise_labels, interval=0.05), "geometry": place, "screen": screen}
    seen["closed"] = closed()
    if main:
        seen["main_open"] = next(windows_named("Hooray"), None) is not None
    return seen


def escape(app, text):
    entry = open_quick(app)
    type_in(entry, text)
    rawinput.pressKey("Escape")
    return {"closed": closed()}


def later(app, moment, go):
    entry = open_quick(app)
    type_in(entry, moment)
    rawinput.pressKey("Return")
    wait_for("the message that Hooray isn't running",
             lambda: True if any(name.startswith(NOT_RUNNING) for name in labels() or []) else None)
    seen = {"not_running_labels": labels(), "kept": text_of(entry)}
    print("waiting for hoorayd", file=sys.stderr, flush=True)
    wait_for("hoorayd started by the test", lambda: True if os.path.exists(go) else None)
    rawinput.pressKey("Return")
    seen["labels"] = wait_for("praise", praise_labels, interval=0.05)
    seen["closed"] = closed()
    return seen


if sys.argv[1] == "save":
    print(json.dumps(save(sys.argv[2], sys.argv[3], "--main" in sys.argv[4:])))
elif sys.argv[1] == "escape":
    print(json.dumps(escape(sys.argv[2], sys.argv[3])))
else:
    print(json.dumps(later(sys.argv[2], sys.argv[3], sys.argv[4])))
