"""What every script that drives the app through the accessibility tree shares: dogtail set up for a
test that starts its own at-spi bus, and whether a node is on the page shown.

Imported before `from dogtail import tree`, which reads the settings when it is first imported.
"""

import faulthandler
import time

from dogtail.config import config

# A crash inside the accessibility libraries (a dead object asked for its children) would end the
# script without a word; this prints where it was on standard error, which the test shows.
faulthandler.enable()

config.checkForA11y = False  # The test starts the at-spi bus itself; no desktop settings here.
config.searchShowingOnly = False
config.defaultDelay = 0.2
config.searchCutoffCount = 5
config.logDebugToFile = False
config.logDebugToStdOut = False


def poll(find, deadline, interval=0.2):
    """find()'s first answer that is not None, asked until `deadline` seconds passed; None without one.
    An exception counts as no answer: the tree changes under us while the app draws."""
    start = time.monotonic()
    while time.monotonic() - start < deadline:
        try:
            found = find()
        except Exception:
            found = None
        if found is not None:
            return found
        time.sleep(interval)
    return None


def on_screen(node):
    """Whether node is on the page shown: the window's other pages are hidden from screen readers.

    GTK 4.8 under Xvfb marks no widget "showing"; the app hides the stack's other pages, which AT-SPI
    reports as not visible on the page, so each ancestor is asked.
    """
    while node is not None and node.roleName != "application":
        if not node.visible:
            return False
        node = node.parent
    return True
