"""The cooperative Lord of the Rings game, the end of a scenario, and Mount Doom.

One test per rule, quoted in its docstring. Helpers: :mod:`rule_helpers`; the
``compiled`` board: ``conftest.py``.
"""

from __future__ import annotations

from .rule_helpers import (
    BLANK,
    ONE,
    TWO,
    at_mount_doom,
    at_play,
    new,
    play,
    types,
)


# ---------------------------------------------------------------------- scenario end
def test_scenario_end_life_tokens_and_new_ringbearer(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Each player must have one of each of the three Life tokens. For each token missing ...
    move your Hobbit one step towards the darkness ... The player with the most Ring tokens
    becomes the new Ring-bearer ... draws two Hobbit cards ... Return all Heart, Sun and Ring
    tokens.\""""
    g = new(compiled, 4)
    at_play(g)
    g.life = [
        {"heart": 1, "sun": 1, "ring": 1},
        {"heart": 0, "sun": 1, "ring": 2},
        {"heart": 0, "sun": 0, "ring": 0},
        {"heart": 1, "sun": 1, "ring": 1},
    ]
    main = g.lay.scenarios["moria"].main
    g.markers[main.activity] = main.last - 1
    g.hands[0] = ["g-fighting"]
    n_sam = len(g.hands[1])
    ev = play(g, "play g-fighting")
    assert [(e["player"], e["missing"]) for e in ev if e["type"] == "missing_life"] == [
        ("sam", 1),
        ("pippin", 3),
    ]
    assert g.corruption == [0, 0, 2, 0]  # then Lothlórien (ours): 1 step toward the light
    assert g.ringbearer == 1 and g.scenario == "helms_deep" and g.to_move == "sam"
    assert len(g.hands[1]) == n_sam + 2 + 2  # new Ring-bearer draws 2; Lothlórien 2 more
    assert all(v == 0 for life in g.life for v in life.values())
    assert g.markers == dict.fromkeys(g.lay.scenarios["helms_deep"].lines, 0)


def test_ring_tie_goes_clockwise_from_ringbearer(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If there is a tie, the Ring goes to the player involved in the tie sitting closest to
    the current Ring-bearer, in clockwise direction.\""""
    g = new(compiled, 4)
    g.ringbearer = 2
    g.life = [
        {"heart": 1, "sun": 1, "ring": 2},
        {"heart": 1, "sun": 1, "ring": 1},
        {"heart": 1, "sun": 1, "ring": 0},
        {"heart": 1, "sun": 1, "ring": 2},
    ]
    g.scenario_over = True
    g.queue = [{"op": "scenario_end"}]
    g._run([])
    assert g.ringbearer == 3


def test_fatty_draws_two(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Fatty draws 2 Hobbit cards." at the end of a Scenario."""
    g = new(compiled, 5)
    g.life = [{"heart": 1, "sun": 1, "ring": 1} for _ in range(5)]
    n = len(g.hands[4])
    g.queue = [{"op": "scenario_end"}]
    g._run([])
    assert len(g.hands[4]) == n + 2 + 2  # + Lothlórien's 2 (ours)


def test_final_event_ends_scenario(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "A Scenario ends when the main Activity line ... is completed or the final Event has
    been concluded.\""""
    g = new(compiled)
    g.life = [{"heart": 1, "sun": 1, "ring": 1} for _ in range(3)]
    g.event_pos = 5
    g.tiles.append("sundial")
    ev = play(g, "reveal")
    assert "final_event_concluded" in types(ev) and g.scenario == "helms_deep"
    assert g.corruption[0] >= 1  # the Balrog (ours) hit the Ring-bearer first


# ---------------------------------------------------------------------- Mount Doom
def test_mount_doom_ring_destroyed(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the active player remains in the game after the die roll, then the Ring has
    successfully been destroyed and the active player receives one of the face down shields
    ... each player ... scores 60 points plus the total number of shields\""""
    g = new(compiled)
    g.shields = [[{"v": 1}], [{"v": 1}, {"v": 1}], []]
    at_mount_doom(g, BLANK)
    g._run([])
    assert g.outcome and g.outcome.result == "won"
    assert g.outcome.extra["score"] == 60 + g.shield_total() and g.shield_total() > 3


def test_mount_doom_die_passes_on(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the active player is eliminated ... as a consequence of the die roll, then the die is
    passed on to the next player ... until either the Ring is destroyed or all players are
    eliminated ... If the Fellowship reaches Mount Doom, but all players fail ... 60 points.\""""
    g = new(compiled)
    g.corruption = [g.sauron - 1] * 3
    at_mount_doom(g, TWO, TWO, TWO)  # two circles: one step even for Sam
    g._run([])
    assert g.alive == [False, False, False]
    assert g.outcome.to_json() == {
        "result": "lost",
        "winners": [],
        "score": 60,
        "reason": "the Fellowship reached Mount Doom but every Hobbit failed to destroy the Ring",
    }
    g2 = new(compiled)
    g2.corruption = [g2.sauron - 1] * 3
    at_mount_doom(g2, ONE, BLANK)
    g2._run([])
    assert g2.outcome and g2.outcome.result == "won" and "sam" in g2.outcome.reason


def test_hobbit_deck_reshuffle_removes_features(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "When the Hobbit deck has been played through, remove the used Feature cards ... from
    the discard pile ... Reshuffle the remaining Hobbit cards to form a new Hobbit draw deck.\""""
    g = new(compiled)
    g.discard = g.deck + ["gimli"]
    g.deck = []
    g._draw(0, 1, [])
    assert "gimli" in g.box and "gimli" not in g.deck and g.discard == []


def test_activity_tile_on_full_line(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "or if the marker already occupies the last Activity space of that line, advance the
    marker on another Activity line of your choice by one space. You must always advance one
    of the markers.\""""
    g = new(compiled)
    hiding = g.lay.scenarios["moria"].lines["hiding"]
    g.markers["hiding"] = hiding.last
    g.tiles.append("hiding")
    play(g, "reveal")
    assert g.phase == "line"
    assert {str(m) for m in g.legal_moves if m.verb == "line"} == {
        "line fighting",
        "line travelling",
    }


def test_card_for_full_line_has_no_effect(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Equally, cards with a symbol for an Activity line whose marker is already on the last
    space have no effect.\""""
    g = new(compiled)
    at_play(g)
    hiding = g.lay.scenarios["moria"].lines["hiding"]
    g.markers["hiding"] = hiding.last
    g.hands[0] = ["w-hiding"]
    shields = list(g.shields[0])
    play(g, "play w-hiding")
    assert g.markers["hiding"] == hiding.last and g.shields[0] == shields
    assert "w-hiding" in g.discard
