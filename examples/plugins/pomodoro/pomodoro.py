#!/usr/bin/env python3
"""Pomodoro: focus sessions with a break when you want one. An example Hooray plugin.

`hooray pomodoro start [TASK] [--minutes N]` schedules a reminder for the end of the session;
its notice offers Break (a 5-minute break) and Skip. A session counts once its notice comes due,
and every fourth one in a day gets a celebration. hooray_plugin.py beside this file is the SDK.
"""

import datetime

from hooray_plugin import CommandError, HostError, Notice, Plugin, Reply, at, local_time, parse_instant

plugin = Plugin(name="pomodoro", version="1.0.0")

DEFAULT_MINUTES = 25
BREAK_MINUTES = 5
COUNT_WORDS = {4: "Four", 8: "Eight", 12: "Twelve", 16: "Sixteen"}


def clock(moment, zone):
    return local_time(moment, zone).strftime("%H:%M")


def day_key(moment, zone):
    return "done/" + local_time(moment, zone).strftime("%Y-%m-%d")


def running_session(host, now):
    """The session that has not come due yet, or None."""
    session = host.storage_get("session")
    if session and parse_instant(session["ends_at"]) > now:
        return session
    return None


def break_until(host, now):
    pause = host.storage_get("break")
    if pause and parse_instant(pause["ends_at"]) > now:
        return parse_instant(pause["ends_at"])
    return None


def forget_break(host):
    pause = host.storage_get("break")
    if pause:
        cancel(host, pause["reminder"])
        host.storage_delete("break")


def cancel(host, reminder):
    try:
        host.cancel_reminder(reminder)
    except HostError as error:
        host.log("info", "reminder %s could not be cancelled (%s); it may have come due already" % (reminder, error))


@plugin.command("start")
def start(command, host):
    text = command.value("minutes", str(DEFAULT_MINUTES))
    try:
        minutes = int(text)
    except ValueError:
        minutes = 0
    if not 1 <= minutes <= 120:
        raise CommandError(
            "--minutes takes a whole number from 1 to 120, such as --minutes 25 (%r is not one)." % text,
            exit_code=64,
        )
    zone = command.time_zone
    session = running_session(host, command.now)
    if session:
        raise CommandError(
            "A focus session is already running until %s. `hooray pomodoro stop` ends it, "
            "if you'd like a fresh start." % clock(parse_instant(session["ends_at"]), zone)
        )
    forget_break(host)
    task = command.value("task")
    ends_at = command.now + datetime.timedelta(minutes=minutes)
    reminder = "session-%d" % int(command.now.timestamp())
    if task:
        body = "“%s”: nice, steady work. A short break, or skip it — your call." % task
    else:
        body = "Nice, steady work. A short break, or skip it — your call."
    notice = Notice("Focus session done 🍅", body, actions=[("break", "Break"), ("skip", "Skip")])
    host.schedule_reminder(reminder, at(ends_at), notice, payload={"task": task, "minutes": minutes})
    host.storage_put(
        "session",
        {"reminder": reminder, "task": task, "minutes": minutes, "ends_at": ends_at.strftime("%Y-%m-%dT%H:%M:%SZ")},
    )
    return "Focus until %s. I'll tap you on the shoulder." % clock(ends_at, zone)


@plugin.command("status")
def status(command, host):
    zone = command.time_zone
    session = running_session(host, command.now)
    pause = break_until(host, command.now)
    done = host.storage_get(day_key(command.now, zone), 0)
    if command.json:
        return Reply(
            json={
                "session": session and {
                    "task": session["task"],
                    "minutes": session["minutes"],
                    "ends_at": session["ends_at"],
                },
                "break_until": pause and pause.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "done_today": done,
            }
        )
    if session and session["task"]:
        line = "Focusing on “%s” until %s." % (session["task"], clock(parse_instant(session["ends_at"]), zone))
    elif session:
        line = "Focusing until %s." % clock(parse_instant(session["ends_at"]), zone)
    elif pause:
        line = "On a break until %s." % clock(pause, zone)
    else:
        line = "No session running. `hooray pomodoro start` begins one whenever you're ready."
    return "%s\nDone today: %d." % (line, done)


@plugin.command("stop")
def stop(command, host):
    session = running_session(host, command.now)
    if not session:
        return "No focus session is running, so there is nothing to stop."
    cancel(host, session["reminder"])
    host.storage_delete("session")
    return "Stopped. Start again whenever you like."


@plugin.reminder("session-")
def session_done(due, host):
    session = host.storage_get("session")
    if session and session["reminder"] == due.reminder:
        host.storage_delete("session")
    key = day_key(due.due_at or due.now, plugin.time_zone)
    done = host.storage_get(key, 0) + 1
    host.storage_put(key, done)
    if done % 4 == 0:
        title = "%s focus sessions today" % COUNT_WORDS.get(done, str(done))
        host.celebrate(title, detail="Lovely, calm focus. Be gentle with yourself for the rest of the day.", size="big")


@plugin.reminder("break-")
def break_over(due, host):
    pause = host.storage_get("break")
    if pause and pause["reminder"] == due.reminder:
        host.storage_delete("break")


@plugin.action("break")
def take_a_break(action, host):
    forget_break(host)
    ends_at = action.now + datetime.timedelta(minutes=BREAK_MINUTES)
    reminder = "break-%d" % int(action.now.timestamp())
    notice = Notice("Break's over — ready for another?", "Start one whenever you like: hooray pomodoro start")
    host.schedule_reminder(reminder, at(ends_at), notice)
    host.storage_put("break", {"reminder": reminder, "ends_at": ends_at.strftime("%Y-%m-%dT%H:%M:%SZ")})


@plugin.action("skip")
def skip(action, host):
    return None


if __name__ == "__main__":
    plugin.run()
