"""Write a configuration found by the census as a project (and a picture)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..model import Board
from ..safeio import atomic_write
from ..store import save_project


def apply_turns(board: Board, turns: dict[str, int]) -> Board:
    """A copy of ``board`` with the placements named in ``turns`` turned as given."""
    out = board.copy()
    for pid, t in turns.items():
        p = out.placement(pid)
        p.turns = int(t) % out.tile_of(p).turn_count
    return out


def write_witness(
    board: Board, witness: Any, path: str | os.PathLike[str], picture: bool = True, note: str = ""
) -> list[Path]:
    """Save the board turned as ``witness.turns`` to ``path`` (a ``.bwproj`` file).

    With ``picture`` a ``.svg`` beside it is drawn by :func:`referee.render.render_svg`
    (skipped when the renderer is not installed). Returns the files written.
    """
    target = Path(path)
    turned = apply_turns(board, witness.turns)
    if note:
        turned.meta = dict(turned.meta)
        turned.meta["description"] = note
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        save_project(turned, target)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    written = [target]
    if picture:
        try:
            from ..render import render_svg
        except ImportError:
            return written
        from ..compiler import compile_board

        svg = render_svg(turned, compile_board(turned))
        pic = target.with_suffix(".svg")
        atomic_write(pic, svg)
        written.append(pic)
    return written
