#!/usr/bin/python3
"""Benchmark of sync: a year of heavy use reaching a new computer through a sync folder.

The year is the database-size row's (scale.py dbsize: 20 habits with a year of days, 3,650 moments
with AI praise, 5 reminders a day), made by the real binaries and cloned. Then, with real hoorayd
processes on private buses:

  send       `hooray sync setup FOLDER` on the first computer: the time the setup takes (every record
             written down as changes), and the time until `hooray sync status` has nothing left to
             send; the segments and their bytes.
  segments   a new computer joins a copy of that folder (segments only): the time from its
             `hooray sync setup --phrase` until its database holds every record of the first.
  snapshot   the first computer compacts (HOORAY_SYNC_COMPACT_AFTER=1 and one more win): the
             snapshot's bytes; then another new computer joins the compacted folder, timed the same way.

Standard library only; run with /usr/bin/python3. Measures, asserts nothing.
"""

import argparse
import json
import shutil
import sqlite3
import tempfile
import time
from datetime import date
from pathlib import Path

import scale
from benchlib import REPO_ROOT, Failure, World, check_bus_prerequisites, progress, resolve_binaries, run_standalone


def record_count(database):
    """How many records a database holds, read beside the hoorayd that has it open."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)
    try:
        return connection.execute("SELECT COUNT(*) FROM record").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        connection.close()


def folder_files(folder, suffix):
    files = [path for path in Path(folder).rglob(f"*{suffix}") if path.is_file()]
    return len(files), sum(path.stat().st_size for path in files)


def wait_until(condition, timeout, what, poll=0.1):
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(poll)
    raise Failure(f"{what} within {timeout:g} s")


def sync_status(world, hooray):
    return json.loads(world.run([hooray, "sync", "status", "--json"]).stdout)


def join(root, name, hooray, hoorayd, folder, phrase, target):
    """A new computer joining `folder`: seconds from its setup until it holds `target` records."""
    world = World(Path(root) / name)
    world.start()
    daemon = world.start_daemon(hoorayd)
    try:
        started = time.monotonic()
        world.run([hooray, "sync", "setup", folder, "--phrase", phrase])
        wait_until(lambda: record_count(world.database) >= target, 600, f"the {name} computer did not catch up")
        seconds = time.monotonic() - started
        return {"seconds": seconds, "records": record_count(world.database), "database_bytes": scale.vacuumed_size(world.database)}
    finally:
        daemon.stop()
        world.stop()


def measure(bin_dir, keep=False):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    root = tempfile.mkdtemp(prefix="hooray-bench-sync-")
    result = {"benchmark": "sync"}
    first = World(Path(root) / "first")
    try:
        folder = Path(root) / "Sync"
        folder.mkdir()
        first.start()
        progress("sync: building a year of heavy use")
        scale.make_templates(first, hooray, hoorayd)
        result["year"] = scale.clone_year(first.database, date.today())
        records = record_count(first.database)
        result["records"] = records
        daemon = first.start_daemon(hoorayd)
        try:
            progress("sync: sending it")
            started = time.monotonic()
            setup = first.run([hooray, "sync", "setup", folder])
            result["setup_seconds"] = time.monotonic() - started
            line = next((line for line in setup.stdout.splitlines() if "Pairing phrase: " in line), None)
            if line is None:
                raise Failure(f"`hooray sync setup` printed no pairing phrase:\n{setup.stdout}")
            phrase = line.split("Pairing phrase: ", 1)[1].strip()
            wait_until(
                lambda: sync_status(first, hooray)["unsent"] == 0 and sync_status(first, hooray).get("last_sent"),
                600, "the first computer did not send everything")
            result["send_seconds"] = time.monotonic() - started
            result["segments"], result["segment_bytes"] = folder_files(folder, ".seg")
            copy = Path(root) / "SyncCopy"
            shutil.copytree(folder, copy)
        finally:
            daemon.stop()

        progress("sync: a new computer joins from the segments")
        result["from_segments"] = join(root, "second", hooray, hoorayd, copy, phrase, records)

        progress("sync: compacting")
        daemon = first.start_daemon(hoorayd, extra={"HOORAY_SYNC_COMPACT_AFTER": "1"})
        try:
            started = time.monotonic()
            first.run([hooray, "win", "One more for the snapshot"])
            wait_until(lambda: folder_files(folder, ".snap")[0] == 1 and folder_files(folder, ".seg")[0] == 0, 600,
                       "the first computer did not compact")
            result["compact_seconds"] = time.monotonic() - started
            result["snapshot_bytes"] = folder_files(folder, ".snap")[1]
        finally:
            daemon.stop()
        progress("sync: a new computer joins from the snapshot")
        result["from_snapshot"] = join(root, "third", hooray, hoorayd, folder, phrase, records + 1)
        return result
    finally:
        first.stop()
        if keep:
            progress(f"Kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def summary(report):
    mb = lambda value: f"{value / 1e6:.1f} MB"  # noqa: E731
    return "\n".join([
        f"{report['records']:,} records: setup {report['setup_seconds']:.1f} s, all sent after {report['send_seconds']:.1f} s "
        f"in {report['segments']} segments ({mb(report['segment_bytes'])})",
        f"new computer from the segments: {report['from_segments']['seconds']:.1f} s "
        f"(its database {mb(report['from_segments']['database_bytes'])})",
        f"snapshot {mb(report['snapshot_bytes'])} written in {report['compact_seconds']:.1f} s; new computer from it: "
        f"{report['from_snapshot']['seconds']:.1f} s",
    ])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "release"))
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()

    def measure_and_summarise():
        report = measure(options.bin_dir, keep=options.keep)
        progress(summary(report))
        return report

    run_standalone("sync_catchup.py", measure_and_summarise, options.json)


if __name__ == "__main__":
    main()
