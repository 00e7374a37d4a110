"""Adventure to Mount Doom: the rulebook's examples as positions (issue 27).

Each test writes the situation of an example as a position — figures on route spaces,
dice already on the tray, the Mount Doom roll — with no queue: the position's
``phase`` (or the dice on the tray) says which decision is awaited.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.errors import StateError
from referee.games.mount_doom.game import MountDoom, Move
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "mount-doom"))


def die(side: int, value: int, who: str | None = None, done: bool = False) -> dict[str, Any]:
    """A die on the tray: a black one, or ``who``'s companion die."""
    out: dict[str, Any] = {"side": side, "kind": "companion" if who else "encounter"}
    out["value"] = value
    if who:
        out["who"] = who
    if done:
        out["done"] = True
    return out


def position(**fields: Any) -> dict[str, Any]:
    """Two players, every figure on Rivendell, the Ring on its start, and ``fields``."""
    base: dict[str, Any] = {
        "players": ["p1", "p2"],
        "companions": dict.fromkeys(
            ("ringbearer", "aragorn", "legolas", "gimli", "merry-pippin"), "r00"
        ),
        "ring": "resolve04",
        "row": [[{"card": "watcher", "up": False}], [{"card": "elrond"}], [], [], [], []],
    }
    base.update(fields)
    return base


def go_until_turn_ends(g: MountDoom) -> None:
    while g.phase == "resolve":
        g.push(Move("go"))


def test_stage_goal_reached_remaining_dice_still_resolved(compiled) -> None:  # type: ignore[no-untyped-def]
    """Example (End of a Stage): "After you have resolved the first black encounter die,
    you move the Ring-bearer 3 spaces further and reach the stage goal Lothlórien exactly.
    This ends the current stage after this turn, and you receive a Gandalf card. The two
    dice on side 2 of the dice tray are still resolved." The tray is written with its
    first die done; side 2 is a black 2 (Elrond, a friend) and Gimli's 2."""
    g = MountDoom.from_position(
        compiled,
        position(
            companions={"ringbearer": "r04", "aragorn": "r00", "legolas": "r00"}
            | {"gimli": "r00", "merry-pippin": "r00"},
            gandalf_stack=["white-rider", "shadowfax", "flame-of-anor", "counsel"],
            tray=[die(1, 5, done=True), die(1, 3, "ringbearer"), die(2, 2), die(2, 2, "gimli")],
        ),
    )
    assert g.phase == "resolve" and g.position()["phase"] == "resolve"
    g.push(Move("go"))  # the Ring-bearer's 3: Lothlórien exactly
    assert g.lay.route[g.pos["ringbearer"]] == "r07" and g.stage_over
    assert any(e["card"] == "white-rider" for e in g.held)  # the top Gandalf card
    g.push(Move("go"))  # side 2 still resolved: the black 2 activates Elrond
    g.push(Move("go"))  # and Gimli's 2
    assert any(e["card"] == "elrond" for e in g.held) and g.pos["gimli"] == 2
    assert g.stage == 2 and g.to_move == "p2" and g.phase == "start" and g.tray == []


def test_minas_morgul_example(compiled) -> None:  # type: ignore[no-untyped-def]
    """Example (The Final Stage): "The Ring-bearer has reached Minas Morgul with the exact
    number. Legolas and Merry & Pippin have also reached Minas Morgul with the exact
    number. Therefore the Ring-bearer may advance 2 spaces immediately. Aragorn, in an
    earlier turn, would have moved past Minas Morgul and was therefore placed on the rally
    space next to it. He brings the Ring-bearer no further step on the final stage. The
    same applies to Gimli, who did not reach Minas Morgul by the end of the stage and
    therefore stays on his space." The Ring-bearer's 2 lies on the tray; the black dice
    show empty positions (Nazgûl at 1 and 6)."""
    mm = "r35"
    g = MountDoom.from_position(
        compiled,
        position(
            stage=5,
            companions={"ringbearer": "r33", "legolas": mm, "merry-pippin": mm}
            | {"aragorn": "rally", "gimli": "r30"},
            row=[[], [], [], [], [], [{"card": "palantir"}]],
            tray=[die(1, 1), die(1, 2, "ringbearer"), die(2, 1), die(2, 3, "aragorn")],
        ),
    )
    go_until_turn_ends(g)
    assert g.stage == 6 and g.pos["ringbearer"] == g.lay.minas_morgul + 2
    assert g.position()["companions"]["aragorn"] == "rally" and g.pos["gimli"] == 30
    assert all(len(s) == 1 for s in g.row)  # the Mount Doom cards laid out


