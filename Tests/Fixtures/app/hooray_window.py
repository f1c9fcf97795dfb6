#!/usr/bin/python3
"""Drives hooray-app through the accessibility tree (AT-SPI), as a screen reader user would.

Usage:
  hooray_window.py log MOMENT   clicks "I Did a Thing", reads the pre-filled text of a first run, types
                                MOMENT, clicks "Save this moment" and waits for the praise to show; prints
                                {"prefilled": ..., "praise_labels": [the labels of the page on screen then]}
  hooray_window.py ai MOMENT GATE
                                the same, then, once the offline praise shows, creates the file GATE (which
                                lets the loopback AI server answer) and waits for other praise to show in its
                                place; adds {"ai_labels": [the labels of the page on screen then]}
  hooray_window.py ai-fails MOMENT
                                the same as log, then waits for "Couldn't fetch extra encouragement this
                                time."; adds {"failed_labels": [...]}
  hooray_window.py moments MOMENT
                                opens Moments with its switcher, waits for MOMENT to be listed, clicks its
                                Delete button and the dialog's Delete, and waits for the empty state; prints
                                {"moments_labels": [labels on screen with MOMENT listed],
                                 "deleted_labels": [labels on screen then]}
  hooray_window.py edit MOMENT NEW
                                opens Moments, marks MOMENT a favourite with its star and waits for hoorayd's
                                answer, then clicks its Edit button, types NEW in the dialog, clicks Save and
                                waits for NEW to be listed; prints {"starred": whether its star is pressed then,
                                "edited_labels": [labels on screen then]}
  hooray_window.py shortcut     opens Moments, presses Ctrl+N and waits for the "What did you do?" field on
                                screen; prints {"shortcut_labels": [labels on screen then]}
  hooray_window.py live HOORAY MOMENT
                                opens Moments and waits for its empty state, runs `HOORAY win MOMENT` as a
                                terminal would, and waits for MOMENT to be listed with nothing clicked; prints
                                {"moments_labels": [labels on screen then]} and, on its standard error, how
                                long it took
  hooray_window.py resumed HOORAY NAME
                                opens Habits, waits for NAME's check "Done today: NAME" greyed out (paused),
                                runs `HOORAY habit resume NAME` as a terminal would, and waits for the check to
                                work with nothing clicked; prints {"paused_labels": [labels on screen before],
                                "resumed_labels": [labels on screen then]}
  hooray_window.py again HOORAY NAME WHY NOTE
                                opens Habits, adds NAME with its "remember why" WHY (through "Add your first
                                habit" or "Add a habit") and waits for it listed, clicks "Pause NAME" and waits
                                for its check greyed out, clicks
                                "Resume NAME" and waits for the check to work, ticks it, clicks "Start NAME
                                again", types NOTE under "What happened?" and clicks "Start again", and waits
                                until `HOORAY habit show NAME` tells NOTE; prints {"paused_labels": [...],
                                "resumed_labels": [...], "done_labels": [...], "asked_labels": [labels with the
                                dialog open], "again_labels": [labels then]}; "added_labels": [labels once NAME
                                was listed] too
                                Then opens NAME ("Show NAME") and waits for its calendar to tell the day it
                                started again: "calendar_days", the calendar's description.
  hooray_window.py recovery HOORAY NOTE
                                opens Recovery, clicks "Log a rejection", picks "💼 Job", sets the "How much did
                                this hurt?" slider to 8, types NOTE and clicks "Log Rejection", waiting for the
                                plan; opens its words for a reply and copies the first template (read back with
                                xclip); clicks "I'm okay now" and "Back to your resilience", waiting for the score
                                ring and "This Week's Reality" to change; checks in "🙂 Good" and marks today's challenge done. Prints
                                {"score_before", "before_labels", "log_labels", "plan_labels", "logged" (`HOORAY
                                recovery list --json`), "score_logged" and "score_okay" (the score `HOORAY
                                recovery --json` tells once logged, once okay), "okay_labels", "score_after", "after_labels",
                                "templates_labels", "copied_button", "clipboard", "checked_labels", "dashboard"
                                (`HOORAY recovery --json`)}
  hooray_window.py your-data HOORAY EXPORT_PATH
                                opens Settings: About, waiting for the crisis note; Your data, waiting for the
                                id `HOORAY identity --json` tells; "Export everything", EXPORT_PATH typed into the
                                save dialog's name field, waiting for the export said; "Delete my data…" and the
                                dialog's "Delete", waiting until `HOORAY moments --json` is empty. Prints
                                {"about_labels", "data_labels", "suggested_name", "exported_labels",
                                "kept_after_cancel" (`HOORAY moments --json` after Delete… was cancelled),
                                "deleted_labels", "identity_before" (the id shown before), "identity_after"
                                (`HOORAY identity --existing --json` then)}
  hooray_window.py ai-settings CONFIG MODEL KEY
                                opens Settings, types MODEL under "Model" and clicks "Save the model", waiting for
                                CONFIG to have it; pastes KEY under "API key" and clicks "Save the API key",
                                waiting for the key said stored; clicks "Test", waiting for `hooray ai test`'s
                                answer. Prints {"ai_settings_labels", "after_model", "key_labels", "key_field" (the key
                                field's text then), "test_labels"}
  hooray_window.py plugin-settings HOORAY CONFIG
                                opens Settings' Plugins page; reads "Check-in time" (its default), types 25:00
                                and clicks "Save Check-in time", waiting for the time named; types 19:30 and
                                saves, waiting until `HOORAY next --json --all` has the check-in at 19:30; turns
                                "Daily inspiration" off, waiting for CONFIG to say so. Prints {"plugins_labels",
                                "checkin_before", "bad_labels", "after_bad", "checkin" (the reminder listed),
                                "after_time", "inspiration_was_on", "after_switch"}
  hooray_window.py calendar HOORAY NAME
                                opens Habits and NAME ("Show NAME"), reads its calendar (an image named "Calendar
                                of MONTH YEAR", described day by day), runs `HOORAY habit done NAME` and waits for
                                today done in it; steps to the month before and back; clicks "Edit…", lets go of
                                every weekday and saves, waiting for the missing days named; picks Monday,
                                Wednesday and Friday with the reminder 25:00, waiting for the time named; then
                                07:30, waiting until `HOORAY habit list --json` has it and the calendar shows the
                                new rhythm. Prints {"calendar", "calendar_days", "habit_labels", "ticked_days",
                                "previous_month", "previous_days", "no_days_labels", "bad_time_labels",
                                "bad_time_invalid", "bad_time_focused", "kept_days", "edited" (the habit as listed), "edited_days",
                                "edited_labels"}
  hooray_window.py settings HOORAY CONFIG
                                clicks "Settings", turns the "Water plugin" switch on and waits until `HOORAY water
                                today` works; types 25:00-07:00 under "Quiet hours", clicks "Save quiet hours" and waits for the
                                time named; then breaks CONFIG by hand (a "[celebrations" line) and turns the
                                switch off, waiting for the line to fix named. Prints {"settings_labels",
                                "water_was_on", "water_on", "after_water" (CONFIG's text then), "quiet_labels",
                                "after_quiet", "broken" (the text written), "broken_labels", "water_after_broken",
                                "after_broken"}
  hooray_window.py today HOORAY CLOCK
                                opens Today, types a swap under "What did you swap?" and clicks "Log my swap",
                                waiting for "1 day in a row" and the sprout ("Your sprout: …", an image) grown;
                                types two swaps for tomorrow and clicks "Save tonight's prep", waiting until
                                `HOORAY swap prep --json` has them; writes the next morning into CLOCK (hoorayd's
                                libfaketime file) and opens Today again, waiting for them under "From last night:".
                                Prints {"sprout_before", "sprout_after", "swapped_labels", "prep", "morning_labels", "morning_prep" (the three fields' texts then), "before_labels",
                                "help_labels" (with "I need help" open, once its breathing began; the script waits
                                for its next step, "Hold gently", and closes it with "Back to my day")}
  hooray_window.py card TITLE TEXT BUTTON ANSWER
                                opens Today, waits for a plugin's card (its TITLE and TEXT), clicks its BUTTON and
                                waits for the plugin's ANSWER said; prints {"card_labels", "answered_labels"}
  hooray_window.py details MOMENT NOTE PHOTO
                                clicks "I Did a Thing", types MOMENT, opens "Add a note or photos", types NOTE,
                                sets "Change time" to 120 minutes ago (typed into the number, then Done), adds
                                PHOTO through the file chooser (its location typed, as a user may), saves and
                                waits for the praise; prints {"details_labels": [labels on the Log page before
                                saving]}
  hooray_window.py bad-time     opens Log a moment, types 600000 minutes into "Change time", and waits for the
                                sheet to name the problem with Done greyed out; then types 5 and clicks Done; prints {"time_problem_labels": [the labels on screen with the problem
                                named], "details_labels": [the Log page's labels after]}
  hooray_window.py bad-photo MOMENT PHOTO
                                types MOMENT, adds PHOTO (no image) through the file chooser, saves, and waits for
                                the problem named under Photos; then removes the photo and saves again; prints
                                {"photo_problem_labels": [labels on screen then], "kept": the text field's words
                                then, "praise_labels": [...]}
  hooray_window.py journey      opens Journey and waits for its first card; prints {"journey_labels": [...]}
  hooray_window.py search WORDS NONE
                                presses Ctrl+F, types WORDS in "Search your moments" and waits for the list to
                                change, then types NONE and waits for "No moments match"; prints
                                {"search_labels": [labels with WORDS searched], "no_match_labels": [...]}
  hooray_window.py translated BUTTON TAB
                                waits for the enabled button BUTTON (Home's first, in the user's language) and the
                                view switcher's TAB; prints {"translated_labels": [labels on screen then]}
  hooray_window.py stopped MOMENT PID HOORAYD LOG
                                types MOMENT in Log a moment, kills hoorayd (PID) with SIGKILL, clicks "Save this
                                moment" and waits for "Hooray isn't running"; starts HOORAYD (its output to LOG) as a
                                terminal would, waits for the window to come back by itself, opens Log a moment again,
                                reads what the field holds and saves it; prints {"not_running_labels": [...], "kept":
                                the field's words then, "praise_labels": [...], "pid": the new hoorayd's}
  hooray_window.py frozen MOMENT PID HOORAY CHANGED
                                types MOMENT, stops hoorayd (PID) with SIGSTOP, clicks "Save this moment" and waits
                                for the window to say it couldn't (its answer does not come); lets hoorayd go on
                                (SIGCONT), waits until `HOORAY moments --json` lists MOMENT (the request ran), types
                                CHANGED and saves again, and waits for the window to say an earlier try saved it;
                                then saves once more and waits for the praise; prints {"toast_labels": [labels with
                                the earlier try named], "kept": the field's words then, "praise_labels": [...]}
  hooray_window.py narrow WIDTH  makes the window WIDTH pixels wide (as a user dragging its edge would), then visits
                                Home, each view and Log a moment with its details, and lists every control on
                                screen that does not fit across the window; prints {"overflowing": ["page: role
                                'name' x..x", ...], "measured": ["page: role 'name'", every control measured],
                                "frame_width": the window's width, "visited": [...]}
  hooray_window.py toast PREFIX waits for a label on screen starting with PREFIX (a toast's); prints
                                {"toast_labels": [labels on screen then]}
  hooray_window.py unnamed      visits Home, each view of the switcher, Log a moment with its details open and
                                the time sheet, and lists every control on screen a screen reader could not name
                                (no name, or GTK's type name); prints {"unnamed": ["page: role 'name'", ...],
                                "visited": [the pages visited]}
  hooray_window.py start        waits for the "Hooray isn't running" page, clicks "Start Hooray" and waits
                                for "I Did a Thing" to work; prints {"not_running_labels": [...], "home": true}
  hooray_window.py elsewhere    the same, but starts hoorayd itself (`systemctl --user start hooray`) rather
                                than clicking: the window must notice on its own
Prints {"error": ...} and exits 1 when a step did not happen within 30 s.
Run it with the app's session bus, at-spi bus and display.
"""

