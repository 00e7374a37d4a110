"""Draw a track: a run of N numbered spaces along a polyline (straight or curved).

Click the route's vertices (many make a curve), double-click or Enter to finish: N points
are laid at equal distances along it, first to last, numbered by their ``index``
property, and a ``track`` feature along the route lists them in order — one undo step.
A route that starts or ends on a free point already on the board (vertices snap to
points) starts or ends the track there: the point joins it as it is (a branch, such
as the link from Minas Morgul to the rally space). Stage goals, event spaces and
symbols are then set on the points in the Inspector.
"""

from __future__ import annotations

import shapely

from referee.model import Feature

from ..commands import AddFeaturesCommand
from .base import ToolContext
from .vertices_input import VertexInputTool

DEFAULT_SPACES = 10


def track_features(
    coords: list[tuple[float, float]], n: int, track_id: str, point_ids: list[str]
) -> list[Feature]:
    """The ``n`` numbered points along the polyline ``coords`` and the track through them."""
    line = shapely.LineString(coords)
    step = line.length / (n - 1)
    points = []
    for i, pid in enumerate(point_ids):
        p = line.interpolate(min(i * step, line.length))
        xy = (round(p.x, 3), round(p.y, 3))
        points.append(Feature(pid, "point", shapely.Point(*xy), {"index": i}))
    # the track follows the route; the points lie on it (rounded to 1 µm)
    track = Feature(track_id, "track", line, {"points": point_ids})
    return [*points, track]


def track_ids(feats: list[Feature]) -> list[str]:
    """The point ids of the track (the last feature of :func:`track_features`)."""
    return list(feats[-1].props["points"])


class DrawTrackTool(VertexInputTool):
    """Click the route's vertices, double-click or Enter to lay N numbered spaces along it."""

    name = "track"
    label = "Draw track"
    shortcut = "K"

    def __init__(self, ctx: ToolContext) -> None:
        super().__init__(ctx)
        #: how many spaces the next track gets (the Tools toolbar's "spaces" box)
        self.count = DEFAULT_SPACES

    def set_count(self, n: int) -> None:
        self.count = n

    def finish(self) -> None:
        coords = self.take_vertices()
        if len(coords) < 2 or shapely.LineString(coords).length <= 0:
            self.ctx.status("A track needs at least two different vertices")
            return
        self.add_track(coords, self.count)

    def _point_at(self, xy: tuple[float, float]) -> str | None:
        """The free point exactly at ``xy`` (where a vertex snapped), if any."""
        for f in self.doc.board.features:
            g = f.geometry
            if f.kind == "point" and abs(g.x - xy[0]) < 1e-6 and abs(g.y - xy[1]) < 1e-6:
                return f.id
        return None

    def add_track(self, coords: list[tuple[float, float]], n: int) -> str | None:
        if n < 2:
            self.ctx.status("A track needs at least two spaces")
            return None
        tid = self.doc.new_id("track")
        prefix = f"{tid}_"
        width = len(str(n - 1))
        ids = [f"{prefix}{i:0{width}d}" for i in range(n)]
        taken = {f.id for f in self.doc.board.features}
        if taken & set(ids):
            self.ctx.status(f"Ids {prefix}… are taken; rename them first")
            return None
        feats = track_features(coords, n, tid, ids)
        # an end on a free point already there: that point is the track's end
        for end, new_id in ((0, ids[0]), (-1, ids[-1])):
            old = self._point_at(coords[end])
            if old is not None and old not in track_ids(feats):
                feats = [f for f in feats if f.id != new_id]
                feats[-1].props["points"] = [
                    old if i == new_id else i for i in feats[-1].props["points"]
                ]
        self.doc.undo.push(AddFeaturesCommand(self.doc, feats, f"Draw track {tid} ({n} spaces)"))
        self.snapper = None
        self.ctx.status(f"Track {tid}: {n} spaces numbered 0–{n - 1}; mark them in the Inspector")
        return tid
