"""The cooperative game's positions (issue 14): the example file, round trips, refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from referee.compiler import compile_board
from referee.errors import StateError
from referee.games.lotr_coop.game import LotrCoop
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "docs" / "positions" / "lotr-coop-moria.json"


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "lotr-coop"))


def test_example_validates_and_round_trips(compiled) -> None:  # type: ignore[no-untyped-def]
    """The shipped example validates against the schema and position(from_position(p)) == p."""
    p = json.loads(EXAMPLE.read_text())
    jsonschema.validate(p, LotrCoop.position_schema())
    g = LotrCoop.from_position(compiled, p)
    assert g.position() == p
    assert g.phase == "reveal" and g.to_move == "frodo" and g.scenario == "moria"


def test_position_of_a_game_gives_the_same_game(compiled) -> None:  # type: ignore[no-untyped-def]
    """new -> position -> from_position gives the same legal moves, and the same game."""
    g = LotrCoop.new(compiled, players=4, seed=11)
    for text in ("reveal",):
        g.push_text(text)
    h = LotrCoop.from_position(compiled, g.position())
    assert [str(m) for m in h.legal_moves] == [str(m) for m in g.legal_moves]
    assert h.to_json() == g.to_json()


def test_hand_written_position_fills_the_rest(compiled) -> None:  # type: ignore[no-untyped-def]
    """A few keys make a position: the deck, tiles, shields and Feature cards are filled in."""
    g = LotrCoop.from_position(
        compiled,
        {
            "players": ["frodo", "sam"],
            "corruption": {"frodo": "corruption03", "sam": "corruption00"},
            "sauron": "corruption12",
            "location": "moria",
            "scenario": "moria",
            "markers": {"fighting": "moria_fighting02"},
            "hands": {"sam": ["w-star"]},
        },
    )
    assert g.corruption == [3, 0] and g.sauron == 12 and g.markers["fighting"] == 2
    assert g.invariants() == [] and g.phase == "reveal"
    assert g.last_number == g.sc.main.numbers[2]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "change,where",
    [
        ({"sauron": "nowhere"}, "position.sauron"),
        ({"corruption": {"gollum": "corruption00"}}, "position.corruption.gollum"),
        ({"markers": {"friendship": "moria_hiding01"}}, "position.markers.friendship"),
        ({"hands": {"frodo": ["the-one-ring"]}}, "position.hands.frodo[0]"),
        ({"corruption": {"frodo": "corruption15"}}, "position.corruption.frodo"),
        (
            {"discard": ["gimly"]},
            "position.discard[0]: 'gimly' is no card of the pack (did you mean 'gimli'?)",
        ),
        ({"extra": 1}, "extra"),
    ],
)
def test_impossible_position_refused(compiled, change: dict[str, Any], where: str) -> None:  # type: ignore[no-untyped-def]
    """A position that breaks the rules is refused with one line saying where."""
    p = json.loads(EXAMPLE.read_text())
    p.update(change)
    with pytest.raises(StateError) as exc:
        LotrCoop.from_position(compiled, p)
    assert exc.value.code == "bad_state" and where in str(exc.value)
    assert "\n" not in str(exc.value)


def test_phase_names_the_decision_without_a_queue(compiled) -> None:  # type: ignore[no-untyped-def]
    """A position says which decision it stands at by ``phase``, not by queue steps.
    Example of Play: "He may now play up to two cards (one white and one grey)" — a
    position at ``play``; and "or if the marker already occupies the last Activity space
    of that line, advance the marker on another Activity line of your choice by one
    space" — a position at ``line`` offers the lines not full."""
    base = {
        "players": ["frodo", "sam"],
        "corruption": {"frodo": "corruption00", "sam": "corruption00"},
        "sauron": "corruption12",
        "location": "moria",
        "scenario": "moria",
        "hands": {"frodo": ["w-hiding", "g-star"]},
    }
    g = LotrCoop.from_position(compiled, {**base, "phase": "play"})
    legal = {str(m) for m in g.legal_moves}
    assert g.phase == "play" and {"play w-hiding", "draw", "heal"} <= legal
    assert g.position()["phase"] == "play" and g.position().get("queue") is None
    last = g.lay.scenarios["moria"].lines["hiding"].points[-1]
    h = LotrCoop.from_position(compiled, {**base, "phase": "line", "markers": {"hiding": last}})
    assert {str(m) for m in h.legal_moves if m.verb == "line"} == {
        "line fighting",
        "line travelling",
    }
    with pytest.raises(StateError) as exc:  # an Event's decision with no Event to come from
        LotrCoop.from_position(compiled, {**base, "phase": "each_pay"})
    assert "position.phase: each_pay is an Event's decision" in str(exc.value)
    assert "tile_discard" in str(exc.value) and "queue" in str(exc.value)


