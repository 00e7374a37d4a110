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
from referee.games.ringgeister.evaluate import FAR, _Distances, distances, remaining
from referee.store import load_project

from .boards import B
from .boards import position as board_position

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


# ------------------------------------------------------- stalls: blockers and card turns
def blocked_board() -> B:
    """The Hobbit's only way to the goal passes a black point; the wind arrow on ``W``
    points north at it (ruling 8); ``M1`` is a step from ``W``, ``F`` leads nowhere
    near it; ``O`` is a black point on the ray, nearer ``W`` than ``S``."""
    b = B().pt("H", 0, 0).pt("S", 20, 0, "black").pt("goal", 40, 0, goal=True)
    b.path("H", "S", "goal")
    b.pt("W", 20, 60, wind="N").pt("M1", 20, 80).path("W", "M1")
    b.pt("O", 20, 30, "black").pt("F", 200, 80).pt("F2", 220, 80).path("F", "F2")
    return b


def blocked(man: str, **black: str) -> RinggeisterGame:
    return board_position(
        blocked_board(), {"hobbit-yellow": "H", "man-yellow": man, "spirit": "S", **black}
    )


def test_a_figure_near_the_wind_that_wakes_the_blocker_is_worth_more() -> None:
    """A Spirit stands in the Ringbearer's only way to the goal. The wind from ``W``
    wakes it (ruling 8), so the Man a step from ``W`` is worth more than the Man far
    away — with a flat charge for the blocker the two were worth the same, and the
    bot stalled beside it. The Man on ``W`` already must step off and on again."""
    near, far, on = blocked("M1"), blocked("F"), blocked("W")
    assert value(near, "yellow") > value(far, "yellow")
    assert value(near, "yellow") >= value(on, "yellow") > value(far, "yellow")
    d = distances(near)
    assert remaining(near, "yellow", d) < remaining(far, "yellow", distances(far))


def test_a_black_figure_nearer_along_the_ray_shields_the_blocker() -> None:
    """With an Orc on ``O``, between ``W`` and the Spirit, the wind from ``W`` wakes
    the Orc, not the Spirit: the Man beside ``W`` is worth no more than far away."""
    near, far = blocked("M1", orc="O"), blocked("F", orc="O")
    assert value(near, "yellow") == value(far, "yellow")


def card_board() -> B:
    """The Hobbit beside the goal; the Man's points ``A`` – ``MG`` (magic) – ``B``."""
    b = B().pt("H", 0, 0).pt("goal", 20, 0, goal=True).path("H", "goal")
    b.pt("A", 0, 40).pt("MG", 20, 40, magic=True).pt("B", 40, 40).path("A", "MG", "B")
    return b


def test_a_man_parked_on_a_magic_point_turns_no_card() -> None:
    """Not the Ringbearer, with no counter left, the player needs a card of his colour:
    a coloured figure turns one by coming to rest on a magic point (ruling 7b). Its Man
    standing on one has to step off and on again, so a Man a step from it is worth
    more — valued by its distance 0 the bot parked its Man there and waited for good."""

    def at(man: str) -> RinggeisterGame:
        return board_position(
            card_board(),
            {"hobbit-yellow": "H", "man-yellow": man},
            players=("yellow", "orange"),
            cards=(("orange", "forward", "moon"), ("yellow", "forward", "moon")),
        )

    assert value(at("A"), "yellow") > value(at("MG"), "yellow")
    # ... and the Ringbearer is better off still
    bearer = board_position(
        card_board(),
        {"hobbit-yellow": "H", "man-yellow": "A"},
        players=("yellow", "orange"),
        cards=(("yellow", "forward", "moon"),),
    )
    assert value(bearer, "yellow") > value(at("A"), "yellow")


def test_far_from_winning_every_step_still_counts() -> None:
    """At the start each player is more than FAR moves from winning. Clipped there,
    every move looked the same and the bot wandered; the value keeps falling instead,
    so a Hobbit a step nearer its counter is worth more."""
    start = json.loads(START.read_text())
    games = [
        game(dict(start, figures={**start["figures"], "hobbit-yellow": p}))
        for p in ("ws8", "ws5", "ws2")
    ]
    left = [remaining(g, "yellow", distances(g)) for g in games]
    assert FAR < left[0] < left[1] < left[2]
    values = [value(g, "yellow") for g in games]
    assert values[0] > values[1] > values[2]


def test_a_walk_stopped_at_its_goals_gives_the_full_search_moves() -> None:
    """The Hobbit's and the Man's searches stop once every arrival point is reached
    (the balance-study speed-up, issue 30): at those points the moves are the full
    search's, in every position of a seeded random game, blocked points included."""
    from referee.games.ringgeister.evaluate import _Blockers, _figure, _walk

    g = RinggeisterGame.new(compiled(), players=2, seed=3, options={"counter_placement": "random"})
    rnd = random.Random(3)
    checked = 0
    for _ in range(160):
        if g.outcome is not None:
            break
        if g.phase == "play":
            d = distances(g)
            for colour in g.players:
                targets = {
                    p
                    for c in g.counters
                    if c["colour"] == colour and not c["removed"] and c["space"]
                    for p in g.v.counter_spaces.get(c["space"], [])
                }
                for kind in ("hobbit", "man"):
                    f = _figure(g, colour, kind)
                    if f < 0 or g.pos[f] < 0 or not targets:
                        continue
                    src = g.pos[f]
                    wake = _Blockers(g, [src], -1, d)
                    full = _walk(g, d.safe, src, set(), kind == "hobbit", wake)
                    part = _walk(g, d.safe, src, targets, kind == "hobbit", wake)
                    assert {t: part.get(t, FAR) for t in targets} == {
                        t: full.get(t, FAR) for t in targets
                    }
                    checked += 1
        moves = list(g.legal_moves)
        g.push(moves[rnd.randrange(len(moves))])
    assert checked > 50
