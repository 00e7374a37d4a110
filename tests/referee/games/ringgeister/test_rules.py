"""Ringgeister rules, one test per rule and ruling (docs/rulings.md), on tiny hand-made boards.

Each test quotes the rule it checks. Positions are set up explicitly with
:func:`boards.position`; the referee is asked through its public interface
(``legal_moves``, ``push``, ``check``), and rejected moves must leave the state
exactly as it was.
"""

from __future__ import annotations

import itertools

import pytest
import shapely

from referee.errors import IllegalMoveError
from referee.model import Feature

from .boards import B, events_of, moves_of, position


def reject(game, text: str, code: str) -> IllegalMoveError:
    """Push ``text``, expect a rejection with ``code`` and an unchanged state."""
    before = game.to_json()
    with pytest.raises(IllegalMoveError) as info:
        game.push_text(text)
    assert info.value.code == code, info.value.message
    assert info.value.message
    assert game.to_json() == before
    return info.value


def line(*names: str, step: float = 20.0, y: float = 0.0, black: tuple[str, ...] = ()) -> B:
    b = B()
    for k, n in enumerate(names):
        b.pt(n, k * step, y, "black" if n in black else "grey")
    return b.path(*names)


# ---------------------------------------------------------------------- ruling 2: light moves
def test_stops_at_next_free_point():
    """Ruling 2: a coloured figure 'stops at the first point not occupied by a figure'."""
    g = position(line("a", "b", "c", "d"), {"hobbit-yellow": "a", "man-yellow": "d"})
    assert moves_of(g, "hobbit-yellow") == {"b"}
    assert moves_of(g, "man-yellow") == {"c"}
    err = reject(g, "hobbit-yellow c", "not_next_free_point")
    assert err.details["point"] == "b"


def test_jumps_over_light_figures():
    """Ruling 2: 'It jumps over points occupied by light figures.'"""
    g = position(
        line("a", "b", "c", "d"), {"hobbit-yellow": "a", "man-yellow": "b", "gandalf": "c"}
    )
    assert moves_of(g, "hobbit-yellow") == {"d"}
    ev = g.push_text("hobbit-yellow d")
    assert ev[0]["type"] == "moved" and ev[0]["route"] == ["a", "b", "c", "d"]


def test_black_figure_blocks_light_figures():
    """Ruling 2: 'It cannot pass or enter a point occupied by a black figure.'"""
    g = position(
        line("a", "b", "c"),
        {"hobbit-yellow": "a", "orc": "b"},
        players=("yellow", "orange"),
        cards=(("orange", "forward", "moon"),),
    )
    assert moves_of(g, "hobbit-yellow") == set()
    err = reject(g, "hobbit-yellow c", "blocked_by_black_figure")
    assert err.details["point"] == "b" and err.details["black_figure"] == "orc"
    reject(g, "hobbit-yellow b", "point_occupied")


@pytest.mark.parametrize("black,jumps", [("orc", True), ("gollum", True), ("spirit", False)])
def test_ringbearer_jumps_orcs_and_gollum_not_spirits(black, jumps):
    """Ruling 2: '... except the current Ringbearer, who jumps Gollum and Orcs, never a Spirit.'"""
    g = position(
        line("a", "b", "c"),
        {"hobbit-yellow": "a", black: "b"},
        cards=(("yellow", "forward", "moon"),),
    )
    assert (moves_of(g, "hobbit-yellow") == {"c"}) is jumps
    if not jumps:
        err = reject(g, "hobbit-yellow c", "blocked_by_black_figure")
        assert "Spirit" in err.message