def test_positions_written_with_the_rulebooks_names(compiled) -> None:  # type: ignore[no-untyped-def]
    """Example of Play: "He advances the marker on the Fighting Activity line onto space
    11" — a position may write that space as the rulebook numbers it (``Moria fighting
    11``), the Master board's places by name and the Corruption line counted from the
    Hobbits' start; it is the same game as the one written with node ids."""
    base = {"players": ["frodo", "sam"], "scenario": "moria", "hands": {"sam": ["w-star"]}}
    by_name = LotrCoop.from_position(
        compiled,
        base
        | {
            "corruption": {"frodo": "corruption space 3", "sam": "corruption space 0"},
            "sauron": "corruption space 12",
            "location": "Moria",
            "markers": {"fighting": "Moria fighting 11", "hiding": "Moria hiding space 2"},
        },
    )
    by_id = LotrCoop.from_position(
        compiled,
        base
        | {
            "corruption": {"frodo": "corruption03", "sam": "corruption00"},
            "sauron": "corruption12",
            "location": "moria",
            "markers": {"fighting": "moria_fighting01", "hiding": "moria_hiding02"},
        },
    )
    assert by_name.to_json() == by_id.to_json()
    assert by_name.sc is not None and by_name.sc.main.numbers[by_name.markers["fighting"]] == 11
    with pytest.raises(StateError) as exc:
        LotrCoop.from_position(
            compiled, {**base, **{"corruption": {}, "sauron": "corruption12"}, "location": "Moira"}
        )
    assert "position.location" in str(exc.value) and "did you mean 'Moria'" in str(exc.value)


def test_partial_piles_top_listed_rest_from_the_seed(compiled) -> None:  # type: ignore[no-untyped-def]
    """The one pile convention (docs/reference/positions.md): ``deck``, ``tiles`` and
    ``shield_pool`` list their top; the rest is dealt under it from the seed — the same
    seed the same rest, another seed (most likely) another."""
    base = {
        "players": ["frodo", "sam"],
        "corruption": {"frodo": "corruption00", "sam": "corruption00"},
        "sauron": "corruption12",
        "location": "moria",
        "scenario": "moria",
        "deck": ["gimli"],
        "tiles": ["sundial"],
        "shield_pool": [5, 4],
    }
    a, b, c = (LotrCoop.from_position(compiled, {**base, "seed": s}) for s in (1, 1, 2))
    assert a.deck[-1] == "gimli" and a.tiles[-1] == "sundial" and a.shield_pool[-2:] == [4, 5]
    assert len(a.shield_pool) == len(a.lay.shields) and a.invariants() == []
    assert a.to_json() == b.to_json()
    assert (a.deck, a.tiles, a.shield_pool) != (c.deck, c.tiles, c.shield_pool)


def test_negative_life_tokens_refused_at_the_field_written() -> None:
    """Found by the position fuzz test: a negative count was refused as the state's
    ``life[0]`` rather than as the position wrote it."""
    import json
    from pathlib import Path

    import pytest

    from referee.compiler import compile_board
    from referee.errors import StateError
    from referee.games import get_game
    from referee.store import load_project

    root = Path(__file__).resolve().parents[4]
    pos = json.loads((root / "docs/positions/lotr-coop-moria.json").read_text())
    pos["life"]["sam"]["sun"] = -1
    board = compile_board(load_project(root / "projects/lotr-coop"))
    with pytest.raises(StateError, match=r"^position\.life\.sam\.sun: -1 is a negative"):
        get_game("lotr-coop").from_position(board, pos)


