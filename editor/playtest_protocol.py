"""What the playtest's helpers use of :class:`editor.playtest.PlaytestController`, as
:class:`typing.Protocol` s.

The controller builds its bot driver (:mod:`editor.playtest_bots`) and its figures item
(:mod:`editor.playtest_figures`); they take these protocols, never the controller, so
they sit below it and never import it (issue 26, "Layers you can see"). A member is
listed only because a helper uses it.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtWidgets import QDockWidget, QLabel

from referee.games.base import Game
from referee.vocabulary import FigureView, Symbol

from .playtest_targets import CardPlays
from .window_protocol import EditorWindow


class BotHost(Protocol):
    """The playtest as its bot driver sees it: the game, where to say what a bot is
    doing, and how to play a bot's move."""

    @property
    def dock(self) -> QDockWidget: ...

    @property
    def game(self) -> Game[Any]: ...

    @property
    def hint_label(self) -> QLabel: ...

    def play(self, move: Any, by_bot: bool = False) -> bool: ...

    def say(self, text: str, error: bool = False) -> None: ...


class FigureSource(Protocol):
    """The playtest as its figures item sees it: the figures, how each is drawn, the
    picked one and where the legal moves go."""

    @property
    def window(self) -> EditorWindow: ...

    @property
    def views(self) -> dict[str, FigureView]: ...

    @property
    def picked(self) -> str | None: ...

    @property
    def destinations(self) -> set[str]: ...

    @property
    def targets(self) -> dict[str, dict[str, list[Any]]]: ...

    @property
    def placements(self) -> dict[str, list[Any]]: ...

    @property
    def card_plays(self) -> CardPlays | None: ...

    def xy(self, node: str) -> tuple[float, float]: ...

    def figure_xy(self, fid: str) -> tuple[float, float]: ...

    def figure_symbol(self, fid: str) -> Symbol: ...

    def figure_radius(self, view: FigureView) -> float: ...

    def ring_radius(self) -> float: ...

    def moves_to(self, fid: str, node: str) -> list[Any]: ...