def test_only_the_ringbearer_jumps_black_figures():
    """Rulebook 6.1: the Ringbearer Hobbit 'is the only light figure able to jump over a black
    figure' — his Man and a Hobbit who is not the Ringbearer are stopped by an Orc."""
    b = line("a", "b", "c").pt("x", 0, 50).pt("y", 20, 50).pt("z", 40, 50).path("x", "y", "z")
    g = position(
        b,
        {"hobbit-yellow": "a", "orc-1": "b", "man-yellow": "x", "orc-2": "y"},
        cards=(("yellow", "forward", "moon"),),
    )
    assert moves_of(g, "hobbit-yellow") == {"c"}
    assert moves_of(g, "man-yellow") == set()


# ---------------------------------------------------------------------- ruling 3: Gandalf
def test_gandalf_passes_grey_points_and_stops_at_first_free_black_point():
    """Ruling 3: Gandalf 'may stop at any free point on the way and must stop at the first
    free black point'; he passes points held by light figures."""
    b = line("a", "g1", "h", "g2", "k", "g3", black=("k",))
    g = position(b, {"gandalf": "a", "man-yellow": "h"})
    assert moves_of(g, "gandalf") == {"g1", "g2", "k"}
    err = reject(g, "gandalf g3", "must_stop_at_black_point")
    assert err.details["point"] == "k"


def test_gandalf_passes_a_black_point_held_by_a_light_figure():
    """Ruling 3: he must stop at the first *free* black point; one held by a light figure
    is passed like any occupied point."""
    b = line("a", "g1", "k", "g3", black=("k",))
    g = position(b, {"gandalf": "a", "hobbit-yellow": "k"})
    assert moves_of(g, "gandalf") == {"g1", "g3"}


def test_gandalf_cannot_pass_black_figures():
    """Ruling 3: 'He cannot pass black figures.'"""
    g = position(line("a", "g1", "g2", "g3"), {"gandalf": "a", "orc": "g2"})
    assert moves_of(g, "gandalf") == {"g1"}
    reject(g, "gandalf g3", "blocked_by_black_figure")


