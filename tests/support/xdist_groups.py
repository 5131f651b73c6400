"""``xdist_group`` that works on pytest 9.2: each group runs on one worker, as documented.

pytest-xdist's ``--dist loadgroup`` sends the tests of one ``xdist_group`` to one worker by
appending ``@<group>`` to their node ids on the worker; the controller then schedules by that
suffix. pytest-xdist 3.8 writes the suffix to ``item._nodeid``, which pytest 9.2 no longer
reads (a node's id is the structured ``item._id``): the suffix was lost, every test became
its own unit of work, and each group's module fixtures (a class graded by the real CLI, a
release built) were built once per worker and its tests ran side by side on both.

``pytest_collection_modifyitems`` below adds the suffix where pytest-xdist's did not take.
``tests/conftest.py`` loads it; ``tests/unit/test_xdist_groups.py`` checks that it takes.
"""

from __future__ import annotations

import pytest

#: The mark pytest-xdist groups by.
MARK = "xdist_group"


def group_of(item: pytest.Item) -> str | None:
    """The group name pytest-xdist derives from ``item``'s marks (``None``: no group)."""
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers(MARK)
    }
    return "_".join(sorted(names)) if names else None


def set_nodeid(item: pytest.Item, nodeid: str) -> None:
    """Give ``item`` the node id ``nodeid`` on pytest 8 (a string) and 9.2+ (a ``NodeId``)."""
    if hasattr(item, "_id"):  # pytest >= 9.2
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(nodeid)
    else:
        item._nodeid = nodeid
    assert item.nodeid == nodeid, (item.nodeid, nodeid)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not getattr(config.option, "loadgroup", False):  # set on a --dist loadgroup worker
        return
    for item in items:
        group = group_of(item)
        if group is not None and not item.nodeid.endswith(f"@{group}"):
            set_nodeid(item, f"{item.nodeid}@{group}")
