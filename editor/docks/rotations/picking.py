"""From and To of the Rotations dock: points picked on the canvas, shown by name.

The edits hold names (a node's ``name``, else its id when the name is not unique or
missing); :func:`resolve` turns each back into a node id for the census. While a Pick
button is down the canvas runs a :class:`~editor.tools.pick_node.PickNodeTool`: a click
adds a point (a second click on it removes it); Esc, a right click or the button again
ends picking and gives the canvas its tool back.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit, QPushButton

from referee.compiler import CompiledBoard

from ...document import Document
from ...tools.pick_node import PickNodeTool

if TYPE_CHECKING:
    from ...canvas import BoardScene, BoardView


def display_names(compiled: CompiledBoard) -> dict[str, str]:
    """Node id → the name shown for it (its unique name, else the id)."""
    g = compiled.graph
    named = {n: str(d["name"]) for n, d in g.nodes(data=True) if d.get("name")}
    counts = Counter(named.values())
    return {n: (nm if counts[nm] == 1 else n) for n, nm in named.items()}


def resolve(compiled: CompiledBoard, text: str) -> list[str] | None:
    """The node ids a comma-separated list of names or ids names (None: empty); a token
    naming nothing is passed through for the census to refuse with its own message."""
    tokens = [t.strip() for t in text.replace(";", ",").split(",") if t.strip()]
    if not tokens:
        return None
    by_name = {v: k for k, v in display_names(compiled).items()}
    g = compiled.graph
    return [t if t in g else by_name.get(t, t) for t in tokens]


class EndpointPicker:
    """Drives the two Pick buttons of a Rotations dock (see the module docs)."""

    def __init__(
        self,
        doc: Document,
        scene: BoardScene,
        view: BoardView,
        status: Any,
        buttons: dict[str, tuple[QPushButton, QLineEdit]],
    ) -> None:
        self.doc, self.scene, self.view, self._status = doc, scene, view, status
        self.buttons = buttons
        self.active: str | None = None
        self._prev_tool: Any = None
        self.tool: PickNodeTool | None = None
        for which, (btn, _edit) in buttons.items():
            btn.toggled.connect(lambda on, w=which: self._toggled(w, on))

    # the tool context a PickNodeTool needs
    def status(self, message: str) -> None:
        self._status(message)

    def context_actions(self) -> list[QAction | None]:
        return []

    def _toggled(self, which: str, on: bool) -> None:
        if on:
            for other, (btn, _e) in self.buttons.items():
                if other != which and btn.isChecked():
                    btn.setChecked(False)
            self.start(which)
        elif self.active == which:
            self.end()

    def start(self, which: str) -> None:
        self.end()
        self.active = which
        self._prev_tool = self.view.tool
        if self._prev_tool is not None:
            self._prev_tool.deactivate()
        self.tool = PickNodeTool(self, self.pick, self.end)
        self.view.tool = self.tool
        self.tool.activate()
        self.view.setFocus()
        label = "start from" if which == "from" else "reach"
        self.status(f"Click the points to {label} (again to remove one); Esc ends")

    def end(self) -> None:
        which, self.active = self.active, None
        if which is None:
            return
        btn = self.buttons[which][0]
        btn.blockSignals(True)
        btn.setChecked(False)
        btn.blockSignals(False)
        if self.tool is not None:
            self.tool.deactivate()
        if self.view.tool is self.tool:
            self.view.tool = self._prev_tool
            if self._prev_tool is not None:
                self._prev_tool.activate()
        self.tool = None

    def pick(self, node: str) -> None:
        """Add ``node`` to the active edit by name (remove it if it is there)."""
        if self.active is None:
            return
        edit = self.buttons[self.active][1]
        name = display_names(self.doc.compiled).get(node, node)
        names = [t.strip() for t in edit.text().split(",") if t.strip()]
        if name in names:
            names.remove(name)
            self.status(f"Removed {name}")
        else:
            names.append(name)
            self.status(f"Picked {name}")
        edit.setText(", ".join(names))
