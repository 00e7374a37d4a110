"""Searching the default board's starting turns (``build.py --search``).

:func:`search_turns` hill-climbs the turns; :func:`save_default_turns` writes the
result into :data:`.layout.DEFAULT_TURNS`, where the next plain build reads it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from referee.compiler import CompiledBoard, compile_board
from referee.games.ringgeister.checks import board_problems, light_reach
from referee.model import Board

from . import layout

#: how the turns start in layout.py (and how save_default_turns writes them)
TURNS_HEADER = "DEFAULT_TURNS: dict[str, int] = {"


def score(compiled: CompiledBoard) -> tuple[int, int, int, int]:
    """How good a set of starting turns is; higher is better, compared in order.

    (−errors including the Ringgeister checks, goal reachable by light figures
    without passing a black starting point, −warnings, points reachable from the
    white starting points).
    """
    g = compiled.graph
    probs = list(compiled.problems) + board_problems(compiled)
    warnings = sum(p.severity == "warning" and not p.code.endswith("goal_blocked") for p in probs)
    errors = sum(p.severity == "error" for p in probs)
    black_starts = {n for n, d in g.nodes(data=True) if d.get("start") == "black"}
    reach = light_reach(compiled)
    free = light_reach(compiled, black_starts)
    goal_free = any(g.nodes[n].get("goal") for n in free)
    pts = sum(1 for n in reach if g.nodes[n]["kind"] == "point")
    return (-errors, int(goal_free), -warnings, pts)


def search_turns(board: Board, seed: int = 7, restarts: int = 24) -> dict[str, int]:
    """Hill-climb the starting turns of all tiles for a connected, tidy board.

    Notes
    -----
    Each step tries the three other turns of every tile through the incremental
    :meth:`~referee.compiler.CompiledBoard.turn` and keeps the best; O(restarts ×
    rounds × 3 × tiles) re-links, some 15 s of CPU in all.
    """
    rnd = random.Random(seed)
    best_turns: dict[str, int] = {}
    best: tuple[int, int, int, int] | None = None
    pids = [p.id for p in board.placements]
    for _ in range(restarts):
        b = board.copy()
        for p in b.placements:
            p.turns = rnd.randrange(4)
        cb = compile_board(b)
        cur = score(cb)
        improved = True
        while improved:
            improved = False
            for pid in rnd.sample(pids, len(pids)):
                p = b.placement(pid)
                orig = p.turns
                best_t, best_s = orig, cur
                for t in range(4):
                    if t == orig:
                        continue
                    cb.turn(pid, t)
                    s = score(cb)
                    if s > best_s:
                        best_t, best_s = t, s
                cb.turn(pid, best_t)
                if best_t != orig:
                    cur, improved = best_s, True
        print(f"  restart: score {cur}", file=sys.stderr)
        if best is None or cur > best:
            best, best_turns = cur, {p.id: p.turns for p in b.placements}
    print(f"best score {best}", file=sys.stderr)
    return best_turns


def save_default_turns(turns: dict[str, int], path: Path | None = None) -> Path:
    """Write ``turns`` as the ``DEFAULT_TURNS`` literal of ``path`` (default layout.py).

    The literal is replaced whole, from its header to its closing brace, and written
    one entry a line as ``ruff format`` leaves it, so the file stays formatted.

    Returns
    -------
    Path
        The file written.
    """
    me = Path(layout.__file__) if path is None else path
    text = me.read_text(encoding="utf-8")
    start = text.index(TURNS_HEADER)
    end = text.index("\n}", start) + 2
    body = "".join(f'    "{pid}": {turns[pid]},\n' for pid in sorted(turns))
    me.write_text(text[:start] + TURNS_HEADER + "\n" + body + "}" + text[end:], encoding="utf-8")
    return me
