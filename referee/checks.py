"""Board checks and counts that a rules module adds to ``referee check`` and ``referee info``.

A rules module declares them in its :class:`~referee.games.registry.RulesModule`:
``board_checks`` (``check(compiled) -> list[Problem]``) and ``board_counts``
(``counts(compiled) -> {name: count}``).
"""

from __future__ import annotations

from .compiler import CompiledBoard, Problem
from .games import available, get_module


def rules_problems(rules: str, compiled: CompiledBoard) -> list[Problem]:
    """The problems the rules module ``rules`` finds on ``compiled`` (its
    ``board_checks``); a warning when no such module is installed."""
    if rules not in available():
        return [
            Problem.make(
                "rules_check",
                f"board declares unknown rules {rules!r} "
                f"(known: {', '.join(available()) or 'none'})",
                None,
                None,
                severity="warning",
            )
        ]
    return [p for check in get_module(rules).board_checks for p in check(compiled)]


def rules_counts(rules: str | None, compiled: CompiledBoard) -> dict[str, int]:
    """A rules module's own board counts (its ``board_counts``), or ``{}``."""
    if not rules or rules not in available():
        return {}
    counts = get_module(rules).board_counts
    return dict(counts(compiled)) if counts is not None else {}