@pytest.mark.parametrize(
    "card,dice,moved",
    [("ash-plains", [3], 1), ("shelob", [3], 0)],
)
def test_mount_doom_roll(compiled, card: str, dice: list[int], moved: int) -> None:  # type: ignore[no-untyped-def]
    """The final stage: "Taking turns, you roll with only one black encounter die and follow
    the instruction of the corresponding Encounter card ... First the encounter is resolved
    each time, then you move the Ring-bearer exactly 1 space further toward Mount Doom."
    and "When encountering the giant spider Shelob, the Ring-bearer is cocooned in webbing
    and may not move!" A position at the Mount Doom roll: stage 6, no queue."""
    others = list(MountDoom.new(compiled, players=2, seed=1).lay.stage_decks[6])
    others.remove(card)
    row = [[{"card": c}] for c in others[:5]]
    row.insert(2, [{"card": card}])
    g = MountDoom.from_position(
        compiled,
        position(
            stage=6,
            dice=dice,
            companions={"ringbearer": "r37", "aragorn": "rally", "legolas": "r35"}
            | {"gimli": "r30", "merry-pippin": "r35"},
            row=row,
        ),
    )
    assert g.phase == "start" and [str(m) for m in g.legal_moves if m.verb == "roll"] == ["roll"]
    g.push(Move("roll"))
    assert g.pos["ringbearer"] == 37 + moved and g.to_move == "p2"


def test_fixed_dice_order(compiled) -> None:  # type: ignore[no-untyped-def]
    """The fixed ``dice`` are used as documented (docs/reference/positions.md): the two
    black dice, then the two companion dice in sorted-id order; in the second roll the
    black die, the companion die kept from the first roll, then the one chosen."""
    g = MountDoom.from_position(compiled, position(dice=[1, 2, 3, 4, 5, 6, 1]))
    g.push(Move("roll", "gimli", "legolas"))
    assert g.rolled["black"] == [1, 2] and g.rolled["dice"] == {"gimli": 3, "legolas": 4}
    g.push(Move("place", "1", "legolas"))
    g.push(Move("roll", "aragorn"))
    assert g.rolled["black"] == [5] and g.rolled["dice"] == {"gimli": 6, "aragorn": 1}
    assert "sorted" in MountDoom.position_schema()["properties"]["dice"]["description"]


@pytest.mark.parametrize(
    "fields,where",
    [
        ({"tray": [die(1, 2)]}, "position.tray"),
        ({"tray": [die(1, 2, "gimli"), die(1, 2)]}, "position.tray"),
        ({"tray": [die(1, 2), die(1, 2, "frodo")]}, "position.tray[1].who"),
        ({"phase": "resolve"}, "position.tray"),
        ({"phase": "boromir"}, "position.tray: 0 dice, but in phase boromir it holds 4"),
        ({"phase": "army"}, "position.tray: 0 dice, but in phase army it holds 4"),
        ({"phase": "battle"}, "position.tray"),
        ({"battle": "watcher"}, "position.tray"),
        ({"phase": "start", "battle": "watcher"}, "position.battle"),
        ({"phase": "place1"}, "position.rolled"),
        ({"stage": 6, "tray": [die(1, 2), die(1, 2, "gimli")]}, "position.tray"),
        (
            {"tray": [die(1, 1), die(1, 2, "gimli"), die(2, 3, done=True), die(2, 2, "aragorn")]},
            "position.tray",
        ),
        ({"queue": [{"op": "ask", "phase": "resolve"}]}, "queue"),
        ({"queue": [{"op": "ask", "phase": "start"}], "phase": "resolve"}, "position.phase"),
    ],
)
def test_dice_positions_refused_in_one_line(compiled, fields: dict[str, Any], where: str) -> None:  # type: ignore[no-untyped-def]
    """A tray, roll or phase the rules cannot have left is refused with one line naming the
    field; a hand-written queue that stops before the turn's end is refused on loading
    (never an IndexError in play)."""
    with pytest.raises(StateError) as exc:
        MountDoom.from_position(compiled, position(**fields))
    assert exc.value.code == "bad_state" and where in str(exc.value)
    assert "\n" not in str(exc.value) and "IndexError" not in str(exc.value)