# ------------------------------------------------ an Event's decisions, without queue steps
def event_position(**fields: Any) -> dict[str, Any]:
    """Frodo, Sam and Pippin in Moria, Sam on turn, and ``fields``."""
    return {
        "players": ["frodo", "sam", "pippin"],
        "corruption": dict.fromkeys(("frodo", "sam", "pippin"), "corruption space 0"),
        "sauron": "corruption space 15",
        "location": "Moria",
        "scenario": "moria",
        "active": "sam",
        **fields,
    }


def same_again(compiled, g: LotrCoop) -> None:  # type: ignore[no-untyped-def]
    """``position()`` writes the decision without a queue, and sets up the same game."""
    written = g.position()
    assert written["queue"] is None and written["phase"] == g.phase
    assert LotrCoop.from_position(compiled, written).to_json() == g.to_json()


def test_an_each_player_event_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Event boxes: "When you come across an Event with an EACH PLAYER prompt, all players
    must follow the instructions and consequences independently. The active player starts
    with the other players following in clockwise order." Example of Play: "Each Hobbit
    must discard one Hiding card or roll the die. Sam discards a Hiding card ... Pippin
    ... rolls the die. It shows a single black circle" — a position at that Event (the
    second sundial revealed Moria's box 2), Sam having paid: Pippin and Frodo answer."""
    pos = event_position(
        phase="each_pay",
        answering=["pippin", "frodo"],
        event_pos=2,
        tile_discard=["sundial", "sundial"],
        hands={"frodo": ["w-friendship"], "sam": ["gimli"], "pippin": ["g-star2"]},
        dice=[2],
    )
    jsonschema.validate(pos, LotrCoop.position_schema())
    g = LotrCoop.from_position(compiled, pos)
    assert g.phase == "each_pay" and g.to_move == "pippin"
    assert g.position()["event"] == "box" and g.position()["answering"] == ["pippin", "frodo"]
    same_again(compiled, g)
    g.push_text("decline pippin")  # the die: one black circle, a step into the darkness
    assert g.corruption[2] == 1 and g.to_move == "frodo"
    same_again(compiled, g)
    g.push_text("pay frodo w-friendship")  # Frodo's skill: a white card as a star
    assert g.phase == "reveal" and g.to_move == "sam" and g.hands[0] == []
    with pytest.raises(StateError, match=r"position\.answering: each Hobbit .* the last of them"):
        LotrCoop.from_position(compiled, pos | {"answering": ["frodo", "pippin"]})


def test_a_group_event_half_paid_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Event boxes: "If the 'group' is instructed to act, it is up to the players to decide
    between them who contributes to fulfil the instructions." Example of Play: "It shows
    a sundial ... The group confer and decide that Sam will discard a Friendship card and
    Pippin a star card." Moria's first Event asks the group for two Friendship symbols:
    a position after Sam's card, one still owed."""
    pos = event_position(
        phase="group_pay",
        owed=1,
        event_pos=1,
        tile_discard=["sundial"],
        hands={"sam": ["gimli"], "pippin": ["g-star", "g-star2"]},
    )
    g = LotrCoop.from_position(compiled, pos)
    assert g.phase == "group_pay" and g.position()["owed"] == 1
    same_again(compiled, g)
    g.push_text("give pippin g-star")
    assert g.phase == "reveal" and g.hands[2] == ["g-star2"] and g.sauron == 15
    with pytest.raises(StateError, match=r"position\.owed: 3: the group owes 1 to 2"):
        LotrCoop.from_position(compiled, pos | {"owed": 3})


