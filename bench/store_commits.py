"""How long the game store's commits take, one move per commit (issue 30).

Writes ``--moves`` moves of ``--games`` games through
:meth:`referee.net.store.GameStore.record_moves`, one move per transaction (the
server's group commit at its smallest), a state snapshot every 8th ply of a game,
and times each commit: mean, p99, p99.9, the longest, how many took over 2 ms, and
the write-ahead log's size at the end. A slow commit holds its whole group of
moves, and the store's lock, for that long.

The store of ``--baseline-ref`` (default bc92ced, whose commits ran SQLite's own
checkpoint: the log copied back into the database inside whichever commit took it
past 1,000 pages) runs the same writes in a process of its own, alternating with
this tree's, ``--runs`` times each; each figure is the best (lowest) run's.

Run: ``python bench/store_commits.py [--games 1000] [--moves 30000] [--runs 2]
[--baseline-ref bc92ced]``. Prints a table; the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import baseline_root

ROOT = Path(__file__).resolve().parent.parent
BASELINE_REF = "bc92ced"
STATE = {"pieces": "x" * 1600}  # the size of a server_load game's state
FIGURES = ("mean_us", "p99_us", "p999_us", "max_us", "over_2ms", "wal_mb")


def child(games: int, moves: int) -> dict[str, Any]:
    """The writes, timed, with the ``referee`` first on ``sys.path``."""
    from referee.net.store import GameRecord, GameStore, MoveRecord

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.sqlite"
        st = GameStore(path)
        for i in range(games):
            st.add_game(
                GameRecord(
                    id=f"g{i}",
                    rules="ringgeister",
                    project="ringgeister",
                    board_hash="h",
                    seats=["a", "b"],
                    token_hashes={},
                    seed=i,
                    options={},
                    position=None,
                    setup_events=[],
                    state=STATE,
                )
            )
        plies = [0] * games
        took: list[float] = []
        for k in range(moves):
            g = k % games
            plies[g] += 1
            snap = STATE if plies[g] % 8 == 0 else None
            rec = MoveRecord(
                f"g{g}", plies[g], "a", "move e1 e2", [{"type": "moved"}], snap, "b", None
            )
            t = time.perf_counter()
            st.record_moves([rec])
            took.append(time.perf_counter() - t)
        wal = os.path.getsize(f"{path}-wal")
        st.close()
    took.sort()
    n = len(took)
    return {
        "mean_us": round(sum(took) / n * 1e6, 1),
        "p99_us": round(took[int(n * 0.99)] * 1e6, 1),
        "p999_us": round(took[int(n * 0.999)] * 1e6, 1),
        "max_us": round(took[-1] * 1e6, 1),
        "over_2ms": sum(t > 0.002 for t in took),
        "wal_mb": round(wal / 1e6, 1),
    }


def run(root: Path, games: int, moves: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(games), str(moves)],
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(child(int(sys.argv[2]), int(sys.argv[3]))))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games (default 1000)")
    ap.add_argument("--moves", type=int, default=30000, help="moves in all (default 30000)")
    ap.add_argument("--runs", type=int, default=2, help="runs of each store, alternating")
    ap.add_argument(
        "--baseline-ref",
        default=BASELINE_REF,
        help=f"commit whose store is the baseline (default {BASELINE_REF}; 'none': no baseline)",
    )
    args = ap.parse_args()
    if not 1 <= args.games <= 100_000 or not 1 <= args.moves <= 1_000_000:
        ap.error("--games must be 1..100000 and --moves 1..1000000")
    if not 1 <= args.runs <= 10:
        ap.error("--runs must be 1..10")
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        old_root = baseline_root(ap, args.baseline_ref, Path(tmp))
        old_runs: list[dict[str, Any]] = []
        new_runs: list[dict[str, Any]] = []
        for _ in range(args.runs):
            if old_root is not None:
                old_runs.append(run(old_root, args.games, args.moves))
            new_runs.append(run(ROOT, args.games, args.moves))
    new = {k: min(r[k] for r in new_runs) for k in FIGURES}
    old = {k: min(r[k] for r in old_runs) for k in FIGURES} if old_runs else None
    print(
        f"store_commits: {args.moves} moves of {args.games} games, one a commit, best of "
        f"{args.runs}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(f"{'figure':12} {'baseline ' + args.baseline_ref:>18} {'this tree':>12} {'ratio':>8}")
    for k in FIGURES:
        a = old[k] if old is not None else ""
        ratio = f"{new[k] / a:.2f}x" if isinstance(a, (int, float)) and a else ""
        print(f"{k:12} {a!s:>18} {new[k]!s:>12} {ratio:>8}")
    out: dict[str, Any] = {
        "benchmark": "store_commits",
        "games": args.games,
        "moves": args.moves,
        "runs": args.runs,
        "load_average": [round(x, 2) for x in load],
        "this": new,
    }
    if old is not None:
        out["baseline_ref"] = args.baseline_ref
        out["baseline"] = old
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
