"""Riddle of the Ring for bots: a whole game dealt from what one player sees.

The kit's hook ``Game.determinise(player, rng)`` (``docs/game-kit.md``): the bots
search the games :func:`determinise` builds and never the referee's own state, so
they cannot read another player's hand, the order of the piles or the coming dice.
:func:`from_view` reads the player's view and the board, and nothing else.

Raises :class:`~referee.games.base.CannotDeterminise` when the view does not say
enough to rebuild a state (an activity in progress whose details only the referee
has, Variation 14); bots then decide without search.

Notes
-----
One rebuild costs about one ``from_json`` of a state (the deck is dealt in O(80)).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, TypeVar

from ...compiler import CompiledBoard
from ...errors import BoardwrightError
from ..base import CannotDeterminise
from .cards import deck_for
from .protocol import Riddle

#: the game a world is dealt for: the game's own class (:class:`~.game.RiddleGame`)
G = TypeVar("G", bound=Riddle)

#: the card every player wants
RING = "the_ring"

#: phases whose state the Riddle view shows completely (others run an activity —
#: a riddle, a clairvoyance, a partner exchange — whose details only the referee has)
_RIDDLE_PHASES = frozenset({"start", "limbo", "limbo_rolled", "place", "main", "discard"})


def determinise(g: G, player: str, rng: random.Random) -> G:
    """A game consistent with ``g.view(player)``: the kit's ``Game.determinise``.

    Reads nothing of ``g`` but that view and the board (:func:`from_view`).
    """
    return from_view(g.view(player), g.compiled, rng, type(g))


def from_view(
    view: dict[str, Any], compiled: CompiledBoard, rng: random.Random, game_cls: type[G]
) -> G:
    """Riddle of the Ring from a player's view.

    The cards the player cannot see — other hands (except a hand he is choosing
    from, or a partner's shown hand), other players' hidden cards, the draw pile and
    the discard pile under its top card — are the deck minus every card he sees,
    shuffled and dealt back in the counts the view shows — The Ring to the player
    he last saw holding it (:func:`ring_seen_with`). The dice come from a fresh
    generator. The cities each player last picked up at and what the turn has done
    so far are public, and come from the view. Variation 14 and activities in progress (a riddle, a
    battle's choice, resistance, a partner exchange) are not rebuilt. The world is
    a ``game_cls`` (the class of the game being determinised) read by its ``from_json``.
    """
    opts = dict(view.get("options") or {})
    if opts.get("enhanced_two"):
        raise CannotDeterminise("Variation 14 is not determinised")
    phase = str(view.get("phase"))
    battle = view.get("battle")
    if phase not in _RIDDLE_PHASES and not (phase.startswith("battle") and battle):
        raise CannotDeterminise(f"the view does not show the {phase} activity")
    me = view.get("viewer")
    players: list[dict[str, Any]] = list(view.get("players") or [])
    names = [str(q["name"]) for q in players]
    if me not in names:
        raise CannotDeterminise("the view is an onlooker's")
    deck = deck_for(compiled.board)
    pool = Counter(deck.instances)
    known_hand: dict[str, list[str]] = {}
    for q in players:
        if "hand" in q:
            known_hand[q["name"]] = list(q["hand"])
    known_hand[str(me)] = list(view.get("hand") or [])
    if view.get("choosing_from") is not None:
        target = _choosing_target(view, names)
        if target is not None:
            known_hand[target] = list(view["choosing_from"])
    seen: list[str] = []
    for cards in known_hand.values():
        seen += cards
    for q in players:
        seen += list(q.get("table") or [])
    for cards in (view.get("hidden") or {}).values():
        seen += list(cards)
    top = view.get("discard_top")
    if top:
        seen.append(str(top))
    att: list[str] = []
    dfn: list[str] = []
    if battle:
        att = [c for c in battle["attacker_forces"] if not str(c).startswith("city:")]
        dfn = [c for c in battle["defender_forces"] if not str(c).startswith("city:")]
        seen += att + dfn
    pool.subtract(Counter(seen))
    if any(n < 0 for n in pool.values()):
        raise CannotDeterminise("the view shows cards the deck does not hold")
    unknown = sorted(pool.elements())
    rng.shuffle(unknown)
    holder = ring_seen_with(view, names)
    if holder is not None and holder not in known_hand and RING in unknown:
        unknown.remove(RING)  # dealt to the player last seen holding it (below)
    else:
        holder = None

    def deal(n: int) -> list[str]:
        if n > len(unknown):
            raise CannotDeterminise("the view counts more hidden cards than the deck holds")
        out = unknown[len(unknown) - n :]
        del unknown[len(unknown) - n :]
        return out

    state_players = []
    hidden: dict[str, dict[str, list[str]]] = {}
    own_hidden = view.get("hidden") or {}
    for q in players:
        name = str(q["name"])
        hand = known_hand.get(name)
        if hand is None and name == holder:
            hand = [RING] + deal(int(q.get("hand_count", 0)) - 1)
        elif hand is None:
            hand = deal(int(q.get("hand_count", 0)))
        for spot, count in (q.get("hidden_counts") or {}).items():
            cards = list(own_hidden.get(spot, [])) if name == me else deal(int(count))
            hidden.setdefault(str(spot), {})[name] = cards
        out = q.get("status") == "out"
        status = q.get("status") if not out else ("board" if q.get("pos") else "limbo")
        state_players.append(
            {
                "name": name,
                "kind": q["kind"],
                "pos": q.get("pos"),
                "hand": hand,
                "table": list(q.get("table") or []),
                "status": status,
                "away": int(q.get("away_turns", 0)),
                "captor": q.get("captor"),
                "cities": list(q.get("picked_up_at") or []),
                "goal_wait": bool(q.get("waiting_on_goal")),
                "goal_seen": bool(q.get("waiting_on_goal")),
                "riddle_extra": 0,
                "free_next": False,
                "out": out,
            }
        )
    discard_count = int(view.get("discard_count", 0))
    discard = deal(max(0, discard_count - (1 if top else 0))) + ([str(top)] if top else [])
    draw = deal(int(view.get("draw_count", 0)))
    if unknown:
        draw = unknown + draw  # cards the view's counts leave out (should not happen)
    on_turn = str(view.get("on_turn"))
    cur = names.index(on_turn) if on_turn in names else 0
    turn = int(view.get("turn", 1))
    n = len(names)
    first = (cur - (turn - 1)) % n
    order = [names[(first + k) % n] for k in range(n)]
    cur_p = state_players[cur]
    done = dict(view.get("this_turn") or {})
    t = {
        "roll": int(view.get("roll") or 0),
        "die_used": bool(done.get("die_used", False)),
        "stopped": bool(done.get("stopped", False)),
        "moved": bool(done.get("moved", False)),
        "start": done.get("start", cur_p["pos"]),
        "pp": int(view.get("power_plays", 0)),
        "pending": list(view.get("exchanges_due") or []),
        "exchanged": list(done.get("exchanged") or []),
        "battled": list(done.get("battled") or []),
        "hid": int(done.get("hid", 0)),
        "found": bool(done.get("found", False)),
        "interrogated": list(done.get("interrogated") or []),
        "must_discard": int(done.get("must_discard", 0)),
    }
    sub = None
    if battle:
        forces_a = battle["attacker_forces"]
        forces_d = battle["defender_forces"]
        sub = {
            "kind": "battle",
            "defender": battle["defender"],
            "total": battle["total"],
            "need": battle["to_match"],
            "att": att,
            "dfn": dfn,
            "att_cities": [str(c)[5:] for c in forces_a if str(c).startswith("city:")],
            "def_cities": [str(c)[5:] for c in forces_d if str(c).startswith("city:")],
        }
        if battle["defender"] not in t["battled"]:
            t["battled"].append(battle["defender"])
    state = {
        "rules": "riddle",
        "version": game_cls.STATE_VERSION,
        "board_hash": compiled.hash,
        "players": names,
        "options": game_cls.parse_options(opts),
        "rng": rng.getrandbits(64),
        "dice": [],
        "state": {
            "seats": state_players,
            "order": order,
            "draw": draw,
            "discard": discard,
            "hidden": hidden,
            "cur": cur,
            "turn": turn,
            "round": int(view.get("round", 1)),
            "phase": phase,
            "t": t,
            "sub": sub,
            "result": view.get("outcome"),
            "seen": {name: (list(view.get("seen") or []) if name == me else []) for name in names},
            "sides": {},
            "side_turn": None,
        },
    }
    try:
        return game_cls.from_json(state, compiled)
    except BoardwrightError as exc:
        raise CannotDeterminise(f"the Riddle view did not rebuild ({exc})") from None


def ring_seen_with(view: dict[str, Any], names: list[str]) -> str | None:
    """The player the viewer last saw holding The Ring (clairvoyance, a battle...),
    if that was in the last two rounds, he has cards, and no later look at his hand
    showed it gone; else ``None``.

    The worlds deal The Ring to him: what the player remembers, not the referee's
    state (it may have changed hands unseen since, as a player may be wrong).
    """
    me = view.get("viewer")
    recent = int(view.get("turn", 0)) - 2 * len(names)
    counts = {str(q.get("name")): int(q.get("hand_count", 0)) for q in view.get("players") or []}
    holder: str | None = None
    for s in view.get("seen") or []:
        who = s.get("of")
        if who not in names or who == me:
            continue
        if RING in (s.get("cards") or ()):
            holder = None if int(s.get("turn", 0)) < recent else str(who)
        elif who == holder and s.get("how") != "resisted":
            holder = None
    return holder if holder is not None and counts.get(holder, 0) > 0 else None


def _choosing_target(view: dict[str, Any], names: list[str]) -> str | None:
    """Whose hand ``choosing_from`` shows: not derivable from the view's fields alone,
    except in a two-player game (the other player)."""
    me = view.get("viewer")
    others = [n for n in names if n != me]
    return others[0] if len(others) == 1 else None