import json
import subprocess
import sys
import time

from atspi import on_screen, poll  # Sets dogtail up; see atspi.py.

import pyatspi  # noqa: E402
from dogtail import tree  # noqa: E402

DEADLINE = 30.0


def wait_for(what, find):
    """Returns find()'s first answer that is not None, tried until DEADLINE; exits 1 without one."""
    found = poll(find, DEADLINE)
    if found is not None:
        return found
    try:
        shown = labels()
    except Exception:
        shown = None
    print(json.dumps({"error": "no " + what + " within 30 s", "labels": shown}))
    sys.exit(1)


def app():
    for application in tree.root.applications():
        if application.name == "hooray-app":
            return application
    return None


def node(role, name, sensitive=None):
    def find():
        application = app()
        if application is None:
            return None
        for found in application.findChildren(lambda n: n.roleName == role and n.name == name, showingOnly=False):
            if sensitive is None or found.sensitive == sensitive:
                return found
        return None
    return find


def text_of(field):
    # GTK 4.8 answers getText(0, -1) with "": ask for the characters it says it has.
    text = field.queryText()
    return text.getText(0, text.characterCount)


def labels():
    return [n.name for n in app().findChildren(lambda n: n.roleName == "label", showingOnly=False)]


def shown_labels():
    """The labels of the page on screen."""
    return [n.name for n in app().findChildren(lambda n: n.roleName == "label" and on_screen(n), showingOnly=False)]


def praise_shown():
    # The praise label is empty until a moment is saved; then it holds the praise in quotes.
    return True if any(name.startswith("\u201c") for name in shown_labels()) else None


def log(moment):
    did_a_thing = wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    did_a_thing.doActionNamed("click")
    field = wait_for('"What did you do?" field', node("text", "What did you do?"))
    # On the first run the field opens pre-filled; wait for it.
    prefilled = wait_for("pre-filled text", lambda: text_of(field) or None)
    field.text = moment
    save = wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True))
    save.doActionNamed("click")
    wait_for("praise", praise_shown)
    return {"prefilled": prefilled, "praise_labels": shown_labels()}


def quoted():
    """The praise on screen: the labels in quotes."""
    return [name for name in shown_labels() if name.startswith("\u201c")]


def ai(moment, gate):
    seen = log(moment)
    offline = quoted()
    open(gate, "w").close()
    wait_for("AI praise in place of the offline praise",
             lambda: True if quoted() and set(quoted()).isdisjoint(offline) else None)
    seen["ai_labels"] = shown_labels()
    return seen


def ai_fails(moment):
    seen = log(moment)
    wait_for("the failure line", lambda: True if FAILED in shown_labels() else None)
    seen["failed_labels"] = shown_labels()
    return seen


FAILED = "Couldn't fetch extra encouragement this time."
EMPTY_MOMENTS = "No moments yet\u2026 but you're here, so that's one."


