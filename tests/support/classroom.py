"""A generated class of students for batch grading (e2e tests and the benchmark).

Every student follows a *profile* (reference solutions, a wrong probe, untouched starters,
crashing/hanging/memory-bombing code, prose, notebooks, each bad archive, ...); the
expected gradebook outcome of each profile lives in ``tests/e2e/files/class/expected.json``.
Submissions are distinct: each carries its student id in a comment.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import warnings
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = REPO / "solutions"
STARTERS = REPO / "exercises"
WRONG = REPO / "tests" / "e2e" / "files" / "wrong"
HOSTILE = REPO / "tests" / "hostile" / "files"
ENGLISH = REPO / "tests" / "unit" / "grader" / "judge" / "files"
CODE = ("EX-11-01", "EX-12-01", "EX-13-01")
PROSE = ("EX-11-02", "EX-12-02", "EX-13-02")
EXERCISES = ("EX-11-01", "EX-11-02", "EX-12-01", "EX-12-02", "EX-13-01", "EX-13-02")
FILE_NAMES = {
    "EX-11-01": "retry_policy_probe.py",
    "EX-12-01": "notification_once_probe.py",
    "EX-13-01": "atomic_effect_probe.py",
    "EX-11-02": "answer.md",
    "EX-12-02": "answer.md",
    "EX-13-02": "answer.md",
}
#: Entries of the submissions folder that are not students (each must be skipped).
NOT_STUDENTS = (".hidden", "-dash.zip", "bad name", "notes.txt", "x" * 65)
SCRIPT = "<script>alert(1)</script>"


@dataclass(frozen=True)
class Member:
    student: str
    profile: str


def solution(exercise: str) -> str:
    return (SOLUTIONS / exercise / FILE_NAMES[exercise]).read_text(encoding="utf-8")


def starter(exercise: str) -> str:
    return (STARTERS / exercise / FILE_NAMES[exercise]).read_text(encoding="utf-8")


def signed(exercise: str, text: str, student: str) -> str:
    """``text`` made unique to ``student`` without changing its verdict."""
    if exercise in CODE:
        return f"{text.rstrip()}\n# handed in by {student}\n"
    return f"{text.rstrip()}\n\n<!-- {student} -->\n"


def reference_files(student: str) -> dict[str, str]:
    return {f"{ex}/{FILE_NAMES[ex]}": signed(ex, solution(ex), student) for ex in EXERCISES}


def notebook(cells: Iterable[tuple[str, str]]) -> str:
    document = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {"cell_type": kind, "metadata": {}, "source": source, "id": f"c{index}"}
            | ({"outputs": [], "execution_count": None} if kind == "code" else {})
            for index, (kind, source) in enumerate(cells)
        ],
    }
    return json.dumps(document, indent=1)


def snooper(student: str, submissions: Path, gradebook: Path) -> str:
    """The reference probe plus an attempt to read the class folder and the gradebook; it
    fails (so the student is ``failed``) if anything of them is readable from a run."""
    spy = f"""
import glob as _glob, os as _os
_seen = []
for _folder in [{str(submissions)!r}] + _glob.glob("/tmp/grader-batch-*"):
    try:
        _seen += _os.listdir(_folder)
    except OSError:
        pass
try:
    with open({str(gradebook)!r}, "rb") as _book:
        _head = _book.read(16)
    if _head:
        _seen.append(_head)
except OSError:
    pass
