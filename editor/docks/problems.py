"""The problems dock: the compiler's problems; click one to select and centre it, click its
Fix cell to repair it where a repair is known."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QDockWidget, QTreeWidget, QTreeWidgetItem, QWidget

from referee.compiler import Problem

PROBLEM_ROLE = Qt.ItemDataRole.UserRole


def key_of_node(node: str | None) -> str | None:
    """The canvas key owning a compiled node (a tile placement or a free feature)."""
    if not node:
        return None
    if "/" in node:
        return "p:" + node.split("/", 1)[0]
    return "f:" + node


class ProblemsDock(QDockWidget):
    """Lists problems; :attr:`activated` carries the problem the user clicked,
    :attr:`fix_requested` the one whose Fix cell was clicked (see :attr:`fixer`)."""

    activated = Signal(object)
    fix_requested = Signal(object)
    FIX_COLUMN = 4

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Problems", parent)
        self.setObjectName("ProblemsDock")
        self.tree = QTreeWidget()
        #: names the fix of a problem, or None where there is none
        self.fixer: Callable[[Problem], str | None] = lambda _p: None
        self.tree.setHeaderLabels(["", "Problem", "Where", "Message", "Fix"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setColumnWidth(0, 24)
        self.tree.setColumnWidth(1, 150)
        self.tree.setColumnWidth(2, 160)
        self.tree.setColumnWidth(3, 320)
        self.setWidget(self.tree)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(
            lambda it, _c: self.activated.emit(it.data(0, PROBLEM_ROLE))
        )

    def set_problems(self, problems: list[Problem]) -> None:
        self.tree.clear()
        items = []
        for p in problems:
            err = p.severity == "error"
            fix = self.fixer(p)
            it = QTreeWidgetItem(["●", p.code, p.location, p.message, f"⚒ {fix}" if fix else ""])
            it.setForeground(0, QBrush(QColor("#e53935" if err else "#fb8c00")))
            if fix:
                it.setForeground(self.FIX_COLUMN, QBrush(QColor("#1565c0")))
                it.setToolTip(self.FIX_COLUMN, f"Click to {fix} (one undo step)")
            it.setToolTip(3, str(p))
            it.setData(0, PROBLEM_ROLE, p)
            items.append(it)
        self.tree.addTopLevelItems(items)
        n_err = sum(1 for p in problems if p.severity == "error")
        self.setWindowTitle(f"Problems ({n_err} errors, {len(problems) - n_err} warnings)")

    def _clicked(self, it: QTreeWidgetItem, column: int) -> None:
        p = it.data(0, PROBLEM_ROLE)
        if column == self.FIX_COLUMN and it.text(self.FIX_COLUMN):
            self.fix_requested.emit(p)
        else:
            self.activated.emit(p)

    def fix_cell(self, code: str) -> tuple[int, str] | None:
        """The row and Fix text of the first problem with ``code`` (for tests and help)."""
        for r in range(self.tree.topLevelItemCount()):
            it = self.tree.topLevelItem(r)
            if it is not None and it.text(1) == code:
                return r, it.text(self.FIX_COLUMN)
        return None
