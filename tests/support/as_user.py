"""Running a command as an ordinary user, from the suite or a benchmark.

As root (CI), the command runs as uid 65534 with no capability (``setpriv``), in a mount
namespace of its own where that user can reach the interpreter and the course: over the
highest root-only folder on the way to each, an empty world-readable tmpfs with the needed
paths bound back (root's 0700 home holds pyenv's interpreter here). Not as root, the
command runs as it is, as the current user.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path

NOBODY = 65534
TOOLS = ("unshare", "setpriv", "mount")


def _blocked(path: str) -> list[str]:
    """The folders on the way to ``path`` that others may not pass through."""
    found, current = [], "/"
    for part in Path(path).parts[1:]:
        if not os.stat(current).st_mode & stat.S_IXOTH:
            found.append(current)
        current = os.path.join(current, part)
    return found


def _stand_ins(needed: list[str]) -> str:
    """Shell lines giving 65534 a way to each of ``needed``: over the highest root-only
    folder on the way to one, an empty world-readable tmpfs, with the needed paths under it
    bound back."""
    tops: dict[str, list[str]] = {}
    for path in needed:
        blocked = _blocked(path)
        if blocked:
            tops.setdefault(blocked[0], []).append(path)
    lines = []
    for top, paths in tops.items():
        for index, path in enumerate(paths):
            lines.append(f'h{index}=$(mktemp -d) && mount --bind "{path}" "$h{index}"')
        lines.append(f'mount -t tmpfs -o mode=0755,size=1m tmpfs "{top}"')
        for index, path in enumerate(paths):
            lines.append(f'mkdir -p "{path}" && mount --move "$h{index}" "{path}"')
    return "".join(f"{line} && " for line in lines)


def user_prefix(reachable: Sequence[str]) -> list[str]:
    """The argv prefix that runs a command as an ordinary user who can reach ``reachable``
    (the interpreter's prefixes, the course): ``[]`` when this is not root."""
    if os.geteuid() != 0:
        return []
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    assert not missing, f"install util-linux: {', '.join(missing)} missing"
    needed = list(dict.fromkeys(os.path.realpath(p) for p in reachable))
    script = (
        "mount --make-rprivate / && "
        + _stand_ins(needed)
        + f"exec setpriv --reuid {NOBODY} --regid {NOBODY} --clear-groups "
        '--inh-caps=-all --bounding-set=-all "$@"'
    )
    return ["unshare", "-m", "sh", "-c", script, "as-user"]
