"""Bots in the game verbs: ``referee selfplay --bots …`` and ``referee play STATE --bot …``.

The game verbs (:mod:`.cmd_game`) add the options (:func:`add_selfplay_bots`, :func:`add_play_bot`)
and hands over to :func:`cmd_selfplay_bots` / :func:`cmd_play_bot` when they are given.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..balance.report import summarise
from ..balance.runner import Job, play
from ..balance.study import MAX_GAMES, MAX_MOVES
from ..bots import make_bot, parse_bots
from ..envelopes import game_of, load_envelope, record_move, save_envelope
from ..errors import UsageError
from . import emit_json
from .options import parse_options

_BOTS_HELP = (
    "one bot per seat, comma-separated (random, greedy, mcts, mcts:iterations=200, "
    "mcts:ms=50; one name for every seat); separate specs with ';' when they carry "
    "several parameters"
)


def add_selfplay_bots(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bots", metavar="SPECS", help=_BOTS_HELP)


def add_play_bot(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bot",
        metavar="SPEC",
        help="print the move this bot chooses for the player to move (no MOVE needed; "
        "with -o the move is also played)",
    )
    p.add_argument("--bot-seed", type=int, default=0, help="the bot's seed (default 0)")


def cmd_selfplay_bots(args: argparse.Namespace) -> int:
    """``selfplay --bots``: seeded games between bots; outcomes per seat."""
    if not (1 <= args.games <= MAX_GAMES and 1 <= args.max_moves <= MAX_MOVES):
        raise UsageError(f"--games and --max-moves must be from 1 to {MAX_GAMES:,}")
    specs = tuple(parse_bots(args.bots, args.players))
    opts = parse_options(args.option, args.variant, args.rules)
    records = []
    t0 = time.perf_counter()
    for k in range(args.games):
        job = Job(
            args.rules,
            args.project,
            args.players,
            args.seed + k,
            specs,
            dict(opts),
            args.max_moves,
        )
        records.append(play(job))
        print(f"\rselfplay: {k + 1}/{args.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    s = summarise(records)
    rep: dict[str, Any] = {
        "rules": args.rules,
        "project": args.project,
        "games": args.games,
        "bots": list(specs),
        "results": s["results"],
        "win_rate": s["win_rate"],
        "moves": sum(r["moves"] for r in records),
        "seconds": round(time.perf_counter() - t0, 3),
        "endings": s["endings"],
    }
    if args.json:
        emit_json(rep)
        return 0
    print(
        f"{rep['games']} game(s) of {rep['rules']} on {rep['project']} between "
        f"{', '.join(specs)}: {rep['moves']} moves in {rep['seconds']} s"
    )
    print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in rep["results"].items()))
    for name, w in rep["win_rate"].items():
        lo, hi = w["ci95"]
        print(
            f"  seat {w['seat']} {name} ({w['bot']}): won {w['wins']}/{w['games']} "
            f"[{100 * lo:.1f} %, {100 * hi:.1f} %]"
        )
    return 0


def cmd_play_bot(args: argparse.Namespace) -> int:
    """``play STATE --bot SPEC``: the bot's move for the player to move."""
    if args.move is not None:
        raise UsageError("give either MOVE or --bot, not both")
    bot = make_bot(args.bot, args.bot_seed)
    env = load_envelope(args.state)
    game = game_of(env, args.project, where=args.state)
    game.check_viewer(args.view)
    if game.outcome is not None:
        raise UsageError(f"{args.state}: the game is over ({json.dumps(game.outcome.to_json())})")
    player = game.to_move
    move = bot.choose(game)
    out: dict[str, Any] = {"player": player, "bot": bot.describe(), "move": str(move)}
    if args.output:
        events = game.push(move)
        record_move(env, game, str(move), events)
        save_envelope(args.output, env)
        out["events"] = events if args.view is None else game.events_for(events, args.view)
    if args.json:
        emit_json(out)
    else:
        print(str(move))
        print(f"{bot.describe()} plays for {player}", file=sys.stderr)
    return 0
