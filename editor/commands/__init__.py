"""Undo commands: one :class:`QUndoCommand` subclass per kind of edit.

Each command changes the document's board in ``redo`` and restores it exactly in
``undo``, then calls :meth:`editor.document.Document.notify`.
"""

from __future__ import annotations

from .add_feature import AddFeatureCommand
from .add_features import AddFeaturesCommand
from .add_image import AddImageCommand
from .background import SetBackgroundCommand
from .delete import DeleteCommand
from .edit_vertices import EditVerticesCommand
from .move import MoveCommand
from .move_background import MoveBackgroundCommand
from .move_piece import MovePieceCommand
from .paste import PasteCommand
from .place_piece import PlacePieceCommand
from .place_tile import PlaceTileCommand
from .set_property import SetMetaCommand, SetPropertyCommand
from .tile_face import SetTileFaceCommand
from .turn import TurnCommand

__all__ = [
    "AddFeatureCommand",
    "AddFeaturesCommand",
    "AddImageCommand",
    "DeleteCommand",
    "EditVerticesCommand",
    "MoveBackgroundCommand",
    "MoveCommand",
    "MovePieceCommand",
    "PasteCommand",
    "PlacePieceCommand",
    "PlaceTileCommand",
    "SetBackgroundCommand",
    "SetMetaCommand",
    "SetPropertyCommand",
    "SetTileFaceCommand",
    "TurnCommand",
]
