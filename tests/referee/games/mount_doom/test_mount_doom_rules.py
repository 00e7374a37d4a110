"""Adventure to Mount Doom: one test per rule of the rulebook (quoted in each docstring).

Dice are loaded where a test needs a particular roll: :class:`Loaded` returns the
queued face indices before falling back to the seeded generator.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.errors import IllegalMoveError, UsageError
from referee.games.mount_doom.game import MountDoom, Move
from referee.games.mount_doom.state import RALLY
from referee.games.rng import Rng
from referee.games.tracks import ask as _ask
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
BATTLE = {"aragorn": 0, "legolas": 1, "gimli": 2, "merry-pippin": 3, "sauron": 4, "gandalf": 5}


class Loaded(Rng):
    """A generator whose next dice are fixed (face indices, 0-based, in the pack's order):
    the kit's fixed dice (``rng.fixed``), which positions use too."""

    def __init__(self, *indices: int) -> None:
        super().__init__(7, [i + 1 for i in indices])


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "mount-doom"))


def new(compiled, players: int = 3, seed: int = 1, **options) -> MountDoom:  # type: ignore[no-untyped-def]
    return MountDoom.new(compiled, players=players, seed=seed, options=options)


def at_resolve(g: MountDoom) -> None:
    """Put the game in the resolution phase with nothing on the tray."""
    g.queue = [_ask("resolve"), {"op": "end_turn"}]
    g.phase = "resolve"
    g.tray = []


def run_ops(g: MountDoom, *ops: dict) -> list[dict]:  # type: ignore[type-arg]
    """Carry out queued operations as if a die had just been resolved."""
    ev: list[dict] = []  # type: ignore[type-arg]
    g.queue[0:0] = list(ops)
    g._run(ev)
    return ev