def moments(moment):
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    switch = wait_for('"Moments" view switcher button', switcher_button("Moments"))
    switch.doActionNamed("click")
    wait_for("the moment listed", lambda: True if moment in shown_labels() else None)
    seen = {"moments_labels": shown_labels()}
    delete = wait_for("its Delete button", node("push button", "Delete \u201c" + moment + "\u201d", sensitive=True))
    delete.doActionNamed("click")
    confirm = wait_for('the dialog\'s "Delete" button', dialog_button("Delete"))
    confirm.doActionNamed("click")
    wait_for("the empty state", lambda: True if EMPTY_MOMENTS in shown_labels() else None)
    seen["deleted_labels"] = shown_labels()
    return seen


def pressed(node):
    states = node.getState()
    return states.contains(pyatspi.STATE_PRESSED) or states.contains(pyatspi.STATE_CHECKED)


def edit(moment, new):
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Moments" view switcher button', switcher_button("Moments")).doActionNamed("click")
    wait_for("the moment listed", lambda: True if moment in shown_labels() else None)
    name = "\u201c" + moment + "\u201d"
    star = wait_for("its star", node("push button", "Favourite " + name, sensitive=True))
    star.doActionNamed("click")
    # Greyed out while hoorayd marks it; pressed once it did.
    star = wait_for("its star marked", lambda: next(
        (n for n in [node("push button", "Favourite " + name, sensitive=True)()] if n is not None and pressed(n)),
        None))
    wait_for("its Edit button", node("push button", "Edit " + name, sensitive=True)).doActionNamed("click")
    field = wait_for("the dialog's field", node("text", "The moment's words"))
    field.text = new
    wait_for('the dialog\'s "Save" button', dialog_button("Save")).doActionNamed("click")
    wait_for("the new words listed", lambda: True if new in shown_labels() else None)
    # The list is read again after the edit: the star of the row listed now.
    star = wait_for("its star, listed again", node("push button", "Favourite \u201c" + new + "\u201d", sensitive=True))
    return {"starred": pressed(star), "edited_labels": shown_labels()}


def shortcut():
    from dogtail import rawinput
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Moments" view switcher button', switcher_button("Moments")).doActionNamed("click")
    wait_for("Moments", lambda: True if EMPTY_MOMENTS in shown_labels() or "Today" in shown_labels() else None)
    rawinput.keyCombo("<Control>n")
    wait_for('"What did you do?" field on screen', lambda: next(
        (n for n in app().findChildren(lambda n: n.roleName == "text" and n.name == "What did you do?",
                                       showingOnly=False) if on_screen(n)), None))
    return {"shortcut_labels": shown_labels()}


def switcher_button(title):
    """A view switcher's button (a "page tab" named as its view) on screen: the header bar's."""
    def find():
        for button in app().findChildren(lambda n: n.roleName == "page tab" and n.name == title, showingOnly=False):
            if on_screen(button):
                return button
        return None
    return find


def dialog_button(name):
    """A button of the dialog asking a question, over the window."""
    def find():
        for found in app().findChildren(lambda n: n.roleName == "push button" and n.name == name, showingOnly=False):
            if on_screen(found):
                return found
        return None
    return find


def live(hooray, moment):
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Moments" view switcher button', switcher_button("Moments")).doActionNamed("click")
    wait_for("Moments' empty state", lambda: True if EMPTY_MOMENTS in shown_labels() else None)
    started = time.monotonic()
    subprocess.run([hooray, "win", moment], check=True, stdout=subprocess.DEVNULL)
    wait_for("the moment typed in a terminal listed", lambda: True if moment in shown_labels() else None)
    print("listed %.2f s after `hooray win` started" % (time.monotonic() - started), file=sys.stderr)
    return {"moments_labels": shown_labels()}


def resumed(hooray, name):
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Habits" view switcher button', switcher_button("Habits")).doActionNamed("click")
    wait_for('greyed-out "Done today: %s" check' % name, node("push button", "Done today: " + name, sensitive=False))
    paused = shown_labels()
    subprocess.run([hooray, "habit", "resume", name], check=True, stdout=subprocess.DEVNULL)
    wait_for('working "Done today: %s" check' % name, node("push button", "Done today: " + name, sensitive=True))
    return {"paused_labels": paused, "resumed_labels": shown_labels()}


def again(hooray, name, why, note):
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Habits" view switcher button', switcher_button("Habits")).doActionNamed("click")

    def add_button():
        return shown("push button", "Add your first habit", sensitive=True)() or shown(
            "push button", "Add a habit", sensitive=True)()
    wait_for('"Add your first habit" or "Add a habit" button', add_button).doActionNamed("click")
    wait_for('"The habit\'s name" field', shown("text", "The habit's name")).text = name
    wait_for('"Remember why" field', shown("text", "Remember why")).text = why
    wait_for('the dialog\'s "Add" button', dialog_button("Add")).doActionNamed("click")
    wait_for("the habit listed", lambda: True if name in shown_labels() else None)
    added = shown_labels()
    wait_for('"Pause %s" button' % name, shown("push button", "Pause " + name, sensitive=True)).doActionNamed("click")
    # Asked for how long: a week.
    wait_for('the dialog\'s "For a week" button', dialog_button("For a week")).doActionNamed("click")
    said = wait_for("the pause said", lambda: next(
        (label for label in shown_labels() if label.startswith("Paused \u201c" + name)), None))
    # Resume shows once hoorayd's reading has the habit paused (the check greys out at the click already).
    resume = wait_for('"Resume %s" button' % name, shown("push button", "Resume " + name, sensitive=True))
    wait_for('greyed-out "Done today: %s" check' % name, shown("push button", "Done today: " + name, sensitive=False))
    seen = {"added_labels": added, "paused_labels": shown_labels(), "pause_said": said}
    resume.doActionNamed("click")
    wait_for('"Pause %s" button back' % name, shown("push button", "Pause " + name, sensitive=True))
    check = wait_for('working "Done today: %s" check' % name, shown("push button", "Done today: " + name, sensitive=True))
    seen["resumed_labels"] = shown_labels()
    check.doActionNamed("click")
    wait_for("the row done today", lambda: True if any(n.endswith("done today") for n in shown_labels()) else None)
    wait_for('working "Done today: %s" check' % name, shown("push button", "Done today: " + name, sensitive=True))
    seen["done_labels"] = shown_labels()
    wait_for('"Start %s again" button' % name, shown("push button", "Start %s again" % name, sensitive=True)).doActionNamed(
        "click")
    field = wait_for('"What happened?" field', shown("text", "What happened?"))
    seen["asked_labels"] = shown_labels()
    field.text = note
    wait_for('the dialog\'s "Start again" button', dialog_button("Start again")).doActionNamed("click")

    def told():
        shown_text = subprocess.run([hooray, "habit", "show", name], capture_output=True, text=True).stdout
        return True if note in shown_text else None
    wait_for("`hooray habit show %s` telling the note" % name, told)
    seen["again_labels"] = shown_labels()
    # Opened from its row: today is the day it started again, in the calendar's words.
    wait_for('"Show %s" button' % name, shown("push button", "Show " + name, sensitive=True)).doActionNamed("click")
    image = wait_for("the month's calendar", calendar_image())
    wait_for("the calendar telling today's start again", lambda: True if "Started again: " in image.description else None)
    seen["calendar_days"] = image.description
    return seen


def image_named(prefix, other_than=None):
    """An image on screen (a picture the app draws) whose name starts with `prefix`, other than `other_than`."""
    def find():
        for found in app().findChildren(lambda n: n.roleName == "image" and n.name.startswith(prefix),
                                        showingOnly=False):
            if on_screen(found) and found.name != other_than:
                return found
        return None
    return find


def calendar_image(other_than=None):
    """The month's calendar on screen: an image named "Calendar of MONTH", other than `other_than`."""
    return image_named("Calendar of ", other_than)


