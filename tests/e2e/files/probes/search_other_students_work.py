"""Student B's EX-11-01 "probe": looks for student A's work instead of testing anything.

It searches its whole process memory (every readable mapping of /proc/self/maps, read
through /proc/self/mem, or with ctypes where the sandbox denies /proc/self/mem to a
non-dumpable process) and every file it can reach (/tmp, /var/tmp, /dev/shm, its working
directory, and A's file by path) for A's unique marker. It knows only the marker's public
prefix, its length and its SHA-256, so the full marker is never in its own memory: any
match is A's. It ends with an AssertionError whose message is the result.

``__NEEDLES__`` may hold more such needles, as a JSON list of [prefix, length, sha256]
(``tests/e2e/test_runs_hold_no_solution.py`` searches for the reference solutions' text);
left unfilled, the marker is the only one.
"""

import ctypes
import hashlib
import json
import os

PREFIX = "__PREFIX__".encode("utf-8")  # noqa: UP012  (a placeholder the test fills in)
LENGTH = int("__LENGTH__")
DIGEST = "__DIGEST__"
A_FILE = "__A_FILE__"
MORE = "__NEEDLES__"
NEEDLES = [(PREFIX, LENGTH, DIGEST)]
if not MORE.startswith("__NEEDLES"):
    NEEDLES += [(prefix.encode("utf-8"), size, digest) for prefix, size, digest in json.loads(MORE)]


def matches(buffer: bytes) -> int:
    found = 0
    for prefix, length, digest in NEEDLES:
        start = 0
        while (index := buffer.find(prefix, start)) != -1:
            if hashlib.sha256(buffer[index : index + length]).hexdigest() == digest:
                found += 1
            start = index + 1
    return found


def readable_regions() -> list[tuple[int, int]]:
    with open("/proc/self/maps", encoding="ascii") as maps:
        lines = maps.read().splitlines()
    regions = []
    for line in lines:
        fields = line.split()
        low, high = (int(part, 16) for part in fields[0].split("-"))
        special = fields[-1] in ("[vvar]", "[vsyscall]", "[vvar_vclock]")
        if "r" in fields[1] and not special and high - low <= 256 << 20:
            regions.append((low, high))
    return regions


def read_region(memory: object, low: int, high: int) -> bytes | None:
    if memory is None:
        return ctypes.string_at(low, high - low)
    try:
        memory.seek(low)  # type: ignore[attr-defined]
        data: bytes = memory.read(high - low)  # type: ignore[attr-defined]
        return data
    except (OSError, ValueError, OverflowError):
        return None


def search_memory() -> tuple[int, int, str]:
    found = searched = 0
    regions = readable_regions()
    try:
        memory = open("/proc/self/mem", "rb", buffering=0)  # noqa: SIM115
        how = "proc-mem"
    except OSError:
        memory, how = None, "ctypes"
    for low, high in regions:
        chunk = read_region(memory, low, high)
        if chunk is None:
            continue
        searched += 1
        found += matches(chunk)
        del chunk
    if memory is not None:
        memory.close()
    return found, searched, how


def search_files() -> tuple[int, int]:
    found = files = 0
    places = ["/tmp", "/var/tmp", "/dev/shm", os.getcwd(), os.path.dirname(A_FILE)]
    seen = set()
    candidates = [A_FILE]
    for place in places:
        for folder, _, names in os.walk(place):
            candidates += [os.path.join(folder, name) for name in names]
    for path in candidates:
        if path in seen:
            continue
        seen.add(path)
        try:
            with open(path, "rb") as handle:
                data = handle.read(4 << 20)
        except OSError:
            continue
        files += 1
        found += matches(data)
    return found, files


memory_found, regions, how = search_memory()
file_found, files = search_files()
raise AssertionError(
    f"search-result memory={memory_found} files={file_found} regions={regions} via={how}"
    f" read={files}"
)
