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
import ctypes
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVER_SCRIPT = REPO_ROOT / "Tests" / "SystemTesting" / "notification_server.py"
SERVER_PYTHON = "/usr/bin/python3"

SUMMARY = "Moment logged"
DEFAULT_TEXT = "Took a short walk"
POLL_INTERVAL = 0.001  # seconds between reads of the record file

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>{address}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

# The user's configuration in the benchmark's HOME. The one-time welcome notification would
# otherwise be posted by the first hoorayd start and by the first CLI run, in the middle of
# the measurements. HOORAY_SYSCONFDIR stays an empty folder.
USER_CONFIG = "[plugins.wins]\nwelcome = false\n"


class Prerequisite(Exception):
    """Something the benchmark needs is missing: exit 2 with this message."""


class Failure(Exception):
    """A run went wrong: exit 1 with this message."""


# ---------------------------------------------------------------------------------------------
# Helper processes (bus, server, daemon): they die with this script, even if it is killed.

_libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def _die_with_parent():
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def stop_process(process, grace=5.0):
    """SIGTERM, then SIGKILL after `grace` seconds; returns the exit status."""
    if process is None or process.poll() is not None:
        return None if process is None else process.returncode
    process.terminate()
    try:
        return process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()


def wait_for_file_text(path, text, process, timeout):
    """Waits until the file contains `text`; False on timeout or when `process` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if text in Path(path).read_text(encoding="utf-8", errors="replace"):
                return True
        except FileNotFoundError:
            pass
        if process.poll() is not None:
            # One last look: it may have written the line and exited.
            return text in Path(path).read_text(encoding="utf-8", errors="replace")
        time.sleep(0.01)
    return False


class World:
    """A temporary HOME, a private session bus and the headless notification server on it."""

    def __init__(self, root):
        self.root = Path(root)
        self.home = self.root / "home"
        self.logs = self.root / "logs"
        self.record_file = self.root / "record.jsonl"
        self.bus = None
        self.server = None
        self.address = None

    def create(self):
        folders = {
            "config": self.home / "config",
            "data": self.home / "data",
            "cache": self.home / "cache",
            "state": self.home / "state",
            "runtime": self.home / "runtime",
            "etc": self.home / "etc",
        }
        for folder in folders.values():
            folder.mkdir(parents=True, exist_ok=True)
            os.chmod(folder, 0o700)
        (folders["config"] / "hooray").mkdir(mode=0o700)
        (folders["config"] / "hooray" / "hooray.toml").write_text(USER_CONFIG, encoding="utf-8")
        self.logs.mkdir()
        self.record_file.touch()
        self.folders = folders

    def start_bus(self, timeout=10.0):
        bus_dir = self.root / "bus"
        bus_dir.mkdir(mode=0o700)
        address = f"unix:path={bus_dir / 'bus'}"
        config = bus_dir / "session.conf"
        config.write_text(BUS_CONFIG.format(address=address), encoding="utf-8")
        self.bus = subprocess.Popen(
            ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=open(self.logs / "dbus-daemon.log", "wb"),
            preexec_fn=_die_with_parent,
        )
        # dbus-daemon prints its address once it listens; read it with a deadline.
        line = _readline_with_timeout(self.bus.stdout, timeout)
        if not line or not line.strip().startswith("unix:"):
            stop_process(self.bus)
            raise Failure(f"dbus-daemon did not start: {line!r}; see {self.logs / 'dbus-daemon.log'}")
        self.address = line.strip()

    def start_server(self, timeout=10.0):
        environment = dict(os.environ)
        environment.update({"DBUS_SESSION_BUS_ADDRESS": self.address, "PYTHONUNBUFFERED": "1"})
        self.server = subprocess.Popen(
            [SERVER_PYTHON, str(SERVER_SCRIPT), "--record", str(self.record_file), "--name", "hooray-bench-server"],
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=open(self.logs / "notification-server.log", "wb"),
            preexec_fn=_die_with_parent,
        )
        line = _readline_with_timeout(self.server.stdout, timeout)
        if not line or "READY" not in line:
            stop_process(self.server)
            log = (self.logs / "notification-server.log").read_text(errors="replace")
            raise Failure(f"notification_server.py did not start:\n{log}")

    def environment(self):
        """The environment of the measured programs: this world's folders and bus, nothing of the user's."""
        environment = dict(os.environ)
        for name in (
            "DISPLAY",
            "WAYLAND_DISPLAY",
            "JOURNAL_STREAM",
            "FAKETIME",
            "LD_PRELOAD",
            "XDG_SESSION_TYPE",
            "DBUS_STARTER_ADDRESS",
            "DBUS_STARTER_BUS_TYPE",
        ):
            environment.pop(name, None)
        environment.update(
            {
                "HOME": str(self.home),
                "XDG_CONFIG_HOME": str(self.folders["config"]),
                "XDG_DATA_HOME": str(self.folders["data"]),
                "XDG_CACHE_HOME": str(self.folders["cache"]),
                "XDG_STATE_HOME": str(self.folders["state"]),
                "XDG_RUNTIME_DIR": str(self.folders["runtime"]),
                "HOORAY_SYSCONFDIR": str(self.folders["etc"]),
                "TZ": "UTC",
                "LANG": "C.UTF-8",
                "DBUS_SESSION_BUS_ADDRESS": self.address,
            }
        )
        return environment

    def stop(self):
        stop_process(self.server)
        stop_process(self.bus)


def _readline_with_timeout(stream, timeout):
    """One line from a child's pipe, or None when none came in time."""
    result = []
    reader = threading.Thread(target=lambda: result.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not result:
        return None
    return result[0].decode("utf-8", errors="replace")


# ---------------------------------------------------------------------------------------------
# The record file: read incrementally, one JSON object per complete line.


class RecordReader:
    def __init__(self, path):
        self.file = open(path, "r", encoding="utf-8")
        self.pending = ""
        self.notifications = []

    def refresh(self):
        chunk = self.file.read()
        if not chunk:
            return
        self.pending += chunk
        *lines, self.pending = self.pending.split("\n")
        for line in lines:
            if not line:
                continue
            entry = json.loads(line)
            if entry.get("method") == "Notify":
                self.notifications.append(entry)

    def count(self):
        self.refresh()
        return len(self.notifications)


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


def _slug(text):
    return "-".join("".join(c if c.isalnum() else " " for c in text).split())


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


def percentile(values, fraction):
    """Linear interpolation between closest ranks (like numpy's default and Excel's PERCENTILE.INC)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * fraction
    lower = int(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


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


def machine_description():
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    uname = os.uname()
    return {
        "nproc": cpus,
        "cpu": model,
        "kernel": f"{uname.sysname} {uname.release} {uname.machine}",
        "python": platform.python_version(),
        # The server stamps calls with time.monotonic() under /usr/bin/python3; this script too.
        "clock": time.get_clock_info("monotonic").implementation,
    }


def program_version(command, environment):
    try:
        output = subprocess.run(
            command, env=environment, capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL
        )
        text = (output.stdout or output.stderr).strip().splitlines()
        return text[0] if text else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def debian_version(package):
    try:
        output = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, timeout=10
        )
        return output.stdout.strip() or "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


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


# ---------------------------------------------------------------------------------------------


def resolve_bin_dir(given):
    if given:
        directory = Path(given)
        source = "--bin-dir"
    else:
        release = REPO_ROOT / ".build" / "release"
        debug = REPO_ROOT / ".build" / "debug"
        if (release / "hooray").is_file() and (release / "hoorayd").is_file():
            directory, source = release, "default"
        else:
            directory, source = debug, "fallback: no release build"
    directory = directory.absolute()
    for program in ("hooray", "hoorayd"):
        if not os.access(directory / program, os.X_OK):
            raise Prerequisite(
                f"no executable {directory / program}; build it first (`swift build -c release`) "
                "or name the folder with --bin-dir"
            )
    parts = Path(os.path.realpath(directory)).parts
    build = "release" if "release" in parts else "debug" if "debug" in parts else "unknown"
    return directory, source, build


def check_prerequisites():
    if shutil.which("notify-send") is None:
        raise Prerequisite("notify-send is missing; install it with: apt-get install libnotify-bin")
    if shutil.which("dbus-daemon") is None:
        raise Prerequisite("dbus-daemon is missing; install it with: apt-get install dbus-daemon")
    if not os.access(SERVER_PYTHON, os.X_OK):
        raise Prerequisite(f"{SERVER_PYTHON} is missing; install it with: apt-get install python3")
    check = subprocess.run([SERVER_PYTHON, "-c", "import dbus_next"], capture_output=True)
    if check.returncode != 0:
        raise Prerequisite("dbus-next is missing; install it with: apt-get install python3-dbus-next")
    if not SERVER_SCRIPT.is_file():
        raise Prerequisite(f"{SERVER_SCRIPT} is missing")


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


def run(options):
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
        report = {
            "benchmark": "feedback",
            "machine": machine_description(),
            "binaries": binaries,
            "runs": options.runs,
            "warmups": options.warmup,
            "text": options.text,
            "variants": variants,
        }
        print_table(report)
        for variant in variants:
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
        if options.json:
            Path(options.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        return 0
    finally:
        stop_process(daemon, grace=10)
        world.stop()
        if options.keep:
            print(f"Kept {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)


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