def toggle_named(name):
    """A toggle button on screen (GTK 4.8 tells some as push buttons)."""
    return lambda: shown("toggle button", name)() or shown("push button", name)()


def named(name):
    """A control on screen named `name`, whatever its role (a switch is told differently by GTK versions)."""
    def find():
        for found in app().findChildren(lambda n: n.name == name and n.roleName != "label", showingOnly=False):
            if on_screen(found):
                return found
        return None
    return find


def settings(hooray, config):
    """Opens Settings, turns the water plugin on, tries quiet hours of 25:00, then breaks hooray.toml by
    hand and turns the plugin off; records the file after each."""
    def read():
        with open(config, encoding="utf-8") as file:
            return file.read()
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Settings" button', shown("push button", "Settings")).doActionNamed("click")
    water = wait_for('"Water plugin" switch', named("Water plugin"))
    seen = {"settings_labels": shown_labels(), "water_was_on": pressed(water)}
    water.queryAction().doAction(0)

    def drinks():
        done = subprocess.run([hooray, "water", "today"], capture_output=True, text=True)
        return True if done.returncode == 0 else None
    wait_for("`hooray water today` working: the plugin on in the running hoorayd", drinks)
    seen["water_on"] = pressed(wait_for('"Water plugin" switch', named("Water plugin", )))
    seen["after_water"] = read()

    quiet = wait_for('"Quiet hours" field', shown("text", "Quiet hours"))
    quiet.queryEditableText().setTextContents("25:00-07:00")
    wait_for('"Save quiet hours" button', shown("push button", "Save quiet hours")).doActionNamed("click")
    wait_for("the time named", lambda: True if any("25:00" in label for label in shown_labels()) else None)
    seen["quiet_labels"] = shown_labels()
    seen["after_quiet"] = read()

    broken = read() + "\n[celebrations\n"
    with open(config, "w", encoding="utf-8") as file:
        file.write(broken)
    seen["broken"] = broken
    wait_for('"Water plugin" switch', named("Water plugin")).queryAction().doAction(0)
    wait_for("the line to fix named", lambda: True if any(
        "line" in label.lower() or ".toml:" in label for label in shown_labels() if label not in seen["quiet_labels"])
        else None)
    seen["broken_labels"] = shown_labels()
    time.sleep(1.0)  # The switch goes back to what the file holds.
    seen["water_after_broken"] = pressed(wait_for('"Water plugin" switch', named("Water plugin")))
    seen["after_broken"] = read()
    return seen


def today(hooray, clock):
    """Today: logs tonight's swap and waits for the sprout and the streak, saves a Night Prep of two
    swaps, then moves hoorayd's clock (CLOCK, libfaketime's file) to the next morning and waits for
    them under "From last night:"."""
    sprout = image_named("Your sprout")
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Today" view switcher button', switcher_button("Today")).doActionNamed("click")
    # hoorayd's reading first: until it comes, the sprout is only the window's own.
    wait_for("Today read", lambda: True if any("in a row" in label for label in shown_labels()) else None)
    seen = {"sprout_before": wait_for("the sprout", sprout).name, "before_labels": shown_labels()}
    wait_for('"What did you swap?" field', shown("text", "What did you swap?")).text = "Sparkling water instead of soda"
    wait_for('"Log my swap" button', shown("push button", "Log my swap", sensitive=True)).doActionNamed("click")
    wait_for("the streak", lambda: True if any(label.startswith("1 day in a row") for label in shown_labels()) else None)
    wait_for("the sprout grown", lambda: True if sprout() and sprout().name == "Your sprout: 1 day in a row" else None)
    seen["sprout_after"] = sprout().name
    seen["swapped_labels"] = shown_labels()
    # I need help: the top swaps, and the breathing guide going from one step to the next.
    wait_for('"I need help" button', shown("push button", "I need help", sensitive=True)).doActionNamed("click")
    wait_for("the breathing cue", lambda: True if any(label.startswith("Breathe in slowly") for label in shown_labels())
             else None)
    seen["help_labels"] = shown_labels()
    wait_for("the breathing's next step", lambda: True if any(label.startswith("Hold gently") for label in shown_labels())
             else None)
    wait_for('the dialog\'s "Back to my day" button', dialog_button("Back to my day")).doActionNamed("click")
    wait_for('"Swap 1 for tomorrow" field', shown("text", "Swap 1 for tomorrow")).text = "Oatmeal instead of a pastry"
    wait_for('"Swap 2 for tomorrow" field', shown("text", "Swap 2 for tomorrow")).text = "Walk after lunch"
    wait_for('"Save tonight\'s prep" button', shown("push button", "Save tonight's prep", sensitive=True)).doActionNamed(
        "click")

    def prepped():
        printed = subprocess.run([hooray, "swap", "prep", "--json"], capture_output=True, text=True).stdout
        items = json.loads(printed).get("items") if printed.strip() else None
        return items if items else None
    seen["prep"] = wait_for("`hooray swap prep` telling the prep", prepped)
    with open(clock, "w", encoding="utf-8") as file:
        file.write("@2026-11-24 08:30:00\n")
    # The next morning: Today read again when it shows.
    wait_for('"Home" view switcher button', switcher_button("Home")).doActionNamed("click")
    wait_for('"Today" view switcher button', switcher_button("Today")).doActionNamed("click")
    wait_for("last night's prep", lambda: True if "Walk after lunch" in shown_labels() and "From last night:" in shown_labels()
             else None)
    seen["morning_labels"] = shown_labels()
    # A new day: tomorrow's prep fields start empty.
    seen["morning_prep"] = [text_of(wait_for('"Swap %d for tomorrow" field' % n, shown("text", "Swap %d for tomorrow" % n)))
                            for n in (1, 2, 3)]
    return seen


def card(title, text, button, answer):
    """Today: a plugin in another language's card (TITLE, TEXT) and its BUTTON, clicked; waits for the
    plugin's ANSWER."""
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Today" view switcher button', switcher_button("Today")).doActionNamed("click")
    wait_for("the card", lambda: True if title in shown_labels() and text in shown_labels() else None)
    seen = {"card_labels": shown_labels()}
    wait_for('"%s" button' % button, shown("push button", button, sensitive=True)).doActionNamed("click")
    wait_for("the plugin's answer", lambda: True if answer in shown_labels() else None)
    seen["answered_labels"] = shown_labels()
    return seen


