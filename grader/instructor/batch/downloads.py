"""An LMS's bulk download graded as it comes: Canvas's flat files and Moodle's folders are
mapped to roster students through the LMS identities the roster holds (``lms_files``).

What maps becomes that student's zip; a name that looks like the LMS's but maps to no
roster student, or a Moodle folder without exactly one zip, is named and not graded; two
entries of one student are a clash (neither graded, as a folder and a zip of one id are).
Without LMS identities in the roster nothing changes. Names and ``lstat`` only.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from grader.instructor.batch.layout import ZIP_SUFFIX, Discovery, StudentSource
from grader.instructor.term.lms_files import MOODLE_FOLDER, map_download_names
from grader.instructor.term.roster import Student

Note = Callable[[str, dict[str, str | int]], None]


def map_downloads(
    folder: Path, discovery: Discovery, roster: Sequence[Student], note: Note
) -> Discovery:
    sources = {s.path.name: s for s in discovery.students if s.kind != "clash"}
    names = [*sources, *discovery.skipped]
    mapped = map_download_names(names, roster)
    if not mapped:
        return discovery
    consumed = {m.entry for m in mapped}
    found: dict[str, StudentSource] = {
        s.student: s for s in discovery.students if s.path.name not in consumed
    }
    for item in mapped:
        if item.student is None:
            note(item.problem, {"name": item.entry})
            continue
        path = folder / item.entry
        if MOODLE_FOLDER.match(item.entry):
            inner = _only_zip(path)
            if inner is None:
                note("batch.lms_no_zip", {"name": item.entry})
                continue
            path = inner
        source = StudentSource(item.student, path, "zip")
        if item.student in found:
            found[item.student] = StudentSource(item.student, folder, "clash")
        else:
            found[item.student] = source
    skipped = tuple(name for name in discovery.skipped if name not in consumed)
    return Discovery(tuple(found[key] for key in sorted(found)), skipped)


def _only_zip(folder: Path) -> Path | None:
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return None
        zips = [
            Path(entry.path)
            for entry in os.scandir(folder)
            if entry.name.lower().endswith(ZIP_SUFFIX) and entry.is_file(follow_symlinks=False)
        ]
    except OSError:
        return None
    return zips[0] if len(zips) == 1 else None
