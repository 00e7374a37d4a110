"""The cooperative Lord of the Rings game, the die, and a hobbit's elimination.

One test per rule, quoted in its docstring. Helpers: :mod:`rule_helpers`; the
``compiled`` board: ``conftest.py``.
"""

from __future__ import annotations

from .rule_helpers import (
    DISCARD,
    SAURON,
    TWO,
    Loaded,
    at_play,
    new,
    no_yellow,
    play,
)


# ---------------------------------------------------------------------- the die
def test_die_faces(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Sauron moves one step towards the Hobbits. / Place any two of the cards in your hand
    face up onto the discard pile. / Nothing happens." and circles: steps into darkness."""
    g = new(compiled)
    no_yellow(g)
    at_play(g)
    g.rng = Loaded(SAURON, DISCARD, TWO)
    s = g.sauron
    g.queue[0:0] = [
        {"op": "die", "player": 0},
        {"op": "die", "player": 2},
        {"op": "die", "player": 1},
    ]
    g._run([])
    assert g.sauron == s - 1 and g.phase == "discard" and g.to_move == "pippin"
    c = g.hands[2][0]
    n = len(g.hands[2])
    play(g, f"discard pippin {c}")
    play(g, f"discard pippin {g.hands[2][0]}")
    assert len(g.hands[2]) == n - 2
    assert g.corruption[1] == 1  # Sam's skill (ours): one step less
    assert g.phase == "play"


def test_die_discard_without_cards_eliminates(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you do not possess required cards ... and there is no alternative outcome offered
    ... you must discard as much as you have and also quit at once.\""""
    g = new(compiled)
    no_yellow(g)
    at_play(g)
    g.hands[2] = ["w-hiding"]
    g.shields[2] = [{"v": 3, "r": True}]
    g.shield_pool.pop()
    g.rng = Loaded(DISCARD)
    g.queue.insert(0, {"op": "die", "player": 2})
    g._run([])
    assert not g.alive[2] and g.hands[2] == [] and g.shields[2] == [{"v": 3, "r": True}]


# ---------------------------------------------------------------------- elimination
def test_hobbit_meeting_sauron_is_eliminated(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If your Hobbit encounters Sauron (by being on the same space or beyond on the
    Corruption line), you are eliminated ... Discard all your cards, return your Life tokens,
    but keep your shields.\""""
    g = new(compiled)
    g.corruption[1] = g.sauron - 1
    g.shields[1] = [{"v": 1}]
    g.life[1]["sun"] = 1
    g._dark(1, 1, [])
    assert not g.alive[1] and g.hands[1] == [] and g.life[1]["sun"] == 0
    assert g.shields[1] == [{"v": 1}] and g.outcome is None
    at_play(g)
    play(g, "end") if g.played["cards"] else play(g, "draw")
    assert g.to_move == "pippin"  # Sam is skipped


def test_ringbearer_eliminated_ends_game_with_score(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "The Ring-bearer is eliminated from the game ... each player scores the number of points
    indicated by the marker on the main Activity line at that time.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["gimli"]
    play(g, "play gimli")
    main = g.lay.scenarios["moria"].main
    g._sauron(g.sauron - g.corruption[0], [])
    assert g.outcome and g.outcome.result == "lost"
    assert g.outcome.extra["score"] == main.numbers[2]