def recovery(hooray, note):
    """Recovery: logs a job rejection with the impact slider at 8 and NOTE, waits for its plan, says
    "I'm okay now" and waits for the dashboard to change; copies a response template; checks in
    feeling good; marks today's challenge done."""
    score = image_named("Resilience Score")

    def score_now():
        """The score `HOORAY recovery --json` tells, rounded as the ring shows it."""
        told = json.loads(subprocess.run([hooray, "recovery", "--json"], capture_output=True, text=True).stdout)
        return int(told["score"]["total"] + 0.5)
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Recovery" view switcher button', switcher_button("Recovery")).doActionNamed("click")
    wait_for("the dashboard read", lambda: True if "Still healing" in shown_labels() else None)
    seen = {"score_before": wait_for("the score ring", score).name, "before_labels": shown_labels()}
    wait_for('"Log a rejection" button', shown("push button", "Log a rejection", sensitive=True)).doActionNamed("click")
    wait_for('"\U0001F4BC Job" toggle', toggle_named("\U0001F4BC Job")).doActionNamed("click")
    slider = wait_for('"How much did this hurt?" slider', shown("slider", "How much did this hurt?"))
    slider.queryValue().currentValue = 8.0
    wait_for("the slider's face", lambda: True if "How much did this hurt? 8/10 \U0001F623" in shown_labels() else None)
    seen["log_labels"] = shown_labels()
    wait_for('"Quick note (optional)" field', shown("text", "Quick note (optional)")).text = note
    wait_for('"Log Rejection" button', shown("push button", "Log Rejection", sensitive=True)).doActionNamed("click")
    wait_for("the plan", lambda: True if "5-Minute Recovery Plan:" in shown_labels() else None)
    seen["plan_labels"] = shown_labels()
    seen["score_logged"] = score_now()
    seen["logged"] = json.loads(subprocess.run([hooray, "recovery", "list", "--json"], capture_output=True,
                                               text=True).stdout)
    # Words for a reply, copied.
    wait_for('"Words for a reply" button', lambda: next(
        (n for n in app().findChildren(lambda n: n.roleName == "push button" and n.name.startswith("Words for a reply"),
                                       showingOnly=False) if on_screen(n)), None)).doActionNamed("click")
    copy = wait_for('a template\'s "Copy" button', lambda: next(
        (n for n in app().findChildren(lambda n: n.roleName == "push button" and n.name.startswith("Copy \u201c"),
                                       showingOnly=False) if on_screen(n)), None))
    seen["templates_labels"] = shown_labels()
    seen["copied_button"] = copy.name
    copy.doActionNamed("click")
    wait_for("the copy said", lambda: True if any("is on the clipboard" in label for label in shown_labels()) else None)
    seen["clipboard"] = subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True, text=True,
                                       timeout=10).stdout
    wait_for('"Back" button', shown("push button", "Back")).doActionNamed("click")
    wait_for("the plan again", lambda: True if "5-Minute Recovery Plan:" in shown_labels() else None)
    wait_for('"I\'m okay now" button', shown("push button", "I'm okay now", sensitive=True)).doActionNamed("click")
    wait_for("hoorayd's answer", lambda: True if any(label.startswith("Glad you're okay.") for label in shown_labels())
             else None)
    seen["okay_labels"] = shown_labels()
    seen["score_okay"] = score_now()
    wait_for('"Back to your resilience" button', shown("push button", "Back to your resilience")).doActionNamed("click")
    wait_for("the dashboard changed", lambda: True if "Average time to okay" in shown_labels() and score() and
             score().name == "Resilience Score: %d of 100" % seen["score_okay"] else None)
    seen["score_after"] = score().name
    seen["after_labels"] = shown_labels()
    # The check-in and today's challenge.
    wait_for('"\U0001F642 Good" button', shown("push button", "\U0001F642 Good", sensitive=True)).doActionNamed("click")
    wait_for("the check-in shown", lambda: True if any(label.startswith("Checked in today: \U0001F642 Good")
                                                      for label in shown_labels()) else None)
    # A note for it, typed in its field and saved, as `HOORAY recovery checkin good --note` would.
    note = wait_for('"A note for today\'s check-in" field', shown("text", "A note for today's check-in"))
    note.queryEditableText().setTextContents("Long day, went for a walk")
    wait_for('"Save note" button', shown("push button", "Save note", sensitive=True)).doActionNamed("click")

    def noted():
        told = json.loads(subprocess.run([hooray, "recovery", "--json"], capture_output=True, text=True).stdout)
        return True if (told.get("todayCheckIn") or {}).get("note") == "Long day, went for a walk" else None
    wait_for("the note kept with the check-in", noted)
    wait_for('"Done" button', shown("push button", "Done", sensitive=True)).doActionNamed("click")
    wait_for("the challenge done", lambda: True if any(label.startswith("Done \u2713") for label in shown_labels())
             else None)
    seen["checked_labels"] = shown_labels()
    seen["dashboard"] = json.loads(subprocess.run([hooray, "recovery", "--json"], capture_output=True, text=True).stdout)
    return seen


def your_data(hooray, export_path):
    """Settings' About and Your data: the crisis note; the anonymous id `HOORAY identity` tells; Export
    everything into EXPORT_PATH (typed into the save dialog's name field, as a user may); Delete my
    data, confirmed, until `HOORAY moments --json` lists nothing."""
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Settings" button', shown("push button", "Settings")).doActionNamed("click")
    wait_for('"About" page', switcher_button("About")).doActionNamed("click")
    wait_for("the crisis note", lambda: True if any(label.startswith("Hooray is not a crisis service")
                                                    for label in shown_labels()) else None)
    seen = {"about_labels": shown_labels()}
    wait_for('"Your data" page', switcher_button("Your data")).doActionNamed("click")
    told = json.loads(subprocess.run([hooray, "identity", "--existing", "--json"], capture_output=True,
                                     text=True).stdout)
    wait_for("the anonymous id", lambda: True if told["userId"] in shown_labels() else None)
    seen["data_labels"] = shown_labels()
    wait_for('"Export everything" button', shown("push button", "Export everything", sensitive=True)).doActionNamed(
        "click")
    # GTK 4.8's own dialog names its mnemonic buttons twice over ("_Export Export").
    save = lambda: next((n for n in app().findChildren(
        lambda n: n.roleName == "push button" and n.name in ("Export", "_Export Export"), showingOnly=False)
        if on_screen(n) and n.sensitive), None)
    wait_for("the save dialog", save)
    name = wait_for("the dialog's name field", lambda: next(
        (n for n in app().findChildren(lambda n: n.roleName == "text", showingOnly=False)
         if on_screen(n) and text_of(n).startswith("hooray-export-")), None))
    seen["suggested_name"] = text_of(name)
    name.queryEditableText().setTextContents(export_path)
    wait_for('the dialog\'s "Export"', save).doActionNamed("click")
    wait_for("the export said", lambda: True if any(export_path in label for label in shown_labels()) else None)
    seen["exported_labels"] = shown_labels()
    # Asked, and cancelled: nothing is deleted.
    wait_for('"Delete my data…" button', shown("push button", "Delete my data\u2026", sensitive=True)).doActionNamed(
        "click")
    wait_for('the dialog\'s "Cancel" button', dialog_button("Cancel")).doActionNamed("click")
    wait_for("the dialog gone", lambda: True if dialog_button("Delete")() is None else None)
    seen["kept_after_cancel"] = json.loads(subprocess.run([hooray, "moments", "--json"], capture_output=True,
                                                          text=True).stdout)
    wait_for('"Delete my data…" button', shown("push button", "Delete my data\u2026", sensitive=True)).doActionNamed(
        "click")
    wait_for('the dialog\'s "Delete" button', dialog_button("Delete")).doActionNamed("click")

    def emptied():
        listed = subprocess.run([hooray, "moments", "--json"], capture_output=True, text=True).stdout
        return True if json.loads(listed) == [] else None
    wait_for("`hooray moments --json` listing nothing", emptied)
    wait_for("the deletion said", lambda: True if any(label.startswith("Deleted ") for label in shown_labels()) else None)
    # The id read again: the deleted one is gone (hoorayd makes a new one as it reloads).
    wait_for("the deleted id gone", lambda: True if told["userId"] not in shown_labels() else None)
    seen["deleted_labels"] = shown_labels()
    seen["identity_before"] = told["userId"]
    seen["identity_after"] = subprocess.run([hooray, "identity", "--existing", "--json"], capture_output=True,
                                            text=True).stdout.strip()
    return seen


