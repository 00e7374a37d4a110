"""The cooperative Lord of the Rings game, fidelity: the example of play, our data, pending choices.

One test per rule, quoted in its docstring. Helpers: :mod:`rule_helpers`; the
``compiled`` board: ``conftest.py``.
"""

from __future__ import annotations

import json

import pytest

from referee.errors import IllegalMoveError, StateError
from referee.games.lotr_coop.game import LotrCoop
from referee.games.tracks import ask as _ask

from .rule_helpers import (
    BLANK,
    ONE,
    ROOT,
    THREE,
    Loaded,
    at_mount_doom,
    at_play,
    new,
    play,
)


# ---------------------------------------------------------------------- rulebook fidelity
def test_moria_example_of_play(compiled) -> None:  # type: ignore[no-untyped-def]
    """The rulebook's "Example of Play" on Moria, move by move (DESIGN §6: where the rulebook
    shows content, our data agrees with it).

    "Frodo ... turns over the top Event tile, which shows a Fighting symbol. He advances the
    marker on the Fighting Activity line onto space 11, and takes 1 shield ... chooses to play
    a white Hiding card ... collects the 'Book' card ... He chooses to play this card
    immediately ... collecting a Ring token. ... Sam ... draws an Event tile. It shows a
    sundial ... The group confer and decide that Sam will discard a Friendship card and Pippin
    a star card. Then Sam turns over another Event tile; ... another sundial ... Each Hobbit
    must discard one Hiding card or roll the die. Sam discards a Hiding card. Frodo ... uses
    any white Hobbit card as a star card, and discards a white Friendship card. Pippin ...
    rolls the die. It shows a single black circle ... Sam then turns over another Event tile,
    which ... shows a Friendship symbol ... He chooses to advance the Hiding marker and
    receives a Heart token. He then continues his turn by playing his Gimli card ...
    allowing him to advance the Fighting marker onto space 13. He receives 1 shield and a
    Ring token. He decides not to play a second card, and it is Pippin's turn."
    """
    # the position of the example (docs/positions/lotr-coop-moria.json): three players,
    # the hands the example names, the Event tiles in its order, Pippin's die fixed
    position = json.loads((ROOT / "docs" / "positions" / "lotr-coop-moria.json").read_text())
    g = LotrCoop.from_position(compiled, position)
    frodo, sam, pippin = 0, 1, 2
    assert g.hands == [
        ["w-hiding", "w-friendship"],
        ["w-friendship", "w-hiding", "gimli"],
        ["g-star", "g-star2"],
    ]
    assert g.tiles[-4:] == ["friendship", "sundial", "sundial", "fighting"]  # drawn from the end
    assert g.ringbearer == frodo and g.to_move == "frodo"

    play(g, "reveal")  # Fighting
    sc = g.sc
    assert sc is not None and sc.main.activity == "fighting"
    assert sc.main.numbers[g.markers["fighting"]] == 11 and g.shields[frodo] == [{"v": 1}]
    play(g, "play w-hiding")
    assert "book" in g.hands[frodo]
    play(g, "play book")
    assert g.life[frodo]["ring"] == 1
    play(g, "end")

    assert g.to_move == "sam"
    play(g, "reveal")  # sundial: the first Event, a group decision
    assert g.event_pos == 1 and g.phase == "group_pay"
    play(g, "give sam w-friendship")
    play(g, "give pippin g-star")
    assert g.phase == "reveal" and g.hands[pippin] == ["g-star2"]
    play(g, "reveal")  # sundial: "Each Hobbit must discard one Hiding card or roll the die"
    assert g.event_pos == 2 and g.phase == "each_pay"
    play(g, "pay sam w-hiding")
    order = []
    while g.phase == "each_pay":
        who = g.to_move
        order.append(who)
        if who == "frodo":
            play(g, "pay frodo w-friendship")  # his skill: a white card as a star
        else:
            play(g, "decline pippin")  # rolls the die: one black circle
    assert sorted(order) == ["frodo", "pippin"]
    assert g.corruption == [0, 0, 1]
    play(g, "reveal")  # Friendship: no Friendship line in Moria
    assert g.phase == "line"
    play(g, "line hiding")
    assert g.life[sam]["heart"] == 1
    play(g, "play gimli")
    assert sc.main.numbers[g.markers["fighting"]] == 13
    assert g.shields[sam] == [{"v": 1}] and g.life[sam]["ring"] == 1
    play(g, "end")
    assert g.to_move == "pippin"


