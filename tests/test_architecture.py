"""The structure of ``referee/`` and ``editor/`` (issue 26, docs/explanation/architecture.md):
no import circles, type-only imports included. The layers themselves (imports only
point down) are import-linter's contract in ``pyproject.toml`` (``lint-imports``,
run by ``.ci/run``).

The graph is the code's own: files as nodes, every import (at the top, inside a
function, under ``TYPE_CHECKING``) as an arrow, built by grimp (import-linter's
graph). A circle is tolerated only inside a package listed in :data:`TOLERATED`,
with the part of issue 26 that removes it; once it is gone the entry must go too.
"""

from __future__ import annotations

import grimp
import networkx as nx
import pytest

#: package -> why its internal circles are still there: the part of issue 26 whose
#: branch removes them (the integrator deletes the entry when it lands)
TOLERATED: dict[str, str] = {}


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    g = grimp.build_graph("referee", "editor", exclude_type_checking_imports=False, cache_dir=None)
    out = nx.DiGraph()
    for m in g.modules:
        out.add_node(m)
        out.add_edges_from((m, i) for i in g.find_modules_directly_imported_by(m))
    return out


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _circles(graph: nx.DiGraph) -> list[set[str]]:
    """Every set of modules that import each other round a circle (strongly connected)."""
    return [set(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]


def _tolerated_in(circle: set[str]) -> str | None:
    return next((p for p in TOLERATED if all(_inside(m, p) for m in circle)), None)


def test_no_import_circle_outside_the_tolerated_packages(graph: nx.DiGraph) -> None:
    found = [c for c in _circles(graph) if _tolerated_in(c) is None]
    described = [
        " ; ".join(sorted(f"{a} -> {b}" for a, b in graph.subgraph(c).edges)) for c in found
    ]
    assert not found, "import circles:\n" + "\n".join(described)


def test_every_tolerated_package_still_has_its_circle(graph: nx.DiGraph) -> None:
    """An entry whose circles are gone is deleted, so the list cannot outlive its reason."""
    used = {_tolerated_in(c) for c in _circles(graph)}
    assert [p for p in TOLERATED if p not in used] == []


def test_the_core_is_free_of_circles(graph: nx.DiGraph) -> None:
    """The core that was one circle through ten files (compiler, model, palette,
    render, store and the games registry): the model, palette, renderer and compiler,
    with everything they import, reach no game and form no circle."""
    core = ("referee.model", "referee.palette", "referee.render", "referee.compiler")
    below: set[str] = set()
    for m in graph.nodes:
        if any(_inside(m, c) for c in core):
            below |= {m} | nx.descendants(graph, m)
    assert not any(_inside(m, "referee.games") for m in below), sorted(
        m for m in below if _inside(m, "referee.games")
    )
    assert _circles(graph.subgraph(below)) == []


def test_a_circle_is_found_where_there_is_one() -> None:
    """The check itself: two modules importing each other make a circle; a chain does not."""
    g = nx.DiGraph([("a.x", "a.y"), ("a.y", "a.x"), ("a.y", "b")])
    assert _circles(g) == [{"a.x", "a.y"}]
    assert _circles(nx.DiGraph([("a", "b"), ("b", "c")])) == []
