#!/usr/bin/python3
"""Benchmarks of scale: hoorayd starting with many reminder rules, and the database after a heavy year.

start   hoorayd with N `[[plugins.reminders.reminder]]` entries in a conf.d drop-in (default
        100,000, and 10,000 and 1,000,000 beside it to show how it scales; `--steps` chooses
        others), all due 6 to 18 hours from now so none fires during the measurement. Times,
        from spawn: each stderr line as it arrives (configuration read, plugins activated, the
        upcoming reminders announced, "hoorayd is running"), and `hooray status --json` reporting
        the next due instant. Then the same start again (the rules are stored now), and
        `hooray config check` of the drop-in alone (parsing and validation without the daemon).
        Reference, same run: the same start with no reminders.

dbsize  a year of heavy use built in the real schema: 20 habits done on most days (with
        `hooray habit done`, which celebrates milestones only, so no notice a day), 10 wins a day
        with AI praise, 5 reminders a day shown. One of
        each is made by the real binaries first (hoorayd, `hooray win` against the loopback AI
        server, `hooray habit done`, a reminder fired under libfaketime); those rows are the
        templates the rest are cloned from. The file size is read after VACUUM. Reference: the
        database the binaries create on a first start, after VACUUM too.

Standard library only; run with /usr/bin/python3. Measures, asserts nothing.
"""

import argparse
import json
import shutil
import sqlite3
import subprocess
import tempfile
import time
import uuid
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from benchlib import (
    run_standalone,
    AI_SERVER_SCRIPT,
    REPO_ROOT,
    SERVER_PYTHON,
    Daemon,
    Failure,
    RecordReader,
    World,
    check_bus_prerequisites,
    die_with_parent,
    faketime_just_before_a_minute,
    faketime_offset_environment,
    proc_kb,
    proc_status,
    progress,
    readline_with_timeout,
    resolve_binaries,
    stop_process,
)
import habit_list

# ---------------------------------------------------------------------------------------------
# Start and plan N rules.


def reminders_toml(count, now):
    """`count` reminders with stable ids, due 6 to 18 hours from `now`, a fifth of them on weekdays only."""
    days = ["mon-fri", None, "weekends", None, "mon,wed,fri"]
    parts = []
    for index in range(count):
        minutes = 6 * 60 + (index * 7) % (12 * 60)
        at = now + timedelta(minutes=minutes)
        entry = (
            f'[[plugins.reminders.reminder]]\nid = "r{index:06d}"\ntitle = "Reminder {index}"\n'
            f'body = "Stand up and roll your shoulders."\nat = "{at:%H:%M}"\n'
        )
        if days[index % len(days)]:
            entry += f'days = "{days[index % len(days)]}"\n'
        parts.append(entry)
    return "\n".join(parts)


PHASES = [
    ("configuration read, database open", "starting; data in"),
    ("reminders plugin activated", "reminder(s) scheduled"),
    ("upcoming reminders announced", "hooray next` lists them"),
    ("hoorayd is running", "hoorayd is running"),
]


def timed_start(world, hooray, hoorayd, name, timeout, expect_next_due=True):
    """Spawns hoorayd; returns the phases (ms from spawn) and the ms until `hooray status` shows the next due.

    With `expect_next_due` false (no rules), the time until `hooray status` first answers.
    """
    spawned = time.monotonic()
    daemon = Daemon([str(hoorayd)], world.environment(), world.logs / f"{name}.log", spawned=spawned)
    try:
        running = daemon.wait_for("hoorayd is running", timeout)
        if running is None:
            raise Failure(f"hoorayd did not start within {timeout:g} s:\n{daemon.log()[-3000:]}")
        next_due = None
        deadline = time.monotonic() + 60
        # A plugin left out (its activation overran hoorayd's limit) plans nothing: no next due will come.
        while time.monotonic() < deadline and not daemon.first_line("failed to start and is left out"):
            result = world.run([hooray, "status", "--json"], check=False)
            if result.returncode == 0:
                next_due = json.loads(result.stdout).get("nextDue")
                if next_due or not expect_next_due:
                    break
            time.sleep(0.01)
        status_ms = (time.monotonic() - spawned) * 1000
        phases = {}
        for label, text in PHASES:
            found = daemon.first_line(text)
            if found:
                phases[label] = (found[0] - spawned) * 1000
        left_out = daemon.first_line("failed to start and is left out")
        # At rest: 2 s after status showed the next due instant.
        time.sleep(2)
        resting = proc_status(daemon.pid)
        return {
            "rss_kb": proc_kb(resting, "VmRSS"),
            "hwm_kb": proc_kb(resting, "VmHWM"),
            "running_ms": (running - spawned) * 1000,
            "status_ms": status_ms if (next_due or not expect_next_due) else None,
            "next_due": next_due,
            "phases_ms": phases,
            "left_out": left_out[1] if left_out else None,
            "pid": daemon.pid,
        }
    finally:
        stop_started = time.monotonic()
        daemon.stop(grace=30)
        progress(f"    {name}: stopped in {(time.monotonic() - stop_started) * 1000:.0f} ms")


