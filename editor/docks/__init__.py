"""Dock widgets: asset palette, inspector, problems."""

from __future__ import annotations

from .inspector import InspectorDock
from .palette import PaletteDock, tile_thumbnail
from .problems import ProblemsDock, key_of_node

__all__ = ["InspectorDock", "PaletteDock", "ProblemsDock", "key_of_node", "tile_thumbnail"]
