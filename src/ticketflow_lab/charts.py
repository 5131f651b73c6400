"""The lessons' pictures, drawn from what a live cell observed — and read back for tests.

Each ``draw_*`` returns a matplotlib ``Figure`` built only from the rows or journal
entries it is given; each ``plotted_*`` reads the data back out of a figure's artists, so
a test (and the notebook itself) can check that the picture shows exactly what was
observed. Labels stay ASCII: the default fonts have no CJK glyphs, and a missing glyph
would be a warning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

BAR_SERIES = ("active", "reserved", "queued")
BAR_LABELS = {
    "active": "active (running)",
    "reserved": "reserved (prefetched)",
    "queued": "still in the broker queue",
}

LABEL_SERIES = {label: series for series, label in BAR_LABELS.items()}

#: Timeline marker per journal kind: (matplotlib marker, colour, legend label).
TIMELINE_STYLE = {
    "started": ("o", "tab:blue", "task started in this process"),
    "committed": ("s", "tab:green", "effect committed"),
    "already_applied": ("D", "tab:olive", "receipt found: duplicate"),
    "attempt": ("*", "tab:purple", "attempt ended (outcome)"),
    "retry": ("^", "tab:orange", "retry requested (countdown)"),
    "reject": ("v", "tab:brown", "Reject(requeue=False)"),
    "dead_letter": ("P", "tab:red", "dead letter written"),
    "SIGKILL": ("X", "black", "SIGKILL sent by the notebook"),
    "SIGSTOP": ("|", "black", "SIGSTOP sent by the notebook"),
}


def prefetch_bars(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, int]]:
    """The part of the observed ``inspect`` rows that the prefetch chart shows."""
    return [
        {"multiplier": int(row["multiplier"]), **{k: int(row[k]) for k in BAR_SERIES}}
        for row in rows
    ]


def draw_prefetch(rows: Sequence[Mapping[str, Any]]) -> Any:
    """Grouped bars per worker (one group per multiplier): active, reserved, still queued."""
    import matplotlib.pyplot as plt

    data = prefetch_bars(rows)
    figure, axes = plt.subplots(figsize=(8.5, 3.2))
    width = 0.26
    for index, series in enumerate(BAR_SERIES):
        positions = [group + (index - 1) * width for group in range(len(data))]
        bars = axes.bar(positions, [row[series] for row in data], width, label=BAR_LABELS[series])
        axes.bar_label(bars)
    axes.set_xticks(range(len(data)), [f"multiplier={row['multiplier']}" for row in data])
    axes.set_ylabel("messages")
    axes.set_title(prefetch_title(rows), fontsize="medium")
    # The legend goes outside the axes, on the right: inside, it covered the tallest bar's label.
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    figure.tight_layout()
    return figure


def prefetch_title(rows: Sequence[Mapping[str, Any]]) -> str:
    """Says what was measured: one worker per multiplier, its pool and its concurrency."""
    threads = sorted({int(row["threads"]) for row in rows})
    pool = (
        "threads pool, "
        + "/".join(map(str, threads))
        + (" thread" if threads == [1] else " threads")
    )
    tasks = sorted({sum(int(row[k]) for k in BAR_SERIES) for row in rows})
    published = "/".join(map(str, tasks))
    return f"One worker per multiplier ({pool}), {published} long tasks: who holds them"


def plotted_prefetch(figure: Any) -> list[dict[str, int]]:
    """The bar heights of a ``draw_prefetch`` figure, as rows like ``prefetch_bars``."""
    axes = figure.axes[0]
    labels = [tick.get_text() for tick in axes.get_xticklabels()]
    rows: list[dict[str, int]] = [{"multiplier": int(label.split("=", 1)[1])} for label in labels]
    for container in axes.containers:
        series = LABEL_SERIES.get(container.get_label())
        if series is None:
            continue
        for row, patch in zip(rows, container.patches, strict=True):
            row[series] = round(float(patch.get_height()))
    return rows


def as_timeline(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Journal entries with an attempt's outcome as its kind (retry / dead letter)."""
    mapped = []
    for entry in entries:
        kind = entry["kind"]
        if kind == "attempt" and entry.get("outcome") == "retry":
            kind = "retry"
        elif kind == "attempt" and entry.get("outcome") == "dead_lettered":
            kind = "dead_letter"
        mapped.append({**entry, "kind": kind})
    return mapped


def lane_names(entries: Iterable[Mapping[str, Any]], main_pid: int) -> dict[int, str]:
    """The worker's main process first, then each pool process in order of appearance."""
    names = {main_pid: "worker main process"}
    for entry in sorted(entries, key=lambda e: float(e["t"])):
        pid = int(entry["pid"])
        if pid not in names:
            names[pid] = f"pool process {len(names)}"
    return names


def timeline_points(
    entries: Iterable[Mapping[str, Any]], t0: float
) -> list[tuple[int, str, float]]:
    """(pid, kind, seconds since ``t0``) of every entry the timeline shows, in time order."""
    points = [
        (int(entry["pid"]), str(entry["kind"]), round(float(entry["t"]) - t0, 3))
        for entry in entries
        if entry["kind"] in TIMELINE_STYLE
    ]
    return sorted(points, key=lambda point: (point[2], point[0], point[1]))


def draw_timeline(
    entries: Iterable[Mapping[str, Any]], t0: float, lane_names: Mapping[int, str]
) -> Any:
    """One lane per process (``lane_names``: pid -> name); one marker per observed entry."""
    import matplotlib.pyplot as plt

    points = timeline_points(entries, t0)
    pids = list(lane_names)
    figure, axes = plt.subplots(figsize=(9, 0.8 + 0.7 * len(pids)))
    for kind, (marker, colour, label) in TIMELINE_STYLE.items():
        mine = [(t, pids.index(pid)) for pid, k, t in points if k == kind and pid in pids]
        if not mine:
            continue
        collection = axes.scatter(
            [t for t, _ in mine],
            [lane for _, lane in mine],
            marker=marker,
            color=colour,
            s=90,
            label=label,
            zorder=3,
        )
        collection.set_gid(kind)
    axes.set_yticks(range(len(pids)), [f"{lane_names[pid]} (pid {pid})" for pid in pids])
    axes.set_ylim(-0.6, len(pids) - 0.4)
    axes.invert_yaxis()
    axes.grid(axis="x", alpha=0.3)
    axes.set_xlabel("seconds since the worker started")
    if axes.collections:  # a legend of nothing is a matplotlib warning
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    figure.tight_layout()
    return figure


def plotted_timeline(figure: Any) -> list[tuple[int, str, float]]:
    """The markers of a ``draw_timeline`` figure as (pid, kind, seconds), in time order."""
    axes = figure.axes[0]
    lane_pids = [
        int(tick.get_text().rsplit("pid ", 1)[1].rstrip(")")) for tick in axes.get_yticklabels()
    ]
    points = []
    for collection in axes.collections:
        kind = collection.get_gid()
        for x, y in collection.get_offsets():
            points.append((lane_pids[round(float(y))], str(kind), round(float(x), 3)))
    return sorted(points, key=lambda point: (point[2], point[0], point[1]))