def default_steps(rules):
    """The other counts measured beside `rules`: a tenth and ten times as many from 100,000 up, so the growth shows."""
    return (rules // 10, rules * 10) if rules >= 100_000 else ()


def measure_one_start(hooray, hoorayd, count, timeout, keep):
    """One first start, one start again and one `config check`, with `count` rules, in a new world."""
    root = tempfile.mkdtemp(prefix=f"hooray-bench-start-{count}-")
    world = World(root)
    try:
        world.start()
        drop_in = world.drop_in_folder / "50-bench.toml"
        now = datetime.now(timezone.utc)
        drop_in.write_text(reminders_toml(count, now) if count else "# no reminders\n", encoding="utf-8")
        entry = {"toml_bytes": drop_in.stat().st_size}
        progress(f"  start: hoorayd with {count:,} reminder rules (first start)")
        entry["first"] = timed_start(world, hooray, hoorayd, "first", timeout, expect_next_due=count > 0)
        progress(f"  start: hoorayd with {count:,} reminder rules (again, rules stored)")
        entry["again"] = timed_start(world, hooray, hoorayd, "again", timeout, expect_next_due=count > 0)
        started = time.monotonic()
        check = world.run([hooray, "config", "check", drop_in], check=False, timeout=timeout)
        entry["config_check_ms"] = (time.monotonic() - started) * 1000
        entry["config_check_status"] = check.returncode
        entry["database_bytes"] = database_bytes(world.database)
        return entry
    finally:
        world.stop()
        if keep:
            progress(f"Kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def median_start(attempts):
    """The attempts as one entry: for the first start, the start again and `config check` each, the
    attempt of median time (to status, or the check's), with every attempt's times beside it."""

    def median_of(key, measure):
        ordered = sorted(attempts, key=lambda attempt: measure(attempt[key]) if key in ("first", "again") else attempt[key])
        return ordered[len(ordered) // 2][key]

    entry = dict(attempts[len(attempts) // 2])
    status = lambda run: run["status_ms"] if run.get("status_ms") is not None else float("inf")
    entry["first"] = median_of("first", status)
    entry["again"] = median_of("again", status)
    entry["config_check_ms"] = median_of("config_check_ms", None)
    entry["attempts"] = {
        "first_status_ms": [attempt["first"].get("status_ms") for attempt in attempts],
        "again_status_ms": [attempt["again"].get("status_ms") for attempt in attempts],
        "config_check_ms": [attempt["config_check_ms"] for attempt in attempts],
    }
    return entry


def measure_start(bin_dir, rules=100_000, timeout=240.0, keep=False, steps=None, repeats=3):
    """The start with `rules` rules, with no rules (the reference) and with each other step count.

    `steps` defaults to `default_steps(rules)`: 10,000 and 1,000,000 beside the default 100,000.
    Up to 100,000 rules each is measured `repeats` times and the median kept (`median_start`).
    """
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    results = {"benchmark": "start", "count": rules, "runs": {}}
    steps = default_steps(rules) if steps is None else steps
    counts = sorted({0, rules, *(step for step in steps if step > 0)})
    for count in counts:
        # Each start is measured in a world of its own, several times where that is quick; the run of
        # median time is kept for each figure (one noisy start on a shared machine moves no figure).
        attempts = [measure_one_start(hooray, hoorayd, count, timeout, keep) for _ in range(repeats if count <= 100_000 else 1)]
        results["runs"][count] = median_start(attempts)
    results["reference"] = results["runs"][0]
    results["rules"] = results["runs"][rules]
    # Cost per rule above the reference, for each count: flat when the growth is linear.
    results["per_rule_us"] = {}
    for count, entry in results["runs"].items():
        if count == 0:
            continue
        per_rule = {}
        for attempt in ("first", "again"):
            run, base = entry[attempt], results["reference"][attempt]
            for key in ("running_ms", "status_ms"):
                if run.get(key) is not None and base.get(key) is not None:
                    per_rule[f"{attempt}_{key[:-3]}"] = (run[key] - base[key]) * 1000 / count
        per_rule["config_check"] = (entry["config_check_ms"] - results["reference"]["config_check_ms"]) * 1000 / count
        results["per_rule_us"][count] = per_rule
    return results


def database_bytes(path):
    path = Path(path)
    return sum(p.stat().st_size for p in [path, Path(f"{path}-wal"), Path(f"{path}-shm")] if p.exists())


# ---------------------------------------------------------------------------------------------
# A heavy year in the database.


def start_ai_server(world, delay=0.0, timing=None):
    command = [SERVER_PYTHON, str(AI_SERVER_SCRIPT), "--record", str(world.root / "ai-record.jsonl"), "--idle", "600"]
    if delay:
        command += ["--delay", str(delay)]
    if timing:
        command += ["--timing", str(timing)]
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=open(world.logs / "ai-server.log", "wb"),
        preexec_fn=die_with_parent,
    )
    line = readline_with_timeout(process.stdout, 10) or ""
    if not line.startswith("PORT "):
        stop_process(process)
        raise Failure(f"ai_server.py did not start: {line!r}")
    return process, int(line.split()[1])


def ai_config(port, path="good"):
    return f'\n[ai]\nprovider = "hooray"\nendpoint = "http://127.0.0.1:{port}/{path}"\ntimeout = "10s"\n'


def vacuumed_size(database):
    connection = sqlite3.connect(database)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("VACUUM")
    connection.close()
    return database_bytes(database)


def table_counts(database):
    connection = sqlite3.connect(database)
    counts = {
        table: connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        for table in ("rule", "occurrence", "notice", "pluginValue", "record")
    }
    connection.close()
    return counts


def make_templates(world, hooray, hoorayd):
    """Real rows made by the binaries: a reminder shown, a win with AI praise, a habit done."""
    ai, port = start_ai_server(world)
    reader = RecordReader(world.record_file)
    try:
        # The daemon's clock reaches a whole minute 3 s after it starts; the reminders are due then.
        due, offset = faketime_just_before_a_minute(lead=3.0)
        world.config_file.write_text(
            world.user_config
            + ai_config(port)
            + "".join(
                f'\n[[plugins.reminders.reminder]]\nid = "daily-{index}"\ntitle = "Daily reminder {index}"\n'
                f'body = "Stand up and roll your shoulders."\nat = "{due:%H:%M}"\n'
                for index in range(5)
            ),
            encoding="utf-8",
        )
        world.run([hooray, "habit", "add", "Template", "--remind", "20:00"])
        daemon = world.start_daemon(hoorayd, extra=faketime_offset_environment(offset))
        try:
            if reader.wait_for_count(5, 20) < 5:
                raise Failure("the five reminders did not fire under libfaketime")
            world.run([hooray, "win", "Took a short walk"], extra=faketime_offset_environment(offset))
            world.run([hooray, "habit", "done", "Template"], extra=faketime_offset_environment(offset))
            # 5 reminders, the win and its AI update (`habit done` celebrates milestones only).
            reader.wait_for_count(7, 20)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not any(
                "You made space for yourself." in n.get("body", "") for n in reader.notifications
            ):
                time.sleep(0.05)
                reader.refresh()
        finally:
            daemon.stop()
    finally:
        stop_process(ai)
    return len(reader.notifications)


def clone_year(database, today, habits=20, wins_per_day=10, reminders_per_day=5):
    """Clones the template rows into a year of heavy use, in one transaction."""
    connection = sqlite3.connect(database)
    connection.row_factory = sqlite3.Row
    rows = lambda sql, *args: [dict(row) for row in connection.execute(sql, args).fetchall()]  # noqa: E731
    # Moments are records of the wins plugin's record book: kind `moment`, filed under when they happened.
    moments = rows("SELECT id, value FROM record WHERE plugin = 'wins' AND kind = 'moment'")
    if not moments:
        raise Failure("no moment was stored by `hooray win`")
    moment_template = json.loads(moments[0]["value"])
    notices = rows("SELECT * FROM notice ORDER BY id")
    by_plugin = {}
    for notice in notices:
        by_plugin.setdefault(notice["plugin"], notice)
    for plugin in ("reminders", "wins"):
        if plugin not in by_plugin:
            raise Failure(f"no notice of the {plugin} plugin was stored; templates: {[n['plugin'] for n in notices]}")
    occurrence = rows("SELECT * FROM occurrence WHERE plugin = 'reminders' LIMIT 1")[0]
    connection.close()

    # 20 habits with a year of completions, pauses and resets (the format habit_list.py writes).
    habit_list.populate(database, habits, today)

    connection = sqlite3.connect(database)
    first = datetime.combine(today - timedelta(days=364), datetime.min.time(), tzinfo=timezone.utc)
    values, notice_rows, occurrence_rows = [], [], []
    columns = [name for name in by_plugin["wins"] if name != "id"]
    template_at = by_plugin["wins"]["createdAt"]
    for day in range(365):
        midnight = first + timedelta(days=day)
        for index in range(wins_per_day):
            at = (midnight + timedelta(hours=8, minutes=index * 73)).timestamp()
            moment = dict(moment_template)
            moment["id"] = str(uuid.uuid4()).upper()
            moment["text"] = f"Small win {day}-{index}: tidied the desk and answered the email"
            # Shifted from the template's own stamps, whatever their epoch.
            shift = at - template_at
            for key in ("submittedAt", "happenedAt", "nextSyncAt"):
                if isinstance(moment.get(key), (int, float)):
                    moment[key] = moment_template[key] + shift
            values.append(
                ("wins", "moment", moment["id"].lower(), moment.get("happenedAt", at), json.dumps(moment).encode()))
            notice = dict(by_plugin["wins"], createdAt=at, deliveredAt=at)
            notice_rows.append(tuple(notice[name] for name in columns))
        for index in range(reminders_per_day):
            due = (midnight + timedelta(hours=9 + 2 * index)).timestamp()
            notice = dict(by_plugin["reminders"], dueAt=due, createdAt=due, deliveredAt=due + 0.01)
            notice_rows.append(tuple(notice[name] for name in columns))
            occurrence_rows.append(("reminders", f"daily-{index}", due, due, "shown"))
    with connection:
        connection.executemany(
            "INSERT OR REPLACE INTO record (plugin, kind, id, day, instant, value) VALUES (?, ?, ?, NULL, ?, ?)", values
        )
        connection.executemany(
            f"INSERT INTO notice ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})", notice_rows
        )
        connection.executemany(
            "INSERT OR IGNORE INTO occurrence (plugin, reminderID, dueAt, handledAt, outcome) VALUES (?, ?, ?, ?, ?)",
            occurrence_rows,
        )
    connection.close()
    return {
        "moments": len(values),
        "notices": len(notice_rows),
        "occurrences": len(occurrence_rows),
        "habits": habits,
        "template_sizes": {
            "moment": len(moments[0]["value"]),
            "notice_wins": len(by_plugin["wins"]["payload"]),
            "notice_reminders": len(by_plugin["reminders"]["payload"]),
            "occurrence_columns": len(occurrence),
        },
    }


def measure_database(bin_dir, keep=False):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    result = {"benchmark": "dbsize"}
    # Reference: what a first start creates.
    root = tempfile.mkdtemp(prefix="hooray-bench-db-")
    world = World(root)
    try:
        world.start()
        world.start_daemon(hoorayd).stop()
        result["empty_bytes"] = vacuumed_size(world.database)
        world.stop()
        shutil.rmtree(root, ignore_errors=True)

        root = tempfile.mkdtemp(prefix="hooray-bench-db-")
        world = World(root)
        world.start()
        result["template_notifications"] = make_templates(world, hooray, hoorayd)
        result["year"] = clone_year(world.database, date.today())
        result["counts"] = table_counts(world.database)
        result["heavy_bytes"] = vacuumed_size(world.database)
        # The binaries still read it: `hooray habit list` and `hooray moments` over the year.
        for command in ([hooray, "habit", "list"], [hooray, "moments", "--day", "today"]):
            started = time.monotonic()
            world.run(command)
            result.setdefault("reads_ms", {})[" ".join(command[1:])] = (time.monotonic() - started) * 1000
        return result
    finally:
        world.stop()
        if keep:
            progress(f"Kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["start", "dbsize"])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "release"))
    parser.add_argument("--rules", type=int, default=100_000)
    parser.add_argument(
        "--steps",
        help="start: other rule counts to measure beside --rules, comma-separated "
        "(default: a tenth and ten times --rules from 100,000 up, so 10000,1000000; none below)",
    )
    parser.add_argument("--timeout", type=float, default=240.0, help="start: seconds each start may take")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    def measure():
        if options.what == "start":
            steps = None
            if options.steps is not None:
                steps = tuple(int(step.replace("_", "")) for step in options.steps.split(",") if step.strip())
            return measure_start(options.bin_dir, options.rules, timeout=options.timeout, keep=options.keep, steps=steps)
        return measure_database(options.bin_dir, keep=options.keep)

    def measure_and_summarise():
        report = measure()
        if options.what == "start":
            progress(summary(report))
        return report

    run_standalone("scale.py", measure_and_summarise, options.json)


def summary(report):
    """The start figures as lines a person reads: each count's first start and restart, phase by phase, and `config check`."""
    lines = []
    for count, entry in sorted(report["runs"].items(), key=lambda item: -int(item[0])):
        for attempt, label in (("first", "first start"), ("again", "restart")):
            run = entry[attempt]
            phases = ", ".join(
                f"{name} {run['phases_ms'][name]:,.0f}" for name, _ in PHASES if name in run["phases_ms"]
            )
            status = "—" if run["status_ms"] is None else f"{run['status_ms']:,.0f} ms"
            lines.append(f"{int(count):>9,} rules, {label:<11}: status shows next due at {status} ({phases}; ms from spawn)")
        lines.append(f"{int(count):>9,} rules, config check: {entry['config_check_ms']:,.0f} ms")
    return "\n".join(lines)

if __name__ == "__main__":
    main()