def test_an_evil_tile_decision_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Evil tiles: "One player must volunteer to advance their Hobbit by two steps into the
    darkness on the Corruption line, or else Sauron moves one step towards the Hobbits.
    Then reveal the next Event tile." and "If you join together with the other players to
    discard 1 card, 1 Life token and 1 shield between you, nothing happens." The tile
    last revealed is the Event (the default); a tile that asks for another decision is
    refused naming the field."""
    g = LotrCoop.from_position(
        compiled, event_position(phase="volunteer", tile_discard=["volunteer"])
    )
    assert g.position()["event"] == "volunteer"
    same_again(compiled, g)
    g.push_text("volunteer pippin")
    assert g.corruption[2] == 2 and g.phase == "reveal" and g.to_move == "sam"
    g = LotrCoop.from_position(
        compiled,
        event_position(
            phase="group_pay",
            owed=["shield"],
            tile_discard=["card-life-shield"],
            shields={"pippin": [{"value": 1}]},
        ),
    )
    assert {str(m) for m in g.legal_moves if m.verb == "give"} == {"give pippin shield:1"}
    same_again(compiled, g)
    with pytest.raises(StateError, match=r"position\.event: the Event tile volunteer asks"):
        LotrCoop.from_position(
            compiled,
            event_position(phase="group_pay", tile_discard=["volunteer"], event="volunteer"),
        )
    with pytest.raises(StateError, match=r"position\.answering: belongs to phase each_pay"):
        LotrCoop.from_position(
            compiled,
            event_position(phase="volunteer", tile_discard=["volunteer"], answering=["sam"]),
        )


def test_cards_written_by_their_titles(compiled) -> None:  # type: ignore[no-untyped-def]
    """Example of Play: "collects the 'Book' card into his hand", "playing his Gimli
    card"; Any Time During the Game: "Call a Gandalf card". Feature and Gandalf cards may
    be written by their titles (the Hobbit cards print none: ``w-hiding``); the game is
    the one written with ids, and a misspelt title is refused with the nearest."""
    base = event_position()
    by_title = base | {
        "hands": {"sam": ["Gimli", "w-hiding"], "frodo": ["Book of Mazarbul"]},
        "gandalf_cards": ["Magic", "healing", "Persistence", "protection"],
        "discard": ["Guidance"],
    }
    by_id = base | {
        "hands": {"sam": ["gimli", "w-hiding"], "frodo": ["book"]},
        "gandalf_cards": ["magic", "healing", "persistence", "protection"],
        "discard": ["guidance"],
    }
    a = LotrCoop.from_position(compiled, by_title)
    assert a.to_json() == LotrCoop.from_position(compiled, by_id).to_json()
    assert a.with_card_titles(a.position())["hands"]["sam"] == ["Gimli", "w-hiding"]
    with pytest.raises(StateError, match=r"position\.hands\.sam\[0\]: 'Gimly' .*'Gimli'"):
        LotrCoop.from_position(compiled, base | {"hands": {"sam": ["Gimly"]}})
    with pytest.raises(StateError, match=r"position\.gandalf_cards\[0\]: 'Gimli' is no Gandalf"):
        LotrCoop.from_position(compiled, base | {"gandalf_cards": ["Gimli"]})


def test_an_events_die_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Example of Play: "Each Hobbit must discard one Hiding card or roll the die ...
    Pippin, however, has no Hiding card ... so he takes a risk and rolls the die." The
    die's faces include "discard two cards". Positions at the Event's die (no queue):
    Pippin about to roll, Sam holding Miruvor (a yellow card that could change what
    the die does), and Pippin discarding after the die showed the discard face; Frodo
    answers after him."""
    at_roll = event_position(
        phase="roll",
        answering=["pippin", "frodo"],
        event_pos=2,
        tile_discard=["sundial", "sundial"],
        hands={"frodo": ["w-hiding"], "sam": ["miruvor"], "pippin": ["g-star2"]},
        dice=[2],
    )
    g = LotrCoop.from_position(compiled, at_roll)
    assert g.phase == "roll" and g.position()["queue"] is None
    same_again(compiled, g)
    g.push_text("roll")
    assert g.corruption[2] == 1 and g.phase == "each_pay" and g.to_move == "frodo"
    at_discard = at_roll | {
        "phase": "discard",
        "owed": 1,
        "hands": {"frodo": ["w-hiding"], "pippin": ["g-star2", "w-fighting"]},
    }
    g = LotrCoop.from_position(compiled, at_discard)
    assert {str(m) for m in g.legal_moves if m.verb == "discard"} == {
        "discard pippin g-star2",
        "discard pippin w-fighting",
    }
    assert g.position()["owed"] == 1 and g.position()["queue"] is None
    g.push_text("discard pippin w-fighting")  # the second of two: Frodo answers next
    assert g.hands[2] == ["g-star2"] and g.phase == "each_pay" and g.to_move == "frodo"
    with pytest.raises(StateError, match=r"position\.owed: 3: pippin discards 1 to 2"):
        LotrCoop.from_position(compiled, at_discard | {"owed": 3})
    with pytest.raises(StateError, match=r"position\.event: the Event tile volunteer asks"):
        LotrCoop.from_position(
            compiled, at_roll | {"tile_discard": ["volunteer"], "event": "volunteer"}
        )


