"""Computer players for every game, through the public game protocol.

``random``, ``greedy`` (one ply on the game's evaluation, :mod:`.evaluations`) and
``mcts`` (UCT over determinisations of what the player sees, :mod:`.mcts`). They play
through the game protocol and the kit's two bot hooks, ``Game.evaluate(player)`` and
``Game.determinise(player, rng)`` (``docs/game-kit.md``), so every game — a plug-in
too — gets them with no bot code of its own, and no bot reads hidden state. A bot
is named by a *spec*: ``random``, ``greedy``, ``mcts``, ``mcts:iterations=400``,
``mcts:ms=50,rollout=12``.

>>> bot = make_bot("mcts:iterations=100", seed=7)
>>> move = bot.choose(game)  # a legal move for game.to_move; game is unchanged
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import UsageError
from .base import Bot, BotParam, cooperative, rewards, seats, winners
from .mcts import MctsBot
from .simple import GreedyBot, RandomBot

__all__ = [
    "BOTS",
    "Bot",
    "BotParam",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "cooperative",
    "make_bot",
    "parse_bots",
    "rewards",
    "seats",
    "winners",
]


#: every bot, by the name a spec uses: each class declares its label, description and
#: parameters (:class:`~.base.BotParam`); ``--bots``, the editor's seat list and
#: ``docs/reference/bots.md`` read them from here
BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (RandomBot, GreedyBot, MctsBot)}


def make_bot(spec: str, seed: int = 0) -> Bot:
    """The bot a spec names (``mcts:iterations=200``), seeded.

    Raises
    ------
    UsageError
        Unknown bot, unknown parameter, or a budget of 0 or less.
    """
    name, _, rest = spec.strip().partition(":")
    cls = BOTS.get(name)
    if cls is None:
        raise UsageError(f"unknown bot {name!r} (known: {', '.join(BOTS)})", code="unknown_bot")
    params: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"bot parameter needs KEY=VALUE, not {pair!r}")
        params[key.strip()] = value.strip()
    declared = {p.name: p for p in cls.PARAMS}
    if params and not declared:
        raise UsageError(f"{name} takes no parameters, not {', '.join(params)}")
    kwargs: dict[str, Any] = {}
    for key, text in params.items():
        param = declared.get(key)
        if param is None:
            raise UsageError(f"{name} takes {', '.join(declared)}, not {key!r}")
        try:
            kwargs[key] = param.type(text)
        except ValueError:
            raise UsageError(f"{name}: {key} must be a number, not {text!r}") from None
        if not math.isfinite(kwargs[key]):
            raise UsageError(f"{name}: {key} must be a finite number, not {text!r}")
    return cls(seed, **kwargs)


def parse_bots(text: str, players: int) -> list[str]:
    """``--bots`` (one spec per seat, comma- or semicolon-separated; one spec for all
    seats) as a list of ``players`` specs, each checked by :func:`make_bot`.

    Specs with parameters are separated by ``;`` or ``/`` when they contain commas:
    ``mcts:iterations=50,rollout=4;random``.
    """
    sep = ";" if ";" in text else "/" if "/" in text else ","
    specs = [s.strip() for s in text.split(sep) if s.strip()]
    if sep == "," and any(":" in s for s in specs):
        # "mcts:iterations=50,random": rejoin parameters that the comma split off
        joined: list[str] = []
        for s in specs:
            if joined and "=" in s and ":" not in s and s.split("=")[0] not in BOTS:
                joined[-1] += "," + s
            else:
                joined.append(s)
        specs = joined
    if not specs:
        raise UsageError("--bots needs at least one bot")
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UsageError(f"--bots names {len(specs)} bot(s) for {players} seat(s)")
    for s in specs:
        make_bot(s)
    return specs
