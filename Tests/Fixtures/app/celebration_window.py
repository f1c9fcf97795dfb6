#!/usr/bin/python3
"""Drives hooray-app's Habits view and watches for its celebration window, through the accessibility
tree (AT-SPI), as a screen reader user would.

Usage:
  celebration_window.py habit NAME TITLE
                                opens Habits with its switcher, waits for NAME's "Done today: NAME" check,
                                clicks it, waits for the window titled TITLE to appear and then to close by
                                itself; prints {"habit_labels": [labels on screen before the click],
                                "celebration_labels": [the window's labels], "shown_after": seconds from the
                                click, "closed_after": seconds it stayed, "after_labels": [labels on screen
                                once it closed]}
  celebration_window.py activated HOORAY NAME TITLE
                                with no app running, runs `HOORAY habit done NAME` as a terminal would, waits
                                for hooray-app to appear with the window titled TITLE (started by the session
                                bus), for the window to close by itself and for the app to quit; prints
                                {"celebration_labels": [...], "shown_after": ..., "closed_after": ...,
                                "windows": [the names of the app's windows then], "quit": true}
  celebration_window.py windows  prints {"windows": [the names of the app's windows now]}, once the main one is there
  celebration_window.py watch TITLE
                                waits for the window titled TITLE to appear and then to close by itself; prints
                                {"celebration_labels": [...], "shown_after": ..., "closed_after": ...,
                                "windows": [the names of the app's windows while it showed]}
  celebration_window.py clicked TEXT [calendar]
                                waits for the main window (opened by a click on a notification) to show TEXT, as
                                the focused control's name, a label or a button on screen, or the view selected;
                                prints {"view": the view
                                switcher's selected view, "focused": the focused control's name, "labels": [labels
                                on screen], "calendar": the name of the month's calendar on screen, or null};
                                with "calendar", also waits for the month's calendar
Prints {"error": ...} and exits 1 when a step did not happen within its deadline.
Run it with the app's session bus, at-spi bus and display.
"""

import json
import subprocess
import sys
import time

import pyatspi

from atspi import on_screen, poll  # Sets dogtail up; see atspi.py.

from dogtail import tree  # noqa: E402

DEADLINE = 60.0


def wait_for(what, find, deadline=DEADLINE):
    """Returns find()'s first answer that is not None, tried until the deadline; exits 1 without one."""
    found = poll(find, deadline, interval=0.1)
    if found is not None:
        return found
    print(json.dumps({"error": "no %s within %d s" % (what, deadline), "windows": window_names()}))
    sys.exit(1)


def app():
    for application in tree.root.applications():
        if application.name == "hooray-app":
            return application
    return None


def window_names():
    try:
        application = app()
        return [child.name for child in application.children] if application else None
    except Exception:
        return None


def window(title):
    """The app's top-level window titled title, or None."""
    def find():
        application = app()
        if application is None:
            return None
        return next((child for child in application.children if child.name == title), None)
    return find


def labels_in(node):
    return [n.name for n in node.findChildren(lambda n: n.roleName == "label", showingOnly=False)]


def shown_labels():
    main = window("Hooray")()
    return [n.name for n in main.findChildren(lambda n: n.roleName == "label" and on_screen(n), showingOnly=False)]


def on_screen_node(role, name, sensitive=None):
    def find():
        main = window("Hooray")()
        if main is None:
            return None
        for found in main.findChildren(lambda n: n.roleName == role and n.name == name, showingOnly=False):
            if on_screen(found) and (sensitive is None or found.sensitive == sensitive):
                return found
        return None
    return find


def watch(title, since):
    """Waits for the window titled title, then for it to close by itself; what it showed and when."""
    shown = wait_for("celebration window titled " + title, window(title))
    # Timed from here: reading its labels through the accessibility bus may take seconds under load.
    appeared = time.monotonic()
    shown_after = appeared - since
    seen = {"celebration_labels": labels_in(shown), "shown_after": round(shown_after, 2), "windows": window_names()}
    wait_for("celebration window closing by itself", lambda: True if window(title)() is None else None)
    seen["closed_after"] = round(time.monotonic() - appeared, 2)
    return seen


def habit(name, title):
    wait_for('enabled "I Did a Thing" button', on_screen_node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Habits" view switcher button', on_screen_node("page tab", "Habits")).doActionNamed("click")
    check = wait_for('"Done today: %s" check' % name, on_screen_node("push button", "Done today: " + name, True))
    before = shown_labels()
    clicked = time.monotonic()
    check.doActionNamed("click")
    seen = watch(title, clicked)
    seen["habit_labels"] = before
    seen["after_labels"] = shown_labels()
    return seen


def activated(hooray, name, title):
    started = time.monotonic()
    subprocess.run([hooray, "habit", "done", name], check=True, stdout=subprocess.DEVNULL)
    wait_for("celebration window titled " + title, window(title))
    windows = window_names()
    seen = watch(title, started)
    seen["windows"] = windows
    wait_for("the app quitting once its window closed", lambda: True if app() is None else None, deadline=30)
    seen["quit"] = True
    return seen


def clicked(text, calendar_too=False):
    def state(node, which):
        try:
            return node.getState().contains(which)
        except Exception:
            return False

    def showing():
        main = window("Hooray")()
        if main is None:
            return None
        focused = next((n for n in main.findChildren(lambda n: state(n, pyatspi.STATE_FOCUSED), showingOnly=False)
                        if n.roleName != "frame"), None)
        labels = [n.name for n in main.findChildren(lambda n: n.roleName == "label" and on_screen(n),
                                                    showingOnly=False)]
        buttons = [n.name for n in main.findChildren(lambda n: n.roleName == "push button" and on_screen(n),
                                                     showingOnly=False)]
        view = next((n.name for n in main.findChildren(
            lambda n: n.roleName == "page tab" and state(n, pyatspi.STATE_SELECTED) and on_screen(n),
            showingOnly=False)), None)
        if (text not in labels and text not in buttons and text != view
                and (focused is None or not focused.name.startswith(text))):
            return None
        calendar = next((n.name for n in main.findChildren(
            lambda n: n.roleName == "image" and n.name.startswith("Calendar of ") and on_screen(n),
            showingOnly=False)), None)
        if calendar_too and calendar is None:
            return None
        return {"view": view, "focused": focused.name if focused else None, "labels": labels, "calendar": calendar}
    return wait_for("the window showing " + text, showing)


if sys.argv[1] == "habit":
    print(json.dumps(habit(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "windows":
    wait_for('enabled "I Did a Thing" button', on_screen_node("push button", "I Did a Thing", sensitive=True))
    print(json.dumps({"windows": window_names()}))
elif sys.argv[1] == "clicked":
    print(json.dumps(clicked(sys.argv[2], calendar_too=sys.argv[3:] == ["calendar"])))
elif sys.argv[1] == "watch":
    print(json.dumps(watch(sys.argv[2], time.monotonic())))
else:
    print(json.dumps(activated(sys.argv[2], sys.argv[3], sys.argv[4])))
