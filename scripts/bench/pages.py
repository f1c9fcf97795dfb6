#!/usr/bin/python3
"""Where a process's resident set lies: by mapping, and inside its own executable by ELF section.

    pages.py PID [--symbols N]

For each mapping of /proc/PID/maps, the pages present in memory are read from /proc/PID/pagemap
(root only: without CAP_SYS_ADMIN the kernel hides the frame numbers but still reports presence).
Pages of the executable are attributed to the section (readelf -S) whose file range holds them,
and, with --symbols, to the largest symbols (nm -S) of the busiest sections, so a figure like
"27 MB of the binary's pages" splits into code, relocations, read-only data and ICU's data.

Standard library only; run with /usr/bin/python3. Measures, asserts nothing. Used by memory.py
for BENCHMARKS.md's "what dominates", and by hand.
"""

import argparse
import bisect
import os
import struct
import subprocess
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")


def mappings(pid):
    """(start, end, offset, path, permissions) of every mapping."""
    rows = []
    with open(f"/proc/{pid}/maps") as handle:
        for line in handle:
            parts = line.split(maxsplit=5)
            start, end = (int(value, 16) for value in parts[0].split("-"))
            path = parts[5].strip() if len(parts) > 5 else ""
            rows.append((start, end, int(parts[2], 16), path, parts[1]))
    return rows


