"""``referee check`` for boards whose ``meta.rules`` is ``mount-doom``.

The rules need the tracks of ``projects/mount-doom/make_board.py`` (route with six
stage goals, resolve track with its ring start and Eye space, Isengard, the Nazgûl
spaces, the encounter row, the rally space) and the ``mount-doom`` pack embedded.
"""

from __future__ import annotations

from ...compiler import CompiledBoard, Problem
from ...errors import BoardError
from .layout import _build


def board_problems(compiled: CompiledBoard) -> list[Problem]:
    try:
        lay = _build(compiled)
    except BoardError as exc:
        return [Problem.make("rules_check", f"mount-doom: {exc.message}", exc.location)]
    probs = []
    for i in lay.events:
        if i in lay.goals or i == 0:
            probs.append(
                Problem.make(
                    "rules_check",
                    "an event space cannot be Rivendell or a stage goal",
                    lay.route[i],
                )
            )
    if any(i > lay.minas_morgul for i in lay.events):
        probs.append(
            Problem.make(
                "rules_check", "the final stage has no event spaces", lay.route[lay.minas_morgul]
            )
        )
    return probs
