#!/usr/bin/python3
"""Benchmark: how long `hooray win "..."` takes to put its notification on the screen.

Measures the time from spawning a program to its first Notify call reaching a headless
notification server, for three variants, and prints p50/p95 as a Markdown table:

  notify-send        notify-send "Moment logged" "Took a short walk"   (the baseline)
  hooray win (daemon)  hooray win "Took a short walk" while hoorayd runs (CLI -> control socket -> daemon)
  hooray win (no daemon)  the same with no hoorayd: the CLI hosts the wins plugin and posts itself

Everything runs on a private D-Bus session bus, with Hooray's test server
(Tests/SystemTesting/notification_server.py) as the notification server, in a temporary
HOME with its own XDG folders: the user's real data, bus and desktop are never touched.

This is a benchmark, not a test: it asserts nothing about time. Exit codes: 0 done,
1 something failed (a run timed out, a program failed), 2 a prerequisite is missing.

Standard library only; run it with /usr/bin/python3 (the server needs Debian's python3-dbus-next).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchlib import (  # noqa: F401  (re-exported: older scripts imported these from here)
    BUS_CONFIG,
    REPO_ROOT,
    SERVER_PYTHON,
    SERVER_SCRIPT,
    USER_CONFIG,
    Failure,
    Prerequisite,
    RecordReader,
    World,
    _die_with_parent,
    _readline_with_timeout,
    check_bus_prerequisites,
    debian_version,
    machine_description,
    percentile,
    program_version,
    stop_process,
    wait_for_file_text,
)

SUMMARY = "Moment logged"
DEFAULT_TEXT = "Took a short walk"
POLL_INTERVAL = 0.001  # seconds between reads of the record file


# ---------------------------------------------------------------------------------------------
# One measured run.


def measure_once(command, environment, reader, timeout, log_path):
    """Spawns `command` and waits for its first notification and its exit.

    Returns a dict: latency_ms (server's monotonic timestamp of the first Notify minus the
    monotonic time just before spawning), exit_ms (spawn to exit, as seen by a waiter thread),
    status, summary, strays (records that arrived during this run but were stamped before it
    started, i.e. late notifications of an earlier run), extra (further notifications during
    the run).
    """
    before = reader.count()
    exited = {}

    with open(log_path, "wb") as log:
        start = time.monotonic()
        process = subprocess.Popen(command, env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=log)

        def wait_for_exit():
            status = process.wait()
            exited["at"] = time.monotonic()
            exited["status"] = status

        waiter = threading.Thread(target=wait_for_exit, daemon=True)
        waiter.start()

        deadline = start + timeout
        match = None
        strays = 0
        seen = before
        while True:
            reader.refresh()
            for entry in reader.notifications[seen:]:
                seen += 1
                if match is None and entry["monotonic"] >= start:
                    match = entry
                elif match is None:
                    strays += 1
            if match is not None and "at" in exited:
                break
            if time.monotonic() > deadline:
                break
            time.sleep(POLL_INTERVAL)

        if "at" not in exited:
            process.kill()
            waiter.join(5)
            raise Failure(
                f"{' '.join(command)} did not exit within {timeout:g} s; output in {log_path}"
            )
        waiter.join()
    if match is None:
        output = Path(log_path).read_text(errors="replace").strip()
        raise Failure(
            f"no notification within {timeout:g} s of starting {' '.join(command)}"
            f" (exit status {exited['status']}); its output:\n{output}"
        )
    if exited["status"] != 0:
        output = Path(log_path).read_text(errors="replace").strip()
        raise Failure(f"{' '.join(command)} exited with status {exited['status']}:\n{output}")
    reader.refresh()
    return {
        "latency_ms": (match["monotonic"] - start) * 1000.0,
        "exit_ms": (exited["at"] - start) * 1000.0,
        "summary": match.get("summary"),
        "app_name": match.get("app_name"),
        "pid": process.pid,
        # libnotify adds the posting process's pid: tells whether the daemon or the CLI posted.
        "sender_pid": (match.get("hints") or {}).get("sender-pid"),
        "strays": strays,
        "extra": len(reader.notifications) - before - strays - 1,
        "start": start,
    }


def measure_variant(name, command, environment, reader, runs, warmups, timeout, logs, alive=None):
    """Warm-up runs, then `runs` measured runs; progress goes to stderr."""
    results = {"name": name, "command": command, "warmup": [], "runs": []}
    total = warmups + runs
    for index in range(total):
        if alive is not None and alive.poll() is not None:
            raise Failure(f"hoorayd exited (status {alive.returncode}) during '{name}'")
        outcome = measure_once(command, environment, reader, timeout, logs / f"{_slug(name)}-last.log")
        (results["warmup"] if index < warmups else results["runs"]).append(outcome)
        if sys.stderr.isatty():
            print(f"\r  {name}: {index + 1}/{total}", end="", file=sys.stderr, flush=True)
    print(f"\r  {name}: {total} runs done ({warmups} warm-up)", file=sys.stderr, flush=True)
    return results


def time_exits(command, environment, runs, warmups):
    """Spawn-to-exit times (ms) of a command, after `warmups` runs that are not counted."""
    figures = []
    for index in range(warmups + runs):
        start = time.monotonic()
        subprocess.run(command, env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        if index >= warmups:
            figures.append((time.monotonic() - start) * 1000.0)
    return figures


def _slug(text):
    return "-".join("".join(c if c.isalnum() else " " for c in text).split())


# ---------------------------------------------------------------------------------------------
# A following status bar.


class BarFollower:
    """`hooray bar --format waybar --follow`, its lines stamped with time.monotonic() as they come."""

    def __init__(self, hooray, environment, log_path):
        self.lines = []
        self.condition = threading.Condition()
        self.process = subprocess.Popen(
            [str(hooray), "bar", "--format", "waybar", "--follow"],
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=open(log_path, "wb"),
            preexec_fn=_die_with_parent,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.process.stdout:
            stamp = time.monotonic()
            with self.condition:
                self.lines.append((stamp, raw.decode("utf-8", errors="replace").rstrip("\n")))
                self.condition.notify_all()

    def count(self):
        with self.condition:
            return len(self.lines)

    def wait_for_line(self, after, timeout, matching=lambda line: True):
        """The first (stamp, line) past the first `after` lines that `matching` accepts; None after
        `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for entry in self.lines[after:]:
                    if matching(entry[1]):
                        return entry
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.condition.wait(left)

    def stop(self):
        stop_process(self.process)
        self.reader.join(5)


def todays_count(line):
    """The count after 🏆 in a waybar line's text; None when the line is not such JSON."""
    try:
        parsed = json.loads(line)
    except ValueError:
        return None
    text = parsed.get("text") if isinstance(parsed, dict) else None
    found = re.search(r"🏆 (\d+)", text) if isinstance(text, str) else None
    return int(found.group(1)) if found else None


WAYBAR_KEYS = {"text", "tooltip", "class", "alt", "percentage"}


def is_waybar_object(line):
    """Whether a line is one JSON object with waybar's keys (a `stopped` line counts too)."""
    try:
        parsed = json.loads(line)
    except ValueError:
        return False
    return isinstance(parsed, dict) and WAYBAR_KEYS <= parsed.keys()


def measure_bar_follow(hooray, environment, reader, runs, warmups, timeout, logs, text):
    """`hooray win` spawned → the next line of a following waybar bar, beside the same run's Notify.

    Each run spawns `hooray win` while `hooray bar --format waybar --follow` runs (hoorayd pushes
    it a line because today's count changed) and takes the time from just before the spawn to the
    monotonic stamp of the bar's next line, and to the server's receipt of the win's notification:
    the notification is the reference, measured in the same run.
    """
    follower = BarFollower(hooray, environment, logs / "bar-follow.log")
    try:
        first = follower.wait_for_line(0, timeout, lambda line: todays_count(line) is not None)
        if first is None:
            raise Failure(
                f"hooray bar --follow printed no line with today's count within {timeout:g} s:\n"
                + (logs / "bar-follow.log").read_text(errors="replace")
            )
        count = todays_count(first[1])
        bar_ms, notify_ms = [], []
        for index in range(warmups + runs):
            seen = follower.count()
            count += 1
            outcome = measure_once([str(hooray), "win", text], environment, reader, timeout,
                                   logs / "bar-follow-win-last.log")
            # The line that counts this run's entry, not a late line of the run before.
            line = follower.wait_for_line(seen, timeout, lambda line: todays_count(line) == count)
            if line is None:
                raise Failure(
                    f"no bar line counting {count} within {timeout:g} s of `hooray win` (run {index + 1}): "
                    f"{[entry[1] for entry in follower.lines[seen:]]}"
                )
            if index >= warmups:
                bar_ms.append((line[0] - outcome["start"]) * 1000.0)
                notify_ms.append(outcome["latency_ms"])
        print(f"  bar --follow: {warmups + runs} runs done ({warmups} warm-up)", file=sys.stderr, flush=True)
        return {
            "runs": runs,
            "p50_ms": percentile(bar_ms, 0.50),
            "p95_ms": percentile(bar_ms, 0.95),
            "max_ms": max(bar_ms),
            "notify_p50_ms": percentile(notify_ms, 0.50),
            "notify_p95_ms": percentile(notify_ms, 0.95),
            "not_json_lines": sum(not is_waybar_object(line) for _, line in follower.lines),
            "bar_ms": bar_ms,
        }
    finally:
        follower.stop()


# ---------------------------------------------------------------------------------------------
# The daemon.


def start_daemon(hoorayd, environment, logs, timeout=30.0):
    log_path = logs / "hoorayd.log"
    daemon = subprocess.Popen(
        [str(hoorayd)],
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=open(logs / "hoorayd.stdout", "wb"),
        stderr=open(log_path, "wb"),
        preexec_fn=_die_with_parent,
    )
    if not wait_for_file_text(log_path, "hoorayd is running", daemon, timeout):
        status = stop_process(daemon)
        raise Failure(
            f"hoorayd did not say it is running within {timeout:g} s (exit status {status}):\n"
            + log_path.read_text(errors="replace")
        )
    return daemon


# ---------------------------------------------------------------------------------------------
# Statistics and output.




def summarize(results, daemon_pid=None):
    latency = [run["latency_ms"] for run in results["runs"]]
    exit_times = [run["exit_ms"] for run in results["runs"]]
    return {
        "runs": len(latency),
        "p50_ms": percentile(latency, 0.50),
        "p95_ms": percentile(latency, 0.95),
        "min_ms": min(latency),
        "max_ms": max(latency),
        "mean_ms": statistics.fmean(latency),
        "stdev_ms": statistics.stdev(latency) if len(latency) > 1 else 0.0,
        "exit_p50_ms": percentile(exit_times, 0.50),
        "exit_p95_ms": percentile(exit_times, 0.95),
        "warmup_latency_ms": [run["latency_ms"] for run in results["warmup"]],
        "strays": sum(run["strays"] for run in results["runs"] + results["warmup"]),
        "extra": sum(run["extra"] for run in results["runs"] + results["warmup"]),
        "summaries": sorted({str(run["summary"]) for run in results["runs"]}),
        "posted_by": _posters(results["runs"], daemon_pid),
    }


def _posters(runs, daemon_pid):
    """How many runs' notifications each kind of process posted, by the sender-pid hint."""
    counts = {}
    for run in runs:
        sender = run.get("sender_pid")
        if sender is None:
            kind = "unknown"
        elif sender == run["pid"]:
            kind = "the measured process"
        elif daemon_pid is not None and sender == daemon_pid:
            kind = "hoorayd"
        else:
            kind = "another process"
        counts[kind] = counts.get(kind, 0) + 1
    return counts








def print_table(report):
    baseline = next(v for v in report["variants"] if v["key"] == "notify-send")["summary"]["p50_ms"]
    print("| variant | runs | p50 ms | p95 ms | exit p50 ms | exit p95 ms | ratio p50 vs notify-send |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for variant in report["variants"]:
        s = variant["summary"]
        ratio = s["p50_ms"] / baseline if baseline > 0 else float("nan")
        print(
            f"| {variant['name']} | {s['runs']} | {s['p50_ms']:.1f} | {s['p95_ms']:.1f} "
            f"| {s['exit_p50_ms']:.1f} | {s['exit_p95_ms']:.1f} | {ratio:.2f}x |"
        )
    print()
    m = report["machine"]
    print(
        f"Machine: {m['nproc']} CPU(s) ({m['cpu']}), {m['kernel']}. "
        f"Binaries: {report['binaries']['bin_dir']} ({report['binaries']['build']} build, "
        f"{report['binaries']['bin_dir_source']}; {report['binaries']['hooray_version']}), "
        f"notify-send {report['binaries']['notify_send']} (libnotify-bin {report['binaries']['libnotify_bin']}). "
        f"Latency: spawn to the server's receipt of the first Notify; exit: spawn to process exit; "
        f"{report['warmups']} warm-up runs per variant not counted."
    )
    bar = report.get("bar_follow")
    if bar:
        print(
            f"hooray bar --format waybar --follow: a new line p50 {bar['p50_ms']:.1f} ms, p95 {bar['p95_ms']:.1f} ms "
            f"after `hooray win` was spawned ({bar['runs']} runs; the same runs' notification: p50 "
            f"{bar['notify_p50_ms']:.1f} ms, p95 {bar['notify_p95_ms']:.1f} ms; lines not JSON: {bar['not_json_lines']})."
        )
    starts = "; ".join(
        f"{name}: p50 {figures['p50_ms']:.1f} ms, p95 {figures['p95_ms']:.1f} ms"
        for name, figures in report.get("process_start", {}).items()
    )
    if starts:
        print(f"Process start alone (spawn to exit): {starts}.")
    libraries = "; ".join(
        f"{name}: {len(listed)}" if listed is not None else f"{name}: (ldd failed)"
        for name, listed in report.get("libraries", {}).items()
    )
    if libraries:
        print(f"Shared libraries (ldd): {libraries}.")


# ---------------------------------------------------------------------------------------------


def resolve_bin_dir(given):
    if given:
        directory = Path(given)
        source = "--bin-dir"
    else:
        release = REPO_ROOT / ".build" / "release"
        debug = REPO_ROOT / ".build" / "debug"
        if all((release / name).is_file() for name in ("hooray", "hooray-cli", "hoorayd")):
            directory, source = release, "default"
        else:
            directory, source = debug, "fallback: no release build"
    directory = directory.absolute()
    # hooray is the front door; it runs hooray-cli, the full program, beside it.
    for program in ("hooray", "hooray-cli", "hoorayd"):
        if not os.access(directory / program, os.X_OK):
            raise Prerequisite(
                f"no executable {directory / program}; build it first (`swift build -c release`) "
                "or name the folder with --bin-dir"
            )
    parts = Path(os.path.realpath(directory)).parts
    build = "release" if "release" in parts else "debug" if "debug" in parts else "unknown"
    return directory, source, build


def build_exec_hello(folder):
    """Builds exec_hello.c static twice (`hello`, and `exec-hello`, which execs it); returns the
    command line `exec-hello hello`, or None without gcc or a static C library."""
    source = Path(__file__).resolve().parent / "exec_hello.c"
    hello, exec_hello = folder / "hello", folder / "exec-hello"
    try:
        for output, flags in ((hello, []), (exec_hello, ["-DHAND_OVER"])):
            subprocess.run(["gcc", "-O2", "-static", *flags, "-o", str(output), str(source)],
                           check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired):
        return None
    return [str(exec_hello), str(hello)]


def shared_libraries(program):
    """The shared libraries `ldd` lists for a program (the vDSO left out); None when ldd fails."""
    try:
        listed = subprocess.run(["ldd", str(program)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if listed.returncode != 0:
        return None
    return [line.split()[0] for line in listed.stdout.splitlines() if line.strip() and "vdso" not in line]


def check_prerequisites():
    check_bus_prerequisites(need_notify_send=True)


def parse_options(arguments):
    parser = argparse.ArgumentParser(
        description="Time from starting `hooray win` to its notification reaching a headless "
        "notification server, beside notify-send (p50/p95). A benchmark: it asserts nothing."
    )
    parser.add_argument("--runs", type=int, default=50, help="measured runs per variant (default 50)")
    parser.add_argument("--warmup", type=int, default=3, help="warm-up runs per variant, not counted (default 3)")
    parser.add_argument(
        "--bin-dir",
        help="folder with hooray and hoorayd (default: .build/release of the repository, "
        "else .build/debug)",
    )
    parser.add_argument("--json", metavar="FILE", help="write the raw figures to FILE")
    parser.add_argument("--text", default=DEFAULT_TEXT, help=f'the win to log (default "{DEFAULT_TEXT}")')
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for one run (default 10)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary HOME and logs, and say where")
    options = parser.parse_args(arguments)
    if options.runs < 2:
        parser.error("--runs must be at least 2")
    if options.warmup < 0:
        parser.error("--warmup must not be negative")
    return options


def measure(options):
    """Runs the three variants and returns the report (a dict); prints nothing but progress."""
    check_prerequisites()
    bin_dir, bin_source, build = resolve_bin_dir(options.bin_dir)
    hooray, hoorayd = bin_dir / "hooray", bin_dir / "hoorayd"
    notify_send = shutil.which("notify-send")

    root = tempfile.mkdtemp(prefix="hooray-bench-")
    world = World(root)
    daemon = None
    try:
        world.create()
        world.start_bus()
        world.start_server()
        environment = world.environment()
        reader = RecordReader(world.record_file)
        print(f"Benchmark world in {root}; bus {world.address}", file=sys.stderr)

        binaries = {
            "bin_dir": str(bin_dir),
            "bin_dir_source": bin_source,
            "build": build,
            "hooray_version": program_version([str(hooray), "--version"], environment),
            "notify_send": notify_send,
            "libnotify_bin": debian_version("libnotify-bin"),
        }
        common = dict(
            environment=environment,
            reader=reader,
            runs=options.runs,
            warmups=options.warmup,
            timeout=options.timeout,
            logs=world.logs,
        )
        variants = []

        # 1. The baseline: libnotify's own command-line client.
        results = measure_variant("notify-send", [notify_send, SUMMARY, options.text], **common)
        variants.append(dict(results, key="notify-send"))

        # 2. hooray win through the running daemon.
        win = [str(hooray), "win", options.text]
        daemon = start_daemon(hoorayd, environment, world.logs)
        status = program_version([str(hooray), "status"], environment)
        print(f"  hooray status: {status}", file=sys.stderr)
        results = measure_variant("hooray win (hoorayd running)", win, alive=daemon, **common)
        variants.append(dict(results, key="daemon", hooray_status=status, daemon_pid=daemon.pid))
        # A following status bar's next line after `hooray win`, while the same hoorayd runs.
        bar_follow = measure_bar_follow(
            hooray, environment, reader, runs=options.runs, warmups=options.warmup,
            timeout=options.timeout, logs=world.logs, text=options.text,
        )
        daemon_status = stop_process(daemon, grace=10)
        daemon = None
        if daemon_status not in (0, None):
            print(f"  note: hoorayd exited with status {daemon_status} on SIGTERM", file=sys.stderr)

        # 3. hooray win with no daemon: the CLI hosts the plugin and posts itself.
        status = program_version([str(hooray), "status"], environment)
        print(f"  hooray status: {status}", file=sys.stderr)
        results = measure_variant("hooray win (no daemon)", win, **common)
        variants.append(dict(results, key="no-daemon", hooray_status=status))

        for variant in variants:
            variant["summary"] = summarize(variant, variant.get("daemon_pid"))

        # What process start alone costs: spawn to exit of `--version`, no bus, no notification.
        process_start = {}
        commands = [("hooray --version", [str(hooray), "--version"]), ("hooray help", [str(hooray), "help"]),
                    ("notify-send --version", [notify_send, "--version"]), ("/bin/true", ["/bin/true"])]
        floor = build_exec_hello(Path(root))
        if floor:
            commands.append(("static exec → static hello", floor))
        for name, command in commands:
            figures = time_exits(command, environment, runs=options.runs, warmups=options.warmup)
            process_start[name] = {"p50_ms": percentile(figures, 0.5), "p95_ms": percentile(figures, 0.95)}
        # What each program maps at start: `hooray` is the front door, `hooray-cli` the full program.
        libraries = {}
        for name in ("hooray", "hooray-cli"):
            if (bin_dir / name).is_file():
                libraries[name] = shared_libraries(bin_dir / name)
        report = {
            "libraries": libraries,
            "benchmark": "feedback",
            "machine": machine_description(),
            "binaries": binaries,
            "runs": options.runs,
            "warmups": options.warmup,
            "text": options.text,
            "variants": variants,
            "process_start": process_start,
            "bar_follow": bar_follow,
        }
        return report
    finally:
        stop_process(daemon, grace=10)
        world.stop()
        if options.keep:
            print(f"Kept {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)


def print_notes(report):
    for variant in report["variants"]:
        s = variant["summary"]
        notes = []
        if s["strays"]:
            notes.append(f"{s['strays']} late notification(s) of earlier runs ignored")
        if s["extra"]:
            notes.append(f"{s['extra']} notification(s) beyond the first of a run")
        if s["summaries"] != [SUMMARY]:
            notes.append(f"summaries seen: {s['summaries']}")
        posters = ", ".join(f"{kind} {count}" for kind, count in s["posted_by"].items())
        notes.append(f"posted by (sender-pid hint): {posters}")
        if notes:
            print(f"Note, {variant['name']}: " + "; ".join(notes) + ".")


def run(options):
    report = measure(options)
    print_table(report)
    print_notes(report)
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def main():
    options = parse_options(sys.argv[1:])
    try:
        sys.exit(run(options))
    except Prerequisite as error:
        print(f"feedback.py: {error}", file=sys.stderr)
        sys.exit(2)
    except Failure as error:
        print(f"\nfeedback.py: {error}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
