"""Every verb of the CLI is fuzzed: in the board-verb runs, the state runs or the flag table."""

from __future__ import annotations

import argparse

from .verbs import BAD_FLAGS, BOARD_VERBS


def test_the_fuzz_suite_covers_every_verb(tmp_path):
    """A verb added to the CLI must be added to the hostile-input runs (verbs.py)."""
    from referee.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    covered = {argv("p", tmp_path)[0] for _, argv in BOARD_VERBS}
    covered |= {"moves", "play", "replay", "position"}  # the hostile-state test
    covered |= {args[0] for args, _ in BAD_FLAGS}  # serve, and the flags of the others
    assert set(sub.choices) <= covered, set(sub.choices) - covered