def ai_settings(config, model, key):
    """Settings' AI praise: types MODEL and saves it, waiting for CONFIG to have it; pastes KEY into
    "API key" and saves it in the keyring, waiting for `hooray ai set-key`'s words; clicks "Test",
    waiting for `hooray ai test`'s."""
    def read():
        with open(config, encoding="utf-8") as file:
            return file.read()
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Settings" button', shown("push button", "Settings")).doActionNamed("click")
    field = wait_for('"Model" field', shown("text", "Model"))
    seen = {"ai_settings_labels": shown_labels()}
    field.queryEditableText().setTextContents(model)
    wait_for('"Save the model" button', shown("push button", "Save the model", sensitive=True)).doActionNamed("click")
    wait_for("the model in hooray.toml", lambda: True if model in read() else None)
    seen["after_model"] = read()
    secret = wait_for('"API key" field', lambda: next(
        (n for n in app().findChildren(lambda n: n.name == "API key" and n.roleName in ("text", "password text"),
                                       showingOnly=False) if on_screen(n)), None))
    secret.queryEditableText().setTextContents(key)
    wait_for('"Save the API key" button', shown("push button", "Save the API key", sensitive=True)).doActionNamed(
        "click")
    wait_for("the key stored", lambda: True if any(label.startswith("Stored the openai key") for label in shown_labels())
             else None)
    seen["key_labels"] = shown_labels()
    seen["key_field"] = text_of(secret)
    wait_for('"Test" button', shown("push button", "Test", sensitive=True)).doActionNamed("click")
    wait_for("the test's answer", lambda: True if any(label.startswith("Provider: openai") for label in shown_labels())
             else None)
    seen["test_labels"] = shown_labels()
    return seen


def plugin_settings(hooray, config):
    """Settings' Plugins page: reads the recovery check-in time's default, types 25:00 and waits for it
    named (CONFIG untouched), then 19:30, waiting until `HOORAY next --json` has the check-in daily at
    19:30; turns "Daily inspiration" off, waiting for CONFIG to say so."""
    def read():
        with open(config, encoding="utf-8") as file:
            return file.read()
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Settings" button', shown("push button", "Settings")).doActionNamed("click")
    wait_for('"Plugins" page', switcher_button("Plugins")).doActionNamed("click")
    field = wait_for('"Check-in time" field', shown("text", "Check-in time (HH:MM, such as 20:00)"))
    wait_for("the default check-in time", lambda: True if text_of(field) == "20:00" else None)
    seen = {"plugins_labels": shown_labels(), "checkin_before": text_of(field)}
    field.queryEditableText().setTextContents("25:00")
    wait_for('"Save Check-in time" button', shown("push button", "Save Check-in time", sensitive=True)).doActionNamed(
        "click")
    wait_for("the time named", lambda: True if any("25:00" in label for label in shown_labels()) else None)
    seen["bad_labels"] = shown_labels()
    seen["after_bad"] = read()
    field.queryEditableText().setTextContents("19:30")
    wait_for('"Save Check-in time" button', shown("push button", "Save Check-in time", sensitive=True)).doActionNamed(
        "click")

    def scheduled():
        listed = json.loads(subprocess.run([hooray, "next", "--json", "--all"], capture_output=True, text=True).stdout)
        found = [r for r in listed if r["plugin"] == "recovery" and "19:30" in r["schedule"]]
        return found[0] if found else None
    seen["checkin"] = wait_for("`hooray next` with the check-in at 19:30", scheduled)
    seen["after_time"] = read()
    # The switch, not its row (which has the same name, and which activating would focus).
    switch = lambda: next((n for n in app().findChildren(
        lambda n: n.name == "Daily inspiration" and n.roleName in ("switch", "toggle button", "check box", "push button"),
        showingOnly=False) if on_screen(n)), None)
    inspiration = wait_for('"Daily inspiration" switch', switch)
    seen["inspiration_was_on"] = pressed(inspiration)
    inspiration.queryAction().doAction(0)
    wait_for("inspiration off in hooray.toml", lambda: True if "inspiration = false" in read() else None)
    seen["after_switch"] = read()
    return seen


def calendar(hooray, name):
    """Opens NAME, reads its month, watches a tick from a terminal land in it, steps a month back and
    forth, and edits its rhythm and reminder: no day chosen, then a time hoorayd refuses, then good ones."""
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Habits" view switcher button', switcher_button("Habits")).doActionNamed("click")
    wait_for('"Show %s" button' % name, shown("push button", "Show " + name, sensitive=True)).doActionNamed("click")
    image = wait_for("the month's calendar", calendar_image())
    wait_for("the month's days in words", lambda: True if "Done: " in image.description else None)
    seen = {"calendar": image.name, "calendar_days": image.description, "habit_labels": shown_labels()}
    subprocess.run([hooray, "habit", "done", name], check=True, stdout=subprocess.DEVNULL)
    wait_for("today done in the calendar, nothing clicked",
             lambda: True if "Due today" not in image.description else None)
    seen["ticked_days"] = image.description
    month = image.name
    wait_for('"Previous month" button', shown("push button", "Previous month")).doActionNamed("click")
    before = wait_for("the month before", calendar_image(other_than=month))
    seen["previous_month"] = before.name
    seen["previous_days"] = before.description
    wait_for('"Next month" button', shown("push button", "Next month")).doActionNamed("click")
    wait_for("the month again", lambda: True if calendar_image()() and calendar_image()().name == month else None)

    # No day chosen: named in the dialog, nothing sent.
    wait_for('"Edit…" button', shown("push button", "Edit…", sensitive=True)).doActionNamed("click")
    for day in ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]:
        toggle = wait_for('"%s" toggle' % day, toggle_named(day))
        if pressed(toggle):
            toggle.doActionNamed("click")
    wait_for('the dialog\'s "Save" button', dialog_button("Save")).doActionNamed("click")
    no_days = "Choose at least one day, or make it every day."
    wait_for("the dialog naming the missing days", lambda: True if no_days in shown_labels() else None)
    seen["no_days_labels"] = shown_labels()
    # A time hoorayd refuses: its words under the reminder.
    for day in ["Monday", "Wednesday", "Friday"]:
        wait_for('"%s" toggle' % day, toggle_named(day)).doActionNamed("click")
    wait_for('"Reminder" field', shown("text", "Reminder")).text = "25:00"
    wait_for('the dialog\'s "Save" button', dialog_button("Save")).doActionNamed("click")
    wait_for("the dialog naming the time", lambda: True if any("25:00" in label for label in shown_labels()) else None)
    seen["bad_time_labels"] = shown_labels()
    reminder = wait_for('"Reminder" field', shown("text", "Reminder"))
    # GTK 4.8 tells an invalid field as "invalid", with the line that says why as its description.
    seen["bad_time_invalid"] = reminder.getState().contains(pyatspi.STATE_INVALID)
    seen["bad_time_focused"] = reminder.getState().contains(pyatspi.STATE_FOCUSED)
    seen["kept_days"] = [day for day in ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
                         if pressed(wait_for('"%s" toggle' % day, toggle_named(day)))]
    reminder.text = "07:30"
    wait_for('the dialog\'s "Save" button', dialog_button("Save")).doActionNamed("click")

    def edited():
        listed = json.loads(subprocess.run([hooray, "habit", "list", "--json"], capture_output=True, text=True).stdout)
        habit = next((h for h in listed if h["name"] == name), None)
        return habit if habit and habit["remindAt"] == "07:30" else None
    seen["edited"] = wait_for("`hooray habit list` telling the new reminder", edited)
    wait_for("the calendar with the new rhythm", lambda: True if "Coming up: 23, 25, 27, 30" in image.description else None)
    seen["edited_days"] = image.description
    seen["edited_labels"] = shown_labels()
    return seen


