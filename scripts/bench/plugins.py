#!/usr/bin/python3
"""Benchmark: what a plugin in another language costs hoorayd, and what a hostile one does to it.

round trip  `command` requests over the control socket, one connection each (the control
            protocol's framing), from one resident client — this script — to one hoorayd:
              bench-echo echo   a Python plugin (scripts/bench/bench_plugin.py, raw Content-Length
                                framing, no SDK) that calls the host's `storageGet` once and then
                                answers: host → plugin → host → plugin → host;
              bench-echo ping   the same plugin answering at once: host → plugin → host;
              water today       the built-in water plugin (in-process), which reads its records
                                from the same database: the reference.
            Time = connect → the whole answer read (time.perf_counter), after a warm-up, the
            three interleaved so that drift on a busy machine falls on all of them alike.
lateness    precision.py's method: one **Snooze 1 h** pressed for real, its stored one-off rule
            cloned to 100 built-in reminders at distinct instants 200 ms apart (plus 0–50 ms of
            jitter); lateness = the notification server's CLOCK_REALTIME stamp − the due instant.
            Measured twice in the same run: calm (bench-echo idle), then with three hostile
            plugins in the same hoorayd:
              bench-flood   standard error written as fast as hoorayd reads it, and 50 calls
                            always in flight: postNotice past its allowance, storagePut of a new
                            key each time (past its 10,000 keys), log;
              bench-crash   exits 0.2 s after each start; when the host gives up on it (5 exits
                            in 3 minutes) this script asks `restart` at once, so it crashes all along;
              bench-silent  never answers: 3 `command` requests to it are always waiting for the
                            host's 5 s call limit.
            Both runs poll `plugins` twice a second (the calm run too, so that is not the difference).

Plugins are folders in $XDG_DATA_HOME/hooray/plugins/NAME/ with a plugin.toml and the program.
hoorayd's standard error goes straight to a file, so a reader here cannot slow it down.

Standard library only; run with /usr/bin/python3. Measures, asserts nothing.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from benchlib import (
    REPO_ROOT,
    USER_CONFIG,
    Failure,
    RecordReader,
    World,
    check_bus_prerequisites,
    die_with_parent,
    percentile,
    proc_cpu_seconds,
    proc_kb,
    proc_status,
    proc_threads,
    progress,
    resolve_binaries,
    run_standalone,
    stop_process,
    thread_window,
    wait_for_file_text,
)
from precision import distinct_instants, lateness_of, snooze_template, summary, write_snoozes

PLUGIN_PROGRAM = Path(__file__).resolve().parent / "bench_plugin.py"

# Each benchmark plugin: (permissions, commands as (name, summary)).
PLUGINS = {
    "bench-echo": (
        ["storage"],
        [("echo", "Read a stored value from the host and say it."), ("ping", "Answer at once.")],
    ),
    "bench-flood": (["notify", "storage"], [("flood", "Say that it floods.")]),
    "bench-crash": ([], [("run", "Never gets the chance.")]),
    "bench-silent": ([], [("wait", "Never answers.")]),
}
HOSTILE = ["bench-flood", "bench-crash", "bench-silent"]

VARIANTS = [
    ("plugin", "bench-echo", "echo", "Python plugin, `echo` (one storageGet of the host, then the answer)"),
    ("plugin_ping", "bench-echo", "ping", "Python plugin, `ping` (the answer at once)"),
    ("in_process", "water", "today", "built-in `water today` (in-process, reads its records)"),
]


# ---------------------------------------------------------------------------------------------
# The control socket: one request per connection, one JSON line each way.


class ControlClient:
    def __init__(self, world):
        self.path = str(world.folders["runtime"] / "hooray" / "control.sock")

    def request(self, message, timeout=30.0):
        line = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(timeout)
            connection.connect(self.path)
            connection.sendall(line)
            chunks = []
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        return json.loads(b"".join(chunks))

    def command(self, plugin, command, timeout=30.0):
        return self.request(
            {
                "api_version": 1,
                "method": "command",
                "plugin": plugin,
                "invocation": {
                    "command": command,
                    "values": {},
                    "flags": [],
                    "json": False,
                    "environment": {"time_zone": "UTC", "color": False, "data_directory": "", "host_version": ""},
                },
            },
            timeout,
        )

    def plugins(self, timeout=10.0):
        answer = self.request({"api_version": 1, "method": "plugins"}, timeout)
        return {entry["name"]: entry for entry in answer.get("plugins") or []}


# ---------------------------------------------------------------------------------------------
# The world: plugin folders and a hoorayd whose log goes straight to a file.


def plugin_toml(name, permissions, commands):
    lines = [
        f'name = "{name}"',
        'version = "1.0.0"',
        "api_version = 1",
        f'description = "A plugin of Hooray\'s benchmarks ({name})."',
        'exec = ["plugin.py"]',
        "permissions = [" + ", ".join(f'"{permission}"' for permission in permissions) + "]",
    ]
    for command, text in commands:
        lines += ["", "[[commands]]", f'name = "{command}"', f'summary = "{text}"', "writes = false"]
    return "\n".join(lines) + "\n"


def install_plugin(world, name):
    permissions, commands = PLUGINS[name]
    folder = world.folders["data"] / "hooray" / "plugins" / name
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PLUGIN_PROGRAM, folder / "plugin.py")
    os.chmod(folder / "plugin.py", 0o755)
    (folder / "plugin.toml").write_text(plugin_toml(name, permissions, commands), encoding="utf-8")


class LoggedDaemon:
    """hoorayd with its standard error in a file: nothing here reads it while it runs."""

    def __init__(self, world, hoorayd, name, timeout=30.0):
        self.log_path = world.logs / f"{name}.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [str(hoorayd)],
                env=world.environment(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                preexec_fn=die_with_parent,
            )
        self.pid = self.process.pid
        if not wait_for_file_text(self.log_path, "hoorayd is running", self.process, timeout):
            status, _ = self.stop()
            raise Failure(
                f"hoorayd did not say it is running within {timeout:g} s (exit status {status}):\n{self.tail()}"
            )

    def tail(self, size=4000):
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-size:]

    def stop(self, grace=30.0):
        """SIGTERM, SIGKILL after `grace` seconds; returns (exit status, seconds until it exited)."""
        started = time.monotonic()
        status = stop_process(self.process, grace=grace)
        return status, time.monotonic() - started


def wait_until_running(client, name, timeout=20.0):
    deadline = time.monotonic() + timeout
    report = None
    while time.monotonic() < deadline:
        report = client.plugins().get(name)
        if report and report["state"] == "running":
            return report
        time.sleep(0.05)
    raise Failure(f"the {name} plugin is not running after {timeout:g} s: {report}")


# ---------------------------------------------------------------------------------------------
# Round trips.


def round_trips(client, runs, warmup):
    """Interleaved `command` requests of each variant; milliseconds per variant, warm-ups left out."""
    times = {key: [] for key, _, _, _ in VARIANTS}
    answers = {}
    for index in range(warmup + runs):
        # Rotate the order, so no variant always follows the same one.
        shift = index % len(VARIANTS)
        for key, plugin, command, _ in VARIANTS[shift:] + VARIANTS[:shift]:
            started = time.perf_counter()
            answer = client.command(plugin, command)
            elapsed = (time.perf_counter() - started) * 1000
            if not answer.get("ok"):
                raise Failure(f"`{plugin} {command}` over the control socket failed: {answer}")
            answers[key] = answer.get("reply", {}).get("text")
            if index >= warmup:
                times[key].append(elapsed)
    return times, answers


def spread(values):
    return {
        "count": len(values),
        "p50_ms": percentile(values, 0.50),
        "p99_ms": percentile(values, 0.99),
        "min_ms": min(values),
        "max_ms": max(values),
        "mean_ms": sum(values) / len(values),
    }


# ---------------------------------------------------------------------------------------------
# Hostility that needs a hand from outside, and the polling both runs share.


class Drivers:
    """Threads that poll `plugins`, keep bench-crash crashing and keep calls to bench-silent waiting."""

    def __init__(self, client, hostile):
        self.client = client
        self.hostile = hostile
        self.stopping = threading.Event()
        self.threads = []
        self.lock = threading.Lock()
        self.restarts_asked = 0
        self.states = {}  # plugin → set of states seen
        self.silent_answers = []  # (seconds, ok, message)
        self.errors = []

    def start(self):
        self.threads.append(threading.Thread(target=self.poll, daemon=True))
        if self.hostile:
            self.threads += [threading.Thread(target=self.wait_on_silent, daemon=True) for _ in range(3)]
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join(20)

    def note_error(self, error):
        with self.lock:
            if len(self.errors) < 20:
                self.errors.append(f"{type(error).__name__}: {error}")

    def poll(self):
        restarting = None
        while not self.stopping.wait(0.5):
            try:
                report = self.client.plugins()
            except (OSError, ValueError) as error:
                self.note_error(error)
                continue
            with self.lock:
                for name, entry in report.items():
                    self.states.setdefault(name, set()).add(entry["state"])
            crash = report.get("bench-crash")
            if self.hostile and crash and crash["state"] == "given up":
                if restarting is None or not restarting.is_alive():
                    restarting = threading.Thread(target=self.restart_crash, daemon=True)
                    restarting.start()

    def restart_crash(self):
        with self.lock:
            self.restarts_asked += 1
        try:
            self.client.request({"api_version": 1, "method": "restart", "plugin": "bench-crash"}, 30)
        except (OSError, ValueError) as error:
            self.note_error(error)

    def wait_on_silent(self):
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                answer = self.client.command("bench-silent", "wait", timeout=30)
            except (OSError, ValueError) as error:
                self.note_error(error)
                time.sleep(0.5)
                continue
            with self.lock:
                self.silent_answers.append((time.monotonic() - started, answer.get("ok"), answer.get("message")))

    def report(self):
        with self.lock:
            waits = [seconds * 1000 for seconds, _, _ in self.silent_answers]
            return {
                "restarts_asked": self.restarts_asked,
                "states_seen": {name: sorted(states) for name, states in self.states.items()},
                "silent_calls": len(self.silent_answers),
                "silent_answer_p50_ms": percentile(waits, 0.5) if waits else None,
                "silent_message": self.silent_answers[0][2] if self.silent_answers else None,
                "errors": list(self.errors),
            }


# ---------------------------------------------------------------------------------------------
# One lateness run.


def deliver(world, hoorayd, template, reader, label, prefix, count, spacing, lead, seed, hostile):
    titles = [f"{prefix} {index:03d}" for index in range(1, count + 1)]
    instants = distinct_instants(time.time() + lead, count, spacing, seed=seed)
    write_snoozes(world.database, template, titles, instants)
    seen = reader.count()
    daemon = LoggedDaemon(world, hoorayd, f"hoorayd-{label}")
    client = ControlClient(world)
    drivers = Drivers(client, hostile)
    result = {"lead_s": instants[0] - time.time()}
    try:
        drivers.start()
        load_before = os.getloadavg()[0]
        threads_before = proc_threads(daemon.pid)
        cpu_before, wall_before = proc_cpu_seconds(daemon.pid), time.monotonic()
        due = dict(zip(titles, instants))
        deadline = time.monotonic() + (instants[-1] - time.time()) + 30
        while time.monotonic() < deadline:
            reader.refresh()
            arrived = {entry.get("summary") for entry in reader.notifications[seen:]}
            if all(title in arrived for title in titles):
                break
            time.sleep(0.01)
        cpu_after, wall_after = proc_cpu_seconds(daemon.pid), time.monotonic()
        busiest = sorted(
            (row for row in thread_window(threads_before, proc_threads(daemon.pid)) if row.get("cpu_ms")),
            key=lambda row: -row["cpu_ms"],
        )
        result["busiest_threads"] = [
            {"comm": row["comm"], "tid": row["tid"], "cpu_ms": row["cpu_ms"], "state": row.get("state", "")}
            for row in busiest[:6]
        ]
        result["hoorayd_cpu_s"] = cpu_after - cpu_before
        result["window_s"] = wall_after - wall_before
        result["loadavg_1min"] = [load_before, os.getloadavg()[0]]
        status = proc_status(daemon.pid)
        result["hoorayd_rss_kb"] = proc_kb(status, "VmRSS")
        result["hoorayd_hwm_kb"] = proc_kb(status, "VmHWM")
        notifications = reader.notifications[seen:]
        result["summary"] = summary(lateness_of(notifications, due))
        result["missing"] = count - (result["summary"]["count"] if result["summary"] else 0)
        result["other_notices"] = sorted(
            {entry.get("summary") for entry in notifications if entry.get("summary") not in due}
        )
        result["other_notice_count"] = sum(1 for entry in notifications if entry.get("summary") not in due)
        result["plugins"] = {
            name: {key: entry.get(key) for key in ("state", "restarts", "last_error", "pid")}
            for name, entry in client.plugins().items()
            if name.startswith("bench-")
        }
        if hostile:
            stats = world.folders["data"] / "hooray" / "plugin-data" / "bench-flood" / "stats.json"
            try:
                result["flood"] = json.loads(stats.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                result["flood"] = None
    finally:
        drivers.stop()
        result["drivers"] = drivers.report()
        result["hoorayd_stayed_up"] = daemon.process.poll() is None
        # hoorayd stops its plugins (`shutdown`, SIGTERM after 2 s, SIGKILL after 5) before it exits.
        result["hoorayd_exit"], result["stop_s"] = daemon.stop()
        result["log_bytes"] = daemon.log_path.stat().st_size
    if result.get("missing"):
        progress(f"  plugins: {result['missing']} of the {count} reminders of the {label} run did not arrive")
    return result


# ---------------------------------------------------------------------------------------------


def measure(bin_dir, runs=500, warmup=50, count=100, spacing=0.2, lead=8.0, keep=False):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    root = tempfile.mkdtemp(prefix="hooray-bench-plugins-")
    report = {"benchmark": "plugins", "runs": runs, "warmup": warmup, "count": count, "spacing_s": spacing}
    world = World(root, user_config=USER_CONFIG + "\n[plugins.water]\nenabled = true\n")
    daemon = None
    try:
        world.start()
        reader = RecordReader(world.record_file)
        install_plugin(world, "bench-echo")
        # One configured reminder at the next whole minute at least 6 s away: its notice is snoozed
        # for real, and that snooze is the template of the reminders at distinct instants.
        now = time.time()
        minute = (now + 66) // 60 * 60
        if minute - now > 66:
            minute -= 60
        world.config_file.write_text(
            world.user_config
            + '\n[[plugins.reminders.reminder]]\nid = "template"\ntitle = "Template"\n'
            + f'at = "{time.strftime("%H:%M", time.gmtime(minute))}"\n',
            encoding="utf-8",
        )
        daemon = LoggedDaemon(world, hoorayd, "hoorayd-round-trip")
        client = ControlClient(world)
        wait_until_running(client, "bench-echo")
        drink = client.command("water", "drink")
        if not drink.get("ok"):
            raise Failure(f"`water drink` over the control socket failed: {drink}")

        def measure_round_trips():
            progress(f"  plugins: {runs} round trips of each kind after {warmup} warm-ups")
            cpu_before = proc_cpu_seconds(daemon.pid)
            times, answers = round_trips(client, runs, warmup)
            report["round_trip_hoorayd_cpu_s"] = proc_cpu_seconds(daemon.pid) - cpu_before
            report["round_trip"] = {key: spread(values) for key, values in times.items()}
            report["answers"] = answers

        done = False
        if minute - time.time() > 40:
            measure_round_trips()
            done = True
        progress(f"  plugins: waiting for the template reminder at {time.strftime('%H:%M', time.gmtime(minute))} UTC")
        deadline = time.monotonic() + (minute - time.time()) + 30
        while time.monotonic() < deadline:
            reader.refresh()
            if any(entry.get("summary") == "Template" for entry in reader.notifications):
                break
            time.sleep(0.05)
        else:
            raise Failure(f"the template reminder was not shown; hoorayd's log:\n{daemon.tail()}")
        act = world.run([hooray, "act", "1", "snooze"], check=False)
        if act.returncode != 0:
            raise Failure(f"`hooray act 1 snooze` failed: {act.stderr or act.stdout}")
        if not done:
            measure_round_trips()
        daemon.stop()
        daemon = None
        template = snooze_template(world.database)

        progress(f"  plugins: {count} reminders at distinct instants, calm")
        report["calm"] = deliver(world, hoorayd, template, reader, "calm", "Calm", count, spacing, lead, 23, False)
        for name in HOSTILE:
            install_plugin(world, name)
        progress(f"  plugins: {count} reminders at distinct instants, hostile plugins running")
        report["hostile"] = deliver(
            world, hoorayd, template, reader, "hostile", "Under load", count, spacing, lead, 29, True
        )
        return report
    finally:
        if daemon:
            daemon.stop()
        world.stop()
        if keep:
            progress(f"Kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "release"))
    parser.add_argument("--runs", type=int, default=500, help="round trips of each kind (default 500)")
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--count", type=int, default=100, help="reminders in each lateness run (default 100)")
    parser.add_argument("--spacing", type=float, default=0.2)
    parser.add_argument("--lead", type=float, default=8.0, help="seconds from writing the rules to the first due")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    run_standalone(
        "plugins.py",
        lambda: measure(
            options.bin_dir, options.runs, options.warmup, options.count, options.spacing, options.lead, options.keep
        ),
        options.json,
    )


if __name__ == "__main__":
    main()
