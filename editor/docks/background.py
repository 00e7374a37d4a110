"""The Background panel: the board's background picture — show, lock, opacity, place.

Every change is a :class:`~editor.commands.SetBackgroundCommand`; the changes of one
slider drag or one spin-box editing session merge into one undo step. A locked
background keeps its place, scale and turn (the fields are disabled, calibration
refuses); opacity and visibility still change.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from referee.model import Background

from ..commands import SetBackgroundCommand
from ..document import Document

_sessions = itertools.count(1)


def _spin(lo: float, hi: float, decimals: int, suffix: str) -> QDoubleSpinBox:
    s = QDoubleSpinBox()
    s.setRange(lo, hi)
    s.setDecimals(decimals)
    s.setSuffix(suffix)
    s.setKeyboardTracking(False)
    return s


class BackgroundDock(QDockWidget):
    """Edit :attr:`referee.model.Board.background` (see module docs)."""

    import_requested = Signal()
    calibrate_requested = Signal()

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__("Background", parent)
        self.setObjectName("BackgroundDock")
        self.doc = doc
        self._session = next(_sessions)
        self._loading = False
        w = QWidget()
        lay = QVBoxLayout(w)
        self.info = QLabel()
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        form = QFormLayout()
        self.visible = QCheckBox("Show")
        self.locked = QCheckBox("Locked")
        row = QHBoxLayout()
        row.addWidget(self.visible)
        row.addWidget(self.locked)
        form.addRow(row)
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(0, 100)
        form.addRow("Opacity", self.opacity)
        self.x_box = _spin(-1e6, 1e6, 2, " mm")
        self.y_box = _spin(-1e6, 1e6, 2, " mm")
        self.scale_box = _spin(1e-6, 1e4, 5, " mm/px")
        self.rotation_box = _spin(-360.0, 360.0, 2, "°")
        form.addRow("X", self.x_box)
        form.addRow("Y", self.y_box)
        form.addRow("Scale", self.scale_box)
        form.addRow("Rotation", self.rotation_box)
        lay.addLayout(form)
        buttons = QHBoxLayout()
        self.import_button = QPushButton("Import…")
        self.calibrate_button = QPushButton("Calibrate")
        self.calibrate_button.setToolTip(
            "Click two points on the picture and type their real distance"
        )
        self.remove_button = QPushButton("Remove")
        for b in (self.import_button, self.calibrate_button, self.remove_button):
            buttons.addWidget(b)
        lay.addLayout(buttons)
        lay.addStretch(1)
        self.setWidget(w)
        self.import_button.clicked.connect(self.import_requested)
        self.calibrate_button.clicked.connect(self.calibrate_requested)
        self.remove_button.clicked.connect(self.remove)
        self.visible.toggled.connect(lambda on: self._edit("Show background", visible=on))
        self.locked.toggled.connect(lambda on: self._edit("Lock background", locked=on))
        self.opacity.valueChanged.connect(
            lambda v: self._edit("Background opacity", opacity=v / 100.0, merge=True)
        )
        self.opacity.sliderReleased.connect(self._new_session)
        for box, field in (
            (self.x_box, "x"),
            (self.y_box, "y"),
            (self.scale_box, "scale"),
            (self.rotation_box, "rotation"),
        ):
            box.valueChanged.connect(self._setter(field))
            box.editingFinished.connect(self._new_session)
        doc.changed.connect(self._on_changed)
        self.refresh()

    def _setter(self, field: str) -> Callable[[float], None]:
        return lambda v: self._edit(f"Background {field}", merge=True, **{field: float(v)})

    def _new_session(self) -> None:
        self._session = next(_sessions)

    def _on_changed(self, keys: object) -> None:
        if keys is None or (isinstance(keys, set) and "bg" in keys):
            self.refresh()

    def _edit(self, text: str, merge: bool = False, **changes: object) -> None:
        bg = self.doc.board.background
        if self._loading or bg is None:
            return
        new = copy.copy(bg)
        for k, v in changes.items():
            setattr(new, k, v)
        if new == bg:
            return
        if not merge:
            self._new_session()
        self.doc.undo.push(
            SetBackgroundCommand(self.doc, new, text, drag=self._session if merge else None)
        )

    def remove(self) -> None:
        if self.doc.board.background is not None:
            self.doc.undo.push(SetBackgroundCommand(self.doc, None, "Remove background"))

    def refresh(self) -> None:
        """Show the background as it is now."""
        bg: Background | None = self.doc.board.background
        self._loading = True
        try:
            has = bg is not None
            for w0 in (self.visible, self.locked, self.opacity, self.remove_button):
                w0.setEnabled(has)
            movable = has and bg is not None and not bg.locked
            for wdg in (
                self.x_box,
                self.y_box,
                self.scale_box,
                self.rotation_box,
                self.calibrate_button,
            ):
                wdg.setEnabled(movable)
            if bg is None:
                self.info.setText(
                    "No background picture. Import one (File ▸ Import image…) or drop "
                    "an image file on the board."
                )
                return
            images = self.doc.board.images
            if bg.image in images:
                info = images.info(bg.image)
                w, h = bg.size_mm(info.width, info.height)
                self.info.setText(
                    f"<b>{info.name or info.file_name}</b><br>{info.width} × {info.height} px "
                    f"{info.format.upper()}, {w:.1f} × {h:.1f} mm on the board"
                )
            else:
                self.info.setText("<b>The background image is missing from the project</b>")
            self.visible.setChecked(bg.visible)
            self.locked.setChecked(bg.locked)
            self.opacity.setValue(round(bg.opacity * 100))
            self.x_box.setValue(bg.x)
            self.y_box.setValue(bg.y)
            self.scale_box.setValue(bg.scale)
            self.rotation_box.setValue(bg.rotation)
        finally:
            self._loading = False
