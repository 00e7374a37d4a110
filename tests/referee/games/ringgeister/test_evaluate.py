"""Ringgeister's evaluation for bots (``evaluate``) and its determinisation (``determinise``).

The evaluation must follow the plan that wins — the mission first, then the Hobbit
through the spider's path to the goal as Ringbearer — and read only what every
player sees; the determinisation must sample the face-down pile, never read it.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

from referee.bots.determinize import determinise
from referee.compiler import CompiledBoard, compile_board
from referee.games.ringgeister import RinggeisterGame
from referee.games.ringgeister.evaluate import _Distances, distances, remaining
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
START = ROOT / "docs" / "positions" / "ringgeister-start.json"


@lru_cache(maxsize=1)
def compiled() -> CompiledBoard:
    return compile_board(load_project(ROOT / "projects" / "ringgeister"))


def position(**figures: str) -> dict[str, Any]:
    """The example start position, yellow's counter done, ``figures`` moved."""
    pos: dict[str, Any] = json.loads(START.read_text())
    pos["counters"] = {"orange-1": "r1c4/c1"}
    pos["removed"] = ["yellow-1"]
    pos["figures"].update({k.replace("_", "-"): v for k, v in figures.items()})
    return pos


def game(pos: dict[str, Any]) -> RinggeisterGame:
    return RinggeisterGame.from_position(compiled(), pos)


def value(g: RinggeisterGame, player: str) -> float:
    v = g.evaluate(player)
    assert v is not None
    return v


def test_the_nearer_the_hobbit_to_the_goal_the_better() -> None:
    # fire3 is beside the goal; fire1 one point further; the white corner far away
    values = [
        game(position(hobbit_yellow=p)).evaluate("yellow")
        for p in ("fire3", "fire1", "r3c4/p3", "r2c2/p2", "ws3")
    ]
    assert all(v is not None and 0.0 <= v <= 1.0 for v in values)
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)


def test_the_mission_comes_first() -> None:
    """With its counter on the board, a Hobbit beside the goal has not finished: the
    spider's path is closed to it, and the counter's arrival points are what count."""
    done = position(hobbit_yellow="fire3")
    todo = dict(done, counters={"orange-1": "r1c4/c1", "yellow-1": "r3c1/c1"}, removed=[])
    d = distances(game(done))
    assert remaining(game(done), "yellow", d) < remaining(game(todo), "yellow", d)
    # both figures on two of the counter's arrival points beat both at the start
    at_counter = dict(todo)
    at_counter["figures"] = {
        **todo["figures"],
        "hobbit-yellow": "r3c1/p3",
        "man-yellow": "r3c1/p4",
    }
    assert value(game(at_counter), "yellow") > value(game(todo), "yellow")


def test_the_opponents_progress_counts_against() -> None:
    ahead = game(position(hobbit_yellow="fire3"))
    assert value(ahead, "yellow") > value(ahead, "orange")


def test_the_ringbearer_beside_the_goal_is_worth_more() -> None:
    bearer = game(position(hobbit_yellow="fire3"))
    other = game(dict(position(hobbit_yellow="fire3"), face_up="orange-forward-storm"))
    assert value(bearer, "yellow") > value(other, "yellow")


def test_no_evaluation_while_counters_are_placed() -> None:
    g = RinggeisterGame.new(compiled(), players=2, seed=1)
    assert g.phase == "counters" and g.evaluate("yellow") is None


def _with_pile(g: RinggeisterGame, order: list[str]) -> RinggeisterGame:
    data = g.to_json()
    data["state"]["cards"]["pile"] = order
    return RinggeisterGame.from_json(data, g.compiled)


def test_evaluation_and_worlds_ignore_the_order_of_the_pile() -> None:
    g = RinggeisterGame.new(compiled(), players=2, seed=4, options={"counter_placement": "random"})
    rnd = random.Random(4)
    for _ in range(30):
        g.push(rnd.choice(list(g.legal_moves)))
    pile = g.to_json()["state"]["cards"]["pile"]
    assert len(pile) > 2
    other = _with_pile(g, pile[::-1])
    for colour in g.players:
        assert g.evaluate(colour) == other.evaluate(colour)
    worlds = [determinise(h, g.to_move, random.Random(9)) for h in (g, other)]
    assert worlds[0].to_json()["state"] == worlds[1].to_json()["state"]
    # ... and the worlds differ from one another: the pile is sampled
    piles = {
        tuple(determinise(g, g.to_move, random.Random(k)).to_json()["state"]["cards"]["pile"])
        for k in range(5)
    }
    assert len(piles) > 1


def test_distances_follow_the_tiles_as_they_turn() -> None:
    """The point graphs are kept per turn configuration: after tiles turn, the
    evaluation reads graphs equal to ones built afresh for the turned board."""
    seen: set[tuple[tuple[str, int], ...]] = set()
    for seed in range(1, 8):
        g = RinggeisterGame.new(
            compiled(), players=2, seed=seed, options={"counter_placement": "random"}
        )
        rnd = random.Random(seed)
        while g.outcome is None and g.ply < 400:
            g.push(rnd.choice(list(g.legal_moves)))
            if g.outcome is None and g.phase == "play":
                cached = distances(g)
                key = tuple(sorted(g.tile_turns.items()))
                if key not in seen:
                    seen.add(key)
                    fresh = _Distances(g.v)
                    assert cached.safe == fresh.safe and cached.open == fresh.open
                    for c in g.players:
                        assert remaining(g, c, cached) == remaining(g, c, fresh)
        if len(seen) > 3:
            break
    assert len(seen) > 3  # tiles turned
