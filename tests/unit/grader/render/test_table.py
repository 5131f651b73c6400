"""The one terminal-table helper: columns by display width, CJK counted double."""

from __future__ import annotations

from pathlib import Path

from grader.render.table import table, width

FILES = Path(__file__).parent / "files"


def test_wide_characters_take_two_columns() -> None:
    assert (width("abc"), width("练习"), width("EX 练")) == (3, 4, 5)


def test_a_table_pads_every_column_to_its_widest_cell() -> None:
    text = table(
        ["练习", "Kind", "状态"],
        [["EX-11-01", "代码", "通过 (10/10)"], ["EX-11-02", "prose", "未开始"]],
    )
    assert text + "\n" == (FILES / "table.txt").read_text(encoding="utf-8")
