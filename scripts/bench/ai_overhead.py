#!/usr/bin/python3
"""Benchmark: what Hooray adds between the AI service's answer and the updated notification.

hoorayd runs with `[ai] provider = "hooray"` pointing at the loopback AI server
(Tests/SystemTesting/ai_server.py, mode /good) started with --delay (the service's own
latency, default 250 ms, so the first notice has settled) and --timing (a CLOCK_MONOTONIC stamp
once each answer is written). For each of N wins (`hooray win "..."`, hoorayd running):

  overhead = the notification server's monotonic stamp of the Notify that replaces the first
             (the AI praise, in place) − the AI server's stamp when its answer was sent

so the service's latency is not in the figure: it is libcurl reading the answer, checking it,
storing the praise on the moment, updating the notice, and the delivery loop's Notify over D-Bus.
Also reported: the first notice to the AI request's arrival (how soon the request leaves).

Reference, same run, same servers: a resident Python client (reference_client.py ai) that posts
to the same AI server with urllib and, when the answer is in, sends the replacing Notify on its
open bus connection — the least any program could do on that path, measured the same way.

Standard library only; run with /usr/bin/python3. Measures, asserts nothing.
"""

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from benchlib import (
    run_standalone,
    REPO_ROOT,
    SERVER_PYTHON,
    Failure,
    RecordReader,
    World,
    check_bus_prerequisites,
    percentile,
    progress,
    resolve_binaries,
    stop_process,
)
from scale import ai_config, start_ai_server

REFERENCE_CLIENT = Path(__file__).resolve().parent / "reference_client.py"


def read_timing(path):
    try:
        return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


def pairs(notifications, app_name):
    """(first Notify, the Notify that replaced it) for each notification of `app_name`, in order."""
    firsts = {}
    result = []
    for entry in notifications:
        if entry.get("app_name") != app_name:
            continue
        if entry.get("replaces_id"):
            first = firsts.pop(entry["replaces_id"], None)
            if first is not None:
                result.append((first, entry))
        else:
            firsts[entry["id"]] = entry
    return result


def figures(pairs_found, timings):
    overhead, request_lag = [], []
    for (first, update), timing in zip(pairs_found, timings):
        overhead.append((update["monotonic"] - timing["sent"]) * 1000)
        request_lag.append((timing["received"] - first["monotonic"]) * 1000)
    return overhead, request_lag


def summary(values):
    if not values:
        return None
    return {
        "count": len(values),
        "p50_ms": percentile(values, 0.5),
        "p95_ms": percentile(values, 0.95),
        "min_ms": min(values),
        "max_ms": max(values),
    }


def measure(bin_dir, runs=20, warmup=2, delay=0.25, keep=False):
    check_bus_prerequisites()
    hooray, hoorayd = resolve_binaries(bin_dir)
    root = tempfile.mkdtemp(prefix="hooray-bench-ai-")
    world = World(root)
    daemon = ai = None
    try:
        world.start()
        timing_file = world.root / "ai-timing.jsonl"
        ai, port = start_ai_server(world, delay=delay, timing=timing_file)
        world.config_file.write_text(world.user_config + ai_config(port), encoding="utf-8")
        reader = RecordReader(world.record_file)
        daemon = world.start_daemon(hoorayd)
        progress(f"  ai: {warmup} + {runs} wins with AI praise (service delay {delay * 1000:.0f} ms)")
        for index in range(warmup + runs):
            world.run([hooray, "win", f"Small win {index + 1}"])
            deadline = time.monotonic() + 30
            while len(pairs(reader.notifications, "Hooray")) < index + 1:
                if time.monotonic() > deadline:
                    raise Failure(f"no AI update for win {index + 1}; see {world.logs}")
                time.sleep(0.002)
                reader.refresh()
            time.sleep(0.2)
        daemon_timings = read_timing(timing_file)
        hooray_pairs = pairs(reader.notifications, "Hooray")
        overhead, lag = figures(hooray_pairs[warmup:], daemon_timings[warmup : warmup + runs])

        progress(f"  ai: reference client, {warmup} + {runs} runs")
        result = subprocess.run(
            [SERVER_PYTHON, str(REFERENCE_CLIENT), "ai", f"http://127.0.0.1:{port}/good/moments", str(warmup + runs)],
            env=world.environment(),
            capture_output=True,
            text=True,
            timeout=(warmup + runs) * (delay + 2) + 30,
        )
        if result.returncode != 0:
            raise Failure(f"reference_client.py ai failed: {result.stderr[-2000:]}")
        reader.refresh()
        reference_timings = read_timing(timing_file)[warmup + runs :]
        reference_pairs = pairs(reader.notifications, "hooray-reference")
        reference_overhead, reference_lag = figures(reference_pairs[warmup:], reference_timings[warmup:])
        return {
            "benchmark": "ai",
            "runs": runs,
            "warmup": warmup,
            "service_delay_ms": delay * 1000,
            "overhead": summary(overhead),
            "request_lag": summary(lag),
            "reference_overhead": summary(reference_overhead),
            "reference_request_lag": summary(reference_lag),
        }
    finally:
        if daemon:
            daemon.stop()
        stop_process(ai)
        world.stop()
        if keep:
            progress(f"Kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build" / "release"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--delay", type=float, default=0.25, help="the AI server's own latency in seconds")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    run_standalone("ai_overhead.py", lambda: measure(options.bin_dir, options.runs, options.warmup, options.delay, options.keep), options.json)


if __name__ == "__main__":
    main()
