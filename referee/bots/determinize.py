"""Determinisation: a full game a bot may search, built from what one player sees.

A bot must never read hidden state (other players' hands, the order of a face-down
pile, the generator that will roll the next dice). A *determiniser* builds a
complete, playable :class:`~referee.games.base.Game` from ``game.view(player)``
alone, filling in every hidden part by sampling it with the bot's generator —
one possible world consistent with what the player knows. The determinising MCTS
searches many such worlds and keeps the statistics of the moves they share.

The hook protocol (:class:`Determiniser`)::

    determinise(view: dict, compiled: CompiledBoard, rng: random.Random) -> Game

A rules module takes it over by declaring a static method or function
``determinise`` on its ``Game`` class with that signature; until then
:data:`DETERMINISERS` keeps the one for Riddle of the Ring here
(:func:`riddle`). Games of open information need none: their ``view`` is the whole
state, and :func:`open_information` only draws a fresh generator, so chance (dice,
shuffles) is sampled rather than foreseen.

:func:`determinise` raises :class:`CannotDeterminise` when the view does not say
enough to rebuild a state (a decision in the middle of an activity whose details
the view leaves out); bots then decide without search.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Protocol

from ..compiler import CompiledBoard
from ..errors import BoardwrightError
from ..games import get_game
from ..games.base import Game
from ..games.rng import Rng


class CannotDeterminise(Exception):
    """The view does not say enough to rebuild a playable state."""


class Determiniser(Protocol):
    """Builds a playable game from one player's view (see the module docs)."""

    def __call__(
        self, view: dict[str, Any], compiled: CompiledBoard, rng: random.Random
    ) -> Game[Any]: ...


def determinise(game: Game[Any], player: str, rng: random.Random) -> Game[Any]:
    """A playable game consistent with ``game.view(player)``; hidden parts sampled.

    Raises
    ------
    CannotDeterminise
        When the view does not determine enough of the state.
    """
    own = getattr(type(game), "determinise", None)
    fn = own if callable(own) else DETERMINISERS.get(game.rules)
    if fn is None and type(game).view is Game.view:
        # open information: the view *is* the whole state, so a copy holds nothing
        # more than the view; only the generator (the future dice) is redrawn
        return reseeded(game.copy(), rng)
    return (fn or open_information)(game.view(player), game.compiled, rng)


def reseeded(game: Game[Any], rng: random.Random) -> Game[Any]:
    """``game`` with a generator drawn from ``rng`` and no fixed dice (in place)."""
    state = getattr(game, "rng", None)
    if isinstance(state, Rng):
        game.rng = Rng(rng.getrandbits(64))
    return game


def open_information(
    view: dict[str, Any], compiled: CompiledBoard, rng: random.Random
) -> Game[Any]:
    """For games whose view is the whole state: the state with a fresh generator.

    Raises :class:`CannotDeterminise` when the view is not a whole state.
    """
    rules = view.get("rules")
    if not isinstance(rules, str):
        raise CannotDeterminise("the view names no rules")
    data = dict(view)
    if isinstance(data.get("rng"), int):
        data["rng"] = rng.getrandbits(64)
    if data.get("dice"):
        data["dice"] = []  # dice a test fixed are not for the bot to know
    try:
        return get_game(rules).from_json(data, compiled)
    except (BoardwrightError, KeyError, TypeError, ValueError) as exc:
        raise CannotDeterminise(f"the view is not a whole {rules} state ({exc})") from None


# ====================================================================== Riddle
#: phases whose state the Riddle view shows completely (others run an activity —
#: a riddle, a clairvoyance, a partner exchange — whose details only the referee has)
_RIDDLE_PHASES = frozenset({"start", "limbo", "limbo_rolled", "place", "main", "discard"})


def riddle(view: dict[str, Any], compiled: CompiledBoard, rng: random.Random) -> Game[Any]:
    """Riddle of the Ring from a player's view.

    The cards the player cannot see — other hands (except a hand he is choosing
    from, or a partner's shown hand), other players' hidden cards, the draw pile and
    the discard pile under its top card — are the deck minus every card he sees,
    shuffled and dealt back in the counts the view shows. The dice come from a fresh
    generator. Bookkeeping the view does not carry (cities used for picking up, the
    turn's flags) starts empty. Variation 14 and activities in progress (a riddle, a
    battle's choice, resistance, a partner exchange) are not rebuilt.
    """
    from ..games.riddle.cards import deck_for

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
        if hand is None:
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
                "cities": [],
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
    t = {
        "roll": int(view.get("roll") or 0),
        "die_used": False,
        "stopped": False,
        "moved": False,
        "start": cur_p["pos"],
        "pp": int(view.get("power_plays", 0)),
        "pending": list(view.get("exchanges_due") or []),
        "exchanged": [],
        "battled": [],
        "hid": 0,
        "found": False,
        "interrogated": [],
        "must_discard": 0,
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
        t["battled"] = [battle["defender"]]
    game_cls = get_game("riddle")
    state = {
        "rules": "riddle",
        "version": getattr(game_cls, "STATE_VERSION", 1),
        "board_hash": compiled.hash,
        "players": names,
        "options": game_cls.parse_options(opts) if hasattr(game_cls, "parse_options") else opts,
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


def _choosing_target(view: dict[str, Any], names: list[str]) -> str | None:
    """Whose hand ``choosing_from`` shows: not derivable from the view's fields alone,
    except in a two-player game (the other player)."""
    me = view.get("viewer")
    others = [n for n in names if n != me]
    return others[0] if len(others) == 1 else None


#: rules name -> determiniser for games with hidden information (a rules module's
#: own ``determinise`` takes precedence)
DETERMINISERS: dict[str, Determiniser] = {"riddle": riddle}
