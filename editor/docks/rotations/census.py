"""What the Rotations dock analyses, and the thread that runs the census off the GUI thread."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from referee.compiler import compile_board
from referee.errors import BoardwrightError
from referee.model import Board
from referee.rotations import census

PROGRESS_EVERY_S = 0.04  # at most ~25 progress signals a second


@dataclass
class CensusOptions:
    """What to analyse: the editor's version of ``referee turns``' options."""

    sources: list[str] | None = None
    targets: list[str] | None = None
    tiles: list[str] | None = None  # None: every turnable tile
    galleries: str | None = None
    spider: str = "open"
    sample: int | None = None
    seed: int = 0

    def kwargs(self) -> dict[str, Any]:
        return {
            "sources": self.sources,
            "targets": self.targets,
            "tiles": self.tiles if self.tiles else "turnable",
            "galleries": self.galleries,
            "spider": self.spider,
            "sample": self.sample,
            "seed": self.seed,
        }


class CensusThread(QThread):
    """Compile a board copy and run the census on it, off the GUI thread.

    Signals are queued to the GUI thread: :attr:`progressed` ``(done, total, stage)``
    (throttled), then exactly one of :attr:`result_ready` (a
    :class:`~referee.rotations.CensusResult`, ``partial`` if stopped) or
    :attr:`failed` (a one-line message).
    """

    progressed = Signal(int, int, str)
    result_ready = Signal(object)
    failed = Signal(str)

    def __init__(self, board: Board, options: CensusOptions, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.board = board
        self.options = options
        self._stop = threading.Event()
        self._last = 0.0

    def stop(self) -> None:
        """Ask the run to stop at its next progress tick (it then reports a partial answer)."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def _progress(self, done: int, total: int, stage: str) -> bool:
        now = time.perf_counter()
        if now - self._last >= PROGRESS_EVERY_S or done >= total:
            self._last = now
            self.progressed.emit(done, total, stage)
        # The census is pure Python: hand the GIL over at every tick, so the GUI thread
        # (which needs it for every slot and repaint) never waits for a switch interval.
        time.sleep(0)
        return not self._stop.is_set()

    def run(self) -> None:
        """The thread body: compile the copy, run the census, report by signal."""
        try:
            compiled = compile_board(self.board)
            res = census(compiled, progress=self._progress, **self.options.kwargs())
        except BoardwrightError as exc:
            self.failed.emit(str(exc))
            return
        except Exception as exc:
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.result_ready.emit(res)