# ---------------------------------------------------------------------- ruling 4
def test_nobody_stops_on_junction_door_or_dead_end():
    """Ruling 4: 'Nobody stops on a junction, a door, or between points.'"""
    b = (
        B()
        .pt("a", 0, 0)
        .junction("j", 20, 0)
        .pt("n", 20, -20)
        .pt("s", 20, 20)
        .door("d", 40, 0, "moon")
        .pt("e", 60, 0)
        .port("x", 20, 40)
        .path("a", "j", "d", "e")
        .path("n", "j", "s", "x")
    )
    g = position(b, {"hobbit-yellow": "a"})
    assert moves_of(g, "hobbit-yellow") == {"n", "s", "e"}
    reject(g, "hobbit-yellow j", "not_a_point")
    reject(g, "hobbit-yellow d", "not_a_point")
    reject(g, "hobbit-yellow x", "not_a_point")
    reject(g, "hobbit-yellow nowhere", "no_such_destination")


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
    assert g.outcome == {
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


# ---------------------------------------------------------------------- ruling 8: wind
def wind_board(corridor: float = 15.0) -> B:
    b = B(corridor).pt("M", 0, 20).pt("T", 0, 0, wind="E").path("M", "T")
    b.pt("near", 100, 14, "black", start="black", heading="N")
    b.pt("off", 60, 16, "black", start="black", heading="N")
    b.pt("far", 200, 0, "black", start="black", heading="N")
    b.pt("behind", -50, 0, "black", start="black", heading="N")
    b.pt("on_ray", 50, 0)  # a light figure between does not shield
    return b


def test_wind_wakes_nearest_black_figure_in_corridor():
    """Ruling 8: 'The black figure whose point's centre lies within 15 mm of the ray ... and
    nearest along it plays, whatever lies between.'"""
    g = position(
        wind_board(),
        {
            "man-yellow": "M",
            "hobbit-yellow": "on_ray",
            "orc-1": "near",
            "orc-2": "off",
            "orc-3": "far",
            "gollum": "behind",
        },
    )
    ev = g.push_text("man-yellow T")
    wind = events_of(ev, "wind")[0]
    assert wind["figure"] == "orc-1" and wind["towards"] == "E"


def test_wind_corridor_is_a_board_setting():
    """Ruling 8: the corridor width is 'a board setting' (here 10 mm: 14 mm off the ray misses)."""
    g = position(
        wind_board(10.0),
        {"man-yellow": "M", "orc-1": "near", "orc-2": "off", "orc-3": "far", "gollum": "behind"},
    )
    assert events_of(g.push_text("man-yellow T"), "wind")[0]["figure"] == "orc-3"


def test_wind_wakes_gollum_when_nobody_is_in_the_wind():
    """Ruling 8: 'If none, Gollum plays.' (figures behind the point or beside the ray do not.)"""
    g = position(wind_board(), {"man-yellow": "M", "orc": "off", "gollum": "behind"})
    wind = events_of(g.push_text("man-yellow T"), "wind")[0]
    assert wind["figure"] == "gollum" and "Gollum plays" in wind["text"]


def test_wind_turns_with_its_tile():
    """Rulebook 4.1, ruling 8: the wind arrow turns with its tile (a quarter turn: N becomes E)."""
    tile = [
        Feature("T", "point", shapely.Point(0, 0), {"colour": "grey", "wind": "N"}),
        Feature("M", "point", shapely.Point(-20, 0), {"colour": "grey"}),
        Feature("p", "path", shapely.LineString([(-20, 0), (0, 0)]), {"medium": "land"}),
    ]
    b = B().tile("t", "test/wind", 0, 0, tile, turnable=False)
    b.placements[0].turns = 1
    b.pt("east", 100, 0, "black", start="black").pt("north", 0, -100, "black", start="black")
    g = position(b, {"man-yellow": "t/M", "orc-1": "east", "orc-2": "north"})
    assert events_of(g.push_text("man-yellow t/T"), "wind")[0]["figure"] == "orc-1"


# ---------------------------------------------------------------------- ruling 9: black moves
def wake(b: B, x: float, y: float) -> B:
    """A trigger below (x, y): the man-yellow on M steps to T, whose wind points north."""
    return b.pt("T", x, y + 60, wind="N").pt("M", x, y + 80).path("M", "T")


def fork_board(forced: bool) -> B:
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("J", 100, 0, forced_right=forced)
        .pt("N1", 100, -100, "black")
        .pt("E1", 200, 0, "black")
        .pt("S1", 100, 100, "black")
        .path("S", "J")
        .path("J", "N1")
        .path("J", "E1")
        .path("J", "S1")
    )
    return wake(b, 0, 0)


@pytest.mark.parametrize("forced,end", [(False, "E1"), (True, "S1")])
def test_straight_on_versus_three_arrow_fork(forced, end):
    """Ruling 9: 'at every junction goes straight on ..., except at forks with three arrows,
    where it takes the rightmost land exit.'"""
    g = position(fork_board(forced), {"orc": "S", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["route"] == ["S", "J", end]
    assert g.to_json()["state"]["figures"]["orc"] == end


@pytest.mark.parametrize("hand,end", [("forward", "E1"), ("backward", "W1")])
def test_black_figure_follows_the_hand(hand, end):
    """Ruling 9: it 'leaves its black point along that point's heading (forward) or against it
    (backward), as the face-up card's hand says'."""
    b = (
        B()
        .pt("W1", -100, 0, "black")
        .pt("S", 0, 0, "black", start="black", heading="E")
        .pt("E1", 100, 0, "black")
        .path("W1", "S", "E1")
    )
    g = position(wake(b, 0, 0), {"orc": "S", "man-yellow": "M"}, cards=(("yellow", hand, "moon"),))
    assert events_of(g.push_text("man-yellow T"), "black_moved")[0]["to"] == end


def test_black_figure_passes_grey_points_and_black_figures():
    """Ruling 9: it 'passes grey points and black figures' and 'stops at the first black point
    not occupied by a black figure'."""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .pt("g", 50, 0)
        .pt("k", 100, 0, "black")
        .pt("k2", 150, 0, "black")
        .path("S", "g", "k", "k2")
    )
    g = position(wake(b, 0, 0), {"orc-1": "S", "orc-2": "k", "man-yellow": "M"})
    assert events_of(g.push_text("man-yellow T"), "black_moved")[0]["route"] == [
        "S",
        "g",
        "k",
        "k2",
    ]


def test_black_figure_avoids_water_and_galleries():
    """Ruling 9: 'It follows land paths only'; ruling 5: 'Black figures never use galleries.'"""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("J", 100, 0)
        .pt("wet", 200, 0, "black")
        .pt("dry", 100, 100, "black")
        .path("S", "J")
        .path("J", "wet", medium="water")
        .path("J", "dry")
        .door("d", 100, 50, "moon")
        .door("d2", 300, 300, "moon")
        .pt("far", 320, 300, "black")
        .path("d2", "far")
    )
    g = position(
        wake(b, 0, 0), {"orc": "S", "man-yellow": "M"}, cards=(("yellow", "forward", "moon"),)
    )
    assert events_of(g.push_text("man-yellow T"), "black_moved")[0]["route"] == [
        "S",
        "J",
        "d",
        "dry",
    ]


