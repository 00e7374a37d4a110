"""Ringgeister rules, rulings 5–7: galleries, the spider and the goal, missions and magic.

Positions are set up explicitly with :func:`boards.position`; the referee is asked
through its public interface (``legal_moves``, ``push``, ``check``), and rejected moves
must leave the state exactly as it was (:func:`rule_helpers.reject`).
"""

from __future__ import annotations

from .boards import B, events_of, moves_of, position
from .rule_helpers import reject


# ---------------------------------------------------------------------- ruling 5: galleries
def gallery_board() -> B:
    return (
        B()
        .pt("a", 0, 0)
        .door("d1", 20, 0, "moon")
        .pt("x", 40, 0)
        .path("a", "d1", "x")
        .door("d2", 0, 100, "moon")
        .pt("b", 20, 100)
        .path("d2", "b")
        .door("d3", 0, 200, "star")
        .pt("c", 20, 200)
        .path("d3", "c")
        .door("d4", 0, -20, "star")
        .pt("z", 0, -40)
        .path("a", "d4", "z")
    )


def test_gallery_open_for_face_up_symbol():
    """Ruling 5: 'while the face-up card shows symbol X, a light figure that reaches a door of
    symbol X may continue from any other door of symbol X'."""
    g = position(gallery_board(), {"hobbit-yellow": "a"}, cards=(("yellow", "forward", "moon"),))
    assert moves_of(g, "hobbit-yellow") == {"x", "z", "b"}
    err = reject(g, "hobbit-yellow c", "gallery_closed")
    assert err.details["doors"] == ["d4", "d3"]


def test_gallery_closed_for_other_symbol():
    """Ruling 5: with the star card face up, the moon doors stay closed."""
    g = position(gallery_board(), {"hobbit-yellow": "a"}, cards=(("yellow", "forward", "star"),))
    assert moves_of(g, "hobbit-yellow") == {"x", "z", "c"}
    reject(g, "hobbit-yellow b", "gallery_closed")


def test_gallery_closed_during_a_storm_card():
    """Rulebook 1.2: the lower image shows a door *or* a storm; with a storm no gallery opens."""
    g = position(gallery_board(), {"hobbit-yellow": "a"}, cards=(("yellow", "forward", "storm"),))
    assert moves_of(g, "hobbit-yellow") == {"x", "z"}


# ---------------------------------------------------------------------- ruling 6: spider, goal
def mountain() -> B:
    return (
        B()
        .pt("a", 0, 0)
        .pt("m", 20, 0)
        .pt("goal", 40, 0, goal=True)
        .path("a", "m")
        .path("m", "goal", guard="spider")
        .pt("a1", 0, 100)
        .pt("a2", 20, 100)
        .pt("a3", 40, 100)
        .counter_space("cs", 20, 120, ["a1", "a2", "a3"])
    )


def test_spider_blocks_hobbit_with_counters_left():
    """Ruling 6: 'Only a Hobbit whose colour has no counter left on the board may pass the
    spider's path.'"""
    g = position(mountain(), {"hobbit-yellow": "m"}, counters=[("yellow", "cs")])
    assert moves_of(g, "hobbit-yellow") == {"a"}
    err = reject(g, "hobbit-yellow goal", "spider_blocks")
    assert "counter" in err.message


def test_spider_lets_hobbit_without_counters_pass_and_win():
    """Ruling 6: '... Only the current Ringbearer Hobbit may enter the last grey point on the
    Mountain of Fire; doing so wins the game for its player.'"""
    g = position(mountain(), {"hobbit-yellow": "m"}, counters=[])
    assert moves_of(g, "hobbit-yellow") == {"a", "goal"}
    ev = g.push_text("hobbit-yellow goal")
    assert ev[-1]["type"] == "game_won" and ev[-1]["winner"] == "yellow"
    assert g.outcome.to_json() == {
        "result": "won",
        "winners": ["yellow"],
        "figure": "hobbit-yellow",
        "ply": 1,
    }
    assert list(g.legal_moves) == []
    reject(g, "hobbit-yellow a", "game_over")


def test_spider_blocks_men_and_gandalf():
    """Ruling 6 / rulebook 2.3: 'Only the four small Hobbits are discreet enough to slip past'."""
    g = position(mountain(), {"man-yellow": "m", "gandalf": "a1"}, counters=[])
    err = reject(g, "man-yellow goal", "spider_blocks")
    assert "Hobbit" in err.message


def test_goal_only_for_the_ringbearer():
    """Ruling 6: only the current Ringbearer Hobbit may enter the goal."""
    g = position(
        mountain(),
        {"hobbit-yellow": "m"},
        players=("yellow", "orange"),
        cards=(("orange", "forward", "moon"),),
    )
    reject(g, "hobbit-yellow goal", "goal_needs_ringbearer")


