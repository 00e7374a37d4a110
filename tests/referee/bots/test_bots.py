"""Bots through the public game protocol: legal, seeded, and blind to hidden state."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.bots import make_bot, parse_bots, rewards, seats, winners
from referee.bots.determinize import determinise
from referee.compiler import compile_board
from referee.errors import UsageError
from referee.games import draw, get_game, lost, won
from referee.store import load_project

PROJECTS = Path(__file__).resolve().parents[3] / "projects"

GAMES = {
    "ringgeister": ("ringgeister", 2, {"counter_placement": "random"}),
    "riddle": ("riddle-sample", 2, {"turn_limit": 20}),
    "mount-doom": ("mount-doom", 3, {}),
    "lotr-coop": ("lotr-coop", 3, {}),
}
_COMPILED: dict[str, Any] = {}


def compiled(project: str) -> Any:
    if project not in _COMPILED:
        _COMPILED[project] = compile_board(load_project(PROJECTS / project))
    return _COMPILED[project]


def new_game(rules: str, seed: int = 3, plies: int = 0) -> Any:
    project, players, options = GAMES[rules]
    g = get_game(rules).new(compiled(project), players=players, seed=seed, options=dict(options))
    rnd = random.Random(seed)
    for _ in range(plies):
        moves = list(g.legal_moves)
        if g.outcome is not None or not moves:
            break
        g.push(moves[rnd.randrange(len(moves))])
    return g


def snapshot(g: Any) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


@pytest.mark.parametrize("rules", sorted(GAMES))
@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=4,rollout=2"])
def test_bot_chooses_a_legal_move_and_changes_nothing(rules: str, spec: str) -> None:
    g = new_game(rules, plies=6)
    before = snapshot(g)
    move = make_bot(spec, seed=1).choose(g)
    assert snapshot(g) == before
    assert move in g.legal_moves
    g.push(move)  # accepted by the referee


@pytest.mark.parametrize("rules", ["riddle", "mount-doom"])
def test_mcts_is_deterministic_for_an_iteration_budget(rules: str) -> None:
    g = new_game(rules, plies=5)
    while len(list(g.legal_moves)) < 2:  # a real choice
        g.push(next(iter(g.legal_moves)))
    a = [str(make_bot("mcts:iterations=30,rollout=3", seed=s).choose(g)) for s in (1, 2, 1)]
    assert a[0] == a[2]


def test_bad_bots_are_refused_in_one_line() -> None:
    with pytest.raises(UsageError, match="unknown bot 'alphazero'"):
        make_bot("alphazero")
    for spec in ("mcts:iterations=0", "mcts:iterations=-3", "mcts:ms=0", "mcts:ms=-1"):
        with pytest.raises(UsageError, match="must be"):
            make_bot(spec)
    with pytest.raises(UsageError, match="takes"):
        make_bot("mcts:depth=3")
    with pytest.raises(UsageError, match="no parameters"):
        make_bot("random:iterations=3")
    with pytest.raises(UsageError, match="3 bot"):
        parse_bots("mcts,random,greedy", 2)
    assert parse_bots("mcts:iterations=5,rollout=2,random", 2) == [
        "mcts:iterations=5,rollout=2",
        "random",
    ]
    assert parse_bots("greedy", 3) == ["greedy"] * 3


def test_seats_are_the_names_to_move_returns() -> None:
    for rules in GAMES:
        g = new_game(rules)
        assert g.to_move in seats(g), rules


def test_rewards_follow_the_typed_outcome() -> None:
    names = ["yellow", "orange"]
    assert winners(won(["orange"]), names) == ["orange"]
    assert winners(won(["orange", "yellow"]), names) == names  # seating order
    assert winners(won(["hobbits"]), names) == []  # a side, no seat
    assert winners(lost(), names) == [] and winners(None, names) == []
    assert rewards(won(["yellow"]), names) == {"yellow": 1.0, "orange": 0.0}
    assert rewards(draw(), names) == {"yellow": 0.5, "orange": 0.5}
    assert rewards(lost(), names) == {"yellow": 0.25, "orange": 0.25}
    coop = new_game("lotr-coop")
    assert set(rewards(lost(reason="ring"), seats(coop), coop).values()) == {0.0}


# ---------------------------------------------------------------- hidden information
def _riddle_main(seed: int = 5) -> Any:
    """A two-player Riddle game at the start of a main phase, hands dealt."""
    g = new_game("riddle", seed=seed)
    g.push(next(iter(g.legal_moves)))  # roll
    assert g.phase == "main"
    return g


def _swap_hidden(g: Any) -> Any:
    """The same game with the opponent's hand swapped for cards of the draw pile:
    everything the player to move sees is unchanged."""
    data = g.to_json()
    st = data["state"]
    me = g.to_move
    other = next(p for p in st["seats"] if p["name"] != me)
    k = len(other["hand"])
    other["hand"], st["draw"][:k] = st["draw"][:k], other["hand"]
    data["rng"] = (data["rng"] * 31 + 7) % (1 << 64)  # other future dice too
    return type(g).from_json(data, g.compiled)


def test_riddle_determinisation_depends_only_on_the_view() -> None:
    g = _riddle_main()
    h = _swap_hidden(g)
    me = g.to_move
    assert g.view(me) == h.view(me)
    assert snapshot(g) != snapshot(h)
    a = determinise(g, me, random.Random(9))
    b = determinise(h, me, random.Random(9))
    assert snapshot(a) == snapshot(b)
    # a consistent world: my cards are mine, the others' counts are right, the deck whole
    assert a.view(me)["hand"] == g.view(me)["hand"]
    assert [p["hand_count"] for p in a.view(me)["players"]] == [
        p["hand_count"] for p in g.view(me)["players"]
    ]
    assert a.invariants() == []
    assert {str(m) for m in a.legal_moves} == {str(m) for m in g.legal_moves}


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=40,rollout=4"])
def test_bots_choose_the_same_whatever_is_hidden(spec: str) -> None:
    g = _riddle_main()
    h = _swap_hidden(g)
    assert str(make_bot(spec, seed=4).choose(g)) == str(make_bot(spec, seed=4).choose(h))


def test_bots_win_riddle_when_they_can() -> None:
    """On the goal after waiting a turn, holding The Ring: showing it wins."""
    g = _riddle_main()
    data = g.to_json()
    st = data["state"]
    me = next(p for p in st["seats"] if p["name"] == g.to_move)
    goal = "s159" if me["kind"] == "hobbit" else "s048"
    if "the_ring" not in me["hand"]:
        holder = next(
            lst
            for lst in [st["draw"], st["discard"]] + [p["hand"] for p in st["seats"]]
            if "the_ring" in lst
        )
        holder[holder.index("the_ring")] = me["hand"][0]
        me["hand"][0] = "the_ring"
    me["pos"] = goal
    me["goal_wait"] = True
    st["t"]["start"] = goal
    won = type(g).from_json(data, g.compiled)
    assert "ring" in {str(m) for m in won.legal_moves}
    for spec in ("greedy", "mcts:iterations=30,rollout=2"):
        assert str(make_bot(spec, seed=2).choose(won)) == "ring", spec


@pytest.mark.parametrize("rules", sorted(GAMES))
def test_evaluation_sees_the_position(rules: str) -> None:
    """Each game's evaluation reads its state (a format change must not turn it into 0)."""
    from referee.bots.evaluations import evaluate

    g = new_game(rules, plies=12)
    values = [evaluate(g, s) for s in seats(g)]
    assert any(v != 0 for v in values), values


