"""The track games' printed-board pictures for ``referee render`` (``RULES.pictures``
of Mount Doom and the cooperative game): a stage goal ringed in red, the number of
a point along its track, the event printed over an event space. The editor's
canvas draws the plain symbols of :mod:`.track_vocabulary` instead."""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..model import Feature
from ..render.pictures import Canvas, Picture
from ..render.svg import fmt

#: radius of a point's disc (Ringgeister's point picture draws it)
_R = 2.6


def draw_stage_goal(c: Canvas, nid: str, f: Feature) -> None:
    """A red ring around a stage goal."""
    x, y = f.geometry.x, f.geometry.y
    c.svg.add(
        "points",
        "circle",
        {
            "cx": fmt(x),
            "cy": fmt(y),
            "r": fmt(_R + 1.6),
            "fill": "none",
            "stroke": "#b01c1c",
            "stroke_width": 0.6,
        },
    )


def draw_index(c: Canvas, nid: str, f: Feature) -> None:
    """The point's number along its track, in white on the disc."""
    x, y = f.geometry.x, f.geometry.y
    text = {"x": fmt(x), "y": fmt(y + 0.9), "font_size": 2.4, "text_anchor": "middle"}
    c.svg.add("labels", "text", {**text, "fill": "#fff"}, escape(str(f.props["index"])))


def draw_event(c: Canvas, nid: str, f: Feature) -> None:
    """The event of an event space, printed over it."""
    x, y = f.geometry.x, f.geometry.y
    text = {"x": fmt(x), "y": fmt(y - _R - 1.2), "font_size": 2.2, "text_anchor": "middle"}
    c.svg.add("labels", "text", {**text, "fill": "#5a0c0c"}, escape(str(f.props["event"])))


PICTURES: dict[str, Picture] = {
    "point.stage_goal": Picture(draw_stage_goal),
    "point.index": Picture(draw_index),
    "point.event": Picture(draw_event),
}

__all__ = ["PICTURES", "draw_event", "draw_index", "draw_stage_goal"]
