"""The Playtest dock's hand: the cards of the player to move, as card faces.

The faces come from the game's view (``view["hand"]`` and ``view["cards"]``, see
:mod:`referee.games.cards`), as the browser table shows them: a title, the kind and
value, the rules text, the card's colour along its top. Clicking a card picks it: the
move list keeps only its moves and the board lights its targets (the controller, see
:mod:`editor.playtest_targets`); clicking it again, or Esc, puts it back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

#: a face's colour word -> the stripe along the card's top
COLOURS = {
    "white": "#f7f7f2",
    "grey": "#b8b8b8",
    "yellow": "#f1d35a",
    "good": "#5b8fd6",
    "evil": "#b33a3a",
    "neutral": "#a08a5a",
}


class CardFrame(QFrame):
    """One card face; ``on_click(card id)`` when clicked."""

    def __init__(self, cid: str, face: Mapping[str, str], on_click: Callable[[str], None]) -> None:
        super().__init__()
        self.cid = cid
        self.face = dict(face)
        self._on_click = on_click
        self.setObjectName("card")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setAccessibleName(face["title"])
        self.setAccessibleDescription(face.get("text", ""))
        self.setToolTip(f"{face['title']} ({cid})")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(5, 3, 5, 4)
        lay.setSpacing(1)
        parts = [f"<b>{escape(face['title'], quote=False)}</b>"]
        if face.get("value"):
            parts.append(f"<span style='color:#5a3b00'>{escape(face['value'], quote=False)}</span>")
        if face.get("kind"):
            parts.append(f"<i style='color:#6b5d3a'>{escape(face['kind'], quote=False)}</i>")
        if face.get("text"):
            parts.append(escape(face["text"], quote=False))
        self.label = QLabel("<br>".join(parts))
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.label)
        self.setFixedWidth(132)
        # never squashed below its text: a cramped dock scrolls the hand instead
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.selected(False)

    def selected(self, on: bool) -> None:
        stripe = COLOURS.get(self.face.get("colour", ""), self.face.get("colour") or "#efe6c8")
        outline = "#0050d0" if on else "#9c8a5c"
        self.setStyleSheet(
            f"#card {{ background: #fffdf6; border: {2 if on else 1}px solid {outline}; "
            f"border-top: 7px solid {stripe}; border-radius: 5px; }}"
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._on_click(self.cid)


class HandWidget(QWidget):
    """The cards of a view's ``hand``, two a row; ``picked`` is the card clicked last."""

    def __init__(self, on_pick: Callable[[str | None], None]) -> None:
        super().__init__()
        self._on_pick = on_pick
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(4)
        self.cards: list[CardFrame] = []
        self.picked: str | None = None

    def show_view(self, view: Mapping[str, Any]) -> None:
        """Show the hand of ``view`` (no hand: nothing, and the widget hides)."""
        for c in self.cards:
            # hidden and taken out of the layout, not unparented: a widget without a
            # parent that is shown again (a pending paint, a test's show) is a window
            self.grid.removeWidget(c)
            c.hide()
            c.deleteLater()
        self.cards = []
        hand = view.get("hand") or []
        faces = view.get("cards") or {}
        if self.picked not in hand:
            self.picked = None
        for i, cid in enumerate(hand):
            face = faces.get(cid) or {"title": cid}
            frame = CardFrame(cid, face, self._click)
            frame.selected(cid == self.picked)
            self.grid.addWidget(frame, i // 2, i % 2)
            self.cards.append(frame)
        self.setVisible(bool(self.cards))
        # as tall as its rows of cards (a cramped dock scrolls the hand, never squashes
        # the cards; the layout's own minimum lags a frame behind new cards)
        rows = [self.cards[i : i + 2] for i in range(0, len(self.cards), 2)]
        spacing = self.grid.verticalSpacing()
        self.setMinimumHeight(
            sum(max(c.sizeHint().height() for c in row) for row in rows)
            + spacing * max(0, len(rows) - 1)
        )

    def _click(self, cid: str) -> None:
        self.picked = None if self.picked == cid else cid
        self._outline()
        self._on_pick(self.picked)

    def unpick(self) -> None:
        """Put the picked card back (no call to ``on_pick``)."""
        self.picked = None
        self._outline()

    def _outline(self) -> None:
        for c in self.cards:
            c.selected(c.cid == self.picked)


__all__ = ["COLOURS", "CardFrame", "HandWidget"]