def test_dead_end_turn_about():
    """Ruling 9: 'At a dead end it turns about.' (then, at the three-arrow fork, turns right)."""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("J", 100, 0, forced_right=True)
        .port("X", 200, 0)
        .pt("B", 100, -100, "black")
        .path("S", "J", "X")
        .path("J", "B")
    )
    g = position(wake(b, 0, 0), {"orc": "S", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["route"] == ["S", "J", "X", "J", "B"]
    assert g.to_json()["state"]["figures"]["orc"] == "B"


def test_black_figure_whose_route_repeats_stays():
    """Ruling 9: 'If its route repeats without finding one, it stays where it started.'"""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("j", 100, 0)
        .pt("g1", 200, 0)
        .pt("g2", 200, 100)
        .pt("g3", 0, 100)
        .path("S", "j")
        .path("j", "g1", "g2", "g3")
        .path("g3", "j")
    )
    g = position(wake(b, 0, 0), {"orc": "S", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "wind")[0]["figure"] == "orc"
    assert events_of(ev, "black_stays")[0]["at"] == "S"
    assert g.to_json()["state"]["figures"]["orc"] == "S"


# ---------------------------------------------------------------------- ruling 10: encounters
def encounter_board(colour: str) -> B:
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .pt("P", 100, 0, colour)
        .pt("B2", 200, 0, "black")
        .path("S", "P", "B2")
        .pt("ws", -300, 300, start="white")
    )
    return wake(b, 0, 0)


SIZES = {"gollum": 0, "orc": 1, "spirit": 2, "hobbit-yellow": 0, "man-yellow": 1, "gandalf": 2}


@pytest.mark.parametrize(
    "black,light,colour",
    list(
        itertools.product(
            ["gollum", "orc", "spirit"],
            ["hobbit-yellow", "man-yellow", "gandalf"],
            ["grey", "black"],
        )
    ),
)
def test_every_encounter_outcome(black, light, colour):
    """Ruling 10: 'Bigger black figure wins. Equal size: on a black point black wins, on a grey
    point light wins. Smaller black figure is repelled ... A defeated light figure returns to a
    free white starting point ...; on a black point the black figure takes its place and stops.'"""
    g = position(
        encounter_board(colour),
        {black: "S", light: "P", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("orange", "forward", "moon"),),
    )
    ev = g.push_text("man-orange T")
    enc = events_of(ev, "encounter")[0]
    b, li = SIZES[black], SIZES[light]
    black_wins = b > li or (b == li and colour == "black")
    assert enc["winner"] == ("black" if black_wins else "light")
    figs = g.to_json()["state"]["figures"]
    if black_wins:
        assert figs[light] is None
        chooser = "orange" if light == "gandalf" else "yellow"  # Gandalf: player whose turn it is
        assert g.to_json()["state"]["pending"] == [{"figure": light, "chooser": chooser}]
        assert g.to_move == chooser
        assert figs[black] == ("P" if colour == "black" else "B2")
        assert [str(m) for m in g.legal_moves] == [f"home {light} ws"]
        reject(g, "man-orange M", "choice_pending")
        g.push_text(f"home {light} ws")
        assert g.to_json()["state"]["figures"][light] == "ws" and g.invariants() == []
    else:
        assert figs[light] == "P"
        # repelled: turns about, passes its own start S (ruling 13), turns about at the
        # dead end behind it, is repelled again: the route repeats, so it stays on S
        assert figs[black] == "S"
        assert events_of(ev, "black_moved") == []
        assert events_of(ev, "black_stays")[0]["at"] == "S"


def test_repelled_figure_turns_about_and_meets_another():
    """Ruling 10: 'Smaller black figure is repelled: it turns about and goes on until it reaches
    a black point occupied by nobody, still meeting figures on the way.'"""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("J", 100, 0, forced_right=True)
        .pt("L1", 200, 0)
        .pt("B3", 300, 0, "black")
        .pt("L2", 100, -100)
        .pt("B", 100, -200, "black")
        .pt("ws", -300, 300, start="white")
        .path("S", "J", "L1", "B3")
        .path("J", "L2", "B")
    )
    g = position(
        wake(b, 0, 0),
        {"orc": "S", "gandalf": "L1", "hobbit-yellow": "L2", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("orange", "forward", "moon"),),
    )
    ev = g.push_text("man-orange T")
    encs = events_of(ev, "encounter")
    assert [(e["light_figure"], e["winner"]) for e in encs] == [
        ("gandalf", "light"),
        ("hobbit-yellow", "black"),
    ]
    assert g.to_json()["state"]["figures"]["orc"] == "B"
    assert g.to_json()["state"]["pending"] == [{"figure": "hobbit-yellow", "chooser": "yellow"}]


