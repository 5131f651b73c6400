"""The hostile corpus: one file per trick under ``files/``, described by its header.

A ``.py``/``.ipynb`` file is handed in as it is; its first lines say what it is::

    # trick: <what it tries>
    # expect: failed | input_error | failed|input_error | needs_review
    #         (needs_review: a prose answer awaiting review, with a provisional score of 0)
    # exercise: EX-11-01
    # timeout: yes                       (optional: it is expected to hit the wall limit)
    # rlimits: skip — <why>              (optional: meaningless or unsafe in the rlimits fallback)
    # known-hole: H1                     (optional: the trick works today; see FINDINGS.md;
    #                                     "H2b flaky": it works only some of the time)
    # known-hole-rlimits: H7             (the same, in the rlimits fallback only)

A valid notebook cannot start with comments: its header lives in ``metadata.hostile``.
A case may also booby-trap the course root it is graded in (a copy of its own)::

    # course: grader-link      (.grader is a symlink to a folder elsewhere: writes must not
    #                           land there)
    #       | results-fifo     (.grader/judge/results.json is a FIFO: nothing may block on it)

A ``.make`` file describes a submission built at test time (symlinks, FIFOs, 10 MB files)::

    # make: empty | directory | fifo | missing | symlink <target> | huge <MB>
    #       | nested-json <depth> | copy-solution | control-name | write <text>
    #       | symlinked-dir <dir under the repo> | repeat <bytes> <text>
    #       (repeat: <text> over and over, cut to at most <bytes> bytes of UTF-8)
    # name: retry_policy_probe.py        (the file name to hand in)
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

FILES = Path(__file__).parent / "files"
REPO = Path(__file__).resolve().parents[2]
OUTCOMES = {"failed": 1, "input_error": 2, "needs_review": 0}
STUDENT_FILES = {
    "EX-11-01": "retry_policy_probe.py",
    "EX-12-01": "notification_once_probe.py",
    "EX-13-01": "atomic_effect_probe.py",
    "EX-11-02": "answer.md",
    "EX-12-02": "answer.md",
    "EX-13-02": "answer.md",
}
#: Every process a case starts on purpose carries one of these (cmdline / comm).
PROCESS_MARKER = "hostile-corpus-marker"
THREAD_MARKER = "hstl-marker"
#: Every file a case drops on purpose has one of these in its name.
DROP_MARKERS = ("hostile-corpus", "hostile_corpus", "hstl-")


@dataclass(frozen=True)
class Case:
    name: str
    source: Path
    trick: str
    expect: frozenset[str]
    exercise: str
    make: str | None = None
    submit_as: str | None = None
    rlimits_skip: str | None = None
    timeout: bool = False
    known_hole: str | None = None
    known_hole_rlimits: str | None = None
    course: str | None = None

    def hole_in(self, isolation: str | None) -> str | None:
        if isolation == "rlimits":
            return self.known_hole_rlimits or self.known_hole
        return self.known_hole

    @property
    def exit_codes(self) -> frozenset[int]:
        return frozenset(OUTCOMES[outcome] for outcome in self.expect)

    @property
    def file_name(self) -> str:
        if self.submit_as:
            return self.submit_as
        default = STUDENT_FILES.get(self.exercise, self.source.name)
        return str(Path(default).with_suffix(self.source.suffix))


def header_of(path: Path) -> dict[str, str]:
    raw = path.read_bytes()
    if path.suffix == ".ipynb":
        try:
            document = json.loads(raw)
        except ValueError:
            document = None
        if isinstance(document, dict):
            return {k: str(v) for k, v in document["metadata"]["hostile"].items()}
    fields: dict[str, str] = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        if not line.startswith("# ") or ":" not in line:
            break
        key, _, value = line[2:].partition(":")
        fields[key.strip()] = value.strip()
    return fields


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(FILES.iterdir()):
        if not path.is_file() or path.suffix not in (".py", ".ipynb", ".md", ".make"):
            continue
        head = header_of(path)
        missing = {"trick", "expect", "exercise"} - set(head)
        if missing:
            raise ValueError(f"{path.name}: header lacks {sorted(missing)}")
        expect = frozenset(head["expect"].split("|"))
        if not expect <= set(OUTCOMES):
            raise ValueError(f"{path.name}: unknown expectation {head['expect']!r}")
        rlimits = head.get("rlimits")
        cases.append(
            Case(
                name=path.name,
                source=path,
                trick=head["trick"],
                expect=expect,
                exercise=_unescape(head["exercise"]),
                make=head.get("make"),
                submit_as=head.get("name"),
                rlimits_skip=rlimits if rlimits and rlimits.startswith("skip") else None,
                timeout=head.get("timeout") == "yes",
                known_hole=head.get("known-hole"),
                known_hole_rlimits=head.get("known-hole-rlimits"),
                course=head.get("course"),
            )
        )
    return cases


def _unescape(text: str) -> str:
    """Header values may spell control characters as Python escapes (\\x1b, \\u202e)."""
    if "\\" not in text:
        return text
    return text.encode("ascii", "backslashreplace").decode("unicode_escape")


def materialize(case: Case, where: Path) -> Path:
    """Build the submission in a directory of its own; return the path to hand in."""
    folder = where / f"hostile-case-{Path(case.name).stem}"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / case.file_name
    if case.make is None:
        shutil.copyfile(case.source, target)
        return target
    kind, _, argument = case.make.partition(" ")
    if kind == "empty":
        target.write_bytes(b"")
    elif kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "missing":
        pass
    elif kind == "symlink":
        pointee = Path(argument) if argument.startswith("/") else REPO / argument
        target.symlink_to(pointee)
    elif kind == "huge":
        target.write_text(_huge_probe(int(argument) << 20), encoding="utf-8")
    elif kind == "nested-json":
        depth = int(argument)
        target.write_text('{"nbformat": 4, "cells": ' + "[" * depth + "]" * depth + "}")
    elif kind == "control-name":
        target = folder / "probe\x1b]0;pwned\x07\x1b[2J\nline\u202egnp.py"
        target.write_text("def broken(:\n    pass\n", encoding="utf-8")
    elif kind == "symlinked-dir":
        link = folder / "linked"
        link.symlink_to(REPO / argument, target_is_directory=True)
        target = link / case.file_name
    elif kind == "write":
        target.write_text(_unescape(argument), encoding="utf-8")
    elif kind == "repeat":
        size, _, text = argument.partition(" ")
        unit = _unescape(text)
        data = (unit * (int(size) // len(unit) + 1)).encode("utf-8")[: int(size)]
        target.write_bytes(data.decode("utf-8", "ignore").encode("utf-8"))
    elif kind == "copy-solution":
        shutil.copyfile(REPO / "solutions" / case.exercise / STUDENT_FILES[case.exercise], target)
    else:
        raise ValueError(f"{case.name}: unknown make kind {kind!r}")
    return target


def _huge_probe(size: int) -> str:
    body = 'print("RetryableTaskError 0 True 5 False")\n'
    padding = "# " + "x" * 97 + "\n"
    return body + padding * (size // len(padding) + 1)


#: Where a ``grader-link`` trap points: a folder outside the course that must stay untouched.
LINK_TARGET = "hostile-corpus-link-target"
COURSE_TRAPS = ("grader-link", "results-fifo")


def trapped_course(case: Case, where: Path) -> Path:
    """A course root of the case's own (exercises/ only) with its ``course:`` trap set."""
    root = where / f"hostile-course-{Path(case.name).stem}"
    shutil.copytree(REPO / "exercises", root / "exercises")
    if case.course == "grader-link":
        target = where / LINK_TARGET
        target.mkdir()
        (root / ".grader").symlink_to(target, target_is_directory=True)
    elif case.course == "results-fifo":
        (root / ".grader").mkdir()
        os.mkfifo(root / ".grader" / "results.json")
    else:
        raise ValueError(f"{case.name}: unknown course trap {case.course!r}")
    return root
