"""Playing the games of a balance study: one :class:`Job` per seed, one record each.

:func:`play` is a pure function of its :class:`Job` (the game's seed decides the
set-up and every die; each bot is seeded from the game seed and its seat), so a
game gives the same record in this process, in a pool worker or on a Dask worker
on another machine. The engines (:mod:`.engines`) only decide where it runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..bots import make_bot, seats, winners
from ..compiler import CompiledBoard, compile_board
from ..errors import UsageError
from ..games import get_game
from ..games.outcome import Outcome
from ..store import load_project

#: per process: compiled boards by project path (each worker compiles a board once)
_BOARDS: dict[str, CompiledBoard] = {}


def board(project: str) -> CompiledBoard:
    """The compiled board of ``project``, compiled once per process."""
    key = os.path.abspath(project)
    c = _BOARDS.get(key)
    if c is None:
        c = compile_board(load_project(key))
        _ = c.hash  # before any game turns a tile
        _BOARDS[key] = c
    return c


@dataclass(frozen=True)
class Job:
    """One game of a study.

    Attributes
    ----------
    rules, project : str
        The game and the board (an absolute path every worker can read).
    players, seed : int
        Seats and the game's seed.
    bots : tuple of str
        One bot spec per seat (``mcts:iterations=100``).
    options : dict
        Rules options (``variant`` included).
    max_moves : int
        A game still running after this many moves is recorded as unfinished.
    lineup : tuple of int
        For each seat, which of the study's bots sits there (its index in the
        study's ``--bots``); empty: bot k in seat k.
    """

    rules: str
    project: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    max_moves: int = 3000
    lineup: tuple[int, ...] = ()

    def bot_seed(self, seat: int) -> int:
        """The seed of the bot in ``seat`` (a function of the game seed and the seat)."""
        return (self.seed * 1_000_003 + seat * 7919) & 0x7FFFFFFF


def play(job: Job) -> dict[str, Any]:
    """Play one game; return its record (JSON-ready).

    The record holds ``seed``, ``seats``, ``bots`` (per seat), ``lineup`` (per seat,
    the index of its bot in the study's list), ``first`` (the seat that moved
    first), ``moves`` (plies), ``outcome``, ``result`` (``won``/``lost``/``draw``/
    ``unfinished``), ``winners``, ``ending`` (what ended it: the outcome's reason or
    how, else its last event's type), ``rules_fired`` (event type -> count) and
    ``heat`` (node -> how many moves put a figure there).
    """
    compiled = board(job.project)
    game = get_game(job.rules).new(
        compiled, players=job.players, seed=job.seed, options=dict(job.options)
    )
    names = seats(game)
    specs = job.bots * len(names) if len(job.bots) == 1 else job.bots
    if len(specs) != len(names):
        raise UsageError(f"{len(specs)} bot(s) for the {len(names)} seats {', '.join(names)}")
    bots = {name: make_bot(specs[i], job.bot_seed(i)) for i, name in enumerate(names)}
    fired: dict[str, int] = {}
    heat: dict[str, int] = {}
    for e in game.setup_events:
        _count(fired, e)
    first: str | None = None
    last_event = ""
    moves = 0
    while game.outcome is None and moves < job.max_moves:
        mover = game.to_move
        bot = bots.get(mover)
        if bot is None:
            break  # a decision for nobody at the table (should not happen)
        if not any(True for _ in game.legal_moves):
            break
        move = bot.choose(game)
        if first is None:
            first = mover
        dest = game.move_destination(move)
        events = game.push(move)
        moves += 1
        if dest is not None:
            heat[dest[1]] = heat.get(dest[1], 0) + 1
        for e in events:
            last_event = _count(fired, e) or last_event
    outcome = game.outcome
    result = "unfinished" if outcome is None else outcome.result
    return {
        "seed": job.seed,
        "seats": names,
        "bots": list(job.bots),
        "lineup": list(job.lineup or range(len(names))),
        "first": first,
        "moves": moves,
        "outcome": None if outcome is None else outcome.to_json(),
        "result": result,
        "winners": winners(outcome, names),
        "ending": _ending(outcome, last_event),
        "rules_fired": dict(sorted(fired.items())),
        "heat": dict(sorted(heat.items())),
    }


def _count(fired: dict[str, int], event: dict[str, Any]) -> str:
    kind = event["type"]
    fired[kind] = fired.get(kind, 0) + 1
    return str(kind)


def _ending(outcome: Outcome | None, last_event: str) -> str:
    if outcome is None:
        return "move limit"
    # Riddle of the Ring names how a side won ("how"), the other games why ("reason")
    why = outcome.reason or outcome.extra.get("how")
    if isinstance(why, str) and why:
        return f"{outcome.result}: {why}"
    return f"{outcome.result}: {last_event or 'unknown'}"