def test_positions_written_with_the_rulebooks_names(compiled) -> None:  # type: ignore[no-untyped-def]
    """A position may name the places as the rulebook does (``referee board-names``):
    stage goals, Rivendell, the rally space, route spaces counted from Rivendell and the
    resolve track counted from the bright heart. It is the same game as with ids."""
    by_name = MountDoom.from_position(
        compiled,
        position(
            companions={"ringbearer": "Lothlórien", "aragorn": "the rally space"}
            | {"legolas": "Rivendell", "gimli": "route space 9", "merry-pippin": "minas morgul"},
            ring="the One Ring's start",
        ),
    )
    by_id = MountDoom.from_position(
        compiled,
        position(
            companions={"ringbearer": "r07", "aragorn": "rally", "legolas": "r00"}
            | {"gimli": "r09", "merry-pippin": "r35"},
            ring="resolve04",
        ),
    )
    assert by_name.to_json() == by_id.to_json()
    names = {n.name: n for n in MountDoom.board_names(compiled)}
    assert names["the bright heart"].id == "resolve00" and names["the dark heart"].id == "resolve12"
    assert names["Mount Doom"].kind == "stage goal" and "stage 6" in names["Mount Doom"].note
    with pytest.raises(StateError) as exc:
        MountDoom.from_position(compiled, position(ring="the brigth heart"))
    assert "position.ring" in str(exc.value) and "did you mean 'the bright heart'" in str(exc.value)


@pytest.mark.parametrize(
    "face,won",
    [(3, True), (5, False), (1, False)],  # gimli's axe; Sauron; aragorn's sword (behind)
)
def test_battle_die_pending_as_a_position(compiled, face: int, won: bool) -> None:  # type: ignore[no-untyped-def]
    """Battles: "If the battle die shows the weapon of a companion who supports the
    Ring-bearer in battle, you have won the battle. If the battle die shows the weapon of
    a companion who does not support the Ring-bearer, you have lost the battle ... If
    the battle die shows the Sauron symbol, you have lost the battle immediately." A
    position at the battle die: the black 1 (the Watcher, face up) resolved, the battle
    pending, Gimli beside the Ring-bearer, Aragorn behind him."""
    g = MountDoom.from_position(
        compiled,
        position(
            phase="battle",
            dice=[face],
            companions={"ringbearer": "r03", "gimli": "r03", "aragorn": "r01"}
            | {"legolas": "r00", "merry-pippin": "r00"},
            row=[[{"card": "watcher"}], [{"card": "elrond"}], [], [], [], []],
            tray=[die(1, 1, done=True), die(1, 1, "legolas"), die(2, 3), die(2, 1, "gimli")],
        ),
    )
    assert g.phase == "battle" and "fight" in {str(m) for m in g.legal_moves}
    ring = g.ring
    g.push(Move("fight"))
    assert g.ring == (ring if won else ring + 1)  # lost: 1 dark heart (the Watcher)
    assert g.phase == "resolve" and g.pos["legolas"] == 0  # the rest of the tray follows


