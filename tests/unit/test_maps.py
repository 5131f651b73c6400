"""The maps stay true: every link in the top-level documents names a file that exists, and
ARCHITECTURE.md answers each "where is X?" question with one link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = ("README.md", "ARCHITECTURE.md", "SECURITY.md", "CONTRIBUTING.md", "grader/README.md")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")

#: The questions issue 18 asked a newcomer to answer in one hop.
QUESTIONS = (
    "verdict decided",
    "EX-12-01's mutants",
    "recorded exactly once",
    "review page authenticate",
    "run isolated",
    "proxy of the function under test built",
    "real implementation answer",
)


def links(document: str) -> list[str]:
    text = (REPO / document).read_text(encoding="utf-8")
    return [target for target in LINK.findall(text) if "://" not in target]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_link_names_a_file_that_exists(document: str) -> None:
    base = (REPO / document).parent
    missing = [target for target in links(document) if not (base / target).exists()]
    assert missing == [], f"{document} links to missing paths: {missing}"


def test_the_link_checker_notices_a_missing_file(tmp_path: Path) -> None:
    assert LINK.findall("see [x](grader/nowhere.py) and [y](https://example.org)") == [
        "grader/nowhere.py",
        "https://example.org",
    ]


@pytest.mark.parametrize("question", QUESTIONS)
def test_architecture_answers_in_one_link(question: str) -> None:
    rows = [
        line
        for line in (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("|") and question in line
    ]
    assert len(rows) == 1, question
    answer = rows[0].split("|")[2]
    first = LINK.findall(answer)
    assert first and (REPO / first[0]).is_file(), rows[0]
