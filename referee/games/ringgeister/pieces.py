"""Figures and cards of Ringgeister, read from a board's assets.

A board carries its piece types (``board.piece_types``, keys like
``ringgeister/hobbit-yellow``) and its deck (``board.decks["<pack>/cards"]``).
A board that has none gets the standard set of docs/rulings.md (4 Hobbits, 4 Men,
Gandalf; Gollum, 8 Orcs, 9 Spirits; 24 cards), so a hand-made board only needs
points and paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...errors import AssetError

COLOURS = ("yellow", "orange", "purple", "green")
FIGURES = ("hobbit", "man", "gandalf", "gollum", "orc", "spirit")
SIZES = {"small": 0, "medium": 1, "large": 2}
SIZE_NAMES = ("small", "medium", "large")
_DEFAULT_SIZE = {
    "hobbit": "small",
    "man": "medium",
    "gandalf": "large",
    "gollum": "small",
    "orc": "medium",
    "spirit": "large",
}
HANDS = ("forward", "backward")
IMAGES = ("moon", "star", "storm")


@dataclass(frozen=True)
class FigureSpec:
    """One figure: ``id`` (``hobbit-yellow``, ``gandalf``, ``orc-3``), side, kind, colour, size."""

    id: str
    side: str  # "light" | "black"
    figure: str  # hobbit | man | gandalf | gollum | orc | spirit
    colour: str | None
    size: int  # 0 small, 1 medium, 2 large

    # cached: event texts name figures on every move
    @cached_property
    def light(self) -> bool:
        return self.side == "light"

    @cached_property
    def coloured(self) -> bool:
        """A player's own figure (Hobbit or Man), as opposed to Gandalf."""
        return self.side == "light" and self.figure in ("hobbit", "man")

    @cached_property
    def name(self) -> str:
        """The figure's name in the game's words (``the yellow Hobbit``, ``Orc 3``)."""
        if self.coloured:
            return f"the {self.colour} {self.figure.capitalize()}"
        base = {"gandalf": "Gandalf", "gollum": "Gollum", "orc": "Orc", "spirit": "Spirit"}.get(
            self.figure, self.figure
        )
        suffix = self.id.rsplit("-", 1)[1] if "-" in self.id else ""
        return f"{base} {suffix}".strip()


@dataclass(frozen=True)
class Card:
    id: str
    ringbearer: str
    hand: str
    image: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ringbearer": self.ringbearer,
            "hand": self.hand,
            "image": self.image,
        }


def default_piece_types() -> dict[str, dict[str, Any]]:
    """The standard figures (docs/rulings.md, Ringgeister), as piece-type assets."""
    out: dict[str, dict[str, Any]] = {}
    for c in COLOURS:
        out[f"ringgeister/hobbit-{c}"] = {
            "side": "light",
            "figure": "hobbit",
            "colour": c,
            "size": "small",
            "count": 1,
        }
        out[f"ringgeister/man-{c}"] = {
            "side": "light",
            "figure": "man",
            "colour": c,
            "size": "medium",
            "count": 1,
        }
    out["ringgeister/gandalf"] = {
        "side": "light",
        "figure": "gandalf",
        "colour": "white",
        "size": "large",
        "count": 1,
    }
    out["ringgeister/gollum"] = {
        "side": "black",
        "figure": "gollum",
        "colour": "black",
        "size": "small",
        "count": 1,
    }
    out["ringgeister/orc"] = {
        "side": "black",
        "figure": "orc",
        "colour": "black",
        "size": "medium",
        "count": 8,
    }
    out["ringgeister/spirit"] = {
        "side": "black",
        "figure": "spirit",
        "colour": "black",
        "size": "large",
        "count": 9,
    }
    return out


def default_cards() -> list[dict[str, Any]]:
    """The 24 standard cards: per colour, hand × {moon, star, storm}."""
    return [
        {"id": f"{c}-{h}-{i}", "ringbearer": c, "hand": h, "image": i}
        for c in COLOURS
        for h in HANDS
        for i in IMAGES
    ]


def figure_specs(piece_types: dict[str, dict[str, Any]], colours: list[str]) -> list[FigureSpec]:
    """The figures in play for the player ``colours`` (other colours leave the game).

    Ids: ``<figure>-<colour>`` for a player's figures, ``<figure>`` for a single
    figure (``gandalf``, ``gollum``), ``<figure>-<k>`` (k from 1) for several.
    """
    types = {
        k: v for k, v in piece_types.items() if isinstance(v, dict) and v.get("figure") in FIGURES
    }
    if not types:
        types = default_piece_types()
    specs: list[FigureSpec] = []
    seen: set[str] = set()
    for key in sorted(types):
        t = types[key]
        fig = t["figure"]
        side = t.get("side") or ("light" if fig in ("hobbit", "man", "gandalf") else "black")
        if side not in ("light", "black"):
            raise AssetError(f"piece type side must be light or black, not {side!r}", location=key)
        size_name = t.get("size") or _DEFAULT_SIZE[fig]
        if size_name not in SIZES:
            raise AssetError(
                f"piece type size must be small, medium or large, not {size_name!r}", location=key
            )
        colour = t.get("colour")
        count = t.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise AssetError(
                f"piece type count must be a non-negative integer, not {count!r}", location=key
            )
        coloured = side == "light" and fig in ("hobbit", "man")
        if coloured and colour not in colours:
            continue  # colours not used leave the game
        for k in range(1, count + 1):
            if coloured:
                fid = f"{fig}-{colour}" if count == 1 else f"{fig}-{colour}-{k}"
            else:
                fid = fig if count == 1 else f"{fig}-{k}"
            if fid in seen:
                raise AssetError(f"two piece types give figure id {fid!r}", location=key)
            seen.add(fid)
            specs.append(FigureSpec(fid, side, fig, colour if coloured else None, SIZES[size_name]))
    # a stable, readable order: light first, then by kind and number
    order = {f: i for i, f in enumerate(FIGURES)}

    def sort_key(s: FigureSpec) -> tuple[int, int, str, int]:
        num = s.id.rsplit("-", 1)[1] if "-" in s.id else ""
        return (
            0 if s.light else 1,
            order[s.figure],
            s.colour or "",
            int(num) if num.isdigit() else 0,
        )

    return sorted(specs, key=sort_key)


def deck_cards(decks: dict[str, dict[str, Any]], colours: list[str]) -> list[Card]:
    """The cards in play: the board's deck (or the standard one) without unused colours."""
    raw: list[Any] | None = None
    for key in sorted(decks):
        d = decks[key]
        cards = d.get("cards") if isinstance(d, dict) else None
        if (
            isinstance(cards, list)
            and cards
            and all(isinstance(c, dict) and "ringbearer" in c for c in cards)
        ):
            raw = cards
            break
    if raw is None:
        raw = default_cards()
    out: list[Card] = []
    seen: set[str] = set()
    for i, c in enumerate(raw):
        where = f"deck card {i}"
        cid = str(c.get("id", f"card-{i}"))
        if cid in seen:
            raise AssetError(f"duplicate card id {cid!r}", location=where)
        seen.add(cid)
        if c.get("hand") not in HANDS or c.get("image") not in IMAGES:
            raise AssetError(
                f"card {cid!r} needs hand forward|backward and image moon|star|storm",
                location=where,
            )
        if c["ringbearer"] not in colours:
            continue
        out.append(Card(cid, c["ringbearer"], c["hand"], c["image"]))
    return out