def test_an_activity_spaces_die_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """The die: "When you encounter the symbol during your play, you must roll the die
    ... Place any two of the cards in your hand face up onto the discard pile." Sam's
    Hiding tile moved the marker onto Moria's die space and the die showed the discard
    face: a position at the discard (no queue); his cards follow."""
    pos = event_position(
        phase="discard",
        tile_discard=["hiding"],
        revealed=1,
        markers={"hiding": "Moria hiding space 4"},
        hands={"sam": ["w-fighting", "w-hiding", "g-star"]},
    )
    g = LotrCoop.from_position(compiled, pos)
    assert g.position()["event"] == "hiding" and g.position()["queue"] is None
    same_again(compiled, g)
    g.push_text("discard sam w-fighting")
    g.push_text("discard sam g-star")
    assert g.phase == "play" and g.hands[1] == ["w-hiding"]
    with pytest.raises(StateError, match=r"position\.answering: an Activity space's die"):
        LotrCoop.from_position(compiled, pos | {"answering": ["sam"]})


def test_the_rings_die_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """The Ring: "The Ring-bearer rolls the die and must bear any negative consequences
    that occur. Thereafter the Ring-bearer advances the marker on any one Activity line
    by a number of spaces ... Spaces moved over or landed on in this way are not carried
    out ... Thereafter the active player continues with the turn." Sam's Hiding tile
    done, Frodo put on the Ring for the Fighting line and the die showed "discard two
    cards" (no circles: 4 spaces): a position at his discard (ring_line, no queue)."""
    pos = event_position(
        phase="discard",
        ringbearer="frodo",
        ring_used=True,
        ring_on="frodo",
        ring_line="fighting",
        tile_discard=["hiding"],
        revealed=1,
        hands={"frodo": ["w-fighting", "w-hiding", "g-star"]},
    )
    g = LotrCoop.from_position(compiled, pos)
    written = g.position()
    assert written["ring_line"] == "fighting" and written["owed"] == 2
    same_again(compiled, g)
    before = g.markers["fighting"]
    shields = [list(s) for s in g.shields]
    g.push_text("discard frodo w-fighting")
    g.push_text("discard frodo g-star")
    assert g.markers["fighting"] == before + 4 and g.shields == shields  # not carried out
    assert g.phase == "play" and g.players[g.active] == "sam"  # Sam's turn goes on
    at_reveal = LotrCoop.from_position(compiled, pos | {"tile_discard": ["sundial"]})
    assert at_reveal.queue[-1] == {"op": "ask", "phase": "reveal"}  # after an Event tile
    with pytest.raises(StateError, match=r"position\.ring_line: 'fihgting' is no Activity line"):
        LotrCoop.from_position(compiled, pos | {"ring_line": "fihgting"})
    with pytest.raises(StateError, match=r"position\.ring_on: the Ring's die is rolled by"):
        LotrCoop.from_position(compiled, pos | {"ring_on": None})
    with pytest.raises(StateError, match=r"position\.ring_line: belongs to phase discard"):
        LotrCoop.from_position(compiled, pos | {"phase": "play"})


