#!/usr/bin/python3
"""Benchmark: the desktop app's cold start, to its first drawn frame, under Xvfb.

Figures, each the time from spawning the process to the first frame of its window painted:

  - `hooray-app`: its window with Home (hoorayd running, one moment logged, so not the first run);
  - `hooray-app --quick`: the small window to log a moment;
  - reference, same run: a minimal GTK 4 / libadwaita program (gtk_reference.c: an AdwApplication
    whose window has a header bar, a line of text and a button), built here with -O2 and the release
    build's linker flags (relro, now), as `make bench-build` builds the app.

"Drawn" is GTK's own signal: the first `after-paint` of the window's GdkFrameClock (laid out, drawn
and handed to the X server), which the programs report on their standard error with the
CLOCK_MONOTONIC time (`hooray-app` with HOORAY_APP_REPORT_FIRST_FRAME=1); the spawn is stamped
with the same clock just before `fork`. Each program then gets SIGTERM. The three programs take
turns, run after run, so that the machine's load falls on each alike; the first runs are warm-up.
"Cold" means a new process, not an empty page cache (that needs root): files are cached after the
warm-up, as they are on a desktop where the app ran before.

Renderer: GSK_RENDERER=cairo, GDK_BACKEND=x11 (no GPU under Xvfb).

This is a benchmark, not a test: it asserts nothing about time. Standard library only.
"""

import argparse
import os
import re
import select
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchlib import (
    REPO_ROOT,
    Failure,
    Prerequisite,
    World,
    check_bus_prerequisites,
    progress,
    resolve_binaries,
    run_standalone,
    stop_process,
)

REFERENCE_SOURCE = Path(__file__).with_name("gtk_reference.c")
FRAME_LINE = re.compile(r"first frame painted \(GdkFrameClock after-paint\): (.*) at CLOCK_MONOTONIC (\d+) ns")
SIGNAL = "the first after-paint of the window's GdkFrameClock (GTK's first frame: laid out, drawn, handed to X)"


def build_reference(directory):
    """Compiles gtk_reference.c with the release flags; returns the program's path."""
    if shutil.which("cc") is None:
        raise Prerequisite("no C compiler for the GTK reference; install it with: apt-get install gcc")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libadwaita-1"], capture_output=True, text=True)
    if flags.returncode != 0:
        raise Prerequisite("libadwaita's headers are missing; install them with: apt-get install libadwaita-1-dev")
    program = Path(directory) / "gtk-reference"
    built = subprocess.run(
        ["cc", "-O2", "-Wl,-z,relro", "-Wl,-z,now", "-o", str(program), str(REFERENCE_SOURCE)] + flags.stdout.split(),
        capture_output=True, text=True)
    if built.returncode != 0:
        raise Failure(f"the GTK reference did not build:\n{built.stderr[-2000:]}")
    return program


def start_xvfb(logs):
    """An X server of its own; returns (process, display name)."""
    if shutil.which("Xvfb") is None:
        raise Prerequisite("Xvfb is missing; install it with: apt-get install xvfb")
    # It picks a free display and says which on its standard output once it is ready.
    process = subprocess.Popen(
        ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"], stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=open(Path(logs) / "xvfb.log", "wb"))
    ready, _, _ = select.select([process.stdout], [], [], 20)
    number = process.stdout.readline().decode().strip() if ready else ""
    if not number.isdigit():
        stop_process(process)
        raise Failure("Xvfb did not start within 20 s: " + (Path(logs) / "xvfb.log").read_text(errors="replace")[-1000:])
    return process, ":" + number


def first_frame(command, environment, timeout=30.0):
    """Spawns `command`, waits for its first-frame line, stops it; returns (ms from spawn, window title)."""
    spawned = time.monotonic_ns()
    process = subprocess.Popen(
        [str(part) for part in command], env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE)
    said = b""
    deadline = time.monotonic() + timeout
    try:
        while True:
            match = FRAME_LINE.search(said.decode(errors="replace"))
            if match:
                return (int(match.group(2)) - spawned) / 1e6, match.group(1)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or process.poll() is not None:
                raise Failure(f"{' '.join(map(str, command))} reported no first frame within {timeout:g} s "
                              f"(exit status {process.poll()}): {said.decode(errors='replace')[-2000:]}")
            ready, _, _ = select.select([process.stderr], [], [], min(remaining, 0.5))
            if ready:
                said += os.read(process.stderr.fileno(), 65536)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stderr.close()


def summary(values):
    ordered = sorted(values)
    return {
        "median_ms": statistics.median(ordered),
        "min_ms": ordered[0],
        "max_ms": ordered[-1],
        "stdev_ms": statistics.stdev(ordered) if len(ordered) > 1 else 0.0,
        "runs_ms": [round(value, 1) for value in values],
    }


def measure(bin_dir, runs=10, warmup=2, keep=False):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    app = Path(bin_dir).absolute() / "hooray-app"
    if not os.access(app, os.X_OK):
        raise Prerequisite(f"no executable {app}; build it first (`make bench-build`) or name the folder with --bin-dir")
    root = tempfile.mkdtemp(prefix="hooray-bench-app-")
    world = World(root).start()
    xvfb = daemon = None
    try:
        reference = build_reference(root)
        xvfb, display = start_xvfb(world.logs)
        daemon = world.start_daemon(hoorayd)
        world.run([hooray, "win", "Took a short walk"])
        environment = world.environment({
            "DISPLAY": display, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "HOORAY_APP_REPORT_FIRST_FRAME": "1",
        })
        programs = {
            "app": ([app], "Hooray"),
            "quick": ([app, "--quick"], "Log a moment"),
            "reference": ([reference], "Reference"),
        }
        figures = {name: [] for name in programs}
        for run in range(warmup + runs):
            for name, (command, title) in programs.items():
                elapsed, drawn = first_frame(command, environment)
                if drawn != title:
                    raise Failure(f"{' '.join(map(str, command))} drew “{drawn}” first, not “{title}”")
                if run >= warmup:
                    figures[name].append(elapsed)
            progress(f"[app] run {run + 1}/{warmup + runs}: " + ", ".join(
                f"{name} {figures[name][-1]:.0f} ms" for name in programs if run >= warmup))
        return {
            "runs": runs,
            "warmup": warmup,
            "signal": SIGNAL,
            "renderer": "GSK_RENDERER=cairo, GDK_BACKEND=x11, Xvfb 1280x800x24",
            "reference_build": "cc -O2 -Wl,-z,relro -Wl,-z,now (scripts/bench/gtk_reference.c)",
            "results": {name: summary(values) for name, values in figures.items()},
        }
    finally:
        if daemon:
            daemon.stop()
        if xvfb:
            stop_process(xvfb)
        world.stop()
        if not keep:
            subprocess.run(["rm", "-rf", root], check=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build-bench" / "release"))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    run_standalone("app_start.py", lambda: measure(options.bin_dir, options.runs, options.warmup, options.keep),
                   options.json)


if __name__ == "__main__":
    main()
