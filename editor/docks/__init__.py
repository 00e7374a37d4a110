"""Dock widgets: asset palette, inspector, problems, rotations."""

from __future__ import annotations

from .inspector import InspectorDock
from .palette import PaletteDock, tile_thumbnail
from .problems import ProblemsDock, key_of_node
from .rotations.dock import RotationsDock

__all__ = [
    "InspectorDock",
    "PaletteDock",
    "ProblemsDock",
    "RotationsDock",
    "key_of_node",
    "tile_thumbnail",
]
