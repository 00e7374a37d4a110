"""Images of a project: add, attach, list and remove (``referee image``), and the check.

These functions work on a :class:`~referee.model.Board`;
:func:`referee.store.save_board` writes it back in the form it was read from. A
refused image raises :class:`~referee.errors.ImageError` before anything
changes, so nothing is stored.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..compiler.problems import Problem
from ..errors import ImageError, UnknownNodeError, UsageError
from ..model import Background, Board
from .store import ImageInfo


@dataclass(frozen=True)
class ImageUse:
    """Where an added image goes: ``carrier`` and the key it names (if any)."""

    carrier: str  # "background", "tile-face", "piece-token", "deck-back", "card-face", "art"
    key: str = ""
    #: for "art": where the picture's top-left corner goes on the board (mm)
    at: tuple[float, float] = (0.0, 0.0)


def attach(board: Board, info: ImageInfo, use: ImageUse, *, scale: float | None = None) -> str:
    """Make ``info`` the picture of one carrier of ``board``; return where it went.

    Parameters
    ----------
    scale : float, optional
        For the background: mm per image pixel (default: the picture spans the
        board's width, or 1 mm per pixel when the board has no width).
    """
    if use.carrier == "background":
        if scale is None:
            w = board.meta.get("width")
            scale = float(w) / info.width if isinstance(w, (int, float)) and w > 0 else 1.0
        board.background = Background(info.id, scale=scale)
        return "background"
    if use.carrier == "tile-face":
        tile = board.tiles.get(use.key)
        if tile is None:
            raise UnknownNodeError(f"no tile asset {use.key!r}", location=use.key)
        tile.face = info.id
        return f"tile {use.key} face"
    if use.carrier == "piece-token":
        pt = board.piece_types.get(use.key)
        if pt is None:
            raise UnknownNodeError(f"no piece asset {use.key!r}", location=use.key)
        pt["token"] = info.id
        return f"piece {use.key} token"
    if use.carrier == "deck-back":
        deck = board.decks.get(use.key)
        if deck is None:
            raise UnknownNodeError(f"no deck asset {use.key!r}", location=use.key)
        deck["back"] = info.id
        return f"deck {use.key} back"
    if use.carrier == "card-face":
        dkey, _, cid = use.key.rpartition("/")
        deck = board.decks.get(dkey)
        cards = deck.get("cards") if deck else None
        card = next((c for c in (cards or []) if isinstance(c, dict) and c.get("id") == cid), None)
        if card is None:
            raise UnknownNodeError(f"no card {cid!r} in deck {dkey!r}", location=use.key)
        card["face"] = info.id
        return f"deck {dkey} card {cid} face"
    if use.carrier == "art":
        return _attach_art(board, info, use, 1.0 if scale is None else scale)
    raise UsageError(f"unknown image carrier {use.carrier!r}")


def _attach_art(board: Board, info: ImageInfo, use: ImageUse, scale: float) -> str:
    """Show the picture on free ``art`` feature ``use.key``: an existing one keeps its
    shape; a new one is the picture's rectangle at ``use.at``, ``scale`` mm per pixel."""
    import shapely

    from ..model import Feature

    if not use.key or "/" in use.key:
        raise UsageError(f"art feature id {use.key!r} must be non-empty without '/'")
    for f in board.features:
        if f.id == use.key:
            if f.kind != "art":
                raise UsageError(f"feature {use.key!r} is a {f.kind}, not art")
            f.props["image"] = info.id
            return f"feature {use.key}"
    x, y = use.at
    box = shapely.box(x, y, x + info.width * scale, y + info.height * scale)
    board.features.append(Feature(use.key, "art", box, {"image": info.id}))
    board.validate()
    return f"feature {use.key}"


def add_images(
    board: Board, files: list[str | os.PathLike[str]], use: ImageUse | None = None, **kw: Any
) -> list[tuple[ImageInfo, str | None]]:
    """Add image files to ``board`` (all or none); optionally attach the last one to ``use``.

    Returns ``(info, where attached or None)`` per file. If any file is refused,
    the board is left as it was.
    """
    trial = board.images.__deepcopy__({})
    infos = [trial.add_file(f) for f in files]
    board.images = trial
    out: list[tuple[ImageInfo, str | None]] = [(i, None) for i in infos]
    if use is not None and infos:
        out[-1] = (infos[-1], attach(board, infos[-1], use, **kw))
    return out


def uses_by_image(board: Board) -> dict[str, list[str]]:
    """``{image_id: [where it is used, ...]}`` for every reference in the board."""
    out: dict[str, list[str]] = {}
    for where, iid in board.image_uses():
        out.setdefault(iid, []).append(where)
    return out


def remove_image(board: Board, ref: str, *, force: bool = False) -> ImageInfo:
    """Remove an image by id, id prefix or name; refuse while it is used unless ``force``."""
    info = board.images.find(ref)
    used = uses_by_image(board).get(info.id, [])
    if used and not force:
        raise ImageError(
            f"image {info.name or info.id[:12]} is used by {used[0]}"
            + (f" and {len(used) - 1} more" if len(used) > 1 else "")
            + " (--force removes it anyway)",
            code="image_in_use",
            location=ref,
        )
    return board.images.remove(info.id)


def image_problems(board: Board) -> list[Problem]:
    """``missing_image`` problems: references to images the project does not hold.

    Notes
    -----
    Reads no image data: asks the store whether the bytes exist (a BLOB length in
    the project file, a file size in the export folder).
    """
    probs: list[Problem] = []
    checked: set[str] = set()
    for where, iid in board.image_uses():
        if iid not in board.images:
            probs.append(
                Problem.make(
                    "missing_image", f"{where} refers to image {iid[:12]}… not in the project"
                )
            )
        elif iid in checked:
            continue
        elif not board.images.has_data(iid):
            info = board.images.info(iid)
            probs.append(
                Problem.make(
                    "missing_image",
                    f"{where} uses image {info.name or iid[:12]} whose file "
                    f"{info.file_name} is missing",
                )
            )
        else:
            checked.add(iid)
            try:
                board.images.verify(iid)
            except ImageError as exc:
                probs.append(Problem.make("bad_image", f"{where}: {exc}"))
    return probs
