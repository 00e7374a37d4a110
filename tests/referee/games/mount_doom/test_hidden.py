"""Adventure to Mount Doom hides what lies face down (issue 19: bots "must never read
hidden state"): the view shows neither the order of the stacks nor the face-down row
cards nor the cards put back in the box unseen, and the worlds bots search deal them
afresh."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.games.mount_doom.game import HIDDEN, MountDoom, Move
from referee.games.tracks import ask
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def compiled() -> CompiledBoard:
    return compile_board(load_project(ROOT / "projects" / "mount-doom"))


def played_until(
    compiled: CompiledBoard, seed: int, done: Callable[[MountDoom], bool]
) -> MountDoom:
    """A game played at random from ``seed`` until ``done`` holds."""
    for attempt in range(20):
        g = MountDoom.new(compiled, players=3, seed=seed + attempt)
        pol = random.Random(seed + attempt)
        for _ in range(400):
            if done(g):
                return g
            legal = list(g.legal_moves)
            if g.outcome is not None or not legal:
                break
            g.push(pol.choice(legal))
    pytest.fail("no random game reached the situation wanted")


def face_down(g: MountDoom) -> list[tuple[int, int]]:
    return [(k, i) for k, s in enumerate(g.row) for i, e in enumerate(s) if not e["up"]]


def in_stage_two(g: MountDoom) -> bool:
    """Stage 2 under way: the Lothlórien cards left face down went back unseen."""
    return g.stage == 2 and len(face_down(g)) == 2 and len(g.unseen) >= 2


def hidden_swapped(g: MountDoom) -> MountDoom:
    """``g`` with what nobody can see rearranged by hand: the stacks to come and the
    Gandalf stack reversed, a face-down row card swapped with the unseen card of its
    stage."""
    other = g.copy()
    for d in other.decks.values():
        d.reverse()
    other.gandalf_stack.reverse()
    deck = g.lay.cards[g.row[face_down(g)[0][0]][-1]["card"]]["deck"]
    j = next(j for j, c in enumerate(g.unseen) if g.lay.cards[c]["deck"] == deck)
    k, i = face_down(g)[0]
    other.row[k][i], other.unseen[j] = {"card": g.unseen[j], "up": False}, g.row[k][i]["card"]
    assert other.to_json() != g.to_json() and other.invariants() == []
    return other


def test_the_view_hides_the_order_of_the_stacks_and_the_face_down_cards(
    compiled: CompiledBoard,
) -> None:
    """ "shuffle them separately, and lay out 5 face-down stacks ... face down at 1 and
    6 ... Put the one remaining card back in the box unseen." Two set-ups that differ
    only there look the same to every player."""
    g = MountDoom.new(compiled, players=3, seed=2)
    view = g.view("p1")
    assert hidden_swapped(g).view("p1") == view
    state = view["state"]
    assert state["decks"] == {k: sorted(d) for k, d in g.decks.items()}
    cards = [[e["card"] for e in s] for s in state["row"]]
    assert cards[0] == cards[5] == [HIDDEN]
    assert state["gandalf_stack"] == [HIDDEN] * 4 and state["unseen"] == [HIDDEN]
    secret = [g.row[0][0]["card"], g.row[5][0]["card"], g.unseen[0], *g.gandalf_stack]
    assert state["hidden"] == sorted(secret)
    shown = json.dumps({k: v for k, v in state.items() if k != "hidden"})
    assert not [c for c in secret if f'"{c}"' in shown]
    # what the players see is shown as it is
    assert [s[0] for s in state["row"][1:5]] == [s[0] for s in g.row[1:5]]
    assert state["held"] == g.held and view["players"] == g.players


def test_the_view_hides_the_cards_boxed_unseen_mid_game(compiled: CompiledBoard) -> None:
    """ "Put all cards still lying on the encounter row back in the box" (the ones never
    turned unseen) and a Gandalf card lost "back in the box unseen": the players know
    how many, not which."""
    g = played_until(compiled, 7, in_stage_two)
    assert g.box and all(c not in g.box for c in g.unseen)
    assert hidden_swapped(g).view(None) == g.view(None)
    lost = g.copy()
    top = lost.gandalf_stack[0]
    lost.pos["ringbearer"] = lost.lay.goals[1] - 1
    lost._move("ringbearer", 5, [])  # past the goal: the top Gandalf card is lost
    assert top in lost.unseen
    again = lost.copy()
    j = again.unseen.index(top)
    again.unseen[j], again.gandalf_stack[0] = again.gandalf_stack[0], top
    assert again.to_json() != lost.to_json() and again.view(None) == lost.view(None)
    assert lost.view(None)["state"]["unseen"] == [HIDDEN] * len(lost.unseen)


def test_gandalfs_vision_offers_the_stack_in_an_order_that_tells_nothing(
    compiled: CompiledBoard,
) -> None:
    """The choice of Gandalf's Vision lists the next stage's cards sorted, whatever the
    order of its stack."""
    g = MountDoom.new(compiled, players=3, seed=4)
    assert g.card_locations()["gandalfs-vision"] == "deck"
    g.decks = {k: [c for c in d if c != "gandalfs-vision"] for k, d in g.decks.items()}
    g.held.append({"card": "gandalfs-vision", "owner": 0})
    g.stage_over = True
    g.queue = [{"op": "stage_end"}, ask("start")]
    g._run([])
    other = hidden_swapped(g)
    assert g.phase == "vision" and g.decks["2"] != other.decks["2"]
    moves = [str(m) for m in g.legal_moves]
    assert moves == [str(m) for m in other.legal_moves]
    assert [m.split()[1] for m in moves if m.startswith("vision")] == sorted(g.decks["2"])


@pytest.mark.parametrize("situation", ["set-up", "stage 2"])
def test_determinise_keeps_the_view_and_deals_the_hidden_cards_afresh(
    compiled: CompiledBoard, situation: str
) -> None:
    g = (
        MountDoom.new(compiled, players=3, seed=9)
        if situation == "set-up"
        else played_until(compiled, 3, in_stage_two)
    )
    before = g.to_json()
    view = g.view("p2")
    worlds = [g.determinise("p2", random.Random(k)) for k in range(12)]
    assert g.to_json() == before
    for w in worlds:
        assert w.view("p2")["state"] == view["state"]
        assert [str(m) for m in w.legal_moves] == [str(m) for m in g.legal_moves]
        assert w.invariants() == [] and w.validate() == []
    assert g.determinise("p2", random.Random(3)).to_json() == worlds[3].to_json()
    assert len({w.rng.next64() for w in worlds}) == len(worlds)

    def dealt(w: MountDoom) -> Any:
        return tuple(w.row[k][i]["card"] for k, i in face_down(w)), tuple(w.unseen)

    assert len({dealt(w) for w in worlds}) > 1
    assert len({tuple(w.gandalf_stack) for w in worlds}) > 1
    assert len({tuple(w.decks["4"]) for w in worlds}) > 1


def test_a_world_plays_on_like_a_game(compiled: CompiledBoard) -> None:
    """A world the bots search is a valid game: random play keeps every card
    accounted for, and its state loads."""
    g = played_until(compiled, 11, in_stage_two)
    w = g.determinise("p1", random.Random(1))
    pol = random.Random(1)
    for _ in range(300):
        legal = list(w.legal_moves)
        if w.outcome is not None or not legal:
            break
        w.push(pol.choice(legal))
        assert w.invariants() == []
    assert MountDoom.from_json(w.to_json(), compiled).to_json() == w.to_json()


def test_a_state_written_before_the_unseen_pile_still_loads(compiled: CompiledBoard) -> None:
    """A state file without ``unseen`` (every boxed card in ``box``) loads; the cards
    in its box count as seen."""
    g = played_until(compiled, 5, in_stage_two)
    data = g.to_json()
    data["state"]["box"] += data["state"].pop("unseen")
    old = MountDoom.from_json(data, compiled)
    assert old.unseen == [] and sorted(old.box) == sorted(g.box + g.unseen)
    assert old.invariants() == []
    assert Move("roll", "aragorn", "gimli") in old.legal_moves or old.phase != "start"
