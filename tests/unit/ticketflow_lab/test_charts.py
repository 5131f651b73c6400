"""ticketflow_lab.charts: what a figure shows is exactly the data it was given."""

from __future__ import annotations

from collections.abc import Iterator

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from ticketflow_lab.charts import (
    as_timeline,
    draw_prefetch,
    draw_timeline,
    lane_names,
    plotted_prefetch,
    plotted_timeline,
    prefetch_bars,
    timeline_points,
)


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def prefetch_row(multiplier: int, active: int, reserved: int, queued: int) -> dict[str, int]:
    return {
        "multiplier": multiplier,
        "prefetch_count": multiplier,
        "threads": 1,
        "active": active,
        "reserved": reserved,
        "queued": queued,
    }


def journal(kind: str, pid: int, t: float, **fields: object) -> dict[str, object]:
    return {"kind": kind, "pid": pid, "t": t, "event_id": "evt-1", **fields}


def test_prefetch_title_names_the_threads_pool_not_a_pool_process() -> None:
    figure = draw_prefetch([prefetch_row(4, 1, 3, 2), prefetch_row(1, 1, 0, 5)])
    title = figure.axes[0].get_title()
    assert title.startswith("One worker per multiplier (threads pool, 1 thread), 6 long tasks")
    assert "pool process" not in title


def test_prefetch_legend_covers_no_bar_label() -> None:
    figure = draw_prefetch([prefetch_row(4, 1, 3, 2), prefetch_row(1, 1, 0, 5)])
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    axes = figure.axes[0]
    legend = axes.get_legend().get_window_extent(renderer)
    labels = [text for text in axes.texts if text.get_text()]
    assert sorted(text.get_text() for text in labels) == sorted(["1", "3", "2", "1", "0", "5"])
    covered = [t.get_text() for t in labels if t.get_window_extent(renderer).overlaps(legend)]
    assert not covered, f"the legend covers the bar labels {covered}"


def test_prefetch_bars_read_back_equal_the_rows() -> None:
    rows = [prefetch_row(4, 1, 3, 2), prefetch_row(1, 1, 0, 5)]
    figure = draw_prefetch(rows)
    assert plotted_prefetch(figure) == prefetch_bars(rows)
    assert prefetch_bars(rows)[0] == {"multiplier": 4, "active": 1, "reserved": 3, "queued": 2}


def test_a_changed_row_changes_what_is_read_back() -> None:
    figure = draw_prefetch([prefetch_row(4, 1, 3, 2)])
    assert plotted_prefetch(figure) != prefetch_bars([prefetch_row(4, 1, 2, 3)])


def test_timeline_points_read_back_equal_the_observed_entries() -> None:
    entries = as_timeline(
        [
            journal("worker_up", 10, 100.0),
            journal("started", 11, 100.5),
            journal("committed", 11, 100.6),
            journal("SIGKILL", 11, 100.7, by=10),
            journal("started", 12, 101.4),
            journal("attempt", 12, 101.5, outcome="duplicate"),
            journal("attempt", 12, 101.6, outcome="retry", countdown_seconds=1),
            journal("attempt", 10, 103.0, outcome="dead_lettered", reason="permanent_failure"),
        ]
    )
    lanes = lane_names([e for e in entries if "by" not in e], 10)
    assert lanes == {10: "worker main process", 11: "pool process 1", 12: "pool process 2"}
    figure = draw_timeline(entries, 100.0, lanes)
    points = timeline_points(entries, 100.0)
    assert plotted_timeline(figure) == points
    assert [kind for _, kind, _ in points] == [
        "started",
        "committed",
        "SIGKILL",
        "started",
        "attempt",
        "retry",
        "dead_letter",
    ]
    assert (10, "dead_letter", 3.0) in points


def test_an_unplotted_kind_is_left_out_of_both_sides() -> None:
    entries = [journal("worker_up", 1, 0.0), journal("holding", 1, 1.0)]
    figure = draw_timeline(entries, 0.0, {1: "worker main process"})
    assert plotted_timeline(figure) == timeline_points(entries, 0.0) == []
