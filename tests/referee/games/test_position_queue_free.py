"""Every decision a track-game position can state without queue steps is written so
(issue 27): random games are played, and at each such decision ``position()`` writes
its phase and no ``queue``, and sets up the same game again."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.games import get_game
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
#: rules -> (project, the decisions a position states without a queue, those the
#: seeded games below are sure to meet, the seeds)
GAMES: dict[str, tuple[str, set[str], set[str], range | tuple[int, ...]]] = {
    "mount-doom": (
        "projects/mount-doom",
        {"start", "place1", "roll2", "place2", "resolve", "turned", "advance", "army"}
        | {"denethor", "battle", "gandalf", "boromir", "vision", "friends"},
        # "uruk": a battle of the Uruk-hai (phase battle or gandalf, uruk_battles written)
        {"resolve", "advance", "battle", "boromir", "uruk"},
        range(4),
    ),
    "lotr-coop": (
        "projects/lotr-coop",
        {"reveal", "play", "line", "each_pay", "group_pay", "volunteer"},
        # "ring": the die of the Ring-bearer who put on the Ring (discard, ring_line)
        {"reveal", "each_pay", "group_pay", "volunteer", "ring"},
        (0, 1, 2, 3, 25),  # seed 25 puts on the Ring and its die shows discard
    ),
}


@pytest.mark.parametrize("rules", sorted(GAMES))
def test_decisions_are_written_without_queue_steps(rules: str) -> None:
    project, free, met, seeds = GAMES[rules]
    cls = get_game(rules)
    compiled = compile_board(load_project(ROOT / project))
    seen: set[str] = set()
    for seed in seeds:
        g: Any = cls.new(compiled, players=3, seed=seed)
        pick = random.Random(seed)
        for _ in range(250):
            if g.outcome is not None:
                break
            pos = g.position()
            ring = pos.get("ring_line") is not None
            if g.phase in free or ring:
                seen.add(g.phase)
                if pos.get("uruk_battles") is not None:
                    seen.add("uruk")
                if ring:
                    seen.add("ring")
                assert pos["queue"] is None, (seed, g.phase, g.queue[:3])
                again = cls.from_position(compiled, pos)
                assert again.to_json()["state"] == g.to_json()["state"]
            g.push(pick.choice(list(g.legal_moves)))
    # the games met an encounter's or an Event's decisions, not only the turn's start
    assert met <= seen, sorted(seen)


@pytest.mark.slow
@pytest.mark.parametrize("rules,steps", [("mount-doom", 1500), ("lotr-coop", 600)])
def test_no_decision_of_many_games_needs_a_queue(rules: str, steps: int) -> None:
    """The wider sweep docs/reference/positions.md quotes: 30 seeded random games each
    of 2, 3 and 4 players meet no decision whose position needs a queue, and every
    position written sets up the same game again."""
    cls = get_game(rules)
    compiled = compile_board(load_project(ROOT / GAMES[rules][0]))
    queued: list[tuple[int, int, str]] = []
    for players in (2, 3, 4):
        for seed in range(30):
            g: Any = cls.new(compiled, players=players, seed=seed)
            pick = random.Random(seed * 7 + players)
            for _ in range(steps):
                if g.outcome is not None:
                    break
                pos = g.position()
                if pos["queue"] is not None:
                    queued.append((players, seed, g.phase))
                else:
                    again = cls.from_position(compiled, pos)
                    assert again.to_json()["state"] == g.to_json()["state"], (seed, g.phase)
                g.push(pick.choice(list(g.legal_moves)))
    assert queued == []
