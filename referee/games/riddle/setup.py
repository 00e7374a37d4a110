"""Riddle of the Ring: the options table and setting up a new game."""

from __future__ import annotations

from typing import Any, TypeVar

from ...compiler import CompiledBoard
from ...errors import UsageError
from ..options import Option
from ..rng import Rng
from . import flow
from .common import HOBBITS, MARKERS, RIDERS, SIDE
from .protocol import Riddle
from .state import Player, SideState

#: the game being set up (:class:`~.game.RiddleGame`)
G = TypeVar("G", bound=Riddle)

#: the options (Variation numbers follow the Supplementary Rules)
OPTIONS: tuple[Option, ...] = (
    Option(
        "variant",
        str,
        "basic",
        choices=("basic", "recommended"),
        help="basic, or recommended: the Recommended Game (variations are options)",
    ),
    Option(
        "recommended",
        bool,
        False,
        help="the Recommended Game: all four of gollum_spots, clairvoyance_spots, secret_spots, captivity",
    ),
    Option("gollum_spots", bool, False, help="Recommended: Gollum only from a G space"),
    Option(
        "clairvoyance_spots",
        bool,
        False,
        help="Recommended: see hands within 6 of a C space (clair)",
    ),
    Option(
        "secret_spots",
        bool,
        False,
        help="Recommended: hide cards on S spaces (hide/retrieve/find/peek)",
    ),
    Option(
        "captivity",
        bool,
        False,
        help="Recommended: the winner of a battle may take the loser captive",
    ),
    Option(
        "partners",
        bool,
        False,
        help="Variation 1: Hobbits against Black Riders, the team wins together",
    ),
    Option(
        "partners_extra_card", bool, False, help="Variation 1: the larger team starts with 3 cards"
    ),
    Option(
        "partner_exchange",
        str,
        "basic",
        choices=("basic", "a", "b", "c"),
        help="Variation 2 between partners: basic (at random), a (each gives a card of his choice), b (each may ask for a title; without it, as a), c (each takes a card of his choice from the other's hand)",
    ),
    Option("table_talk", bool, False, help="Variation 3: partners see each other's hands"),
    Option(
        "partner_clairvoyance",
        bool,
        False,
        help="Variation 4: partners both on C spaces see each other's hands",
    ),
    Option("wait_once", bool, False, help="Variation 5: wait only once to win"),
    Option("no_wait", bool, False, help="Variation 6: win without waiting"),
    Option(
        "elf_ring_win",
        bool,
        False,
        help="Variation 7: The Ring and the three Elf Rings win anywhere",
    ),
    Option(
        "doom_cities",
        bool,
        False,
        help="Variation 8: Cracks of Doom a Good City, Barad-Dur an Evil City",
    ),
    Option(
        "short_limbo",
        bool,
        False,
        help="Variation 9: stays in Limbo/captivity of 2 turns (6+ players)",
    ),
    Option(
        "limbo_out",
        bool,
        False,
        help="Variation 10: with 6+ players those sent to Limbo drop out down to 5",
    ),
    Option("resist_c", bool, False, help="Variation 11: resist C spaces like an Elf Ring"),
    Option("once_through", bool, False, help="Variation 12: go through the deck only once"),
    Option(
        "restrict_draws",
        bool,
        False,
        help="Variation 13: draw from a Hobbit only with a Hobbit card, from a Black Rider only with a Black Rider card",
    ),
    Option(
        "enhanced_two",
        bool,
        False,
        help="Variation 14: two players, Hobbits against Black Riders, each bringing in up to four characters and using one a turn",
    ),
    Option(
        "markers",
        list,
        (),
        choices=MARKERS,
        help="the markers in seating order, comma-separated (default frodo,rider1,sam,...)",
    ),
    Option(
        "turn_limit",
        int,
        0,
        low=0,
        help="end the game as a draw after this many rounds (0: no limit)",
    ),
)

_RECOMMENDED = ("gollum_spots", "clairvoyance_spots", "secret_spots", "captivity")


def expand_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options the rules read: ``variant=recommended`` or ``recommended`` switches on
    the Recommended Game's four features."""
    out = dict(options)
    if out.get("variant") == "recommended":
        out["recommended"] = True
    if out.get("recommended"):
        for k in _RECOMMENDED:
            out[k] = True
    return out


