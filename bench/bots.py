"""Do the bots play? Seeded games between bots, with 95 % intervals (issue 19).

Checks, each over ``--games`` seeded games (the issue asks for at least 400):

- ``mcts`` beats ``random`` in Ringgeister (2 players) and Riddle of the Ring
  (2 players): mcts sits in seat 1 for even seeds and seat 2 for odd ones; its win
  rate and random's are compared (two-proportion z-test);
- Riddle of the Ring with ``greedy`` in both seats: at least half the games end with
  a winner before the round limit (``--riddle-rounds``);
- the two cooperative games: ``mcts`` in every seat wins at least 5 times as often
  as ``random`` in every seat, and at least 1 % of games.

Also measures ``copy()`` and ``push()`` of a mid-game state for every game (the
search lives on them). Games run on the local engine (``--workers`` processes).
Prints a table and, as the last line, one JSON object with the figures.

Usage::

    python bench/bots.py                       # 400 games per check (hours on 2 cores)
    python bench/bots.py --games 40 --workers 2 --iterations 60
    python bench/bots.py --only ringgeister --workers 2   # 400 games, ~25 min on 2 cores
    python bench/bots.py --only coop --workers 2 --iterations 40 --rollout 6
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.balance.engines import LocalEngine  # noqa: E402
from referee.balance.runner import Job, board  # noqa: E402
from referee.balance.stats import two_proportion_z, wilson  # noqa: E402
from referee.games import get_game  # noqa: E402


def spec_of(rules: str) -> str:
    """The explicit mcts spec of the settings ``rules`` declares (``Game.MCTS``)."""
    settings = get_game(rules).MCTS
    return "mcts:" + ",".join(f"{k}={v}" for k, v in settings.items())


#: the Ringgeister bot the 400-game check runs (the game's own MCTS settings: the
#: evaluation at the leaves, a small exploration constant, four sampled pile orders
#: per decision, the root widened from the best four moves)
RINGGEISTER_MCTS = spec_of("ringgeister")
#: Ringgeister games the bots have not finished by then end unfinished (nobody wins):
#: most wins come within a few hundred moves, and the longest games cost the most
RINGGEISTER_MAX_MOVES = 800
#: the cooperative game's bot (its own MCTS settings: the evaluation at the leaves,
#: no random play-out — random play wastes any-time cards and payments: 20 of 40
#: games won, against 10 of the same 40 with rollout=6, at 0.9 CPU s a game, not 2.3)
LOTR_COOP_MCTS = spec_of("lotr-coop")

GAMES = {
    "ringgeister": ("ringgeister", 2, {"counter_placement": "random"}),
    "riddle": ("riddle-sample", 2, {}),
    "mount-doom": ("mount-doom", 3, {}),
    "lotr-coop": ("lotr-coop", 3, {}),
}


def timings(rules: str, plies: int = 40, reps: int = 30, rounds: int = 5) -> dict[str, float]:
    """µs of ``copy()`` and of ``push()`` (on a copy) in a mid-game state: the mean
    over ``reps`` calls, best of ``rounds`` rounds (as :mod:`timeit` advises, so a
    collector pause or another process's burst does not count)."""
    project, players, options = GAMES[rules]
    g = get_game(rules).new(
        board(str(ROOT / "projects" / project)), players=players, seed=7, options=dict(options)
    )
    rnd = random.Random(7)
    for _ in range(plies):
        moves = list(g.legal_moves)
        if g.outcome is not None or not moves:
            break
        g.push(moves[rnd.randrange(len(moves))])
    moves = list(g.legal_moves)
    best_copy = best_push = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        copies = [g.copy() for _ in range(reps)]
        best_copy = min(best_copy, (time.perf_counter() - t0) / reps)
        t_push = 0.0
        for k, c in enumerate(copies):
            m = moves[k % len(moves)]
            a = time.perf_counter()
            c.push(m)
            t_push += time.perf_counter() - a
        best_push = min(best_push, t_push / reps)
    return {"copy_us": round(best_copy * 1e6, 1), "push_us": round(best_push * 1e6, 1)}


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and its finished workers."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def run(jobs: list[Job], workers: int) -> list[dict[str, Any]]:
    out = []
    for k, (_, rec) in enumerate(LocalEngine(workers).run(jobs), 1):
        out.append(rec)
        print(
            f"\r  {jobs[0].rules} {'/'.join(sorted(set(jobs[0].bots)))}: {k}/{len(jobs)}",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return out


def rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {
        "wins": k,
        "games": n,
        "rate": round(k / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def head_to_head(
    rules: str, mcts: str, n: int, workers: int, options: dict[str, Any], max_moves: int
) -> dict[str, Any]:
    project, players, base = GAMES[rules]
    jobs = [
        Job(
            rules,
            str(ROOT / "projects" / project),
            players,
            s,
            (mcts, "random") if s % 2 == 0 else ("random", mcts),
            {**base, **options},
            max_moves,
        )
        for s in range(n)
    ]
    cpu = cpu_seconds()
    recs = run(jobs, workers)
    cpu = cpu_seconds() - cpu
    mw = sum(1 for r in recs for w in r["winners"] if r["bots"][r["seats"].index(w)] == mcts)
    rw = sum(1 for r in recs for w in r["winners"] if r["bots"][r["seats"].index(w)] == "random")
    z, p = two_proportion_z(mw, n, rw, n)
    return {
        "mcts": rate(mw, n),
        "random": rate(rw, n),
        "z": round(z, 3),
        "p": float(f"{p:.3g}"),
        "pass": mw > rw and p < 0.05,
        "mean_moves": round(sum(r["moves"] for r in recs) / n, 1),
        "cpu_s_per_game": round(cpu / n, 2),
        "endings": endings(recs),
    }


def endings(recs: list[dict[str, Any]]) -> dict[str, int]:
    """How the games ended (the outcome's reason), counted."""
    out: dict[str, int] = {}
    for r in recs:
        key = str(r.get("ending") or r.get("result") or "?")
        out[key] = out.get(key, 0) + 1
    return out


def winner_rate(
    rules: str,
    bots: tuple[str, ...],
    n: int,
    workers: int,
    options: dict[str, Any],
    max_moves: int,
    seed0: int = 0,
) -> dict[str, Any]:
    project, players, base = GAMES[rules]
    jobs = [
        Job(
            rules,
            str(ROOT / "projects" / project),
            players,
            seed0 + s,
            bots,
            {**base, **options},
            max_moves,
        )
        for s in range(n)
    ]
    cpu = cpu_seconds()
    recs = run(jobs, workers)
    cpu = cpu_seconds() - cpu
    k = sum(1 for r in recs if r["winners"])
    return {
        **rate(k, n),
        "mean_moves": round(sum(r["moves"] for r in recs) / n, 1),
        "cpu_s_per_game": round(cpu / n, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games per check (default 400)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=100, help="mcts iterations per move")
    ap.add_argument("--rollout", type=int, default=8)
    ap.add_argument("--riddle-rounds", type=int, default=60, help="Riddle round limit")
    ap.add_argument(
        "--ringgeister-iterations",
        type=int,
        default=None,
        help="mcts iterations in Ringgeister (default: --ringgeister-mcts's)",
    )
    ap.add_argument(
        "--ringgeister-rollout",
        type=int,
        default=None,
        help="mcts rollout plies in Ringgeister (default: --ringgeister-mcts's)",
    )
    ap.add_argument(
        "--ringgeister-exploration",
        type=float,
        default=None,
        help="mcts UCB1 constant in Ringgeister (default: --ringgeister-mcts's)",
    )
    ap.add_argument(
        "--ringgeister-mcts",
        default=RINGGEISTER_MCTS,
        help=f"the whole mcts spec in Ringgeister (default {RINGGEISTER_MCTS}); "
        "the --ringgeister-* numbers above override its parts",
    )
    ap.add_argument(
        "--ringgeister-max-moves",
        type=int,
        default=RINGGEISTER_MAX_MOVES,
        help=f"move limit of a Ringgeister game (default {RINGGEISTER_MAX_MOVES})",
    )
    ap.add_argument(
        "--lotr-coop-mcts",
        default=LOTR_COOP_MCTS,
        help=f"the mcts spec in the cooperative Lord of the Rings game (default "
        f"{LOTR_COOP_MCTS}); Mount Doom plays --iterations/--rollout",
    )
    ap.add_argument("--max-moves", type=int, default=1500)
    ap.add_argument("--only", help="comma-separated checks: ringgeister,riddle,riddle-winner,coop")
    args = ap.parse_args()
    only = (
        set(args.only.split(","))
        if args.only
        else {"ringgeister", "riddle", "riddle-winner", "coop"}
    )
    mcts = f"mcts:iterations={args.iterations},rollout={args.rollout}"
    n = args.games
    out: dict[str, Any] = {"games": n, "mcts": mcts, "timings": {}, "checks": {}}
    t_start = time.perf_counter()
    for rules in GAMES:
        out["timings"][rules] = timings(rules)
    checks = out["checks"]
    if "ringgeister" in only:
        parts = dict(
            p.split("=", 1) for p in args.ringgeister_mcts.split(":", 1)[1].split(",") if p
        )
        if args.ringgeister_iterations is not None:
            parts["iterations"] = str(args.ringgeister_iterations)
        if args.ringgeister_rollout is not None:
            parts["rollout"] = str(args.ringgeister_rollout)
        if args.ringgeister_exploration is not None:
            parts["exploration"] = f"{args.ringgeister_exploration:g}"
        checks["ringgeister_mcts_vs_random"] = head_to_head(
            "ringgeister",
            "mcts:" + ",".join(f"{k}={v}" for k, v in parts.items()),
            n,
            args.workers,
            {},
            args.ringgeister_max_moves,
        )
    if "riddle" in only:
        checks["riddle_mcts_vs_random"] = head_to_head(
            "riddle", mcts, n, args.workers, {"turn_limit": args.riddle_rounds}, args.max_moves
        )
    if "riddle-winner" in only:
        r = winner_rate(
            "riddle",
            ("greedy", "greedy"),
            n,
            args.workers,
            {"turn_limit": args.riddle_rounds},
            args.max_moves,
        )
        checks["riddle_greedy_winner_before_limit"] = {
            **r,
            "pass": r["ci95"][0] >= 0.5 or r["rate"] >= 0.5,
        }
    if "coop" in only:
        for rules in ("mount-doom", "lotr-coop"):
            spec = args.lotr_coop_mcts if rules == "lotr-coop" else mcts
            m = {"bot": spec, **winner_rate(rules, (spec,), n, args.workers, {}, args.max_moves)}
            r = winner_rate(rules, ("random",), n, args.workers, {}, args.max_moves)
            ratio = m["rate"] / r["rate"] if r["rate"] else None
            checks[f"{rules}_mcts_vs_random"] = {
                "mcts": m,
                "random": r,
                "ratio": ratio,
                "pass": m["rate"] >= 0.01 and (r["wins"] == 0 or m["rate"] >= 5 * r["rate"]),
            }
    out["seconds"] = round(time.perf_counter() - t_start, 1)
    coop = f" (the cooperative game: {args.lotr_coop_mcts})" if "coop" in only else ""
    print(f"bots benchmark: {n} seeded games per check, {mcts}{coop}, {args.workers} worker(s)")
    print(f"{'game':<12} {'copy() µs':>10} {'push() µs':>10}")
    for rules, t in out["timings"].items():
        print(f"{rules:<12} {t['copy_us']:>10} {t['push_us']:>10}")
    print(f"{'check':<36} {'result':<52} pass")

    def fmt(r: dict[str, Any]) -> str:
        return f"{100 * r['rate']:.1f} % [{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}]"

    for name, c in checks.items():
        if "mcts" in c and "random" in c:
            extra = f"p={c['p']}" if "p" in c else f"ratio={c['ratio']}"
            line = f"mcts {fmt(c['mcts'])} vs random {fmt(c['random'])} {extra}"
        else:
            line = f"a winner in {fmt(c)}"
        print(f"{name:<36} {line:<52} {'yes' if c['pass'] else 'NO'}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