def test_a_card_just_turned_face_up_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Resolving the dice: "If the rolled card is lying face down, that is, at die
    position "1" or "6", you first turn it face up and resolve it immediately", and
    "All friend cards ... can be used at any time during the game". A position at that
    pause (phase turned, no queue): the black 1 has turned the Watcher face up; p1 uses
    Galadriel to bring Gimli beside the Ring-bearer before the battle, which Gimli's
    axe (3) then wins; the tray's other dice follow."""
    pos = position(
        phase="turned",
        dice=[3],
        companions={"ringbearer": "r03", "gimli": "r01", "aragorn": "r00"}
        | {"legolas": "r00", "merry-pippin": "r00"},
        held={"galadriel": "p1"},
        row=[[{"card": "watcher"}], [{"card": "elrond"}], [], [], [], []],
        tray=[die(1, 1, done=True), die(1, 1, "legolas"), die(2, 3), die(2, 1, "gimli")],
    )
    g = MountDoom.from_position(compiled, pos)
    assert g.phase == "turned" and "go" in {str(m) for m in g.legal_moves}
    written = g.position()
    assert written["queue"] is None and written["phase"] == "turned" and written["at"] == 1
    assert MountDoom.from_position(compiled, written).to_json() == g.to_json()
    g.push(Move("use", "galadriel", "gimli", "2"))
    assert g.pos["gimli"] == 3 and g.phase == "turned"
    ring = g.ring
    events = g.push(Move("go"))  # no card left to use: the battle die is rolled at once
    assert [e.get("face") for e in events if e["type"] == "roll"] == ["gimli"]
    assert g.ring == ring and g.phase == "resolve" and not g.rng.fixed  # Gimli's axe: won
    # refused in one line naming the field: a die that is not the tray's, a card not met
    for fields, where in (
        ({"at": 2}, "position.at: 2, but the tray's last resolved black die shows 1"),
        ({"turned": "wargs"}, "position.turned: wargs is neither the card face up at"),
    ):
        with pytest.raises(StateError, match=where.replace("(", r"\(")):
            MountDoom.from_position(compiled, pos | fields)


def test_a_card_turned_at_the_mount_doom_roll(compiled) -> None:  # type: ignore[no-untyped-def]
    """The final stage: "The cards at "1" and "6" are turned face up as usual when they
    are rolled for the first time." The Mount Doom roll showed 6: Plains of Gorgoroth
    ... here the Fell beast (a Nazgûl) lay face down there; with the White Rider held,
    the position pauses at the turned card (``at`` is the black die, required without a
    tray); going on places the Nazgûl, then the Ring-bearer steps on."""
    pos = position(
        stage=6,
        phase="turned",
        at=6,
        held={"white-rider": "p1"},
        companions={"ringbearer": "route space 37", "aragorn": "the rally space"}
        | {"legolas": "Minas Morgul", "gimli": "route space 30", "merry-pippin": "Minas Morgul"},
        ring="resolve space 6",
        row=[[{"card": "shelob"}], [{"card": "orc-patrol"}], [{"card": "sams-courage"}]]
        + [[{"card": "gollum"}], [{"card": "ash-plains"}], [{"card": "fell-beast"}]],
    )
    g = MountDoom.from_position(compiled, pos)
    assert g.phase == "turned" and g.position()["at"] == 6 and g.position()["queue"] is None
    nazgul, step = g.nazgul, g.pos["ringbearer"]
    g.push(Move("go"))
    assert g.nazgul > nazgul and g.pos["ringbearer"] == step + 1 and g.to_move == "p2"
    with pytest.raises(StateError, match=r"position\.at: a card turned face up in the final"):
        MountDoom.from_position(compiled, {k: v for k, v in pos.items() if k != "at"})


