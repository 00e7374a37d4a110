"""The two bots without search: ``random`` and ``greedy`` (one ply)."""

from __future__ import annotations

from typing import Any

from ..errors import IllegalMoveError
from ..games.base import Game
from .base import Bot, rewards, seats
from .determinize import CannotDeterminise, determinise
from .evaluations import evaluate

#: a finished game outweighs any evaluation
TERMINAL = 1e6


class RandomBot(Bot):
    """A uniformly random legal move (seeded)."""

    name = "random"
    label = "random"
    description = "a uniformly random legal move"

    def choose(self, game: Game[Any]) -> Any:
        moves = list(game.legal_moves)
        if not moves:
            raise IllegalMoveError("no legal move to choose from", code="no_legal_move")
        return moves[self.rng.randrange(len(moves))]


class GreedyBot(Bot):
    """One-ply lookahead: the legal move whose result the evaluation likes best.

    Each decision looks ahead in one determinisation (the game's ``determinise``
    hook, :mod:`.determinize`) of what the player sees, scored by the game's
    ``evaluate`` hook (:mod:`.evaluations`), so dice and hidden cards are sampled, never foreseen. A move
    that wins is taken, one that loses is avoided; ties are broken at random
    (seeded). Where the view cannot be determinised, the move is random.

    Notes
    -----
    One ``copy()`` and ``push()`` per legal move, plus one evaluation each.
    """

    name = "greedy"
    label = "greedy"
    description = "one ply of lookahead on the game's evaluation, in a sampled world"

    def choose(self, game: Game[Any]) -> Any:
        moves = list(game.legal_moves)
        if not moves:
            raise IllegalMoveError("no legal move to choose from", code="no_legal_move")
        if len(moves) == 1:
            return moves[0]
        me = game.to_move
        try:
            world = determinise(game, me, self.rng)
        except CannotDeterminise:
            return moves[self.rng.randrange(len(moves))]
        scores = one_ply(world, moves, me, seats(game))
        top = max(scores)
        if top == float("-inf"):
            return moves[self.rng.randrange(len(moves))]
        best = [m for m, v in zip(moves, scores) if v >= top - 1e-9]
        return best[self.rng.randrange(len(best))]


def one_ply(world: Game[Any], moves: list[Any], me: str, names: list[str]) -> list[float]:
    """The evaluation for ``me`` after each of ``moves`` in ``world`` (a copy each);
    a finished game scores its reward scaled by :data:`TERMINAL`; a move illegal in
    this world ``-inf``."""
    out = []
    for move in moves:
        g = world.copy()
        try:
            g.push(move)
        except IllegalMoveError:
            out.append(float("-inf"))  # illegal in this sampled world (it rests on a guess)
            continue
        if g.outcome is not None:
            out.append((rewards(g.outcome, names, g).get(me, 0.0) - 0.5) * TERMINAL)
        else:
            out.append(evaluate(g, me))
    return out
