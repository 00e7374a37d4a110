"""Crash recovery: one dialog listing every autosave that belongs here.

The dialog offers **Restore** (open the chosen autosave), **Keep for later** (close the
dialog; every side file stays where it is, and is offered again next time) and
**Discard** (delete the chosen autosave, after a confirmation). Esc or the window's
close button is Keep for later: nothing is ever deleted without the user saying so.

A project's own side file (``<project>.autosave.json``) is overwritten by the next
autosave, so keeping it for later moves it aside to
``<project>.autosave.kept-<time>.json``; those kept files are listed with it.
"""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from referee.errors import BoardwrightError
from referee.model import Board
from referee.store import images_dir

SIDE_ROLE = Qt.ItemDataRole.UserRole


@dataclass
class Autosave:
    """One side file offered back: where it is, its header and board, when it was written."""

    side: Path
    header: dict[str, Any]
    board: Board
    mtime: float

    @property
    def kept(self) -> bool:
        return ".autosave.kept-" in self.side.name

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.mtime))
        b = self.board
        what = f"{len(b.placements)} tiles, {len(b.features)} features"
        return f"{b.name or 'untitled'} — autosaved {when} ({what})" + (
            "  · kept" if self.kept else ""
        )


def remove_autosave(side: Path) -> None:
    """Delete a side file and the pictures folder beside it, if any."""
    with contextlib.suppress(OSError):
        side.unlink()
    shutil.rmtree(images_dir(side), ignore_errors=True)


def kept_path(side: Path) -> Path:
    """Where a project's side file goes when it is kept for later."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(side.stat().st_mtime))
    base = side.name[: -len(".autosave.json")]
    out = side.with_name(f"{base}.autosave.kept-{stamp}.json")
    n = 1
    while out.exists():
        n += 1
        out = side.with_name(f"{base}.autosave.kept-{stamp}-{n}.json")
    return out


def move_aside(side: Path) -> Path:
    """Move a side file (and its pictures folder) to its kept name; returns the new path."""
    dest = kept_path(side)
    side.rename(dest)
    pics = images_dir(side)
    if pics.is_dir():
        shutil.move(str(pics), str(images_dir(dest)))
    return dest


def read_all(
    sides: list[Path], read: Callable[[Path], tuple[dict[str, Any], Board]]
) -> tuple[list[Autosave], list[str]]:
    """The readable autosaves among ``sides`` (newest first) and one line per unreadable one."""
    found, bad = [], []
    for side in sides:
        try:
            header, board = read(side)
        except BoardwrightError as exc:
            bad.append(str(exc))
            continue
        found.append(Autosave(side, header, board, side.stat().st_mtime))
    found.sort(key=lambda a: a.mtime, reverse=True)
    return found, bad


class RecoveryDialog(QDialog):
    """Lists the autosaves; :attr:`choice` is ``"restore"``, ``"keep"`` or ``"discard"``
    after it closes (Discard closes it only when no autosave is left).

    ``confirm(text)`` asks before a discard (the window's message box in the editor).
    """

    def __init__(
        self,
        entries: list[Autosave],
        confirm: Callable[[str], bool],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Recover unsaved work?")
        self.setObjectName("RecoveryDialog")
        self.entries = list(entries)
        self.confirm = confirm
        self.choice = "keep"
        self.chosen: Autosave | None = None
        self.discarded: list[Path] = []
        lay = QVBoxLayout(self)
        n = len(entries)
        self.intro = QLabel(
            f"Boardwright found {n} autosave{'s' if n != 1 else ''} of unsaved work. "
            "Restore one, keep them for later (they are offered again next time), "
            "or discard the ones you do not need."
        )
        self.intro.setWordWrap(True)
        lay.addWidget(self.intro)
        self.list = QListWidget()
        for e in entries:
            it = QListWidgetItem(e.describe())
            it.setData(SIDE_ROLE, str(e.side))
            it.setToolTip(str(e.side))
            self.list.addItem(it)
        self.list.setCurrentRow(0)
        self.list.itemDoubleClicked.connect(lambda _it: self._restore())
        lay.addWidget(self.list)
        box = QDialogButtonBox()
        self.restore_btn = QPushButton("&Restore")
        self.keep_btn = QPushButton("&Keep for later")
        self.discard_btn = QPushButton("&Discard…")
        self.restore_btn.setDefault(True)
        box.addButton(self.restore_btn, QDialogButtonBox.ButtonRole.AcceptRole)
        box.addButton(self.keep_btn, QDialogButtonBox.ButtonRole.RejectRole)
        box.addButton(self.discard_btn, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.restore_btn.clicked.connect(self._restore)
        self.keep_btn.clicked.connect(self.reject)
        self.discard_btn.clicked.connect(self._discard)
        lay.addWidget(box)
        self.resize(560, 260)

    def _current(self) -> Autosave | None:
        row = self.list.currentRow()
        if row < 0:
            return None
        side = self.list.item(row).data(SIDE_ROLE)
        return next((e for e in self.entries if str(e.side) == side), None)

    def _restore(self) -> None:
        e = self._current()
        if e is None:
            return
        self.choice, self.chosen = "restore", e
        self.accept()

    def _discard(self) -> None:
        e = self._current()
        if e is None:
            return
        if not self.confirm(
            f"Delete the autosave “{e.describe()}”? Its unsaved changes are lost for good."
        ):
            return
        remove_autosave(e.side)
        self.discarded.append(e.side)
        self.entries.remove(e)
        self.list.takeItem(self.list.currentRow())
        if not self.entries:
            self.choice = "discard"
            self.reject()

    def reject(self) -> None:  # Esc, the close button, Keep for later
        if self.choice != "discard":
            self.choice = "keep"
        super().reject()
