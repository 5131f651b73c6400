"""Re-make ``lessons/captures/runs/``: the live runs that lessons show where they cannot run.

``python -m tests.notebooks.make_captured_runs`` (on Linux, from the course root) executes
lessons 11a and 12 top to bottom, then, in the same kernel, saves the latest run of each
live experiment (``LiveRun.save_latest``: journal, worker log, database, signals sent and
the date) and the output of each self-contained live cell named in ``CELL_CAPTURES``.
``platforms.CapturedRun`` reads them back on Windows and macOS;
``tests/notebooks/test_platforms.py`` runs both lessons as those platforms would.
"""

from __future__ import annotations

import sys
import time

import celery
import nbformat

from tests.notebooks.kernel import LESSONS_DIR, cells_tagged, execute, stream_text
from ticketflow_lab.platforms import CAPTURED_RUNS

LESSONS = ("11a-late-ack-and-prefetch", "12-worker-loss-retry-and-time-limits")
#: the runs reading cells read (``LiveRun.latest``): kept for the platforms without live cells
READ_RUNS = ("lesson11", "lesson11-prefetch", "lesson12", "lesson12-reject")
#: tag of a self-contained live cell -> the name its recorded output is kept under
CELL_CAPTURES = {"redelivery-loop": "lesson12-redelivery-loop"}


def main() -> int:
    if not sys.platform.startswith("linux"):
        print("captured runs are recorded on Linux, where the live cells run", file=sys.stderr)
        return 2
    CAPTURED_RUNS.mkdir(parents=True, exist_ok=True)
    for stem in LESSONS:
        notebook = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
        save = nbformat.v4.new_code_cell(
            "from ticketflow_lab.notebook import LiveRun\n"
            "from ticketflow_lab.platforms import CAPTURED_RUNS\n"
            f"saved = LiveRun.save_latest(CAPTURED_RUNS, {READ_RUNS!r})\n"
            "print('\\n'.join(str(path) for path in saved))"
        )
        notebook.cells.append(save)
        execute(notebook, cwd=LESSONS_DIR)
        print(stream_text(notebook.cells[-1]), end="")
        for tag, name in CELL_CAPTURES.items():
            for cell in cells_tagged(notebook, tag):
                stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
                header = (
                    f"=== 以下是 {stamp} 在 Linux 上记录的输出（Celery {celery.__version__}），"
                    "本次没有执行 ==="
                )
                path = CAPTURED_RUNS / f"{name}.txt"
                path.write_text(f"{header}\n{stream_text(cell)}", encoding="utf-8")
                print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
