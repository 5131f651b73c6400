"""``python -m tests.hostile.isolation_driver MODE check ...``: the real CLI, sandbox forced.

The CLI has no switch for the isolation mode (it always asks for the strongest one), so
this driver makes every ``ForkServer`` the CLI starts use ``MODE`` ("rlimits" or
"namespaces") and then hands the remaining arguments to ``grader.cli.main`` unchanged.
It reports the mode actually used on stderr as ``isolation-driver: <mode>``.
"""

from __future__ import annotations

import sys
from typing import Any


def main(argv: list[str]) -> int:
    mode, rest = argv[0], argv[1:]
    import grader.runner
    from grader.cli import main as cli_main

    real_server = grader.runner.ForkServer

    class ForcedServer(real_server):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["isolation"] = mode
            super().__init__(*args, **kwargs)
            print(f"isolation-driver: {self.isolation}", file=sys.stderr)

    grader.runner.ForkServer = ForcedServer  # type: ignore[misc]
    return cli_main(rest)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