# ---------------------------------------------------------------- every registered game
def _registered() -> list[str]:
    from referee.games import modules

    return sorted(modules())


@pytest.mark.parametrize("rules", _registered())
def test_every_registered_game_gets_the_bots(rules: str) -> None:
    """Through the kit's hooks only: a plug-in (the race example) has no bot code."""
    from referee.games import get_module

    rm = get_module(rules)
    path = rm.sample_path() or PROJECTS / GAMES.get(rules, (rules,))[0]
    cls = rm.game
    g = cls.new(compile_board(load_project(path)), players=max(2, cls.PLAYERS[0]), seed=4)
    for spec in ("random", "greedy", "mcts:iterations=8,rollout=2"):
        for k in range(12):
            if g.outcome is not None:
                break
            before = snapshot(g)
            move = make_bot(spec, seed=k).choose(g)
            assert snapshot(g) == before
            g.push(move)  # legal: the referee accepts it


def test_a_game_that_hides_state_without_a_determiniser_is_not_searched() -> None:
    """The kit's default determinise copies the state: it refuses when ``dump_view``
    hides something, and the bots then play without looking ahead."""
    from referee.games.base import CannotDeterminise, Game

    g = new_game("mount-doom", plies=3)

    class Hiding(type(g)):
        determinise = Game.determinise  # the kit's default, not Mount Doom's own

        def dump_view(self, player: str | None = None) -> dict[str, Any]:
            return {"rules": self.rules}

    h = Hiding.from_json(g.to_json(), g.compiled)
    with pytest.raises(CannotDeterminise):
        h.determinise(h.to_move, random.Random(1))
    for spec in ("greedy", "mcts:iterations=5,rollout=2"):
        assert make_bot(spec, seed=1).choose(h) in h.legal_moves
