#!/usr/bin/python3
"""Benchmark: `hooray moments --json` with 100,000 moments.

A temporary world gets one moment logged by the real CLI (`hooray win`), which fixes the stored
format; the script then clones it in the database into N moments (default 100,000), one every 7
minutes back from now, each with its own id and words. With hoorayd running, it times:

  - `hooray moments --json --limit 20`: the newest 20 (median of --runs runs, wall time);
  - `hooray moments --json`: every moment, streamed (median of 3 runs), checking that the output is
    one JSON array of N moments; the peak RSS of `hooray` (GNU time's %M) and
    hoorayd's VmHWM before and after, beside the same figures for `--limit 20`: flat memory means
    the whole listing's peak is about the newest 20's.

Reference, same run: `hooray --version` (process start alone).

This is a benchmark, not a test: it asserts nothing about time. Standard library only.
"""

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import tempfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

from benchlib import Failure, World, check_bus_prerequisites, progress, proc_kb, proc_status, resolve_binaries
from benchlib import run_standalone

CONFIG = """[plugins.wins]
welcome = false
"""


def populate(database, count, now):
    """Clones the one stored moment into `count` moments, the newest a minute ago."""
    connection = sqlite3.connect(database)
    (template_value,), = connection.execute(
        "SELECT value FROM record WHERE plugin = 'wins' AND kind = 'moment'").fetchall()
    template = json.loads(template_value)
    connection.execute("DELETE FROM record WHERE plugin = 'wins' AND kind = 'moment'")
    rows = []
    for index in range(count):
        happened = now - 60 - index * 420
        moment = dict(template)
        moment["id"] = str(uuid.UUID(int=index + 1, version=4)).upper()
        moment["text"] = f"Moment number {index}: took a short walk around the block"
        moment["happenedAt"] = happened
        moment["submittedAt"] = happened
        moment["timeAgo"] = 0
        rows.append(("wins", "moment", moment["id"].lower(), None, happened, json.dumps(moment).encode()))
        if len(rows) == 10_000:
            connection.executemany("INSERT INTO record (plugin, kind, id, day, instant, value) VALUES (?, ?, ?, ?, ?, ?)", rows)
            rows = []
    if rows:
        connection.executemany("INSERT INTO record (plugin, kind, id, day, instant, value) VALUES (?, ?, ?, ?, ?, ?)", rows)
    connection.commit()
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()


TIME = "/usr/bin/time"


def timed(command, environment):
    """Runs a command to completion, its output read and kept; returns (seconds, max RSS kB, stdout bytes).

    The peak RSS is GNU time's `%M` for the program: a child forked from this Python process would
    count this process's pages (the JSON it already read) in its ru_maxrss until it runs `exec`."""
    started = time.monotonic()
    wrapped = [TIME, "-f", "maxrss=%M"] if os.access(TIME, os.X_OK) else []
    process = subprocess.Popen(
        wrapped + [str(part) for part in command], env=environment, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    chunks = []
    while True:
        chunk = process.stdout.read(1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - started
    error = process.stderr.read().decode(errors="replace")
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise Failure(f"{' '.join(map(str, command))} exited with {process.returncode}: {error[-2000:]}")
    rss = usage.ru_maxrss
    for line in error.splitlines():
        if line.startswith("maxrss="):
            rss = int(line.split("=", 1)[1])
    return seconds, rss, b"".join(chunks)


def measure(bin_dir, count=100_000, runs=10, keep=False):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    root = tempfile.mkdtemp(prefix="hooray-bench-listing-")
    world = World(root, user_config=CONFIG).start()
    daemon = None
    try:
        world.run([hooray, "win", "Took a short walk"])
        progress(f"[listing] seeding {count:,} moments")
        populate(world.database, count, datetime.now(timezone.utc).timestamp())
        daemon = world.start_daemon(hoorayd)
        environment = world.environment()
        version = [timed([hooray, "--version"], environment)[0] for _ in range(runs)]
        hwm_before = proc_kb(proc_status(daemon.process.pid), "VmHWM")
        limited, limited_rss = [], []
        for _ in range(runs):
            seconds, rss, output = timed([hooray, "moments", "--json", "--limit", "20"], environment)
            limited.append(seconds)
            limited_rss.append(rss)
        newest = json.loads(output)
        if len(newest) != 20:
            raise Failure(f"`hooray moments --json --limit 20` listed {len(newest)} moments")
        whole, whole_rss = [], []
        output = None
        for _ in range(3):
            output = None
            seconds, rss, output = timed([hooray, "moments", "--json"], environment)
            whole.append(seconds)
            whole_rss.append(rss)
        listed = json.loads(output)
        if len(listed) != count:
            raise Failure(f"`hooray moments --json` listed {len(listed)} moments, not {count}")
        hwm_after = proc_kb(proc_status(daemon.process.pid), "VmHWM")
        return {
            "count": count,
            "runs": runs,
            "limit20_s": statistics.median(limited),
            "limit20_runs_s": limited,
            "limit20_max_rss_kb": max(limited_rss),
            "all_s": statistics.median(whole),
            "all_runs_s": whole,
            "all_max_rss_kb": max(whole_rss),
            "all_output_bytes": len(output),
            "hoorayd_hwm_before_kb": hwm_before,
            "hoorayd_hwm_after_kb": hwm_after,
            "version_s": statistics.median(version),
        }
    finally:
        if daemon:
            daemon.stop()
        world.stop()
        if not keep:
            subprocess.run(["rm", "-rf", root], check=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=".build/release")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    run_standalone("listing.py", lambda: measure(options.bin_dir, options.count, options.runs, options.keep),
                   options.json)


if __name__ == "__main__":
    main()