def test_ringbearer_caught_by_spirit_loses_the_game():
    """Ruling 10: 'A Spirit that defeats the current Ringbearer ends the game: everybody loses.'"""
    g = position(
        encounter_board("grey"),
        {"spirit": "S", "hobbit-yellow": "P", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("yellow", "forward", "moon"),),
    )
    ev = g.push_text("man-orange T")
    assert ev[-1]["type"] == "game_lost"
    assert g.outcome is not None and g.outcome["result"] == "lost"
    assert g.outcome["reason"] == "ringbearer_caught"
    assert list(g.legal_moves) == []
    reject(g, "man-orange M", "game_over")


def test_orc_defeating_the_ringbearer_does_not_end_the_game():
    """Ruling 10: only a *Spirit* catching the Ringbearer ends the game; an Orc sends him home."""
    g = position(
        encounter_board("grey"),
        {"orc": "S", "hobbit-yellow": "P", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("yellow", "forward", "moon"),),
    )
    g.push_text("man-orange T")
    assert g.outcome is None and g.to_json()["state"]["pending"][0]["figure"] == "hobbit-yellow"


# ---------------------------------------------------------------------- ruling 11: turning
def two_black_tile() -> list[Feature]:
    return [
        Feature(
            "pA",
            "point",
            shapely.Point(-10, 0),
            {"colour": "black", "start": "black", "heading": "E", "wind": "E"},
        ),
        Feature("pB", "point", shapely.Point(10, 0), {"colour": "black"}),
        Feature("p", "path", shapely.LineString([(-10, 0), (10, 0)]), {"medium": "land"}),
    ]


