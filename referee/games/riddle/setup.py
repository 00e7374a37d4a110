"""Riddle of the Ring: the options table and setting up a new game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...compiler import CompiledBoard
from ...errors import UsageError
from ..rng import Rng
from . import flow
from .common import HOBBITS, MARKERS, RIDERS, SIDE
from .state import Player

if TYPE_CHECKING:
    from .game import RiddleGame

OPTIONS: dict[str, tuple[Any, str]] = {
    "recommended": (
        False,
        "the Recommended Game: all four of gollum_spots, clairvoyance_spots, "
        "secret_spots, captivity",
    ),
    "gollum_spots": (False, "Recommended: Gollum only from a G space"),
    "clairvoyance_spots": (False, "Recommended: see hands within 6 of a C space (clair)"),
    "secret_spots": (False, "Recommended: hide cards on S spaces (hide/retrieve/find/peek)"),
    "captivity": (False, "Recommended: the winner of a battle may take the loser captive"),
    "partners": (False, "Variation 1: Hobbits against Black Riders, the team wins together"),
    "partners_extra_card": (False, "Variation 1: the larger team starts with 3 cards"),
    "partner_exchange": (
        "basic",
        "Variation 2 between partners: basic (at random), a (each "
        "gives a card of his choice), b (each may ask for a title; "
        "without it, as a), c (each takes a card of his "
        "choice from the other's hand)",
    ),
    "table_talk": (False, "Variation 3: partners see each other's hands"),
    "partner_clairvoyance": (
        False,
        "Variation 4: partners both on C spaces see each other's hands",
    ),
    "wait_once": (False, "Variation 5: wait only once to win"),
    "no_wait": (False, "Variation 6: win without waiting"),
    "elf_ring_win": (False, "Variation 7: The Ring and the three Elf Rings win anywhere"),
    "doom_cities": (False, "Variation 8: Cracks of Doom a Good City, Barad-Dur an Evil City"),
    "short_limbo": (False, "Variation 9: stays in Limbo/captivity of 2 turns (6+ players)"),
    "limbo_out": (False, "Variation 10: with 6+ players those sent to Limbo drop out down to 5"),
    "resist_c": (False, "Variation 11: resist C spaces like an Elf Ring"),
    "once_through": (False, "Variation 12: go through the deck only once"),
    "restrict_draws": (
        False,
        "Variation 13: draw from a Hobbit only with a Hobbit card, "
        "from a Black Rider only with a Black Rider card",
    ),
    "enhanced_two": (
        False,
        "Variation 14: two players, Hobbits against Black Riders, each "
        "bringing in up to four characters and using one a turn",
    ),
    "markers": ("", "comma-separated markers in seating order (default frodo,rider1,sam,...)"),
    "turn_limit": (0, "end the game as a draw after this many rounds (0: no limit)"),
}
_RECOMMENDED = ("gollum_spots", "clairvoyance_spots", "secret_spots", "captivity")


def read_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Options with defaults; ``recommended`` switches on its four features."""
    out = {k: v for k, (v, _) in OPTIONS.items()}
    options = dict(options or {})
    variant = options.pop("variant", None)
    if variant is not None:
        if variant not in ("basic", "recommended"):
            raise UsageError(
                f"Riddle of the Ring variants: basic, recommended (not "
                f"{variant!r}); variations are options"
            )
        options.setdefault("recommended", variant == "recommended")
    for k, v in options.items():
        key = k.replace("-", "_")
        if key not in OPTIONS:
            raise UsageError(f"unknown riddle option {k!r} (known: {', '.join(OPTIONS)})")
        default = OPTIONS[key][0]
        if isinstance(default, bool):
            if isinstance(v, str):
                if v.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                    raise UsageError(f"option {k} takes true/false, not {v!r}")
                v = v.lower() in ("1", "true", "yes", "on")
            v = bool(v)
        elif isinstance(default, int):
            try:
                v = int(v)
            except (TypeError, ValueError):
                raise UsageError(f"option {k} takes an integer, not {v!r}") from None
        else:
            v = str(v)
        out[key] = v
    if out["partner_exchange"] not in ("basic", "a", "b", "c"):
        raise UsageError(f"partner_exchange is basic, a, b or c, not {out['partner_exchange']!r}")
    if out["recommended"]:
        for k in _RECOMMENDED:
            out[k] = True
    return out


