"""Ringgeister moves: kit :class:`~referee.games.moves.Move` values.

============================  =====================================================
text                          meaning
============================  =====================================================
``<figure> <point>``          move a figure (``hobbit-yellow t07/p3``, ``gandalf p12``)
``home <figure> <point>``     put a defeated figure on a free white starting point
``counter <space>``           place your next mission counter (set-up, variants)
``pass``                      nothing of yours can move
============================  =====================================================

The first form has the implied verb ``step`` (``Move("step", "gandalf", "p12")``);
``move hobbit-yellow t07/p3`` and ``step hobbit-yellow t07/p3`` are read as it too.
"""

from __future__ import annotations

from typing import ClassVar

from ..moves import Move as KitMove

KINDS = ("step", "home", "counter", "pass")


class Move(KitMove):
    """A Ringgeister move: ``verb`` ∈ step/home/counter/pass and its words.

    ``kind``, ``figure`` and ``to`` read the words: ``Move("step", fid, point)``,
    ``Move("home", fid, point)``, ``Move("counter", space)``, ``Move("pass")``.
    """

    __slots__ = ()

    VERBS: ClassVar[dict[str, int | tuple[int, int]]] = {
        "step": 2,
        "move": 2,
        "home": 2,
        "counter": 1,
        "pass": 0,
    }
    IMPLIED_VERB: ClassVar[str | None] = "step"

    @property
    def kind(self) -> str:
        """``step``, ``home``, ``counter`` or ``pass`` (the verb)."""
        return self.verb

    @property
    def figure(self) -> str | None:
        """The figure a step or a home move moves (``None`` otherwise)."""
        return self.args[0] if self.verb in ("step", "home") else None

    @property
    def to(self) -> str | None:
        """The point (step, home) or counter space (counter); ``None`` for a pass."""
        return self.args[-1] if self.args else None

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move's text (see the module docstring); ``bad_move`` if unreadable."""
        m = super().parse(text)
        if m.verb == "move":  # a synonym of the implied verb
            return cls("step", *m.args)
        assert isinstance(m, Move)
        return m


#: the pass (moves are immutable values: one serves every state)
PASS = Move("pass")
