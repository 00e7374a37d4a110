"""Problems the compiler finds, each with a code, a message and a location."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ERROR = "error"
WARNING = "warning"

#: Problem codes and their severity. Warnings are things a board may legitimately
#: have in some configuration (a turned Ringgeister tile leaves a dead end); errors
#: make a board unusable for its rules. ``referee check`` fails on errors, and on
#: warnings too with ``--strict``.
CODES: dict[str, str] = {
    "path_end_open": ERROR,  # a path end that touches no point, junction, door or port
    "dead_end": WARNING,  # a path reaches a port that faces no other port
    "port_without_path": WARNING,  # a path's port faces a port with no path
    "isolated_node": WARNING,  # a node that no relation reaches
    "dot_not_triple": ERROR,  # river dot not where three spaces meet
    "dot_off_river": ERROR,  # river dot not on a river
    "bridge_off_river": ERROR,  # bridge not on a river border
    "road_off_map": ERROR,  # a road leaves the spaces
    "road_skips_space": ERROR,  # consecutive road spaces that do not touch
    "road_crosses_river": WARNING,  # a road crosses a river border with no bridge on it
    "dot_not_in_city": ERROR,  # a river dot names a city space it does not lie in
    "overlapping_spaces": ERROR,  # two spaces overlap
    "tile_overlap": ERROR,  # two placed tiles overlap (one dropped onto another)
    "goal_unreachable": ERROR,  # no start reaches the goal
    "track_point_off_track": ERROR,  # a point named by a track is not on its line
    "unknown_reference": ERROR,  # a property names a feature that does not exist
    "rules_check": ERROR,  # a rules module's own board check
    "missing_image": ERROR,  # a tile face, background, card, token or art names an absent image
    "bad_image": ERROR,  # an image's bytes are refused (too many pixels, unsafe SVG, wrong facts)
}


@dataclass(frozen=True)
class Problem:
    """A problem at a place on the board."""

    code: str
    message: str
    node: str | None = None
    x: float | None = None
    y: float | None = None
    severity: str = ERROR

    @classmethod
    def make(
        cls,
        code: str,
        message: str,
        node: str | None = None,
        xy: tuple[float, float] | None = None,
        severity: str | None = None,
    ) -> Problem:
        x, y = (round(float(xy[0]), 3), round(float(xy[1]), 3)) if xy is not None else (None, None)
        return cls(code, message, node, x, y, severity or CODES.get(code, ERROR))

    @property
    def location(self) -> str:
        parts = []
        if self.node:
            parts.append(self.node)
        if self.x is not None:
            parts.append(f"({self.x:g}, {self.y:g})")
        return " ".join(parts) or "board"

    def __str__(self) -> str:
        return f"{self.severity} {self.code} at {self.location}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "node": self.node,
            "x": self.x,
            "y": self.y,
        }