def test_black_figures_pass_the_spider():
    """Rulebook 2.3: the giant spider 'always lets black figures pass'."""
    b = (
        B()
        .pt("s", 0, 0, "black", start="black", heading="E", wind="E")
        .pt("g", 50, 0)
        .pt("t", 100, 0, "black")
        .path("s", "g")
        .path("g", "t", guard="spider")
        .pt("T", 0, 60, wind="N")
        .pt("M", 0, 80)
        .path("M", "T")
    )
    g = position(b, {"orc": "s", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["to"] == "t"


def test_non_ringbearer_hobbit_whose_next_free_point_is_the_goal_cannot_go_that_way():
    """Ruling 6: 'Only the current Ringbearer Hobbit may enter the last grey point on the
    Mountain of Fire'; ruling 2: a coloured figure 'stops at the first point not occupied by a
    figure' and only jumps points held by light figures. The free goal is neither a point it
    may enter nor one it may jump, so that way gives it no move (here: no move at all)."""
    b = (
        B()
        .pt("a", 0, 0)
        .pt("m", 20, 0)
        .pt("goal", 40, 0, goal=True)
        .pt("b", 60, 0)
        .path("a", "m")
        .path("m", "goal", guard="spider")
        .path("goal", "b")
    )
    g = position(
        b,
        {"hobbit-yellow": "m", "man-yellow": "a"},
        players=("yellow", "orange"),
        cards=(("orange", "forward", "moon"),),
    )
    assert moves_of(g, "hobbit-yellow") == set()
    assert moves_of(g, "man-yellow") == set()
    assert [str(m) for m in g.legal_moves] == ["pass"]
    reject(g, "hobbit-yellow goal", "goal_needs_ringbearer")
    err = reject(g, "hobbit-yellow b", "goal_needs_ringbearer")
    assert err.details["ringbearer"] == "orange"


# ---------------------------------------------------------------------- ruling 7: missions, magic
def test_mission_check_removes_counter():
    """Ruling 7a: 'a counter whose three arrival points hold both figures of its colour plus
    any other light figure is removed'."""
    b = mountain().pt("g0", 60, 100).path("a3", "g0")
    g = position(
        b, {"hobbit-yellow": "a1", "man-yellow": "a2", "gandalf": "g0"}, counters=[("yellow", "cs")]
    )
    ev = g.push_text("gandalf a3")
    assert [e["counter"] for e in events_of(ev, "counter_removed")] == ["yellow-1"]
    assert g.to_json()["state"]["counters"][0]["removed"] is True


def test_mission_needs_both_figures_of_the_colour():
    """Ruling 7a: both figures of the counter's colour must be on its arrival points."""
    b = mountain().pt("g0", 60, 100).path("a3", "g0")
    g = position(
        b,
        {"hobbit-yellow": "a1", "hobbit-orange": "a2", "gandalf": "g0", "man-yellow": "a"},
        players=("yellow", "orange"),
        counters=[("yellow", "cs")],
    )
    ev = g.push_text("gandalf a3")
    assert events_of(ev, "counter_removed") == []


def magic_board() -> B:
    return (
        B()
        .pt("a", 0, 0)
        .pt("mg", 20, 0, magic=True, wind="E")
        .path("a", "mg")
        .pt("o", 200, 0, "black", start="black", heading="E")
        .pt("o2", 250, 0, "black")
        .path("o", "o2")
    )


def test_coloured_figure_on_magic_point_turns_card_then_wind():
    """Ruling 7b/7c: on a magic point 'the next card is turned face up', then 'if the point has
    a wind arrow, the wind blows'."""
    g = position(
        magic_board(),
        {"hobbit-yellow": "a", "orc": "o"},
        cards=(("yellow", "forward", "moon"), ("yellow", "backward", "star")),
    )
    ev = g.push_text("hobbit-yellow mg")
    kinds = [e["type"] for e in ev]
    assert kinds.index("card_turned") < kinds.index("wind") < kinds.index("black_moved")
    assert g.to_json()["state"]["cards"]["face_up"] == "card1"


def test_gandalf_on_magic_point_triggers_nothing():
    """Ruling 7b: 'Gandalf on a magic point triggers nothing at all, not even wind.'"""
    g = position(
        magic_board(),
        {"gandalf": "a", "orc": "o"},
        cards=(("yellow", "forward", "moon"), ("yellow", "backward", "star")),
    )
    ev = g.push_text("gandalf mg")
    assert [e["type"] for e in ev] == ["moved", "nothing_happens", "turn"]
    assert g.to_json()["state"]["cards"]["face_up"] == "card0"
    assert g.to_json()["state"]["figures"]["orc"] == "o"


def test_cards_reshuffle_when_pile_is_used_up():
    """Rulebook 3.1: 'When all the cards have been turned over, they must be shuffled again'."""
    b = (
        B()
        .pt("a", 0, 0)
        .pt("m1", 20, 0, magic=True)
        .pt("m2", 40, 0, magic=True)
        .path("a", "m1", "m2")
    )
    g = position(
        b,
        {"hobbit-yellow": "a", "man-yellow": "m2"},
        cards=(("yellow", "forward", "moon"), ("yellow", "forward", "star")),
    )
    ev = g.push_text("hobbit-yellow m1")  # turns the last card of the pile
    assert [e["card"]["id"] for e in events_of(ev, "card_turned")] == ["card1"]
    g.push_text("man-yellow a")  # jumps the Hobbit; not magic
    ev = g.push_text("hobbit-yellow m2")  # the pile is empty: reshuffle, then turn
    assert [e["type"] for e in ev][1:3] == ["reshuffled", "card_turned"]
    assert g.to_json()["state"]["cards"] == {"face_up": "card0", "pile": [], "discard": ["card1"]}
