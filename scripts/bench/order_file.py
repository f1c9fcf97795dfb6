#!/usr/bin/python3
"""Writes packaging/hooray.order: the functions hoorayd and hooray-cli run, for the linker to put side by side.

    order_file.py --bin-dir .build-bench/release [--output packaging/hooray.order]

The release build (scripts/release-flags) compiles every function into a section of its own and
gives gold this file (`--section-ordering-file`): the sections it names go first in .text, in its
order. The kernel maps an executable's code a fault at a time with the pages around it, so when
the few megabytes of code a process runs are scattered over 26 MB of .text, most of .text ends up
resident; side by side, only they and their neighbours are.

What runs is recorded for real, under valgrind's callgrind (every function executed, by symbol
name), in a throw-away world with a private bus and the headless notification server:

  hoorayd  its start, `hooray status`, a habit added, ticked and listed, a win logged, `hooray
           next`, `hooray moments`, a reminder added: each through hoorayd, with the notifications
           they show; then 5 s of rest and SIGTERM
  hooray-cli  the same words without hoorayd (`win`, `habit list`, `next`, `status`, `--help`,
           `help`), which the front door hands to the full program

The file lists each function's section, `.text.` and its mangled name, hoorayd's first. A name
that is no longer in the build is ignored by the linker, so a stale file costs only locality:
run this again (`make order-file`) after large changes, and compare `make bench`'s memory rows.

valgrind 3.19 cannot read the toolchain's DWARF 5, so the binaries are run from copies with their
debug sections stripped (the symbol table, which callgrind names functions by, stays).
Standard library only; run with /usr/bin/python3. Not part of `make test`.
"""

import argparse
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import REPO_ROOT, Failure, World, progress, resolve_binaries

HOORAYD_WORDS = [
    ["status"],
    ["habit", "add", "Stretch", "--remind", "20:00"],
    ["win", "Shipped it"],
    ["habit", "done", "Stretch"],
    ["habit", "list"],
    ["next"],
    ["moments"],
    ["status", "--json"],
    ["remind", "Call mom", "--at", "18:00"],
]
CLI_WORDS = [["win", "Fixed the bike"], ["habit", "list"], ["next"], ["status"], ["--help"], ["help"], ["--version"]]


def callgrind(command, world, output, wait_for=None, then=None, timeout=600):
    """Runs `command` under callgrind in `world`; returns the names of the functions it ran."""
    process = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--demangle=no", "--compress-strings=no", "--dump-instr=no",
         f"--callgrind-out-file={output}", *command],
        env=world.environment(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True,
    )
    if wait_for:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                raise Failure(f"{command[0]} ended before it said {wait_for!r}")
            if wait_for in line:
                break
        # The rest of its standard error is read away, so that it never blocks on a full pipe.
        drain = subprocess.Popen(["cat"], stdin=process.stderr, stdout=subprocess.DEVNULL)
        try:
            then()
            time.sleep(5)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=timeout)
            drain.wait(timeout=10)
    else:
        process.communicate(timeout=timeout)
    names = []
    seen = set()
    with open(output, errors="replace") as handle:
        for line in handle:
            if line.startswith(("fn=", "cfn=")):
                name = line.split("=", 1)[1].strip()
                # `(id) name` when names are compressed; they are not, but keep to the name.
                name = name.split(" ", 1)[1] if name.startswith("(") and " " in name else name
                if name and not name.startswith("0x") and name not in seen:
                    seen.add(name)
                    names.append(name)
    return names


def record(bin_dir):
    """The functions hoorayd runs, then those hooray-cli runs that hoorayd did not."""
    hooray, hoorayd = resolve_binaries(bin_dir)
    root = Path(tempfile.mkdtemp(prefix="hooray-order-"))
    try:
        stripped = root / "bin"
        stripped.mkdir()
        for program in (hoorayd, hooray, Path(hooray).parent / "hooray-cli"):
            subprocess.run(["strip", "--strip-debug", "-o", str(stripped / Path(program).name),
                            str(Path(program).resolve())], check=True)
        world = World(root / "world")
        world.start()
        try:
            progress("order: hoorayd under callgrind (its start is slow there)")

            def words():
                for command in HOORAYD_WORDS:
                    world.run([stripped / "hooray", *command], check=False, timeout=300)

            daemon = callgrind([str(stripped / "hoorayd")], world, root / "hoorayd.callgrind", "hoorayd is running", words)
            progress(f"order: hoorayd ran {len(daemon):,} functions; now hooray-cli without hoorayd")
            cli = []
            for index, command in enumerate(CLI_WORDS):
                cli += callgrind([str(stripped / "hooray-cli"), *command], world, root / f"cli-{index}.callgrind")
        finally:
            world.stop()
        # Only the functions of the binaries themselves: those of shared libraries are not ours to place.
        defined = set()
        for program in ("hoorayd", "hooray-cli", "hooray"):
            output = subprocess.run(["nm", "--defined-only", str(stripped / program)], capture_output=True,
                                    text=True, check=True).stdout
            defined.update(fields[2] for fields in (line.split(" ", 2) for line in output.splitlines())
                           if len(fields) == 3 and fields[1] in "tTwW")
        daemon = [name for name in daemon if name in defined]
        known = set(daemon)
        rest = [name for name in dict.fromkeys(cli) if name not in known and name in defined]
        return daemon, rest
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=str(REPO_ROOT / ".build-bench" / "release"))
    parser.add_argument("--output", default=str(REPO_ROOT / "packaging" / "hooray.order"))
    options = parser.parse_args()
    if not shutil.which("valgrind"):
        print("order_file.py: valgrind is not installed (sudo apt install valgrind)", file=sys.stderr)
        return 69
    daemon, cli = record(options.bin_dir)
    lines = [f".text.{name}" for name in daemon + cli if " " not in name]
    Path(options.output).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"Wrote {options.output}: {len(daemon):,} functions of hoorayd, then {len(cli):,} more of hooray-cli.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
