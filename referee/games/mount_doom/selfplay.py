"""Seeded self-play for the track games: random legal moves until the game ends.

``selfplay(game_cls, compiled, games, seed)`` is what ``referee selfplay`` reports for
these games; it also checks the invariants a game must keep (see ``invariants``).
"""

from __future__ import annotations

import random
import time
from typing import Any

from ...compiler import CompiledBoard
from ..base import Game


def play_one(
    game_cls: type[Game[Any]],
    compiled: CompiledBoard,
    seed: int,
    *,
    players: int = 3,
    options: dict[str, Any] | None = None,
    max_moves: int = 20000,
    policy_name: str = "random",
) -> tuple[Game[Any], list[str]]:
    """Play one game (policy seeded by ``seed``).

    ``policy_name``: ``random`` (uniform over the legal moves) or ``greedy`` (one-ply
    lookahead on the game's ``value()`` heuristic, where the game has one).
    """
    game = game_cls.new(compiled, players=players, seed=seed, options=options)
    policy = random.Random(seed ^ 0x5EED)
    log: list[str] = []
    while game.outcome is None and len(log) < max_moves:
        moves = list(game.generate_legal_moves())
        if not moves:
            break
        if policy_name == "greedy":
            mv = greedy_move(game, policy)
        else:
            mv = moves[policy.randrange(len(moves))]
        game.push(mv)
        log.append(str(mv))
    return game, log


def selfplay(
    game_cls: type[Game[Any]],
    compiled: CompiledBoard,
    games: int,
    seed: int,
    *,
    players: int = 3,
    options: dict[str, Any] | None = None,
    policy_name: str = "random",
) -> dict[str, Any]:
    """Play ``games`` seeded games; return win rates, lengths and games per second.

    Game ``k`` uses seed ``seed + k``, so a run is reproducible.
    """
    results: dict[str, int] = {}
    reasons: dict[str, int] = {}
    moves = 0
    unfinished = 0
    t0 = time.perf_counter()
    for k in range(games):
        game, log = play_one(
            game_cls, compiled, seed + k, players=players, options=options, policy_name=policy_name
        )
        moves += len(log)
        out = game.outcome
        if out is None:
            unfinished += 1
            continue
        results[out.result] = results.get(out.result, 0) + 1
        reasons[out.reason or ""] = reasons.get(out.reason or "", 0) + 1
    dt = time.perf_counter() - t0
    return {
        "rules": game_cls.rules,
        "games": games,
        "seed": seed,
        "players": players,
        "policy": policy_name,
        "results": results,
        "win_rate": results.get("won", 0) / games if games else 0.0,
        "reasons": reasons,
        "unfinished": unfinished,
        "mean_moves": moves / games if games else 0.0,
        "seconds": round(dt, 3),
        "games_per_second": round(games / dt, 2) if dt else None,
    }


def greedy_move(game: Game[Any], policy: random.Random) -> Any:
    """One-ply lookahead on ``game.value()``.

    The copy carries the seeded generator, so the lookahead sees the very roll the move
    would get: this is a yardstick showing the game can be won, not a fair player.
    """
    moves = list(game.generate_legal_moves())
    if len(moves) == 1:
        return moves[0]
    best, best_v = [], float("-inf")
    for mv in moves:
        g = game.copy()
        g.push(mv)
        v = g.value()  # type: ignore[attr-defined]
        if v > best_v + 1e-9:
            best, best_v = [mv], v
        elif abs(v - best_v) <= 1e-9:
            best.append(mv)
    return best[policy.randrange(len(best))]
