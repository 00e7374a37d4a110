"""Ringgeister rulebook sentences the other tests left unexercised (found while writing
docs/coverage/ringgeister.md). Each test quotes its sentence and starts from a position
(or, for set-up rules, from a new game on the default board)."""

from __future__ import annotations

from pathlib import Path

from referee.compiler import compile_board
from referee.games.ringgeister import RinggeisterGame
from referee.games.ringgeister.pieces import COLOURS
from referee.pytest_plugin import assert_illegal, assert_legal, game_from_position
from referee.store import load_project

from .boards import B, events_of

ROOT = Path(__file__).resolve().parents[4]


def _game(
    b: B,
    figures: dict[str, str],
    *,
    players: tuple[str, ...] = ("yellow",),
    to_move: str = "yellow",
    card: tuple[str, str, str] = ("yellow", "forward", "moon"),
) -> RinggeisterGame:
    """The position: ``figures`` on ``b``, ``card`` face up, no counters (variant A)."""
    game = game_from_position(
        RinggeisterGame,
        b.board(figures, (card,)),
        {
            "players": list(players),
            "options": {"variant": "A"},
            "figures": figures,
            "face_up": "card0",
            "pile": [],
            "to_move": to_move,
            "moved": [],
            "counters": {},
            "removed": [],
        },
    )
    assert isinstance(game, RinggeisterGame)
    return game


def test_light_figures_may_turn_against_the_three_black_arrows() -> None:
    """Rulebook 2.1: "Even at forks marked with three black arrows they may turn in the
    opposite direction to the arrows (that is, to the left)." """
    b = (
        B()
        .pt("W", 0, 0)
        .junction("J", 100, 0, forced_right=True)
        .pt("N", 100, -100)
        .pt("S", 100, 100)
        .pt("E", 200, 0)
        .path("W", "J", "E")
        .path("N", "J", "S")
    )
    g = _game(b, {"hobbit-yellow": "W", "man-yellow": "E"})
    assert_legal(g, "hobbit-yellow N")  # left, against the arrows
    assert_legal(g, "hobbit-yellow S")  # right, with them
    g.push_text("hobbit-yellow N")
    assert g.to_json()["state"]["figures"]["hobbit-yellow"] == "N"


def test_gandalf_on_a_wind_arrow_wakes_a_black_figure() -> None:
    """Rulebook 4.1: "By stopping on a point marked with an arrow, a light figure (including
    Gandalf) always provokes a reaction from a black figure." """
    b = (
        B()
        .pt("A", 0, 80)
        .pt("T", 0, 60, wind="N")
        .path("A", "T")
        .pt("S", 0, 0, "black", start="black", heading="E")
        .pt("B2", 100, 0, "black")
        .path("S", "B2")
    )
    g = _game(b, {"gandalf": "A", "orc": "S"})
    assert_legal(g, "gandalf T")
    ev = g.push_text("gandalf T")
    assert events_of(ev, "wind")[0]["figure"] == "orc"
    assert events_of(ev, "black_moved")[0]["to"] == "B2"
    assert g.to_json()["state"]["figures"]["orc"] == "B2"


def test_set_up_places_the_figures_at_random_and_turns_only_the_top_card() -> None:
    """Rulebook 1.2: "the cards are shuffled and placed face down in a pile ... Only the top
    card is turned face up"; 1.3: the light figures "are placed at random on the various
    white starting points", "the 18 black figures are placed at random on the black
    starting points"."""
    compiled = compile_board(load_project(ROOT / "projects" / "ringgeister"))
    placements = set()
    for seed in (1, 2):
        g = RinggeisterGame.new(compiled, players=4, seed=seed, options={})
        state = g.to_json()["state"]
        for fid, at in state["figures"].items():
            light = fid.startswith(("hobbit", "man", "gandalf"))
            assert compiled.graph.nodes[at]["start"] == ("white" if light else "black"), fid
        assert len(set(state["figures"].values())) == 27
        cards = state["cards"]
        assert cards["discard"] == [] and len(cards["pile"]) == 23
        assert cards["face_up"] not in cards["pile"]
        assert events_of(g.setup_events, "card_turned")[0]["card"]["id"] == cards["face_up"]
        placements.add(tuple(sorted(state["figures"].items())))
    assert len(placements) == 2  # the seed, not a fixed layout, decides


