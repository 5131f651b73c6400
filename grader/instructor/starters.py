"""Student starters, generated from the reference solutions (``grader build-starters``).

A solution file marks its answer with ``# BEGIN SOLUTION`` / ``# END SOLUTION`` (Python)
or ``<!-- BEGIN SOLUTION -->`` / ``<!-- END SOLUTION -->`` (Markdown); the starter keeps
everything else and puts a TODO stub in place of each marked block. The starters'
fingerprints go to ``grader/judge/exercises/starters.json`` (read by ``grader.judge.starters``).

    grader build-starters [--root DIR] [--check]
"""

from __future__ import annotations

import json
from pathlib import Path

from grader.app.course import EXERCISES_DIR, SOLUTIONS_DIR
from grader.errors import UsageError
from grader.judge.starters import FINGERPRINTS, fingerprint, forget_fingerprints

_MARKERS = {
    ".py": ("# BEGIN SOLUTION", "# END SOLUTION"),
    ".md": ("<!-- BEGIN SOLUTION -->", "<!-- END SOLUTION -->"),
}


class MarkerError(ValueError):
    """A solution file's BEGIN/END markers are missing or unbalanced, at ``line``."""

    def __init__(self, detail: str, line: int) -> None:
        super().__init__(f"line {line}: {detail}")
        self.detail = detail
        self.line = line


def stub(suffix: str, exercise_id: str, indent: str) -> list[str]:
    if suffix == ".py":
        return [
            f"{indent}# TODO({exercise_id}): 在这里写你的代码，要求见 README.md。",
            f'{indent}raise NotImplementedError("{exercise_id}: 尚未完成")',
        ]
    return [f"{indent}（在这里写你的回答）"]


def starter_from_solution(text: str, suffix: str, exercise_id: str) -> str:
    """Replace every marked solution block with the stub for ``suffix``."""
    begin, end = _MARKERS[suffix]
    out: list[str] = []
    inside = False
    blocks = opened = 0
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        marker = line.strip()
        if marker == begin:
            if inside:
                raise MarkerError(f"{begin} inside the block opened on line {opened}", number)
            inside, blocks, opened = True, blocks + 1, number
            out.extend(stub(suffix, exercise_id, line[: len(line) - len(line.lstrip())]))
        elif marker == end:
            if not inside:
                raise MarkerError(f"{end} without a {begin} before it", number)
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise MarkerError(f"{begin} is never closed by {end}", opened)
    if not blocks:
        raise MarkerError(f"no {begin} / {end} block", len(lines) or 1)
    return "\n".join(out).rstrip("\n") + "\n"


def generate(root: Path) -> tuple[dict[Path, str], dict[str, dict[str, str]]]:
    """Every starter file (path -> text) and the fingerprints, from ``root/solutions``."""
    files: dict[Path, str] = {}
    prints: dict[str, dict[str, str]] = {}
    for folder in sorted((root / SOLUTIONS_DIR).glob("EX-*")):
        for source in sorted(folder.iterdir()):
            if source.suffix not in _MARKERS or source.name == "README.md":
                continue
            try:
                text = starter_from_solution(
                    source.read_text(encoding="utf-8"), source.suffix, folder.name
                )
            except MarkerError as error:
                raise UsageError(
                    "error.solution_marker", path=str(source), line=error.line, detail=error.detail
                ) from None
            files[root / EXERCISES_DIR / folder.name / source.name] = text
            prints[folder.name] = {
                "file": source.name,
                "sha256": fingerprint(text),
                "template": text,
            }
    return files, prints


def _fingerprint_text(prints: dict[str, dict[str, str]]) -> str:
    return json.dumps(prints, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def stale_files(root: Path) -> list[Path]:
    """Starters (and the fingerprint file) that differ from what the solutions generate."""
    files, prints = generate(root)
    files[FINGERPRINTS] = _fingerprint_text(prints)
    return [path for path, text in files.items() if _read(path) != text]


def build_starters(root: Path) -> list[Path]:
    """Write every stale starter and the fingerprints; return what changed."""
    files, prints = generate(root)
    files[FINGERPRINTS] = _fingerprint_text(prints)
    changed = []
    for path, text in files.items():
        if _read(path) != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    forget_fingerprints()
    return changed


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None
