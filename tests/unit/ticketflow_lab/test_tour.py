from __future__ import annotations

from ticketflow_lab.tour import run_tour


def test_tour_shows_every_end_and_converges() -> None:
    lines: list[str] = []
    assert run_tour(lines.append) == 0
    text = "\n".join(lines)
    statuses = [line.split("->")[1].split()[0] for line in lines if "->" in line]
    assert statuses == [
        "dispatched",
        "duplicate",
        "dead_lettered",
        "dead_lettered",
        "dead_lettered",
    ]
    for countdown in ("retry in 5s", "retry in 10s", "retry in 20s"):
        assert countdown in text
    assert "receipts: 1   business tasks: 1   dead letters: 3" in text
    for reason in ("poison_message", "permanent_failure", "retries_exhausted"):
        assert reason in text
