"""The cooperative game's evaluation for bots ranks positions as the rulebook would,
and its search moves leave out the free discards that never help (issue 19)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.bots import make_bot
from referee.bots.base import searched
from referee.compiler import CompiledBoard, compile_board
from referee.errors import IllegalMoveError
from referee.games.lotr_coop.game import LotrCoop
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]

FULL = {"heart": 1, "sun": 1, "ring": 1}


@pytest.fixture(scope="module")
def compiled() -> CompiledBoard:
    return compile_board(load_project(ROOT / "projects" / "lotr-coop"))


def moria(compiled: CompiledBoard, **over: Any) -> LotrCoop:
    """Three Hobbits in Moria, Frodo the Ring-bearer, with ``over`` changed."""
    pos: dict[str, Any] = {
        "players": ["frodo", "sam", "pippin"],
        "corruption": {"frodo": "corruption03", "sam": "corruption02", "pippin": "corruption02"},
        "sauron": "corruption12",
        "location": "moria",
        "scenario": "moria",
        "markers": {"fighting": "moria_fighting04"},
        "event_pos": 2,
        "hands": {
            "frodo": ["w-hiding", "w-friendship", "g-fighting"],
            "sam": ["w-friendship", "w-hiding", "gimli"],
            "pippin": ["g-star", "g-star2", "w-fighting"],
        },
        "life": {"frodo": FULL, "sam": FULL, "pippin": FULL},
    }
    pos.update(over)
    return LotrCoop.from_position(compiled, pos)


def test_the_ring_bearer_nearer_sauron_stands_worse(compiled: CompiledBoard) -> None:
    """Every step of the Ring-bearer toward Sauron costs, the more within a die's reach
    (three circles eliminate him at 3 spaces, Sauron's face at 1)."""
    values = []
    for c in (3, 6, 8, 9, 10, 11):
        g = moria(
            compiled,
            corruption={
                "frodo": f"corruption{c:02d}",
                "sam": "corruption02",
                "pippin": "corruption02",
            },
        )
        values.append(g.value())
    assert values == sorted(values, reverse=True)
    far, near = values[0] - values[1], values[-2] - values[-1]
    assert near > 2 * far / 3  # one step at 2 spaces costs more than one of three steps far off


def test_the_ring_bearer_counts_more_than_another_hobbit(compiled: CompiledBoard) -> None:
    frodo_near = moria(
        compiled,
        corruption={"frodo": "corruption10", "sam": "corruption02", "pippin": "corruption02"},
    )
    sam_near = moria(
        compiled,
        corruption={"frodo": "corruption02", "sam": "corruption10", "pippin": "corruption02"},
    )
    assert sam_near.value() > frodo_near.value()


def test_progress_along_the_main_line_and_the_journey(compiled: CompiledBoard) -> None:
    """The main line's marker further on, and a later Scenario, stand better."""
    early = moria(compiled, markers={"fighting": "moria_fighting02"})
    later = moria(compiled, markers={"fighting": "moria_fighting09"})
    assert later.value() > early.value()
    helms = moria(
        compiled,
        location="helms_deep",
        scenario="helms_deep",
        markers={},
        event_pos=0,
        life={},
    )
    # a Scenario further on outweighs the Life tokens this one's end will ask for
    assert helms.value() > later.value()


def test_cards_and_life_tokens(compiled: CompiledBoard) -> None:
    """A Ring-bearer without cards (the die's discard would eliminate him) and a Hobbit
    lacking a kind of Life token (a step toward the darkness at the Scenario's end)
    stand worse."""
    base = moria(compiled)
    empty = moria(
        compiled,
        hands={
            "frodo": [],
            "sam": ["w-friendship", "w-hiding", "gimli"],
            "pippin": ["g-star", "g-star2", "w-fighting"],
        },
    )
    assert empty.value() < base.value() - 10
    lacking = moria(
        compiled, life={"frodo": {"heart": 1, "sun": 0, "ring": 1}, "sam": FULL, "pippin": FULL}
    )
    assert lacking.value() < base.value()


def test_evaluate_is_the_teams_and_not_saturated(compiled: CompiledBoard) -> None:
    """Every Hobbit gets the same figure, well inside (0, 1) for a game in progress, so
    a search tells moves apart; a game setting out ranks below one near its end."""
    start = LotrCoop.new(compiled, players=3, seed=1)
    figures = {start.evaluate(p) for p in start.players}
    assert len(figures) == 1
    e = figures.pop()
    assert e is not None and 0.1 < e < 0.6
    mordor = moria(
        compiled,
        location="mordor",
        scenario="mordor",
        markers={"travelling": "mordor_travelling10"},
        event_pos=1,
        life={"frodo": FULL, "sam": FULL, "pippin": FULL},
    )
    m = mordor.evaluate("frodo")
    assert m is not None and e < m < 0.99


def test_search_moves_leave_out_free_discards(compiled: CompiledBoard) -> None:
    """The rules offer free discards at every decision; the bots' search moves do not
    (no rule of the pack makes one help), so revealing a tile is answered at once."""
    g = moria(compiled)
    legal = [str(m) for m in g.legal_moves]
    assert any(m.startswith("drop ") for m in legal)
    assert [str(m) for m in searched(g)] == ["reveal"]
    g.push_text("reveal")
    moves = searched(g)
    assert moves and all(m.verb != "drop" for m in moves)
    assert {str(m) for m in moves} <= {str(m) for m in g.legal_moves}


def test_free_discards_stay_legal(compiled: CompiledBoard) -> None:
    """Players keep the free discard the search leaves out; an illegal move is still
    refused and leaves the game as it was."""
    g = moria(compiled)
    g.push_text("drop sam gimli")
    assert "gimli" not in g.hands[1] and g.phase == "reveal"
    before = g.to_json()
    with pytest.raises(IllegalMoveError):
        g.push_text("play w-hiding")
    assert g.to_json() == before


def test_bots_do_not_know_the_order_of_face_down_piles(compiled: CompiledBoard) -> None:
    """The view shows what is in the Hobbit deck, the Event tiles and the face-down
    shields, not their order; the worlds the bots search deal them afresh."""
    g = LotrCoop.new(compiled, players=3, seed=5)
    view = g.view("frodo")["state"]
    for pile in ("deck", "tiles", "shield_pool"):
        assert view[pile] == sorted(getattr(g, pile))
    worlds = [g.determinise("frodo", random.Random(k)) for k in range(6)]
    assert len({tuple(w.tiles) for w in worlds}) > 1
    assert len({tuple(w.deck) for w in worlds}) > 1
    for w in worlds:
        assert w.view("frodo")["state"] == view
        assert sorted(w.tiles) == sorted(g.tiles) and w.hands == g.hands


def test_mcts_plays_on_without_free_discards(compiled: CompiledBoard) -> None:
    """mcts reveals the tile at once where the only other answers are free discards,
    and never answers with one in the decisions of a short game."""
    g = moria(compiled)
    bot = make_bot("mcts:iterations=8,rollout=0", seed=3)
    assert str(bot.choose(g)) == "reveal"
    for _ in range(40):
        if g.outcome is not None:
            break
        move = bot.choose(g)
        assert move.verb != "drop"
        g.push(move)
