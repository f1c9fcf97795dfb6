#!/usr/bin/python3
"""`make screenshots`: every screen of `hooray-app`, light and dark, as PNGs in docs/screenshots/.

Each screen is reached as a user reaches it, through the accessibility tree (dogtail), on an X server
of its own (Xvfb) against a real hoorayd in a temporary world (HOME, XDG folders, a private session
bus): nothing of the user's is read or changed. The colour scheme is forced with libadwaita's
ADW_DEBUG_COLOR_SCHEME (prefer-light, prefer-dark), which AdwStyleManager honours as it would the
desktop's setting. A run makes the same pictures as the last: Home opens on its first phrase
(HOORAY_APP_FIRST_PHRASE), not a random one; every moment gets the same offline praise (a praise_file
of one line); GTK's animations and the caret's blinking are off. Screens:

  home            Home, hoorayd running, a few moments logged
  <view>          each page of the view switcher other than Home (found on screen, not listed here:
                  Moments, Habits, and any page added later), with moments and two habits
  log             Log a moment, something typed
  log-details     the same with its details open: a note
  time-sheet      "When did it happen?" over it (the whole screen: the sheet is a window of its own)
  habit           a habit opened from Habits: its month's calendar and milestones
  habit-edit      its Edit dialog over it (the whole screen)
  recovery-insights
                  Recovery's whole dashboard, the window made tall: this week, the recovery-time trend
  recovery-plan   a rejection's 5-minute plan, opened from its Plan button
  recovery-templates
                  the response templates for it, the fitting one first
  recovery-log    Log a rejection, the slider moved and a note typed
  praise          the Praise view after saving it
  settings        Settings, over it
  settings-plugins
                  its Plugins page: each built-in plugin's switches and times
  settings-data   its Your data page: the anonymous id, export and import, delete my data
  settings-about  its About page: the version, where the data is, the crisis note
  quick           `hooray-app --quick`, something typed
  first-run       Home with no moment logged yet
  <view>-empty    each page of the view switcher other than Home, with nothing logged
  not-running     the window with no hoorayd

Each window is captured with ImageMagick's `import` and optimised with `optipng` (Debian packages
imagemagick, optipng; `make screenshots` installs them). Run with /usr/bin/python3.
"""

import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "bench"))
from benchlib import REPO_ROOT, World, stop_process  # noqa: E402

SCHEMES = {"light": "prefer-light", "dark": "prefer-dark"}
MOMENTS = [
    ("Replied to the landlord's email", "relieved", "3h"),
    ("Took a short walk around the block", "calm", "1h"),
    # Within the last 12 hours, which Moments shows as "3 h ago" rather than as a time of day: the
    # same pictures at any hour.
    ("Drank a glass of water", None, "20m"),
]
# The offline praise every moment gets here (the built-in pool's words, always the same).
PRAISE = "Something good happened, and you made it happen."
# Habits: name, the days done before today (from its start, that many days ago), and whether today too.
HABITS = [("Read 10 pages", 5, False), ("Stretch", 0, True)]
# Views whose reading shows in a label: the label's test.
READ = {"Today": lambda labels: any("in a row" in label for label in labels),
        "Recovery": lambda labels: "Still healing" in labels}
# The first habit's "remember why".
WHY = "To become wiser and calmer."
DEADLINE = 30.0
# Lists the applications in the accessibility registry.
PROBE = "import pyatspi; print([pyatspi.Registry.getDesktop(0)[i].name for i in range(pyatspi.Registry.getDesktop(0).childCount)])"


def wait_for(what, find):
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE:
        try:
            found = find()
        except Exception:  # The tree changes under us while the app draws; look again.
            found = None
        if found is not None:
            return found
        time.sleep(0.2)
    sys.exit(f"screenshots: no {what} within {DEADLINE:g} s")