assert not _seen, f"other students' work is visible: {{_seen[:3]}}"
"""
    return signed("EX-11-01", solution("EX-11-01") + spy, student)


# -- archives -------------------------------------------------------------------------------


def zip_bytes(entries: Iterable[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate names we want
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for info, data in entries:
                archive.writestr(info, data)
    return buffer.getvalue()


def with_manifest(student: str, files: dict[str, str]) -> list[tuple[str, bytes]]:
    encoded = {name: text.encode("utf-8") for name, text in files.items()}
    manifest = {
        "student": student,
        "exercises": sorted({name.split("/")[0] for name in encoded}),
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in encoded.items()},
        "grader_version": "0.1.0",
        "created_at": "2026-11-30T12:00:00+00:00",
    }
    return [*encoded.items(), ("manifest.json", json.dumps(manifest).encode())]


def _link(name: str, target: str) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target.encode()


def bad_archive(kind: str, student: str) -> bytes:
    good = with_manifest(student, reference_files(student))
    if kind == "zip_dotdot":
        return zip_bytes([*good, ("../escaped/EX-11-01/retry_policy_probe.py", b"x = 1\n")])
    if kind == "zip_absolute":
        return zip_bytes([("/tmp/escaped-absolute.py", b"x = 1\n"), *good])
    if kind == "zip_symlink":
        return zip_bytes([_link("EX-11-01/retry_policy_probe.py", "/etc/passwd")])
    if kind == "zip_duplicate":
        return zip_bytes([*good, ("EX-11-02/answer.md", b"second copy\n")])
    if kind == "zip_too_many":
        return zip_bytes([*good, *((f"extra/{n}.txt", b"") for n in range(201))])
    if kind == "zip_bomb":
        return zip_bytes([("EX-11-02/answer.md", b"\0" * (25 << 20))])
    if kind == "zip_corrupt":
        data = zip_bytes(good)
        return data[: len(data) // 2] + b"\xde\xad" * 64
    if kind == "zip_manifest_mismatch":
        tampered = [
            (n, b"# changed after submit\n" + d if n.endswith(".py") else d) for n, d in good
        ]
        return zip_bytes(tampered)
    raise ValueError(kind)


BAD_ARCHIVES = (
    "zip_dotdot",
    "zip_absolute",
    "zip_symlink",
    "zip_duplicate",
    "zip_too_many",
    "zip_bomb",
    "zip_corrupt",
    "zip_manifest_mismatch",
)


# -- the class ------------------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _only(student: str, files: dict[str, str]) -> dict[str, str]:
    return {name: signed(name.split("/")[0], text, student) for name, text in files.items()}


def _wrong_probes() -> list[str]:
    return sorted(f"{p.parent.name}/{p.name}" for p in WRONG.glob("EX-*/*.py"))


def build_member(folder: Path, member: Member, gradebook: Path) -> None:
    """Write one student's submission into the submissions ``folder``."""
    student, profile = member.student, member.profile
    root = folder / student
    builders: dict[str, Callable[[], dict[str, str]]] = {
        "reference": lambda: reference_files(student),
        "starter": lambda: {f"{ex}/{FILE_NAMES[ex]}": starter(ex) for ex in EXERCISES},
        "partial": lambda: {
            k: v for k, v in reference_files(student).items() if k.startswith("EX-11")
        },
        "empty": dict,
        "crash": lambda: _only(
            student, {"EX-11-01/retry_policy_probe.py": "raise RuntimeError('boom')\n"}
        ),
        "hang": lambda: _only(
            student, {"EX-11-01/retry_policy_probe.py": "while True:\n    pass\n"}
        ),
        # waits forever without using the CPU: a result.get() that no worker answers
        "hang_waiting": lambda: _only(
            student,
            {"EX-11-01/retry_policy_probe.py": "import threading\n\nthreading.Event().wait()\n"},
        ),
        "memory_bomb": lambda: _only(
            student,
            {"EX-11-01/retry_policy_probe.py": (HOSTILE / "memory_bomb.py").read_text()},
        ),
        "output_flood": lambda: _only(
            student,
            {"EX-11-01/retry_policy_probe.py": (HOSTILE / "output_flood.py").read_text()},
        ),
        "syntax_error": lambda: {"EX-11-01/retry_policy_probe.py": f"def (:\n# {student}\n"},
        "prose_short": lambda: _only(student, {"EX-11-02/answer.md": "Too short.\n"}),
        "prose_en": lambda: _only(
            student,
            {
                f"{ex}/answer.md": (ENGLISH / f"{ex}-answer-en.md").read_text(encoding="utf-8")
                for ex in PROSE
            },
        ),
        "prose_script": lambda: _only(
            student,
            {
                "EX-11-02/answer.md": (ENGLISH / "EX-11-02-answer-en.md").read_text("utf-8")
                + f"\n{SCRIPT}\n"
            },
        ),
        "notebook": lambda: {
            "EX-11-01/probe.ipynb": notebook(
                [
                    ("markdown", "# probe"),
                    ("code", signed("EX-11-01", solution("EX-11-01"), student)),
                ]
            ),
            "EX-11-02/answer.ipynb": notebook(
                [("markdown", signed("EX-11-02", solution("EX-11-02"), student))]
            ),
        },
        "notebook_ambiguous": lambda: {
            "EX-11-01/one.ipynb": notebook([("code", solution("EX-11-01"))]),
            "EX-11-01/two.ipynb": notebook([("code", f"# {student}\n" + solution("EX-11-01"))]),
        },
        "snooper": lambda: {"EX-11-01/retry_policy_probe.py": snooper(student, folder, gradebook)},
    }
    if profile in builders:
        root.mkdir(parents=True)
        _write(root, builders[profile]())
    elif profile.startswith("wrong:"):
        wrong = profile.split(":", 1)[1]
        exercise = wrong.split("/")[0]
        files = reference_files(student)
        files[f"{exercise}/{FILE_NAMES[exercise]}"] = signed(
            exercise, (WRONG / wrong).read_text(encoding="utf-8"), student
        )
        _write(root, files)
    elif profile == "symlink_file":
        _write(root, {"EX-11-02/answer.md": signed("EX-11-02", solution("EX-11-02"), student)})
        (root / "EX-11-01").mkdir()
        os.symlink(
            SOLUTIONS / "EX-11-01" / FILE_NAMES["EX-11-01"],
            root / "EX-11-01" / FILE_NAMES["EX-11-01"],
        )
    elif profile == "reference_zip":
        data = zip_bytes(with_manifest(student, reference_files(student)))
        (folder / f"{student}.zip").write_bytes(data)
    elif profile in BAD_ARCHIVES:
        (folder / f"{student}.zip").write_bytes(bad_archive(profile, student))
    else:
        raise ValueError(profile)


