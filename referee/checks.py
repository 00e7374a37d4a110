"""Board checks that a rules module adds to ``referee check``.

A rules module lists them in its :class:`~referee.games.registry.RulesModule`
(``board_checks``); a built-in subpackage not converted to the kit yet may still
define ``board_problems(compiled) -> list[Problem]`` in its ``checks`` module.
"""

from __future__ import annotations

import importlib

from .compiler import CompiledBoard, Problem
from .games import available, get_module


def rules_problems(rules: str, compiled: CompiledBoard) -> list[Problem]:
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
    declared = get_module(rules).board_checks
    if declared:
        return [p for check in declared for p in check(compiled)]
    try:
        mod = importlib.import_module(f"referee.games.{rules.replace('-', '_')}.checks")
    except ModuleNotFoundError:
        return []
    return list(mod.board_problems(compiled))


def rules_counts(rules: str | None, compiled: CompiledBoard) -> dict[str, int]:
    """A rules module's own board counts (``board_counts`` in its ``checks``), or ``{}``."""
    if not rules or rules not in available():
        return {}
    try:
        mod = importlib.import_module(f"referee.games.{rules.replace('-', '_')}.checks")
    except ModuleNotFoundError:
        return {}
    fn = getattr(mod, "board_counts", None)
    return dict(fn(compiled)) if fn is not None else {}
