"""Tools ▸ Trace spaces…: find the spaces of the background picture, propose them,
and add the accepted ones as one undo step.

The trace (:func:`referee.trace.trace_regions`) runs in a :class:`TraceWorker`
thread, in the picture's pixels; its progress shows in the dialog and *Stop* ends
it between two stages. The polygons found are turned to board millimetres through
the background's placement (:meth:`referee.model.Background.to_board`: position,
scale and rotation), drawn over the board as dashed outlines, and become free
``space`` features — each with the terrain whose colour is nearest to its region's —
when the user presses *Accept* (one :class:`~editor.commands.AddFeaturesCommand`),
or vanish on *Discard*.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from PySide6.QtCore import QThread, Signal
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGraphicsPathItem,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
)

from referee.errors import BoardwrightError
from referee.model import Background, Feature
from referee.trace import TraceResult, terrain_of_colour, trace_regions

from . import style
from .commands import AddFeaturesCommand

if TYPE_CHECKING:
    from .window_protocol import EditorWindow


class _Stopped(Exception):
    """Raised in the progress callback to end a trace early."""


class TraceWorker(QThread):
    """Runs one trace of image bytes in pixel units (see module docs)."""

    progressed = Signal(str, float)
    traced = Signal(object)  # TraceResult
    failed = Signal(str)

    def __init__(
        self,
        data: bytes,
        tolerance_px: float,
        drop_outside: bool,
        border_px: float | str = "auto",
        scan: bool = False,
    ) -> None:
        super().__init__()
        self.data = data
        self.tolerance_px = tolerance_px
        self.drop_outside = drop_outside
        self.border_px = border_px  # "auto": estimated from the picture
        self.scan = scan
        self.stop_requested = False

    def _progress(self, stage: str, frac: float) -> None:
        if self.stop_requested:
            raise _Stopped
        self.progressed.emit(stage, frac)

    def run(self) -> None:
        try:
            res = trace_regions(
                self.data,
                scale=1.0,
                tolerance=self.tolerance_px,
                drop_outside=self.drop_outside,
                border=self.border_px,
                scan=self.scan,
                progress=self._progress,
            )
        except _Stopped:
            self.failed.emit("Stopped")
            return
        except BoardwrightError as exc:
            self.failed.emit(str(exc))
            return
        except (MemoryError, ValueError) as exc:  # numpy/shapely on a hostile picture
            self.failed.emit(f"trace failed: {exc}")
            return
        self.traced.emit(res)


def to_board(polygons: list[shapely.Polygon], bg: Background) -> list[shapely.Polygon]:
    """Polygons in the picture's pixels, placed on the board like ``bg`` (mm)."""
    a = math.radians(bg.rotation)
    cos, sin, s = math.cos(a), math.sin(a), bg.scale

    def place(c: Any) -> Any:
        dx, dy = c[:, 0] * s, c[:, 1] * s
        return np.column_stack([bg.x + dx * cos - dy * sin, bg.y + dx * sin + dy * cos])

    return [shapely.normalize(shapely.transform(p, place)) for p in polygons]


