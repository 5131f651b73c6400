"""The import graph of grader, ticketflow and ticketflow_lab has no cycle.

Every import counts: module level, inside functions, and under ``TYPE_CHECKING`` (grimp,
the library import-linter is built on, reads them all). The layer rule itself is checked by
``lint-imports`` (contracts in pyproject.toml); this test catches a cycle inside one layer.
"""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

import grader.frontends.notebook

PACKAGES = ("grader", "ticketflow", "ticketflow_lab")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle(graph: grimp.ImportGraph) -> None:
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(name)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    graph.add_import(importer="pkg.c", imported="pkg.a")
    graph.add_import(importer="pkg", imported="pkg.a")
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_function_level_imports_count(graph: grimp.ImportGraph) -> None:
    # grader.frontends.notebook imports the catalogue only inside check() (start-up time)
    source = (Path(grader.frontends.notebook.__file__)).read_text(encoding="utf-8")
    assert "\nfrom grader.render.catalog" not in source  # not at module level
    imported = graph.find_modules_directly_imported_by("grader.frontends.notebook")
    assert "grader.render.catalog" in imported
