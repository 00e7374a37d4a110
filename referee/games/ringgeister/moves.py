"""Ringgeister moves: small hashable values whose ``str`` is the move's text.

============================  =====================================================
text                          meaning
============================  =====================================================
``<figure> <point>``          move a figure (``hobbit-yellow t07/p3``, ``gandalf p12``)
``home <figure> <point>``     put a defeated figure on a free white starting point
``counter <space>``           place your next mission counter (set-up, variants)
``pass``                      nothing of yours can move
============================  =====================================================

``move hobbit-yellow t07/p3`` is accepted as a synonym of the first form.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import IllegalMoveError

KINDS = ("step", "home", "counter", "pass")


@dataclass(frozen=True)
class Move:
    """``kind`` ∈ step/home/counter/pass; ``figure`` and ``to`` where they apply."""

    kind: str
    figure: str | None = None
    to: str | None = None

    def __str__(self) -> str:
        if self.kind == "step":
            return f"{self.figure} {self.to}"
        if self.kind == "home":
            return f"home {self.figure} {self.to}"
        if self.kind == "counter":
            return f"counter {self.to}"
        return "pass"

    @classmethod
    def parse(cls, text: str) -> Move:
        if not isinstance(text, str):
            raise IllegalMoveError("a move must be text", code="bad_move")
        words = text.split()
        if not words:
            raise IllegalMoveError(
                "empty move (try 'FIGURE POINT', 'home FIGURE POINT', 'counter SPACE' or 'pass')",
                code="bad_move",
            )
        head = words[0].lower()
        if head == "pass" and len(words) == 1:
            return cls("pass")
        if head == "home" and len(words) == 3:
            return cls("home", words[1], words[2])
        if head == "counter" and len(words) == 2:
            return cls("counter", None, words[1])
        if head == "move" and len(words) == 3:
            return cls("step", words[1], words[2])
        if len(words) == 2 and head not in ("home", "counter", "pass", "move"):
            return cls("step", words[0], words[1])
        raise IllegalMoveError(
            f"cannot read move {text!r} (try 'FIGURE POINT', "
            "'home FIGURE POINT', 'counter SPACE' or 'pass')",
            code="bad_move",
        )
