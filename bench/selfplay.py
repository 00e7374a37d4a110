"""Ringgeister self-play speed: the referee against a recompile-and-networkx baseline.

Usage::

    python bench/selfplay.py [--games 20] [--max-moves 1500] [--baseline-moves 150] [--seed 1]
                             [--project projects/ringgeister]

Plays random legal games on the default board (``projects/ringgeister``; a
generated 5 × 5 board when it is missing) and measures, in the same run:

- **referee**: moves validated and applied per second (``Game.push``: ``check`` then
  apply, on the compiled board's integer views, tile turns re-linked incrementally),
  and ``legal_moves`` calls per second (every legal move of the player to move);
- **baseline**: what a naive referee does for every move — recompile the board
  from scratch at the state's tile turns, validate the move by a breadth-first
  search of the networkx graph (``graph.edges(node, data=True)``, node attribute
  dicts), rebuild the game on that fresh compile, and apply. It replays the first
  ``--baseline-moves`` moves of the same games, and its networkx search must agree
  with the referee's destinations on every move (a cross-check of ruling 2–6).

Rates are per second of this process's CPU time (``time.process_time``): the
machine is shared, and CPU time is what "one core" means even when other work
competes for it. Wall-clock rates are printed alongside.

Prints a table, then one JSON line with the figures (the last line).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

from referee.compiler import CompiledBoard, compile_board
from referee.games.ringgeister import Move, RinggeisterGame
from referee.games.ringgeister.sample import sample_board
from referee.model import Board
from referee.store import load_project


def clock() -> float:
    return time.process_time()


def nx_destinations(game: RinggeisterGame, state: dict[str, Any], fid: str) -> set[str]:
    """Where light figure ``fid`` may stop, searched on the networkx graph (rulings 2–6)."""
    g = game.compiled.graph
    occ = {p: f for f, p in state["figures"].items() if p is not None}
    spec = game.specs[game.fidx[fid]]
    start = state["figures"][fid]
    black = {s.id: s for s in game.specs if not s.light}
    card = game.cards[state["cards"]["face_up"]]
    ringbearer = spec.figure == "hobbit" and spec.colour == card.ringbearer
    left = sum(1 for c in state["counters"] if c["colour"] == spec.colour and not c["removed"])
    spider_ok = spec.figure == "hobbit" and left == 0
    sym = card.image if card.image in ("moon", "star") else None
    gandalf = spec.figure == "gandalf"
    doors: dict[str, list[str]] = {}
    for n, d in g.nodes(data=True):
        if d["kind"] == "door" and d.get("symbol"):
            doors.setdefault(d["symbol"], []).append(n)
    seen: set[tuple[str, str | None]] = set()
    queue: deque[tuple[str, str | None]] = deque()

    def extend(node: str, came: str | None) -> None:
        for _, other, key, d in g.edges(node, keys=True, data=True):
            if d["relation"] != "path" or key == came:
                continue
            if d.get("guard") and not spider_ok:
                continue
            if (other, key) not in seen:
                seen.add((other, key))
                queue.append((other, key))

    extend(start, None)
    out: set[str] = set()
    while queue:
        node, came = queue.popleft()
        d = g.nodes[node]
        kind = d["kind"]
        if kind == "point":
            f = occ.get(node)
            if node == start:
                pass
            elif f is None:
                if d.get("goal") and not ringbearer:
                    continue
                out.add(node)
                if not (gandalf and d.get("colour") != "black"):
                    continue
            elif f in black and not (ringbearer and black[f].size < 2):
                continue
        elif kind == "door":
            if d.get("symbol") and d.get("symbol") == sym:
                for other in doors[d["symbol"]]:
                    if other != node and (other, "gallery") not in seen:
                        seen.add((other, "gallery"))
                        queue.append((other, "gallery"))
        elif kind != "junction":
            continue
        extend(node, came)
    return out


def baseline_push(board: Board, state: dict[str, Any], move: Move) -> dict[str, Any]:
    """Recompile, validate by networkx search, rebuild the game, apply; the new state."""
    for p in board.placements:
        p.turns = state["tile_turns"][p.id]
    compiled = compile_board(board)
    compiled._hash = state["board_hash"]  # same board content; the hash covers the turns
    game = RinggeisterGame.from_json(state, compiled)
    if move.kind == "step" and move.to not in nx_destinations(game, state, move.figure or ""):
        raise AssertionError(f"baseline rejects {move}")
    game.push(move)
    return game.to_json()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--max-moves", type=int, default=1500)
    ap.add_argument("--baseline-moves", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--project",
        default=str(Path(__file__).resolve().parent.parent / "projects" / "ringgeister"),
    )
    args = ap.parse_args()

    if os.path.exists(args.project):
        board_name = args.project
        load = lambda: load_project(args.project)  # noqa: E731
    else:
        board_name = "generated 5x5 sample board (seed 0)"
        load = lambda: sample_board(5, 5, 0)  # noqa: E731
    board = load()
    compiled: CompiledBoard = compile_board(board)
    _ = compiled.hash

    # ---------------------------------------------------------------- referee
    rnd = random.Random(args.seed)
    wall0 = time.perf_counter()
    t_push = t_legal = 0.0
    n_push = n_legal = 0
    outcomes: dict[str, int] = {}
    recorded: list[tuple[dict[str, Any], list[Move]]] = []
    for k in range(args.games):
        game = RinggeisterGame.new(
            compiled,
            players=args.players,
            seed=args.seed + k,
            options={"counter_placement": "random"},
        )
        start = game.to_json()
        seq: list[Move] = []
        for _ in range(args.max_moves):
            a = clock()
            moves = list(game.legal_moves)
            t_legal += clock() - a
            n_legal += 1
            if not moves:
                break
            m = rnd.choice(moves)
            a = clock()
            game.push(m)
            t_push += clock() - a
            n_push += 1
            seq.append(m)
            if game.outcome is not None:
                break
        res = (game.outcome or {}).get("result", "unfinished")
        outcomes[res] = outcomes.get(res, 0) + 1
        recorded.append((start, seq))
    fast_moves = n_push / t_push
    fast_legal = n_legal / t_legal
    fast_wall = time.perf_counter() - wall0

    # ---------------------------------------------------------------- baseline
    base_board = load()
    wall1 = time.perf_counter()
    t_base = 0.0
    n_base = 0
    agree = 0
    per_game = max(1, args.baseline_moves // max(1, len(recorded)))
    for start, seq in recorded:
        fast = RinggeisterGame.from_json(start, compiled)
        state = start
        for m in seq[:per_game]:
            fast.push(m)
            a = clock()
            state = baseline_push(base_board, state, m)
            t_base += clock() - a
            n_base += 1
            if state == fast.to_json():
                agree += 1
            if n_base >= args.baseline_moves:
                break
        if n_base >= args.baseline_moves:
            break
    base_moves = n_base / t_base
    base_wall = time.perf_counter() - wall1
    ratio = fast_moves / base_moves

    rows = [
        ("board", board_name),
        ("games / moves (referee)", f"{args.games} / {n_push}"),
        ("outcomes", ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))),
        ("referee: moves validated+applied /s", f"{fast_moves:,.0f}"),
        ("referee: legal_moves calls /s", f"{fast_legal:,.0f}"),
        ("baseline: moves /s (recompile + networkx)", f"{base_moves:,.1f}  ({n_base} moves)"),
        ("baseline states equal to referee's", f"{agree} / {n_base}"),
        ("speed-up (moves)", f"{ratio:,.0f}x"),
        (
            "wall clock: referee run / baseline run",
            f"{fast_wall:.1f} s / {base_wall:.1f} s (shared machine)",
        ),
        (
            "targets",
            f">= 5,000 moves/s: {'yes' if fast_moves >= 5000 else 'NO'};  "
            f">= 20x baseline: {'yes' if ratio >= 20 else 'NO'}",
        ),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  value")
    print(f"{'-' * width}  {'-' * 30}")
    for a, b in rows:
        print(f"{a:<{width}}  {b}")
    print(
        json.dumps(
            {
                "bench": "ringgeister_selfplay",
                "board": board_name,
                "games": args.games,
                "moves": n_push,
                "outcomes": outcomes,
                "moves_per_second": round(fast_moves, 1),
                "legal_moves_calls_per_second": round(fast_legal, 1),
                "baseline_moves_per_second": round(base_moves, 2),
                "baseline_moves": n_base,
                "baseline_agrees": agree,
                "speedup": round(ratio, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
