"""MCTS in Ringgeister: it takes a win in one move, avoids a Spirit's catch, and its
options (worlds, widen) are checked and deterministic."""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest

from referee.bots import make_bot
from referee.bots.determinize import determinise
from referee.compiler import CompiledBoard, compile_board
from referee.errors import UsageError
from referee.games.ringgeister import RinggeisterGame
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
START = ROOT / "docs" / "positions" / "ringgeister-start.json"
#: positions from seeded random self-play where one or two of the player's moves let a
#: Spirit catch the Ringbearer whatever the pile holds (``caught``), others do not
CATCHES = Path(__file__).resolve().parent / "data" / "ringgeister-catches.json"
SPEC = "mcts:iterations=40,rollout=0,exploration=0.1,worlds=4,widen=4"


@lru_cache(maxsize=1)
def compiled() -> CompiledBoard:
    return compile_board(load_project(ROOT / "projects" / "ringgeister"))


def _beside_the_goal(face_up: str) -> RinggeisterGame:
    pos: dict[str, Any] = json.loads(START.read_text())
    pos["figures"]["hobbit-yellow"] = "fire3"  # the point before the goal
    pos["counters"] = {"orange-1": "r1c4/c1"}
    pos["removed"] = ["yellow-1"]
    pos["face_up"] = face_up
    return RinggeisterGame.from_position(compiled(), pos)


@pytest.mark.parametrize("spec", [SPEC, "mcts:iterations=10,rollout=2"])
def test_mcts_wins_in_one_move(spec: str) -> None:
    g = _beside_the_goal("yellow-forward-storm")  # yellow is the Ringbearer
    move = make_bot(spec, seed=3).choose(g)
    assert str(move) == "hobbit-yellow fire-goal"
    g.push(move)
    assert g.outcome is not None and list(g.outcome.winners) == ["yellow"]


def test_mcts_beside_the_goal_without_the_ring_plays_on() -> None:
    g = _beside_the_goal("orange-forward-storm")
    assert "hobbit-yellow fire-goal" not in {str(m) for m in g.legal_moves}
    assert make_bot(SPEC, seed=3).choose(g) in g.legal_moves


@pytest.mark.parametrize("case", range(4))
def test_mcts_does_not_let_a_spirit_catch_the_ringbearer(case: int) -> None:
    data = json.loads(CATCHES.read_text())[case]
    g = RinggeisterGame.from_position(compiled(), data["position"])
    caught = set(data["caught"])
    legal = {str(m) for m in g.legal_moves}
    assert caught < legal  # the catch is legal, and so is something else
    for m in g.legal_moves:  # the file still says what the rules do
        if str(m) in caught:
            w = determinise(g, g.to_move, random.Random(1))
            w.push(m)
            assert w.outcome is not None and w.outcome.reason == "ringbearer_caught"
    for seed in (1, 2):
        assert str(make_bot(SPEC, seed=seed).choose(g)) not in caught


def test_mcts_options_are_checked_and_the_search_is_deterministic() -> None:
    for bad in ("mcts:worlds=0", "mcts:widen=-1"):
        with pytest.raises(UsageError):
            make_bot(bad)
    assert make_bot(SPEC).describe() == "mcts:iterations=40,worlds=4,widen=4"
    g = RinggeisterGame.new(compiled(), players=2, seed=8, options={"counter_placement": "random"})
    rnd = random.Random(8)
    for _ in range(24):
        g.push(rnd.choice(list(g.legal_moves)))
    picks = [str(make_bot(SPEC, seed=s).choose(g)) for s in (5, 6, 5)]
    assert picks[0] == picks[2]


def test_plain_mcts_plays_with_the_games_own_settings() -> None:
    """``--bots mcts`` in Ringgeister searches as the game declares (``Game.MCTS``);
    the spec's parameters win, and a budget in the spec replaces the game's."""
    g = RinggeisterGame.new(compiled(), players=2, seed=8, options={"counter_placement": "random"})
    rnd = random.Random(8)
    for _ in range(24):
        g.push(rnd.choice(list(g.legal_moves)))
    plain = make_bot("mcts", seed=5)
    assert plain.describe() == "mcts:iterations=200"  # before it has seen a game
    move = plain.choose(g)
    assert plain.describe() == "mcts:iterations=20,worlds=4,widen=4"
    assert (plain.rollout, plain.exploration) == (0, 0.1)
    # the same search as the spec that names the game's settings in full
    assert move == make_bot(SPEC.replace("iterations=40", "iterations=20"), seed=5).choose(g)
    spelled = make_bot("mcts:iterations=7,rollout=3", seed=5)
    spelled.choose(g)
    assert (spelled.iterations, spelled.rollout, spelled.worlds) == (7, 3, 4)
    timed = make_bot("mcts:ms=5", seed=5)
    timed.choose(g)
    assert (timed.iterations, timed.ms) == (None, 5.0)  # the game's 20 iterations are not kept


def test_a_games_bad_mcts_settings_are_refused_in_one_line() -> None:
    class Careless(RinggeisterGame):
        MCTS: ClassVar[dict[str, int | float]] = {"iterations": 0}

    g = Careless.new(compiled(), players=2, seed=8, options={"counter_placement": "random"})
    g.push(next(iter(g.legal_moves)))
    with pytest.raises(UsageError, match="the game's MCTS settings: iterations must be at least 1"):
        make_bot("mcts").choose(g)
    for bad, says in (({"iterations": "10"}, "must be a number"), ({"depth": 3}, "not 'depth'")):
        Careless.MCTS = cast("dict[str, int | float]", bad)  # as a careless plug-in might
        with pytest.raises(UsageError, match=says):
            make_bot("mcts").choose(g)
