#!/bin/sh
# Times the TOML reader alone, without building the project: HoorayTOML and toml-read/main.swift are
# compiled together (-O, whole module) and read FILE, by default 100,000 reminders made by scale.py.
# Usage: scripts/bench/toml-read.sh [FILE] [RUNS]. Prints figures; asserts nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TMPDIR:-/tmp}/hooray-toml-read
mkdir -p "$work"
file=${1:-$work/reminders-100000.toml}
if [ ! -f "$file" ]; then
    (cd "$here" && /usr/bin/python3 -c "import scale, sys; from datetime import datetime; open(sys.argv[1], 'w').write(scale.reminders_toml(100000, datetime.now()))" "$file")
fi
swiftc -O -wmo -parse-as-library -module-name HoorayTOML \
    "$root"/Sources/HoorayTOML/*.swift "$root"/Sources/HoorayTOML/Editing/*.swift "$here/toml-read/main.swift" \
    -o "$work/toml-read"
"$work/toml-read" "$file" "${2:-5}"
