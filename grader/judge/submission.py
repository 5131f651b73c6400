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
from grader.judge.exercises.spec import Exercise
from grader.judge.notebook_code import cell_to_python, join_cells, notebook_module
from grader.judge.safe_open import LinkOnPath, open_no_links

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
    #: For notebooks: each extracted cell's position in the notebook (1-based, every cell
    #: counted, markdown included: what the student sees scrolling from the top).
    cell_numbers: tuple[int, ...] = ()
    #: For notebooks: True when only the cells tagged ``answer`` were taken.
    answer_cells_only: bool = False

    def locate(self, line: int) -> tuple[int, int] | None:
        """A line of ``text`` -> (notebook cell, line within it); None outside any cell."""
        if not self.cell_starts or line < self.cell_starts[0]:
            return None
        index = max(i for i, start in enumerate(self.cell_starts) if start <= line)
        return self.cell_numbers[index], line - self.cell_starts[index] + 1


@dataclass(frozen=True)
class NotebookCells:
    """The cells of one type taken from a notebook: (position in the notebook, source)."""

    cells: tuple[tuple[int, str], ...]
    answer_cells_only: bool


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
        taken = notebook_cells(path, text, "code" if exercise.kind == "code" else "markdown")
        sources = [source for _, source in taken.cells]
        if exercise.kind == "code":
            text, starts = notebook_module([cell_to_python(source) for source in sources])
        else:
            text, starts = join_cells(sources, first_line=1)
        numbers = tuple(number for number, _ in taken.cells)
        submission = Submission(path, text, display, starts, numbers, taken.answer_cells_only)
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


def notebook_cells(path: Path, text: str, cell_type: str) -> NotebookCells:
    """Sources of the cells of ``cell_type``; only cells tagged ``answer`` if any are tagged."""
    try:
        document: Any = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise InvalidNotebook(path=str(path), reason=f"not JSON ({error})") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        raise InvalidNotebook(path=str(path), reason="no 'cells' list")
    if not isinstance(document.get("nbformat"), int) or document["nbformat"] < 4:
        raise InvalidNotebook(path=str(path), reason="nbformat 4 or later is required")
    chosen: list[tuple[int, str, bool]] = []
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
            chosen.append((index, source.replace("\r\n", "\n"), tagged))
    tagged_only = any(tagged for _, _, tagged in chosen)
    if tagged_only:
        chosen = [entry for entry in chosen if entry[2]]
    cells = tuple((index, source) for index, source, _ in chosen if source.strip())
    if not cells:
        raise InvalidNotebook("error.empty_notebook", path=str(path), what=cell_type)
    return NotebookCells(cells, tagged_only)


def check_syntax(submission: Submission) -> None:
    try:
        compile(submission.text, submission.display_name, "exec", dont_inherit=True)
    except SyntaxError as error:
        line = error.lineno or 0
        detail = error.msg
        where = submission.locate(line)
        if where is not None:
            raise StudentSyntaxError(
                "error.syntax_cell",
                path=str(submission.path),
                cell=where[0],
                line=where[1],
                detail=detail,
            ) from None
        raise StudentSyntaxError(path=str(submission.path), line=line, detail=detail) from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise StudentSyntaxError(path=str(submission.path), line=0, detail=str(error)) from None
