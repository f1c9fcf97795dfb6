"""Shared pieces of Hooray's benchmarks: a throw-away world, helper processes, /proc readings, statistics.

A *world* is a temporary HOME with its own XDG folders (the runtime folder 0700), an empty
HOORAY_SYSCONFDIR, TZ=UTC, a private dbus-daemon session bus, and Hooray's headless test
notification server (Tests/SystemTesting/notification_server.py) recording every Notify call.
Nothing of the real user's — data, bus, desktop — is touched.

Standard library only. The notification server needs Debian's python3-dbus-next, so the scripts
run under /usr/bin/python3. Benchmarks measure; nothing here asserts anything about time.
"""

import ctypes
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVER_SCRIPT = REPO_ROOT / "Tests" / "SystemTesting" / "notification_server.py"
AI_SERVER_SCRIPT = REPO_ROOT / "Tests" / "SystemTesting" / "ai_server.py"
SERVER_PYTHON = "/usr/bin/python3"

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

# The user's configuration in a benchmark's HOME. The one-time welcome notification would
# otherwise be posted by the first hoorayd start and by the first CLI run, in the middle of
# the measurements. HOORAY_SYSCONFDIR stays an empty folder.
# The figures measure each notice on its own way to the screen: bursts of reminders due within a
# minute are not gathered into a digest (`[delivery] burst_limit`, 3 by default).
USER_CONFIG = "[plugins.wins]\nwelcome = false\n\n[delivery]\nburst_limit = 1000\n"

LIBFAKETIME_CANDIDATES = [
    f"{prefix}/faketime/libfaketimeMT.so.1"
    for prefix in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib")
]


class Prerequisite(Exception):
    """Something a benchmark needs is missing: it is skipped (or the script exits 2) with this message."""


class Failure(Exception):
    """A run went wrong: the benchmark reports this message instead of a figure."""


# ---------------------------------------------------------------------------------------------
# Helper processes: they die with the script that started them, even if it is killed.

_libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def die_with_parent():
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


# The old private name, kept for scripts that imported it from feedback.py.
_die_with_parent = die_with_parent


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


