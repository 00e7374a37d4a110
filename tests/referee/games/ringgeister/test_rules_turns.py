"""Ringgeister rules, ruling 1: what a turn is (and ruling 12: counters and variants).

Positions are set up explicitly with :func:`boards.position`; the referee is asked
through its public interface (``legal_moves``, ``push``, ``check``), and rejected moves
must leave the state exactly as it was (:func:`rule_helpers.reject`).
"""

from __future__ import annotations

import pytest

from .boards import moves_of, position
from .rule_helpers import line, reject


# ---------------------------------------------------------------------- ruling 1: turns
def test_turn_moves_both_coloured_figures_or_gandalf():
    """Ruling 1: 'A turn is either (a) move both of your coloured figures, one after the other in
    the order you choose ... or (b) move Gandalf.'"""
    b = line("a", "b", "c", "d", "e", "f", "g", "h")
    g = position(
        b,
        {"hobbit-yellow": "a", "man-yellow": "d", "gandalf": "g", "hobbit-orange": "h"},
        players=("yellow", "orange"),
    )
    assert moves_of(g, "gandalf") == {"f", "e", "c", "b"}  # he passes grey points
    g.push_text("man-yellow e")
    assert g.to_move == "yellow" and {m.figure for m in g.legal_moves} == {"hobbit-yellow"}
    reject(g, "gandalf f", "turn_in_progress")
    reject(g, "man-yellow c", "already_moved")
    g.push_text("hobbit-yellow b")
    assert g.to_move == "orange"
    reject(g, "hobbit-yellow c", "not_your_figure")
    reject(g, "orc c", "no_such_figure")


def test_pass_when_nothing_can_move():
    """Ruling 1: 'A figure that has no legal move stays; if neither can move, the turn is a
    pass.'"""
    b = line("a", "b", "c")
    g = position(
        b,
        {"hobbit-yellow": "a", "orc": "b", "gandalf": "c"},
        players=("yellow", "orange"),
        cards=(("orange", "forward", "moon"),),
    )
    assert [str(m) for m in g.legal_moves] == ["pass"]
    ev = g.push_text("pass")
    assert ev[0]["type"] == "pass" and g.to_move == "orange"


def test_second_figure_without_move_ends_the_turn():
    """Ruling 1: 'A figure that has no legal move stays' — the turn goes on to the next player."""
    b = line("a", "b", "c", "d").pt("x", 0, 50).pt("y", 20, 50).path("x", "y")
    g = position(
        b,
        {"hobbit-yellow": "a", "man-yellow": "x", "orc": "y"},
        players=("yellow", "orange"),
        cards=(("orange", "forward", "moon"),),
    )
    g.push_text("hobbit-yellow b")
    assert g.to_move == "orange"


def test_counters_are_placed_first_one_at_a_time():
    """Rulebook 1.4: players 'place their counters one at a time, in turn' (variant B: 2 each)."""
    from referee.compiler import compile_board
    from referee.games.ringgeister import RinggeisterGame
    from referee.games.ringgeister.sample import sample_board

    c = compile_board(sample_board(4, 4, 3))
    g = RinggeisterGame.new(c, players=2, seed=5, options={"variant": "B"})
    assert g.phase == "counters" and g.to_move == "yellow"
    spaces = sorted({m.to for m in g.legal_moves})
    reject(g, "gandalf ws1", "wrong_phase")  # the phase table: counters first
    g.push_text(f"counter {spaces[0]}")
    reject(g, f"counter {spaces[0]}", "space_taken")
    assert g.to_move == "orange"
    for s in spaces[1:4]:
        g.push_text(f"counter {s}")
    assert g.phase == "play" and g.to_move == "yellow"
    assert sorted(c["id"] for c in g.to_json()["state"]["counters"]) == [
        "orange-1",
        "orange-2",
        "yellow-1",
        "yellow-2",
    ]
    err = reject(g, f"counter {spaces[4]}", "wrong_phase")  # all are placed: play begins
    assert err.message == "'counter' is not possible now (play; possible: home, pass, step)"


def test_variant_c_only_for_three_players():
    """Ruling 12: 'Variants A/B/C set 0, 2 or 3 counters per player (C only with at most three
    players); the default is 1.'"""
    from referee.compiler import compile_board
    from referee.errors import UsageError
    from referee.games.ringgeister import RinggeisterGame
    from referee.games.ringgeister.sample import sample_board

    c = compile_board(sample_board(4, 4, 3))
    with pytest.raises(UsageError):
        RinggeisterGame.new(c, players=4, seed=1, options={"variant": "C"})
    for variant, per in (("A", 0), ("default", 1), ("B", 2)):
        g = RinggeisterGame.new(
            c, players=2, seed=1, options={"variant": variant, "counter_placement": "random"}
        )
        assert len(g.counters) == 2 * per and g.phase == "play"


def test_pass_when_neither_coloured_figure_can_move_though_gandalf_could():
    """Ruling 1: 'A turn is either (a) move both of your coloured figures ... or (b) move
    Gandalf. A figure that has no legal move stays; if neither can move, the turn is a pass.'
    Choosing (a) with both coloured figures stuck is a pass, so a player need not move Gandalf;
    once one coloured figure can move, passing is refused."""
    b = (
        line("a", "b")
        .pt("x", 0, 50)
        .pt("y", 20, 50)
        .path("x", "y")
        .pt("g", 0, 100)
        .pt("g2", 20, 100)
        .path("g", "g2")
    )
    g = position(
        b,
        {"hobbit-yellow": "a", "orc-1": "b", "man-yellow": "x", "orc-2": "y", "gandalf": "g"},
        players=("yellow", "orange"),
        cards=(("orange", "forward", "moon"),),
    )
    assert sorted(str(m) for m in g.legal_moves) == ["gandalf g2", "pass"]
    ev = g.push_text("pass")
    assert ev[0]["type"] == "pass" and g.to_move == "orange"
    assert g.to_json()["state"]["figures"]["gandalf"] == "g"
    # with a coloured figure free to move, passing is not a turn
    g = position(
        line("a", "b", "c").pt("g", 0, 100).pt("g2", 20, 100).path("g", "g2"),
        {"hobbit-yellow": "a", "man-yellow": "c", "gandalf": "g"},
    )
    assert "pass" not in {str(m) for m in g.legal_moves}
    err = reject(g, "pass", "must_move")
    assert "hobbit-yellow b" in err.message
