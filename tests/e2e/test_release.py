"""``grader release``: the student copy works on its own and carries no answer.

Inside the built copy (its own ``src`` and ``grader`` first on ``PYTHONPATH``, the test's
interpreter only for third-party packages): ``make demo`` runs, lesson 13 executes, and
``grader check`` says "not started" for a starter and "passed" for a correct probe this
test writes. No text of the answer key (``grader/private/``: each pattern, each concept
summary) is anywhere in the copy, and the same scan finds them all in a copy built with
``grader/private/`` left in.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest

import grader.instructor.release as release_module
from grader.judge.exercises.answer_key import private_files
from tests.notebooks.kernel import execute, stream_text

# one worker builds this module's class fixture once (not once per xdist worker)
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("test_release")]

REPO = Path(__file__).resolve().parents[2]
FILES = Path(__file__).parent / "files" / "release"
VENV_BIN = Path(sys.executable).parent

PROBE = '''"""EX-11-01 written by the release test: the four decisions, checked and printed."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
expected = {
    ("RetryableTaskError", 0): (True, 5, False),
    ("RetryableTaskError", 1): (True, 10, False),
    ("RetryableTaskError", 2): (False, None, True),
    ("ValueError", 0): (False, None, True),
}
for (name, retries), want in expected.items():
    error = RetryableTaskError("down") if name == "RetryableTaskError" else ValueError("bad")
    got = policy.decision(error, retries_so_far=retries)
    seen = (got.retry, got.countdown_seconds, got.dead_letter)
    assert seen == want, (name, retries, seen)
    print(name, retries, *seen)
'''


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("release") / "course"
    done = subprocess.run(
        [str(VENV_BIN / "grader"), "release", "--out", str(out), "--root", str(REPO)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "RELEASE-MANIFEST.json" in done.stdout
    return out


def _shipped_text(copy: Path) -> str:
    return "\n".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in copy.rglob("*")
        if path.is_file()
    )


def answer_key_texts() -> list[str]:
    """Every pattern's text as the private files spell it (fragments, section headings,
    terms and the terms of the opposite claims: what a leaked file would hold), and every
    concept summary in zh and en. Texts
    that are only ``${NAME}`` references (their fragment is in the list) or shorter than 8
    characters (a bare word such as ``sqlite``, which the lessons use too) are left out."""
    texts = []
    for path in private_files():
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        texts += list(data.get("fragments", {}).values())
        texts += [section["heading"] for section in data.get("sections", [])]
        for concept in data["concepts"]:
            claims = [*concept["alternatives"], *concept.get("contradicts", [])]
            texts += [term for alternative in claims for term in alternative]
            texts += list(concept["summary"].values())
    return [t for t in dict.fromkeys(texts) if len(re.sub(r"\$\{\w+\}", "", t)) >= 8]


def inside(release: Path) -> dict[str, str]:
    """The environment of a command run in the copy: its own packages come first."""
    env = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "PYTHONPATH")}
    env["PYTHONPATH"] = f"{release / 'src'}{os.pathsep}{release}"
    return env


def run(release: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command),
        cwd=release,
        env=inside(release),
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_the_copy_leaves_out_solutions_tests_and_says_so(release: Path) -> None:
    manifest = json.loads((release / "RELEASE-MANIFEST.json").read_text(encoding="utf-8"))
    left_out = {entry["path"] for entry in manifest["left_out"]}
    expected = set(FILES.joinpath("expected-left-out.txt").read_text().split())
    assert expected <= left_out
    for name in expected:
        assert not (release / name).exists()
    assert (release / "lessons" / "captures").is_dir()
    assert (release / "src" / "ticketflow_lab" / "worker_app.py").is_file()


def test_no_solution_text_and_no_rubric_is_in_the_copy(release: Path) -> None:
    shipped = _shipped_text(release)
    # Every prose sentence of a reference answer, and every assertion of a reference probe.
    secrets = [
        line.strip()
        for path in (REPO / "solutions").rglob("*")
        if path.is_file()
        for line in path.read_text(encoding="utf-8").splitlines()
        if (path.suffix == ".md" and len(line.strip()) >= 30 and not line.startswith("#"))
        or (path.suffix == ".py" and line.strip().startswith("assert "))
    ]
    assert len(secrets) > 10  # the scan has something to find
    assert [secret for secret in secrets if secret in shipped] == []
    # No pattern and no concept summary of the answer key, in any file of the copy.
    texts = answer_key_texts()
    assert len(texts) >= 90 and len(private_files()) == 3  # the scan has much to find
    assert [text for text in texts if text in shipped] == []
    assert not (release / "grader" / "private").exists()


def test_the_answer_key_scan_finds_every_text_in_a_copy_that_keeps_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(release_module, "SHIPPED", (*release_module.SHIPPED, "grader/private"))
    leaky = release_module.build_release(REPO, tmp_path / "leaky")
    assert "grader/private/EX-11-02.toml" in leaky.files
    shipped = _shipped_text(leaky.out)
    assert [text for text in answer_key_texts() if text not in shipped] == []


def test_make_demo_runs_in_the_copy(release: Path, tmp_path: Path) -> None:
    stamp = tmp_path / "installed"  # newer than the copied pyproject.toml: no reinstall
    stamp.touch()
    done = run(release, "make", "demo", f"VENV={VENV_BIN.parent}", f"STAMP={stamp}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "receipts: 1   business tasks: 1   dead letters: 3" in done.stdout
    assert "EX-13-02" in done.stdout  # grader list ran too
    assert "Warning" not in done.stderr


def test_a_lesson_executes_in_the_copy_on_the_copys_packages(
    release: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", inside(release)["PYTHONPATH"])
    notebook = nbformat.read(
        release / "lessons" / "13-receipt-and-effect-in-one-transaction.ipynb", as_version=4
    )
    probe = nbformat.v4.new_code_cell("import ticketflow, grader\nprint(ticketflow.__file__)")
    notebook.cells.insert(0, probe)
    execute(notebook, cwd=release / "lessons")
    assert stream_text(notebook.cells[0]).strip() == str(
        release / "src" / "ticketflow" / "__init__.py"
    )
    errors = [
        cell
        for cell in notebook.cells
        if any(o["output_type"] == "error" for o in cell.get("outputs", []))
    ]
    assert errors == []


def test_grader_check_in_the_copy(release: Path) -> None:
    grader = str(VENV_BIN / "grader")
    starter = run(release, grader, "check", "EX-11-01", "--json")
    assert starter.returncode == 1, starter.stdout + starter.stderr
    assert "not started" in starter.stdout or "not_started" in starter.stdout

    probe = release / "exercises" / "EX-11-01" / "retry_policy_probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    passed = run(release, grader, "check", "EX-11-01", "--json")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert json.loads(passed.stdout)["status"] == "passed"

    prose = release / "exercises" / "EX-12-02" / "answer.md"
    prose.write_text(
        prose.read_text(encoding="utf-8") + "先提交回执再写通知，中间崩溃就丢了通知。" * 6
    )
    review = run(release, grader, "check", "EX-12-02", "--json")
    assert review.returncode == 0, review.stdout + review.stderr
    assert json.loads(review.stdout)["status"] == "needs_review"