def new_game(
    cls: type[RiddleGame],
    compiled: CompiledBoard,
    *,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
) -> RiddleGame:
    """A new game on ``compiled``: deal, roll for the first player, begin his turn."""
    opts = read_options(options)
    if not isinstance(players, int) or not 2 <= players <= 8:
        raise UsageError(f"Riddle of the Ring is for 2 to 8 players, not {players!r}")
    markers = (
        [m.strip() for m in opts["markers"].split(",") if m.strip()]
        if opts["markers"]
        else list(MARKERS[:players])
    )
    if (
        len(markers) != players
        or len(set(markers)) != players
        or any(m not in MARKERS for m in markers)
    ):
        raise UsageError(
            f"markers must be {players} different ones of {', '.join(MARKERS)}, "
            f"not {opts['markers']!r}"
        )
    if opts["partners"] and players < 4:
        raise UsageError("Variation 1 (partners) needs 4 or more players")
    if opts["enhanced_two"]:
        return _new_enhanced(cls, compiled, players, seed, opts, markers)
    g = cls(compiled, opts)
    g.rng = Rng.from_seed(seed)
    g.players = [Player(m, "hobbit" if m in HOBBITS else "rider") for m in markers]
    g._index()
    g.draw_pile = list(g.deck.instances)
    g._shuffle(g.draw_pile)
    big = g._majority_kind() if opts["partners"] and opts["partners_extra_card"] else None
    for _ in range(3):
        for p in g.players:
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
    g.order = [g.players[(g.cur + k) % players].name for k in range(players)]
    g.seen = {p.name: [] for p in g.players}
    ev: list[dict[str, Any]] = [
        {
            "event": "deal",
            "players": [p.name for p in g.players],
            "cards": {p.name: len(p.hand) for p in g.players},
        },
        {"event": "first_player", "player": g.players[g.cur].name},
    ]
    flow.begin_turn(g, ev)
    g.setup_events = ev
    return g


def _new_enhanced(
    cls: type[RiddleGame],
    compiled: CompiledBoard,
    players: int,
    seed: int,
    opts: dict[str, Any],
    markers: list[str],
) -> RiddleGame:
    """Variation 14: the two players are the sides ``hobbits`` and ``riders``; all
    eight characters exist, those not brought in yet wait in reserve."""
    if players != 2:
        raise UsageError("Variation 14 (enhanced_two) is a two-player game")
    kinds = sorted("hobbit" if m in HOBBITS else "rider" for m in markers)
    if kinds != ["hobbit", "rider"]:
        raise UsageError("Variation 14: one Hobbit and one Black Rider marker to start")
    g = cls(compiled, opts)
    g.rng = Rng.from_seed(seed)
    g.players = [Player(m, "hobbit" if m in HOBBITS else "rider") for m in HOBBITS + RIDERS]
    g._index()
    for p in g.players:
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
    g.cur = g.players.index(first)
    g.order = [rolling[0]] + [m for m in markers if m != rolling[0]]
    g.sides = {SIDE[g._by[m].kind]: {"start": m, "started": m == rolling[0]} for m in markers}
    g.side_turn = SIDE[first.kind]
    g.seen = {p.name: [] for p in g.players}
    ev: list[dict[str, Any]] = [
        {"event": "deal", "players": list(markers), "cards": dict.fromkeys(markers, 2)},
        {"event": "first_player", "player": g.side_turn},
    ]
    flow.begin_turn(g, ev)
    g.setup_events = ev
    return g
