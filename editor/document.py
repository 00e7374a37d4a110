"""The document: a board under edit, its file, its undo stack and its live compile.

Every edit goes through a :class:`~PySide6.QtGui.QUndoCommand` from
:mod:`editor.commands`; a command changes the board and calls
:meth:`Document.notify` with the keys of the objects it touched and a
:class:`~editor.live.Change` hint. The document then emits :attr:`changed` (the
canvas re-syncs those items) and schedules a debounced incremental recompile
(:attr:`compiled_changed` fires when it is done).

Object keys: ``"p:<placement id>"`` for a placed tile, ``"f:<feature id>"`` for a
free-standing feature, ``"c:<piece id>"`` for a piece on the board, ``"meta"`` for
board metadata.
"""

from __future__ import annotations

import itertools
import time
import uuid
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from referee.compiler import CompiledBoard
from referee.model import Board, Feature, PieceOnBoard, Placement

from .live import Change, LiveCompiler

DEFAULT_META = {"name": "untitled", "width": 600, "height": 600}


def new_board() -> Board:
    """An empty board, 600 × 600 mm."""
    return Board(meta=dict(DEFAULT_META))


class Document(QObject):
    """A board being edited.

    Attributes
    ----------
    board : Board
    path : Path or None
        The project file (None until first saved).
    undo : QUndoStack
    live : LiveCompiler
    """

    changed = Signal(object)  # set of object keys, or None for "everything"
    compiled_changed = Signal()
    modified_changed = Signal(bool)
    path_changed = Signal()

    #: debounce of the live recompile, milliseconds
    RECOMPILE_DELAY_MS = 120

    def __init__(
        self,
        board: Board | None = None,
        path: str | Path | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.board = board if board is not None else new_board()
        self.path: Path | None = Path(path) if path else None
        self.undo = QUndoStack(self)
        self.undo.cleanChanged.connect(self._on_clean_changed)
        t0 = time.perf_counter()
        self.live = LiveCompiler(self.board)
        self.last_compile_ms = (time.perf_counter() - t0) * 1000.0
        self._pending = Change()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.RECOMPILE_DELAY_MS)
        self._timer.timeout.connect(self.recompile_now)
        self._ids = itertools.count(1)
        #: identifies this document's autosaves (a new id for every board loaded)
        self.document_id = uuid.uuid4().hex

    def _on_clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    # ------------------------------------------------------------------ state
    @property
    def compiled(self) -> CompiledBoard:
        return self.live.compiled

    @property
    def modified(self) -> bool:
        return not self.undo.isClean()

    def set_path(self, path: str | Path | None) -> None:
        self.path = Path(path) if path else None
        self.path_changed.emit()

    def mark_saved(self) -> None:
        self.undo.setClean()

    @property
    def title(self) -> str:
        return self.path.name if self.path else self.board.name

    # ------------------------------------------------------------------ lookup
    def placement(self, pid: str) -> Placement | None:
        for p in self.board.placements:
            if p.id == pid:
                return p
        return None

    def feature(self, fid: str) -> Feature | None:
        for f in self.board.features:
            if f.id == fid:
                return f
        return None

    def piece(self, pid: str) -> PieceOnBoard | None:
        for p in self.board.pieces:
            if p.id == pid:
                return p
        return None

    def exists(self, key: str) -> bool:
        kind, _, ident = key.partition(":")
        obj = {"p": self.placement, "f": self.feature, "c": self.piece}.get(kind)
        return obj is not None and obj(ident) is not None

    def new_id(self, prefix: str) -> str:
        """A fresh id ``<prefix><n>`` used by no placement or feature."""
        used = {p.id for p in self.board.placements} | {f.id for f in self.board.features}
        while True:
            cand = f"{prefix}{next(self._ids)}"
            if cand not in used:
                return cand

    # ------------------------------------------------------------------ change flow
    def notify(self, keys: set[str] | None, change: Change) -> None:
        """Called by commands after they changed the board."""
        self._pending.merge(change)
        self.changed.emit(keys)
        self._timer.start()

    def recompile_now(self) -> str:
        """Run the pending recompile immediately; returns the strategy used."""
        self._timer.stop()
        change, self._pending = self._pending, Change()
        if change.empty:
            return "none"
        t0 = time.perf_counter()
        strategy = self.live.update(change)
        self.last_compile_ms = (time.perf_counter() - t0) * 1000.0
        self.compiled_changed.emit()
        return strategy

    def replace_board(self, board: Board, path: str | Path | None) -> None:
        """Load another board into this document (clears undo history)."""
        self._timer.stop()
        self._pending = Change()
        self.board = board
        self.document_id = uuid.uuid4().hex
        t0 = time.perf_counter()
        self.live = LiveCompiler(board)
        self.last_compile_ms = (time.perf_counter() - t0) * 1000.0
        self.undo.clear()
        self.set_path(path)
        self.changed.emit(None)
        self.compiled_changed.emit()