def readline_with_timeout(stream, timeout):
    """One line from a child's pipe, or None when none came in time."""
    result = []
    reader = threading.Thread(target=lambda: result.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not result:
        return None
    return result[0].decode("utf-8", errors="replace")


_readline_with_timeout = readline_with_timeout


def libfaketime():
    """The path of libfaketimeMT.so.1, or None when the `faketime` package is missing."""
    return next((path for path in LIBFAKETIME_CANDIDATES if os.path.exists(path)), None)


def faketime_offset_environment(offset_seconds):
    """Variables that run a program's wall clock exactly `offset_seconds` ahead of the real one.

    libfaketime's relative form ("+N" seconds, fractions allowed) at the normal rate makes
    fake = real + N exactly, for clock_gettime and for timerfd deadlines alike, so instants in
    the program's clock convert to real time (and back) without error. The monotonic clock is
    left alone, as in Hooray's end-to-end tests.
    """
    library = libfaketime()
    if library is None:
        raise Prerequisite("libfaketime is missing; install it with: apt-get install faketime")
    return {
        "LD_PRELOAD": library,
        "FAKETIME": f"{offset_seconds:+.6f}",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
    }


def faketime_just_before_a_minute(lead=3.0):
    """(a whole minute, an offset) such that a program started now with that offset reaches the
    minute `lead` seconds from now in its own clock.

    The offset is negative — the program's clock runs behind the real one. libfaketime 0.9.10
    rewrites every absolute timerfd deadline as if it were CLOCK_REALTIME, libdispatch's
    CLOCK_MONOTONIC ones included: with the clock ahead, those land in the past, fire at once and
    the process spins; behind, they are only late by the offset (under a minute here).
    """
    from datetime import datetime, timezone

    now = time.time()
    minute = datetime.fromtimestamp(now // 60 * 60, tz=timezone.utc)
    return minute, (minute.timestamp() - lead) - now


class Daemon:
    """A running hoorayd whose stderr lines are stamped with time.monotonic() as they arrive.

    The log also goes to `log_path`. `wait_for(text)` returns the stamp of the first line
    containing `text`, so phases of a start can be timed to the millisecond from outside.
    """

    def __init__(self, command, environment, log_path, spawned=None):
        self.log_path = Path(log_path)
        self.lines = []  # (monotonic, text)
        self.condition = threading.Condition()
        self.spawned = time.monotonic() if spawned is None else spawned
        self.process = subprocess.Popen(
            command,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=die_with_parent,
        )
        self.pid = self.process.pid
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        with open(self.log_path, "ab") as log:
            for raw in self.process.stderr:
                stamp = time.monotonic()
                log.write(raw)
                log.flush()
                with self.condition:
                    self.lines.append((stamp, raw.decode("utf-8", errors="replace").rstrip("\n")))
                    self.condition.notify_all()
        with self.condition:
            self.condition.notify_all()

    def wait_for(self, text, timeout):
        """The monotonic stamp of the first stderr line containing `text`; None on timeout or exit."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for stamp, line in self.lines:
                    if text in line:
                        return stamp
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.process.poll() is not None and not self.reader.is_alive()):
                    return None
                self.condition.wait(min(remaining, 0.2))

    def first_line(self, text):
        with self.condition:
            return next(((stamp, line) for stamp, line in self.lines if text in line), None)

    def log(self):
        with self.condition:
            return "\n".join(line for _, line in self.lines)

    def stop(self, grace=10.0):
        status = stop_process(self.process, grace=grace)
        self.reader.join(5)
        return status


class World:
    """A temporary HOME, a private session bus and the headless notification server on it."""

    def __init__(self, root, user_config=USER_CONFIG):
        self.root = Path(root)
        self.home = self.root / "home"
        self.logs = self.root / "logs"
        self.record_file = self.root / "record.jsonl"
        self.user_config = user_config
        self.bus = None
        self.server = None
        self.address = None
        self.folders = {}

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
        (folders["config"] / "hooray" / "conf.d").mkdir(mode=0o700, parents=True)
        (folders["config"] / "hooray" / "hooray.toml").write_text(self.user_config, encoding="utf-8")
        self.logs.mkdir(exist_ok=True)
        self.record_file.touch()
        self.folders = folders
        return self

    @property
    def config_file(self):
        return self.folders["config"] / "hooray" / "hooray.toml"

    @property
    def drop_in_folder(self):
        return self.folders["config"] / "hooray" / "conf.d"

    @property
    def database(self):
        return self.folders["data"] / "hooray" / "hooray.sqlite"

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
            preexec_fn=die_with_parent,
        )
        # dbus-daemon prints its address once it listens; read it with a deadline.
        line = readline_with_timeout(self.bus.stdout, timeout)
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
            preexec_fn=die_with_parent,
        )
        line = readline_with_timeout(self.server.stdout, timeout)
        if not line or "READY" not in line:
            stop_process(self.server)
            log = (self.logs / "notification-server.log").read_text(errors="replace")
            raise Failure(f"notification_server.py did not start:\n{log}")

    def start(self):
        """Creates the folders and starts the bus and the notification server."""
        self.create()
        self.start_bus()
        self.start_server()
        return self

    def environment(self, extra=None):
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
            "HOORAY_LOCALTIME",
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
                "NO_COLOR": "1",
            }
        )
        if self.address:
            environment["DBUS_SESSION_BUS_ADDRESS"] = self.address
        else:
            environment.pop("DBUS_SESSION_BUS_ADDRESS", None)
        environment.update(extra or {})
        return environment

    def start_daemon(self, hoorayd, extra=None, timeout=30.0, name="hoorayd"):
        """Starts hoorayd and waits until it says it is running; returns the Daemon."""
        daemon = Daemon([str(hoorayd)], self.environment(extra), self.logs / f"{name}.log")
        if daemon.wait_for("hoorayd is running", timeout) is None:
            status = daemon.stop()
            raise Failure(
                f"hoorayd did not say it is running within {timeout:g} s (exit status {status}):\n"
                + daemon.log()[-4000:]
            )
        return daemon

    def run(self, command, extra=None, timeout=120.0, check=True):
        """Runs a program in this world and returns its CompletedProcess (text)."""
        result = subprocess.run(
            [str(part) for part in command],
            env=self.environment(extra),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and result.returncode != 0:
            raise Failure(
                f"{' '.join(str(part) for part in command)} exited with {result.returncode}:\n"
                + (result.stderr or result.stdout)[-3000:]
            )
        return result

    def stop(self):
        stop_process(self.server)
        stop_process(self.bus)


# ---------------------------------------------------------------------------------------------
# The record file of the notification server: read incrementally, one JSON object per line.


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

    def wait_for_count(self, count, timeout, poll=0.002):
        """Waits until at least `count` notifications were recorded; returns how many there are."""
        deadline = time.monotonic() + timeout
        while self.count() < count and time.monotonic() < deadline:
            time.sleep(poll)
        return self.count()


# ---------------------------------------------------------------------------------------------
# /proc readings.

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def proc_status(pid):
    """/proc/PID/status as a dict; sizes stay in kB as the kernel reports them."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        values[name] = rest.strip()
    return values


def proc_kb(status, name):
    """A `NNN kB` field of proc_status as an int (kB), or None."""
    value = status.get(name)
    return int(value.split()[0]) if value else None


def proc_cpu_seconds(pid):
    """utime + stime of the whole process (all threads, live and exited), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # After the command name: state is field 3; utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def proc_threads(pid):
    """Each live thread: name, where it sleeps (wchan), context switches and CPU time (ns)."""
    threads = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = proc_status_path(task / "status")
            schedstat = (task / "schedstat").read_text().split()
            try:
                wchan = (task / "wchan").read_text().strip()
            except OSError:
                wchan = ""
            threads[int(task.name)] = {
                "comm": (task / "comm").read_text().strip(),
                "wchan": wchan,
                "voluntary": int(status["voluntary_ctxt_switches"]),
                "involuntary": int(status["nonvoluntary_ctxt_switches"]),
                "cpu_ns": int(schedstat[0]),
            }
        except (FileNotFoundError, ProcessLookupError, KeyError):
            continue  # The thread ended while we looked.
    return threads


def proc_status_path(path):
    values = {}
    for line in Path(path).read_text().splitlines():
        name, _, rest = line.partition(":")
        values[name] = rest.strip()
    return values


def thread_window(before, after):
    """Per-thread differences between two proc_threads readings, with threads that came or went."""
    rows = []
    for tid in sorted(set(before) | set(after)):
        first, last = before.get(tid), after.get(tid)
        if last is None:
            rows.append(dict(first, tid=tid, switches=None, cpu_ms=None, state="ended in the window"))
            continue
        base = first or {"voluntary": 0, "involuntary": 0, "cpu_ns": 0}
        rows.append(
            {
                "tid": tid,
                "comm": last["comm"],
                "wchan": last.get("wchan", ""),
                "switches": last["voluntary"] + last["involuntary"] - base["voluntary"] - base["involuntary"],
                "voluntary": last["voluntary"] - base["voluntary"],
                "involuntary": last["involuntary"] - base["involuntary"],
                "cpu_ms": (last["cpu_ns"] - base["cpu_ns"]) / 1e6,
                "state": "started in the window" if first is None else "",
            }
        )
    return rows


# ---------------------------------------------------------------------------------------------
# Statistics and description.


def percentile(values, fraction):
    """Linear interpolation between closest ranks (like numpy's default and Excel's PERCENTILE.INC)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * fraction
    lower = int(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


def machine_description():
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = int(line.split()[1]) * 1024
    except OSError:
        pass
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    uname = os.uname()
    return {
        "nproc": cpus,
        "cpu": model,
        "memory_bytes": memory,
        "kernel": f"{uname.sysname} {uname.release} {uname.machine}",
        "os": os_release(),
        "python": platform.python_version(),
        # The server stamps calls with time.monotonic() under /usr/bin/python3; these scripts too.
        "clock": time.get_clock_info("monotonic").implementation,
    }


def os_release():
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip('"')
    except OSError:
        pass
    return platform.platform()


def program_version(command, environment=None):
    try:
        output = subprocess.run(
            command, env=environment, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
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


def check_bus_prerequisites(need_notify_send=False):
    """The bus, the server's Python and dbus-next; raises Prerequisite naming the package to install."""
    if need_notify_send and shutil.which("notify-send") is None:
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


def resolve_binaries(bin_dir):
    """The hooray and hoorayd executables in `bin_dir`; raises Prerequisite when one is missing."""
    directory = Path(bin_dir).absolute()
    for program in ("hooray", "hoorayd"):
        if not os.access(directory / program, os.X_OK):
            raise Prerequisite(
                f"no executable {directory / program}; build it first "
                "(`swift build -c release --static-swift-stdlib`) or name the folder with --bin-dir"
            )
    return directory / "hooray", directory / "hoorayd"


def progress(message):
    print(message, file=sys.stderr, flush=True)


def ms(value, digits=1):
    return "—" if value is None else f"{value:.{digits}f} ms"


def mb(kilobytes):
    return "—" if kilobytes is None else f"{kilobytes / 1024:.1f} MB"


def run_standalone(name, measure, json_path=None):
    """Runs one part on its own: prints its report as JSON (and writes it to `json_path`), or
    exits 2 for a missing prerequisite and 1 for a failure, naming the script."""
    try:
        report = measure()
    except Prerequisite as error:
        sys.exit(f"{name}: {error}")
    except Failure as error:
        print(f"{name}: {error}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(report, indent=2))
    if json_path:
        Path(json_path).write_text(json.dumps(report, indent=2) + "\n")
