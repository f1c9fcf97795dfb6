#!/usr/bin/python3
"""Benchmark: hoorayd's memory with every built-in plugin and 10,000 habits of a year's history.

A habit made by the real CLI (`hooray habit add ... --remind 20:00`) is cloned in the database
into N habits (default 10,000), each with a year of completions, a pause and a reset
(habit_list.populate). hoorayd then starts with all built-in plugins (the habits plugin plans
one reminder per habit). Read from /proc/PID/status:

  idle   VmRSS once hoorayd has answered `hooray status` and rested 3 s
  peak   VmHWM after that, after `hooray habit done` went through the daemon (which reads every
         habit) and `hooray habit list` ran beside it, and after 3 s more of rest

A third start with MALLOC_ARENA_MAX=1 tells retained-but-free memory of glibc's per-thread
arenas from live data (--no-diagnosis leaves it out).

References, same run: a static Swift program that used a little Foundation and sleeps
(IdleReference foundation), and hoorayd with no data. The CLI's own peak (`hooray habit list`,
ru_maxrss from wait4) is reported too.

The floor, same run, when they are built beside IdleReference (`make bench` builds them): the same
kind of program with FoundationEssentials alone, no ICU (EssentialsReference), and with no
Foundation at all (PlainReference). Each reading also splits the resident set by mapping, from
/proc/PID/smaps: the executable's own pages (RssExecutable: the static Swift runtime, Foundation,
ICU data, hoorayd's code), the shared libraries' (RssLibraries) and the rest (anonymous).

Standard library only; run with /usr/bin/python3. Measures, asserts nothing.
"""

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from datetime import date
from pathlib import Path

import habit_list
import pages
from benchlib import (
    run_standalone,
    REPO_ROOT,
    Failure,
    World,
    check_bus_prerequisites,
    die_with_parent,
    proc_kb,
    proc_status,
    progress,
    readline_with_timeout,
    resolve_binaries,
    stop_process,
)

DEFAULT_REFERENCE = REPO_ROOT / "Benchmarks" / ".build" / "release" / "IdleReference"
FIELDS = ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem", "VmSize")


def mapping_split(pid):
    """Resident kB of the executable's own mappings and of the shared libraries', from smaps."""
    executable = os.path.realpath(f"/proc/{pid}/exe")
    split = {"RssExecutable": 0, "RssLibraries": 0}
    current = None
    try:
        with open(f"/proc/{pid}/smaps") as smaps:
            for line in smaps:
                fields = line.split()
                if fields and not fields[0].endswith(":"):
                    path = fields[5] if len(fields) > 5 else ""
                    current = (
                        "RssExecutable"
                        if path == executable
                        else "RssLibraries" if ".so" in os.path.basename(path) else None
                    )
                elif fields and fields[0] == "Rss:" and current:
                    split[current] += int(fields[1])
    except OSError:
        pass
    return split


def reading(pid):
    status = proc_status(pid)
    values = {name: proc_kb(status, name) for name in FIELDS}
    values["Threads"] = int(status.get("Threads", "0"))
    values.update(mapping_split(pid))
    return values