def class_profiles(references: int = 15) -> list[str]:
    """The mix of the e2e class (62 students with the default 15 references)."""
    singles = [
        "reference_zip",
        "reference_zip",
        "reference_zip",
        "reference_zip",
        "starter",
        "starter",
        "partial",
        "partial",
        "empty",
        "crash",
        "hang",
        "hang_waiting",
        "memory_bomb",
        "output_flood",
        "syntax_error",
        "prose_short",
        "prose_en",
        "prose_en",
        "prose_script",
        "notebook",
        "notebook",
        "notebook_ambiguous",
        "symlink_file",
        "snooper",
    ]
    wrong = [f"wrong:{name}" for name in _wrong_probes()]
    return ["reference"] * references + singles + wrong + list(BAD_ARCHIVES)


def make_class(
    folder: Path, gradebook: Path, profiles: Iterable[str] | None = None
) -> list[Member]:
    """Write the class into ``folder`` (created), plus entries that are not students."""
    folder.mkdir(parents=True, exist_ok=True)
    members = [
        Member(f"s{index:03d}-{profile.split(':')[0].replace('_', '-')}", profile)
        for index, profile in enumerate(profiles if profiles is not None else class_profiles())
    ]
    for member in members:
        build_member(folder, member, gradebook)
    (folder / ".hidden").mkdir()
    (folder / "-dash.zip").write_bytes(zip_bytes(with_manifest("x", reference_files("x"))))
    (folder / "bad name").mkdir()
    (folder / "notes.txt").write_text("not a student\n")
    (folder / ("x" * 65)).mkdir()
    return members


def benchmark_class(folder: Path, students: int) -> list[Member]:
    """``students`` reference/wrong students with all six exercises, every file distinct."""
    wrong = [f"wrong:{name}" for name in _wrong_probes()]
    profiles = [wrong[i % len(wrong)] if i % 3 == 2 else "reference" for i in range(students)]
    return make_class(folder, folder / "unused.db", profiles)


# -- the term's extra hazards (issue 20) ------------------------------------------------------


def crashing_zip(kind: str, student: str) -> bytes:
    """Zips that used to end the whole batch: a file that is also a folder, a 300-byte name."""
    good = with_manifest(student, reference_files(student))
    if kind == "zip_prefix_clash":
        return zip_bytes([("EX-11-01", b"a file where a folder goes\n"), *good])
    if kind == "zip_long_name":
        return zip_bytes([*good, ("EX-11-01/" + "n" * 300 + ".py", b"x = 1\n")])
    raise ValueError(kind)


CRASHING_ZIPS = ("zip_prefix_clash", "zip_long_name")
