#!/usr/bin/python3
"""Benchmark: how late hoorayd delivers a reminder against its due instant.

Lateness = the notification server's CLOCK_REALTIME stamp of the Notify call − the due instant.
It includes hoorayd waking on its timerfd, the database transaction that records the
occurrence, libnotify and the D-Bus hop — the same hop the references take. No libfaketime:
every instant is a real one (libfaketime 0.9.10 also rewrites libdispatch's CLOCK_MONOTONIC
timerfd deadlines, which makes a Swift process spin when its clock is set ahead; see BENCHMARKS.md).

distinct  100 reminders due at distinct instants 200 ms apart (plus up to 50 ms of jitter, so
          the instants have arbitrary milliseconds). Configured reminders are due at whole
          minutes, so these are the one-off rules that **Snooze 1 h** leaves: one snooze is
          pressed for real (`hooray act ID snooze`) and its stored rule is the template the other
          99 are cloned from, due at the chosen instants; the reminders plugin keeps snoozed rules
          of its configured reminders when it starts, by design.
batch     100 reminders configured at the same minute, `burst_limit` raised to 1000 so that each is
          shown on its own: the lateness of each (the last waits for the 99 before it).
digest    100 other reminders at a later minute with the calm-delivery rules as they ship
          (`burst_limit` 3, after `hooray reload`): they reach the screen as one digest, whose
          lateness is the figure.

References, same run, same server: a resident Python client (dbus-next, one bus connection)
that sleeps with time.sleep until each instant and then sends Notify, waiting for each reply
(scripts/bench/reference_client.py), for the same distinct pattern and for a batch of 100.

Standard library only; run with /usr/bin/python3. Measures, asserts nothing.
"""

import argparse
import json
import random
import shutil
import sqlite3
import subprocess
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from benchlib import (
    run_standalone,
    REPO_ROOT,
    SERVER_PYTHON,
    Failure,
    RecordReader,
    World,
    check_bus_prerequisites,
    percentile,
    progress,
    resolve_binaries,
)

REFERENCE_CLIENT = Path(__file__).resolve().parent / "reference_client.py"


def distinct_instants(start, count, spacing, seed=7):
    generator = random.Random(seed)
    return [start + index * spacing + generator.uniform(0, 0.05) for index in range(count)]


def run_reference(world, instants, label):
    path = world.root / f"instants-{label}.json"
    path.write_text(json.dumps(instants))
    result = subprocess.run(
        [SERVER_PYTHON, str(REFERENCE_CLIENT), "schedule", str(path)],
        env=world.environment(),
        capture_output=True,
        text=True,
        timeout=len(instants) + 120,
    )
    if result.returncode != 0 or "DONE" not in result.stdout:
        raise Failure(f"reference_client.py failed: {result.stderr[-2000:]}")


def next_minute(margin):
    """The next whole minute at least `margin` seconds away."""
    now = datetime.now(timezone.utc)
    minute = (now + timedelta(seconds=60 + margin)).replace(second=0, microsecond=0)
    if (minute - now).total_seconds() > 60 + margin:
        minute -= timedelta(minutes=1)
    return minute


def reminders_toml(titles, minute, prefix="r"):
    """One configured reminder per title, all at `minute`."""
    return "".join(
        f'\n[[plugins.reminders.reminder]]\nid = "{prefix}{index:03d}"\ntitle = "{title}"\nat = "{minute:%H:%M}"\n'
        for index, title in enumerate(titles, start=1)
    )


def lateness_of(notifications, due_by_summary):
    """Lateness in ms of each notification whose summary names a due instant."""
    figures = []
    for entry in notifications:
        due = due_by_summary.get(entry.get("summary"))
        if due is not None and not entry.get("replaces_id"):
            figures.append((entry["realtime"] - due) * 1000)
    return figures


def summary(figures):
    if not figures:
        return None
    return {
        "count": len(figures),
        "p50_ms": percentile(figures, 0.50),
        "p99_ms": percentile(figures, 0.99),
        "min_ms": min(figures),
        "max_ms": max(figures),
    }