def test_moria_data_marks_what_is_ours(compiled) -> None:  # type: ignore[no-untyped-def]
    """Moria's first two events and the spaces the Example of Play shows are rulebook
    content; what the example does not show (the first event's consequence) is marked ours
    in the data."""
    ev = LotrCoop.new(compiled, players=2, seed=1).lay.events
    assert ev["moria-1"]["source"] == "rulebook" and ev["moria-2"]["source"] == "rulebook"
    assert [o["source"] for o in ev["moria-1"]["effects"][0]["else"]] == ["ours"]
    assert ev["moria-1"]["effects"][0]["pay"] == {"symbol": "friendship", "n": 2}
    assert "source" not in ev["moria-2"]["effects"][0]
    nodes = compiled.graph.nodes
    shown = [n for n in nodes if nodes[n].get("source") == "rulebook"]
    assert sorted(shown) == [
        "moria_fighting01",
        "moria_fighting02",
        "moria_fighting03",
        "moria_hiding01",
        "moria_hiding02",
        "moria_hiding03",
    ]


def test_rivendell_arwen_is_ours_in_the_data(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Move the marker to Rivendell and perform the stated events. (Elrond: Shuffle the 12
    Rivendell Feature cards and deal them to the players ...)" The rulebook shows only
    Elrond's dealing: the Arwen effect is ours, and marked so in the data itself."""
    riv = LotrCoop.new(compiled, players=2, seed=1).lay.events["rivendell"]
    assert riv["source"] == "rulebook" and "Arwen" not in riv["text"]
    assert "Arwen" in riv["text_ours"]
    ops = riv["effects"]
    assert [o["op"] for o in ops if o.get("source") != "ours"] == ["deal_features"]
    assert [o["op"] for o in ops if o.get("source") == "ours"] == ["each_do"]


def test_calling_gandalf_payer_chooses_shields(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Call a Gandalf card: any one player discards 5 shields." The payer chooses shields
    worth at least 5 in total (DESIGN §6): with 4, 3 and 1 he may pay 4 + 1 and keep the 3."""
    g = new(compiled)
    at_play(g)
    g.shields[1] = [{"v": 4}, {"v": 3}, {"v": 1}]
    pays = {
        m.args[2] for m in g.legal_moves if (m.verb, *m.args)[:3] == ("gandalf", "sam", "magic")
    }
    assert pays == {"4+1", "4+3"}
    for unpayable in ("3+1", "4+3+1"):  # worth less than 5; a shield to spare
        with pytest.raises(IllegalMoveError) as exc:
            play(g, f"gandalf sam magic {unpayable}")
        assert exc.value.code == "bad_payment"
    play(g, "gandalf sam magic 4+1")
    assert g.shields[1] == [{"v": 3}]
    with pytest.raises(IllegalMoveError):
        play(g, "gandalf sam healing 3")


@pytest.mark.parametrize("pending", ["each_pay", "group_pay", "volunteer", "line", "discard"])
def test_any_time_actions_while_a_decision_is_pending(compiled, pending: str) -> None:  # type: ignore[no-untyped-def]
    """ "Any Time During the Game: Call a Gandalf card ... Play Yellow Feature cards ... You
    may discard unwanted cards from your hand onto the discard pile at any time during the
    game." Offered while an event or a volunteer decision is pending (DESIGN §6)."""
    g = new(compiled)
    g.hands = [["w-hiding", "g-fighting"], ["lembas", "w-star"], ["g-star"]]
    g.shields[2] = [{"v": 5}]
    g.queue = [
        _ask(
            pending,
            player=0,
            symbol="hiding",
            n=2,
            lines=["hiding"],
            **{"else": [{"op": "sauron", "n": 1}]},
        ),
        _ask("play"),
    ]
    g.phase = pending
    legal = {str(m) for m in g.legal_moves}
    assert {"yellow sam lembas frodo", "drop sam w-star", "gandalf pippin magic 5"} <= legal
    play(g, "drop sam w-star")
    assert g.hands[1] == ["lembas"] and g.discard[-1] == "w-star" and g.phase == pending
    play(g, "yellow sam lembas frodo")
    assert len(g.hands[0]) == 4 and g.phase == pending
    if pending == "discard":  # the Hobbit the die makes discard cannot drop instead
        assert not any((m.verb, *m.args)[:2] == ("drop", "frodo") for m in g.legal_moves)


def test_hand_edited_corruption_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    """A hand-edited state with corruption −50 is refused on load with one line naming the
    field (issue 13), never a traceback later."""
    from referee.errors import StateError

    g = new(compiled)
    data = g.to_json()
    data["state"]["corruption"][1] = -50
    with pytest.raises(StateError) as exc:
        LotrCoop.from_json(data, compiled)
    assert exc.value.code == "bad_state" and "corruption" in str(exc.value)
    assert "\n" not in str(exc.value)


def test_rulebook_content_marked_in_the_data(compiled) -> None:  # type: ignore[no-untyped-def]
    """DESIGN §6: what the rulebook shows is rulebook content in the data — the Event tiles
    ("Type 1: The Evil tiles ... Type 2: The Activity tiles"; their counts are ours), the
    Book ("the 'Book' card ... a grey card") and Gimli ("his Gimli card which has two
    Fighting symbols") of the Example of Play."""
    lay = new(compiled).lay
    assert all(t["source"] == "rulebook" and t["ours"] == ["count"] for t in lay.tiles.values())
    assert lay.tiles["volunteer"]["effects"][0] == {
        "op": "volunteer",
        "n": 2,
        "else": [{"op": "sauron", "n": 1}],
    }
    assert lay.cards["book"]["source"] == "rulebook" and lay.cards["book"]["colour"] == "grey"
    assert lay.cards["gimli"]["symbols"] == ["fighting", "fighting"]


def test_die_waits_for_any_time_cards(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Play Yellow Feature cards: they may be played by any player" at any time: before a
    die is rolled the players may play one that changes what it does (DESIGN §6) — Sam's
    Mithril coat moves Sauron away before Pippin's die could bring him there."""
    g = new(compiled)
    at_play(g)
    g.hands = [["w-hiding"], ["mithril"], ["w-star"]]
    g.sauron = 4
    g.corruption[2] = 1
    g.rng = Loaded(THREE)  # three circles: Pippin to space 4
    g.queue.insert(0, {"op": "die", "player": 2})
    g._run([])
    assert g.phase == "roll" and g.to_move == "pippin"
    assert {"roll", "yellow sam mithril"} <= {str(m) for m in g.legal_moves}
    play(g, "yellow sam mithril")
    assert g.sauron == 5 and g.phase == "roll"
    play(g, "roll")
    assert g.corruption[2] == 4 and g.alive[2] and g.phase == "play"


def test_die_rolled_at_once_when_no_card_could_change_it(compiled) -> None:  # type: ignore[no-untyped-def]
    """Without a yellow card or a Gandalf card someone could call, no pause: the die rolls."""
    g = new(compiled)
    at_play(g)
    g.hands = [["w-hiding"], ["w-star"], []]
    g.rng = Loaded(ONE)
    g.queue.insert(0, {"op": "die", "player": 1})
    g._run([])
    assert g.phase == "play" and g.corruption[1] == 0  # Sam's skill: one circle less


def test_mount_doom_roll_waits_for_any_time_cards(compiled) -> None:  # type: ignore[no-untyped-def]
    """At Mount Doom too the die waits while a yellow card could still be played."""
    g = new(compiled)
    at_mount_doom(g, BLANK)
    g.hands[1].append("miruvor")
    g._run([])
    assert g.phase == "roll" and g.to_move == "frodo" and g.outcome is None
    play(g, "roll")
    assert g.outcome is not None and g.outcome.result == "won"


def _mount_doom_position(compiled, **fields):  # type: ignore[no-untyped-def]
    """Three Hobbits at Mount Doom, the Master board's last place, and ``fields``."""
    position = {
        "players": ["frodo", "sam", "pippin"],
        "corruption": dict.fromkeys(("frodo", "sam", "pippin"), "corruption05"),
        "sauron": "corruption06",
        "location": "mount_doom",
        "shields": {"sam": [{"value": 2}]},
        **fields,
    }
    return LotrCoop.from_position(compiled, position)


def test_mount_doom_roll_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the active player remains in the game after the die roll, then the Ring has
    successfully been destroyed and the active player receives one of the face down
    shields." A position at the Mount Doom roll, written without any queue: the
    Ring-bearer rolls first; the die (fixed: blank) leaves him in the game."""
    g = _mount_doom_position(compiled, dice=[BLANK + 1])
    assert g.phase == "roll" and g.to_move == "frodo" and g.position().get("queue") is None
    play(g, "roll")
    assert g.outcome and g.outcome.result == "won" and "frodo" in g.outcome.reason
    assert len(g.shields[0]) == 1 and g.outcome.extra["score"] == 60 + g.shield_total()


def test_mount_doom_die_passed_on_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the active player is eliminated from the game as a consequence of the die roll,
    then the die is passed on to the next player, who progresses accordingly." Frodo's one
    circle takes him to Sauron's space; Sam then rolls a blank and destroys the Ring. A
    position may also start with the die already passed on (Frodo out, Sam to roll)."""
    g = _mount_doom_position(compiled, dice=[ONE + 1, BLANK + 1])
    play(g, "roll")
    assert not g.alive[0] and g.outcome and "sam destroyed the Ring" in g.outcome.reason
    h = _mount_doom_position(compiled, eliminated=["frodo"], active="sam", dice=[BLANK + 1])
    assert h.phase == "roll" and h.to_move == "sam"
    assert LotrCoop.from_position(compiled, h.position()).to_json() == h.to_json()
    with pytest.raises(StateError) as exc:
        _mount_doom_position(compiled, active="sam")
    assert "position.active" in str(exc.value) and "frodo is still in the game" in str(exc.value)