def start(elsewhere=False):
    wait_for("\"Hooray isn't running\" page", lambda: True if "Hooray isn't running" in shown_labels() else None)
    seen = shown_labels()
    if elsewhere:
        # Started from a terminal, not from the window: the window notices by itself.
        subprocess.run(["systemctl", "--user", "start", "hooray"], check=True)
    else:
        button = wait_for('enabled "Start Hooray" button', node("push button", "Start Hooray", sensitive=True))
        button.doActionNamed("click")
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    return {"not_running_labels": seen, "home": True}


def open_log(moment):
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True)).doActionNamed(
        "click")
    field = wait_for('"What did you do?" field', node("text", "What did you do?"))
    field.text = moment
    return field


def shown(role, name, sensitive=None):
    """A node with this role and name on screen (a dialog over the window included)."""
    def find():
        for found in app().findChildren(lambda n: n.roleName == role and n.name == name, showingOnly=False):
            if on_screen(found) and (sensitive is None or found.sensitive == sensitive):
                return found
        return None
    return find


def set_time(minutes):
    wait_for('"Change time" button', shown("push button", "Change time", sensitive=True)).doActionNamed("click")
    number = wait_for('"How long ago" number', shown("spin button", "How long ago"))
    # Typed, not committed with Enter: Done takes what the field shows.
    number.queryEditableText().setTextContents(str(minutes))
    wait_for('the sheet\'s "Done"', shown("push button", "Done", sensitive=True)).doActionNamed("click")


def add_photo(path):
    from dogtail import rawinput
    if shown("push button", "Add photos\u2026")() is None:
        wait_for('"Add a note or photos"', shown("push button", "Add a note or photos")).doActionNamed("click")
    wait_for('"Add photos\u2026" button', shown("push button", "Add photos\u2026", sensitive=True)).doActionNamed("click")
    # GTK 4.8's own dialog names its mnemonic buttons twice over ("_Add Add"); ours are named as they read.
    add = lambda: next((n for n in app().findChildren(
        lambda n: n.roleName == "push button" and n.name in ("Add", "_Add Add"), showingOnly=False)
        if on_screen(n) and n.sensitive), None)
    wait_for("the file chooser", add)
    # A user types the place: Ctrl+L opens the chooser's location field, with the pointer over the chooser
    # (no window manager gives it the keyboard here).
    rawinput.absoluteMotion(60, 60)
    known = ("What did you do?", "Note", "Connect to Server")
    location = lambda: next((n for n in app().findChildren(lambda n: n.roleName == "text", showingOnly=False)
                             if on_screen(n) and n.name not in known), None)
    for _ in range(10):
        if location() is not None:
            break
        rawinput.keyCombo("<Control>l")
        time.sleep(1)
    wait_for("the chooser's location field", location).queryEditableText().setTextContents(path)
    wait_for('the chooser\'s "Add"', add).doActionNamed("click")
    name = path.rsplit("/", 1)[-1]
    wait_for("the photo listed", shown("push button", "Remove photo " + name))


def details(moment, note, photo):
    open_log(moment)
    wait_for('"Add a note or photos"', shown("push button", "Add a note or photos")).doActionNamed("click")
    wait_for('"Note" field', shown("text", "Note")).queryEditableText().setTextContents(note)
    set_time(120)
    wait_for('"Happened 2 hours ago"', lambda: True if "\u23f1 Happened 2 hours ago" in shown_labels() else None)
    add_photo(photo)
    seen = {"details_labels": shown_labels()}
    wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True)).doActionNamed(
        "click")
    wait_for("praise", praise_shown)
    return seen


TIME_PROBLEM = "That's more than 366 days ago."


def bad_time():
    open_log("Walked")
    wait_for('"Change time" button', shown("push button", "Change time", sensitive=True)).doActionNamed("click")
    number = wait_for('"How long ago" number', shown("spin button", "How long ago"))
    number.queryEditableText().setTextContents("600000")
    wait_for("the problem named in the sheet",
             lambda: True if any(n.startswith(TIME_PROBLEM) for n in shown_labels()) else None)
    wait_for('a greyed-out "Done"', shown("push button", "Done", sensitive=False))
    seen = {"time_problem_labels": shown_labels()}
    number.queryEditableText().setTextContents("5")
    wait_for('the sheet\'s "Done"', shown("push button", "Done", sensitive=True)).doActionNamed("click")
    wait_for('"Happened 5 minutes ago"', lambda: True if "\u23f1 Happened 5 minutes ago" in shown_labels() else None)
    seen["details_labels"] = shown_labels()
    return seen


def bad_photo(moment, photo):
    field = open_log(moment)
    add_photo(photo)
    name = photo.rsplit("/", 1)[-1]
    wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True)).doActionNamed(
        "click")
    wait_for("the problem named under Photos",
             lambda: True if any("not an image" in n for n in shown_labels()) else None)
    seen = {"photo_problem_labels": shown_labels(), "kept": text_of(field)}
    wait_for("its Remove button", shown("push button", "Remove photo " + name)).doActionNamed("click")
    wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True)).doActionNamed(
        "click")
    wait_for("praise", praise_shown)
    seen["praise_labels"] = shown_labels()
    return seen


def journey():
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Journey" view switcher button', switcher_button("Journey")).doActionNamed("click")
    wait_for("a day's card", lambda: True if any(n.endswith(" logged") for n in shown_labels()) else None)
    return {"journey_labels": shown_labels()}


def search(words, none):
    from dogtail import rawinput
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    wait_for('"Moments" view switcher button', switcher_button("Moments")).doActionNamed("click")
    wait_for("Moments listed", lambda: True if "Today" in shown_labels() else None)
    before = shown_labels()
    rawinput.keyCombo("<Control>f")
    field = wait_for('"Search your moments" field', shown("entry", "Search your moments"))
    field.queryEditableText().setTextContents(words)
    wait_for("the list searched", lambda: True if "Called a friend" not in shown_labels() and "Today" in shown_labels()
             else None)
    seen = {"search_labels": shown_labels()}
    field.queryEditableText().setTextContents(none)
    wait_for('"No moments match"', lambda: True if any(n.startswith("No moments match") for n in shown_labels())
             else None)
    seen["no_match_labels"] = shown_labels()
    return seen


def translated(button, tab):
    wait_for('enabled "%s" button' % button, node("push button", button, sensitive=True))
    wait_for('"%s" view switcher button' % tab, switcher_button(tab))
    return {"translated_labels": shown_labels()}


def stopped(moment, pid, hoorayd, log):
    import os
    import signal
    open_log(moment)
    os.kill(int(pid), signal.SIGKILL)
    wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True)).doActionNamed(
        "click")
    wait_for("\"Hooray isn't running\" page", lambda: True if "Hooray isn't running" in shown_labels() else None)
    seen = {"not_running_labels": shown_labels()}
    started = subprocess.Popen([hoorayd], stdout=subprocess.DEVNULL, stderr=open(log, "w"))
    seen["pid"] = started.pid
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True)).doActionNamed(
        "click")
    field = wait_for('"What did you do?" field', node("text", "What did you do?"))
    seen["kept"] = wait_for("the field's words", lambda: text_of(field) or None)
    wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True)).doActionNamed(
        "click")
    wait_for("praise", praise_shown)
    seen["praise_labels"] = shown_labels()
    return seen


def toast(prefix):
    wait_for('a toast saying "%s…"' % prefix,
             lambda: True if any(n.startswith(prefix) for n in shown_labels()) else None)
    return {"toast_labels": shown_labels()}


CONTROLS = ("push button", "toggle button", "check box", "radio button", "text", "entry", "combo box",
            "spin button", "slider", "page tab", "menu item", "link")


def unnamed_controls(page):
    found = []
    for n in app().findChildren(lambda n: n.roleName in CONTROLS, showingOnly=False):
        if on_screen(n) and (not n.name.strip() or n.name.startswith(("Gtk", "Adw"))):
            found.append("%s: %s %r" % (page, n.roleName, n.name))
    return found


