"""Ringgeister's goal check: a board check of the Ringgeister module, not of the compiler."""

from __future__ import annotations

from pathlib import Path

import pytest
from shapely.geometry import LineString, Point

from referee.cli import main
from referee.compiler import compile_board
from referee.games import get_module
from referee.games.ringgeister.checks import goal_reach_problems
from referee.model import Board, Feature
from referee.store import export_json


def _board(rules: str | None, *, linked: bool) -> Board:
    features = [
        Feature("s", "point", Point(0, 0), {"start": "white"}),
        Feature("m", "point", Point(10, 0), {}),
        Feature("g", "point", Point(50, 0), {"goal": True}),
        Feature("l", "path", LineString([(0, 0), (10, 0)]), {}),
        Feature("l2", "path", LineString([(50, 0), (60, 0)]), {}),
        Feature("h", "point", Point(60, 0), {}),
    ]
    if linked:
        features.append(Feature("l3", "path", LineString([(10, 0), (50, 0)]), {}))
    meta = {"name": "goal", "width": 100, "height": 40}
    if rules:
        meta["rules"] = rules
    return Board(meta=meta, features=features)


def test_goal_no_white_start_reaches_is_reported_with_its_node() -> None:
    (p,) = goal_reach_problems(compile_board(_board("ringgeister", linked=False)))
    assert (p.code, p.node, p.severity, (p.x, p.y)) == ("goal_unreachable", "g", "error", (50, 0))
    assert goal_reach_problems(compile_board(_board("ringgeister", linked=True))) == []


def test_it_is_one_of_the_ringgeister_board_checks_not_a_compiler_problem() -> None:
    assert goal_reach_problems in get_module("ringgeister").board_checks
    codes = {p.code for p in compile_board(_board(None, linked=False)).problems}
    assert "goal_unreachable" not in codes


@pytest.mark.parametrize(("rules", "reported"), [("ringgeister", True), (None, False)])
def test_referee_check_reports_it_for_ringgeister_boards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str | None, reported: bool
) -> None:
    path = tmp_path / "goal.json"
    export_json(_board(rules, linked=False), path)
    rc = main(["check", str(path), "--no-expect"])
    out = capsys.readouterr().out
    assert ("goal_unreachable" in out) is reported
    if reported:
        assert rc == 1
