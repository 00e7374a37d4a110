"""``referee check`` for boards whose ``meta.rules`` is ``lotr-coop``.

The rules need the tracks of ``projects/lotr-coop/make_board.py`` (the Master board,
the Corruption line, each Scenario's Activity lines with one main numbered line and
its event line of six boxes) and the ``lotr-coop`` pack embedded.
"""

from __future__ import annotations

from ...compiler import CompiledBoard, Problem
from ...errors import BoardError
from .layout import _build


def board_problems(compiled: CompiledBoard) -> list[Problem]:
    try:
        lay = _build(compiled)
    except BoardError as exc:
        return [Problem.make("rules_check", f"lotr-coop: {exc.message}", exc.location)]
    probs = []
    for sc in lay.scenarios.values():
        main = sc.main
        if any(n is None for n in main.numbers):
            probs.append(
                Problem.make(
                    "rules_check",
                    f"every space of {sc.name}'s main line needs a number",
                    main.track,
                )
            )
        for box in sc.events:
            if box not in lay.events:
                probs.append(
                    Problem.make(
                        "rules_check",
                        f"event box {box!r} has no text in the pack",
                        sc.event_points[0],
                    )
                )
        for ln in sc.lines.values():
            for k, space in enumerate(ln.spaces):
                if space.startswith("feature:") and space[8:] not in lay.cards:
                    probs.append(
                        Problem.make(
                            "rules_check", f"unknown Feature card {space[8:]!r}", ln.points[k]
                        )
                    )
    if not lay.master or not lay.master[-1].get("final"):
        probs.append(Problem.make("rules_check", "the journey must end at Mount Doom", "master"))
    return probs