def test_a_card_put_back_once_met_is_named_at_its_pause(compiled) -> None:  # type: ignore[no-untyped-def]
    """The Cave Troll goes back in the box once met, so the row no longer shows it: a
    position turned (or battling) at it names it (``turned``), and ``position()`` writes
    it so; the battle follows with its two dark hearts (Sauron's face, lost)."""
    pos = position(
        phase="turned",
        dice=[5],
        held={"galadriel": "p2"},
        row=[[{"card": "watcher"}], [{"card": "elrond"}], [], [], [], []],
        turned="cave-troll",
        tray=[die(1, 6, done=True), die(1, 1, "legolas"), die(2, 3), die(2, 1, "gimli")],
    )
    g = MountDoom.from_position(compiled, pos)
    assert "cave-troll" in g.box and g.position()["turned"] == "cave-troll"
    assert g.position()["queue"] is None
    ring = g.ring
    g.push(Move("go"))  # Galadriel could still be used in battle: the battle die awaits
    assert g.phase == "battle" and g.position()["battle"] == "cave-troll"
    assert g.position()["queue"] is None
    assert MountDoom.from_position(compiled, g.position()).to_json() == g.to_json()
    g.push(Move("fight"))
    assert g.ring == ring + 2


def test_cards_written_by_their_titles(compiled) -> None:  # type: ignore[no-untyped-def]
    """The rulebook names the cards by their titles ("Elrond", "Watcher in the Water"):
    a position may too, and sets up the game written with ids; a title four cards share
    (Uruk-hai) is refused with the ids to write, a misspelt one with the nearest title."""
    by_title = position(
        held={"Galadriel": "p1"},
        row=[[{"card": "Watcher in the Water", "up": False}], [{"card": "elrond"}]]
        + [[], [], [], []],
        gandalf_stack=["The White Rider"],
    )
    by_id = position(
        held={"galadriel": "p1"},
        row=[[{"card": "watcher", "up": False}], [{"card": "elrond"}], [], [], [], []],
        gandalf_stack=["white-rider"],
    )
    a = MountDoom.from_position(compiled, by_title)
    assert a.to_json() == MountDoom.from_position(compiled, by_id).to_json()
    assert a.position()["held"] == {"galadriel": "p1"}  # position() writes ids
    assert a.with_card_titles(a.position())["held"] == {"Galadriel": "p1"}
    with pytest.raises(StateError, match=r"position\.box\[0\]: 'Uruk-hai' is the title of 4"):
        MountDoom.from_position(compiled, position(box=["Uruk-hai"]))
    with pytest.raises(StateError, match=r"position\.held\.Galadrial: .*'Galadriel'"):
        MountDoom.from_position(compiled, position(held={"Galadrial": "p1"}))


def test_a_companion_symbol_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """The Black Encounter Dice: "If you roll a position on the encounter row where no
    card lies anymore, you instead carry out the symbol depicted there ... Merry & Pippin
    may stay in place (0) or move forward 1 or 2 spaces." A position at that choice
    (phase advance, no queue): the black 2 on the tray, Elrond gone from space 2."""
    pos = position(
        phase="advance",
        row=[[{"card": "watcher", "up": False}], [], [], [], [], []],
        tray=[die(1, 2, done=True), die(1, 1, "aragorn"), die(2, 3), die(2, 2, "gimli")],
    )
    g = MountDoom.from_position(compiled, pos)
    assert {str(m) for m in g.legal_moves if m.verb == "advance"} == {
        f"advance merry-pippin {n}" for n in (0, 1, 2)
    }
    written = g.position()
    assert written["queue"] is None and written["phase"] == "advance"
    assert MountDoom.from_position(compiled, written).to_json() == g.to_json()
    g.push(Move("advance", "merry-pippin", "2"))
    assert g.pos["merry-pippin"] == 2 and g.phase == "resolve"  # Aragorn's die next
    with pytest.raises(StateError, match=r"position\.row: phase advance: encounter position 2"):
        MountDoom.from_position(compiled, pos | {"row": [[], [{"card": "elrond"}]] + [[]] * 4})


