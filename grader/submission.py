"""Reading what the student handed in: a .py or .md file, or the cells of a notebook.

Every problem becomes a ``SubmissionError`` that names the file and what to do next;
nothing here runs student code (``compile`` only parses it, to report syntax errors).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.errors import (
    InvalidNotebook,
    StudentSyntaxError,
    SubmissionError,
    SubmissionNotFound,
    SubmissionUnreadable,
    UnsupportedSubmission,
)
from grader.exercises.spec import Exercise
from grader.safe_open import LinkOnPath, open_no_links

CODE_SUFFIXES = (".py", ".ipynb")
PROSE_SUFFIXES = (".md", ".txt", ".ipynb")
MAX_BYTES = 2 << 20


@dataclass(frozen=True)
class Submission:
    path: Path
    text: str
    #: A plain file name for tracebacks in the sandbox (the runner wants no directories).
    display_name: str
    #: For notebooks: the first line of each extracted cell in ``text`` (1-based), in order.
    cell_starts: tuple[int, ...] = ()


def load_submission(exercise: Exercise, path: Path) -> Submission:
    suffixes = CODE_SUFFIXES if exercise.kind == "code" else PROSE_SUFFIXES
    if path.suffix.lower() not in suffixes:
        raise UnsupportedSubmission(path=str(path), expected=" / ".join(suffixes))
    raw = _read_bytes(path, exercise.id)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SubmissionUnreadable(path=str(path), reason=f"not UTF-8 ({error.reason})") from None
    text = text.replace("\r\n", "\n")
    display = _display_name(path)
    if path.suffix.lower() == ".ipynb":
        cells = notebook_cells(path, text, "code" if exercise.kind == "code" else "markdown")
        text, starts = _join_cells(cells)
        submission = Submission(path, text, display, starts)
    else:
        submission = Submission(path, text, display)
    if exercise.kind == "code":
        check_syntax(submission)
    return submission


def _read_bytes(path: Path, exercise_id: str) -> bytes:
    """The file's bytes, read from ONE descriptor that was opened without following links.

    Symbolic links (the file, or a folder below the current directory: see ``safe_open``),
    FIFOs, devices and directories are refused by what the opened descriptor *is*
    (``fstat``), so nothing can be swapped in between the check and the read; ``O_NONBLOCK``
    makes opening a FIFO return at once instead of waiting for a writer.
    """
    try:
        fd = open_no_links(path)
    except LinkOnPath as error:
        raise SubmissionUnreadable(
            "error.submission_linked_folder", path=str(path), link=error.link
        ) from None
    except OSError as error:
        raise _open_error(path, exercise_id, error) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SubmissionUnreadable("error.submission_not_regular", path=str(path))
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise SubmissionUnreadable(path=str(path), reason=error.strerror or str(error)) from None
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        raise SubmissionUnreadable(path=str(path), reason=f"larger than {MAX_BYTES} bytes")
    return b"".join(chunks)


def _open_error(path: Path, exercise_id: str, error: OSError) -> SubmissionError:
    if error.errno == errno.ENOENT:
        if os.path.islink(path):  # a dangling link: still a link, not a missing file
            return SubmissionUnreadable("error.submission_symlink", path=str(path))
        return SubmissionNotFound(path=str(path), exercise=exercise_id)
    if error.errno == errno.ELOOP and os.path.islink(path):
        return SubmissionUnreadable("error.submission_symlink", path=str(path))
    if error.errno in (errno.ENXIO, errno.EISDIR, errno.ENODEV):  # a socket, a device
        return SubmissionUnreadable("error.submission_not_regular", path=str(path))
    return SubmissionUnreadable(path=str(path), reason=error.strerror or str(error))


def _display_name(path: Path) -> str:
    name = path.name.replace("\0", "") or "submission.py"
    return name if len(name.encode()) <= 200 else "submission" + path.suffix


def notebook_cells(path: Path, text: str, cell_type: str) -> list[str]:
    """Sources of the cells of ``cell_type``; only cells tagged ``answer`` if any are tagged."""
    try:
        document: Any = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise InvalidNotebook(path=str(path), reason=f"not JSON ({error})") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        raise InvalidNotebook(path=str(path), reason="no 'cells' list")
    if not isinstance(document.get("nbformat"), int) or document["nbformat"] < 4:
        raise InvalidNotebook(path=str(path), reason="nbformat 4 or later is required")
    chosen: list[tuple[str, bool]] = []
    for index, cell in enumerate(document["cells"], start=1):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise InvalidNotebook(path=str(path), reason=f"cell {index} has no cell_type")
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(part, str) for part in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise InvalidNotebook(path=str(path), reason=f"cell {index} has an invalid source")
        metadata = cell.get("metadata")
        tags = metadata.get("tags") if isinstance(metadata, dict) else None
        tagged = isinstance(tags, list) and "answer" in tags
        if cell["cell_type"] == cell_type:
            chosen.append((source, tagged))
    if any(tagged for _, tagged in chosen):
        chosen = [(source, True) for source, tagged in chosen if tagged]
    if cell_type == "code":
        sources = [_without_magics(source) for source, _ in chosen]
    else:
        sources = [source for source, _ in chosen]
    sources = [source for source in sources if source.strip()]
    if not sources:
        raise InvalidNotebook("error.empty_notebook", path=str(path), what=cell_type)
    return sources


def _without_magics(source: str) -> str:
    """IPython magics and shell escapes are not Python: keep them as comments."""
    lines = []
    for line in source.splitlines():
        stripped = line.lstrip()
        lines.append(f"# {line}" if stripped.startswith(("%", "!")) else line)
    return "\n".join(lines)


def _join_cells(cells: list[str]) -> tuple[str, tuple[int, ...]]:
    starts, parts, line = [], [], 1
    for cell in cells:
        body = cell.rstrip("\n") + "\n"
        starts.append(line)
        parts.append(body)
        line += body.count("\n") + 1
    return "\n".join(parts), tuple(starts)


def check_syntax(submission: Submission) -> None:
    try:
        compile(submission.text, submission.display_name, "exec", dont_inherit=True)
    except SyntaxError as error:
        line = error.lineno or 0
        detail = error.msg
        if submission.cell_starts:
            cell = max((i for i, s in enumerate(submission.cell_starts) if s <= line), default=0)
            raise StudentSyntaxError(
                "error.syntax_cell",
                path=str(submission.path),
                cell=cell + 1,
                line=line - submission.cell_starts[cell] + 1,
                detail=detail,
            ) from None
        raise StudentSyntaxError(path=str(submission.path), line=line, detail=detail) from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise StudentSyntaxError(path=str(submission.path), line=0, detail=str(error)) from None