class TraceDialog(QDialog):
    """Trace the background picture; accept or discard the proposed spaces."""

    #: emitted when a trace ends: the number of polygons proposed (0 on failure/stop)
    finished_trace = Signal(int)

    def __init__(self, win: EditorWindow) -> None:
        super().__init__(win.window())
        self.setWindowTitle("Trace spaces")
        self.win = win
        self.worker: TraceWorker | None = None
        self.proposed: list[tuple[shapely.Polygon, str]] = []
        self.item: QGraphicsPathItem | None = None
        bg = win.doc.board.background
        assert bg is not None
        self.bg = bg
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(
                "Finds areas of one colour separated by drawn borders in the background\n"
                "picture and proposes them as spaces that share their borders exactly."
            )
        )
        form = QFormLayout()
        self.tolerance = QDoubleSpinBox()
        self.tolerance.setRange(0.0, 1000.0)
        self.tolerance.setDecimals(2)
        self.tolerance.setSuffix(" mm")
        self.tolerance.setValue(round(2.0 * bg.scale, 2))
        self.tolerance.setToolTip("How far a simplified border may stray from the pixels")
        self.drop_outside = QCheckBox("Leave out the area around the map")
        self.drop_outside.setChecked(True)
        # as `referee trace`: --border auto (the default) or a width in mm, --scan off
        self.border_auto = QCheckBox("Estimate from the picture")
        self.border_auto.setChecked(True)
        self.border_auto.setToolTip(
            "Measure the drawn border lines from the picture (referee trace --border auto)"
        )
        self.border = QDoubleSpinBox()
        self.border.setRange(0.0, 1000.0)
        self.border.setDecimals(2)
        self.border.setSuffix(" mm")
        self.border.setValue(round(2.0 * bg.scale, 2))
        self.border.setToolTip(
            "Width of the drawn border lines (referee trace --border MM); a region no "
            "wider than 1.5 of them is ink, not a space"
        )
        self.border.setEnabled(False)
        self.border_auto.toggled.connect(lambda on: self.border.setEnabled(not on))
        borders = QHBoxLayout()
        borders.addWidget(self.border_auto)
        borders.addWidget(self.border)
        self.scan = QCheckBox("The picture is a scan or a photo")
        self.scan.setToolTip(
            "Noise and JPEG artefacts spread each fill colour, which is gathered back "
            "(referee trace --scan; off: a clean export's patterns stay marks)"
        )
        form.addRow("Simplify to", self.tolerance)
        form.addRow("Border lines", borders)
        form.addRow(self.scan)
        form.addRow(self.drop_outside)
        lay.addLayout(form)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        lay.addWidget(self.progress)
        lay.addWidget(self.message)
        row = QHBoxLayout()
        self.start_button = QPushButton("Trace")
        self.stop_button = QPushButton("Stop")
        self.accept_button = QPushButton("Accept")
        self.discard_button = QPushButton("Discard")
        for b in (self.start_button, self.stop_button, self.accept_button, self.discard_button):
            row.addWidget(b)
        lay.addLayout(row)
        self.start_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)
        self.accept_button.clicked.connect(self.accept_proposal)
        self.discard_button.clicked.connect(self.discard)
        self._buttons(running=False)

    def _buttons(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.accept_button.setEnabled(not running and bool(self.proposed))
        self.discard_button.setEnabled(not running and bool(self.proposed))

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        """Trace the background picture in a worker thread."""
        self.clear_proposal()
        try:
            data = self.win.doc.board.images.data(self.bg.image)
        except BoardwrightError as exc:
            self._fail(str(exc))
            return
        border: float | str = (
            "auto" if self.border_auto.isChecked() else self.border.value() / self.bg.scale
        )
        self.worker = TraceWorker(
            data,
            self.tolerance.value() / self.bg.scale,
            self.drop_outside.isChecked(),
            border,
            self.scan.isChecked(),
        )
        self.worker.progressed.connect(self._on_progress)
        self.worker.traced.connect(self._on_traced)
        self.worker.failed.connect(self._fail)
        self.progress.setValue(0)
        self.message.setText("Tracing…")
        self._buttons(running=True)
        self.worker.start()

    def stop(self) -> None:
        """Ask the running trace to stop (it ends at its next stage)."""
        if self.worker is not None:
            self.worker.stop_requested = True

    def _on_progress(self, stage: str, frac: float) -> None:
        self.progress.setValue(round(frac * 100))
        self.message.setText(f"Tracing: {stage}…")

    def _finish_worker(self) -> None:
        if self.worker is not None:
            self.worker.wait()
            self.worker.deleteLater()
            self.worker = None

    def _fail(self, message: str) -> None:
        self._finish_worker()
        self.message.setText(f"<span style='color:#b00020'>{message}</span>")
        self.win.status(f"Trace: {message}")
        self._buttons(running=False)
        self.finished_trace.emit(0)

    def _on_traced(self, res: TraceResult) -> None:
        self._finish_worker()
        polys = to_board(res.polygons, self.bg)
        self.proposed = list(zip(polys, res.colours))
        self.show_proposal()
        secs = sum(res.timings.values())
        how = "estimated" if self.border_auto.isChecked() else "given"
        self.message.setText(
            f"{len(polys)} spaces found in {res.width_px} × {res.height_px} px "
            f"({secs:.2f} s; border lines {res.border_px:g} px, {how}). "
            "Accept adds them as spaces (one undo step)."
        )
        self.progress.setValue(100)
        self._buttons(running=False)
        self.adjustSize()  # the message's second line shows in full
        self.finished_trace.emit(len(polys))

    # ------------------------------------------------------------------ proposal
    def show_proposal(self) -> None:
        path = QPainterPath()
        for poly, _colour in self.proposed:
            path.addPath(style.geom_path(poly))
        self.item = QGraphicsPathItem(path)
        self.item.setZValue(90.0)
        self.item.setPen(style.pen("#e65100", 2.0, cosmetic=True))
        self.item.setBrush(QBrush(QColor(230, 81, 0, 40)))
        self.win.scene.addItem(self.item)

    def clear_proposal(self) -> None:
        if self.item is not None:
            self.win.scene.removeItem(self.item)
            self.item = None
        self.proposed = []

    def accept_proposal(self) -> list[str]:
        """Add the proposed polygons as spaces (one undo step); returns their ids."""
        doc = self.win.doc
        feats = [
            Feature(doc.new_id("s"), "space", poly, {"terrain": terrain_of_colour(colour)})
            for poly, colour in self.proposed
        ]
        if not feats:
            return []
        doc.undo.push(AddFeaturesCommand(doc, feats, f"Trace {len(feats)} spaces"))
        self.clear_proposal()
        self.win.status(f"Added {len(feats)} traced spaces (Undo takes them all back)")
        self.accept()
        return [f.id for f in feats]

    def discard(self) -> None:
        self.clear_proposal()
        self.reject()

    def done(self, result: int) -> None:
        self.stop()
        self._finish_worker()
        self.clear_proposal()
        super().done(result)
