"""Helpers shared by the Ringgeister rule tests (``test_rules_*.py``).

Each rule test quotes the rule it checks. Positions are set up explicitly with
:func:`boards.position`; the referee is asked through its public interface
(``legal_moves``, ``push``, ``check``), and rejected moves must leave the state
exactly as it was.
"""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError

from .boards import B


def reject(game, text: str, code: str) -> IllegalMoveError:
    """Push ``text``, expect a rejection with ``code`` and an unchanged state."""
    before = game.to_json()
    with pytest.raises(IllegalMoveError) as info:
        game.push_text(text)
    assert info.value.code == code, info.value.message
    assert info.value.message
    assert game.to_json() == before
    return info.value


def line(*names: str, step: float = 20.0, y: float = 0.0, black: tuple[str, ...] = ()) -> B:
    b = B()
    for k, n in enumerate(names):
        b.pt(n, k * step, y, "black" if n in black else "grey")
    return b.path(*names)


def wake(b: B, x: float, y: float) -> B:
    """A trigger below (x, y): the man-yellow on M steps to T, whose wind points north."""
    return b.pt("T", x, y + 60, wind="N").pt("M", x, y + 80).path("M", "T")
