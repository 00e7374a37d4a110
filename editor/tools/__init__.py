"""Canvas tools, one per file. Each receives scene positions from :class:`editor.canvas.BoardView`."""

from __future__ import annotations

from .base import Tool, ToolContext
from .calibrate import CalibrateTool
from .delete import DeleteTool
from .draw_line import DrawLineTool
from .draw_space import DrawSpaceTool
from .draw_track import DrawTrackTool
from .edit_vertices import EditVerticesTool
from .place_point import PlacePointTool
from .select import SelectTool
from .turn import TurnTool, turn_selection

__all__ = [
    "CalibrateTool",
    "DeleteTool",
    "DrawLineTool",
    "DrawSpaceTool",
    "DrawTrackTool",
    "EditVerticesTool",
    "PlacePointTool",
    "SelectTool",
    "Tool",
    "ToolContext",
    "TurnTool",
    "turn_selection",
]
