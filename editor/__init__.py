"""Boardwright's desktop editor (PySide6).

The editor edits a :class:`referee.model.Board` through undo commands
(:mod:`editor.commands`), shows it on a millimetre canvas (:mod:`editor.canvas`),
recompiles it live (:mod:`editor.live`) and playtests it against the referee's
rules modules (:mod:`editor.playtest`). ``referee`` never imports this package.
"""

from __future__ import annotations

__all__: list[str] = []
