"""The census of the default board and of two big generated boards, figure for figure.

``tests/fixtures/census_reference.json`` holds every exact figure (the count, each
tile's contexts, decided contexts and successes per turn class, the fewest reachable
points) that the census gave at commit 71a20f5, before the one-pass criticality: it
ran one multi-world sweep per tile then (7.3 s for the 7 × 7 board, 167 s for the
10 × 10 one on a quiet machine). The census must still give exactly these numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.model import Board
from referee.rotations import census
from referee.rotations.generate import grid_board
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
REFERENCE = json.loads((ROOT / "tests" / "fixtures" / "census_reference.json").read_text())

BOARDS = {
    "default": lambda: load_project(ROOT / "projects" / "ringgeister"),
    "7x7": lambda: grid_board(7, 7, 40, seed=5, asymmetric=True),
    "10x10": lambda: grid_board(10, 10, 80, seed=5, asymmetric=True),
}


def _figures(board: Board) -> dict[str, object]:
    res = census(compile_board(board))
    assert res.method == "exact" and not res.partial and res.missing == []
    assert res.fewest is not None
    return {
        "configurations": str(res.total),
        "success": str(res.success),
        "fewest_points": res.fewest.reachable_points,
        "tiles": {
            t.placement: {
                "contexts": str(t.contexts),
                "decided": str(t.decided),
                "success_by_class": [str(s) for s in t.success_by_class or []],
            }
            for t in res.tiles
        },
    }


@pytest.mark.parametrize("name", list(BOARDS))
def test_census_figures_equal_the_recorded_ones(name: str) -> None:
    assert _figures(BOARDS[name]()) == REFERENCE[name]


def test_default_board_connects_63_percent_of_its_configurations() -> None:
    """The figure the README and issue 30 quote: 170,271,648 of 268,435,456 (63.43 %)."""
    res = census(compile_board(BOARDS["default"]()), critical=False, fewest=False)
    assert (res.success, res.total) == (170_271_648, 268_435_456)
    assert f"{100 * (res.fraction or 0):.2f}" == "63.43"