def measure(bin_dir, count=100, spacing=0.2, keep=False):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    root = tempfile.mkdtemp(prefix="hooray-bench-precision-")
    world = World(root)
    daemon = None
    report = {"benchmark": "precision", "count": count, "spacing_s": spacing}
    try:
        world.start()
        reader = RecordReader(world.record_file)
        # The batch: `count` reminders at the next whole minute at least 6 s away.
        minute = next_minute(margin=6)
        titles = [f"Reminder {index:03d}" for index in range(1, count + 1)]
        world.config_file.write_text(world.user_config + reminders_toml(titles, minute), encoding="utf-8")
        daemon = world.start_daemon(hoorayd)
        wait = (minute - datetime.now(timezone.utc)).total_seconds()
        report["batch_wait_s"] = wait

        # While hoorayd waits for the minute (idle), the reference for distinct instants runs, if it fits.
        reference_span = count * spacing + 3
        reference_instants = None
        if wait > reference_span + 3:
            progress(f"  precision: reference scheduler, {count} instants, while hoorayd waits {wait:.0f} s")
            reference_instants = distinct_instants(time.time() + 1.5, count, spacing, seed=11)
            run_reference(world, reference_instants, "reference-distinct")
        progress(f"  precision: waiting for the batch of {count} at {minute:%H:%M} UTC")
        seen = reader.count()
        reader.wait_for_count(seen + count, max(0, (minute - datetime.now(timezone.utc)).total_seconds()) + 30)
        batch_due = {title: minute.timestamp() for title in titles}
        report["batch"] = summary(lateness_of(reader.notifications, batch_due))

        # The same burst with the calm-delivery rules as they ship (`burst_limit` 3): one digest.
        digest_minute = next_minute(margin=8)
        digest_titles = [f"Digest {index:03d}" for index in range(1, count + 1)]
        world.config_file.write_text(
            world.user_config.replace("burst_limit = 1000", "burst_limit = 3")
            + reminders_toml(digest_titles, digest_minute, prefix="d"),
            encoding="utf-8",
        )
        reload = world.run([hooray, "reload"], check=False)
        if reload.returncode != 0:
            raise Failure(f"`hooray reload` failed: {reload.stderr}")
        progress(f"  precision: waiting for the digest of {count} at {digest_minute:%H:%M} UTC")
        seen = reader.count()
        reader.wait_for_count(seen + 1, max(0, (digest_minute - datetime.now(timezone.utc)).total_seconds()) + 30)
        digests = [
            entry
            for entry in reader.notifications[seen:]
            if str(entry.get("summary", "")).startswith(f"{count} reminders:") and not entry.get("replaces_id")
        ]
        report["digest"] = summary([(entry["realtime"] - digest_minute.timestamp()) * 1000 for entry in digests])
        report["digest_notifications"] = len(reader.notifications) - seen

        if reference_instants is None:
            progress(f"  precision: reference scheduler, {count} instants")
            reference_instants = distinct_instants(time.time() + 1.5, count, spacing, seed=11)
            run_reference(world, reference_instants, "reference-distinct")
        reader.refresh()
        reference_due = {f"Reference {index + 1}": at for index, at in enumerate(reference_instants)}
        report["reference_distinct"] = summary(lateness_of(reader.notifications, reference_due))
        before_batch = reader.count()
        batch_at = time.time() + 1.0
        run_reference(world, [batch_at] * count, "reference-batch")
        reader.refresh()
        reference_batch = lateness_of(
            reader.notifications[before_batch:], {f"Reference {index + 1}": batch_at for index in range(count)}
        )
        report["reference_batch"] = summary(reference_batch)

        # One real snooze makes the template of a one-off rule.
        act = world.run([hooray, "act", "1", "snooze"], check=False)
        if act.returncode != 0:
            raise Failure(f"`hooray act 1 snooze` failed: {act.stderr}")
        daemon.stop()
        daemon = None

        progress(f"  precision: {count} snoozed one-off reminders at distinct instants, {spacing * 1000:.0f} ms apart")
        instants = distinct_instants(time.time() + 4.0, count, spacing, seed=23)
        due_by_title = dict(zip(titles, instants))
        clone_snoozes(world.database, titles, instants)
        seen = reader.count()
        daemon = world.start_daemon(hoorayd)
        report["distinct_lead_s"] = instants[0] - time.time()  # hoorayd's rest before the first is due
        reader.wait_for_count(seen + count, instants[-1] - time.time() + 30)
        report["distinct"] = summary(lateness_of(reader.notifications[seen:], due_by_title))
        return report
    finally:
        if daemon:
            daemon.stop()
        world.stop()
        if keep:
            progress(f"Kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def clone_snoozes(database, titles, instants):
    """Replaces the one real snoozed rule by one per reminder, due at `instants`."""
    write_snoozes(database, snooze_template(database), titles, instants)


def snooze_template(database):
    """The one snoozed rule a real **Snooze 1 h** left, as a dict of its row (the template of the clones)."""
    connection = sqlite3.connect(database)
    connection.row_factory = sqlite3.Row
    rows = connection.execute("SELECT * FROM rule WHERE reminderID LIKE 'snoozed.%'").fetchall()
    connection.close()
    if len(rows) != 1:
        raise Failure(f"expected one snoozed rule after `hooray act 1 snooze`, found {len(rows)}")
    template = dict(rows[0])
    reminder = json.loads(template["reminder"])
    schedule = json.loads(template["scheduleKey"])
    if "once" not in schedule or set(schedule["once"]) != {"at"} or reminder.get("schedule") != schedule:
        raise Failure(f"unexpected stored form of a snoozed rule: {template['reminder']!r}")
    return template


def write_snoozes(database, template, titles, instants):
    """Replaces every snoozed rule by one clone of `template` per title, due at `instants`."""
    reminder = json.loads(template["reminder"])
    values = []
    for index, (title, at) in enumerate(zip(titles, instants), start=1):
        clone = dict(reminder, id=f"snoozed.r{index:03d}", schedule={"once": {"at": at}})
        clone["notice"] = dict(reminder["notice"], title=title)
        key = json.dumps(clone["schedule"], separators=(",", ":"), sort_keys=True)
        values.append(
            (
                template["plugin"],
                clone["id"],
                json.dumps(clone, separators=(",", ":"), sort_keys=True).encode(),
                key,
                at,
                template["createdAt"],
            )
        )
    connection = sqlite3.connect(database)
    with connection:
        connection.execute("DELETE FROM rule WHERE reminderID LIKE 'snoozed.%'")
        connection.executemany(
            "INSERT INTO rule (plugin, reminderID, reminder, scheduleKey, nextDue, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
            values,
        )
    connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "release"))
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--spacing", type=float, default=0.2)
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    run_standalone("precision.py", lambda: measure(options.bin_dir, options.count, options.spacing, options.keep), options.json)


if __name__ == "__main__":
    main()
