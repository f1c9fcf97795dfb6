#!/usr/bin/python3
"""Benchmark: how long `hooray habit list` takes with 1,000 habits of a year's history each.

A temporary HOME gets one habit made by the real CLI (`hooray habit add`), which fixes the
stored format; the script then clones it in the database into N habits (default 1,000), each
done on every day of the past year except one in ten, with a pause and a reset, as a heavy user
would have. It then times `hooray habit list` (text and --json) and `hooray habit show`, and,
as a reference measured in the same run, `hooray --version` (process start alone).

This is a benchmark, not a test: it asserts nothing about time. Standard library only.
"""

import argparse
import base64
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import date, timedelta
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def environment_for(home):
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    for name, sub in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_RUNTIME_DIR", "run"),
                      ("HOORAY_SYSCONFDIR", "etc")]:
        path = home / sub
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        env[name] = str(path)
    env.update({"HOME": str(home), "TZ": "UTC", "LANG": "C.UTF-8", "NO_COLOR": "1"})
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    return env


def bitmap(offsets):
    """The stored form of a set of days: bit i of the base64 bytes marks day `from + i`."""
    data = bytearray(max(offsets) // 8 + 1)
    for offset in offsets:
        data[offset // 8] |= 1 << (offset % 8)
    return base64.b64encode(bytes(data)).decode()


def populate(database, habits, today):
    connection = sqlite3.connect(database)
    # Habits are records of the habits plugin's record book: kind `habit`, filed under their start day.
    (template_value,), = connection.execute(
        "SELECT value FROM record WHERE plugin = 'habits' AND kind = 'habit'").fetchall()
    template = json.loads(template_value)
    epoch = date(1970, 1, 1)
    first = today - timedelta(days=364)
    rows = []
    for index in range(habits):
        habit = dict(template)
        habit["id"] = str(uuid.uuid4()).upper()
        habit["name"] = f"Habit {index:04d}"
        habit["start"] = first.isoformat()
        offsets = [offset for offset in range(365) if (offset + index) % 10 != 0]
        habit.pop("completions", None)
        habit["done"] = {"from": (first - epoch).days, "bits": bitmap(offsets)}
        habit["pauses"] = [{"from": (first + timedelta(days=100)).isoformat(),
                            "through": (first + timedelta(days=104)).isoformat()}]
        habit["resets"] = [{"day": (first + timedelta(days=200)).isoformat(), "note": "A busy week."}]
        rows.append(("habits", "habit", habit["id"].lower(), (first - epoch).days, json.dumps(habit).encode()))
    connection.execute("DELETE FROM record WHERE plugin = 'habits' AND kind = 'habit'")
    connection.executemany(
        "INSERT INTO record (plugin, kind, id, day, instant, value) VALUES (?, ?, ?, ?, NULL, ?)", rows)
    connection.commit()
    connection.close()


def time_command(command, env, runs):
    figures = []
    for _ in range(runs):
        started = time.monotonic()
        result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        figures.append((time.monotonic() - started) * 1000)
        if result.returncode != 0:
            sys.exit(f"{' '.join(command)} failed: {result.stderr.decode()}")
    return figures


def percentile(values, fraction):
    ordered = sorted(values)
    rank = fraction * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "release"))
    parser.add_argument("--habits", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", metavar="FILE", help="write the raw figures to FILE")
    options = parser.parse_args()
    hooray = Path(options.bin_dir) / "hooray"
    if not hooray.exists():
        sys.exit(f"{hooray} is missing; build it first (swift build -c release) or give --bin-dir")

    with tempfile.TemporaryDirectory(prefix="hooray-bench-habits-") as folder:
        home = Path(folder)
        env = environment_for(home)
        subprocess.run([str(hooray), "habit", "add", "Template", "--remind", "20:00"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        database = home / "data" / "hooray" / "hooray.sqlite"
        populate(database, options.habits, date.today())
        size = database.stat().st_size + sum(p.stat().st_size for p in database.parent.glob("hooray.sqlite-*"))
        variants = [
            ("hooray --version (process start, reference)", [str(hooray), "--version"]),
            (f"hooray habit list ({options.habits} habits × 1 year)", [str(hooray), "habit", "list"]),
            (f"hooray habit list --json ({options.habits} habits × 1 year)", [str(hooray), "habit", "list", "--json"]),
            ("hooray habit show \"Habit 0500\"", [str(hooray), "habit", "show", "Habit 0500"]),
        ]
        results = {}
        for name, command in variants:
            time_command(command, env, 1)  # warm-up
            results[name] = time_command(command, env, options.runs)

    print(f"| variant | runs | p50 ms | p95 ms |")
    print("|---|---:|---:|---:|")
    for name, figures in results.items():
        print(f"| {name} | {len(figures)} | {percentile(figures, 0.5):.1f} | {percentile(figures, 0.95):.1f} |")
    print(f"\nDatabase with {options.habits} habits of a year's history: {size / 1e6:.1f} MB. "
          f"Machine: {os.cpu_count()} CPU(s), {platform.system()} {platform.release()} {platform.machine()}. "
          f"Binaries: {options.bin_dir}.")
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
