"""``referee balance``: a balance study between bots, stored, reported, compared."""

from __future__ import annotations

import argparse
import sys

from ..balance import make_engine
from ..balance.report import text
from ..balance.study import Study, run_study
from ..bots import parse_bots
from . import emit_json
from .options import VARIANT_HELP, parse_options


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "balance",
        help="play many seeded games between bots and report on the board's balance",
        description="Play GAMES seeded games of RULES on PROJECT between bots, store each "
        "result in SQLite as it finishes (a re-run resumes; Ctrl-C keeps what finished), "
        "and report win rates per seat with 95 % intervals, the first player's "
        "advantage, game lengths, how games end, how often each rule fires, and a heat "
        "map of where figures went, drawn on the board. --compare plays the same seeds "
        "on a second board and reports the differences with p-values.",
    )
    p.add_argument("rules")
    p.add_argument("project")
    p.add_argument("--games", type=int, default=100, help="games per board (default 100)")
    p.add_argument("--bots", required=True, help="one bot per seat, e.g. mcts,random")
    p.add_argument("--players", type=int, help="seats (default: the number of --bots, min 2)")
    p.add_argument("--seed", type=int, default=0, help="first seed (game k uses seed+k)")
    p.add_argument("--variant", metavar="V", help=VARIANT_HELP)
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument(
        "--fixed-seats",
        action="store_true",
        help="bot k always in seat k (default: seats rotate, game k seating bot j in "
        "seat j+k, so each bot plays each seat equally often and the report tells seat "
        "advantage from bot strength)",
    )
    p.add_argument(
        "--stop-early",
        choices=("bots", "seats"),
        help="stop once some bot's (seat's) share of the games won by one alone is "
        "clearly not its fair share: looked at every --look games, at most 5 %% chance "
        "overall of stopping on a difference that is not there (default: play all)",
    )
    p.add_argument(
        "--margin",
        type=float,
        help="with --stop-early: also stop once every share is within fair share ± "
        "MARGIN (0.05: five points), at most 5 %% chance of missing a larger difference",
    )
    p.add_argument(
        "--look", type=int, default=20, help="games between looks of --stop-early (default 20)"
    )
    p.add_argument("--max-moves", type=int, default=3000, help="per game (default 3000)")
    p.add_argument(
        "--db", default="balance.sqlite", help="results database (default balance.sqlite)"
    )
    p.add_argument("--out", help="write report.json, report.txt and heatmap.svg/png here")
    p.add_argument("--engine", choices=("local", "dask"), default="local")
    p.add_argument("--scheduler", help="Dask scheduler address, tcp://HOST:8786")
    p.add_argument("--workers", type=int, help="local processes (default: one per CPU)")
    p.add_argument(
        "--compare", metavar="OTHER_PROJECT", help="run the same seeds on this board too"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_balance)


def cmd_balance(args: argparse.Namespace) -> int:
    n_specs = len(
        [
            s
            for s in args.bots.replace(";", ",").split(",")
            if s.strip() and "=" not in s.split(":")[0]
        ]
    )
    players = args.players or max(2, n_specs)
    specs = tuple(parse_bots(args.bots, players))
    engine = make_engine(args.engine, workers=args.workers, scheduler=args.scheduler)
    study = Study(
        args.rules,
        args.project,
        players,
        args.games,
        specs,
        seed=args.seed,
        options=parse_options(args.option, args.variant, args.rules),
        max_moves=args.max_moves,
        seating="fixed" if args.fixed_seats else "rotate",
        stop_early=args.stop_early,
        look=args.look,
        margin=args.margin,
    )
    report = run_study(
        study,
        db=args.db,
        engine=engine,
        compare_project=args.compare,
        out_dir=args.out,
        progress=True,
    )
    if args.json:
        emit_json(report)
    else:
        print(text(report))
    print(f"results in {args.db}", file=sys.stderr)
    return 0
