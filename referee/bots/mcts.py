"""``mcts``: Monte Carlo tree search (UCT), determinising for hidden information.

Every iteration samples one world consistent with what the player to move sees
(:func:`~.determinize.determinise`: hidden cards dealt at random, a fresh
generator for dice and shuffles — information set MCTS, Cowling, Powley &
Whitehouse 2012), walks the tree by UCB1 among the moves legal in that world
(counting each move's availability, so moves legal only in some worlds are
compared fairly), adds one node, plays random moves for up to ``rollout`` plies
and backs up one reward per seat. A finished game gives
:func:`~.base.rewards` (the team's result in a cooperative game); an unfinished one
the evaluation's change since the root, squashed into (0, 1)
(:func:`~.evaluations.squash`). Each node keeps the reward of the player who made
the move leading to it. The most visited move at the root is played.

Budget: ``iterations`` (deterministic: same seed, same game, same move) and/or
``ms`` of wall time (whatever finishes first).

Notes
-----
The moves searched are the game's ``search_moves()`` when it declares them (the
legal moves minus those the rules say never help, :func:`~.base.searched`); a
decision with one such move is answered without search.

Cost per iteration: one determinisation (the game's hook, about one ``copy()``;
with ``worlds`` a ``copy()`` of a pooled one), ``legal_moves`` at every tree level,
and up to ``rollout`` random pushes; memory is one node per iteration.
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar

from ..errors import IllegalMoveError, UsageError
from ..games.base import Game
from ..games.moves import Move as KitMove
from ..games.rng import Rng
from .base import Bot, BotParam, rewards, searched, seats
from .determinize import CannotDeterminise, determinise
from .evaluations import heuristic, reward
from .simple import GreedyBot, one_ply


class _Node:
    """One move in the tree: who made it, visits, availability and total reward."""

    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: str) -> None:
        self.player = player
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Any, _Node] = {}


def _key(move: Any) -> Any:
    """A move's key in the tree: the move itself when it is a kit :class:`Move` (a
    hashable value, equal in every world), else its text."""
    return move if isinstance(move, KitMove) else str(move)


class MctsBot(Bot):
    """UCT over determinisations (see the module docs).

    Every parameter left out is taken from the game's ``MCTS`` settings (the kit's
    ``Game.MCTS``: what that game plays best with), else from :data:`DEFAULTS`; a
    budget given here (``iterations`` or ``ms``) replaces the game's budget.

    Parameters
    ----------
    seed : int
        The bot's generator (worlds, expansion order, rollouts).
    iterations : int, optional
        Iterations per decision (default 200 when ``ms`` is not given either).
    ms : float, optional
        Wall-clock budget per decision in milliseconds.
    rollout : int
        Random plies after the new node before evaluating (default 8).
    exploration : float
        The UCB1 constant (default 0.7).
    worlds : int, optional
        Determinise this many worlds per decision and search copies of them in turn
        (each with a fresh generator); default: a new world every iteration. A pool
        pays where a determinisation costs much more than a ``copy()``.
    widen : int
        Progressive widening at the root: with ``widen`` > 0 only the best
        ``widen + sqrt(iterations so far)`` moves by one ply of evaluation are
        searched, so a small budget looks deeper into the promising moves where
        many moves are legal (Gandalf's fifty destinations in Ringgeister); 0 (the
        default) searches every move.
    """

    name = "mcts"
    label = "MCTS"
    description = "Monte Carlo tree search (UCT) over sampled worlds of what the player sees"
    PARAMS = (
        BotParam("iterations", int, 200, "iterations per decision (the budget)"),
        BotParam("ms", float, None, "wall-clock budget per decision, in milliseconds"),
        BotParam("rollout", int, 8, "random plies after the new node before evaluating"),
        BotParam("exploration", float, 0.7, "the UCB1 exploration constant"),
        BotParam("worlds", int, None, "sampled worlds per decision, searched in turn"),
        BotParam("widen", int, 0, "progressive widening at the root (0: every move)"),
    )

    #: what a game's ``MCTS`` settings and the bot's own defaults fill in
    DEFAULTS: ClassVar[dict[str, Any]] = {p.name: p.default for p in PARAMS}

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        ms: float | None = None,
        rollout: int | None = None,
        exploration: float | None = None,
        worlds: int | None = None,
        widen: int | None = None,
    ) -> None:
        super().__init__(seed)
        given = {
            "iterations": iterations,
            "ms": ms,
            "rollout": rollout,
            "exploration": exploration,
            "worlds": worlds,
            "widen": widen,
        }
        #: the parameters the spec named; the rest come from the game (``Game.MCTS``)
        self.given = {k: v for k, v in given.items() if v is not None}
        _check(self.given, "mcts")
        self._fallback = GreedyBot(seed)
        self._settle({})

    def _settle(self, preferred: dict[str, Any]) -> None:
        """Take the parameters: the spec's, else the game's ``preferred``, else
        :data:`DEFAULTS`. A budget the spec names (``iterations`` or ``ms``) replaces
        the game's whole budget."""
        if preferred:
            _check(preferred, "the game's MCTS settings")
        if "iterations" in self.given or "ms" in self.given:
            preferred = {k: v for k, v in preferred.items() if k not in ("iterations", "ms")}
        p = {**self.DEFAULTS, **preferred, **self.given}
        if "ms" in self.given and "iterations" not in self.given:
            p["iterations"] = None
        self.iterations: int | None = p["iterations"]
        self.ms: float | None = p["ms"]
        self.rollout: int = p["rollout"]
        self.exploration: float = p["exploration"]
        self.worlds: int | None = p["worlds"]
        self.widen: int = p["widen"]

    def describe(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.ms is not None:
            parts.append(f"ms={self.ms:g}")
        if self.worlds is not None:
            parts.append(f"worlds={self.worlds}")
        if self.widen:
            parts.append(f"widen={self.widen}")
        return f"mcts:{','.join(parts)}"

    def choose(self, game: Game[Any]) -> Any:
        self._settle(type(game).MCTS)
        moves = searched(game)
        if not moves:
            raise IllegalMoveError("no legal move to choose from", code="no_legal_move")
        if len(moves) == 1:
            return moves[0]
        me = game.to_move
        names = seats(game)
        root = _Node(me)
        root_moves: dict[Any, Any] = {_key(m): m for m in moves}
        ranked_keys: list[Any] = list(root_moves)
        allowed: set[Any] = set()
        pool: list[Game[Any]] = []
        base: dict[str, float] | None = None
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        done = 0
        rng = self.rng
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            done += 1
            try:
                g = self._world(game, me, pool, done)
            except CannotDeterminise:
                self._fallback.rng = rng
                return self._fallback.choose(game)
            if base is None:
                base = {s: heuristic(g, s) for s in names}
                # the root's moves are tried best first by one ply of evaluation,
                # so a small budget still sees a winning move among many
                order = one_ply(g, moves, me, names)
                ranked = sorted(range(len(moves)), key=lambda i: -order[i])
                root_moves = {_key(moves[i]): moves[i] for i in ranked}
                ranked_keys = list(root_moves)
            if self.widen:
                allowed = set(ranked_keys[: self.widen + math.isqrt(done)])
            node = root
            path: list[_Node] = []
            # selection and expansion
            while g.outcome is None:
                legal = searched(g)
                if node is root:
                    legal = [m for m in legal if _key(m) in root_moves]
                    if self.widen:
                        legal = [m for m in legal if _key(m) in allowed]
                if not legal:
                    break
                mover = g.to_move
                untried = [m for m in legal if _key(m) not in node.children]
                if untried:
                    if node is root:
                        keys = {_key(m) for m in untried}
                        move = next(m for k, m in root_moves.items() if k in keys)
                    else:
                        move = untried[rng.randrange(len(untried))]
                    child = _Node(mover)
                    node.children[_key(move)] = child
                    if not self._push(g, move):
                        del node.children[_key(move)]
                        break
                    path.append(child)
                    break
                move, child = self._select(node, legal)
                if not self._push(g, move):
                    break
                path.append(child)
                node = child
            # rollout
            for _ in range(self.rollout):
                if g.outcome is not None:
                    break
                legal = searched(g)
                if not legal:
                    break
                self._push(g, legal[rng.randrange(len(legal))])
            # back-up
            if g.outcome is not None:
                value = rewards(g.outcome, names, g)
            else:
                value = {s: reward(g, s, base[s]) for s in names}
            for n in path:
                n.visits += 1
                n.total += value.get(n.player, 0.0)
        best = max(
            moves,
            key=lambda m: (
                root.children[_key(m)].visits if _key(m) in root.children else -1,
                root.children[_key(m)].total if _key(m) in root.children else 0.0,
            ),
        )
        return best

    def _select(self, node: _Node, legal: list[Any]) -> tuple[Any, _Node]:
        """UCB1 over the children legal in this world (availability-counted)."""
        best: tuple[Any, _Node] | None = None
        best_ucb = float("-inf")
        for m in legal:
            c = node.children[_key(m)]
            c.avail += 1
            ucb = (
                c.total / c.visits
                + self.exploration * math.sqrt(math.log(max(c.avail, 1)) / c.visits)
                if c.visits
                else float("inf")
            )
            if ucb > best_ucb:
                best, best_ucb = (m, c), ucb
        assert best is not None
        return best

    def _world(self, game: Game[Any], me: str, pool: list[Game[Any]], done: int) -> Game[Any]:
        """The world iteration ``done`` searches: a new determinisation, or a copy of
        one from the decision's pool (``worlds``) with a fresh generator."""
        if self.worlds is None:
            return determinise(game, me, self.rng)
        if len(pool) < self.worlds:
            pool.append(determinise(game, me, self.rng))
        world = pool[(done - 1) % len(pool)].copy()
        world.rng = Rng(self.rng.getrandbits(64))  # the chance to come, sampled anew
        return world

    @staticmethod
    def _push(g: Game[Any], move: Any) -> bool:
        try:
            g.push(move)
        except IllegalMoveError:
            return False
        return True


#: the largest value of each mcts parameter (an hour a move, ten million iterations)
MOST: dict[str, float] = {
    "iterations": 10_000_000,
    "ms": 3_600_000,
    "rollout": 100_000,
    "exploration": 1_000,
    "worlds": 100_000,
    "widen": 100_000,
}


def _check(params: dict[str, Any], where: str) -> None:
    """Refuse out-of-range mcts parameters (``where`` names whose they are)."""
    least = {"iterations": 1, "worlds": 1, "rollout": 0, "widen": 0, "exploration": 0}
    for key, v in params.items():
        if key not in least and key != "ms":
            raise UsageError(f"{where}: mcts takes {', '.join([*least, 'ms'])}, not {key!r}")
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
            raise UsageError(f"{where}: {key} must be a number, not {v!r}")
        if v is not None and not math.isfinite(v):
            raise UsageError(f"{where}: {key} must be a finite number, not {v}")
        if v is not None and v > MOST[key]:
            raise UsageError(f"{where}: {key} must be at most {MOST[key]:,}, not {v:g}")
    for key, low in least.items():
        v = params.get(key)
        if v is not None and v < low:
            kind = "at least 1" if low == 1 else "0 or more"
            raise UsageError(f"{where}: {key} must be {kind}, not {v}")
    ms = params.get("ms")
    if ms is not None and ms <= 0:
        raise UsageError(f"{where}: ms must be more than 0, not {ms}")
