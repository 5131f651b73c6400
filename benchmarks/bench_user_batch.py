"""A class graded with ``--jobs 2`` as root and as an ordinary user, trees taken in turn.

    python benchmarks/bench_user_batch.py [--students 8] [--rounds 2] [--tree <checkout>]

Without root, a user's runs take turns on the machine (``grader.runner.turns``: the run's
device nodes are the machine's), so a user's batch runs one run at a time where root's runs
two. This prints the wall time of ``grader grade submissions --jobs 2`` on one class of
``--students`` reference students (``tests.support.classroom``), graded from scratch: as
root, and as a user (uid 65534 with no capability when run as root: ``tests.support.as_user``),
for this tree and, with ``--tree``, another checkout (its ``.venv``), in turn, ``--rounds``
times; then the user's wall over root's. Needs root (to grade as root and as a user).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.as_user import NOBODY, user_prefix  # noqa: E402
from tests.support.classroom import make_class  # noqa: E402


def grade(tree: Path, as_user: bool, students: int, scratch: Path) -> float:
    """Seconds to grade a fresh copy of the class with ``tree``'s grader."""
    root = Path(tempfile.mkdtemp(prefix="class-", dir=scratch))
    os.chmod(root, 0o755)
    make_class(root / "submissions", root / "unused.db", ["reference"] * students)
    argv = [str(tree / ".venv" / "bin" / "python"), "-m", "grader", "grade", "submissions"]
    argv += ["--jobs", "2", "--lang", "en", "--db", f"sqlite:///{root}/book.db", "--json"]
    if as_user:
        subprocess.run(["chown", "-R", f"{NOBODY}:{NOBODY}", str(root)], check=True)
        argv = [*user_prefix([sys.base_prefix, str(tree), str(REPO)]), *argv]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(root), "LANG": "C.UTF-8"}
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=root, check=False)
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"grading failed ({tree}, as user: {as_user}): {done.stderr[-1500:]}")
    summary = json.loads(done.stdout)
    if summary["errors"] or summary["graded"] != 6 * students:
        raise SystemExit(f"not every submission was graded: {summary}")
    shutil.rmtree(root, ignore_errors=True)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tree", type=Path, help="another checkout, taken in turn")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("run as root: it grades as root and as an ordinary user")
    trees = [REPO, *([args.tree.resolve()] if args.tree else [])]
    scratch = Path(tempfile.mkdtemp(prefix="bench-user-batch-"))
    os.chmod(scratch, 0o755)
    walls: dict[str, list[float]] = {}
    try:
        for _ in range(args.rounds):
            for tree in trees:
                for as_user in (False, True):
                    key = f"{tree} as {'a user' if as_user else 'root'}"
                    walls.setdefault(key, []).append(grade(tree, as_user, args.students, scratch))
                    print(f"{key}: {walls[key][-1]:.1f} s", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for tree in trees:
        user, root = (min(walls[f"{tree} as {who}"]) for who in ("a user", "root"))
        print(
            f"{tree}: best of {args.rounds}: as a user {user:.1f} s, as root {root:.1f} s, "
            f"user / root {user / root:.2f}"
        )


if __name__ == "__main__":
    main()
