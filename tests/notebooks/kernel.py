"""Execute lesson notebooks on a kernel that runs *this* interpreter (the repo's venv).

We do not look the kernel up by name among the installed kernelspecs: a user-level
``python3`` kernelspec could point at another Python without ticketflow. Instead a
throwaway kernelspec whose ``argv[0]`` is ``sys.executable`` is written to a temporary
directory and used for that one run. Nothing outside the repo's ``pip install -e ".[dev]"``
is needed (ipykernel comes with the ``notebooks`` extra).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from traitlets import default

LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
KERNEL_NAME = "ticketflow-lessons"
CELL_TIMEOUT_SECONDS = 120
#: How long a kernel may take to exit after its shutdown request. Jupyter's default (5 s:
#: SIGTERM at 2.5 s, SIGKILL at 5 s) cuts short the finalizers that remove a live run's temp
#: folder when the machine is loaded (seen: lesson 12's four folders left at load 8 on two
#: cores); a kernel exits in well under a second when it can.
SHUTDOWN_WAIT_SECONDS = 60.0


def lesson_notebooks() -> list[Path]:
    """Every lesson notebook (``NN-name.ipynb``, or ``NNa-…``/``NNb-…`` for a split lesson)."""
    return sorted(LESSONS_DIR.glob("[0-9][0-9]*-*.ipynb"))


@contextmanager
def this_interpreter_kernel() -> Iterator[type[KernelManager]]:
    """A KernelManager class that can only start ``KERNEL_NAME``: this interpreter."""
    with tempfile.TemporaryDirectory(prefix="tf-kernelspec-") as directory:
        spec_dir = Path(directory) / KERNEL_NAME
        spec_dir.mkdir()
        spec = {
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "ticketflow lessons (this interpreter)",
            "language": "python",
        }
        (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")

        class ThisInterpreterKernelManager(KernelManager):
            @default("kernel_spec_manager")
            def _only_our_kernelspec(self) -> KernelSpecManager:
                return KernelSpecManager(kernel_dirs=[directory])

            @default("shutdown_wait_time")
            def _patient(self) -> float:
                return SHUTDOWN_WAIT_SECONDS

        yield ThisInterpreterKernelManager


def execute(notebook: Any, *, cwd: Path, allow_errors: bool = False) -> Any:
    """Run every cell of ``notebook`` (in place) with ``cwd`` as the working directory.

    Raises ``nbclient.exceptions.CellExecutionError`` on the first failing cell, unless
    ``allow_errors`` (then the error is an output of its cell and the run goes on).
    nbclient owns the kernel and shuts it down (and closes its channels) afterwards.
    """
    with this_interpreter_kernel() as manager_class:
        NotebookClient(
            notebook,
            kernel_name=KERNEL_NAME,
            kernel_manager_class=manager_class,
            timeout=CELL_TIMEOUT_SECONDS,
            allow_errors=allow_errors,
            resources={"metadata": {"path": str(cwd)}},
        ).execute()
    return notebook


def execute_file(path: Path) -> Any:
    """Read a lesson notebook and execute it where Jupyter would: in its own folder."""
    notebook = nbformat.read(path, as_version=4)
    return execute(notebook, cwd=path.parent)


def stream_text(cell: Any, name: str = "stdout") -> str:
    """All ``name`` stream output of one executed code cell, joined."""
    return "".join(
        output.get("text", "")
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream" and output.get("name") == name
    )


def cells_tagged(notebook: Any, tag: str) -> list[Any]:
    return [cell for cell in notebook.cells if tag in cell.get("metadata", {}).get("tags", [])]