def test_the_army_of_the_dead_and_denethor_as_positions(compiled) -> None:  # type: ignore[no-untyped-def]
    """The second-to-last stage: "two special Encounter cards ... remain lying in the row
    after being activated: "Denethor" and the "Army of the Dead"." Positions at their
    decisions: the Army goes left or right onto the next card; Denethor rolls one of the
    two companion dice still on the tray again (here side 1's, which shows 3 anew)."""
    army = position(
        stage=5,
        phase="army",
        row=[[{"card": "palantir"}], [], [{"card": "army-of-the-dead"}], [], [], []] + [],
        tray=[die(1, 3, done=True), die(1, 1, "aragorn"), die(2, 4), die(2, 2, "gimli")],
    )
    g = MountDoom.from_position(compiled, army)
    assert {str(m) for m in g.legal_moves if m.verb == "army"} == {"army left"}
    assert g.position()["queue"] is None
    g.push(Move("army", "left"))
    assert [c["card"] for c in g.row[0]] == ["palantir", "army-of-the-dead"]
    den = position(
        stage=5,
        phase="denethor",
        dice=[3],
        row=[[], [], [{"card": "denethor"}], [], [], []],
        tray=[die(1, 3, done=True), die(1, 1, "aragorn"), die(2, 4), die(2, 2, "gimli")],
    )
    g = MountDoom.from_position(compiled, den)
    assert {str(m) for m in g.legal_moves if m.verb == "reroll"} == {"reroll 1", "reroll 2"}
    assert g.position()["queue"] is None
    g.push(Move("reroll", "1"))
    assert g.tray[1]["value"] == 3
    with pytest.raises(StateError, match=r"position\.at: palantir at encounter position 1 asks"):
        MountDoom.from_position(
            compiled, army | {"tray": [die(1, 1, done=True)] + army["tray"][1:]}
        )


def test_a_gandalf_card_to_save_a_battle_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Battles: "If the battle die shows the Gandalf symbol, you have likewise lost the
    battle — unless you are willing to discard a still-unused Gandalf card that you have
    received. In that case you win the battle after all. The Gandalf card is then put
    back in the box." A position at that choice (phase gandalf, no queue)."""
    pos = position(
        phase="gandalf",
        held={"Shadowfax": "p1"},
        companions={"ringbearer": "r03", "gimli": "r03", "aragorn": "r01"}
        | {"legolas": "r00", "merry-pippin": "r00"},
        row=[[{"card": "watcher"}], [{"card": "elrond"}], [], [], [], []],
        tray=[die(1, 1, done=True), die(1, 1, "legolas"), die(2, 3), die(2, 1, "gimli")],
    )
    g = MountDoom.from_position(compiled, pos)
    assert {str(m) for m in g.legal_moves} >= {"save shadowfax", "accept"}
    assert g.position()["queue"] is None and g.position()["phase"] == "gandalf"
    ring = g.ring
    g.push(Move("save", "shadowfax"))
    assert g.ring == ring and "shadowfax" in g.box and g.phase == "resolve"


def test_the_end_of_a_stage_as_positions(compiled) -> None:  # type: ignore[no-untyped-def]
    """Gandalf's Vision: "You can use this card immediately before a next stage begins
    and new Encounter cards are laid out." Friends in Need: "At Minas Morgul, before the
    Mount Doom stage begins, you may move the One Ring on the resolve track 1 space
    toward the bright heart for every still-unused friend and Gandalf card that lies
    face up in front of you." Positions at both choices (no queue)."""
    vision = position(
        phase="vision",
        stage_over=True,
        held={"Gandalf's Vision": "p1"},
        companions={"ringbearer": "Lothlórien"}
        | dict.fromkeys(("aragorn", "legolas", "gimli", "merry-pippin"), "r02"),
    )
    g = MountDoom.from_position(compiled, vision)
    assert g.position()["queue"] is None and "pass" in {str(m) for m in g.legal_moves}
    chosen = sorted(g.decks["2"])[0]
    g.push(Move("vision", chosen))
    assert g.stage == 2 and chosen in g.box and g.to_move == "p2" and g.phase == "start"
    friends = position(
        options={"variant": "friends-in-need"},
        phase="friends",
        stage=6,
        held={"Elrond": "p1", "The White Rider": "p2"},
        companions={"ringbearer": "Minas Morgul", "legolas": "Minas Morgul"}
        | {"aragorn": "the rally space", "gimli": "r30", "merry-pippin": "r30"},
        ring="resolve space 6",
        row=[[], [], [], [], [], []],
    )
    g = MountDoom.from_position(compiled, friends)
    assert g.position()["queue"] is None
    ring = g.ring
    g.push(Move("count", "elrond"))
    g.push(Move("done"))
    assert g.ring == ring - 1 and g.pos["ringbearer"] == g.lay.minas_morgul + 1  # Legolas
    assert all(g.row) and g.to_move == "p2"
    with pytest.raises(StateError, match=r"position\.stage_over: phase vision comes at"):
        MountDoom.from_position(compiled, vision | {"stage_over": False})