class Desktop:
    """Xvfb and the accessibility bus on a world's session bus."""

    def __init__(self, world):
        self.world = world
        # Xvfb picks a free display and says which on its standard output once it is ready.
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1700x24", "-nolisten", "tcp"], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=open(world.logs / "xvfb.log", "wb"))
        number = self.xvfb.stdout.readline().decode().strip()
        if not number.isdigit():
            sys.exit(f"screenshots: Xvfb did not start: {(world.logs / 'xvfb.log').read_text(errors='replace')}")
        self.display = ":" + number
        self.environment = world.environment({"DISPLAY": self.display, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo"})
        self.accessibility = subprocess.Popen(
            ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], env=self.environment,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["gdbus", "wait", "--session", "--timeout", "20", "org.a11y.Bus"], env=self.environment,
                       check=True)

    def drive(self, part, app, output, scheme):
        """Runs a part in a process of its own, in this desktop's environment (as the app's tests run dogtail)."""
        subprocess.run([sys.executable, __file__, "--drive", part, "--app", str(app), "--output", str(output),
                        "--scheme", scheme], env=self.environment, check=True)

    def stop(self):
        stop_process(self.accessibility)
        stop_process(self.xvfb)


class Shooter:
    """Opens the app, finds its widgets through the accessibility tree and captures its windows."""

    def __init__(self, app, output, scheme):
        self.app, self.output, self.scheme = app, output, scheme
        self.process = None
        self.tree = None

    def open(self, *arguments):
        environment = dict(os.environ, ADW_DEBUG_COLOR_SCHEME=SCHEMES[self.scheme], HOORAY_APP_FIRST_PHRASE="1")
        self.process = subprocess.Popen([str(self.app), *arguments], env=environment, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)

    def close(self):
        stop_process(self.process)
        # Gone from the accessibility tree before the next window opens.
        wait_for("the window gone", lambda: None if self.application() else True)

    def application(self):
        if self.tree is None:
            # Only once the app is in the accessibility registry: asked before, the registry fails for
            # good in this process. A process of its own asks until it is.
            wait_for("hooray-app in the accessibility registry", lambda: True if "hooray-app" in subprocess.run(
                [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=30).stdout else None)
            from dogtail.config import config
            config.checkForA11y = False
            config.searchShowingOnly = False
            config.defaultDelay = 0.2
            config.searchCutoffCount = 5
            config.logDebugToFile = False
            config.logDebugToStdOut = False
            from dogtail import tree
            self.tree = tree
        for application in self.tree.root.applications():
            if application.name == "hooray-app":
                return application
        return None

    def nodes(self, role, name=None):
        application = self.application()
        if application is None:
            return []
        return [n for n in application.findChildren(
            lambda n: (role is None or n.roleName == role) and (name is None or n.name == name), showingOnly=False)
            if on_screen(n)]

    def first(self, role, name=None, sensitive=None):
        def find():
            return next((n for n in self.nodes(role, name) if sensitive is None or n.sensitive == sensitive), None)
        return wait_for(f"{role} “{name}”", find)

    def wait_until_read(self, view):
        """Waits until a view shows what hoorayd answered, where a label says so; a second otherwise."""
        ready = READ.get(view)
        if ready:
            wait_for(f"{view} read", lambda: True if ready(self.labels()) else None)
        time.sleep(1.0)

    def labels(self):
        return [n.name for n in self.nodes("label")]

    def shoot(self, name, title="Hooray"):
        time.sleep(1.0)  # Transitions (a stack's crossfade) done, the frame drawn.
        path = self.output / f"{self.scheme}-{name}.png"
        # A dialog is a window of its own, which Xvfb (no window manager) leaves at the screen's corner:
        # the whole screen, the black around the windows trimmed.
        crop = ["-trim", "+repage"] if title == "root" else []
        subprocess.run(["import", "-window", title, *crop, str(path)], check=True)
        subprocess.run(["optipng", "-quiet", "-o2", str(path)], check=True)
        print(f"{path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path}", flush=True)

    def views(self):
        """The view switcher's pages on screen, by title, Home first."""
        # The header bar's switcher and the bottom one (a narrow window's) list the same pages.
        return list(dict.fromkeys(n.name for n in self.nodes("page tab")))


def resize_window(title, width, height):
    """Resizes the X window titled `title`, as a user dragging its edge would (no window manager here)."""
    import ctypes
    found = subprocess.run(["xwininfo", "-name", title], capture_output=True, text=True, check=True).stdout
    window = int(re.search(r"Window id: (0x[0-9a-f]+)", found).group(1), 16)
    x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    display = ctypes.c_void_p(x11.XOpenDisplay(None))
    x11.XResizeWindow(display, ctypes.c_ulong(window), ctypes.c_uint(width), ctypes.c_uint(height))
    x11.XFlush(display)
    x11.XCloseDisplay(display)
    time.sleep(1.0)  # Laid out again at that size.


def on_screen(node):
    while node is not None and node.roleName != "application":
        if not node.visible:
            return False
        node = node.parent
    return True


def slug(title):
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def with_moments(shooter):
    shooter.open()
    shooter.first("push button", "I Did a Thing", sensitive=True)
    views = shooter.views()
    shooter.shoot("home")
    for view in views[1:]:
        shooter.first("page tab", view).doActionNamed("click")
        shooter.wait_until_read(view)
        shooter.shoot(slug(view))
    # One habit opened, with its month, and its Edit dialog.
    shooter.first("page tab", "Habits").doActionNamed("click")
    shooter.first("push button", "Show " + HABITS[0][0], sensitive=True).doActionNamed("click")
    shooter.first("image", "Calendar of " + datetime.date.today().strftime("%B %Y"))
    shooter.shoot("habit")
    shooter.first("push button", "Edit…", sensitive=True).doActionNamed("click")
    shooter.first("text", "Reminder")
    shooter.shoot("habit-edit", title="root")
    shooter.first("push button", "Cancel", sensitive=True).doActionNamed("click")
    shooter.first("push button", "Back to your habits", sensitive=True).doActionNamed("click")
    # Recovery: its dashboard further down (the trend), a rejection's plan, the templates, and Quick Log.
    shooter.first("page tab", "Recovery").doActionNamed("click")
    shooter.first("image", "Recovery time, week by week")
    # The whole dashboard at once: the window as tall as it is (the screen is tall enough).
    resize_window("Hooray", 480, 1640)
    shooter.shoot("recovery-insights")
    resize_window("Hooray", 480, 560)
    plan = shooter.first(None, "Plan for \U0001F494 Dating \u00b7 7/10 \U0001F623")
    plan.doActionNamed("click")
    shooter.first("push button", "I'm okay now", sensitive=True)
    shooter.shoot("recovery-plan")
    shooter.first("push button", "Words for a reply: After Being Ghosted").doActionNamed("click")
    shooter.first("push button", "Copy \u201cAfter Being Ghosted\u201d")
    shooter.shoot("recovery-templates")
    shooter.first("push button", "Back", sensitive=True).doActionNamed("click")
    shooter.first("push button", "Back to your resilience", sensitive=True).doActionNamed("click")
    shooter.first("push button", "Log a rejection", sensitive=True).doActionNamed("click")
    # GTK 4.8 tells some toggle buttons as push buttons.
    next(n for n in shooter.nodes(None, "\U0001F4BC Job") if n.roleName.endswith("button")).doActionNamed("click")
    shooter.first("slider", "How much did this hurt?").queryValue().currentValue = 7.0
    shooter.first("text", "Quick note (optional)").text = "No reply after the second interview"
    shooter.shoot("recovery-log")
    shooter.first("push button", "Cancel", sensitive=True).doActionNamed("click")
    shooter.first("page tab", views[0]).doActionNamed("click")
    shooter.first("push button", "I Did a Thing", sensitive=True).doActionNamed("click")
    field = shooter.first("text", "What did you do?")
    field.text = "Watered the plants"
    shooter.shoot("log")
    shooter.first("push button", "Add a note or photos").doActionNamed("click")
    shooter.first("text", "Note").queryEditableText().setTextContents("The basil is finally growing back.")
    shooter.shoot("log-details")
    shooter.first("push button", "Change time", sensitive=True).doActionNamed("click")
    shooter.first("spin button", "How long ago")
    shooter.shoot("time-sheet", title="root")
    shooter.first("push button", "Done", sensitive=True).doActionNamed("click")
    shooter.first("push button", "Save this moment", sensitive=True).doActionNamed("click")
    wait_for("praise", lambda: True if "Moment logged" in shooter.labels() else None)
    shooter.shoot("praise")
    shooter.first("push button", "Settings", sensitive=True).doActionNamed("click")
    shooter.first(None, "Water plugin")
    shooter.shoot("settings", title="Settings")
    shooter.first("page tab", "Plugins").doActionNamed("click")
    shooter.first("text", "Check-in time (HH:MM, such as 20:00)")
    shooter.shoot("settings-plugins", title="Settings")
    shooter.first("page tab", "Your data").doActionNamed("click")
    shooter.first("push button", "Export everything")
    wait_for("the anonymous id", lambda: True if "Your anonymous id, in a file" in shooter.labels() or
             "Your anonymous id, in your keyring" in shooter.labels() else None)
    shooter.shoot("settings-data", title="Settings")
    shooter.first("page tab", "About").doActionNamed("click")
    wait_for("the crisis note", lambda: True if any(label.startswith("Hooray is not a crisis service")
                                                    for label in shooter.labels()) else None)
    shooter.shoot("settings-about", title="Settings")
    shooter.close()
    shooter.open("--quick")
    field = shooter.first("text", "What did you do?")
    field.text = "Called my sister"
    shooter.shoot("quick", title="Log a moment")
    shooter.close()


def empty(shooter):
    shooter.open()
    shooter.first("push button", "I Did a Thing", sensitive=True)
    views = shooter.views()
    shooter.shoot("first-run")
    for view in views[1:]:
        shooter.first("page tab", view).doActionNamed("click")
        shooter.wait_until_read(view)
        shooter.shoot(slug(view) + "-empty")
    shooter.close()


def not_running(shooter):
    shooter.open()
    wait_for("“Hooray isn't running”", lambda: True if "Hooray isn't running" in shooter.labels() else None)
    shooter.shoot("not-running")
    shooter.close()


PARTS = {"empty": empty, "moments": with_moments, "not-running": not_running}


def seed_habits(world, hooray):
    today = datetime.datetime.now(datetime.timezone.utc).date()  # the world runs on UTC
    for name, days, today_too in HABITS:
        why = ["--why", WHY] if name == HABITS[0][0] else []
        world.run([hooray, "habit", "add", name, "--start", (today - datetime.timedelta(days=days)).isoformat()] + why)
        for back in range(days, 0, -1):
            world.run([hooray, "habit", "done", name, "--date", (today - datetime.timedelta(days=back)).isoformat()])
        if today_too:
            world.run([hooray, "habit", "done", name])


def seed_rejections(world, hooray):
    """A job rejection three days ago, said okay since, and a dating one two hours ago; today's check-in."""
    world.run([hooray, "reject", "--type", "job", "--impact", "6", "--ago", "3d", "They went with another candidate"])
    world.run([hooray, "recovery", "okay"])
    world.run([hooray, "reject", "--type", "dating", "--impact", "7", "--ago", "2h", "No reply since Friday"])
    world.run([hooray, "recovery", "checkin", "good"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "debug"))
    parser.add_argument("--output", default=str(REPO_ROOT / "docs" / "screenshots"))
    parser.add_argument("--drive", choices=sorted(PARTS), help=argparse.SUPPRESS)
    parser.add_argument("--app", help=argparse.SUPPRESS)
    parser.add_argument("--scheme", choices=sorted(SCHEMES), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.drive:
        PARTS[options.drive](Shooter(Path(options.app), Path(options.output), options.scheme))
        return
    binaries = Path(options.bin_dir).absolute()
    for tool in ("Xvfb", "import", "optipng", "gdbus"):
        if shutil.which(tool) is None:
            sys.exit(f"screenshots: {tool} is missing; `make screenshots` installs it (scripts/install-deps)")
    output = Path(options.output).absolute()
    output.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="hooray-screenshots-"))
    # The same pictures each run: one offline praise (hoorayd picks among several at random), and no
    # animation or blinking caret caught half-way (GTK's settings in the world's XDG_CONFIG_HOME).
    praise = root / "praise.txt"
    praise.write_text(PRAISE + "\n", encoding="utf-8")
    world = World(root, user_config=f'[plugins.wins]\npraise_file = "{praise}"\n').start()
    gtk = world.folders["config"] / "gtk-4.0"
    gtk.mkdir(parents=True, exist_ok=True)
    (gtk / "settings.ini").write_text(
        "[Settings]\ngtk-enable-animations = false\ngtk-cursor-blink = false\n", encoding="utf-8")
    desktop = Desktop(world)
    daemon = None
    try:
        for scheme in SCHEMES:
            # An empty world first (first run, empty views), then with moments, then without hoorayd.
            database = world.database
            if database.parent.exists():
                shutil.rmtree(database.parent)
            daemon = world.start_daemon(binaries / "hoorayd")
            desktop.drive("empty", binaries / "hooray-app", output, scheme)
            for text, mood, ago in MOMENTS:
                world.run([binaries / "hooray", "win", text, "--ago", ago] + (["--mood", mood] if mood else []))
            seed_habits(world, binaries / "hooray")
            world.run([binaries / "hooray", "swap", "Sparkling water instead of soda"])
            world.run([binaries / "hooray", "swap", "prep", "Oatmeal instead of a pastry", "Walk after lunch"])
            seed_rejections(world, binaries / "hooray")
            desktop.drive("moments", binaries / "hooray-app", output, scheme)
            daemon.stop()
            daemon = None
            desktop.drive("not-running", binaries / "hooray-app", output, scheme)
    finally:
        if daemon:
            daemon.stop()
        desktop.stop()
        world.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