def test_colours_not_used_leave_the_game_with_their_cards() -> None:
    """Rulebook 1.3: "If there are fewer than four players, the coloured figures and cards
    of the colours not used are not needed and are removed from the game." """
    compiled = compile_board(load_project(ROOT / "projects" / "ringgeister"))
    g = RinggeisterGame.new(compiled, players=2, seed=3, options={"colours": "purple,green"})
    figures = g.to_json()["state"]["figures"]
    for colour in COLOURS:
        used = colour in ("purple", "green")
        assert (f"hobbit-{colour}" in figures) is used
        assert (f"man-{colour}" in figures) is used
    assert {c.ringbearer for c in g.cards.values()} == {"purple", "green"}
    assert len(g.cards) == 12  # six cards per colour in play


def test_a_storm_as_the_first_card_turns_nothing() -> None:
    """Rulebook 3.3: "At the start of the game, all the black starting points are occupied,
    so the storm cannot yet cause any damage." """
    board = load_project(ROOT / "projects" / "ringgeister")
    compiled = compile_board(board)
    as_laid = {p.id: p.turns % 4 for p in board.placements}
    storms = 0
    for seed in range(40):
        g = RinggeisterGame.new(compiled, players=4, seed=seed, options={})
        if g.card.image != "storm":
            continue
        storms += 1
        assert events_of(g.setup_events, "storm"), "the storm happens ..."
        assert events_of(g.setup_events, "tile_turned") == []  # ... and turns nothing
        turns = g.to_json()["state"]["tile_turns"]
        assert {t: turns[t] % 4 for t in turns} == {t: as_laid[t] for t in turns}
    assert storms > 0


def test_a_black_figure_defeats_several_light_figures_on_grey_points_in_one_move() -> None:
    """Rulebook 5.1: "If ... the light figure is defeated on a grey point, the attacking black
    figure continues on its way until it reaches a black point. It can thus, in a single
    movement, attack several light figures." """
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .pt("P1", 100, 0)
        .pt("P2", 200, 0)
        .pt("B2", 300, 0, "black")
        .path("S", "P1", "P2", "B2")
        .pt("T", 0, 60, wind="N")
        .pt("M", 0, 80)
        .path("M", "T")
        .pt("ws1", -300, 300, start="white")
        .pt("ws2", -300, 340, start="white")
    )
    figures = {"orc": "S", "hobbit-yellow": "P1", "hobbit-orange": "P2", "man-orange": "M"}
    cards = (("orange", "forward", "moon"),)
    g = game_from_position(
        RinggeisterGame,
        b.board(figures, cards),
        {
            "players": ["yellow", "orange"],
            "options": {"variant": "A"},
            "figures": figures,
            "face_up": "card0",
            "pile": [],
            "to_move": "orange",
            "moved": [],
            "counters": {},
            "removed": [],
        },
    )
    assert_legal(g, "man-orange T")
    ev = g.push_text("man-orange T")
    encounters = events_of(ev, "encounter")
    assert [(e["light_figure"], e["winner"]) for e in encounters] == [
        ("hobbit-yellow", "black"),
        ("hobbit-orange", "black"),
    ]
    state = g.to_json()["state"]
    assert state["figures"]["orc"] == "B2"  # went on past both grey points
    assert state["figures"]["hobbit-yellow"] is None and state["figures"]["hobbit-orange"] is None
    assert [p["figure"] for p in state["pending"]] == ["hobbit-yellow", "hobbit-orange"]
    # both must go back to a white starting point before play goes on
    assert_illegal(g, "man-orange M", "choice_pending")


def test_light_figures_travel_by_water_as_well_as_by_land() -> None:
    """Rulebook 2.1: "All figures may, during their movement, only use the lines of
    communication by land and by water traced on the game board." """
    b = (
        B()
        .pt("A", 0, 0)
        .pt("boat", 100, 0)
        .pt("far", 200, 0)
        .path("A", "boat", medium="water")
        .pt("off", 100, 100)  # on no line: out of reach
        .path("boat", "far")
    )
    g = _game(b, {"hobbit-yellow": "A", "man-yellow": "far"})
    assert_legal(g, "hobbit-yellow boat")
    assert_illegal(g, "hobbit-yellow off")
    g.push_text("hobbit-yellow boat")
    assert g.to_json()["state"]["figures"]["hobbit-yellow"] == "boat"