def unnamed():
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    seen = {"unnamed": unnamed_controls("Home"), "visited": ["Home"]}
    for view in ("Moments", "Journey", "Habits", "Today", "Recovery"):
        wait_for('"%s" view switcher button' % view, switcher_button(view)).doActionNamed("click")
        time.sleep(1.0)  # The view read from hoorayd and drawn.
        seen["unnamed"] += unnamed_controls(view)
        seen["visited"].append(view)
    wait_for('"Home" view switcher button', switcher_button("Home")).doActionNamed("click")
    open_log("Walked")
    wait_for('"Add a note or photos"', shown("push button", "Add a note or photos")).doActionNamed("click")
    wait_for('"Note" field', shown("text", "Note"))
    seen["unnamed"] += unnamed_controls("Log a moment")
    seen["visited"].append("Log a moment")
    wait_for('"Change time" button', shown("push button", "Change time", sensitive=True)).doActionNamed("click")
    wait_for('"How long ago" number', shown("spin button", "How long ago"))
    seen["unnamed"] += unnamed_controls("When did it happen?")
    seen["visited"].append("When did it happen?")
    return seen


def frozen(moment, pid, hooray, changed):
    import os
    import signal
    field = open_log(moment)
    os.kill(int(pid), signal.SIGSTOP)
    try:
        wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True)).doActionNamed(
            "click")
        wait_for('"Couldn\'t save your moment"',
                 lambda: True if any(n.startswith("Couldn't save your moment") for n in shown_labels()) else None)
    finally:
        os.kill(int(pid), signal.SIGCONT)
    wait_for("the moment listed by hooray moments", lambda: True if moment in subprocess.run(
        [hooray, "moments", "--json"], capture_output=True, text=True).stdout else None)
    field.text = changed
    wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True)).doActionNamed(
        "click")
    wait_for('"An earlier try saved your moment…"',
             lambda: True if any(n.startswith("An earlier try saved") for n in shown_labels()) else None)
    seen = {"toast_labels": shown_labels(), "kept": text_of(field)}
    wait_for('"Save this moment" button', node("push button", "Save this moment", sensitive=True)).doActionNamed(
        "click")
    wait_for("praise", praise_shown)
    seen["praise_labels"] = shown_labels()
    return seen


def resize_window(title, width, height):
    """Resizes the X window titled `title` (no window manager here: the window is its own top level).
    The window's content (the accessibility tree's frame) is that less GTK's border around it."""
    import ctypes
    import re
    found = subprocess.run(["xwininfo", "-name", title], capture_output=True, text=True).stdout
    window = int(re.search(r"Window id: (0x[0-9a-f]+)", found).group(1), 16)
    x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    display = ctypes.c_void_p(x11.XOpenDisplay(None))
    x11.XResizeWindow(display, ctypes.c_ulong(window), ctypes.c_uint(width), ctypes.c_uint(height))
    x11.XFlush(display)
    x11.XCloseDisplay(display)


def x_width(title):
    """The X window's width, its frame (the window's shadow, without a compositor: none) included."""
    import re
    found = subprocess.run(["xwininfo", "-name", title], capture_output=True, text=True).stdout
    return int(re.search(r"Width: (\d+)", found).group(1))


def extents(n):
    box = n.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return box.x, box.y, box.width, box.height


def overflowing(page, frame, measured):
    """The controls on screen that do not fit across the frame; each one measured is added to `measured`."""
    fx, _, fw, _ = extents(frame)
    found = []
    for n in app().findChildren(lambda n: n.roleName in CONTROLS, showingOnly=False):
        if not on_screen(n):
            continue
        x, _, w, h = extents(n)
        if w > 0 and h > 0:
            measured.append("%s: %s %r" % (page, n.roleName, n.name))
        if w > 0 and h > 0 and (x < fx - 1 or x + w > fx + fw + 1):
            found.append("%s: %s %r %d..%d" % (page, n.roleName, n.name, x - fx, x + w - fx))
    return found


def narrow(width):
    wait_for('enabled "I Did a Thing" button', node("push button", "I Did a Thing", sensitive=True))
    frame = wait_for("the window", lambda: next(
        (n for n in app().findChildren(lambda n: n.roleName == "frame", showingOnly=False)), None))
    resize_window("Hooray", width, 720)
    wait_for("the window %d px wide" % width, lambda: True if x_width("Hooray") == width else None)
    time.sleep(1.0)  # Laid out again at that width.
    measured = []
    seen = {"frame_width": x_width("Hooray"), "overflowing": overflowing("Home", frame, measured), "visited": ["Home"],
            "measured": measured}
    for view in ("Moments", "Journey", "Habits", "Today", "Recovery"):
        wait_for('"%s" view switcher button' % view, switcher_button(view)).doActionNamed("click")
        time.sleep(1.0)
        seen["overflowing"] += overflowing(view, frame, measured)
        seen["visited"].append(view)
    wait_for('"Home" view switcher button', switcher_button("Home")).doActionNamed("click")
    open_log("Walked to the corner shop and back, slowly, noticing the trees")
    wait_for('"Add a note or photos"', shown("push button", "Add a note or photos")).doActionNamed("click")
    wait_for('"Note" field', shown("text", "Note"))
    time.sleep(1.0)
    seen["overflowing"] += overflowing("Log a moment", frame, measured)
    seen["visited"].append("Log a moment")
    return seen


if sys.argv[1] == "log":
    print(json.dumps(log(sys.argv[2])))
elif sys.argv[1] == "ai":
    print(json.dumps(ai(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "moments":
    print(json.dumps(moments(sys.argv[2])))
elif sys.argv[1] == "edit":
    print(json.dumps(edit(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "shortcut":
    print(json.dumps(shortcut()))
elif sys.argv[1] == "live":
    print(json.dumps(live(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "resumed":
    print(json.dumps(resumed(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "again":
    print(json.dumps(again(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])))
elif sys.argv[1] == "settings":
    print(json.dumps(settings(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "today":
    print(json.dumps(today(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "card":
    print(json.dumps(card(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])))
elif sys.argv[1] == "recovery":
    print(json.dumps(recovery(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "your-data":
    print(json.dumps(your_data(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "ai-settings":
    print(json.dumps(ai_settings(sys.argv[2], sys.argv[3], sys.argv[4])))
elif sys.argv[1] == "plugin-settings":
    print(json.dumps(plugin_settings(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "calendar":
    print(json.dumps(calendar(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "details":
    print(json.dumps(details(sys.argv[2], sys.argv[3], sys.argv[4])))
elif sys.argv[1] == "bad-time":
    print(json.dumps(bad_time()))
elif sys.argv[1] == "bad-photo":
    print(json.dumps(bad_photo(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "journey":
    print(json.dumps(journey()))
elif sys.argv[1] == "search":
    print(json.dumps(search(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "translated":
    print(json.dumps(translated(sys.argv[2], sys.argv[3])))
elif sys.argv[1] == "stopped":
    print(json.dumps(stopped(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])))
elif sys.argv[1] == "frozen":
    print(json.dumps(frozen(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])))
elif sys.argv[1] == "narrow":
    print(json.dumps(narrow(int(sys.argv[2]))))
elif sys.argv[1] == "toast":
    print(json.dumps(toast(sys.argv[2])))
elif sys.argv[1] == "unnamed":
    print(json.dumps(unnamed()))
elif sys.argv[1] == "ai-fails":
    print(json.dumps(ai_fails(sys.argv[2])))
else:
    print(json.dumps(start(elsewhere=sys.argv[1] == "elsewhere")))
