"""Merge ids (``QUndoCommand.id``) of the mergeable commands.

A module of its own, below every command, so a command never imports the package
that imports it.
"""

from __future__ import annotations

MOVE_ID = 1001
VERTEX_ID = 1002
PIECE_MOVE_ID = 1003
BACKGROUND_MOVE_ID = 1005