def types(ev: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [e["type"] for e in ev]


def card_at(g: MountDoom, position: int, card: str, up: bool = True) -> None:
    g.row[position - 1] = [{"card": card, "up": up}]
    g.box = [c for c in g.box if c != card]
    g.unseen = [c for c in g.unseen if c != card]
    for d in g.decks.values():
        if card in d:
            d.remove(card)


# ---------------------------------------------------------------------- set-up
def test_setup(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Place the 5 companions on the Rivendell starting space ... Lay them out along the
    encounter row ... face down at 1 and 6, face up at the others ... Put the one remaining
    card back in the box unseen." The oldest gets a Gandalf card, the youngest Boromir."""
    g = new(compiled, players=4)
    assert set(g.pos.values()) == {0}
    assert g.lay.route[0] == "r00" and compiled.graph.nodes["r00"]["name"] == "Rivendell"
    assert [len(s) for s in g.row] == [1] * 6
    assert [s[0]["up"] for s in g.row] == [False, True, True, True, True, False]
    lothlorien = set(g.lay.stage_decks[1])
    assert {s[0]["card"] for s in g.row} <= lothlorien and len(set(g.unseen) & lothlorien) == 1
    assert not set(g.box) & lothlorien  # the 7th card is unseen, not among the seen cards
    owners = {e["card"]: e["owner"] for e in g.held}
    assert owners["boromir"] == 3
    gandalf = [c for c, o in owners.items() if g.lay.cards[c]["kind"] == "gandalf"]
    assert len(gandalf) == 1 and owners[gandalf[0]] == 0 and len(g.gandalf_stack) == 4
    assert g.ring == g.lay.ring_start and g.nazgul == 1 and g.uruk == 0 and g.leader
    assert g.to_move == "p1"


def test_bad_setup_options(compiled) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError):
        MountDoom.new(compiled, players=6, seed=1)
    with pytest.raises(UsageError):
        MountDoom.new(compiled, players=2, seed=1, options={"variant": "nightmare"})


# ---------------------------------------------------------------------- dice phase
def test_dice_phase_two_rolls(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "take the 2 black encounter dice as well as, of your choosing, 2 of the colored
    companion dice, and roll them ... decide on 1 encounter die and 1 companion die ...
    take the 2 dice you did not place ... choose 1 more of the 3 remaining companion dice.
    Then roll these 3 dice together ... The unused third companion die goes back"."""
    g = new(compiled)
    g.rng = Loaded(1, 3, 2, 4, 5, 0, 2)  # black 2, 4; aragorn 3, legolas 5; black 6; . ; .
    g.push(Move("roll", "aragorn", "legolas"))
    assert g.phase == "place1"
    assert {str(m) for m in g.legal_moves} >= {"place 2 aragorn", "place 4 legolas"}
    with pytest.raises(IllegalMoveError):
        g.check(Move("place", "5", "aragorn"))
    g.push(Move("place", "2", "aragorn"))
    assert g.phase == "roll2"
    rolls = {str(m) for m in g.legal_moves if m.verb == "roll"}
    assert rolls == {"roll gimli", "roll merry-pippin", "roll ringbearer"}
    g.push(Move("roll", "gimli"))
    assert sorted(g.rolled["dice"]) == ["gimli", "legolas"]  # the kept die is rolled again
    g.push(Move("place", "gimli"))
    assert [(d["side"], d["kind"]) for d in g.tray] == [
        (1, "encounter"),
        (1, "companion"),
        (2, "encounter"),
        (2, "companion"),
    ]
    assert g.tray[0]["value"] == 2 and g.tray[1]["who"] == "aragorn" and g.tray[1]["value"] == 3
    assert g.tray[2]["value"] == 6 and g.phase == "resolve"


def test_dice_resolved_in_tray_order_then_next_player(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "you resolve the dice on the dice tray, first side 1 from top to bottom, then side 2
    in the same way ... Then it is the turn of the next person clockwise"."""
    g = new(compiled)
    g.row = [[] for _ in range(6)]  # every position empty: symbols only
    g.rng = Loaded(
        2, 2, 0, 0, 2, 1, 0
    )  # black 3,3; aragorn 1, gimli 1; black 3; gimli 2, legolas 1
    g.push(Move("roll", "aragorn", "gimli"))
    g.push(Move("place", "3", "aragorn"))
    g.push(Move("roll", "legolas"))
    g.push(Move("place", "gimli"))
    ev = g.push(Move("go"))
    assert ("row_symbol", 3) in [(e["type"], e.get("position")) for e in ev]
    assert g.phase == "advance"  # position 3 shows Legolas: move him 0, 1 or 2
    g.push(Move("advance", "legolas", "0"))
    g.push(Move("go"))
    assert g.pos["aragorn"] == 1
    g.push(Move("go"))
    g.push(Move("advance", "legolas", "2"))
    assert g.pos["legolas"] == 2
    g.push(Move("go"))
    assert g.pos["gimli"] == 2
    assert g.to_move == "p2" and g.phase == "start"


# ---------------------------------------------------------------------- movement
def test_companion_moves_exactly(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "The companion dice show how many spaces you move the figure of that color forward,
    exactly. You may not move it fewer spaces." Any number of figures may share a space."""
    g = new(compiled)
    g.pos["gimli"] = 1
    g.pos["aragorn"] = 2
    ev: list = []  # type: ignore[type-arg]
    g._move("gimli", 1, ev)
    assert g.pos["gimli"] == 2 == g.pos["aragorn"]


def test_other_companion_exact_goal_gains_resolve(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you reach a stage goal ... with a companion (other than the Ring-bearer) using the
    exact number, resolve grows ... If you move a companion ... beyond the stage goal,
    resolve does not grow."""
    g = new(compiled)
    goal = g.lay.goals[0]
    g.pos["legolas"] = goal - 2
    g.pos["gimli"] = goal - 2
    g._move("legolas", 2, [])
    assert g.ring == g.lay.ring_start - 1
    g._move("gimli", 3, [])
    assert g.pos["gimli"] == goal + 1 and g.ring == g.lay.ring_start - 1


def test_ringbearer_exact_goal_draws_gandalf_card(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you reach a stage goal with the Ring-bearer using the exact number, you draw the
    top card from the face-down Gandalf stack ... It is available to all of you"."""
    g = new(compiled)
    top = g.gandalf_stack[0]
    g.current = 2
    g.pos["ringbearer"] = g.lay.goals[0] - 3
    g._move("ringbearer", 3, [])
    assert {"card": top, "owner": 2} in g.held and g.stage_over


def test_ringbearer_stops_on_goal_without_card(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you reach a stage goal with the Ring-bearer without the exact number, he
    nevertheless stays on that stage goal. In this case you do not receive a Gandalf card.
    Instead, put the top card from the Gandalf stack back in the box unseen.\""""
    g = new(compiled)
    top = g.gandalf_stack[0]
    goal = g.lay.goals[0]
    g.pos["ringbearer"] = goal - 2
    g._move("ringbearer", 5, [])
    assert g.pos["ringbearer"] == goal
    assert top in g.unseen and top not in g.box and all(e["card"] != top for e in g.held)


def test_no_gandalf_card_at_minas_morgul(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "At Minas Morgul you can no longer receive a Gandalf card.\""""
    g = new(compiled)
    g.stage = 5
    g.pos["ringbearer"] = g.lay.minas_morgul - 1
    before = list(g.gandalf_stack)
    g._move("ringbearer", 1, [])
    assert g.gandalf_stack == before and g.stage_over


# ---------------------------------------------------------------------- event spaces
def test_dark_heart_space_and_protection(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Dark Heart: ... Move the One Ring 1 space ... toward the dark heart ... As long as a
    figure stands on an event space, the Fellowship is protected from further harm on
    that space.\""""
    g = new(compiled)
    dark = min(i for i, e in g.lay.events.items() if e == "dark_heart")
    g._move("aragorn", dark, [])
    assert g.ring == g.lay.ring_start + 1
    ev: list = []  # type: ignore[type-arg]
    g._move("gimli", dark, ev)
    assert g.ring == g.lay.ring_start + 1 and "protected" in types(ev)


def test_without_protection_variant(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Without Protection: the event spaces ... are never covered. The events therefore also
    occur for figures arriving later, even if the space is already occupied.\""""
    g = new(compiled, variant="without-protection")
    dark = min(i for i, e in g.lay.events.items() if e == "dark_heart")
    g._move("aragorn", dark, [])
    g._move("gimli", dark, [])
    assert g.ring == g.lay.ring_start + 2


def test_nazgul_space(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Nazgûl: You must place 1 Nazgûl on a free Nazgûl space at Minas Morgul.\""""
    g = new(compiled)
    naz = min(i for i, e in g.lay.events.items() if e == "nazgul")
    ev: list = []  # type: ignore[type-arg]
    g._move("legolas", naz, ev)
    assert g.nazgul == 2 and ev[-1]["space"] == g.lay.nazgul_spaces[1]


# ---------------------------------------------------------------------- encounter row
def test_face_down_card_turned_and_resolved(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the rolled card is lying face down, that is, at die position "1" or "6", you first
    turn it face up and resolve it immediately.\""""
    g = new(compiled)
    g.held = []  # no "any time" card to pause for (see test_any_time_card_after_turning)
    at_resolve(g)
    card_at(g, 6, "crebain", up=False)
    ev = run_ops(g, {"op": "encounter", "value": 6})
    assert types(ev)[:2] == ["card_turned", "encounter"]
    assert g.row[5][0]["up"] and g.ring == g.lay.ring_start + 1
    assert g.row[5][0]["card"] == "crebain"  # enemies without the door icon stay


def test_friend_card_taken_and_usable_by_everyone_once(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you activate a friend card, you take it from the row ... A friend card that has
    been received is always available to everyone on their turn! Each friend card ...
    can only be used once.\""""
    g = new(compiled)
    at_resolve(g)
    card_at(g, 2, "elrond")
    run_ops(g, {"op": "encounter", "value": 2})
    assert not g.row[1] and {"card": "elrond", "owner": 0} in g.held
    g.current = 1
    g.ring = 6
    assert Move("use", "elrond") in g.legal_moves
    g.push(Move("use", "elrond"))
    assert g.ring == 4 and "elrond" in g.box
    with pytest.raises(IllegalMoveError) as exc:
        g.push(Move("use", "elrond"))
    assert exc.value.code == "card_not_available"


def test_personal_friends_variant(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Each friend card may only be used by the person who received that card ... This
    does not apply to Gandalf cards.\""""
    g = new(compiled, variant="without-protection")
    at_resolve(g)
    g.held.append({"card": "elrond", "owner": 0})
    g.current = 1
    with pytest.raises(IllegalMoveError) as exc:
        g.check(Move("use", "elrond"))
    assert exc.value.code == "not_your_friend"
    g.held.append({"card": "white-rider", "owner": 0})
    assert Move("use", "white-rider") in g.legal_moves


def test_once_enemy_leaves_game(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Some enemy cards are removed from the game ... after a single encounter. They have
    this symbol [door] at the bottom right of the card.\""""
    g = new(compiled)
    at_resolve(g)
    card_at(g, 3, "riders-at-the-ford")
    run_ops(g, {"op": "encounter", "value": 3})
    assert not g.row[2] and "riders-at-the-ford" in g.box and g.nazgul == 2


def test_empty_position_symbols(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you roll a position on the encounter row where no card lies anymore, you instead
    carry out the symbol depicted there ... Nazgûl ... Companion: You may move the depicted
    companion figure 0, 1, or 2 spaces forward.\""""
    g = new(compiled)
    at_resolve(g)
    g.row[0] = []
    g.row[1] = []
    run_ops(g, {"op": "encounter", "value": 1})
    assert g.nazgul == 2
    run_ops(g, {"op": "encounter", "value": 2})
    assert g.phase == "advance"
    assert {str(m) for m in g.legal_moves if m.verb != "use"} == {
        "advance merry-pippin 0",
        "advance merry-pippin 1",
        "advance merry-pippin 2",
    }
    g.push(Move("advance", "merry-pippin", "2"))
    assert g.pos["merry-pippin"] == 2 and g.phase == "resolve"


# ---------------------------------------------------------------------- battles
def test_support(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "all figures that are standing on the same space as the Ring-bearer or are located on
    the same stage ahead of him, including the next stage goal. Figures that have already
    moved past the next stage goal do not provide support.\""""
    g = new(compiled)
    goal = g.lay.goals[0]
    g.pos.update(
        {"ringbearer": 3, "aragorn": 1, "merry-pippin": 3, "gimli": goal, "legolas": goal + 1}
    )
    assert sorted(g.supporters()) == ["gimli", "merry-pippin"]


@pytest.mark.parametrize("face,won", [("gimli", True), ("aragorn", False), ("sauron", False)])
def test_battle_die(compiled, face: str, won: bool) -> None:  # type: ignore[no-untyped-def]
    """ "If the battle die shows the weapon of a companion who supports the Ring-bearer ...
    you have won ... of a companion who does not support ... lost ... the Sauron symbol,
    you have lost the battle immediately." A lost battle costs the card's dark hearts."""
    g = new(compiled)
    g.held = []
    at_resolve(g)
    g.pos.update({"ringbearer": 2, "gimli": 2, "aragorn": 0})
    g.rng = Loaded(BATTLE[face])
    ev = run_ops(g, {"op": "effect", "effect": {"op": "battle", "hearts": 2}})
    assert [e["won"] for e in ev if e["type"] == "battle_result"] == [won]
    assert g.ring == g.lay.ring_start + (0 if won else 2)


def test_gandalf_symbol_saved_by_gandalf_card(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the battle die shows the Gandalf symbol, you have likewise lost the battle —
    unless you are willing to discard a still-unused Gandalf card ... In that case you win
    the battle after all ... Its text instruction is ignored.\""""
    g = new(compiled)
    g.held = [{"card": "white-rider", "owner": 0}]
    at_resolve(g)
    g.rng = Loaded(BATTLE["gandalf"])
    run_ops(g, {"op": "effect", "effect": {"op": "battle", "hearts": 1}})
    assert g.phase == "battle"  # the White Rider could be used first
    g.push(Move("fight"))
    assert g.phase == "gandalf"
    assert {str(m) for m in g.legal_moves if m.verb != "use"} == {
        "save white-rider",
        "accept",
    }
    g.push(Move("save", "white-rider"))
    assert g.ring == g.lay.ring_start and "white-rider" in g.box and g.phase == "resolve"


def test_gandalf_symbol_accepted_loses(compiled) -> None:  # type: ignore[no-untyped-def]
    """Gandalf symbol without discarding a Gandalf card: "you have likewise lost"."""
    g = new(compiled)
    g.held = [{"card": "white-rider", "owner": 0}]
    at_resolve(g)
    g.rng = Loaded(BATTLE["gandalf"])
    run_ops(g, {"op": "effect", "effect": {"op": "battle", "hearts": 1}})
    g.push(Move("fight"))
    g.push(Move("accept"))
    assert g.ring == g.lay.ring_start + 1 and {"card": "white-rider", "owner": 0} in g.held


def test_eomer_wins_a_battle_instead_of_rolling(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Éomer ... You may use this friend card in a battle instead of rolling. This
    automatically wins that battle ... only one battle can be won with this card.\""""
    g = new(compiled)
    g.held = [{"card": "eomer", "owner": 1}]
    at_resolve(g)
    g.rng = Loaded(BATTLE["sauron"])
    run_ops(g, {"op": "effect", "effect": {"op": "battle", "hearts": 1, "count": 2}})
    assert g.phase == "battle" and Move("use", "eomer") in g.legal_moves
    ev = g.push(Move("use", "eomer"))
    # the first battle is won by the card; the second is rolled (no card left): Sauron, lost
    assert [e["won"] for e in ev if e["type"] == "battle_result"] == [True, False]
    assert types(ev)[:2] == ["card_used", "battle_won_by_card"]
    assert g.phase == "resolve" and g.ring == g.lay.ring_start + 1


def test_uruk_hai_battles_per_figure_remove_one(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "You must carry out ... as many battles as there are Uruk-hai (including their leader)
    at Isengard ... If one or more of the battles are won, you remove exactly 1 Uruk-hai from
    Isengard, but not their leader.\""""
    g = new(compiled)
    g.held = []
    at_resolve(g)
    g.uruk = 3
    g.pos.update({"ringbearer": 0, "gimli": 0})
    g.rng = Loaded(BATTLE["gimli"], BATTLE["gimli"], BATTLE["sauron"], BATTLE["gimli"])
    ev = run_ops(g, {"op": "effect", "effect": {"op": "uruk_hai", "hearts": 1}})
    assert types(ev).count("battle_result") == 4
    assert g.uruk == 2 and g.leader and g.ring == g.lay.ring_start + 1


def test_uruk_hai_leader_alone_still_fights(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "He remains there permanently, so that at least one battle occurs at every encounter
    with the Uruk-hai.\""""
    g = new(compiled)
    g.held = []
    at_resolve(g)
    g.rng = Loaded(BATTLE["sauron"])
    ev = run_ops(g, {"op": "effect", "effect": {"op": "uruk_hai", "hearts": 1}})
    assert types(ev).count("battle_result") == 1 and g.leader


def test_treebeard_frees_isengard(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Treebeard ... place the Treebeard token at Isengard ... remove 1 Uruk-hai ... after
    every individual battle won. This also applies to the Uruk-hai leader ... Should you
    later roll another Uruk-hai card, you only move the One Ring 1 space toward the bright
    heart." (On the Uruk-hai cards of the stages to Gondor and Minas Morgul: DESIGN §6,
    test_freed_isengard_only_on_named_stages.)\""""
    g = new(compiled)
    g.held = [{"card": "treebeard", "owner": 0}]
    at_resolve(g)
    g.uruk = 1
    g.push(Move("use", "treebeard", "isengard"))
    assert g.treebeard_token
    g.pos.update({"ringbearer": 0, "legolas": 0})
    g.rng = Loaded(BATTLE["legolas"], BATTLE["legolas"])
    run_ops(g, {"op": "effect", "effect": {"op": "uruk_hai", "hearts": 1}})
    assert g.uruk == 0 and not g.leader
    g.ring = 5
    run_ops(g, {"op": "effect", "effect": {"op": "uruk_hai", "hearts": 1, "freed_hearts": 1}})
    assert g.ring == 4


def test_treebeard_resolve_choice(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If Treebeard is used, you either move the One Ring 2 spaces toward the bright heart,
    or you place the Treebeard token at Isengard.\""""
    g = new(compiled)
    g.held = [{"card": "treebeard", "owner": 0}]
    at_resolve(g)
    g.push(Move("use", "treebeard", "resolve"))
    assert g.ring == g.lay.ring_start - 2 and not g.treebeard_token


def test_boromir_rerolls_lost_uruk_battle(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Boromir You can use him after a lost battle against one Uruk-hai. Then you roll again
    and only lose if you roll the "Sauron symbol".\""""
    g = new(compiled)
    g.held = [{"card": "boromir", "owner": 2}]
    at_resolve(g)
    g.pos.update({"ringbearer": 0, "aragorn": 0, "gimli": g.lay.goals[0] + 1})
    g.rng = Loaded(BATTLE["gimli"], BATTLE["gimli"])  # Gimli is past the goal: lost; reroll
    run_ops(g, {"op": "effect", "effect": {"op": "uruk_hai", "hearts": 1}})
    assert g.phase == "boromir"
    g.push(Move("use", "boromir"))
    assert g.ring == g.lay.ring_start and "boromir" in g.box


def test_saruman(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Saruman If all Uruk-hai are already at Isengard, nothing happens.\""""
    g = new(compiled)
    at_resolve(g)
    run_ops(g, {"op": "effect", "effect": {"op": "saruman", "n": 2}})
    assert g.uruk == 2
    g.uruk = 5
    ev = run_ops(g, {"op": "effect", "effect": {"op": "saruman", "n": 2}})
    assert g.uruk == 5 and ev[-1]["added"] == 0


# ---------------------------------------------------------------------- special cards
def test_balrog_blocks_gandalf_until_helms_deep(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Balrog of Moria You must immediately move the One Ring 3 spaces toward the dark heart.
    You also place the Gandalf token ... you may not use any Gandalf cards ... Only once the
    Ring-bearer reaches the stage goal Helm's Deep may you use Gandalf cards again.\""""
    g = new(compiled)
    g.held = [{"card": "white-rider", "owner": 0}]
    at_resolve(g)
    card_at(g, 4, "balrog")
    run_ops(g, {"op": "encounter", "value": 4})
    assert g.ring == g.lay.ring_start + 3 and "balrog" in g.box
    with pytest.raises(IllegalMoveError) as exc:
        g.check(Move("use", "white-rider"))
    assert exc.value.code == "gandalf_blocked"
    g.rng = Loaded(BATTLE["gandalf"])
    run_ops(g, {"op": "effect", "effect": {"op": "battle", "hearts": 1}})
    assert g.phase == "resolve" and g.ring == g.lay.ring_start + 4  # no Gandalf rescue
    g.stage = 3
    g.pos["ringbearer"] = g.lay.helms_deep - 1
    g._move("ringbearer", 1, [])
    assert Move("use", "white-rider") in g.legal_moves


def test_sauron_eye(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Sauron's Eye If the One Ring is already on this space, or if you already had to move
    it past this space toward the dark heart, nothing happens.\""""
    g = new(compiled)
    at_resolve(g)
    run_ops(g, {"op": "effect", "effect": {"op": "sauron_eye"}})
    assert g.ring == g.lay.sauron_eye
    g.ring = g.lay.sauron_eye + 2
    run_ops(g, {"op": "effect", "effect": {"op": "sauron_eye"}})
    assert g.ring == g.lay.sauron_eye + 2


def test_wormtongue(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Wormtongue This card refers to all friend cards with a green symbol, therefore also
    Boromir, but not Gandalf." (Ours: they go back in the box.)"""
    g = new(compiled)
    at_resolve(g)
    g.held.append({"card": "elrond", "owner": 1})
    run_ops(g, {"op": "effect", "effect": {"op": "discard_friends", "hearts_if_none": 1}})
    assert [g.lay.cards[e["card"]]["kind"] for e in g.held] == ["gandalf"]
    assert g.ring == g.lay.ring_start


def test_army_of_the_dead(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Army of the Dead ... decides whether the Army of the Dead moves to the card on the
    left or the right. This card is thereby covered and rendered ineffective. Any resulting
    gaps in the encounter row are skipped over ... not past the left or right end.\""""
    g = new(compiled)
    g.held = []
    at_resolve(g)
    g.row = [[] for _ in range(6)]
    card_at(g, 1, "crebain")
    card_at(g, 4, "army-of-the-dead")
    run_ops(g, {"op": "encounter", "value": 4})
    assert g.phase == "army" and {str(m) for m in g.legal_moves} == {"army left"}
    g.push(Move("army", "left"))
    assert [e["card"] for e in g.row[0]] == ["crebain", "army-of-the-dead"] and not g.row[3]
    run_ops(g, {"op": "encounter", "value": 1})  # the Army again, not Crebain
    assert g.ring == g.lay.ring_start
    assert g.phase == "resolve"  # no card to its left or right any more: it stays


def test_denethor_rerolls_a_companion_die(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Denethor You must roll one colored companion die again. If 2 companion dice are still
    lying on the dice tray, you may choose which die you roll again.\""""
    g = new(compiled)
    g.tray = [
        {"side": 1, "kind": "encounter", "value": 3, "done": True},
        {"side": 1, "kind": "companion", "who": "gimli", "value": 1},
        {"side": 2, "kind": "encounter", "value": 5},
        {"side": 2, "kind": "companion", "who": "aragorn", "value": 1},
    ]
    g.queue = [{"op": "die", "i": 1}, _ask("resolve"), {"op": "end_turn"}]
    g.rng = Loaded(5)
    run_ops(g, {"op": "effect", "effect": {"op": "reroll_companion_die"}})
    assert g.phase == "denethor"
    g.push(Move("reroll", "2"))
    assert g.tray[3]["value"] == 6 and g.tray[1]["value"] == 1


# ---------------------------------------------------------------------- stages
def test_stage_end_after_turn_remaining_dice_resolved(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Even if the Ring-bearer has reached a stage goal, all dice still lying on the dice tray
    are still resolved ... Put all cards still lying on the encounter row back in the box.
    ... lay out the 6 associated Encounter cards"."""
    g = new(compiled)
    g.row = [[] for _ in range(6)]
    g.pos["ringbearer"] = g.lay.goals[0] - 1
    g.rng = Loaded(0, 0, 0, 0, 0, 0, 2)  # black 1,1; gimli 1, rb 1; black 1; gimli 1, aragorn 3
    g.push(Move("roll", "gimli", "ringbearer"))
    g.push(Move("place", "1", "ringbearer"))
    g.push(Move("roll", "aragorn"))
    g.push(Move("place", "aragorn"))
    g.push(Move("go"))  # Nazgûl symbol at 1
    g.push(Move("go"))  # Ring-bearer reaches Lothlórien exactly
    assert g.stage_over and g.stage == 1
    g.push(Move("go"))
    g.push(Move("go"))  # Aragorn still moves
    assert g.pos["aragorn"] == 3
    assert g.stage == 2 and not g.stage_over and g.to_move == "p2"
    rohan = set(g.lay.stage_decks[2])
    assert {s[0]["card"] for s in g.row} <= rohan and len(set(g.unseen) & rohan) == 1
    assert [s[0]["up"] for s in g.row] == [False, True, True, True, True, False]


def test_ringbearer_waits_on_reached_goal(compiled) -> None:  # type: ignore[no-untyped-def]
    """Ruling: once the stage goal is reached, the Ring-bearer waits there for the rest of
    the turn ("he nevertheless stays on that stage goal")."""
    g = new(compiled)
    g.pos["ringbearer"] = g.lay.goals[0]
    g.stage_over = True
    g._move("ringbearer", 2, [])
    assert g.pos["ringbearer"] == g.lay.goals[0]


def test_faramir_ends_stage_immediately(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Faramir This card is used at the start of a turn, before rolling. If you thereby move
    the Ring-bearer to a stage goal, the stage ends immediately. The next stage is prepared
    directly.\""""
    g = new(compiled)
    g.held.append({"card": "faramir", "owner": 1})
    g.pos["ringbearer"] = g.lay.goals[0] - 2
    assert Move("use", "faramir", "ringbearer", "2") in g.legal_moves
    g.push(Move("use", "faramir", "ringbearer", "2"))
    assert g.stage == 2 and g.phase == "start" and g.to_move == "p1"
    g.push(Move("roll", "aragorn", "gimli"))
    assert not any((m.verb, *m.args)[:2] == ("use", "faramir") for m in g.legal_moves)


def test_gandalfs_vision(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Gandalf's Vision You can use this card immediately before a next stage begins and
    new Encounter cards are laid out." (Ours: choose the card that stays out.)"""
    g = new(compiled)
    g.held.append({"card": "gandalfs-vision", "owner": 0})
    g.stage_over = True
    g.queue = [{"op": "stage_end"}, _ask("start")]
    g._run([])
    assert g.phase == "vision"
    out = g.decks["2"][0]
    g.push(Move("vision", out))
    assert out in g.box and all(s[0]["card"] != out for s in g.row)
    assert all(s[0]["up"] for s in g.row) and g.stage == 2


def test_minas_morgul_helpers_and_rally(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "For each of these figures now standing at Minas Morgul, you immediately move the
    Ring-bearer forward 1 space ... Companions who would have moved past the stage goal
    Minas Morgul ... are placed on the rally space.\""""
    g = new(compiled)
    mm = g.lay.minas_morgul
    g.stage = 5
    g.pos.update(
        {
            "ringbearer": mm - 1,
            "legolas": mm - 2,
            "merry-pippin": mm - 1,
            "aragorn": mm - 1,
            "gimli": mm - 8,
        }
    )
    g._move("legolas", 2, [])
    g._move("merry-pippin", 1, [])
    g._move("aragorn", 3, [])
    assert g.pos["aragorn"] == RALLY
    g._move("ringbearer", 4, [])
    assert g.pos["ringbearer"] == mm and g.stage_over
    ev: list = []  # type: ignore[type-arg]
    g._setup_next_stage(None, ev)
    assert g.stage == 6 and g.pos["ringbearer"] == mm + 2
    assert g.row[0][0]["card"] in g.lay.stage_decks[6]


def test_friends_in_need_variant(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "At Minas Morgul, before the Mount Doom stage begins, you *may* move the One Ring on
    the resolve track 1 space toward the bright heart for every still-unused friend and
    Gandalf card that lies face up in front of you." The players choose which cards count
    (DESIGN §6): a card kept is not spent."""
    g = new(compiled, variant="friends-in-need")
    g.stage = 5
    g.ring = 8
    g.pos["ringbearer"] = g.lay.minas_morgul
    g.held = [{"card": "boromir", "owner": 2}, {"card": "white-rider", "owner": 0}]
    g.queue = [{"op": "stage_end"}, _ask("start")]
    g._run([])
    assert g.phase == "friends"
    assert {str(m) for m in g.legal_moves if m.verb != "use"} == {
        "count boromir",
        "count white-rider",
        "done",
    }
    g.push(Move("count", "boromir"))
    assert g.ring == 7 and "boromir" in g.box and g.phase == "friends"
    g.push(Move("done"))
    assert g.ring == 7 and [e["card"] for e in g.held] == ["white-rider"]
    assert g.stage == 6 and g.phase == "start"
    assert all(s and s[0]["card"] in g.lay.stage_decks[6] for s in g.row)


def test_friends_in_need_every_card(compiled) -> None:  # type: ignore[no-untyped-def]
    """Friends in Need: counting every unused card moves the Ring one space per card."""
    g = new(compiled, variant="friends-in-need")
    g.stage = 5
    g.ring = 8
    g.pos["ringbearer"] = g.lay.minas_morgul
    g.queue = [{"op": "stage_end"}, _ask("start")]
    g._run([])
    for c in [e["card"] for e in g.held]:
        g.push(Move("count", c))
    assert g.ring == 6 and not g.held and g.stage == 6  # Boromir and the Gandalf card


def test_freed_isengard_only_on_named_stages(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If Isengard has already been freed of all Uruk-hai when you roll this Encounter card
    on the stage to Gondor or Minas Morgul, you gain 1 resolve (bright heart)." Only those
    stages' Uruk-hai cards give it (DESIGN §6)."""
    g = new(compiled)
    g.held = []
    g.uruk, g.leader = 0, False
    at_resolve(g)
    gains = {}
    for card in (
        "uruk-hai-rohan",
        "uruk-hai-helms-deep",
        "uruk-hai-gondor",
        "uruk-hai-minas-morgul",
    ):
        g.ring = 5
        for eff in g.lay.cards[card]["effects"]:
            run_ops(g, {"op": "effect", "effect": eff})
        gains[card] = 5 - g.ring
    assert gains == {
        "uruk-hai-rohan": 0,
        "uruk-hai-helms-deep": 0,
        "uruk-hai-gondor": 1,
        "uruk-hai-minas-morgul": 1,
    }


def test_any_time_card_after_turning_before_battle_die(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "All friend cards (including Boromir) and Gandalf cards can be used at any time
    during the game." After a face-down Cave Troll is turned and before its battle die is
    rolled, Galadriel can bring Merry & Pippin up to support (DESIGN §6)."""
    g = new(compiled)
    g.held = [{"card": "galadriel", "owner": 0}]
    at_resolve(g)
    g.pos.update({"ringbearer": 5, "merry-pippin": 2})
    card_at(g, 1, "cave-troll", up=False)
    ev = run_ops(g, {"op": "encounter", "value": 1})
    assert types(ev)[:2] == ["card_turned", "encounter"] and "roll" not in types(ev)
    assert g.phase == "turned" and "merry-pippin" not in g.supporters()
    g.push(Move("use", "galadriel", "merry-pippin", "3"))
    assert g.phase == "turned" and "merry-pippin" in g.supporters()
    g.rng = Loaded(BATTLE["merry-pippin"])
    ev = g.push(Move("go"))
    assert [e["won"] for e in ev if e["type"] == "battle_result"] == [True]
    assert g.ring == g.lay.ring_start


@pytest.mark.parametrize(
    "setup",
    ["advance", "army", "battle", "gandalf", "boromir", "denethor", "turned"],
)
def test_any_time_cards_offered_at_every_decision(compiled, setup: str) -> None:  # type: ignore[no-untyped-def]
    """ "All friend cards (including Boromir) and Gandalf cards can be used at any time
    during the game": offered at every decision point, Army, Denethor, Boromir and Gandalf
    decisions included (DESIGN §6)."""
    g = new(compiled)
    g.held = [{"card": "elrond", "owner": 0}]
    at_resolve(g)
    g.tray = [
        {"side": 1, "kind": "companion", "who": "gimli", "value": 2},
        {"side": 2, "kind": "companion", "who": "aragorn", "value": 3},
    ]
    g.queue.insert(0, _ask(setup, who="gimli", position=3, directions=["left"], sides=[1, 2]))
    g.queue[0]["battle"] = {"hearts": 1, "on_loss": [], "uruk": True}
    g.phase = setup
    if setup == "gandalf":
        g.held.append({"card": "white-rider", "owner": 0})
    if setup == "boromir":
        g.held.append({"card": "boromir", "owner": 0})
    assert Move("use", "elrond") in g.legal_moves
    before = len(g.queue)
    g.push(Move("use", "elrond"))
    assert g.ring == g.lay.ring_start - 2 and g.phase == setup and len(g.queue) == before


def test_final_stage_turn(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "you roll with only one black encounter die and follow the instruction of the
    corresponding Encounter card ... First the encounter is resolved each time, then you
    move the Ring-bearer exactly 1 space further toward Mount Doom.\""""
    g = new(compiled)
    g.stage = 6
    g.pos["ringbearer"] = g.lay.minas_morgul
    g.row = [[] for _ in range(6)]
    card_at(g, 2, "sams-courage")
    g.ring = 6
    assert {str(m) for m in g.legal_moves if m.verb == "roll"} == {"roll"}
    g.rng = Loaded(1)
    g.push(Move("roll"))
    assert g.ring == 5 and g.pos["ringbearer"] == g.lay.minas_morgul + 1
    assert g.to_move == "p2"


def test_shelob_cocoons(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "When encountering the giant spider "Shelob", the Ring-bearer is cocooned in webbing
    and may not move!\""""
    g = new(compiled)
    g.stage = 6
    g.pos["ringbearer"] = g.lay.minas_morgul + 1
    card_at(g, 3, "shelob")
    g.rng = Loaded(2)
    g.push(Move("roll"))
    assert g.pos["ringbearer"] == g.lay.minas_morgul + 1 and not g.cocooned


# ---------------------------------------------------------------------- end of game
def test_win_at_mount_doom(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "You win together if the Ring-bearer reaches the last stage goal, the orange space at
    the crater of Mount Doom.\""""
    g = new(compiled)
    g.stage = 6
    g.pos["ringbearer"] = g.lay.mount_doom - 1
    card_at(g, 4, "ash-plains")
    g.rng = Loaded(3)
    g.push(Move("roll"))
    assert g.outcome and g.outcome.result == "won" and g.phase == "over"
    assert not list(g.legal_moves)
    with pytest.raises(IllegalMoveError) as exc:
        g.check(Move("roll"))
    assert exc.value.code == "game_over"


def test_lose_resolve(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "You lose together as soon as you would have to pull the One Ring on the resolve track
    past the last circular space in the direction of the dark heart." It can never be pulled
    beyond the topmost space."""
    g = new(compiled)
    g._resolve(50, [])
    assert g.ring == 0 and g.outcome is None
    g.ring = g.lay.dark_end
    g._resolve(-1, [])
    assert g.outcome and g.outcome.result == "lost" and "dark heart" in g.outcome.reason


def test_lose_ninth_nazgul(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "You also lose together as soon as you have to place the last Nazgûl — the ninth
    figure — on its space at Minas Morgul.\""""
    g = new(compiled)
    g._place_nazgul(7, [])
    assert g.nazgul == 8 and g.outcome is None
    g._place_nazgul(1, [])
    assert g.outcome and "ninth" in g.outcome.reason


def test_eowyn_defeats_witch_king(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Éowyn If Éowyn has defeated the Witch-king of Angmar, the Nazgûl are no longer a
    threat to you for the rest of the game.\""""
    g = new(compiled)
    g.held.append({"card": "eowyn", "owner": 0})
    g.pos.update({"ringbearer": 0, "legolas": 0})
    g.rng = Loaded(BATTLE["legolas"])
    g.push(Move("use", "eowyn"))
    assert g.witch_king_defeated
    g._place_nazgul(20, [])
    assert g.nazgul == 1 and g.outcome is None


CLOSER_LOOK = (
    "boromir",
    "balrog",
    "eomer",
    "army-of-the-dead",
    "saruman",
    "saruman-helms-deep",
    "uruk-hai-rohan",
    "uruk-hai-helms-deep",
    "uruk-hai-gondor",
    "uruk-hai-minas-morgul",
    "faramir",
    "denethor",
    "sauron-eye-gondor",
    "sauron-eye-minas-morgul",
    "wormtongue",
    "eowyn",
    "treebeard",
    "gandalfs-vision",
)


def test_closer_look_cards_follow_the_rulebook_and_mark_ours(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "For some Encounter cards there are more detailed explanations ... (see "A Closer
    Look at Some Cards")." DESIGN §6: those cards follow the rulebook; what it does not show
    is ours, marked in the data (``text_ours``, ops ``"source": "ours"``, ``"ours": [keys]``)."""
    cards = new(compiled).lay.cards
    assert all(cards[c]["source"] == "rulebook" for c in CLOSER_LOOK)
    saruman = cards["saruman"]
    assert saruman["text"] == "If all Uruk-hai are already at Isengard, nothing happens."
    assert "2 Uruk-hai" in saruman["text_ours"] and saruman["effects"][0]["ours"] == ["n"]
    assert cards["faramir"]["use"]["effects"][0]["ours"] == ["max"]
    assert "1 to 3" in cards["faramir"]["text_ours"]
    assert cards["eowyn"]["use"]["effects"][0]["source"] == "ours"
    assert cards["gandalfs-vision"]["use"]["effects"][0]["source"] == "ours"
    assert "Boromir" in cards["wormtongue"]["text"] and "box" in cards["wormtongue"]["text_ours"]
    ours_only = [c for c, card in cards.items() if card["source"] == "ours"]
    assert not set(ours_only) & set(CLOSER_LOOK)
