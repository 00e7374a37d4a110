"""Select and move: click, Ctrl/Shift-click to add, rubber band, drag to move (snapped);
a click without a drag on one of several selected objects selects just that one.

Dragging the background picture where no board item is moves it, unless it is
locked (Background panel) or Ctrl/Shift is held (then the drag selects with a box).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent

from ..commands import MoveBackgroundCommand, MoveCommand, MovePieceCommand
from ..snapping import grid_mm, snap_tile_centre, snap_to_grid
from .base import Tool, ToolContext, next_drag

#: node kinds a piece may stand on
PIECE_PLACES = ("point", "space", "river_dot")


class SelectTool(Tool):
    """Click to select (Ctrl/Shift+click adds), drag a box to select many, drag to move (Alt: no snap).

    A piece dragged on its own goes from node to node: it snaps to the point, space
    or river dot under the cursor, and the whole drag is one undo step. Dragging the
    unlocked background picture off every item moves it (freely), as one undo step.
    """

    name = "select"
    label = "Select / move"
    shortcut = "V"
    rubber_band = True

    def __init__(self, ctx: ToolContext) -> None:
        super().__init__(ctx)
        self._drag: int | None = None
        self._start = QPointF()
        self._applied = QPointF()
        self._keys: set[str] = set()
        self._anchor: tuple[float, float] | None = None
        self._piece: str | None = None
        self._pressed: str | None = None
        #: where the background picture's corner was when its drag started
        self._bg_from: tuple[float, float] | None = None

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        scene = self.ctx.scene
        key = scene.key_at(pos)
        add = event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        if key is None:
            return not add and self._press_background(pos)  # else rubber band (QGraphicsView)
        sel = scene.selected_keys()
        if add:
            sel = sel ^ {key}
            scene.select_keys(sel)
            return True
        if key not in sel:
            scene.select_keys({key})
            sel = {key}
        #: a click (no drag) on one of several selected objects selects just it, on release
        self._pressed = key if len(sel) > 1 else None
        self._drag = next_drag()
        self._start = pos
        self._applied = QPointF(0, 0)
        self._keys = set(sel)
        self._anchor = None
        self._piece = key[2:] if len(sel) == 1 and key.startswith("c:") else None
        if self._piece is not None:
            self.doc.recompile_now()
        if len(sel) == 1 and key.startswith("p:"):
            p = self.doc.placement(key[2:])
            if p is not None:
                self._anchor = (p.x, p.y)
                if self.ctx.view.snapping:
                    self.ctx.scene.show_slots(
                        self.doc.board.tiles.get(p.tile),
                        p.turns,
                        self.ctx.view.visible_rect(),
                        p.id,
                    )
        return True

    def _press_background(self, pos: QPointF) -> bool:
        """Start dragging the background picture if it is shown, unlocked and under ``pos``."""
        bg = self.doc.board.background
        item = self.ctx.scene.background_item
        if bg is None or bg.locked or not item.isVisible():
            return False
        if not item.contains(item.mapFromScene(pos)):
            return False
        self.ctx.scene.select_keys(set())
        self._drag = next_drag()
        self._start = pos
        self._bg_from = (bg.x, bg.y)
        self.ctx.status("Moving the background (lock it in the Background panel to keep it put)")
        return True

    def _target_delta(self, pos: QPointF, event: QMouseEvent) -> QPointF:
        d = pos - self._start
        if not self.ctx.view.snapping or event.modifiers() & Qt.KeyboardModifier.AltModifier:
            return d
        if self._anchor is not None:
            pid = next(iter(self._keys))[2:]
            p = self.doc.placement(pid)
            assert p is not None
            x, y = snap_tile_centre(
                self.doc.board,
                pid,
                p.tile,
                p.turns,
                self._anchor[0] + d.x(),
                self._anchor[1] + d.y(),
                max(self.ctx.view.snap_radius(), 6.0),
            )
            return QPointF(x - self._anchor[0], y - self._anchor[1])
        gx, gy = snap_to_grid(d.x(), d.y(), grid_mm(self.doc.board))
        return QPointF(gx, gy)

    def _node_under(self, pos: QPointF) -> str | None:
        """The place a piece dropped at ``pos`` would stand on: the nearest point or
        river dot within the snap radius, else the space under the cursor."""
        c = self.doc.compiled
        radius = max(10.0, self.ctx.view.snap_radius())
        kinds = [(n, c.graph.nodes[n].get("kind")) for n in c.hit(pos.x(), pos.y(), radius)]
        ranked = [n for n, k in kinds if k in PIECE_PLACES and k != "space"]
        ranked += [n for n, k in kinds if k == "space"]
        return ranked[0] if ranked else None

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._drag is None:
            return False
        if self._bg_from is not None:
            d = pos - self._start
            bg = self.doc.board.background
            x, y = self._bg_from[0] + d.x(), self._bg_from[1] + d.y()
            if bg is not None and (abs(x - bg.x) > 1e-9 or abs(y - bg.y) > 1e-9):
                self.doc.undo.push(MoveBackgroundCommand(self.doc, x, y, self._drag))
            return True
        if self._piece is not None:
            piece = self.doc.piece(self._piece)
            node = self._node_under(pos)
            if piece is not None and node is not None and node != piece.at:
                self.doc.undo.push(MovePieceCommand(self.doc, self._piece, node, self._drag))
            return True
        target = self._target_delta(pos, event)
        step = target - self._applied
        if abs(step.x()) > 1e-9 or abs(step.y()) > 1e-9:
            self.doc.undo.push(MoveCommand(self.doc, self._keys, step.x(), step.y(), self._drag))
            self._applied = target
        return True

    def release(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._drag is None:
            return False
        self.ctx.scene.show_slots(None, 0, QRectF())
        pressed, self._pressed = self._pressed, None
        still = (pos - self._start).manhattanLength() < 1.0
        if pressed is not None and self._applied == QPointF(0, 0) and still:
            self.ctx.scene.select_keys({pressed})
        self._drag = None
        self._piece = None
        self._bg_from = None
        return True