def markers_of(players: int, opts: dict[str, Any]) -> list[str]:
    """The markers in seating order (option ``markers``, else frodo, rider1, sam, ...)."""
    markers = list(opts["markers"]) or list(MARKERS[:players])  # words checked by the kit
    if len(markers) != players:
        raise UsageError(
            f"option 'markers' names {len(markers)} markers for {players} players",
            code="bad_option",
        )
    return markers


def new_game(
    cls: type[G], compiled: CompiledBoard, players: int, seed: int, options: dict[str, Any]
) -> G:
    """A new game on ``compiled`` (options parsed by the kit): deal, roll for the first
    player, begin his turn."""
    opts = expand_options(options)
    markers = markers_of(players, opts)
    if opts["partners"] and players < 4:
        raise UsageError("Variation 1 (partners) needs 4 or more players", code="bad_option")
    if opts["enhanced_two"]:
        return _new_enhanced(cls, compiled, players, seed, options, markers)
    g = cls.blank(compiled, markers, options)
    g.rng = Rng.from_seed(seed)
    g.seats = [Player(m, "hobbit" if m in HOBBITS else "rider") for m in markers]
    g._index()
    g.draw_pile = list(g.deck.instances)
    g._shuffle(g.draw_pile)
    big = g._majority_kind() if opts["partners"] and opts["partners_extra_card"] else None
    for _ in range(3):
        for p in g.seats:
            want = 3 if p.kind == big else 2
            if len(p.hand) < want and g.draw_pile:
                p.hand.append(g.draw_pile.pop())
    # highest roll starts; ties roll again; play goes on in seating order
    rolling = list(range(players))
    while len(rolling) > 1:
        rolls = [(g._die(), i) for i in rolling]
        top = max(r for r, _ in rolls)
        rolling = [i for r, i in rolls if r == top]
    g.cur = rolling[0]
    g.order = [g.seats[(g.cur + k) % players].name for k in range(players)]
    g.seen = {p.name: [] for p in g.seats}
    ev: list[dict[str, Any]] = [
        g.event(
            "deal", players=[p.name for p in g.seats], cards={p.name: len(p.hand) for p in g.seats}
        ),
        g.event("first_player", player=g.seats[g.cur].name),
    ]
    flow.begin_turn(g, ev)
    g.setup_events = ev
    return g


def _new_enhanced(
    cls: type[G],
    compiled: CompiledBoard,
    players: int,
    seed: int,
    options: dict[str, Any],
    markers: list[str],
) -> G:
    """Variation 14: the two players are the sides ``hobbits`` and ``riders``; all
    eight characters exist, those not brought in yet wait in reserve."""
    if players != 2:
        raise UsageError("Variation 14 (enhanced_two) is a two-player game", code="bad_option")
    kinds = sorted("hobbit" if m in HOBBITS else "rider" for m in markers)
    if kinds != ["hobbit", "rider"]:
        raise UsageError(
            "Variation 14: one Hobbit and one Black Rider marker to start", code="bad_option"
        )
    g = cls.blank(compiled, ["hobbits", "riders"], options)
    g.rng = Rng.from_seed(seed)
    g.seats = [Player(m, "hobbit" if m in HOBBITS else "rider") for m in HOBBITS + RIDERS]
    g._index()
    for p in g.seats:
        if p.name not in markers:
            p.status = "reserve"
    g.draw_pile = list(g.deck.instances)
    g._shuffle(g.draw_pile)
    for _ in range(2):
        for m in markers:
            g._by[m].hand.append(g.draw_pile.pop())
    rolling = list(markers)
    while len(rolling) > 1:
        rolls = [(g._die(), m) for m in rolling]
        top = max(r for r, _ in rolls)
        rolling = [m for r, m in rolls if r == top]
    first = g._by[rolling[0]]
    g.cur = g.seats.index(first)
    g.order = [rolling[0]] + [m for m in markers if m != rolling[0]]
    g.sides = {SIDE[g._by[m].kind]: SideState(m, m == rolling[0]) for m in markers}
    g.side_turn = SIDE[first.kind]
    g.seen = {p.name: [] for p in g.seats}
    ev: list[dict[str, Any]] = [
        g.event("deal", players=list(markers), cards=dict.fromkeys(markers, 2)),
        g.event("first_player", player=g.side_turn),
    ]
    flow.begin_turn(g, ev)
    g.setup_events = ev
    return g
