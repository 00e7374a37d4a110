"""The problems dock: the compiler's problems; click one to select and centre it."""

from __future__ import annotations

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
    """Lists problems; :attr:`activated` carries the problem the user clicked."""

    activated = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Problems", parent)
        self.setObjectName("ProblemsDock")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["", "Problem", "Where", "Message"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setColumnWidth(0, 24)
        self.tree.setColumnWidth(1, 150)
        self.tree.setColumnWidth(2, 160)
        self.setWidget(self.tree)
        self.tree.itemClicked.connect(lambda it, _c: self.activated.emit(it.data(0, PROBLEM_ROLE)))
        self.tree.itemActivated.connect(
            lambda it, _c: self.activated.emit(it.data(0, PROBLEM_ROLE))
        )

    def set_problems(self, problems: list[Problem]) -> None:
        self.tree.clear()
        items = []
        for p in problems:
            err = p.severity == "error"
            it = QTreeWidgetItem(["●", p.code, p.location, p.message])
            it.setForeground(0, QBrush(QColor("#e53935" if err else "#fb8c00")))
            it.setToolTip(3, str(p))
            it.setData(0, PROBLEM_ROLE, p)
            items.append(it)
        self.tree.addTopLevelItems(items)
        n_err = sum(1 for p in problems if p.severity == "error")
        self.setWindowTitle(f"Problems ({n_err} errors, {len(problems) - n_err} warnings)")
