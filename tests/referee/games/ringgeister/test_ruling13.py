"""Ruling 13 (DESIGN §4), from the rulebook: "When it moves, the black figure advances
until it reaches a new black point." Each test is set up as a position."""

from __future__ import annotations

from referee.games.ringgeister import RinggeisterGame

from .boards import B, events_of, position


def repel_board(beyond: bool) -> B:
    """B0 (black, if ``beyond``) — S (black start, heading east) — P (grey); the orange
    man stepping from M to T (wind north) wakes the figure on S."""
    b = B().pt("S", 0, 0, "black", start="black", heading="E").pt("P", 100, 0)
    if beyond:
        b = b.pt("B0", -100, 0, "black").path("B0", "S", "P")
    else:
        b = b.path("S", "P")
    return (
        b.pt("T", 0, 60, wind="N").pt("M", 0, 80).path("M", "T").pt("ws", -300, 300, start="white")
    )


def play(beyond: bool) -> tuple[RinggeisterGame, list[dict]]:
    g = position(
        repel_board(beyond),
        {"gollum": "S", "man-yellow": "P", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("orange", "forward", "moon"),),
    )
    return g, g.push_text("man-orange T")


def test_repelled_figure_passes_its_vacated_start_to_a_new_black_point() -> None:
    """Gollum is repelled by the Man on P, turns about, and does not stop on the black
    point it started from: it passes S like any other point and stops on B0."""
    g, ev = play(beyond=True)
    assert [e["winner"] for e in events_of(ev, "encounter")] == ["light"]
    moved = events_of(ev, "black_moved")
    assert len(moved) == 1 and moved[0]["from"] == "S" and moved[0]["to"] == "B0"
    assert moved[0]["route"] == ["S", "S", "B0"]  # back over its own start (P never entered)
    assert g.to_json()["state"]["figures"]["gollum"] == "B0"
    assert g.invariants() == []


def test_figure_whose_route_finds_no_new_black_point_stays() -> None:
    """Without B0 the route repeats (dead end behind S, repelled again at P): only
    then does Gollum stay where it started (ruling 9)."""
    g, ev = play(beyond=False)
    assert events_of(ev, "black_moved") == []
    assert events_of(ev, "black_stays")[0]["at"] == "S"
    assert g.to_json()["state"]["figures"]["gollum"] == "S"