def uruk_position(**fields: Any) -> dict[str, Any]:
    """Stage 2: the Uruk-hai card face up at encounter position 1, its black 1 resolved
    (the rest of the tray to come), Gimli beside the Ring-bearer, and ``fields``."""
    return position(
        stage=2,
        companions={"ringbearer": "r03", "gimli": "r03", "aragorn": "r01"}
        | {"legolas": "r00", "merry-pippin": "r00"},
        row=[[{"card": "uruk-hai-rohan"}], [{"card": "elrond"}], [], [], [], []],
        tray=[die(1, 1, done=True), die(1, 1, "legolas"), die(2, 3), die(2, 1, "gimli")],
        **fields,
    )


def test_the_uruk_hai_battles_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Uruk-hai: "You must carry out, one after another, as many battles as there are
    Uruk-hai (including their leader) at Isengard. Example: There are 3 Uruk-hai and
    their leader at Isengard. You must therefore fight 4 times ... If one or more of the
    battles are won, you remove exactly 1 Uruk-hai from Isengard, but not their
    leader." The rulebook's example at its first battle die (phase battle, 4 battles
    still to fight), no queue: two won (Gimli's axe), two lost (Sauron)."""
    pos = uruk_position(phase="battle", uruk=3, uruk_battles=4, dice=[3, 3, 5, 5])
    g = MountDoom.from_position(compiled, pos)
    written = g.position()
    assert written["queue"] is None and written["uruk_battles"] == 4
    assert MountDoom.from_position(compiled, written).to_json() == g.to_json()
    ring = g.ring
    g.push(Move("fight"))
    assert g.uruk == 2 and g.leader  # exactly one warrior removed, the leader stays
    assert g.ring == ring + 2 and g.phase == "resolve"  # two lost: a dark heart each
    # the third battle, one won before it: the same game as reached by play
    third = MountDoom.from_position(compiled, pos | {"uruk_wins": 1, "uruk_battles": 2})
    assert third.position()["uruk_battles"] == 2 and third.position()["queue"] is None


def test_boromir_after_a_lost_uruk_hai_battle_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Boromir: "You can use him after a lost battle against one Uruk-hai. Then you roll
    again and only lose if you roll the "Sauron symbol"." A position at that choice
    (phase boromir) in the first of two battles (one warrior and the leader at
    Isengard): Boromir's roll shows Aragorn's sword, not a supporter's weapon, and wins;
    the second battle shows Sauron and is lost."""
    pos = uruk_position(phase="boromir", uruk=1, uruk_battles=2, held={"Boromir": "p2"})
    g = MountDoom.from_position(compiled, pos | {"dice": [1, 5]})
    written = g.position()
    assert written["queue"] is None and written["phase"] == "boromir"
    assert {str(m) for m in g.legal_moves} >= {"use boromir", "accept"}
    ring = g.ring
    g.push(Move("use", "boromir"))
    assert g.uruk == 0 and g.ring == ring + 1 and g.phase == "resolve"
    accepted = MountDoom.from_position(compiled, pos | {"uruk_battles": 1})
    accepted.push(Move("accept"))
    assert accepted.ring == ring + 1 and accepted.uruk == 1  # lost, none won


@pytest.mark.parametrize(
    "fields,message",
    [
        ({"phase": "battle", "uruk": 3, "uruk_battles": 5}, r"uruk_battles: 5, but at most 4"),
        (
            {"phase": "battle", "uruk": 3, "uruk_wins": 2, "uruk_battles": 3},
            r"uruk_battles: 3, but at most 2 .* less the 2 won",
        ),
        ({"phase": "battle", "uruk": 3}, r"uruk_battles: uruk-hai-rohan is an Uruk-hai card"),
        ({"phase": "boromir", "uruk": 3, "uruk_battles": 1}, r"held: phase boromir: nobody"),
        ({"phase": "resolve", "uruk_battles": 1}, r"uruk_battles: counts the battles of"),
    ],
)
def test_uruk_hai_positions_refused_naming_the_field(compiled, fields, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StateError, match=r"position\." + message):
        MountDoom.from_position(compiled, uruk_position(**fields))


def test_gandalfs_vision_after_faramir_ended_the_stage_before_the_roll(compiled) -> None:  # type: ignore[no-untyped-def]
    """Faramir: "This card is used at the start of a turn, before rolling. If you thereby
    move the Ring-bearer to a stage goal, the stage ends immediately. The next stage is
    prepared directly." Gandalf's Vision: "You can use this card immediately before a
    next stage begins". Played to that choice, the position says it (phase vision,
    before_roll, no queue); written by hand, the same player then rolls, same turn."""
    start = position(
        held={"Faramir": "p1", "Gandalf's Vision": "p2"},
        companions={"ringbearer": "r04"}
        | dict.fromkeys(("aragorn", "legolas", "gimli", "merry-pippin"), "r02"),
    )
    played = MountDoom.from_position(compiled, start)
    played.push(Move("use", "faramir", "ringbearer", "3"))  # to Lothlórien (r07)
    written = played.position()
    assert written["phase"] == "vision" and written["before_roll"] is True
    assert written["queue"] is None
    assert MountDoom.from_position(compiled, written).to_json() == played.to_json()
    vision = position(
        phase="vision",
        before_roll=True,
        stage_over=True,
        turn=5,
        held={"Gandalf's Vision": "p1"},
        companions={"ringbearer": "Lothlórien"}
        | dict.fromkeys(("aragorn", "legolas", "gimli", "merry-pippin"), "r02"),
    )
    g = MountDoom.from_position(compiled, vision)
    g.push(Move("pass"))
    assert g.stage == 2 and all(g.row) and g.phase == "start"
    assert g.to_move == "p1" and g.turn == 5  # the turn Faramir began goes on: its roll
    with pytest.raises(StateError, match=r"position\.before_roll: says how phases vision"):
        MountDoom.from_position(compiled, position(before_roll=True))


def test_friends_in_need_after_gandalfs_vision_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """Gandalf's Vision: "You can use this card immediately before a next stage begins
    and new Encounter cards are laid out." Friends in Need: "At Minas Morgul, before the
    Mount Doom stage begins, you may move the One Ring ... toward the bright heart for
    every still-unused friend and Gandalf card". The Vision sent Shelob back: a position
    at Friends in Need (left_out, no queue); the Mount Doom cards are then laid out face
    up (the players saw them all), Shelob in the box."""
    friends = position(
        options={"variant": "friends-in-need"},
        phase="friends",
        left_out="Shelob",
        stage=6,
        held={"Elrond": "p1"},
        companions={"ringbearer": "Minas Morgul"}
        | {"legolas": "the rally space", "aragorn": "the rally space"}
        | {"gimli": "r30", "merry-pippin": "r30"},
        ring="resolve space 6",
        row=[[], [], [], [], [], []],
    )
    g = MountDoom.from_position(compiled, friends)
    written = g.position()
    assert written["left_out"] == "shelob" and written["queue"] is None
    assert MountDoom.from_position(compiled, written).to_json() == g.to_json()
    g.push(Move("done"))
    laid = [c for s in g.row for c in s]
    assert len(laid) == 6 and all(c["up"] for c in laid) and "shelob" in g.box
    assert "shelob" not in {c["card"] for c in laid}
    with pytest.raises(StateError, match=r"position\.left_out: names the card Gandalf's"):
        MountDoom.from_position(compiled, friends | {"phase": "vision", "stage_over": True})
