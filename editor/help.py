"""The Help menu: the keyboard shortcuts sheet (F1), the documentation, about.

The sheet is built from the window's own actions and tools, so it lists exactly the
shortcuts the editor has (plus the canvas keys no action carries).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "reference" / "editor.md"

#: canvas keys that no menu action carries
CANVAS_KEYS = [
    ("Arrow keys", "Nudge the selection 1 mm"),
    ("Shift+Arrow keys", "Nudge the selection 10 mm"),
    ("Esc", "Clear the selection (or cancel what a tool is drawing)"),
    ("Enter / double-click", "Finish a path, river, road or space"),
    ("Backspace", "Remove the last vertex while drawing"),
    ("Alt (held)", "Suspend snapping"),
    ("Space (held) + drag, middle drag", "Pan"),
    ("Wheel", "Zoom around the cursor"),
]


def shortcut_rows(actions: list[QAction]) -> list[tuple[str, str]]:
    """(keys, what) for every action with a shortcut, in menu order, then the canvas keys."""
    rows = []
    seen: set[str] = set()
    for a in actions:
        keys = ", ".join(
            s.toString(QKeySequence.SequenceFormat.NativeText)
            for s in a.shortcuts()
            if not s.isEmpty()
        )
        what = a.text().replace("&", "").rstrip("…")
        if keys and keys not in seen:
            seen.add(keys)
            rows.append((keys, what))
    return rows + CANVAS_KEYS


class ShortcutsDialog(QDialog):
    """The keyboard shortcuts sheet."""

    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts — Boardwright")
        self.setObjectName("ShortcutsDialog")
        lay = QVBoxLayout(self)
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels(["Keys", "Does"])
        for r, (keys, what) in enumerate(rows):
            self.table.setItem(r, 0, QTableWidgetItem(keys))
            self.table.setItem(r, 1, QTableWidgetItem(what))
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        lay.addWidget(self.table)
        more = QLabel(
            f'Tools, docks and files: <a href="{QUrl.fromLocalFile(str(DOCS)).toString()}">docs/reference/editor.md</a>'
        )
        more.setOpenExternalLinks(True)
        lay.addWidget(more)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        lay.addWidget(box)
        self.resize(520, 620)

    def rows(self) -> list[tuple[str, str]]:
        out = []
        for r in range(self.table.rowCount()):
            a, b = self.table.item(r, 0), self.table.item(r, 1)
            out.append((a.text() if a else "", b.text() if b else ""))
        return out


def open_docs() -> bool:
    """Open the editor's reference page in the desktop's viewer."""
    return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(str(DOCS))))


def about_text() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("boardwright")
    except PackageNotFoundError:
        v = "development"
    return (
        f"Boardwright {v}\n\nA board editor and a headless referee: draw boards, compile "
        "them to graphs, check them, and playtest them against their rules."
    )
