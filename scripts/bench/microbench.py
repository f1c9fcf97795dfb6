#!/usr/bin/python3
"""Runs the package-benchmark micro-benchmarks in Benchmarks/ and reads their figures.

`swift package benchmark` (ordo-one/benchmark) builds the benchmark targets in release and runs
them; this reads its Markdown output: for each benchmark, the percentiles of each metric
(wall clock, CPU, malloc count). Benchmarks/Benchmarks/NextDueBenchmarks measures the next
1,000,000 occurrences of 1,000 reminder rules beside 1,000,000 plain Date steps.

Standard library only. Measures, asserts nothing.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from benchlib import REPO_ROOT, Failure, progress

PACKAGE = REPO_ROOT / "Benchmarks"


def parse_markdown(text):
    """{benchmark: {metric: {p0, p25, p50, ..., unit, samples}}} from package-benchmark's markdown."""
    results, current, headers = {}, None, None
    for line in text.splitlines():
        if line.startswith("### "):
            current = line[4:].strip()
            results[current] = {}
            headers = None
        elif current and line.startswith("| Metric"):
            headers = [cell.strip() for cell in line.strip("|").split("|")]
        elif current and headers and line.startswith("|") and not line.startswith("|:"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            name = cells[0]
            unit = re.search(r"\(([^()]*)\)\s*\*?$", name)
            values = {}
            for header, cell in zip(headers[1:], cells[1:]):
                try:
                    values[header] = float(cell.replace(",", ""))
                except ValueError:
                    values[header] = cell
            values["unit"] = unit.group(1) if unit else ""
            results[current][name] = values
    return results


def measure(swift="swift", target="NextDueBenchmarks", timeout=900):
    started = time.monotonic()
    progress(f"  micro: swift package benchmark --target {target} (builds the benchmark in release first)")
    command = [
        swift,
        "package",
        "--package-path",
        str(PACKAGE),
        "--disable-sandbox",
        "benchmark",
        "--target",
        target,
        "--no-progress",
        "--format",
        "markdown",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=dict(os.environ))
    if result.returncode != 0:
        tail = "\n".join(
            line for line in (result.stdout + result.stderr).splitlines() if "prohibited flag" not in line
        )[-3000:]
        raise Failure(f"swift package benchmark failed ({result.returncode}):\n{tail}")
    results = parse_markdown(result.stdout)
    if not results:
        raise Failure(f"no benchmark results in the output:\n{result.stdout[-2000:]}")
    return {"benchmark": "micro", "seconds": time.monotonic() - started, "results": results, "raw": result.stdout}


def metric(results, benchmark_prefix, metric_prefix, column="p50"):
    """One figure: the `column` of the first metric starting with `metric_prefix` of a benchmark."""
    for name, metrics in results.items():
        if name.startswith(benchmark_prefix):
            for metric_name, values in metrics.items():
                if metric_name.startswith(metric_prefix):
                    return values.get(column), values.get("unit"), metric_name
    return None, None, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--swift", default="swift")
    parser.add_argument("--json", metavar="FILE")
    options = parser.parse_args()
    try:
        report = measure(options.swift)
    except Failure as error:
        print(f"microbench.py: {error}", file=sys.stderr)
        sys.exit(1)
    print(report["raw"])
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
