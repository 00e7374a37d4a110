"""What frontends draw and print of a Ringgeister game: figures and a text picture."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import palette
from ...vocabulary import FigureView
from .pieces import SIZE_NAMES

if TYPE_CHECKING:
    from .protocol import Ringgeister

#: fill colours of the figures (coloured figures by colour, Gandalf white, black ones)
FIGURE_COLOURS = palette.FIGURE_COLOURS
FIGURE_LETTERS: dict[str, str] = {
    "hobbit": "H",
    "man": "M",
    "gandalf": "G",
    "gollum": "g",
    "orc": "O",
    "spirit": "S",
}


def figures(g: Ringgeister) -> dict[str, FigureView]:
    """Every figure on the board (defeated figures waiting to go home are left out),
    then every mission counter lying on its counter space (``counter-<colour>-<k>``,
    kind ``counter``: a square in its player's colour; counters not yet placed or
    removed are left out).

    A coloured figure and a counter belong to their colour's player; Gandalf and the
    black figures belong to nobody.
    """
    ids = g.v.ids
    out: dict[str, FigureView] = {}
    for i, s in enumerate(g.specs):
        if g.pos[i] < 0:
            continue
        colour = s.colour or ("white" if s.light else "black")
        out[s.id] = FigureView(
            id=s.id,
            node=ids[g.pos[i]],
            label=FIGURE_LETTERS.get(s.figure, s.id[:1].upper()),
            colour=FIGURE_COLOURS.get(colour, "#9e9e9e"),
            side=s.side,
            owner=s.colour if s.coloured else None,
            name=s.name,
            size=s.size,
            kind=s.figure,
        )
    for c in g.counters:
        if c["space"] is None or c["removed"]:
            continue
        fid = f"counter-{c['id']}"
        out[fid] = FigureView(
            id=fid,
            node=c["space"],
            label=c["id"].rsplit("-", 1)[1],
            colour=FIGURE_COLOURS.get(c["colour"], "#9e9e9e"),
            side="light",
            owner=c["colour"],
            name=f"{c['colour']} mission counter {c['id'].rsplit('-', 1)[1]}",
            size=1,
            kind="counter",
        )
    return out


def render(g: Ringgeister) -> str:
    """A plain-text picture of the state for people and simple frontends."""
    lines = [
        f"Ringgeister — ply {g.ply}, phase {g.phase}, "
        f"{'game over' if g._outcome else g.to_move + ' to move'}",
        f"card: {g._card_text()} ({len(g.pile)} in the pile)",
    ]
    if g._outcome:
        lines.append(f"outcome: {g._outcome.to_json()}")
    if g.pending:
        lines.append(
            "waiting: "
            + ", ".join(f"{g.specs[g.fidx[f]].name} ({c} chooses)" for f, c in g.pending)
        )
    for s, p in zip(g.specs, g.pos):
        where = g._where(p) if p >= 0 else "off the board"
        lines.append(f"  {s.id:<18} {SIZE_NAMES[s.size]:<6} {where}")
    for c in g.counters:
        state = "removed" if c["removed"] else (c["space"] or "not placed")
        lines.append(f"  counter {c['id']:<12} {state}")
    turned = {k: t for k, t in g.tile_turns.items() if t}
    if turned:
        lines.append("tile turns: " + ", ".join(f"{k}×{t}" for k, t in sorted(turned.items())))
    return "\n".join(lines)
