"""``serve --http`` flags: wired into the serve verb, sharing the flags a stdio server
of the same verb already has, refusing nonsense values with one line."""

from __future__ import annotations

import argparse

import pytest

from referee.cli import build_parser
from referee.errors import UsageError
from referee.net.cli import add_http_arguments, limits_from


def test_the_serve_verb_takes_http_and_its_limits():
    args = build_parser().parse_args(
        ["serve", "--http", "--projects", "projects", "--port", "0", "--moves-per-second", "5"]
    )
    assert args.http and args.projects == "projects" and args.port == 0
    limits = limits_from(args)
    assert limits.moves_per_second == 5 and limits.max_body == 256 * 1024


def test_http_joins_a_transport_group_and_shares_flags_the_verb_has():
    """A serve verb whose stdio server has --projects, --max-games and --idle-timeout
    of its own, and --stdio in a required group of transports."""
    p = argparse.ArgumentParser(exit_on_error=False)
    transport = p.add_mutually_exclusive_group(required=True)
    transport.add_argument("--stdio", action="store_true")
    p.add_argument("--projects", default=".")
    p.add_argument("--max-games", type=int, default=64)
    p.add_argument("--idle-timeout", type=float, default=600.0)
    add_http_arguments(p, transport)
    args = p.parse_args(["--http", "--max-games", "3"])
    assert args.http and not args.stdio and args.projects == "." and args.max_games == 3
    assert limits_from(args).max_games == 3
    with pytest.raises(argparse.ArgumentError):
        p.parse_args(["--http", "--stdio"])


@pytest.mark.parametrize(
    "flags",
    [
        ["--max-body", "10"],
        ["--max-games", "0"],
        ["--moves-per-second", "0"],
        ["--moves-per-second", "nan"],
        ["--moves-per-second", "inf"],
        ["--ws-max-message", "1"],
        ["--idle-timeout", "-1"],
        ["--idle-timeout", "nan"],
    ],
)
def test_nonsense_limits_are_a_usage_error(flags):
    args = build_parser().parse_args(["serve", "--http", "--projects", "projects", *flags])
    with pytest.raises(UsageError):
        limits_from(args)