def reference_reading(program, arguments=()):
    """The resident set of a reference program once it says READY and has rested 1 s; None when
    it does not start."""
    process = subprocess.Popen(
        [str(program), *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=die_with_parent,
    )
    try:
        if (readline_with_timeout(process.stdout, 10) or "").startswith("READY"):
            time.sleep(1)
            return reading(process.pid)
        return None
    finally:
        stop_process(process)


def other_program_reading(command, environment, ready, settle=2.0):
    """The resident set of another program once `ready(pid)` says it is up and it has rested
    `settle` s; None when it is not installed or does not come up within 10 s."""
    if not shutil.which(command[0]):
        return None
    process = subprocess.Popen(
        command, env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, preexec_fn=die_with_parent,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and process.poll() is None:
            if ready(process.pid):
                time.sleep(settle)
                return reading(process.pid) if process.poll() is None else None
            time.sleep(0.05)
        return None
    finally:
        stop_process(process)


def desktop_neighbours(world):
    """What the desktop's own small daemons hold, measured here beside hoorayd: dunst (the
    notification server hoorayd talks to, on this world's bus and an Xvfb display) and `remind -z`
    (a reminder daemon in C). Each is None when it is not installed."""
    readings = {}
    # dunst takes the bus name only when no other server has it: this world's server is stopped for it.
    if shutil.which("dunst") and shutil.which("Xvfb"):
        xvfb = subprocess.Popen(
            ["Xvfb", ":97", "-screen", "0", "640x480x24", "-nolisten", "tcp"], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=die_with_parent,
        )
        try:
            time.sleep(1)
            config = Path(world.root) / "dunstrc"
            config.write_text("[global]\n    monitor = 0\n    follow = none\n", encoding="utf-8")
            environment = world.environment({"DISPLAY": ":97"})
            readings["dunst"] = other_program_reading(
                ["dunst", "-config", str(config)], environment,
                lambda pid: subprocess.run(
                    ["dunstctl", "is-paused"], env=environment, capture_output=True, timeout=5
                ).returncode == 0,
            )
        finally:
            stop_process(xvfb)
    if shutil.which("remind"):
        reminders = Path(world.root) / "reminders.rem"
        reminders.write_text("REM Mon AT 20:00 MSG Water the plants\nREM Fri AT 09:00 MSG Weekly review\n")
        # -z1: wake every minute; its first pass is done once it sleeps (its state is S, not R).
        readings["remind"] = other_program_reading(
            ["remind", "-z1", str(reminders)], world.environment(),
            lambda pid: Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "S",
        )
    return readings


def wait_for_status(world, hooray, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if world.run([hooray, "status", "--json"], check=False).returncode == 0:
            return True
        time.sleep(0.05)
    return False


def run_with_peak(world, command):
    """Runs a program to its end; returns (exit status, its peak RSS in kB from wait4)."""
    process = subprocess.Popen(
        [str(part) for part in command],
        env=world.environment(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise Failure(f"{' '.join(map(str, command))} failed: {process.stderr.read().decode()[-2000:]}")
    return usage.ru_maxrss


def daemon_readings(world, hooray, hoorayd, work, extra=None):
    daemon = world.start_daemon(hoorayd, extra=extra, timeout=180)
    try:
        if not wait_for_status(world, hooray):
            raise Failure("hoorayd did not answer `hooray status`")
        time.sleep(3)
        idle = reading(daemon.pid)
        try:
            # Where the resident set lies: the executable's sections, each library, the heap.
            _, idle["pages"] = pages.profile(daemon.pid)
        except (OSError, subprocess.CalledProcessError) as error:
            idle["pages"] = {"error": str(error)}
        extra = work(daemon) if work else {}
        time.sleep(3)
        after = reading(daemon.pid)
        return {"idle": idle, "after": after, **extra}
    finally:
        daemon.stop()


def measure(bin_dir, habits=10_000, reference=None, keep=False, diagnose=True):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    reference = Path(reference) if reference else DEFAULT_REFERENCE
    report = {"benchmark": "memory", "habits": habits}
    root = tempfile.mkdtemp(prefix="hooray-bench-memory-")
    world = World(root)
    try:
        world.start()
        # hoorayd with no data at all, as a reference.
        progress("  memory: hoorayd with no data")
        report["empty"] = daemon_readings(world, hooray, hoorayd, None)

        world.run([hooray, "habit", "add", "Template", "--remind", "20:00"])
        habit_list.populate(world.database, habits, date.today())
        report["database_bytes"] = world.database.stat().st_size

        def work(daemon):
            started = time.monotonic()
            world.run([hooray, "habit", "done", "Habit 0001"])
            done_ms = (time.monotonic() - started) * 1000
            started = time.monotonic()
            cli_peak = run_with_peak(world, [hooray, "habit", "list"])
            list_ms = (time.monotonic() - started) * 1000
            return {"habit_done_ms": done_ms, "habit_list_ms": list_ms, "cli_habit_list_peak_kb": cli_peak}

        progress(f"  memory: hoorayd with {habits:,} habits of a year's history")
        report["habits_run"] = daemon_readings(world, hooray, hoorayd, work)
        if diagnose:
            # The same with glibc limited to one malloc arena: what stays after the work is then
            # freed memory glibc keeps per thread, rather than live data.
            progress("  memory: the same with MALLOC_ARENA_MAX=1 (diagnosis)")
            report["one_arena"] = daemon_readings(world, hooray, hoorayd, work, extra={"MALLOC_ARENA_MAX": "1"})
        stop_process(world.server)
        progress("  memory: dunst and remind -z, beside it")
        try:
            report["neighbours"] = desktop_neighbours(world)
        except (OSError, subprocess.SubprocessError) as error:
            # The references are beside the point: hoorayd's figures stand without them.
            progress(f"  memory: dunst and remind -z not measured: {error}")
            report["neighbours"] = {}
    finally:
        world.stop()
        if keep:
            progress(f"Kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)

    if reference.is_file():
        measured = reference_reading(reference, ["foundation"])
        if measured:
            report["reference"] = measured
    # The floor: the same kind of program with FoundationEssentials alone, and with no Foundation;
    # and each of the three linked dynamically to the toolchain's Swift libraries (Benchmarks/.build-dynamic).
    dynamic = REPO_ROOT / "Benchmarks" / ".build-dynamic" / "release"
    for key, folder, name, arguments in (
        ("reference_essentials", reference.parent, "EssentialsReference", []),
        ("reference_plain", reference.parent, "PlainReference", []),
        ("reference_dynamic", dynamic, "IdleReference", ["foundation"]),
        ("reference_dynamic_essentials", dynamic, "EssentialsReference", []),
        ("reference_dynamic_plain", dynamic, "PlainReference", []),
    ):
        program = folder / name
        if program.is_file():
            measured = reference_reading(program, arguments)
            if measured:
                report[key] = measured
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "release"))
    parser.add_argument("--habits", type=int, default=10_000)
    parser.add_argument(
        "--reference",
        help=f"the IdleReference program (default {DEFAULT_REFERENCE}); EssentialsReference and PlainReference "
        "are looked for beside it",
    )
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--no-diagnosis", action="store_true", help="skip the MALLOC_ARENA_MAX=1 start")
    options = parser.parse_args()
    run_standalone("memory.py", lambda: measure(options.bin_dir, options.habits, options.reference, options.keep, not options.no_diagnosis), options.json)


if __name__ == "__main__":
    main()