def present_pages(pid, start, end):
    """Virtual addresses of the pages of [start, end) that are in memory."""
    addresses = []
    with open(f"/proc/{pid}/pagemap", "rb") as handle:
        handle.seek(start // PAGE * 8)
        data = handle.read((end - start) // PAGE * 8)
    for index in range(len(data) // 8):
        (entry,) = struct.unpack_from("<Q", data, index * 8)
        if entry & (1 << 63) or entry & (1 << 62):
            addresses.append(start + index * PAGE)
    return addresses


def sections(path):
    """(file offset, size, name, virtual address) of each allocated section of an ELF file."""
    output = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in output.splitlines():
        line = line.replace("[ ", "[")
        if not line.strip().startswith("[") or "Name" in line:
            continue
        fields = line.split("]", 1)[1].split()
        if len(fields) < 6:
            continue
        name, _kind, address, offset, size = fields[0], fields[1], fields[2], fields[3], fields[4]
        if int(size, 16) == 0 or int(address, 16) == 0:
            continue
        rows.append((int(offset, 16), int(size, 16), name, int(address, 16)))
    rows.sort()
    return rows


def symbols(path):
    """(address, size, name) of the defined symbols of an ELF file, sorted by address."""
    output = subprocess.run(
        ["nm", "-S", "--defined-only", "-C", path], capture_output=True, text=True, check=False
    ).stdout
    rows = []
    for line in output.splitlines():
        fields = line.split(maxsplit=3)
        if len(fields) == 4:
            try:
                rows.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
            except ValueError:
                pass
    rows.sort()
    return rows


def owner(name):
    """A symbol's module, roughly: ICU, Foundation, the Swift runtime, SQLite or the rest."""
    lowered = name.lower()
    if "icudt" in lowered or "icu_" in lowered or lowered.startswith("u_") or lowered.startswith("ucal"):
        return "ICU"
    for module in ("FoundationInternationalization", "FoundationEssentials", "Foundation", "GRDB", "ArgumentParser"):
        if module in name:
            return module
    if name.startswith("swift::") or name.startswith("swift_") or "Swift." in name:
        return "Swift runtime and standard library"
    if name.startswith("sqlite3"):
        return "SQLite"
    if name.startswith("CF") or name.startswith("__CF") or name.startswith("_CF"):
        return "CoreFoundation"
    return "other"


def profile(pid, top_symbols=0):
    """A report of the resident set of PID, as text lines, and the figures in a dict."""
    executable = os.path.realpath(f"/proc/{pid}/exe")
    by_mapping = {}
    other_files = {}
    executable_pages = []
    anonymous = 0
    for start, end, offset, path, _permissions in mappings(pid):
        pages = present_pages(pid, start, end)
        if not pages:
            continue
        if path == executable:
            executable_pages += [(address - start + offset, address) for address in pages]
        elif path.startswith("/") and ".so" in os.path.basename(path):
            by_mapping[path] = by_mapping.get(path, 0) + len(pages) * PAGE
        elif path.startswith("/"):
            # A database's shared memory and the like: by name only (their folders are temporary).
            name = os.path.basename(path)
            other_files[name] = other_files.get(name, 0) + len(pages) * PAGE
        else:
            anonymous += len(pages) * PAGE
    table = sections(executable)
    starts = [row[0] for row in table]
    by_section = {}
    in_section = {}
    for file_offset, address in executable_pages:
        index = bisect.bisect_right(starts, file_offset) - 1
        name = "(headers and gaps)"
        if index >= 0 and file_offset < table[index][0] + table[index][1] + PAGE:
            name = table[index][2]
            in_section.setdefault(name, []).append(table[index][3] + file_offset - table[index][0])
        by_section[name] = by_section.get(name, 0) + PAGE
    figures = {
        "executable": len(executable_pages) * PAGE,
        "sections": by_section,
        "libraries": by_mapping,
        "other_files": other_files,
        "anonymous": anonymous,
    }
    lines = [f"{executable}: {len(executable_pages) * PAGE / 1e6:.1f} MB resident"]
    for name, size in sorted(by_section.items(), key=lambda item: -item[1]):
        lines.append(f"  {name:<28} {size / 1e6:7.2f} MB")
    if top_symbols:
        table_of_symbols = symbols(executable)
        addresses = [row[0] for row in table_of_symbols]
        by_owner = {}
        by_symbol = {}
        for name in ("__TEXT", ".text", ".rodata", ".data.rel.ro", ".data"):
            for page in in_section.get(name, []):
                index = bisect.bisect_right(addresses, page + PAGE - 1) - 1
                # Every symbol that overlaps the page shares it; the page counts for the largest.
                best = None
                while index >= 0 and table_of_symbols[index][0] + max(table_of_symbols[index][1], 1) > page - (1 << 20):
                    symbol = table_of_symbols[index]
                    if symbol[0] < page + PAGE and symbol[0] + symbol[1] > page:
                        if best is None or symbol[1] > best[1]:
                            best = symbol
                    if symbol[0] + symbol[1] <= page and symbol[1] < (1 << 20):
                        if best is not None:
                            break
                    index -= 1
                label = best[2] if best else "(no symbol)"
                by_symbol[(name, label)] = by_symbol.get((name, label), 0) + PAGE
                by_owner[(name, owner(label))] = by_owner.get((name, owner(label)), 0) + PAGE
        lines.append("  by module (text, rodata, data.rel.ro, data):")
        for (section, module), size in sorted(by_owner.items(), key=lambda item: -item[1])[:20]:
            lines.append(f"    {section:<14} {module:<36} {size / 1e6:7.2f} MB")
        lines.append(f"  the {top_symbols} symbols holding most resident pages:")
        for (section, label), size in sorted(by_symbol.items(), key=lambda item: -item[1])[:top_symbols]:
            lines.append(f"    {section:<14} {size / 1e6:7.2f} MB  {label[:110]}")
    total_libraries = sum(by_mapping.values())
    lines.append(f"shared libraries: {total_libraries / 1e6:.1f} MB resident in {len(by_mapping)} files")
    for path, size in sorted(by_mapping.items(), key=lambda item: -item[1])[:25]:
        lines.append(f"  {os.path.basename(path):<40} {size / 1e6:7.2f} MB")
    for name, size in sorted(other_files.items(), key=lambda item: -item[1]):
        lines.append(f"other mapped file {name}: {size / 1e6:.2f} MB")
    lines.append(f"anonymous (heap, stacks, relocated data): {anonymous / 1e6:.1f} MB")
    return lines, figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pid", type=int)
    parser.add_argument("--symbols", type=int, default=0, help="list the N symbols holding most pages")
    arguments = parser.parse_args()
    lines, _ = profile(arguments.pid, arguments.symbols)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