def test_storm_turns_only_empty_turnable_tiles():
    """Ruling 11: 'a storm turns every turnable tile with nobody standing anywhere on it a
    quarter turn clockwise ... Tiles with a single black point never turn.'"""
    one = [Feature("p", "point", shapely.Point(0, 0), {"colour": "black", "start": "black"})]
    b = (
        B()
        .tile("T1", "test/two", 300, 0, two_black_tile(), size=40)
        .tile("T2", "test/two", 400, 0, two_black_tile(), size=40)
        .tile("T3", "test/one", 500, 0, one, size=40)
        .pt("a", 0, 0)
        .pt("mg", 20, 0, magic=True)
        .path("a", "mg")
    )
    g = position(
        b,
        {"hobbit-yellow": "a", "orc": "T1/pA"},
        cards=(("yellow", "forward", "moon"), ("yellow", "forward", "storm")),
    )
    ev = g.push_text("hobbit-yellow mg")
    storm = events_of(ev, "storm")[0]
    assert storm["tiles"] == ["T2"] and storm["skipped"] == ["T1"]
    assert [e["tile"] for e in events_of(ev, "tile_turned")] == ["T2"]
    assert g.to_json()["state"]["tile_turns"] == {"T1": 0, "T2": 1, "T3": 0}
    assert g.compiled.graph.nodes["T2/pA"]["wind"] == "S"  # E turned a quarter: S
    assert g.compiled.graph.nodes["T1/pA"]["wind"] == "E"


def spirit_board() -> B:
    tile = [
        Feature("W", "port", shapely.Point(-50, 0), {}),
        Feature(
            "pA",
            "point",
            shapely.Point(-20, 0),
            {"colour": "black", "start": "black", "heading": "E", "wind": "E"},
        ),
        Feature("pB", "point", shapely.Point(20, 0), {"colour": "black", "wind": "N"}),
        Feature("p", "path", shapely.LineString([(-50, 0), (20, 0)]), {"medium": "land"}),
    ]
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .port("fp", 250, 0)
        .path("S", "fp")
        .tile("tile", "test/sq", 300, 0, tile)
    )
    return wake(b, 0, 0)


def test_spirit_on_black_start_turns_occupied_tile():
    """Ruling 11: 'A Spirit that ends its move on a black starting point turns that tile a
    quarter turn clockwise, figures and all.'"""
    g = position(spirit_board(), {"spirit": "S", "hobbit-yellow": "tile/pB", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["to"] == "tile/pA"
    assert [e["tile"] for e in events_of(ev, "tile_turned")] == ["tile"]
    state = g.to_json()["state"]
    assert state["tile_turns"]["tile"] == 1
    assert state["figures"]["hobbit-yellow"] == "tile/pB"  # figures turn with the tile
    assert g.compiled.graph.nodes["tile/pB"]["wind"] == "E"  # N turned a quarter
    assert g.compiled.xy("tile/pB") == pytest.approx((300, 20))  # (20, 0) turned: (0, 20)


def test_orc_on_black_start_does_not_turn_tile():
    """Rulebook 4.4: 'Orcs and Gollum cannot change the landscape.'"""
    g = position(spirit_board(), {"orc": "S", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["to"] == "tile/pA"
    assert events_of(ev, "tile_turned") == [] and g.to_json()["state"]["tile_turns"]["tile"] == 0


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
    reject(g, "gandalf ws1", "counters_first")
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


def test_wind_ray_starts_at_its_point():
    """Ruling 8: 'cast a ray from the point in the arrow's direction' — a black figure behind
    the point is not in the wind even within 15 mm of the point; with nobody in the wind,
    'Gollum plays' wherever he stands."""
    b = (
        B()
        .pt("M", 0, 20)
        .pt("T", 0, 0, wind="E")
        .path("M", "T")
        .pt("behind", -10, 0, "black", start="black", heading="N")
        .pt("gp", 0, 300, "black", start="black", heading="N")
    )
    g = position(b, {"man-yellow": "M", "orc": "behind", "gollum": "gp"})
    wind = events_of(g.push_text("man-yellow T"), "wind")[0]
    assert wind["figure"] == "gollum" and wind["distance"] is None
