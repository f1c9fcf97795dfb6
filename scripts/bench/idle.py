#!/usr/bin/python3
"""Benchmark: what an idle hoorayd costs — CPU time and wakeups (context switches) over a window.

hoorayd runs with every built-in plugin, one reminder and one habit due in hours, and nothing
else to do. After it has settled, every thread's voluntary + involuntary context switches
(/proc/PID/task/*/status) and CPU time (/proc/PID/task/*/schedstat, and utime + stime of
/proc/PID/stat) are read at the start and the end of the window; the difference is the idle
cost. References measured in the same window, side by side:

  IdleReference dispatch     a static Swift program that ran one block on DispatchQueue.global()
  IdleReference concurrency  the same with one Swift concurrency Task
  IdleReference plain        a static Swift program that only sleeps
  sleep                      coreutils sleep

Standard library only; run with /usr/bin/python3. Measures, asserts nothing.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from benchlib import (
    REPO_ROOT,
    Failure,
    Prerequisite,
    World,
    check_bus_prerequisites,
    die_with_parent,
    proc_cpu_seconds,
    proc_threads,
    progress,
    readline_with_timeout,
    resolve_binaries,
    stop_process,
    thread_window,
)

DEFAULT_REFERENCE = REPO_ROOT / "Benchmarks" / ".build" / "release" / "IdleReference"


def hhmm(moment):
    return moment.strftime("%H:%M")


def start_reference(command):
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=die_with_parent
    )
    return process


def measure(bin_dir, window=60.0, settle=5.0, reference=None, keep=False):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    reference = Path(reference) if reference else DEFAULT_REFERENCE
    root = tempfile.mkdtemp(prefix="hooray-bench-idle-")
    world = World(root)
    daemon = None
    references = {}
    try:
        world.start()
        later = datetime.now(timezone.utc) + timedelta(hours=5)
        world.config_file.write_text(
            world.user_config + f'\n[[plugins.reminders.reminder]]\ntitle = "Later today"\nat = "{hhmm(later)}"\n',
            encoding="utf-8",
        )
        world.run([hooray, "habit", "add", "Read 10 pages", "--remind", hhmm(later + timedelta(minutes=30))])
        daemon = world.start_daemon(hoorayd)
        status = json.loads(world.run([hooray, "status", "--json"]).stdout)

        # The references start now, so they settle together with the daemon.
        commands = {}
        if reference.is_file():
            for mode in ("dispatch", "concurrency", "plain"):
                commands[f"IdleReference {mode}"] = [str(reference), mode]
        commands["sleep"] = ["sleep", str(int(window + settle + 30))]
        for name, command in commands.items():
            process = start_reference(command)
            if name != "sleep" and not (readline_with_timeout(process.stdout, 10) or "").startswith("READY"):
                stop_process(process)
                continue
            references[name] = process

        progress(f"  idle: settling {settle:g} s, then measuring {window:g} s")
        time.sleep(settle)
        pids = {"hoorayd": daemon.pid} | {name: process.pid for name, process in references.items()}
        before = {name: (proc_threads(pid), proc_cpu_seconds(pid), time.monotonic()) for name, pid in pids.items()}
        time.sleep(window)
        after = {name: (proc_threads(pid), proc_cpu_seconds(pid), time.monotonic()) for name, pid in pids.items()}

        results = {}
        for name in pids:
            threads = thread_window(before[name][0], after[name][0])
            results[name] = {
                "window_s": after[name][2] - before[name][2],
                "switches": sum(row["switches"] or 0 for row in threads),
                "cpu_s": after[name][1] - before[name][1],
                "cpu_ms_schedstat": sum(row["cpu_ms"] or 0 for row in threads),
                "threads": threads,
            }
        return {
            "benchmark": "idle",
            "window_s": window,
            "settle_s": settle,
            "hoorayd_plugins": status.get("plugins"),
            "next_due": status.get("nextDue"),
            "reference_binary": str(reference) if reference.is_file() else None,
            "results": results,
        }
    finally:
        for process in references.values():
            stop_process(process)
        if daemon:
            daemon.stop()
        world.stop()
        if keep:
            progress(f"Kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def describe_threads(result):
    """`name (tid) N` for each thread that woke, busiest first; when none did, every thread's figure
    (`name 0`, `name ×2 0` for threads of the same name), so that the row shows what was measured."""
    woke = [row for row in result["threads"] if (row["switches"] or 0) > 0]
    woke.sort(key=lambda row: -row["switches"])
    if woke:
        return ", ".join(f"{row['comm']} ({row['tid']}) {row['switches']}" for row in woke)
    counts = {}
    for row in result["threads"]:
        if row["switches"] is not None:
            counts[row["comm"]] = counts.get(row["comm"], 0) + 1
    if not counts:
        return "none"
    every = ", ".join(f"{name} ×{count} 0" if count > 1 else f"{name} 0" for name, count in counts.items())
    return f"none; per thread: {every}"


def print_report(report):
    print("| process | window s | wakeups | CPU ms (schedstat) | CPU s (utime+stime) | threads that woke |")
    print("|---|---:|---:|---:|---:|---|")
    for name, result in report["results"].items():
        print(
            f"| {name} | {result['window_s']:.1f} | {result['switches']} | {result['cpu_ms_schedstat']:.2f} "
            f"| {result['cpu_s']:.2f} | {describe_threads(result)} |"
        )
    print()
    print("| process | thread (tid) | waits in (wchan) | wakeups | CPU ms |")
    print("|---|---|---|---:|---:|")
    for name, result in report["results"].items():
        for row in result["threads"]:
            switches = "—" if row["switches"] is None else row["switches"]
            cpu = "—" if row["cpu_ms"] is None else f"{row['cpu_ms']:.2f}"
            state = f" ({row['state']})" if row.get("state") else ""
            print(f"| {name} | {row.get('comm', '?')} ({row['tid']}){state} | {row.get('wchan', '')} | {switches} | {cpu} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "release"))
    parser.add_argument("--window", type=float, default=60.0)
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--reference", help=f"the IdleReference program (default {DEFAULT_REFERENCE})")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    try:
        report = measure(options.bin_dir, options.window, options.settle, options.reference, options.keep)
    except Prerequisite as error:
        sys.exit(f"idle.py: {error}")
    except Failure as error:
        print(f"idle.py: {error}", file=sys.stderr)
        sys.exit(1)
    print_report(report)
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
