"""Recorded self-play games replay identically: every legal-move list, every event.

The recordings (``tests/fixtures/replays/*.jsonl``, written by
``tests/fixtures/make_replays.py`` on main before the kit took over the turn) are
seeded random games of Ringgeister and the race. A change to the kit or to a game
that keeps its rules must give, ply by ply, the same legal moves in the same order,
the same events (private fields included) and the same final state file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.games import get_module
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
RECORDINGS = sorted((ROOT / "tests" / "fixtures" / "replays").glob("*.jsonl"))


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
def test_recorded_game_replays_ply_by_ply(path: Path) -> None:
    header, *plies, last = (json.loads(line) for line in path.read_text().splitlines())
    rm = get_module(header["rules"])
    if header["rules"] == "race":
        pytest.importorskip("boardwright_race")
    compiled = compile_board(load_project(ROOT / header["project"]))
    game = rm.game.new(
        compiled, players=header["players"], seed=header["seed"], options=header["options"]
    )
    assert plain(game.setup_events) == header["setup_events"]
    for k, ply in enumerate(plies, 1):
        assert [str(m) for m in game.legal_moves] == ply["legal"], f"legal moves before ply {k}"
        events = game.push(game.parse_move(ply["move"]))
        assert plain(events) == ply["events"], f"events of ply {k} ({ply['move']})"
    assert plain(game.to_json()) == last["final"]