def test_a_second_die_space_of_one_advance_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Playing cards: "If a card played permits a marker to be advanced by more than one
    space, every space moved over or landed on must be carried out. If this includes an
    instruction to roll the die, this is done last, but before playing the next card."
    Sam's card took the Fighting marker over Moria's two die spaces (5 and 10): the
    first die showed "discard two cards", the second is still to roll (more_dice 1)."""
    pos = event_position(
        phase="discard",
        more_dice=1,
        tile_discard=["hiding"],
        revealed=1,
        markers={"fighting": "Moria fighting space 10"},
        hands={"sam": ["w-fighting", "w-hiding", "g-star"]},
        dice=[3],  # the second die: two circles, one less for Sam (his Character card)
    )
    g = LotrCoop.from_position(compiled, pos)
    assert g.position()["more_dice"] == 1
    same_again(compiled, g)
    dark = g.corruption[1]
    g.push_text("discard sam w-fighting")
    g.push_text("discard sam g-star")
    assert g.corruption[1] == dark + 1 and g.phase == "play"  # the second die, then his cards
    with pytest.raises(StateError, match=r"position\.more_dice: 1: more die spaces come from"):
        LotrCoop.from_position(compiled, pos | {"tile_discard": ["sundial", "sundial"]})


def test_the_ring_put_on_at_the_choice_of_a_line_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """The Ring: "Once during each Scenario the Ring-bearer may put on the Ring, either
    after the active player revealed an Event tile, or after the execution of a tile or
    a card ... Thereafter the active player continues with the turn." Sam revealed the
    Friendship tile ("As there are no Friendship symbols on the Moria board, he may
    advance any Activity marker"); before he chose, Frodo put on the Ring for the
    Travelling line and the die showed discard: ring_then line, no queue."""
    pos = event_position(
        phase="discard",
        ringbearer="frodo",
        ring_used=True,
        ring_on="frodo",
        ring_line="travelling",
        ring_then="line",
        tile_discard=["friendship"],
        revealed=1,
        hands={"frodo": ["w-fighting", "w-hiding", "g-star"]},
    )
    g = LotrCoop.from_position(compiled, pos)
    assert g.position()["ring_then"] == "line"
    same_again(compiled, g)
    before = g.markers["travelling"]
    g.push_text("discard frodo w-fighting")
    g.push_text("discard frodo g-star")
    assert g.markers["travelling"] == before + 4 and g.phase == "line"  # Sam chooses now
    with pytest.raises(StateError, match=r"position\.ring_then: the decision the Ring's die"):
        LotrCoop.from_position(compiled, pos | {"ring_line": None})
    with pytest.raises(StateError, match=r"position\.event: with ring_line, places the Event"):
        LotrCoop.from_position(compiled, pos | {"event": "box"})


def test_the_ring_put_on_at_a_payment_partly_made_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """The Ring: "the Ring-bearer may put on the Ring, either after the active player
    revealed an Event tile ... Thereafter the active player continues with the turn."
    The card-life-shield tile ("If you discard 1 card, 1 Life token and 1 shield between
    you, nothing happens") half paid, the card given; then Frodo put on the Ring and its
    die showed discard: ring_then group_pay, ring_then_owed the life and the shield."""
    pos = event_position(
        phase="discard",
        ringbearer="frodo",
        ring_used=True,
        ring_on="frodo",
        ring_line="fighting",
        ring_then="group_pay",
        ring_then_owed=["life", "shield"],
        tile_discard=["card-life-shield"],
        revealed=1,
        hands={"frodo": ["w-fighting", "w-hiding", "g-star"]},
    )
    g = LotrCoop.from_position(compiled, pos)
    assert g.position()["ring_then_owed"] == ["life", "shield"]
    same_again(compiled, g)
    g.push_text("discard frodo w-fighting")
    g.push_text("discard frodo g-star")
    assert g.phase == "group_pay" and g.queue[0]["needs"] == ["life", "shield"]
    with pytest.raises(StateError, match=r"position\.ring_then_owed: \['life', 'life'\]: each"):
        LotrCoop.from_position(compiled, pos | {"ring_then_owed": ["life", "life"]})
    with pytest.raises(StateError, match=r"position\.ring_then_owed: what the group payment"):
        LotrCoop.from_position(compiled, pos | {"ring_then": "line"})
