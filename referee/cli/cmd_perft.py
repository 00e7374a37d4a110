"""``referee perft PROJECT FIXTURES``: check perft-style fixture counts."""

from __future__ import annotations

import argparse
import sys

from ..store import load_project
from . import emit_json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "perft",
        help="check a fixtures file of counts (moves, reach, components) on a board",
        description="Run every position of FIXTURES (lines 'ID SETUP; MEASURE N; ...', see "
        "referee.perft) on PROJECT and report each mismatch with its line number. "
        "Exit 0 when every count matches, 1 otherwise.",
    )
    p.add_argument("project")
    p.add_argument("fixtures")
    p.add_argument("--json", action="store_true", help="print every outcome as JSON")
    p.set_defaults(func=cmd_perft)


def cmd_perft(args: argparse.Namespace) -> int:
    from ..perft import check_file

    report = check_file(load_project(args.project), args.fixtures)
    if args.json:
        emit_json(
            {
                "project": args.project,
                "fixtures": args.fixtures,
                "ok": report.ok,
                "checks": len(report.outcomes),
                "failures": len(report.failures),
                "outcomes": [o.to_json() for o in report.outcomes],
            }
        )
    else:
        for o in report.failures:
            print(o.describe(args.fixtures))
        print(
            f"{args.fixtures}: {len(report.outcomes) - len(report.failures)} of "
            f"{len(report.outcomes)} checks match",
            file=sys.stderr,
        )
    return 0 if report.ok else 1
